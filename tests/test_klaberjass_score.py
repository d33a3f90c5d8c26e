"""Klaberjass deal score (made, failed, tie, hanging points), the result's JSON, and the match."""

from __future__ import annotations

import pytest

from klabsite.engine.actions import Action, ActionKind
from klabsite.engine.cards import Card, parse_cards
from klabsite.engine.events import DealScored
from klabsite.engine.klaberjass import (
    PLAYER_CARD_POINT_SUMS,
    KlaberjassDeal,
    KlaberjassResult,
    next_dealer,
    possible_extras,
    scored_result,
    stack_deck,
    totals_problem,
)
from klabsite.engine.match import MatchScore
from klabsite.engine.options import KlaberjassRules
from klabsite.engine.seats import Seat
from klabsite.engine.tricks import LAST_TRICK_BONUS

N, S = Seat.N, Seat.S
DEFAULT = KlaberjassRules()
HANGING = KlaberjassRules(equal_score="next-deal-winner")

# N (non-dealer) holds every club, S every high trump: S wins every trick whoever is maker.
CLUBS = "AC KC QC JC TC 9C 8C 7C 7D"
TRUMPS = "JH 9H AH TH KH QH 8H 7S 8S"
PLAYED_KEYS = ["dealer", "outcome", "trump", "maker", "card_points", "last_trick", "melds", "bella",
               "totals", "result", "score"]


def played(maker_line: str, rules: KlaberjassRules = DEFAULT, hanging: int = 0) -> KlaberjassDeal:
    deck = stack_deck(parse_cards(CLUBS), parse_cards(TRUMPS), Card.parse("7H"))
    deal = KlaberjassDeal(rules, S, deck, hanging=hanging)
    if maker_line == "S take":
        deal.apply(Action.parse("N", "pass"))
    seat, words = maker_line.split(" ", 1)
    deal.apply(Action.parse(seat, words))
    while not deal.is_over:
        deal.apply(next(a for a in deal.legal_actions() if a.kind is not ActionKind.MELD))
    return deal


def test_maker_made_both_score_their_own_totals():
    deal = played("S take")
    result = deal.result
    assert result is not None and result.result == "made"
    assert result.totals == {"N": 0, "S": 92 + 10 + 20}  # cards, last trick, bella
    assert result.score == result.totals
    assert deal.events[-1] == DealScored("made", (("N", 0), ("S", 122)))


def test_maker_failed_the_opponent_scores_both_totals():
    deal = played("N take")
    result = deal.result
    assert result is not None and result.result == "failed"
    assert result.totals == {"N": 0, "S": 122}
    assert result.score == {"N": 0, "S": 122}
    result = scored_result(DEFAULT, S, N, {N: 70, S: 90})
    assert (result.result, result.score) == ("failed", {"N": 0, "S": 160})


def test_no_deal_gives_a_player_a_total_of_1_point():
    assert totals_problem(KlaberjassRules(), {Seat.N: 1, Seat.S: 27}).startswith("N 1: no deal gives a player")
    assert set(range(147)) - PLAYER_CARD_POINT_SUMS == {1}
    assert totals_problem(KlaberjassRules(), {Seat.N: 11, Seat.S: 27}) is None  # an ace alone
    assert totals_problem(KlaberjassRules(), {Seat.N: 0, Seat.S: 28}) is None


def test_maker_made_by_totals():
    result = scored_result(DEFAULT, S, N, {N: 91, S: 90})
    assert (result.result, result.score, result.hanging) == ("made", {"N": 91, "S": 90}, 0)


def test_tie_maker_scores_nothing_the_opponent_his_own_total():
    result = scored_result(DEFAULT, S, N, {N: 80, S: 80})
    assert (result.result, result.score, result.hanging) == ("tie", {"N": 0, "S": 80}, 0)


def test_tie_next_deal_winner_sets_the_makers_total_aside_through_two_ties():
    first = scored_result(HANGING, S, N, {N: 80, S: 80})
    assert (first.result, first.score, first.hanging) == ("tie", {"N": 0, "S": 80}, 80)
    second = scored_result(HANGING, N, S, {N: 65, S: 65}, first.hanging)
    assert (second.result, second.score, second.hanging) == ("tie", {"N": 65, "S": 0}, 145)
    third = scored_result(HANGING, S, N, {N: 50, S: 100}, second.hanging)
    # N failed: S scores both totals and, scoring more, the 145 waiting points.
    assert (third.result, third.score, third.hanging) == ("failed", {"N": 0, "S": 150 + 145}, 0)


