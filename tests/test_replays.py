"""Replays: the steps of each kind of deal, their addresses, the score explained in a sentence,
and what a record may not do to a page (its text is escaped; a wrong record stops the build)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from klabsite.cli import main
from klabsite.engine.actions import Action, ActionKind
from klabsite.records.annotations import dd_cost
from klabsite.records.klab import format_record, read_record
from klabsite.records.replay import positions, replay
from klabsite.site.build import run_build
from klabsite.site.replay_pages import neighbours
from klabsite.site.replays import LoadedRecord, deal_views
from klabsite.solver import Solver
from klabsite.solver.annotate import analyse_record
from tests.site_helpers import tree

FIXTURES = Path(__file__).parent / "fixtures"
AUDIT = FIXTURES / "audit"
REPO = Path(__file__).resolve().parents[1]


def _views(path: Path):
    record = read_record(path.read_text(encoding="utf-8"))
    return deal_views([LoadedRecord(str(path), record, replay(record))])


def _names(path: Path, number: int = 1) -> list[str]:
    deal = next(view for view in _views(path) if view.number == number)
    return [step.name for step in deal.steps]


def test_a_thrown_in_deal_goes_from_its_last_bid_to_end():
    assert _names(AUDIT / "kb_thrown_in.klab") == ["deal", "b1", "b2", "b3", "b4", "end"]


def test_a_schmeiss_redeal_ends_after_the_accept():
    assert _names(AUDIT / "kb_schmeiss_accepted_dealer_changes.klab") == ["deal", "b1", "b2", "end"]


@pytest.mark.parametrize("name", ["kb_thrown_in.klab", "kb_schmeiss_accepted_dealer_changes.klab",
                                  "kb_schmeiss_accepted_same_dealer.klab"])
def test_a_deal_thrown_in_or_redealt_says_who_deals_next(tmp_path, name):
    """Klaberjass §3 (both pass twice: the other player deals) and schmeiss-redeal (after an accepted
    schmeiss the dealer changes, or with ``same-dealer`` deals again): the step that throws the hands
    in names the dealer of the next deal, whom the record's next deal bears out."""
    path = AUDIT / name
    first, second = _views(path)[:2]
    assert first.next_dealer == second.dealer
    out = tmp_path / "site"
    assert run_build(REPO, out=str(out), langs=[], deals=[path]) == 0
    html = (out / "en" / "deals" / first.id / f"{first.steps[-2].name}.html").read_text(encoding="utf-8")
    said = re.search(r"the hands are thrown in and (?:dealt again: (\w+) deals|(\w+) deals next)\.", html, re.I)
    names = {"N": "North", "S": "South"}
    assert said is not None and names[second.dealer.value] in said.groups()


def test_a_dix_deal_has_the_extra_cards_then_the_exchange_then_the_declarations():
    names = _names(AUDIT / "kb_dix_exchange.klab")
    assert names[:6] == ["deal", "b1", "x", "dix", "m1", "t1-1"]
    assert names[-2:] == ["t9-2", "end"] and len(names) == 1 + 1 + 1 + 1 + 1 + 18 + 1


def test_the_dealer_declares_after_the_first_card_of_the_first_trick():
    names = _names(FIXTURES / "records" / "valid" / "klaberjass_three_deals.klab", 2)
    assert names.index("m1") < names.index("t1-1") < names.index("m2") < names.index("t1-2")


def test_an_unfinished_deal_stops_at_its_last_action():
    names = _names(FIXTURES / "records" / "valid" / "klaverjas_unfinished.klab")
    assert names == ["deal", "b1", "t1-1", "t1-2", "t1-3", "t1-4", "t2-1"]


def test_every_step_of_a_klaverjas_deal_has_its_name_and_the_trick_winner_on_its_last_card():
    deal = _views(FIXTURES / "records" / "valid" / "klaverjas_rotterdam.klab")[0]
    cards = [step for step in deal.steps if step.kind == "card"]
    assert [step.name for step in cards] == [f"t{t}-{c}" for t in range(1, 9) for c in range(1, 5)]
    for step in cards:
        assert (step.table.won_by is not None) == (step.card_number == 4), step.name
    assert sum(deal.steps[-1].table.points.values()) == 162


def test_from_the_first_card_to_the_last_nothing_in_a_hand_moves():
    deal = _views(AUDIT / "kb_dix_exchange.klab")[0]
    rows = {step.name: {seat: [slot.card for slot in slots] for seat, slots in step.table.hands.items()}
            for step in deal.steps}
    assert all(row == rows["t1-1"] for name, row in rows.items() if name.startswith("t") or name == "end")
    first, last = deal.steps[0].table, deal.steps[-1].table
    assert {slot.state for slots in first.hands.values() for slot in slots} == {"held", "coming"}
    assert {slot.state for slots in last.hands.values() for slot in slots} == {"played", "gone"}


@pytest.mark.parametrize("name", ["kb_dix_exchange", "kb_dix_keep"])
def test_after_a_dix_the_upcard_line_says_whose_7_lies_there_and_which_card_he_took(tmp_path, name):
    from klabsite.engine.klaberjass import DixDecided

    deal = _views(AUDIT / f"{name}.klab")[0]
    dix = next(event for step in deal.steps for event in step.step.events if isinstance(event, DixDecided))
    out = tmp_path / "site"
    assert run_build(REPO, out=str(out), langs=[], deals=[AUDIT / f"{name}.klab"]) == 0
    seats = {"N": "North", "S": "South"}

    def upcard_line(page: str) -> str:
        html = (out / "en" / "deals" / deal.id / f"{page}.html").read_text(encoding="utf-8")
        return re.sub(r"<[^>]+>", "", re.search(r'<p class="upcard">(.*?)</p>', html, re.S).group(1))

    seven, upcard = _glyph(dix.seven), _glyph(dix.upcard)
    assert upcard_line("b1") == f"Upcard: {upcard}"
    for page in ("dix", "index"):
        if dix.exchanged:
            assert upcard_line(page) == f"Upcard: {seven}, given by {seats[dix.seat.value]} for {upcard} (dix)"
        else:
            assert upcard_line(page) == f"Upcard: {upcard}"


@pytest.fixture(scope="module")
def worked_deals(tmp_path_factory):
    """The shipped matches of worked examples, analysed, built in English: (deal views, site)."""
    paths = [REPO / "site_src" / "deals" / f"{game}-match.klab" for game in ("klaverjas", "klaberjass")]
    out = tmp_path_factory.mktemp("worked") / "site"
    assert run_build(REPO, out=str(out), langs=[], deals=paths) == 0
    return [deal for path in paths for deal in _views(path)], out


def _told(site: Path, deal, step) -> str:
    html = (site / "en" / "deals" / deal.id / f"{step.name}.html").read_text(encoding="utf-8")
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", re.search(r'<div class="what">(.*?)</div>', html, re.S).group(1)))


def test_a_card_that_follows_suit_as_the_only_one_of_its_suit_says_so_when_the_hand_held_others(worked_deals):
    deals, site = worked_deals
    suits = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
    seen = {True: 0, False: 0}
    for deal in deals:
        for step in (step for step in deal.steps if step.kind == "card" and step.rule == "follow"):
            told = _told(site, deal, step)
            led = suits[step.table.trick[0][1].suit.value]
            said = f"must follow suit and holds no other {led}." in told
            expected = step.forced and step.hand_size > 1
            assert said == expected, (deal.id, step.name, told)
            seen[expected] += 1
    assert seen[True] and seen[False], seen


def test_when_every_allowed_card_is_worth_the_same_the_analysis_names_them_if_the_hand_held_others(worked_deals):
    deals, site = worked_deals
    seen = {"named": 0, "all": 0}
    for deal in deals:
        for step in (step for step in deal.steps if step.kind == "card" and step.all_equal and not step.forced):
            told = _told(site, deal, step)
            held = step.hand_size
            allowed = [_glyph(card) for card in step.best_cards]
            assert len(allowed) == len(step.dd) and held == len([slot for slot in step.table.hands[step.step.seat]
                                                                 if slot.state == "held"]) + 1
            if len(allowed) < held:
                joined = ", ".join(allowed[:-1]) + (", or " if len(allowed) > 2 else " or ") + allowed[-1]
                assert f"The rules allow {joined}, and each is worth the same here." in told, (deal.id, step.name, told)
                seen["named"] += 1
            else:
                assert "Every card the rules allow is worth the same here." in told, (deal.id, step.name, told)
                seen["all"] += 1
    assert seen["named"] and seen["all"], seen


def test_a_thrown_in_deals_score_step_gives_the_match_as_it_stands(worked_deals):
    deals, site = worked_deals
    thrown = [deal for deal in deals if deal.outcome in ("thrown-in", "redeal") and deal.match_deals > 1]
    assert thrown
    for deal in thrown:
        html = (site / "en" / "deals" / deal.id / "end.html").read_text(encoding="utf-8")
        table = re.search(r'<caption>Match after this deal</caption>(.*?)</table>', html, re.S).group(1)
        names = re.findall(r'<th scope="col" class="number">([^<]+)</th>', table)
        figures = re.findall(r'<td class="number">([^<]+)</td>', table)
        seats = {"N": "North", "S": "South", "NS": "North–South", "EW": "East–West"}
        assert dict(zip(names, figures, strict=True)) == {seats[key]: str(value)
                                                          for key, value in deal.match_after.items()}



def test_the_deal_that_ends_a_match_says_who_won_it_on_its_overview_and_score_step(worked_deals):
    deals, site = worked_deals
    names = {"N": "North", "S": "South", "NS": "North–South", "EW": "East–West"}
    ends = [deal for deal in deals if deal.ends_match]
    assert len(ends) == 2, "one whole match of each game"
    for deal in ends:
        winner = max(deal.match_after, key=deal.match_after.__getitem__)
        loser = min(deal.match_after, key=deal.match_after.__getitem__)
        verb = "win" if deal.by_side else "wins"
        said = (f"{names[winner]} {verb} the match, {deal.match_after[winner]:,} to "
                f"{deal.match_after[loser]:,}.")
        for page in ("index.html", "end.html"):
            html = (site / "en" / "deals" / deal.id / page).read_text(encoding="utf-8")
            assert f'<p class="match-result">{said}</p>' in html, (deal.id, page)
    others = [deal for deal in deals if not deal.ends_match]
    assert not any("the match," in (site / "en" / "deals" / deal.id / "end.html").read_text(encoding="utf-8")
                   for deal in others)

