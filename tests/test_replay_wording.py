"""What a replay says where the rules, not the player, decide: a trump that must be named,
equal sequences, sequences that score nothing without a trick (rules.md, Klaverjas §1 and
Klaberjass §2, §6)."""

from __future__ import annotations

import html
import itertools
import re
from pathlib import Path

import pytest

from klabsite.commands.simulation import simulate
from klabsite.engine.events import BidMade, TrumpChosen
from klabsite.records.klab import read_record
from klabsite.records.replay import replay
from klabsite.site.build import run_build
from klabsite.site.replays import DealView, LoadedRecord, deal_views

REPO = Path(__file__).resolve().parents[1]
NAMES = {"N": "North", "S": "South"}
FIXTURES = Path(__file__).parent / "fixtures" / "replays"

SIMULATED = {  # seeds where the case comes up, found once and checked below
    "forced.klab": ("klaverjas", "w0", 1, "trump-choice=forced"),
    "free.klab": ("klaverjas", "w82", 1, ""),
    "turned.klab": ("klaverjas", "w0", 2, "trump-choice=turned"),
    "schmeisser.klab": ("klaberjass", "w20", 3, "schmeiss-round-2=on"),
    "refuser.klab": ("klaberjass", "w20", 3, "schmeiss-round-2=on schmeiss-refused=refuser-makes"),
    "second-round.klab": ("klaberjass", "w16", 3, ""),
}


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, dict[str, list[DealView]]]:
    folder = tmp_path_factory.mktemp("wording")
    files = [FIXTURES / "kb_equal_sequences_elder.klab", FIXTURES / "kb_sequences_void.klab"]
    for name, (game, seed, deals, rules) in SIMULATED.items():
        (folder / name).write_text(simulate(game, seed, deals=deals, rules=rules).to_text(), encoding="utf-8")
        files.append(folder / name)
    views = {}
    for path in files:
        text = path.read_text(encoding="utf-8")
        record = read_record(text)
        views[path.name] = deal_views([LoadedRecord(path.name, record, replay(record), text)])
    out = folder / "site"
    assert run_build(REPO, out=str(out), langs=["fr"], deals=files) == 0
    return out, views


def _said(site: Path, deal: DealView, step: str, lang: str = "en") -> str:
    """The narration of a step page, as text."""
    page = (site / lang / "deals" / deal.id / f"{step}.html").read_text(encoding="utf-8")
    narration = re.search(r'<div class="what">(.*?)</div>', page, re.S)
    assert narration, page[:300]
    text = re.sub(r"<[^>]+>", "", re.sub(r"</?(?:p|ul|li)\b[^>]*>", " ", narration.group(1)))
    return " ".join(html.unescape(text).split())


def _named(deals: list[DealView]) -> list[tuple[DealView, str]]:
    """(deal, step name) of every step where trump is named."""
    return [(deal, step.name) for deal in deals for step in deal.steps
            if any(isinstance(event, BidMade) and event.word == "name" for event in step.step.events)]


def test_klaverjas_trump_forced_says_the_player_left_of_the_dealer_must_name_it(built):
    site, views = built
    (deal, step), = _named(views["forced.klab"])
    assert step == "b1"
    assert "With trump forced, the player left of the dealer must name it." in _said(site, deal, step)


def test_klaverjas_after_four_passes_the_player_left_of_the_dealer_must_name_a_suit(built):
    site, views = built
    said = {step: _said(site, deal, step) for deal, step in _named(views["free.klab"])}
    assert said == {"b5": said["b5"]}
    assert "Everybody passed, so the player left of the dealer must name a suit." in said["b5"]
    turned = [(deal, step) for deal, step in _named(views["turned.klab"])]
    assert turned, "the seed has a turned deal where all four pass"
    for deal, step in turned:
        assert ("Everybody passed, so the player left of the dealer must name one of the other three suits."
                in _said(site, deal, step))


def test_a_free_choice_of_trump_says_nothing_of_having_to(built):
    site, views = built
    takes = [(deal, step.name) for deal in views["turned.klab"] for step in deal.steps
             if any(isinstance(event, TrumpChosen) for event in step.step.events)
             and not any(isinstance(event, BidMade) and event.word == "name" for event in step.step.events)]
    assert takes
    for deal, step in takes:
        assert "must name" not in _said(site, deal, step)


@pytest.mark.parametrize(("name", "maker_refuses"), [("schmeisser.klab", False), ("refuser.klab", True)])
def test_a_schmeiss_refused_in_the_second_round_says_who_must_name_trump(built, name, maker_refuses):
    site, views = built
    refusals = [(deal, step) for deal in views[name] for step in deal.steps
                if any(isinstance(event, BidMade) and event.word == "refuse" for event in step.step.events)
                and not any(isinstance(event, TrumpChosen) for event in step.step.events)]
    assert refusals, "the seed has a schmeiss refused in the second round"
    for deal, step in refusals:
        refuser = step.step.action.seat
        maker = refuser if maker_refuses else next(seat for seat in deal.seats if seat != refuser)
        said = _said(site, deal, step.name)
        assert f"{NAMES[maker.value]} becomes the maker and must name one of the other three suits." in said, said


