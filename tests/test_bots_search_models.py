"""The search bot's models of the other players: worlds weighed by how well the opponents' card
play fits the heuristic's, and worlds drawn in proportion to their weight."""

from __future__ import annotations

import random

import pytest

from klabsite.bots.inference import infer_klaverjas
from klabsite.bots.search_models import PLAY_MISFIT, fitting_layouts, klaverjas_fit, klaverjas_play_fit
from klabsite.engine.actions import Action, ActionKind
from klabsite.engine.cards import mask_of, parse_cards
from klabsite.engine.klaverjas import KlaverjasDeal, KlaverjasPhase, KlaverjasRules, deck_from_hands
from klabsite.engine.seats import Seat
from tests.bots_positions import every_option_set, hidden_truth, positions, weight_exponents


def _card_plays(rules, seed: int):
    """Every card play of a deal the heuristic plays on all seats, from N's view."""
    for position in positions(rules, random.Random(seed), ["heuristic"]):
        deal = position.deal
        if deal.phase is KlaverjasPhase.PLAY and deal.to_act is Seat.N:
            yield deal


@pytest.mark.parametrize("rules", every_option_set("klaverjas"), ids=str)
def test_the_true_hands_of_heuristic_opponents_fit_their_play(rules):
    """The real deal weighs 1 when the opponents are the heuristic: every card they played is the
    one it plays with their cards."""
    checked = 0
    for seed in range(3):
        for deal in _card_plays(rules, seed):
            view = deal.view_for(Seat.N)
            knowledge = infer_klaverjas(view)
            truth = {place: hidden_truth(deal, place) for place in knowledge.places}
            assert klaverjas_play_fit(view, knowledge, recent=16)(truth) == 1.0
            checked += 1
    assert checked >= 20


def test_a_world_loses_a_factor_for_each_card_that_does_not_fit():
    """Weights are powers of the misfit factor, some worlds lose it, and stopping at a floor
    tells the same side of the floor as counting to the end."""
    rules = every_option_set("klaverjas")[0]
    rng = random.Random(7)
    exponents = set()
    for seed in range(3):
        for deal in _card_plays(rules, seed):
            view = deal.view_for(Seat.N)
            knowledge = infer_klaverjas(view)
            weight = klaverjas_play_fit(view, knowledge, recent=16)
            exponents |= weight_exponents(weight, knowledge, PLAY_MISFIT, rng, 10)
    assert 0 in exponents and max(exponents) >= 2


def test_only_the_opponents_last_cards_asked_count():
    """With ``recent=1`` only the opponents' last card weighs a world: no world loses the factor
    twice, as some do when every card counts."""
    rules = every_option_set("klaverjas")[0]
    rng = random.Random(7)
    last, every = set(), set()
    for seed in range(3):
        for deal in _card_plays(rules, seed):
            view = deal.view_for(Seat.N)
            knowledge = infer_klaverjas(view)
            last |= weight_exponents(klaverjas_play_fit(view, knowledge, recent=1), knowledge, PLAY_MISFIT, rng, 10)
            every |= weight_exponents(klaverjas_play_fit(view, knowledge), knowledge, PLAY_MISFIT, rng, 10)
    assert max(last) == 1 and max(every) >= 2


def test_a_partners_bid_that_does_not_fit_costs_its_own_factor():
    # N, E and S pass; W (the dealer) asks how well worlds fit. With the hearts hand the model
    # names hearts, so a world giving it to E (W's partner) or N (an opponent) misfits one pass.
    strong, weak, other = (parse_cards(text) for text in (
        "7D TC AC JH 9H TH AH AS", "JC TD JD AD 7H TS QS KS", "7C 9C QC 9D KD QH 7S 8S"))
    hands = {Seat.N: weak, Seat.E: other, Seat.S: strong, Seat.W: parse_cards("8C KC 8D QD 8H KH 9S JS")}
    deal = KlaverjasDeal(KlaverjasRules(), Seat.W, deck_from_hands(Seat.W, hands))
    for seat in (Seat.N, Seat.E, Seat.S):
        deal.apply(Action(seat, ActionKind.PASS))
    view = deal.view_for(Seat.W)
    knowledge = infer_klaverjas(view)
    partner_holds = {Seat.N: mask_of(weak), Seat.E: mask_of(strong), Seat.S: mask_of(other)}
    opponent_holds = {Seat.N: mask_of(strong), Seat.E: mask_of(weak), Seat.S: mask_of(other)}
    apart = klaverjas_fit(view, knowledge, 0.5, partner_misfit=0.1)
    assert apart(partner_holds) == 0.1
    assert apart(opponent_holds) == 0.5
    assert klaverjas_fit(view, knowledge, 0.5)(partner_holds) == 0.5


def test_fitting_layouts_draws_in_proportion_to_the_weight():
    """Three layouts weighing 1, 1/2 and 0 are drawn about 2 : 1 : 0."""
    rng = random.Random(3)
    pool = [{"a": 1}, {"a": 2}, {"a": 3}]
    weights = {1: 1.0, 2: 0.5, 3: 0.0}

    def draw():
        return pool[rng.randrange(3)]

    fitted = fitting_layouts(draw, lambda layout, floor=0.0: weights[layout["a"]], rng)
    counts = {1: 0, 2: 0, 3: 0}
    for _ in range(3000):
        counts[fitted()["a"]] += 1
    assert counts[3] == 0
    assert 1.7 < counts[1] / counts[2] < 2.3


def test_when_no_world_fits_the_best_fitting_one_is_taken():
    rng = random.Random(5)
    layouts_drawn = iter(range(1000))

    def draw():
        return {"n": next(layouts_drawn)}

    def weight(layout, floor=0.0):
        return 0.0 if layout["n"] != 2 else 1e-12

    assert fitting_layouts(draw, weight, rng, tries=5)() == {"n": 2}


def test_an_adaptive_bound_draws_in_proportion_to_the_weight_when_no_world_fits_well():
    """Layouts weighing 0.02, 0.01 and 0.001: with the bound lowered, drawn about 20 : 10 : 1 and
    in far fewer tries than with the bound at 1, which takes the best of 40 tries nearly always
    (and so the best-fitting layout far too often)."""
    weights = {1: 0.02, 2: 0.01, 3: 0.001}

    def counts(adaptive: bool) -> tuple[dict[int, int], int]:
        rng = random.Random(4)
        tried = [0]

        def draw():
            tried[0] += 1
            return {"a": rng.randrange(1, 4)}

        fitted = fitting_layouts(draw, lambda layout, floor=0.0: weights[layout["a"]], rng, adaptive=adaptive)
        drawn = {1: 0, 2: 0, 3: 0}
        for _ in range(3000):
            drawn[fitted()["a"]] += 1
        return drawn, tried[0]
    drawn, tries = counts(adaptive=True)
    assert 1.7 < drawn[1] / drawn[2] < 2.3 and 5 < drawn[2] / drawn[3] < 20
    fixed, fixed_tries = counts(adaptive=False)
    assert fixed[1] / fixed[2] > 5
    assert tries * 10 < fixed_tries