def test_the_last_deal_of_a_record_that_stops_before_its_match_ends_says_so(tmp_path):
    path = REPO / "site_src" / "deals" / "klaberjass-schmeiss.klab"
    out = tmp_path / "site"
    assert run_build(REPO, out=str(out), langs=[], deals=[path]) == 0
    deals = _views(path)
    assert not deals[-1].ends_match
    for deal in deals:
        html = (out / "en" / "deals" / deal.id / "end.html").read_text(encoding="utf-8")
        said = "The record stops before the end of the match." in html
        assert said == (deal is deals[-1]), deal.id


def test_an_overviews_hands_say_they_are_sorted_by_the_trump_chosen(worked_deals):
    deals, site = worked_deals
    for deal in (deal for deal in deals if deal.hands_step.table.trump is not None):
        html = (site / "en" / "deals" / deal.id / "index.html").read_text(encoding="utf-8")
        assert "Each hand is sorted as its player holds it once trump is chosen, the trumps in trump order." in html


def test_the_scoreboard_counts_the_best_sequences_from_the_step_that_shows_them(worked_deals):
    from klabsite.engine.melds import MeldsCompared, MeldsShown

    deals, site = worked_deals
    seen = 0
    for deal in (deal for deal in deals if deal.game == "klaberjass"):
        compared = next((event for step in deal.steps for event in step.step.events
                         if isinstance(event, MeldsCompared)), None)
        shown = next((step.index for step in deal.steps
                      if any(isinstance(event, MeldsShown) for event in step.step.events)), None)
        for step in (step for step in deal.steps if step.kind != "end"):
            html = (site / "en" / "deals" / deal.id / f"{step.name}.html").read_text(encoding="utf-8")
            rows = _rows(re.search(r'<table class="scoreboard">(.*?)</table>', html, re.S).group(1))
            if shown is None or step.index < shown or not compared.points:
                assert "Sequences" not in rows, (deal.id, step.name)
                continue
            seen += 1
            best = {"N": "North", "S": "South"}[compared.best.value]
            names = re.findall(r'<th scope="col" class="number">([^<]+)</th>', html.split('class="scoreboard"')[1])
            assert dict(zip(names, rows["Sequences"], strict=True)) == {
                name: str(compared.points if name == best else 0) for name in names}, (deal.id, step.name)
    assert seen


def test_a_blank_title_is_no_title_and_a_title_shows_without_its_outer_blanks(tmp_path):
    source = (FIXTURES / "records" / "valid" / "klaberjass_three_deals.klab").read_text(encoding="utf-8")
    out = tmp_path / "site"
    for title, shown in (("   ", None), ("  Three deals  ", "Three deals")):
        path = tmp_path / "titled.klab"
        path.write_text(source.replace('[Game "klaberjass"]', f'[Game "klaberjass"]\n[Title "{title}"]'),
                        encoding="utf-8")
        assert run_build(REPO, out=str(out), langs=[], deals=[path]) == 0
        deal = _views(path)[0]
        html = (out / "en" / "deals" / deal.id / "index.html").read_text(encoding="utf-8")
        heading = re.sub(r"<[^>]+>", "", re.search(r"<h1>(.*?)</h1>", html, re.S).group(1)).strip()
        assert heading == (f"{shown} · Klaberjass · deal 1" if shown else "Klaberjass · deal 1"), heading
        assert "<h1> " not in html and "   ·" not in html


_PLAYER_SUITS = "SHCD"  # black and red alternate
_TRUMP_RANKS, _PLAIN_RANKS = "J9ATKQ87", "ATKQJ987"


@pytest.mark.parametrize("path", [AUDIT / "kb_dix_exchange.klab", AUDIT / "kb_dix_keep.klab",
                                  FIXTURES / "records" / "valid" / "klaverjas_rotterdam.klab"],
                         ids=lambda path: path.stem)
def test_every_hand_is_sorted_as_a_player_sorts_it_with_trumps_in_trump_order_once_chosen(path):
    deal = _views(path)[0]
    for step in deal.steps:
        trump = step.table.trump
        for seat, slots in step.table.hands.items():
            shown = [slot for slot in slots if slot.state != "coming"]
            assert all(slot.state == "coming" for slot in slots[len(shown):]), (step.name, seat)
            places = [(_PLAYER_SUITS.index(slot.card.suit.value),
                       (_TRUMP_RANKS if slot.card.suit == trump else _PLAIN_RANKS).index(slot.card.rank.letter))
                      for slot in shown]
            assert places == sorted(places), (step.name, seat, [str(slot.card) for slot in shown])
    chosen = next(step for step in deal.steps if step.table.trump is not None)
    ranks = [slot.card.rank.letter for slots in chosen.table.hands.values() for slot in slots
             if slot.state != "coming" and slot.card.suit == chosen.table.trump]
    assert ranks and any(_TRUMP_RANKS.index(rank) != _PLAIN_RANKS.index(rank) for rank in ranks)


def test_neighbours_of_a_step_are_its_first_previous_next_last_and_the_tricks_around_it():
    deal = _views(FIXTURES / "records" / "valid" / "klaverjas_rotterdam.klab")[0]
    names = [step.name for step in deal.steps]
    assert neighbours(deal, names.index("t3-2")) == {
        "first": "deal", "prev": "t3-1", "next": "t3-3", "last": "end",
        "prev_trick": "t2-1", "next_trick": "t4-1"}
    assert neighbours(deal, 0)["prev"] is None and neighbours(deal, len(deal.steps) - 1)["next"] is None
    assert neighbours(deal, names.index("end"))["prev_trick"] == "t8-1"
    assert neighbours(deal, names.index("b1"))["next_trick"] == "t1-1"
    assert neighbours(deal, names.index("t8-2"))["next_trick"] == "end"  # from the last trick, the score
    assert neighbours(deal, names.index("end"))["next_trick"] is None


def test_after_the_dealers_declaration_the_next_trick_is_the_second():
    deal = next(view for view in _views(FIXTURES / "records" / "valid" / "klaberjass_three_deals.klab")
                if view.number == 2)
    names = [step.name for step in deal.steps]
    around = neighbours(deal, names.index("m2"))
    assert names.index("m2") > names.index("t1-1")
    assert (around["prev_trick"], around["next_trick"]) == (None, "t2-1")


def _reformatted(text: str) -> str:
    """The same deals written differently: comments, spacing, lower case, a tag and an annotation added."""
    lines = []
    for line in text.splitlines():
        if line and not line.startswith(("[", "%")):
            seat, *words = line.split()
            line = f"{seat}   {' '.join(words).lower()}   ; a comment"
        if line.startswith("[Tags"):
            line = '[Tags "my-own-word"]'
        lines.append(line)
        if line.startswith("[Dealer"):
            lines.append('[Note "reformatted"]')
    return "\n".join(lines) + "\n"


def test_replay_addresses_do_not_move_when_a_record_is_reformatted_retagged_or_annotated():
    text = (FIXTURES / "records" / "valid" / "klaberjass_three_deals.klab").read_text(encoding="utf-8")
    before = {deal.id: [step.name for step in deal.steps]
              for deal in deal_views([LoadedRecord("a", read_record(text), replay(read_record(text)))])}
    other = read_record(_reformatted(text))
    after = {deal.id: [step.name for step in deal.steps]
             for deal in deal_views([LoadedRecord("b", other, replay(other))])}
    assert before == after and len(before) == 3


# -- pages built from records ---------------------------------------------------------------


@pytest.fixture(scope="module")
def replay_site(tmp_path_factory):
    """A site of some records through ``klabsite replay``'s own path (English and French)."""
    folder = tmp_path_factory.mktemp("replays")
    hostile = (FIXTURES / "records" / "valid" / "klaberjass_three_deals.klab").read_text(encoding="utf-8")
    hostile = hostile.replace('[Game "klaberjass"]', '[Game "klaberjass"]\n[Players "N:<b>Anna</b> S:Ben\\"\'"]\n'
                              '[Title "<script>alert(1)</script> & \\"quotes\\""]')
    hostile = hostile.replace('[Dealer "S"]', '[Dealer "S"]\n[Note "<img src=x onerror=alert(1)> \\"note\\""]', 1)
    (folder / "hostile.klab").write_text(hostile, encoding="utf-8")
    files = [folder / "hostile.klab", FIXTURES / "replays" / "kb_tie_hanging.klab",
             AUDIT / "kv_pit_four_of_a_kind.klab", AUDIT / "kv_roem_nat.klab"]
    out = folder / "site"
    assert run_build(Path(__file__).resolve().parents[1], out=str(out), langs=["fr"], deals=files) == 0
    return out


def _overviews(site: Path, lang: str = "en") -> dict[str, str]:
    return {path.parent.name: path.read_text(encoding="utf-8") for path in (site / lang / "deals").glob("*/index.html")}


def _sentence(html: str) -> str:
    """The score explained on an overview ("" for a deal thrown in)."""
    match = re.search(r'<p class="score-sentence">(.*?)</p>', html, re.S)
    return re.sub(r"<[^>]+>", "", match.group(1)).strip() if match else ""


def test_score_sentences_for_made_failed_tie_hanging_nat_and_pit(replay_site):
    sentences = [_sentence(html) for html in _overviews(replay_site).values()]
    joined = "\n".join(sentences)
    assert re.search(r"(North|South), the maker, made \d+ points to \d+, more than (North|South): each player "
                     r"scores his own", joined)
    assert re.search(r"the maker, had \d+ points to \d+, fewer than (North|South): the maker fails, and "
                     r"(North|South) scores all \d+\.", joined)
    assert re.search(r"chose trump and made \d+ points to \d+, more than (North–South|East–West): each "
                     r"side scores its own", joined)
    assert "a tie, so the maker scores nothing" in joined
    assert "points are set aside: they go to whoever scores more in the next deal that is not a tie." in joined
    assert "points left hanging by the tie before" in joined
    assert re.search(r"chose trump and had \d+ points to \d+, no more than (North–South|East–West): they are nat, "
                     r"and", joined)
    assert re.search(r"the maker, had \d+ points, as many as (North|South): a tie", joined)
    assert "They took every trick, a pit: its 100 points are in that total." in joined


