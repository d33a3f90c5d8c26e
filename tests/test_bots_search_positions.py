"""The search bot's solver positions of a world: with the real hidden cards, the position built
from the seat's view alone is the solver's own position of the deal (and the exact value agrees),
at every card play of seeded deals in every option set; and the Klaberjass bidding rules it
plays out agree with the engine's."""

from __future__ import annotations

import random

import pytest

from klabsite.bots.heuristic import HeuristicBot
from klabsite.bots.inference import infer
from klabsite.bots.search_bidding import Bidding
from klabsite.bots.search_positions import klaberjass_world, klaverjas_world
from klabsite.engine.actions import ActionKind
from klabsite.engine.events import BidMade
from klabsite.engine.klaberjass import BellaDecided, Phase
from klabsite.engine.klaverjas import KlaverjasPhase
from klabsite.solver.deals import klaberjass_position, klaverjas_position
from tests.bots_positions import every_option_set, hidden_truth, positions


def _card_plays(game: str, deals: int, rng: random.Random):
    """Card plays of seeded deals. Klaberjass: heuristic players only, who declare the sequences
    worth most or nothing, as the worlds take it (a random player may declare less)."""
    rule_sets = every_option_set(game)
    players = ["heuristic"] if game == "klaberjass" else ["heuristic", "random"]
    for i in range(deals):
        for position in positions(rule_sets[(i * 5) % len(rule_sets)], rng, players):
            deal = position.deal
            if game == "klaverjas":
                if deal.phase is KlaverjasPhase.PLAY:
                    yield deal
            elif deal.phase is Phase.PLAY:
                yield deal


@pytest.mark.parametrize("game", ["klaberjass", "klaverjas"])
def test_the_world_of_the_real_layout_is_the_solver_s_position(game):
    rng = random.Random(f"search positions {game}")
    compared = declarations = 0
    pending = None  # the world built at a declaration, with the declaration made
    for deal in _card_plays(game, 60 if game == "klaberjass" else 12, rng):
        seat = deal.to_act
        view = deal.view_for(seat)
        knowledge = infer(view)
        truth = {place: hidden_truth(deal, place) for place in knowledge.places}
        if game == "klaverjas":
            assert klaverjas_world(view, knowledge, truth) == klaverjas_position(deal)
            compared += 1
            continue
        if pending is not None:
            assert pending == klaberjass_position(deal)
            pending = None
            declarations += 1
        legal = deal.legal_actions()
        if any(action.kind is ActionKind.NOMELD for action in legal):  # the declaration is the decision
            action = HeuristicBot().choose(view, legal, rng)  # what the deal's player will declare
            pending = klaberjass_world(view, knowledge, truth, {seat: action.melds})
            continue
        if any(isinstance(e, BellaDecided) and not e.claimed for e in deal.events):
            continue  # the view does not tell a declined bella: the world takes it as claimed
        assert klaberjass_world(view, knowledge, truth) == klaberjass_position(deal)
        compared += 1
    assert compared > 300
    assert game == "klaverjas" or declarations > 10


def test_the_bidding_replay_follows_the_engine():
    rng = random.Random("search bidding")
    checked = 0
    for rules in every_option_set("klaberjass"):
        for position in positions(rules, rng, ["random"]):
            deal = position.deal
            if deal.phase not in (Phase.BIDDING_1, Phase.BIDDING_2, Phase.SCHMEISS, Phase.NAMING):
                break
            bids = tuple(e for e in deal.events if isinstance(e, BidMade))
            state = Bidding.replay(deal.dealer, rules, bids)
            assert (state.phase, state.to_act) == (deal.phase, deal.to_act)
            assert state.legal(deal.upcard.suit) == deal.legal_actions()
            checked += 1
    assert checked > 400