def test_hanging_points_go_to_whoever_scores_more_in_the_next_played_deal():
    deal = played("S take", HANGING, hanging=40)
    assert deal.result is not None
    assert deal.result.score == {"N": 0, "S": 122 + 40} and deal.result.hanging == 0
    made = scored_result(HANGING, S, N, {N: 100, S: 60}, 40)
    assert made.score == {"N": 140, "S": 60}


def test_thrown_in_and_redealt_deals_carry_hanging_points_unchanged():
    deck = stack_deck(parse_cards(CLUBS), parse_cards(TRUMPS), Card.parse("7H"))
    thrown = KlaberjassDeal(HANGING, S, deck, hanging=55)
    for line in ("N pass", "S pass", "N pass", "S pass"):
        thrown.apply(Action.parse(*line.split(" ", 1)))
    redeal = KlaberjassDeal(HANGING, S, deck, hanging=55)
    for line in ("N schmeiss", "S accept"):
        redeal.apply(Action.parse(*line.split(" ", 1)))
    for deal in (thrown, redeal):
        assert deal.result is not None and deal.result.hanging == 55
        assert deal.result.score == {"N": 0, "S": 0}


def test_played_result_json_has_exactly_the_record_format_keys():
    deal = played("S take")
    data = deal.result.to_json() if deal.result else {}
    assert list(data) == PLAYED_KEYS
    assert data == {
        "dealer": "S", "outcome": "played", "trump": "H", "maker": "S",
        "card_points": {"N": 0, "S": 92}, "last_trick": "S", "melds": {"N": 0, "S": 0},
        "bella": {"N": 0, "S": 20}, "totals": {"N": 0, "S": 122}, "result": "made",
        "score": {"N": 0, "S": 122},
    }


def test_scored_result_json_has_exactly_the_score_sheet_keys():
    data = scored_result(DEFAULT, S, N, {N: 84, S: 60}).to_json()
    assert data == {"dealer": "S", "outcome": "scored", "maker": "N", "totals": {"N": 84, "S": 60},
                    "result": "made", "score": {"N": 84, "S": 60}}


def test_result_figures_are_copies():
    result = scored_result(DEFAULT, S, N, {N: 84, S: 60})
    result.score["N"] = 0
    assert result.score["N"] == 84


# -- the match ----------------------------------------------------------------------------------


def thrown_in(dealer: Seat) -> KlaberjassResult:
    return KlaberjassResult(dealer=dealer, outcome="thrown-in")


def test_match_ends_at_the_target_higher_total_wins():
    match = MatchScore(DEFAULT, keys=("N", "S"))
    match.add(scored_result(DEFAULT, S, N, {N: 300, S: 200}).score)
    match.add(scored_result(DEFAULT, N, S, {N: 180, S: 320}).score)
    # Both passed 500 in the same deal: the higher total wins, not the first to reach it.
    assert match.over and match.winner == "S" and match.totals == {"N": 480, "S": 520}


def test_match_at_the_target_with_equal_totals_plays_on():
    match = MatchScore(DEFAULT, keys=("N", "S"))
    match.add(scored_result(DEFAULT, S, N, {N: 260, S: 250}).score)
    match.add(scored_result(DEFAULT, N, S, {N: 250, S: 260}).score)
    assert match.totals == {"N": 510, "S": 510} and not match.over
    match.add(thrown_in(S).score, counted=False)
    assert not match.over
    match.add(scored_result(DEFAULT, S, N, {N: 30, S: 20}).score)
    assert match.over and match.winner == "N"


def test_deals_n_plays_exactly_n_counted_deals():
    rules = KlaberjassRules(deals=2)
    match = MatchScore(rules, keys=("N", "S"))
    dealer = S
    for result in (scored_result(rules, dealer, N, {N: 90, S: 40}), thrown_in(N),
                   scored_result(rules, dealer, S, {N: 60, S: 70})):
        assert not match.over
        match.add(result.score, counted=result.counted)
        dealer = next_dealer(rules, dealer, result.outcome)
    assert match.over and match.counted == 2 and match.winner == "N"


@pytest.mark.parametrize("outcome", ["thrown-in", "redeal"])
def test_unplayed_deals_do_not_count(outcome):
    assert not KlaberjassResult(dealer=S, outcome=outcome).counted


def test_a_players_total_may_hold_the_last_trick() -> None:
    """A capot with the most sequences and bella: every card point, the last trick's 10 and the
    extras to one player, nothing to the other (a total that only the last trick makes possible)."""
    rules = KlaberjassRules()
    most = max(PLAYER_CARD_POINT_SUMS) + LAST_TRICK_BONUS + max(possible_extras(rules))
    assert totals_problem(rules, {Seat.N: most, Seat.S: 0}) is None
    assert totals_problem(rules, {Seat.N: most + 1, Seat.S: 0}) is not None