def test_the_overviews_table_of_tricks_says_where_the_last_tricks_10_is(replay_site):
    rows = 0
    for html in _overviews(replay_site).values():
        table = re.search(r'<table class="klab-table tricks">.*?</table>', html, re.S)
        if table is None:
            continue
        points = re.findall(r'<td class="number">([^<]*)</td>(?:<td[^>]*>[^<]*</td>)?</tr>', table.group(0))  # roem, bella
        *before, last = points
        assert all(re.fullmatch(r"\d+", cell) for cell in before), before
        number = re.fullmatch(r"(\d+), with 10 for the last trick", last)
        assert number and int(number.group(1)) >= 10, last
        rows += 1
    assert rows >= 3
    french = "\n".join(_overviews(replay_site, "fr").values())
    assert re.search(r'<td class="number">\d+, dont 10 de der</td>', french)


def test_next_on_a_deals_score_leads_to_the_next_deal_and_says_so(replay_site):
    ends = [path.read_text(encoding="utf-8") for path in (replay_site / "en" / "deals").glob("*/end.html")]
    following = [(html, re.search(r'<a href="([^"]+)">Next deal: deal', html)) for html in ends]
    assert any(link for _, link in following) and not all(link for _, link in following)
    for html, link in following:
        nav = re.search(r'<nav class="step-nav" id="step-nav" tabindex="-1" aria-label="Step through the deal">(.*?)</nav>', html, re.S).group(1)
        if link:
            assert f'<a rel="next" href="{link.group(1)}">Next deal</a>' in nav
        else:
            assert '<span role="link" aria-disabled="true">Next</span>' in nav


def test_previous_on_a_deals_first_step_leads_to_its_overview_and_says_so(replay_site):
    """As Next on the last step says "Next deal": "Previous" beside a greyed "First" read as a slip."""
    for first in (replay_site / "en" / "deals").glob("*/deal.html"):
        html = first.read_text(encoding="utf-8")
        nav = re.search(r'<nav class="step-nav" id="step-nav"[^>]*>(.*?)</nav>', html, re.S).group(1)
        assert '<a rel="prev" href="index.html">Overview</a>' in nav and ">Previous<" not in nav
        below = re.search(r'<nav class="step-nav step-nav-below"[^>]*>(.*?)</nav>', html, re.S).group(1)
        assert '<a class="go-prev" href="index.html">Overview</a>' in below
    step = next((replay_site / "en" / "deals").glob("*/b1.html")).read_text(encoding="utf-8")
    assert '<a rel="prev" href="deal.html">Previous</a>' in step


def _step_nav(html: str) -> str:
    return re.search(r'<nav class="step-nav" id="step-nav"[^>]*>(.*?)</nav>', html, re.S).group(1)


def test_the_trick_links_lead_from_the_last_trick_to_the_score_and_a_deal_thrown_in_has_none(tmp_path):
    shipped = REPO / "site_src" / "deals"
    records = [shipped / "klaberjass-dix.klab", shipped / "klaberjass-thrown-in.klab"]
    out = tmp_path / "site"
    assert run_build(REPO, out=str(out), langs=["fr"], deals=records) == 0
    played = thrown = 0
    for deal in [view for path in records for view in _views(path)]:
        page = out / "en" / "deals" / deal.id
        for step in deal.steps:
            nav = _step_nav((page / f"{step.name}.html").read_text(encoding="utf-8"))
            if not deal.tricks:
                thrown += 1
                assert "trick" not in nav, (deal.id, step.name)
            elif step.name.startswith(f"t{len(deal.tricks)}-"):
                played += 1
                assert '<a href="end.html">The score</a>' in nav and "Next trick" not in nav
            elif step.kind == "card":
                assert "Next trick" in nav
    assert played and thrown


def test_a_deals_share_description_leads_with_no_fact_its_score_sentence_tells(tmp_path):
    """The headline tag is one the score sentence after it does not tell (pit, nat, fails, tie)."""
    shipped = Path(__file__).resolve().parents[1] / "site_src" / "deals"
    records = [shipped / f"{name}.klab" for name in ("klaverjas-forced", "klaverjas-blunder", "klaberjass-tie",
                                                     "klaberjass-bella")]
    out = tmp_path / "site"
    assert run_build(Path(__file__).resolve().parents[1], out=str(out), langs=["fr"], deals=records) == 0
    told = {"pit": "The playing side takes every trick: pit.", "nat": "The playing side goes nat.",
            "maker-failed": "The maker fails.", "tie": "The maker and the opponent tie."}  # the tags' meanings
    seen = set()
    for deal in [view for path in records for view in _views(path)]:
        html = (out / "en" / "deals" / deal.id / "index.html").read_text(encoding="utf-8")
        description = re.search(r'<meta property="og:description" content="([^"]*)">', html).group(1)
        for tag in set(deal.tags) & set(told):
            seen.add(tag)
            assert told[tag] not in description, (tag, description)
    assert seen == set(told)


def test_a_klaberjass_overview_marks_the_cards_that_came_with_the_extra_cards(replay_site):
    marked = [html for html in _overviews(replay_site).values() if 'class="extra-mark"' in html]
    assert marked
    for html in marked:
        assert html.count('<span class="extra-mark" aria-hidden="true">+</span>') == 6  # three cards each
        assert "The cards marked + came with the extra cards, after the bidding." in html


def test_an_overview_shows_the_hands_as_dealt_sorted_with_trumps_in_trump_order(replay_site):
    for path in (AUDIT / "kv_pit_four_of_a_kind.klab", AUDIT / "kv_roem_nat.klab"):
        deal = _views(path)[0]
        trump = deal.steps[-1].table.trump.name.lower()  # "hearts", as the cards' names say it
        html = _overviews(replay_site)[deal.id]
        dealt = html[html.index("The hands as dealt"):html.index("<h2", html.index("The hands as dealt"))]
        for row in re.findall(r'<ul class="hand">(.*?)</ul>', dealt, re.S):
            cards = re.findall(r'aria-label="(\w+) of (\w+)"', row)
            trumps = [rank for rank, suit in cards if suit == trump]
            order = ["jack", "nine", "ace", "ten", "king", "queen", "eight", "seven"]
            assert trumps == sorted(trumps, key=order.index), (path.name, cards)
            assert len(cards) == 8


def test_a_deal_and_its_match_link_to_their_record_to_download(replay_site):
    for deal_id, html in _overviews(replay_site).items():
        href = re.search(r'<a href="(\.\./\.\./\.\./records/(\w+)\.klab)" download="\2\.klab">Download the record',
                         html)
        record = read_record((replay_site / "en" / "deals" / deal_id / href.group(1)).resolve().read_text(encoding="utf-8"))
        assert record.match_id() == href.group(2) and deal_id in [done.id for done in replay(record).deals]
        match = (replay_site / "en" / "matches" / href.group(2) / "index.html").read_text(encoding="utf-8")
        assert f'<a href="{href.group(1)}" download="{href.group(2)}.klab">Download the record (.klab)</a>' in match


def test_a_match_pages_sheet_heads_each_pair_of_columns_with_what_they_count(replay_site):
    """"Score" and "Running total" over a column per side or player, as on the rules page's sheet."""
    pages = list((replay_site / "en" / "matches").glob("*/index.html"))
    assert pages
    for page in pages:
        head = re.search(r"<thead>(.*?)</thead>", page.read_text(encoding="utf-8"), re.S).group(1)
        first, second = re.findall(r"<tr>(.*?)</tr>", head, re.S)
        assert re.findall(r'colspan="2" class="group">([^<]+)<', first) == ["Score", "Running total"]
        assert first.count('rowspan="2"') == 3
        names = [re.sub(r"<[^>]+>", "", cell) for cell in re.findall(r"<th [^>]*>(.*?)</th>", second)]
        assert names in (["North", "South"] * 2, ["North–South", "East–West"] * 2), names


def test_replay_gives_the_same_site_whatever_order_its_records_are_named_in(tmp_path):
    """The same records are the same inputs: the gallery and the manifest do not follow the
    command line's order."""
    from tests.site_helpers import tree

    records = [FIXTURES / "replays" / "kb_tie_hanging.klab", AUDIT / "kv_roem_nat.klab",
               FIXTURES / "records" / "valid" / "klaberjass_three_deals.klab"]
    sites = []
    for order in (records, records[::-1]):
        out = tmp_path / f"site{len(sites)}"
        assert run_build(REPO, out=str(out), langs=[], deals=order) == 0
        sites.append(tree(out))
    assert sites[0] == sites[1]


def test_record_text_is_escaped_on_every_page(replay_site):
    pages = list(replay_site.rglob("*.html"))
    assert pages
    for page in pages:
        html = page.read_text(encoding="utf-8")
        assert "<script" not in html and "onerror=alert" not in html.replace("onerror=alert(1)&gt;", "")
        assert "<b>Anna</b>" not in html and "<img src=x" not in html
    overview = next(html for html in _overviews(replay_site).values() if "Anna" in html)
    assert "&lt;b&gt;Anna&lt;/b&gt;" in overview and "&lt;img src=x onerror=alert(1)&gt;" in overview


def test_the_gallery_opens_with_links_to_each_games_deals_the_marks_and_what_the_costs_mean(replay_site):
    gallery = (replay_site / "en" / "deals" / "index.html").read_text(encoding="utf-8")
    contents = gallery[gallery.index('<nav class="toc"'):gallery.index("</nav>", gallery.index('<nav class="toc"'))]
    targets = re.findall(r'<a href="#([\w-]+)">', contents)
    assert [target for target in targets if not target.startswith("tag-")] == [
        "game-klaberjass", "game-klaverjas", "marks", "analysis", "matches"]
    assert "tag-klaberjass-dix" in targets
    for game in ("klaberjass", "klaverjas"):
        start = targets.index(f"game-{game}")
        tags = [target for target in targets if target.startswith(f"tag-{game}-")]
        assert targets[start + 1:start + 1 + len(tags)] == tags, "a game's tag words follow it in the contents"
    for target in targets:
        assert f'id="{target}"' in gallery


MARKS = {"is-played", "is-gone", "is-melded", "is-coming", "is-best", "cost", "extra-mark", "is-winner", "roem-mark"}


def _marks(html: str) -> set[str]:
    """The marks drawn on the cards of a page: the classes of its card places and what they hold."""
    found = set()
    for place in re.findall(r'<li class="(?:slot|played)[^"]*"[^>]*>.*?</li>', html):
        found |= set(re.findall(r'class="([^"]+)"', place)[0].split())
        found |= set(re.findall(r'class="(cost|extra-mark|roem-mark)"', place))
    return found & MARKS


