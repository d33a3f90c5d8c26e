"""Bots only ever return one of the legal actions they are given, in every option set of both
games, over a few thousand seeded deals; and the same seed gives the same choices."""

from __future__ import annotations

import random

import pytest

from klabsite.bots import BOTS, BotError, get_bot
from klabsite.engine.seats import Seat
from tests.bots_positions import every_option_set, new_deal

SEATINGS = (("heuristic", "heuristic"), ("heuristic", "random"), ("random", "heuristic"))


def play(rules, rng: random.Random, names) -> list[str]:
    """One seeded deal; every choice is checked to be one of the legal actions. The actions."""
    position = new_deal(rules, rng)
    deal = position.deal
    seats = (Seat.N, Seat.S) if position.game == "klaberjass" else tuple(Seat)
    bots = {seat: get_bot(names[i % len(names)]) for i, seat in enumerate(seats)}
    actions = []
    while not deal.is_over:
        seat = deal.to_act
        legal = deal.legal_actions()
        action = bots[seat].choose(deal.view_for(seat), legal, rng)
        assert any(action is candidate for candidate in legal), (str(action), [str(a) for a in legal])
        deal.apply(action)
        actions.append(str(action))
    return actions


@pytest.mark.parametrize("game", ["klaberjass", "klaverjas"])
def test_bots_return_only_legal_actions_in_every_option_set(game):
    rule_sets = every_option_set(game)
    per_set = 8 if game == "klaberjass" else 120  # 256 Klaberjass sets, 12 Klaverjas ones
    rng = random.Random(f"legal {game}")
    deals = 0
    for rules in rule_sets:
        for i in range(per_set):
            play(rules, rng, SEATINGS[i % len(SEATINGS)])
            deals += 1
    assert deals >= 1440


@pytest.mark.parametrize("game", ["klaberjass", "klaverjas"])
def test_the_same_seed_gives_the_same_choices(game):
    rules = every_option_set(game)[-1]
    runs = [[play(rules, random.Random(seed), ("heuristic", "random")) for seed in range(20)] for _ in range(2)]
    assert runs[0] == runs[1]
    heuristic_only = [[play(rules, random.Random(seed), ("heuristic",)) for seed in range(5)] for _ in range(2)]
    assert heuristic_only[0] == heuristic_only[1]


def test_the_heuristic_bot_is_registered():
    assert "heuristic" in BOTS and get_bot("heuristic").name == "heuristic"
    with pytest.raises(BotError, match="known bots are random, heuristic"):
        get_bot("oracle")
