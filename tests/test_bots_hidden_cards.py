"""Bots never look at hidden cards: the seat's view of a deal whose hidden cards are scrambled
(the same public actions replayed on another deal consistent with them, built through the
engine) is the same view, and the bots make the same choice on it."""

from __future__ import annotations

import random

import pytest

from klabsite.bots import get_bot
from klabsite.bots.inference import infer
from klabsite.engine.cards import mask_of
from tests.bots_positions import every_option_set, hidden_truth, positions, replay


@pytest.mark.parametrize("game", ["klaberjass", "klaverjas"])
def test_scrambling_the_hidden_cards_changes_no_choice(game):
    rng = random.Random(f"hidden {game}")
    rule_sets = every_option_set(game)
    bot = get_bot("heuristic")
    compared = scrambled = 0
    for i in range(40 if game == "klaberjass" else 24):
        for step, position in enumerate(positions(rule_sets[(i * 7) % len(rule_sets)], rng,
                                                  ["heuristic", "random"])):
            if step % 2:
                continue
            deal = position.deal
            seat = deal.to_act
            view = deal.view_for(seat)
            knowledge = infer(view)
            layout = dict(zip(knowledge.places, knowledge.sampler().sample(rng), strict=True))
            other = replay(position, seat, knowledge, layout, rng)
            if any(mask_of(other.hands[s]) != mask_of(deal.hands[s]) for s in other.hands):
                scrambled += 1
            assert all(layout[place] == hidden_truth(other, place) for place in layout)
            other_view = other.view_for(seat)
            assert other_view == view
            legal, other_legal = deal.legal_actions(), other.legal_actions()
            choice = bot.choose(view, legal, random.Random(step))
            assert bot.choose(other_view, other_legal, random.Random(step)) == choice
            compared += 1
    assert compared > 300 and scrambled > 0.75 * compared  # late in a deal often only one layout fits