def test_the_gallery_explains_every_mark_the_replays_draw_and_each_step_links_to_it(replay_site):
    gallery = (replay_site / "en" / "deals" / "index.html").read_text(encoding="utf-8")
    legend = gallery.split('<h2 id="marks">', 1)[1].split("</section>", 1)[0]
    items = re.findall(r"<li><ul class=\"hand\".*?</ul> <p>(.*?)</p></li>", legend, re.S)
    assert _marks(legend) == MARKS and len(items) == len(MARKS) and all(items)
    drawn = set()
    for page in (replay_site / "en" / "deals").glob("*/*.html"):
        html = page.read_text(encoding="utf-8")
        drawn |= _marks(html)
        assert '<a href="../index.html#marks">What the marks on the cards mean</a>' in html, page
    assert {"is-played", "is-melded", "is-winner", "is-coming", "extra-mark"} <= drawn <= MARKS


def test_the_score_step_numbers_each_played_card_with_its_trick_and_no_other_step_does(replay_site):
    for deal in _views(AUDIT / "kv_roem_nat.klab"):
        end = deal.steps[-1]
        assert end.kind == "end"
        for step in deal.steps:
            html = (replay_site / "en" / "deals" / deal.id / f"{step.name}.html").read_text(encoding="utf-8")
            numbers = re.findall(r'<span class="trick-no" aria-hidden="true">(\d+)</span>', html)
            if step is not end:
                assert numbers == [], step.name
                continue
            played = [str(slot.trick) for who in deal.seats for slot in step.table.hands[who] if slot.state == "played"]
            assert numbers == played and len(played) == 32


def test_the_gallery_details_each_deal_once_and_its_tag_groups_only_link_to_the_deals(replay_site):
    gallery = (replay_site / "en" / "deals" / "index.html").read_text(encoding="utf-8")
    groups = re.findall(r'<section class="tag-group".*?</section>', gallery, re.S)
    assert groups
    for group in groups:
        assert "deal-result" not in group and re.search(r'<ul class="deal-links">\n<li><a href="\w+/index.html">', group)
    deals = [deal for path in (FIXTURES / "replays" / "kb_tie_hanging.klab", AUDIT / "kv_pit_four_of_a_kind.klab",
                               AUDIT / "kv_roem_nat.klab") for deal in _views(path)]
    assert any(deal.tags for deal in deals)
    for deal in deals:
        assert gallery.count(f'<a href="{deal.id}/index.html">') == 1 + len(deal.tags), "its line, its tag groups"


def test_a_french_step_page_is_french_and_keeps_its_address(replay_site):
    english = sorted((replay_site / "en" / "deals").glob("*/t2-1.html"))[0]
    french = replay_site / "fr" / english.relative_to(replay_site / "en")
    assert french.is_file()
    assert '<html lang="fr" dir="ltr">' in french.read_text(encoding="utf-8")


def test_an_unknown_tag_word_is_listed_in_the_gallery_with_its_words(tmp_path):
    text = (AUDIT / "kv_roem_nat.klab").read_text(encoding="utf-8").replace('[Dealer "N"]', '[Dealer "N"]\n[Tags "kitchen-table"]')
    (tmp_path / "a.klab").write_text(text, encoding="utf-8")
    out = tmp_path / "site"
    assert run_build(Path(__file__).resolve().parents[1], out=str(out), langs=["en"], deals=[tmp_path / "a.klab"]) == 0
    gallery = (out / "en" / "deals" / "index.html").read_text(encoding="utf-8")
    assert "kitchen-table" in gallery and "A word the record" in gallery


def test_a_result_that_disagrees_stops_the_build_with_checks_line(tmp_path, capsys, monkeypatch):
    text = (AUDIT / "kv_roem_nat.klab").read_text(encoding="utf-8").replace('[Dealer "N"]', '[Dealer "N"]\n[Result "NS 1 EW 1"]')
    (tmp_path / "deals").mkdir()
    (tmp_path / "deals" / "wrong.klab").write_text(text, encoding="utf-8")
    out = tmp_path / "site"
    out.mkdir()
    monkeypatch.chdir(tmp_path)
    line = text.splitlines().index('[Result "NS 1 EW 1"]') + 1
    for given in ("deals/wrong.klab", "../" + tmp_path.name + "/deals/wrong.klab", str(tmp_path / "deals" / "wrong.klab")):
        capsys.readouterr()
        assert main(["replay", given, "--out", str(out), "--lang", "en"]) == 1
        err = capsys.readouterr().err
        assert err.startswith(f"{given}:{line}: [Result") and err.count("\n") == 1, "as check says it"
        assert main(["check", given]) == 1
        assert capsys.readouterr().err.startswith(f"{given}:{line}: [Result")
    assert list(out.iterdir()) == []  # nothing written


def test_replays_of_the_same_records_read_from_other_folders_are_byte_identical(tmp_path):
    sites = []
    for folder in ("here", "there/deeper"):
        (tmp_path / folder).mkdir(parents=True)
        record = tmp_path / folder / "game.klab"
        record.write_bytes((AUDIT / "kv_roem_nat.klab").read_bytes())
        sites.append(tmp_path / folder / "site")
        assert run_build(Path(__file__).resolve().parents[1], out=str(sites[-1]), langs=["en"], deals=[record]) == 0
    assert tree(sites[0]) == tree(sites[1])


def test_two_files_holding_the_same_deal_stop_the_build(tmp_path, capsys):
    for name in ("one.klab", "two.klab"):
        (tmp_path / name).write_bytes((AUDIT / "kv_roem_nat.klab").read_bytes())
    status = run_build(Path(__file__).resolve().parents[1], out=str(tmp_path / "site"), langs=["en"],
                       deals=[tmp_path / "one.klab", tmp_path / "two.klab"])
    assert status == 1 and "a deal is shipped once" in capsys.readouterr().err


def _unmarked(html: str) -> str:
    """A page without the language marks of its borrowed game words (``<span lang="nl">nat</span>``)."""
    return re.sub(r'<span lang="[a-z]+">([^<]*)</span>', r"\1", html)


def _cost_mark(cost: int) -> str:
    """A legal card's mark on an analysed step: seen as ✓ or −N, heard as "best" or "costs N points"."""
    if cost == 0:
        return '<span aria-hidden="true">✓</span><span class="visually-hidden"> best</span>'
    words = "point" if cost == 1 else "points"
    return f'<span aria-hidden="true">−{cost}</span><span class="visually-hidden"> costs {cost} {words}</span>'


