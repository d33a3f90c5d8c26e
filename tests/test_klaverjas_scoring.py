"""Klaverjas roem, pit, nat, the deal result and the match (the rule book, Klaverjas rules 3–6;
record-format.md, the ``--json`` keys)."""

from __future__ import annotations

import pytest

from klabsite.engine.actions import Action, ActionKind
from klabsite.engine.cards import Card, Suit, parse_cards
from klabsite.engine.events import DealScored, TrickWon
from klabsite.engine.klaverjas import (
    ROEM_SUMS,
    SIDE_POINT_SUMS,
    KlaverjasDeal,
    KlaverjasRules,
    deck_from_hands,
    scored_result,
)
from klabsite.engine.match import MatchScore
from klabsite.engine.roem import roem_parts, trick_roem
from klabsite.engine.seats import Seat, Side

SPADES = Suit.SPADES
NS, EW = Side.NS, Side.EW


def dealt(hands: dict[str, str], dealer: Seat = Seat.W) -> KlaverjasDeal:
    cards = {Seat.parse(seat): parse_cards(text) for seat, text in hands.items()}
    return KlaverjasDeal(KlaverjasRules(), dealer, deck_from_hands(dealer, cards))


def play(deal: KlaverjasDeal, cards: str) -> None:
    for word in cards.split():
        assert deal.to_act is not None
        deal.apply(Action.play(deal.to_act, Card.parse(word)))


def play_out(deal: KlaverjasDeal) -> None:
    while not deal.is_over:
        deal.apply(deal.legal_actions()[0])


# -- roem (rule 3) ----------------------------------------------------------------------------

def test_three_in_sequence_is_20_four_is_50_in_natural_order() -> None:
    assert trick_roem(parse_cards("8H 9H TH 7C"), SPADES) == 20           # 8 9 10
    assert trick_roem(parse_cards("9H TH JH QH"), SPADES) == 50           # 9 10 J Q
    assert trick_roem(parse_cards("JH QH KH AH"), SPADES) == 50
    assert trick_roem(parse_cards("7H 9H JH KH"), SPADES) == 0            # not consecutive
    assert trick_roem(parse_cards("QH KH AH 7H"), SPADES) == 20           # no wrapping round
    assert trick_roem(parse_cards("8H 9H TD JD"), SPADES) == 0            # one suit only


def test_stuk_is_king_and_queen_of_trumps_in_one_trick() -> None:
    assert trick_roem(parse_cards("KS 7C QS 8D"), SPADES) == 20
    assert trick_roem(parse_cards("KH 7C QH 8D"), SPADES) == 0            # K-Q of a plain suit


def test_king_queen_jack_of_trumps_is_40() -> None:
    assert trick_roem(parse_cards("KS QS JS 7C"), SPADES) == 40
    assert dict(roem_parts(parse_cards("KS QS JS 7C"), SPADES)) == {"sequence-3": 20, "stuk": 20}


def test_ten_jack_queen_king_of_trumps_is_70() -> None:
    assert trick_roem(parse_cards("TS JS QS KS"), SPADES) == 70


@pytest.mark.parametrize(
    ("rank", "roem"),
    [("A", 100), ("T", 100), ("K", 100), ("Q", 100), ("J", 200), ("9", 0), ("8", 0), ("7", 0)],
)
def test_four_of_a_kind(rank: str, roem: int) -> None:
    cards = parse_cards(" ".join(rank + suit for suit in "CDHS"))
    for trump in Suit:
        assert trick_roem(cards, trump) == roem


def test_four_jacks_200_four_nines_nothing() -> None:
    assert trick_roem(parse_cards("JC JD JH JS"), Suit.HEARTS) == 200
    assert trick_roem(parse_cards("9C 9D 9H 9S"), Suit.HEARTS) == 0


# E (partner of W) must beat N's QS with KS; S has only a lower trump; W wins with JS.
ROEM_TRICK = {
    "N": "QS 7C 8C 9C TC JC QC KC",
    "E": "KS 7D 8D 9D TD JD QD KD",
    "S": "8S 7H 8H 9H TH JH QH KH",
    "W": "JS 9S TS AS 7S AC AH AD",
}


