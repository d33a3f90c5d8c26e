"""The solver's positions agree with the engine at every card play of seeded deals: the legal
cards (against ``legal_actions()``), and a position played on with ``play()`` equals the
position built from the engine deal after the same card (hands, trick, points, tricks, roem,
declarations still open, bella still to decide)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from klabsite.engine.actions import ActionKind
from klabsite.engine.cards import mask_of
from klabsite.engine.options import KlaberjassRules, KlaverjasRules
from klabsite.solver.deals import PLAYERS, NotInPlay, klaberjass_position, klaverjas_position
from tests.solver_helpers import klaberjass_deal, klaverjas_deal


@pytest.mark.parametrize("must_beat", ["trump-lead", "any-lead"])
def test_klaberjass_positions_follow_the_engine(must_beat: str) -> None:
    rng = random.Random(f"positions {must_beat}")
    steps = 0
    for _ in range(40):
        deal = klaberjass_deal(KlaberjassRules(schmeiss="off", must_beat=must_beat), rng)
        while not deal.is_over:
            position = klaberjass_position(deal)
            legal = deal.legal_actions()
            plays = mask_of(action.card for action in legal if action.kind is ActionKind.PLAY)
            if plays:
                assert position.legal() == plays
            action = rng.choice(legal)
            deal.apply(action)
            if action.kind is ActionKind.PLAY and not deal.is_over:
                after = position.play(action.card.index)
                expected = klaberjass_position(deal)
                if action.bella is False or position.bella_holder != expected.bella_holder:
                    after = after.settle_bella(action.bella)  # the bella choice was made with the card
                # the position keeps the choices open that the engine has since made
                assert dataclasses.replace(after, melds=expected.melds) == expected
                steps += 1
            elif action.kind is ActionKind.PLAY:  # the last card: the position's score is the engine's
                final = position.play(action.card.index)
                if final.bella_holder is not None:
                    final = final.settle_bella(action.bella)
                best = deal.comparison.best
                outcome = (None, 0) if best is None else (PLAYERS.index(best), deal.comparison.points)
                final = dataclasses.replace(final, melds=((outcome,),))
                score = deal.result.score
                maker = str(PLAYERS[final.maker])
                assert final.final_value() == score[maker] - score["S" if maker == "N" else "N"]
    assert steps > 500


def test_klaverjas_positions_follow_the_engine() -> None:
    rng = random.Random("positions klaverjas")
    steps = 0
    for number in range(40):
        rules = KlaverjasRules(trick_rules=("amsterdam", "rotterdam")[number % 2],
                               undertrump=("required", "forbidden")[number // 2 % 2])
        deal = klaverjas_deal(rules, rng)
        while not deal.is_over:
            position = klaverjas_position(deal)
            legal = deal.legal_actions()
            assert position.legal() == mask_of(action.card for action in legal)
            action = rng.choice(legal)
            deal.apply(action)
            if not deal.is_over:
                assert position.play(action.card.index) == klaverjas_position(deal)
                steps += 1
            else:
                final = position.play(action.card.index)
                score = deal.result.score
                key = ("NS", "EW")[final.playing]
                assert final.final_value() == score[key] - score[("NS", "EW")[1 - final.playing]]
    assert steps > 1000


def test_a_deal_not_in_its_card_play_is_refused() -> None:
    rng = random.Random("not in play")
    deal = klaverjas_deal(KlaverjasRules(), rng)
    while not deal.is_over:
        deal.apply(rng.choice(deal.legal_actions()))
    with pytest.raises(NotInPlay, match="card play"):
        klaverjas_position(deal)