SCHMEISS_SAID = {
    (1, False): "{who} offers a schmeiss: {other} either throws the hands in or lets {who} play with the "
                "upcard's suit as trump.",
    (1, True): "{who} offers a schmeiss: {other} either throws the hands in or plays with the upcard's suit as "
               "trump.",
    (2, False): "{who} offers a schmeiss: {other} either throws the hands in or lets {who} name trump.",
    (2, True): "{who} offers a schmeiss: {other} either throws the hands in or must name trump.",
}


@pytest.mark.parametrize(("name", "maker_refuses"), [("schmeisser.klab", False), ("refuser.klab", True)])
def test_a_schmeiss_says_what_the_other_player_chooses_between_in_each_round(built, name, maker_refuses):
    """Klaberjass §1: a schmeiss offers the other player a throw-in or, refused, the upcard's suit as
    trump (round 1) or a suit still to be named (round 2), by the schmeisser or, with
    schmeiss-refused=refuser-makes, by the refuser; a refusal in round 1 fixes trump at once."""
    site, views = built
    rounds = set()
    for deal in views[name]:
        for offer, answer in itertools.pairwise(deal.steps):
            if not any(isinstance(event, BidMade) and event.word == "schmeiss" for event in offer.step.events):
                continue
            refused = any(isinstance(event, BidMade) and event.word == "refuse" for event in answer.step.events)
            if refused:
                trump_fixed = any(isinstance(event, TrumpChosen) for event in answer.step.events)
                assert offer.bid_round == (1 if trump_fixed else 2), (deal.id, offer.name)
            rounds.add(offer.bid_round)
            who = offer.step.action.seat
            other = next(seat for seat in deal.seats if seat != who)
            expected = SCHMEISS_SAID[offer.bid_round, maker_refuses].format(
                who=NAMES[who.value], other=NAMES[other.value])
            assert expected in _said(site, deal, offer.name), _said(site, deal, offer.name)
    assert rounds == {1, 2}, "the seed has a schmeiss in each round"


def test_equal_sequences_with_equal_meld_elder_are_called_equal_not_better(built):
    site, views = built
    (deal,) = views["kb_equal_sequences_elder.klab"]
    said = _said(site, deal, "m2")
    assert "South holds Q♠ J♠ 10♠, as good as the other’s." in said
    assert "The sequences are equal: North, who did not deal, will score 20 for them." in said
    assert "better" not in said and "not as good" not in said


def test_with_no_trick_melds_void_sequences_score_only_with_a_trick(built):
    site, views = built
    first, second = views["kb_sequences_void.klab"]
    assert "North has the better sequences and will score 100 for them on winning a trick." in _said(
        site, first, "m2")
    assert "South alone declares sequences and will score 20 for them on winning a trick." in _said(
        site, second, "m2")
    for deal, who in ((first, "North"), (second, "South")):
        end = _said(site, deal, "end")
        assert f"{who} won no trick, so those sequences score nothing." in end
        assert deal.result["melds"] == {"N": 0, "S": 0}


def test_sequences_that_score_say_nothing_of_a_trick(built):
    site, views = built
    (deal,) = views["kb_equal_sequences_elder.klab"]
    assert "won no trick" not in _said(site, deal, "end")
    assert deal.voided_sequences is None



def test_a_klaberjass_pass_in_the_second_round_says_again(built):
    """Both bidding rounds ask the same two players: a pass of the second round is his second."""
    site, views = built
    seen = {1: 0, 2: 0}
    for name in ("schmeisser.klab", "refuser.klab", "second-round.klab", "kb_sequences_void.klab"):
        for deal in views[name]:
            for step in deal.steps:
                passed = [event for event in step.step.events if isinstance(event, BidMade) and event.word == "pass"]
                if not passed:
                    continue
                said = _said(site, deal, step.name)
                who = NAMES[passed[0].seat.value]
                expected = f"{who} passes again." if step.bid_round == 2 else f"{who} passes."
                assert expected in said, (deal.id, step.name, said)
                seen[step.bid_round] += 1
    assert seen[1] and seen[2], seen

def test_the_new_sentences_are_translated(built):
    site, views = built
    (deal,) = views["kb_equal_sequences_elder.klab"]
    french = _said(site, deal, "m2", "fr")
    assert "equal" not in french and "as good" not in french
    first, _ = views["kb_sequences_void.klab"]
    assert "won no trick" not in _said(site, first, "end", "fr")
    (forced, step), = _named(views["forced.klab"])
    assert "must name" not in _said(site, forced, step, "fr")
