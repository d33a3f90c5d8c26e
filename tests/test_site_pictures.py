"""The rules pages' pictures (klabsite/site/pictures.py, macros/pictures.html): each drawn from the
engine, named for screen readers, a compass and left-to-right card runs in Arabic too."""

from __future__ import annotations

import re
import shutil

import pytest

from klabsite.engine.cards import PLAIN_ORDER, TRUMP_ORDER, Suit, parse_cards
from klabsite.engine.seats import Seat
from klabsite.engine.tricks import trick_winner_index
from klabsite.site import pictures
from klabsite.site.build import render
from klabsite.site.config import load_config
from klabsite.site.directives import render_directive
from klabsite.site.i18n import Localizer
from tests.site_helpers import REPO

EN, AR = Localizer.untranslated("en"), Localizer.untranslated("ar")

PICTURE_CALLS: list[tuple[str, dict[str, str]]] = [
    ("card-rows", {}),
    ("seating", {"game": "klaverjas"}),
    ("seating", {"game": "klaberjass", "dealer": "N"}),
    ("trick-picture", {"game": "klaverjas", "cards": "JH 9H AH TH", "leader": "N", "trump": "S"}),
    ("trick-picture", {"game": "klaberjass", "cards": "AS JS", "leader": "S", "trump": "S"}),
    ("trump-choice", {}),
]
"""One call of every picture directive (worked-deal needs shipped deals: see below)."""


def _figure(html: str) -> str:
    assert html.startswith('<figure class="picture'), html[:80]
    caption = re.search(r"<figcaption>(.*?)</figcaption>", html, re.DOTALL)
    assert caption and re.sub(r"<[^>]+>", "", caption.group(1)).strip(), "a picture has a caption"
    return html


@pytest.mark.parametrize(("name", "args"), PICTURE_CALLS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(PICTURE_CALLS)])
@pytest.mark.parametrize("loc", [EN, AR], ids=["en", "ar"])
def test_every_picture_is_a_figure_with_a_caption_and_no_style_or_script(loc, name, args):
    html = _figure(render_directive(loc, name, args))
    assert "style=" not in html and "<script" not in html
    assert "<img" not in html, "drawn with HTML and CSS, nothing to download"


def test_card_rows_are_the_engines_orders_highest_first_with_points_left_to_right():
    picture = pictures.card_rows(EN, {})
    trumps, plain, sequence = picture.rows
    assert [card.rank for card in trumps.cards] == [EN.rank_letter(rank) for rank in TRUMP_ORDER]
    assert [card.rank for card in plain.cards] == [EN.rank_letter(rank) for rank in PLAIN_ORDER]
    assert [card.rank for card in sequence.cards] == ["A", "K", "Q", "J", "10", "9", "8", "7"], "as the rows above"
    assert [points.text for points in trumps.points] == ["20", "14", "11", "10", "4", "3", "0", "0"]
    assert sequence.points is None
    html = render_directive(AR, "card-rows", {})
    assert html.count('<ol class="card-row-cards" dir="ltr">') == 3, "a run of cards is left to right in Arabic"


def test_seating_shows_dealer_partners_and_the_first_lead_from_the_engine():
    klaverjas = pictures.seating(EN, {"game": "klaverjas"})
    assert [seat.seat for seat in klaverjas.seats] == [Seat.N, Seat.E, Seat.S, Seat.W], "clockwise"
    notes = {seat.seat: seat.notes for seat in klaverjas.seats}
    assert notes[Seat.S] == ("dealer",) and notes[Seat.W] == ("leads first",), "left of the dealer leads"
    assert {seat.side for seat in klaverjas.seats} == {"ns", "ew"}
    klaberjass = pictures.seating(EN, {"game": "klaberjass", "dealer": "N"})
    assert [seat.seat for seat in klaberjass.seats] == [Seat.N, Seat.S]
    assert {seat.seat: seat.notes for seat in klaberjass.seats} == {Seat.N: ("dealer",), Seat.S: ("leads first",)}
    html = render_directive(AR, "seating", {"game": "klaverjas"})
    assert '<div class="picture-table picture-table-4" dir="ltr">' in html, "a compass in Arabic too"
    assert 'aria-hidden="true"' in html.split("<svg")[1], "the arrow is decoration; the text says clockwise"
    with pytest.raises(ValueError, match="dealer takes N or S"):
        pictures.seating(EN, {"game": "klaberjass", "dealer": "E"})


@pytest.mark.parametrize(("cards", "trump"), [("JH 9H AH TH", "H"), ("JH 9H AH TH", "S"), ("7C AC QH 8C", "H"),
                                              ("KD QD 7S AD", "C"), ("AS JS", "S"), ("AS TS", "H")])
def test_trick_picture_winner_is_the_engines(cards, trump):
    parsed = parse_cards(cards)
    picture = pictures.trick_picture(EN, {"cards": cards, "leader": "E" if len(parsed) == 4 else "S",
                                          "trump": trump})
    expected = trick_winner_index(parsed, Suit.parse(trump))
    assert [play.wins for play in picture.plays] == [index == expected for index in range(len(parsed))]
    assert picture.winner is picture.plays[expected].seat
    seats = [play.seat for play in picture.plays]
    assert seats == ([Seat.E, Seat.S, Seat.W, Seat.N] if len(parsed) == 4 else [Seat.S, Seat.N]), "clockwise"