def _glyph(card) -> str:
    """A card as the pages write it: 10♣, K♦ …"""
    rank = "10" if card.rank.letter == "T" else card.rank.letter
    return rank + {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[card.suit.value]


def test_an_analysed_deal_shows_each_cards_cost_and_the_best_card_on_its_step_pages(tmp_path):
    record = read_record((FIXTURES / "records" / "valid" / "klaverjas_rotterdam.klab").read_text(encoding="utf-8"))
    assert analyse_record(record)[1] == []
    path = tmp_path / "analysed.klab"
    path.write_text(format_record(record), encoding="utf-8")
    out = tmp_path / "site"
    assert run_build(Path(__file__).resolve().parents[1], out=str(out), langs=["fr"], deals=[path]) == 0
    deal = _views(path)[0]
    analysed = [step for step in deal.steps if step.dd is not None]
    assert len(analysed) >= 10
    page = out / "en" / "deals" / deal.id
    for step in analysed:
        html = (page / f"{step.name}.html").read_text(encoding="utf-8")
        played = step.step.action.card
        cost = dd_cost(tuple((card, value) for card, value, _ in step.dd), played)
        best = [card for card, _, cost in step.dd if cost == 0]
        if len(best) == len(step.dd) == step.hand_size:
            assert '<p class="analysis">Every card the rules allow is worth the same here.' in html, step.name
        elif len(best) == len(step.dd):
            assert '<p class="analysis">The rules allow ' in html, step.name
        else:
            listed = re.search(r'<p class="analysis">Best, with every hand seen: (.*?)\. ', html).group(1)
            in_hand = [slot.card for slot in step.table.hands[step.step.seat] if slot.card in best]
            assert re.findall(r'>([^<>]+)</span>', listed) == [_glyph(card) for card in in_hand], step.name
        assert '<a class="analysis-help" href="../index.html#analysis">What the costs mean</a></p>' in html, step.name
        assert (f"cost {cost} point" in html) == (cost > 0), step.name
        marks = re.findall(r'<span class="cost">(.*?</span>)</span>', html)
        assert html.count('<span class="cost">') == len(marks), step.name
        expected = [] if step.all_equal else sorted(_cost_mark(cost) for _, _, cost in step.dd)
        assert sorted(marks) == expected, step.name  # no row of ✓ when every allowed card is as good
    forced = [step for step in deal.steps if step.forced]
    assert forced and not any(step.dd for step in forced)
    for step in forced:
        html = (page / f"{step.name}.html").read_text(encoding="utf-8")
        seat = {"N": "North", "E": "East", "S": "South", "W": "West"}[step.step.seat.value]
        said = f"{seat} has only this card left." if step.hand_size == 1 else "The only card the rules allow."
        assert f'<p class="analysis">{said}</p>' in html, step.name
    assert any(not step.all_equal for step in analysed) and any(step.all_equal for step in analysed)
    unequal = next(step for step in analysed if not step.all_equal)
    assert '<p class="analysis">Meilleur coup' in (out / "fr" / page.relative_to(out / "en") / f"{unequal.name}.html"
                                             ).read_text(encoding="utf-8")
    assert '<h2 id="analysis">What the costs mean</h2>' in (out / "en" / "deals" / "index.html").read_text(encoding="utf-8")
    costly = next(step for step in analysed if any(cost > 1 for _, _, cost in step.dd))
    french = (out / "fr" / page.relative_to(out / "en") / f"{costly.name}.html").read_text(encoding="utf-8")
    assert re.search(r'<span class="visually-hidden"> coûte [\d\u202f ]+ points</span>', french)


def test_replay_refuses_an_output_folder_that_holds_one_of_its_records(tmp_path, capsys):
    out = tmp_path / "site"
    record = FIXTURES / "records" / "valid" / "klaverjas_rotterdam.klab"
    assert run_build(Path(__file__).resolve().parents[1], out=str(out), langs=["fr"], deals=[record]) == 0
    inside = out / "mine.klab"
    inside.write_bytes(record.read_bytes())
    capsys.readouterr()
    assert run_build(Path(__file__).resolve().parents[1], out=str(out), langs=["fr"], deals=[inside]) != 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"holds {inside}, which the build reads and would delete" in err, err
    assert inside.read_bytes() == record.read_bytes()


def test_a_deal_thrown_in_after_a_tie_says_the_hanging_points_still_wait(tmp_path):
    out = tmp_path / "site"
    record = FIXTURES / "replays" / "kb_tie_then_thrown_in.klab"
    assert run_build(Path(__file__).resolve().parents[1], out=str(out), langs=["fr"], deals=[record]) == 0
    thrown = next(view for view in _views(record) if view.outcome == "thrown-in")
    assert thrown.hanging_before == thrown.hanging_after == 80
    html = (out / "en" / "deals" / thrown.id / "index.html").read_text(encoding="utf-8")
    assert "nobody scores. The 80 points left hanging still wait for the next deal." in html


@pytest.mark.parametrize("name", ["kb_meld_long_50.klab", "kb_meld_long_100.klab", "kb_canonical.klab"])
def test_a_player_whose_sequences_lose_holds_them_and_does_not_declare_them(tmp_path, name):
    out = tmp_path / "site"
    assert run_build(Path(__file__).resolve().parents[1], out=str(out), langs=["fr"], deals=[AUDIT / name]) == 0
    deal = _views(AUDIT / name)[0]
    compared = [(step, event) for step in deal.steps for event in step.step.events
                if type(event).__name__ == "MeldsCompared" and event.best]
    assert compared
    for step, event in compared:
        html = (out / "en" / "deals" / deal.id / f"{step.name}.html").read_text(encoding="utf-8")
        for declared in step.step.events:
            if type(declared).__name__ == "Declared" and declared.melds:
                seat = {"N": "North", "S": "South"}[declared.seat.value]
                outdone = declared.seat != event.best
                assert (f"<p>{seat} holds " in html) == outdone, (name, step.name)
                assert (f"<p>{seat} declares " in html) == (not outdone), (name, step.name)


def _melded_in_hands(html: str) -> set[tuple[str, str]]:
    """The (seat letter, card) pairs a step page marks as cards of a sequence, seen and heard."""
    marked = set()
    for seat, hand in re.findall(r'<section class="seat seat-([nesw])[^"]*"(.*?)</section>', html, re.S):
        for slot in re.findall(r'<li class="slot[^"]*">.*?</li>', hand, re.S):
            seen, heard = "is-melded" in slot, "(in a sequence)" in slot
            assert seen == heard, slot
            if seen:
                marked.add((seat.upper(), re.search(r'role="img" aria-label="[^"]*">([^<]+)<', slot).group(1)))
    return marked


@pytest.mark.parametrize("name", ["kb_meld_long_100.klab", "kb_meld_equal_elder.klab", "kb_canonical.klab",
                                  "kb_meld_only_dealer.klab"])
def test_the_cards_of_a_sequence_stand_out_in_the_hand_on_the_steps_that_declare_or_show_it(tmp_path, name):
    out = tmp_path / "site"
    assert run_build(Path(__file__).resolve().parents[1], out=str(out), langs=["fr"], deals=[AUDIT / name]) == 0
    marked_steps = 0
    for deal in _views(AUDIT / name):
        for step in deal.steps:
            expected = {(event.seat.value, _glyph(card)) for event in step.step.events
                        if type(event).__name__ in ("Declared", "MeldsShown") for meld in event.melds for card in meld}
            html = (out / "en" / "deals" / deal.id / f"{step.name}.html").read_text(encoding="utf-8")
            assert _melded_in_hands(html) == expected, (name, step.name)
            marked_steps += bool(expected)
    assert marked_steps >= 2, name  # a declaration, and the same sequences shown after the first trick


def test_an_overview_tells_the_dealers_declaration_after_the_first_card_it_follows(tmp_path):
    out = tmp_path / "site"
    record = AUDIT / "kb_canonical.klab"
    assert run_build(Path(__file__).resolve().parents[1], out=str(out), langs=["fr"], deals=[record]) == 0
    deal = _views(record)[0]
    names = [step.name for step in deal.steps]
    assert names.index("t1-1") < names.index("m2"), "the dealer declares after the lead"
    html = (out / "en" / "deals" / deal.id / "index.html").read_text(encoding="utf-8")
    told = re.search(r'<ol class="before-play">(.*?)</ol>', html, re.S).group(1)
    steps = re.findall(r'<a class="step-go" href="([^"]+)\.html">', told)
    assert steps == [name for name in names if name[0] in "bxdm" and name != "deal" or name == "t1-1"], steps
    assert steps.index("t1-1") == steps.index("m2") - 1


def test_a_won_trick_marks_the_cards_that_make_its_roem_and_no_other_step_marks_any(replay_site):
    four_of_a_kind = 0
    for path in (AUDIT / "kv_pit_four_of_a_kind.klab", AUDIT / "kv_roem_nat.klab",
                 FIXTURES / "replays" / "kb_tie_hanging.klab"):
        for deal in _views(path):
            for step in deal.steps:
                html = (replay_site / "en" / "deals" / deal.id / f"{step.name}.html").read_text(encoding="utf-8")
                trick = re.search(r'<ol class="trick">(.*?)</ol>', html, re.S)
                marked = re.findall(r'aria-label="[^"]*">([^<]+)</span> <span class="roem-mark">Roem</span>',
                                    trick.group(1)) if trick else []
                said = re.search(r"Roem in the trick: (\d+) \(([^)]*)\)", re.sub(r"<[^>]+>", "", html))
                assert bool(marked) == bool(said), (path.name, step.name)
                if said and said.group(2) in ("four of a kind", "four jacks"):
                    four_of_a_kind += 1
                    assert len({glyph[:-1] for glyph in marked}) == 1 and len(marked) == 4
                    assert (said.group(2) == "four jacks") == (marked[0][0] == "J") == (said.group(1) == "200")
                elif said:
                    parts = said.group(2).split(" and ")
                    assert 2 <= len(marked) <= 4 and (len(marked) == 2) == (parts == ["stuk"]), (marked, parts)
    assert four_of_a_kind


def test_klaverjas_calls_bella_stuk_and_klaberjass_bella(tmp_path):
    kv = (AUDIT / "kv_roem_nat.klab").read_text(encoding="utf-8").replace('[Dealer "N"]', '[Dealer "N"]\n[Tags "bella"]')
    kb = (AUDIT / "kb_bella_claimed.klab").read_text(encoding="utf-8").replace('[Dealer "S"]', '[Dealer "S"]\n[Tags "bella"]')
    (tmp_path / "kv.klab").write_text(kv, encoding="utf-8")
    (tmp_path / "kb.klab").write_text(kb, encoding="utf-8")
    out = tmp_path / "site"
    assert run_build(Path(__file__).resolve().parents[1], out=str(out), langs=["fr"],
                     deals=[tmp_path / "kv.klab", tmp_path / "kb.klab"]) == 0
    gallery = (out / "en" / "deals" / "index.html").read_text(encoding="utf-8")
    assert ('<h4 id="tag-klaverjas-bella-h">stuk: Stuk is scored: the king and queen of trumps in one trick.</h4>'
            in gallery)
    assert '<h4 id="tag-klaberjass-bella-h">bella: Bella is scored: the king and queen of trumps.</h4>' in gallery
    kv_deal = _views(tmp_path / "kv.klab")[0]
    overview = (out / "en" / "deals" / kv_deal.id / "index.html").read_text(encoding="utf-8")
    assert '#tag-klaverjas-bella"><span lang="nl">stuk</span></a>' in overview


def test_a_score_sheet_is_listed_as_a_sheet_and_a_match_cut_short_says_its_record_stops(tmp_path):
    sheet = (Path(__file__).resolve().parents[1] / "site_src" / "deals" / "klaverjas-sheet.klab").read_text(encoding="utf-8")
    short = sheet.split("\n[Deal \"3\"]")[0] + "\n"
    (tmp_path / "short.klab").write_text(short.replace("as kept on paper", "cut short"), encoding="utf-8")
    out = tmp_path / "site"
    assert run_build(Path(__file__).resolve().parents[1], out=str(out), langs=["fr"],
                     deals=[tmp_path / "short.klab", AUDIT / "kv_roem_nat.klab"]) == 0
    gallery = (out / "en" / "deals" / "index.html").read_text(encoding="utf-8")
    items = re.findall(r'<li><a href="\.\./matches/[^"]+/index\.html">(.*?)</a></li>', gallery)
    assert len(items) == 2
    assert [item.endswith("2 deals · the score sheet alone, without replays") for item in items].count(True) == 1
    pages = [path.read_text(encoding="utf-8") for path in (out / "en" / "matches").glob("*/index.html")]
    assert len(pages) == 2
    assert all('<p class="match-result">The record stops before the end of the match.</p>' in page for page in pages)


def test_a_match_page_says_where_the_points_left_hanging_by_its_last_deal_go(tmp_path):
    head = '%klab 1\n[Game "klaberjass"]\n[Rules "equal-score=next-deal-winner target=100"]\n'
    deals = ['\n[Deal "1"]\n[Dealer "S"]\n[Maker "N"]\n[Totals "N 84 S 60"]\n',
             '\n[Deal "2"]\n[Dealer "N"]\n[Maker "S"]\n[Totals "N 70 S 70"]\n']
    (tmp_path / "over.klab").write_text(head + "".join(deals), encoding="utf-8")
    short = head.replace("target=100", "target=500") + "".join(deals)
    (tmp_path / "short.klab").write_text(short, encoding="utf-8")
    out = tmp_path / "site"
    assert run_build(Path(__file__).resolve().parents[1], out=str(out), langs=["fr"],
                     deals=[tmp_path / "over.klab", tmp_path / "short.klab"]) == 0
    results = sorted(re.search(r'<p class="match-result">(.*?)</p>', path.read_text(encoding="utf-8"), re.S)[1]
                     for path in (out / "en" / "matches").glob("*/index.html"))
    assert results == [
        "North wins the match, 154 to 60. With the match over, the 70 points still hanging go to nobody.",
        "The record stops before the end of the match. The 70 points left hanging still wait for the next deal."]
    french = sorted(re.search(r'<p class="match-result">(.*?)</p>', path.read_text(encoding="utf-8"), re.S)[1]
                    for path in (out / "fr" / "matches").glob("*/index.html"))
    assert all(" 70 " in text and "hanging" not in text for text in french), french


def test_points_left_hanging_before_an_unfinished_last_deal_still_wait(tmp_path, capsys):
    head, second = (FIXTURES / "replays" / "kb_tie_hanging.klab").read_text(encoding="utf-8").split('\n[Deal "2"]\n')
    lines = second.splitlines()
    tags = [line for line in lines if line.startswith("[") and not line.startswith(("[Result", "[Tags"))]
    actions = [line for line in lines if line and not line.startswith("[")][:3]  # cut short before the play
    path = tmp_path / "cut.klab"
    path.write_text(head + '\n[Deal "2"]\n' + "\n".join([*tags, '[Termination "unfinished"]', *actions]) + "\n",
                    encoding="utf-8")
    waiting = replay(read_record((FIXTURES / "replays" / "kb_tie_hanging.klab").read_text(encoding="utf-8"))
                     ).deals[0].result.hanging
    assert waiting > 0
    out = tmp_path / "site"
    assert run_build(Path(__file__).resolve().parents[1], out=str(out), langs=["fr"], deals=[path]) == 0
    (page,) = (out / "en" / "matches").glob("*/index.html")
    result = re.search(r'<p class="match-result">(.*?)</p>', page.read_text(encoding="utf-8"), re.S)[1]
    assert result == (f"The record stops before the end of the match. The {waiting} points left hanging "
                      "still wait for the next deal.")
    assert main(["score", str(path), "show"]) == 0
    assert f"Hanging: {waiting} points wait for the winner of the next deal\n" in capsys.readouterr().out


def _outcome_after(done, index: int, card) -> str:
    """The result of replayed deal ``done`` when ``card`` is played as its action ``index`` and then
    every player plays a best card (the solver's values, all hands seen) to the end, scored by the
    engine."""
    return _played_out(done, index, card)["result"]


def _played_out(done, index: int, card) -> dict:
    """The deal's JSON result when ``card`` is played as action ``index`` of ``done``, then a best
    card by every player to the end (:func:`_outcome_after`)."""
    deal = done.fresh()
    for action, _ in done.applied[:index]:
        deal.apply(action)
    solver = Solver()
    deal.apply(Action.play(deal.to_act, card))
    while deal.result is None:
        values = solver.card_values(deal)
        best = max(values.values())
        deal.apply(Action.play(deal.to_act, next(card for card, value in values.items() if value == best)))
    return deal.result.to_json()


@pytest.mark.parametrize("name", ["klaverjas_rotterdam", "klaverjas_turned"])
def test_a_card_that_turns_the_deal_says_so_and_perfect_play_bears_it_out(tmp_path, name):
    record = read_record((FIXTURES / "records" / "valid" / f"{name}.klab").read_text(encoding="utf-8"))
    assert analyse_record(record)[1] == []
    path = tmp_path / "analysed.klab"
    path.write_text(format_record(record), encoding="utf-8")
    out = tmp_path / "site"
    assert run_build(Path(__file__).resolve().parents[1], out=str(out), langs=["hr"], deals=[path]) == 0
    deal = _views(path)[0]
    page = out / "en" / "deals" / deal.id
    done = replay(read_record(path.read_text(encoding="utf-8"))).deals[0]
    before = [index for index, action, _ in positions(done) if action.kind is ActionKind.PLAY]
    card_steps = [step for step in deal.steps if step.kind == "card"]
    assert len(before) == len(card_steps)
    turned = {step.name: step.swing for step in card_steps if step.swing}
    assert set(turned.values()) == {"sinks", "lets-through"}
    words = {"sinks": "now go nat instead of making it.", "lets-through": "now make it instead of going nat."}
    for step, index in zip(card_steps, before, strict=True):
        html = _unmarked((page / f"{step.name}.html").read_text(encoding="utf-8"))
        assert ("It turns the deal" in html) == (step.name in turned), step.name
        if step.name not in turned:
            continue
        playing = {"NS": "North–South", "EW": "East–West"}[step.table.maker.side.value]
        assert f"It turns the deal: with perfect play from this card on, {playing} {words[step.swing]}" in html, step.name
        best = next(card for card, _, cost in step.dd if cost == 0)
        outcomes = _outcome_after(done, index, best), _outcome_after(done, index, step.step.action.card)
        assert outcomes == (("made", "nat") if step.swing == "sinks" else ("nat", "made")), step.name
    croatian = (out / "hr" / page.relative_to(out / "en") / f"{next(iter(turned))}.html").read_text(encoding="utf-8")
    assert "Ova karta preokreće dijeljenje" in croatian
    overview = (page / "index.html").read_text(encoding="utf-8")
    listed = re.search(r'<h2 id="turns">Where the deal turned</h2>\n<ul class="turns">(.*?)</ul>', overview, re.S)
    assert listed and re.findall(r'<li><a href="([^"]+)\.html">', listed.group(1)) == list(turned)
    assert listed.group(1).count("It turns the deal: with perfect play from this card on,") == len(turned)


def test_a_card_that_lets_a_pit_slip_or_through_says_so_and_perfect_play_bears_it_out(tmp_path):
    path = FIXTURES / "replays" / "kv_pit_swings.klab"
    out = tmp_path / "site"
    assert run_build(Path(__file__).resolve().parents[1], out=str(out), langs=["fr"], deals=[path]) == 0
    deal = _views(path)[0]
    done = replay(read_record(path.read_text(encoding="utf-8"))).deals[0]
    before = [index for index, action, _ in positions(done) if action.kind is ActionKind.PLAY]
    card_steps = [step for step in deal.steps if step.kind == "card"]
    swings = {step.name: step.swing for step in card_steps if step.swing}
    assert swings == {"t2-1": "pit-slips", "t5-2": "pit-through"}
    words = {"pit-slips": "It lets the pit slip: with perfect play from this card on, North–South no longer take "
                          "every trick.",
             "pit-through": "It lets the pit through: with perfect play from this card on, North–South now take "
                            "every trick."}
    page = out / "en" / "deals" / deal.id
    for step, index in zip(card_steps, before, strict=True):
        html = _unmarked((page / f"{step.name}.html").read_text(encoding="utf-8"))
        assert ("the pit" in html) == (step.name in swings), step.name
        if not step.dd:   # a forced card has no analysis, and decides nothing
            continue
        best = step.best_cards[0]
        with_best, as_played = (_played_out(done, index, card) for card in (best, step.step.action.card))
        if step.name in swings:
            assert words[step.swing] in html
            assert (with_best["pit"], as_played["pit"]) == ((True, False) if step.swing == "pit-slips" else (False, True))
        else:   # a card that decides nothing about the pit: the best card and it agree
            assert with_best["pit"] == as_played["pit"], step.name
    overview = (page / "index.html").read_text(encoding="utf-8")
    listed = re.search(r'<ul class="turns">(.*?)</ul>', overview, re.S)
    assert listed and re.findall(r'<li><a href="([^"]+)\.html">', listed.group(1)) == ["t2-1", "t5-2"]
    french = _unmarked((out / "fr" / "deals" / deal.id / "t2-1.html").read_text(encoding="utf-8"))
    assert "It lets" not in french and "Cette carte laisse filer le capot (pit)\u00a0: avec un jeu parfait" in french


def test_a_klaberjass_card_that_turns_the_deal_names_the_maker(tmp_path):
    record = read_record((FIXTURES / "replays" / "kb_tie_hanging.klab").read_text(encoding="utf-8"))
    assert analyse_record(record)[1] == []
    path = tmp_path / "analysed.klab"
    path.write_text(format_record(record), encoding="utf-8")
    out = tmp_path / "site"
    assert run_build(Path(__file__).resolve().parents[1], out=str(out), langs=["en"], deals=[path]) == 0
    deal = _views(path)[0]
    turned = [step for step in deal.steps if step.swing]
    assert {step.swing for step in turned} == {"sinks", "lets-through"}
    overview = (out / "en" / "deals" / deal.id / "index.html").read_text(encoding="utf-8")
    listed = re.search(r'<ul class="turns">(.*?)</ul>', overview, re.S)
    assert listed and listed.group(1).count("<li>") == len(turned)
    for step in turned:
        html = (out / "en" / "deals" / deal.id / f"{step.name}.html").read_text(encoding="utf-8")
        maker = {"N": "North", "S": "South"}[step.table.maker.value]
        ending = "no longer makes it." if step.swing == "sinks" else "now makes it."
        assert f"It turns the deal: with perfect play from this card on, {maker}, the maker, {ending}" in html, step.name
        values = {card: value for card, value, _ in step.dd}
        mine = step.step.seat == step.table.maker
        assert mine == (step.swing == "sinks")
        assert values[step.step.action.card] < values[step.best_cards[0]]


RULE_SENTENCES = {
    "higher-trump": "A trump was led, so {who} must play a higher trump.",
    "lower-trump": "A trump was led and {who} holds no higher trump, so may play any trump.",
    "trump": "{who} has no {suit}, so must trump.",
    "overtrump": "{who} has no {suit}, so must trump higher than the trump in the trick.",
    "undertrump": "{who} has no {suit} and cannot trump higher, so must trump lower: these rules require it.",
    "no-undertrump": "{who} has no {suit} and cannot trump higher, and trumping lower is not allowed: the card must "
                     "not be a trump.",
    "partner-wins": "{who} has no {suit}, but their partner is winning the trick, so any card may be played "
                    "(Amsterdam rules).",
    "only-lower-trumps": "{who} has no {suit} and only trumps lower than the one in the trick, so must play one of them.",
    "partner-no-undertrump": "{who} has no {suit} and their partner is winning the trick, so any card may be played "
                             "but a trump lower than the partner’s (Amsterdam rules).",
}
"""The English sentence of each rule word the fixtures below hold (``any`` has two, checked apart)."""

SEVERAL_TRUMPS = {
    "overtrump": "{who} has no {suit}, so must trump higher than the highest trump in the trick.",
    "only-lower-trumps": "{who} has no {suit} and only trumps lower than the highest one in the trick, so must play "
                         "one of them.",
}
"""The sentences of a trick that already holds two trumps or more: the highest is the one to beat."""

PARTNER_FORCED = ("{who} has no {suit} and their partner is winning the trick, but a trump lower than the partner’s "
                  "may not be played (Amsterdam rules), so this card is the only one allowed.")
"""A partner's trump that may not be undertrumped leaves one card: no sentence that offers a choice."""

RULE_FIXTURES = [[AUDIT / "kv_rot_ok.klab", AUDIT / "kv_rot_forbidden_ok.klab"],
                 [AUDIT / "tags_kv_last_trick_made.klab", AUDIT / "tags_kv_roem_100.klab"],
                 [FIXTURES / "replays" / f"kv_rule_{name}.klab"
                  for name in ("partner_forced", "two_trumps", "rot_lower", "rot_lower_two")]]


@pytest.mark.parametrize("paths", RULE_FIXTURES, ids=["rotterdam", "amsterdam", "edge-cases"])
def test_each_card_step_says_which_rule_decided_the_cards_allowed(tmp_path, paths):
    paths = [*paths, FIXTURES / "replays" / "kv.klab"]
    out = tmp_path / "site"
    assert run_build(Path(__file__).resolve().parents[1], out=str(out), langs=["en"], deals=paths) == 0
    suits = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
    seen = set()
    for path in paths:
        for deal in _views(path):
            for step in (step for step in deal.steps if step.kind == "card"):
                html = (out / "en" / "deals" / deal.id / f"{step.name}.html").read_text(encoding="utf-8")
                note = re.search(r'<p class="play-rule">(.*?)</p>', html)
                seen.add(step.rule)
                if step.partner_winning and step.rule in ("trump", "overtrump", "undertrump", "no-undertrump"):
                    seen.add("rotterdam-partner")
                forced_follow = step.rule == "follow" and step.forced and step.hand_size > 1
                if (step.rule in ("lead", "follow") and not forced_follow) or (
                        step.forced and step.rule in ("any", "partner-wins", "only-lower-trumps")):
                    assert note is None, step.name  # nothing to say, or a last card any rule allows
                    continue
                who = {"N": "North", "E": "East", "S": "South", "W": "West"}[step.step.seat.value]
                led = step.table.trick[0][1].suit
                if forced_follow:
                    expected = f"{who} must follow suit and holds no other {suits[led.value]}."
                    seen.add("forced follow")
                elif step.rule == "any":
                    expected = (f"{who} has no trumps, so may play any card." if led is step.table.trump
                                else f"{who} has no {suits[led.value]} and no trumps, so may play any card.")
                elif step.rule == "lower-trump" and step.forced:
                    expected = f"A trump was led and {who} holds a single trump, so must play it."
                elif step.rule == "partner-no-undertrump" and step.forced:
                    expected = PARTNER_FORCED.format(who=who, suit=suits[led.value])
                    seen.add("partner-forced")
                elif step.rule in SEVERAL_TRUMPS and step.trumps_before > 1:
                    expected = SEVERAL_TRUMPS[step.rule].format(who=who, suit=suits[led.value])
                    seen.add(f"{step.rule}, several trumps")
                else:
                    expected = RULE_SENTENCES[step.rule].format(who=who, suit=suits[led.value])
                rotterdam = " Under Rotterdam rules this holds even when the partner is winning the trick."
                assert note, (deal.id, step.name)
                sentence, _, link = note.group(1).partition(' <a class="rule-link" href="')
                assert sentence in (expected, expected + rotterdam), (deal.id, step.name)
                bound = step.rule in ("trump", "overtrump", "undertrump", "no-undertrump")
                assert sentence.endswith(rotterdam) == (bound and step.partner_winning), (deal.id, step.name)
                both = step.rule in ("follow", "higher-trump", "lower-trump") or (step.rule == "any"
                                                                                  and led is step.table.trump)
                section = "the-rules-both-agree-on" if both else f"{deal.rules.trick_rules}-rules"
                assert link == f'../../klaverjas-play.html#{section}">The rule</a>', (deal.id, step.name)
                assert not (bound and step.partner_winning) or deal.rules.trick_rules == "rotterdam"
    names = [path.name for path in paths]
    if "kv_rule_two_trumps.klab" in names:   # each edge case the auditor found
        assert {"partner-forced", "overtrump, several trumps", "only-lower-trumps, several trumps"} <= seen
        rotterdam_lower = _views(FIXTURES / "replays" / "kv_rule_rot_lower.klab")[0]
        assert any(step.rule == "only-lower-trumps" and not step.forced for step in rotterdam_lower.steps)
        return
    assert {"lead", "follow", "forced follow", "any", "trump", "overtrump", "partner-wins", "only-lower-trumps"} <= seen
    assert "rotterdam-partner" in seen if "kv_rot_ok.klab" in names else "no-undertrump" in seen


def test_a_klaberjass_step_says_when_the_card_led_must_be_beaten(tmp_path):
    path = tmp_path / "beat.klab"
    assert main(["simulate", "--game", "klaberjass", "--seed", "beat", "--deals", "6", "--rules", "must-beat=any-lead",
                 "--bots", "random", "--out", str(path)]) == 0
    out = tmp_path / "site"
    assert run_build(Path(__file__).resolve().parents[1], out=str(out), langs=["en"], deals=[path]) == 0
    sentences = {"beat": "{who} can beat the card led, and under these rules must.",
                 "higher-trump": "A trump was led, so {who} must play a higher trump.",
                 "trump": "{who} has no {suit}, so must trump."}
    suits = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
    seen = set()
    for deal in _views(path):
        for step in deal.steps:
            if step.rule in sentences:
                html = (out / "en" / "deals" / deal.id / f"{step.name}.html").read_text(encoding="utf-8")
                who = {"N": "North", "S": "South"}[step.step.seat.value]
                suit = suits[step.table.trick[0][1].suit.value]
                sentence = sentences[step.rule].format(who=who, suit=suit)
                link = '<a class="rule-link" href="../../klaberjass-play.html#play">The rule</a>'
                assert f'<p class="play-rule">{sentence} {link}</p>' in html, step.name
                seen.add(step.rule)
    assert seen == set(sentences)


@pytest.mark.parametrize("name", ["klaverjas_rotterdam.klab", "klaberjass_three_deals.klab"])
def test_an_analysed_overview_says_what_perfect_play_from_the_first_card_gives(tmp_path, name):
    record = read_record((FIXTURES / "records" / "valid" / name).read_text(encoding="utf-8"))
    assert analyse_record(record)[1] == []
    path = tmp_path / "analysed.klab"
    path.write_text(format_record(record), encoding="utf-8")
    out = tmp_path / "site"
    assert run_build(Path(__file__).resolve().parents[1], out=str(out), langs=["fr"], deals=[path]) == 0
    done = replay(record).deals
    views = _views(path)
    assert any(deal.perfect_play for deal in views)
    for deal in views:
        if deal.perfect_play is None:  # thrown in: no card was played
            assert not any(step.kind == "card" for step in deal.steps)
            continue
        maker, value = deal.perfect_play
        first = next(position for _, action, position in positions(next(d for d in done if d.id == deal.id))
                     if action.kind is ActionKind.PLAY)
        leader = first.to_act
        ours = leader.side == maker.side if deal.by_side else leader == maker
        assert value == (1 if ours else -1) * Solver().solve(first)  # the maker's side, solved afresh
        html = (out / "en" / "deals" / deal.id / "index.html").read_text(encoding="utf-8")
        sentence = re.search(r'<p class="perfect-play">(.*?) <a', html).group(1)
        assert sentence.startswith("With every hand seen and perfect play from the first card, ")
        assert (" make it, " in sentence or " makes it, " in sentence) == (value > 0), sentence
        if value > 0:
            assert f" {value} points ahead of " in sentence


def test_a_klaverjas_overview_always_names_its_trick_rules_and_how_trump_is_chosen(replay_site):
    rules = [re.search(r"<dt>Rules</dt><dd>(.*?)</dd>", html).group(1) for html in _overviews(replay_site).values()]
    klaverjas = [re.sub(r"<[^>]+>", "", words) for words in rules if "trump" in words or "Amsterdam" in words]
    assert klaverjas and all("Amsterdam rules" in words or "Rotterdam rules" in words for words in klaverjas)
    assert all("free choice of trump" in words or "proposed suit" in words or "trump forced" in words
               for words in klaverjas)


def test_an_overview_names_its_rules_one_way_led_by_the_standard_game_when_no_rule_differs(replay_site):
    """Every overview names the match's length, each rule linked to where it is explained; "the
    standard game" leads when only the length differs from the rule book's defaults."""
    paths = (FIXTURES / "records" / "valid" / "klaberjass_three_deals.klab", FIXTURES / "replays" / "kb_tie_hanging.klab",
             AUDIT / "kv_pit_four_of_a_kind.klab", AUDIT / "kv_roem_nat.klab")
    seen = set()
    for deal in [view for path in paths for view in _views(path)]:
        html = (replay_site / "en" / "deals" / deal.id / "index.html").read_text(encoding="utf-8")
        rules = re.search(r"<dt>Rules</dt><dd>(.*?)</dd>", html).group(1)
        words = re.sub(r"<[^>]+>", "", rules)
        standard = all(name in ("target", "deals") for name, _ in deal.options)
        seen.add(standard)
        assert words.startswith("the standard rules: ") == standard, words
        assert re.search(r"(to [\d,]+ points|a match of \d+ deals?)$", words), words
        assert rules.count("<a href=") == len(words.removeprefix("the standard rules: ").split("; ")), rules
    assert seen == {True, False}


def test_a_card_step_shows_the_trick_before_with_its_cards_and_who_took_it(replay_site):
    for deal in _views(AUDIT / "kv_roem_nat.klab"):
        for step in deal.steps:
            html = (replay_site / "en" / "deals" / deal.id / f"{step.name}.html").read_text(encoding="utf-8")
            shown = re.search(r'<p class="trick-before">Trick (\d+) went to (\w+): (.*?)</p>', html)
            table = step.table
            done = table.tricks[:-1] if table.won_by else table.tricks
            if step.kind not in ("card", "end") or not done:  # the score still shows the last trick
                assert shown is None, step.name
                continue
            before = done[-1]
            names = {"N": "North", "E": "East", "S": "South", "W": "West"}
            assert (int(shown.group(1)), shown.group(2)) == (before.number, names[before.winner.value]), step.name
            seats = re.findall(r'<span class="trick-play">(\w+) <span class="card', shown.group(3))
            assert seats == [names[who.value] for who, _ in before.cards], step.name


def test_the_trick_on_the_table_says_who_led_it_and_the_step_list_who_is_still_to_play(replay_site):
    names = {"N": "North", "E": "East", "S": "South", "W": "West"}
    for deal in _views(AUDIT / "kv_roem_nat.klab") + _views(FIXTURES / "replays" / "kb_tie_hanging.klab"):
        for step in deal.steps:
            if step.kind != "card":
                continue
            html = (replay_site / "en" / "deals" / deal.id / f"{step.name}.html").read_text(encoding="utf-8")
            labels = re.findall(r'<span class="played-by">([^<]*)</span>', html)
            trick = step.table.trick
            assert labels == [names[who.value] + (" leads" if i == 0 else "") for i, (who, _) in enumerate(trick)]
            row = re.search(r'<li class="is-current">.*?</ol>', html, re.S).group(0)
            later = [item for item in deal.steps if item.kind == "card" and item.index > step.index
                     and item.name.split("-")[0] == step.name.split("-")[0]]
            assert re.findall(r">(\w+) to play</a>", row) == [names[item.step.seat.value] for item in later]


def test_the_points_left_hanging_by_a_tie_are_shown_through_the_next_deal(tmp_path):
    """Klaberjass §6, equal-score=next-deal-winner: the next deal says from its first step what is
    hanging and for whom, keeps it on its scoreboard, and its end adds it up; the score step shows
    the breakdown alone, not also a scoreboard of other figures."""
    path = REPO / "site_src" / "deals" / "klaberjass-tie.klab"
    out = tmp_path / "site"
    assert run_build(REPO, out=str(out), langs=["fr"], deals=[path]) == 0
    first, second = _views(path)
    waiting = first.hanging_after
    assert waiting and second.hanging_before == waiting and second.result["result"] == "tie"
    page = out / "en" / "deals" / second.id
    told = _unmarked((page / "deal.html").read_text(encoding="utf-8"))
    assert (f"The {waiting} points left hanging by the tie before go to whoever scores more in this deal, "
            "unless it is a tie too.") in told
    for step in second.steps:
        html = (page / f"{step.name}.html").read_text(encoding="utf-8")
        board = re.search(r'<table class="scoreboard">(.*?)</table>', html, re.S)
        if step.kind == "end":
            assert board is None, "the breakdown replaces the scoreboard"
            continue
        assert board and re.search(rf'<th scope="row">Left hanging by the tie before</th><td class="number" '
                                   rf'colspan="2">{waiting}</td>', board.group(1)), step.name
    end = _unmarked((page / "end.html").read_text(encoding="utf-8"))
    assert (f"With the {waiting} left hanging by the tie before, {second.hanging_after} points are still "
            "hanging, and with the match over they go to nobody.") in end
    assert "hanging" not in (out / "en" / "deals" / first.id / "deal.html").read_text(encoding="utf-8")


def test_a_maker_who_keeps_bella_quiet_is_told_why(tmp_path):
    """Klaberjass §5: a maker who is going to fail loses bella to the opponent with all his points,
    so keeping it quiet is the better play; the replay says so."""
    path = REPO / "site_src" / "deals" / "klaberjass-bella-declined.klab"
    out = tmp_path / "site"
    assert run_build(REPO, out=str(out), langs=["fr"], deals=[path]) == 0
    told = 0
    for deal in _views(path):
        page = out / "en" / "deals" / deal.id
        for step in deal.steps:
            said = re.sub(r"<[^>]+>", "", (page / f"{step.name}.html").read_text(encoding="utf-8"))
            if "does not claim bella" not in said:
                continue
            told += 1
            maker = {"N": "North", "S": "South"}[deal.result["maker"]]
            other = {"North": "South", "South": "North"}[maker]
            assert deal.result["result"] == "failed"
            assert (f"{maker} does not claim bella: {maker}, the maker, is going to fail, and a failed maker&#39;s "
                    f"points, bella too, all go to {other}.") in said
    assert told


def test_an_overview_names_the_hands_it_shows(replay_site):
    """Klaberjass hands are shown with their extra cards (nine, marked +), Klaverjas hands as dealt."""
    headings = {re.search(r"<h2>(The hands[^<]*)</h2>", html).group(1): "+ came with" in html
                for html in _overviews(replay_site).values()}
    assert headings == {"The hands with the extra cards": True, "The hands as dealt": False}


def test_every_step_of_a_deal_under_other_rules_says_which(replay_site):
    """The same event can mean another thing under another option (a refused schmeiss makes the
    refuser the maker): a step page names the deal's options beside trump and dealer, linked to
    their rules; a deal under the standard rules adds nothing."""
    seen = {True: 0, False: 0}
    for path in (FIXTURES / "replays" / "kb_tie_hanging.klab", AUDIT / "kv_roem_nat.klab"):
        for deal in _views(path):
            for step in deal.steps:
                html = (replay_site / "en" / "deals" / deal.id / f"{step.name}.html").read_text(encoding="utf-8")
                facts = re.search(r'<dl class="facts-line">(.*?)</dl>', html, re.S).group(1)
                seen[bool(deal.options)] += 1
                assert ("<dt>Rules</dt>" in facts) == bool(deal.options), (deal.id, step.name)
                if deal.options:
                    assert 'a tie leaves the maker&#39;s points for the next deal</a>' in facts
    assert seen[True] and seen[False]


@pytest.mark.parametrize("name", ["klaverjas-blunder", "klaberjass-blunder", "klaverjas-pit"])
def test_an_overview_lists_each_costly_card_that_did_not_turn_the_deal(tmp_path, name):
    """A deal tagged ``blunder`` holds a card that cost 20 points or more: its overview points to
    every such card, with its cost, under "The costly cards" (or "Other costly cards" when some
    are listed under "Where the deal turned")."""
    path = REPO / "site_src" / "deals" / f"{name}.klab"
    out = tmp_path / "site"
    assert run_build(REPO, out=str(out), langs=[], deals=[path]) == 0
    for deal in _views(path):
        html = (out / "en" / "deals" / deal.id / "index.html").read_text(encoding="utf-8")
        costs = {}
        for step in deal.steps:
            if step.dd:
                values = {card: value for card, value, _cost in step.dd}
                costs[step.name] = max(values.values()) - values[step.step.action.card]
        expected = [name for name, cost in costs.items() if cost >= 20 and not next(
            step for step in deal.steps if step.name == name).swing]
        listed = re.search(r'<h2 id="costly">(.*?)</h2>.*?<ul class="costly">(.*?)</ul>', html, re.S)
        assert ("blunder" in deal.tags) == any(cost >= 20 for cost in costs.values()), deal.tags
        if not expected:
            assert not listed, deal.id
            continue
        assert listed, deal.id
        heading = "Other costly cards" if '<h2 id="turns">' in html else "The costly cards"
        assert listed.group(1) == heading
        items = re.findall(r'<li><a href="([^"]+)\.html">.*?</a>\.(.*?)</li>', listed.group(2), re.S)
        assert [step for step, _ in items] == expected
        for step, said in items:
            assert re.search(rf"cost {costs[step]} points\.", said), said


def _rows(table: str) -> dict[str, list[str]]:
    """A table's rows by their heading cell: the figures of each."""
    return {re.sub(r"<[^>]+>", "", head): re.findall(r'<td class="number"[^>]*>([^<]*)</td>', cells)
            for head, cells in re.findall(r'<tr><th scope="row">(.*?)</th>(.*?)</tr>', table)}


def test_the_last_cards_scoreboard_splits_the_last_trick_off_as_the_overviews_breakdown_does(replay_site):
    paths = (FIXTURES / "records" / "valid" / "klaberjass_three_deals.klab", AUDIT / "kv_roem_nat.klab")
    for deal in [view for path in paths for view in _views(path) if view.tricks and view.steps[-1].kind == "end"]:
        page = replay_site / "en" / "deals" / deal.id
        last = [step for step in deal.steps if step.kind == "card"][-1]
        board = re.search(r'<table class="scoreboard">(.*?)</table>', (page / f"{last.name}.html").read_text(
            encoding="utf-8"), re.S).group(1)
        breakdown = re.search(r'<table class="klab-table breakdown">(.*?)</table>', (page / "index.html").read_text(
            encoding="utf-8"), re.S).group(1)
        on_step, on_overview = _rows(board), _rows(breakdown)
        for row in ("Points in tricks won", "Last trick"):
            assert on_step[row] == on_overview[row], (deal.id, row, on_step, on_overview)
        before = [step for step in deal.steps if step.kind == "card"][-2]
        earlier = re.search(r'<table class="scoreboard">(.*?)</table>', (page / f"{before.name}.html").read_text(
            encoding="utf-8"), re.S).group(1)
        assert "Last trick" not in _rows(earlier)


def test_an_overviews_breakdown_adds_up_to_its_total_with_the_last_trick_and_pit_from_the_engine(replay_site):
    from klabsite.engine.roem import PIT_BONUS
    from klabsite.engine.tricks import LAST_TRICK_BONUS

    seen = set()
    for deal_id, html in _overviews(replay_site).items():
        table = re.search(r'<table class="klab-table breakdown">(.*?)</table>', html, re.S)
        if not table:
            continue
        body = re.search(r"<tbody>(.*?)</tbody>", table.group(1), re.S).group(1)
        rows = {name: [int(figure.replace(",", "")) for figure in figures] for name, figures in _rows(body).items()}
        total = [int(figure.replace(",", "")) for figure in _rows(table.group(1))["Total"]]
        assert [sum(column) for column in zip(*rows.values(), strict=True)] == total, (deal_id, rows, total)
        assert sorted(rows["Last trick"]) == [0, LAST_TRICK_BONUS], deal_id
        if "Pit" in rows:
            assert sorted(rows["Pit"]) == [0, PIT_BONUS], deal_id
        seen.update(rows)
    assert {"Last trick", "Pit", "Roem", "Sequences", "Bella"} <= seen


@pytest.mark.parametrize("name", ["klaberjass-bella", "klaberjass-bella-declined"])
def test_a_klaberjass_overviews_tricks_say_in_which_trick_bella_was_claimed_and_for_whom(tmp_path, name):
    from klabsite.engine.klaberjass import BellaDecided

    path = REPO / "site_src" / "deals" / f"{name}.klab"
    out = tmp_path / "site"
    assert run_build(REPO, out=str(out), langs=[], deals=[path]) == 0
    seats = {"N": "North", "S": "South"}
    seen = set()
    for deal in _views(path):
        claims = {step.trick: seats[event.seat.value] for step in deal.steps for event in step.step.events
                  if isinstance(event, BellaDecided) and event.claimed}
        html = (out / "en" / "deals" / deal.id / "index.html").read_text(encoding="utf-8")
        table = re.search(r'<table class="klab-table tricks">(.*?)</table>', html, re.S)
        if not table:
            continue
        seen.add(bool(claims))
        assert ('<th scope="col">Bella</th>' in table.group(1)) == bool(claims), deal.id
        said = {}
        for number, row in re.findall(r'<tr><th scope="row"><a href="t(\d+)-1.html">(.*?)</tr>', table.group(1), re.S):
            if match := re.search(r"(\d+) to (North|South)</td>$", row):
                said[int(number)] = (match.group(1), match.group(2))
        assert said == {trick: ("20", who) for trick, who in claims.items()}, deal.id
    assert (name == "klaberjass-bella") in seen   # a deal with bella claimed; one without