def test_roem_goes_to_the_trick_winners_side() -> None:
    deal = dealt(ROEM_TRICK)
    deal.apply(Action.name(Seat.N, SPADES))                  # N–S play; E–W win the roem
    play(deal, "QS KS 8S JS")
    trick = deal.tricks[0]
    assert isinstance(trick, TrickWon) and trick.winner is Seat.W and trick.roem == 40
    play_out(deal)
    assert deal.result is not None and deal.result.roem["EW"] >= 40


@pytest.mark.parametrize(("fourth", "roem"), [("8S", 40), ("TS", 70)])
def test_roem_in_a_played_trick(fourth: str, roem: int) -> None:
    hands = {
        "N": "KS 7C 8C 9C TC JC QC KC",
        "E": "QS 7D 8D 9D TD JD QD KD",
        "S": "JS 7H 8H 9H TH JH QH KH",
        "W": "9S TS AS 8S 7S AC AH AD",
    }
    deal = dealt(hands)
    deal.apply(Action.name(Seat.N, SPADES))
    play(deal, f"KS QS JS {fourth}")
    assert deal.tricks[0].roem == roem and deal.tricks[0].winner is Seat.S


# -- pit and nat (rules 4, 5) -----------------------------------------------------------------

# N holds every spade, each other seat one whole suit: with spades trump N wins every trick and
# playing the lowest card each time makes every trick four of a kind (7s 0, 8s 0, 9s 0, 10s 100,
# J 200, Q 100, K 100, A 100 = 600 roem).
ONE_SUIT_EACH = {
    "N": "7S 8S 9S TS JS QS KS AS",
    "E": "7C 8C 9C TC JC QC KC AC",
    "S": "7D 8D 9D TD JD QD KD AD",
    "W": "7H 8H 9H TH JH QH KH AH",
}


def test_pit_playing_side_wins_all_tricks_scores_100_more() -> None:
    deal = dealt(ONE_SUIT_EACH)
    deal.apply(Action.name(Seat.N, SPADES))
    play_out(deal)
    result = deal.result
    assert result is not None and result.pit and result.result == "made"
    assert result.roem == {"NS": 600, "EW": 0}
    assert result.card_points == {"NS": 152, "EW": 0} and result.last_trick is NS
    assert result.totals == {"NS": 162 + 600 + 100, "EW": 0} == result.score


def test_pit_only_for_the_playing_side() -> None:
    deal = dealt(ONE_SUIT_EACH)
    deal.apply(Action(Seat.N, ActionKind.PASS))
    deal.apply(Action.name(Seat.E, SPADES))                  # E–W play, N–S take every trick
    play_out(deal)
    result = deal.result
    assert result is not None and not result.pit and result.result == "nat"
    assert result.totals == {"NS": 162 + 600, "EW": 0}
    assert result.score == {"NS": 162 + 600, "EW": 0}


def test_nat_on_an_exact_tie_pays_162_plus_all_roem() -> None:
    result = scored_result(KlaverjasRules(), Seat.N, NS, {NS: 71, EW: 91}, {NS: 20, EW: 0}, pit=False)
    assert result.totals == {"NS": 91, "EW": 91}
    assert result.result == "nat" and result.score == {"NS": 0, "EW": 182}


def test_nat_payout_includes_the_opponents_roem_too() -> None:
    result = scored_result(KlaverjasRules(), Seat.N, EW, {NS: 100, EW: 62}, {NS: 20, EW: 50}, pit=False)
    assert result.result == "nat" and result.score == {"NS": 162 + 70, "EW": 0}


def test_made_when_strictly_more_both_sides_score_their_totals() -> None:
    result = scored_result(KlaverjasRules(), Seat.N, EW, {NS: 80, EW: 82}, {NS: 0, EW: 0}, pit=False)
    assert result.result == "made" and result.score == {"NS": 80, "EW": 82}


def test_a_side_takes_any_card_points_but_1_and_161_and_holds_roem_made_of_20_50_100_and_200() -> None:
    assert set(range(163)) - SIDE_POINT_SUMS == {1, 161}
    assert set(range(0, 710, 10)) - ROEM_SUMS == {10, 30}


def test_roem_counts_toward_beating_the_opponents() -> None:
    result = scored_result(KlaverjasRules(), Seat.N, NS, {NS: 72, EW: 90}, {NS: 20, EW: 0}, pit=False)
    assert result.totals == {"NS": 92, "EW": 90} and result.result == "made"


