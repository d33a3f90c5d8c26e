"""The search bot's model of its partner: a world fits the partner's cards when each was among his
best double dummy in it."""

from __future__ import annotations

import random

import pytest

from klabsite.bots import get_bot
from klabsite.bots.inference import infer_klaverjas
from klabsite.bots.search_partner import PARTNER_MISFIT, klaverjas_partner_fit
from klabsite.bots.search_play import layouts
from klabsite.bots.search_positions import klaverjas_world
from klabsite.engine.klaverjas import KlaverjasPhase
from klabsite.engine.seats import Seat
from klabsite.solver.klaverjas import KlaverjasSolver
from tests.bots_positions import every_option_set, hidden_truth, new_deal, weight_exponents


def _truth(deal, seat):
    view = deal.view_for(seat)
    knowledge = infer_klaverjas(view)
    return view, knowledge, {place: hidden_truth(deal, place) for place in knowledge.places}


def _seeing_deal(rules, seed: int):
    """The card plays of a deal whose players bid like the heuristic and play a card that is best
    double dummy (the lowest of the best), each yielded before it is played."""
    rng = random.Random(seed)
    deal = new_deal(rules, rng).deal
    heuristic, solver = get_bot("heuristic"), KlaverjasSolver()
    while not deal.is_over:
        seat, legal = deal.to_act, deal.legal_actions()
        if deal.phase is not KlaverjasPhase.PLAY:
            deal.apply(heuristic.choose(deal.view_for(seat), legal, rng))
            continue
        yield deal
        view, knowledge, truth = _truth(deal, seat)
        values = solver.card_values(klaverjas_world(view, knowledge, truth))
        best = max(values.values())
        card = next(card for card, value in values.items() if value == best)
        deal.apply(next(action for action in legal if action.card == card))


@pytest.mark.parametrize("rules", every_option_set("klaverjas"), ids=str)
def test_the_true_hands_of_a_partner_who_plays_his_best_fit(rules):
    """The real deal weighs 1 when the partner always plays a card that is best double dummy,
    whichever trick the questions start from."""
    checked = 0
    for seed in range(2):
        for deal in _seeing_deal(rules, seed):
            if deal.to_act is not Seat.N or len(deal.tricks) < 2:
                continue
            view, knowledge, truth = _truth(deal, Seat.N)
            for since in (0, 2):
                assert klaverjas_partner_fit(view, knowledge, since=since)(truth) == 1.0
            checked += 1
    assert checked >= 8


def test_a_partner_card_worse_than_another_costs_the_world_a_factor():
    """Weights are powers of the factor, some sampled worlds lose it (a card not best there),
    and stopping at a floor tells the same side of the floor as counting to the end."""
    rules = every_option_set("klaverjas")[0]
    rng = random.Random(3)
    exponents = set()
    for seed in range(2):
        for deal in _seeing_deal(rules, seed):
            if deal.to_act is not Seat.N or len(deal.tricks) < 3:
                continue
            view, knowledge, _ = _truth(deal, Seat.N)
            weight = klaverjas_partner_fit(view, knowledge, since=1)
            exponents |= weight_exponents(weight, knowledge, PARTNER_MISFIT, rng, 6)
    assert 0 in exponents and max(exponents) >= 1


def test_only_the_partners_cards_from_the_first_trick_asked_count():
    """Cards before trick ``since`` are not asked about: past the last trick nothing weighs."""
    rules = every_option_set("klaverjas")[0]
    rng = random.Random(5)
    for deal in _seeing_deal(rules, 4):
        if deal.to_act is Seat.N and len(deal.tricks) == 5:
            view, knowledge, _ = _truth(deal, Seat.N)
            weight = klaverjas_partner_fit(view, knowledge, since=8)
            draw = layouts(knowledge, rng)
            assert all(weight(draw()) == 1.0 for _ in range(20))
            return
    pytest.fail("N never played to the sixth trick")
