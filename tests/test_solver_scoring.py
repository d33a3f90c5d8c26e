"""The value is the deal's own score, as docs/record-format.md defines it: the solver's maker rule is
the engine's award with nothing hanging (made, failed, tie; both ``equal-score`` options: a tied
maker's total that would hang counts 0), and points hanging from earlier deals change nothing."""

from __future__ import annotations

import itertools
import random

import pytest

from klabsite.engine.actions import ActionKind
from klabsite.engine.cards import DECK
from klabsite.engine.klaberjass import KlaberjassDeal, KlaberjassRules, Phase, Seat, scored_result
from klabsite.solver import Solver
from klabsite.solver.klaberjass import maker_value


@pytest.mark.parametrize("equal_score", ["maker-scores-nothing", "next-deal-winner"])
def test_the_maker_rule_is_the_engines_award_without_hanging_points(equal_score: str) -> None:
    rules = KlaberjassRules(equal_score=equal_score)
    for maker_total, opponent_total in itertools.product(range(0, 200, 9), repeat=2):
        result = scored_result(rules, Seat.S, Seat.N, {Seat.N: maker_total, Seat.S: opponent_total})
        score = result.score
        assert maker_value(maker_total, opponent_total) == score["N"] - score["S"]
    assert scored_result(rules, Seat.S, Seat.N, {Seat.N: 81, Seat.S: 81}).result == "tie"


def test_points_hanging_from_earlier_deals_count_zero() -> None:
    rng = random.Random("hanging")
    rules = KlaberjassRules(equal_score="next-deal-winner", schmeiss="off")
    checked = 0
    while checked < 8:
        deck = list(DECK)
        rng.shuffle(deck)
        dealer = rng.choice((Seat.N, Seat.S))
        deals = [KlaberjassDeal(rules, dealer, deck, hanging=hanging) for hanging in (0, 57)]
        choices = []
        while not deals[0].is_over and deals[0].phase is not Phase.PLAY:
            choices.append(rng.randrange(len(deals[0].legal_actions())))
            deals[0].apply(deals[0].legal_actions()[choices[-1]])
        if deals[0].is_over:
            continue
        for choice in choices:
            deals[1].apply(deals[1].legal_actions()[choice])
        for _ in range(rng.randrange(6)):  # a few cards in
            legal = deals[0].legal_actions()
            choice = rng.choice([i for i, a in enumerate(legal) if a.kind is ActionKind.PLAY] or range(len(legal)))
            for deal in deals:
                deal.apply(deal.legal_actions()[choice])
        solver = Solver()
        assert solver.solve(deals[0]) == solver.solve(deals[1])
        assert solver.card_values(deals[0]) == solver.card_values(deals[1])
        checked += 1