def test_nat_event_closes_a_played_deal() -> None:
    deal = dealt(ONE_SUIT_EACH)
    deal.apply(Action(Seat.N, ActionKind.PASS))
    deal.apply(Action.name(Seat.E, SPADES))
    play_out(deal)
    assert deal.events[-1] == DealScored("nat", (("NS", 762), ("EW", 0)))
    assert deal.to_act is None and deal.legal_actions() == []


# -- the result as JSON (record-format.md) ----------------------------------------------------

def test_played_result_json_has_exactly_the_record_format_keys() -> None:
    deal = dealt(ONE_SUIT_EACH)
    deal.apply(Action.name(Seat.N, SPADES))
    play_out(deal)
    assert deal.result is not None
    assert deal.result.to_json() == {
        "dealer": "W", "outcome": "played", "trump": "S", "playing": "NS",
        "card_points": {"NS": 152, "EW": 0}, "last_trick": "NS", "roem": {"NS": 600, "EW": 0},
        "pit": True, "totals": {"NS": 862, "EW": 0}, "result": "made", "score": {"NS": 862, "EW": 0},
    }
    assert deal.result.counted and deal.result.hanging == 0


def test_scored_result_json_has_exactly_the_score_sheet_keys() -> None:
    result = scored_result(KlaverjasRules(), Seat.S, NS, {NS: 162, EW: 0}, {NS: 40, EW: 0}, pit=True)
    assert result.to_json() == {
        "dealer": "S", "outcome": "scored", "playing": "NS", "points": {"NS": 162, "EW": 0},
        "roem": {"NS": 40, "EW": 0}, "pit": True, "totals": {"NS": 302, "EW": 0}, "result": "made",
        "score": {"NS": 302, "EW": 0},
    }


def test_scored_result_refuses_impossible_entries() -> None:
    rules = KlaverjasRules()
    with pytest.raises(ValueError, match="add up to 162"):
        scored_result(rules, Seat.N, NS, {NS: 100, EW: 100}, {NS: 0, EW: 0}, pit=False)
    with pytest.raises(ValueError, match="pit means NS took every trick"):
        scored_result(rules, Seat.N, NS, {NS: 150, EW: 12}, {NS: 0, EW: 0}, pit=True)
    with pytest.raises(ValueError, match="multiple of 10"):
        scored_result(rules, Seat.N, NS, {NS: 150, EW: 12}, {NS: 25, EW: 0}, pit=False)
    with pytest.raises(ValueError, match="no roem for EW"):
        scored_result(rules, Seat.N, NS, {NS: 162, EW: 0}, {NS: 0, EW: 20}, pit=True)


# -- the match (rule 6) -----------------------------------------------------------------------

def test_match_target_1500_first_side_to_reach_it_wins() -> None:
    match = MatchScore(KlaverjasRules(), keys=("NS", "EW"))
    match.add({"NS": 1400, "EW": 0})
    assert not match.over
    match.add({"NS": 120, "EW": 42})
    assert match.over and match.winner == "NS"


def test_match_target_both_reach_higher_total_wins_equal_plays_on() -> None:
    match = MatchScore(KlaverjasRules(), keys=("NS", "EW"))
    match.add({"NS": 1450, "EW": 1460})
    match.add({"NS": 100, "EW": 90})
    assert match.over is False and match.totals == {"NS": 1550, "EW": 1550}
    match.add({"NS": 0, "EW": 162})
    assert match.over and match.winner == "EW"


def test_match_of_16_deals_ends_after_the_16th_higher_total_wins() -> None:
    rules = KlaverjasRules.parse("deals=16")
    match = MatchScore(rules, keys=("NS", "EW"))
    for _ in range(15):
        match.add({"NS": 2000, "EW": 0})
        assert not match.over
    match.add({"NS": 0, "EW": 162})
    assert match.over and match.winner == "NS" and match.counted == 16


def test_scored_result_accepts_side_letters() -> None:
    rules = KlaverjasRules()
    by_letters = scored_result(rules, Seat.N, "EW", {"NS": 80, "EW": 82}, {"NS": 0, "EW": 20}, pit=False)
    by_sides = scored_result(rules, Seat.N, EW, {NS: 80, EW: 82}, {NS: 0, EW: 20}, pit=False)
    assert by_letters == by_sides