@pytest.mark.parametrize(("args", "message"), [
    ({"leader": "N"}, "needs the argument cards"),
    ({"cards": "JH 9H AH", "game": "klaverjas"}, "holds 4 different cards"),
    ({"cards": "JH JH AH TH"}, "different cards"),
    ({"cards": "JH 9H AH TH", "leader": "X"}, "leader takes"),
    ({"cards": "JH 9H AH TH", "colour": "red"}, "unknown argument 'colour'"),
    ({"cards": "JH 9H", "game": "bridge"}, "game takes klaberjass or klaverjas"),
])
def test_trick_picture_arguments_are_checked(args, message):
    with pytest.raises(ValueError, match=message):
        pictures.trick_picture(EN, args)


def test_trump_choice_flows_follow_the_engines_legal_actions():
    picture = pictures.trump_choice(EN, {})
    flows = {flow.option.parts[1]: [str(step) if isinstance(step, str) else "".join(map(str, step.parts))
                                    for step in flow.steps] for flow in picture.flows}
    assert list(flows) == ["free", "forced", "turned"]
    assert flows["forced"][0] == "West, left of the dealer, must name trump."
    assert "If all four pass, West must name trump." in flows["free"]
    assert "If all four pass, West must name one of the other three suits." in flows["turned"]
    assert not any("pass" in step for step in flows["forced"]), "forced: nobody may pass"
    html = render_directive(EN, "trump-choice", {})
    assert html.count('<span class="badge">the default</span>') == 1 and picture.default == "free"


def test_picture_texts_are_translated():
    from babel.support import NullTranslations

    class Marked(NullTranslations):
        def gettext(self, message):
            return "«" + message + "»"

    html = render_directive(Localizer("en", Marked()), "seating", {"game": "klaverjas"})
    assert "«The Klaverjas table seen from above»" in html and "«leads first»" in html


# ---------------------------------------------------------------------------------------------
# worked-deal: a shipped deal told in full (a project with the shipped records)


@pytest.fixture
def deal_project(project):
    (project / "site_src" / "deals").mkdir()
    for name in ("kb.klab", "kv.klab"):  # standard rules: their pages link to no rules page
        shutil.copy(REPO / "tests" / "fixtures" / "replays" / name, project / "site_src" / "deals" / name)
    page = project / "site_src" / "rules" / "02-play.md"
    page.write_text(page.read_text(encoding="utf-8") + "\n[[klab:worked-deal game=klaverjas]]\n\n"
                    "[[klab:worked-deal game=klaberjass]]\n", encoding="utf-8")
    return project


def test_worked_deal_picks_the_tagged_deal_else_the_first_played_one():
    views = [type("D", (), {"game": "klaverjas", "result": {}, "outcome": "played", "tags": tags,
                            "steps": (type("S", (), {"kind": "end"})(),)})() for tags in ((), ("worked-example",))]
    assert pictures.worked_example(views, "klaverjas") is views[1]
    assert pictures.worked_example(views[:1], "klaverjas") is views[0]
    assert pictures.worked_example(views, "klaberjass") is None


def test_worked_deal_tells_hands_bidding_tricks_and_score_with_links_into_the_replay(deal_project):
    outputs, _ = render(load_config(deal_project))
    html = outputs["fr/play.html"].decode()
    assert html.count('<div class="worked-deal">') == 2
    for game in ("klaverjas", "klaberjass"):
        assert f"replay-{game}" not in html  # a part of the rules page, not a replay page
    block = html.split('<div class="worked-deal">')[1]
    links = re.findall(r'href="(deals/[a-z0-9]+/[a-z0-9-]+\.html)"', block)
    assert links and all(f"fr/{link}" in outputs for link in links), "links reach the deal's step pages"
    assert 'class="card-table card-table-4"' in block and '<p class="seat-name">' in block
    assert block.count('class="mini-trick"') == 8, "each trick round the table"
    assert 'class="klab-table breakdown"' in block and 'class="score-sentence"' in block, "the score and its sums"
    assert '<ol class="before-play">' in block, "the bidding, in the replay's sentences"


def test_each_trick_of_a_worked_deal_says_who_led_it_and_who_won_it(deal_project):
    outputs, _ = render(load_config(deal_project))
    html = outputs["en/play.html"].decode()
    tricks = re.findall(r'<li class="mini-trick">.*?</ol><p>(.*?)</p></li>', html, re.S)
    assert len(tricks) == 8 + 9
    for trick in re.findall(r'<li class="mini-trick">.*?</li></ol><p>.*?</p></li>', html, re.S):
        seats = re.findall(r'<span class="visually-hidden"> (\w+)</span>', trick)
        winner = re.search(r'is-winner">.*?<span class="visually-hidden"> (\w+)</span>', trick).group(1)
        said = re.search(r"<p>(.*?)</p></li>$", trick).group(1)
        if seats[0] == winner:
            assert said.startswith(f"{winner} leads and wins the trick: "), said
        else:
            assert said.startswith(f"{seats[0]} leads, {winner} wins the trick: "), said


def test_worked_deal_draws_nothing_without_a_shipped_deal(project):
    page = project / "site_src" / "rules" / "02-play.md"
    page.write_text(page.read_text(encoding="utf-8") + "\n[[klab:worked-deal game=klaverjas]]\n", encoding="utf-8")
    outputs, _ = render(load_config(project))
    assert "worked-deal" not in outputs["en/play.html"].decode()
