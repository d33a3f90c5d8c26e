"""The solver's values hold along played lines of seeded deals.

In a two-sided game the value of a position is what the side to act can guarantee and what the
other side can hold it to. So, measured for one side:

- when both sides play the solver's best choices (cards, bella, declarations), the value is the
  same at every step and equals the score the engine awards at the end;
- when that side plays best and the other plays at random, it scores at least the value;
- when it plays at random against best play, it scores at most the value.
"""

from __future__ import annotations

import random

import pytest

from klabsite.actions import Action
from klabsite.options import KlaberjassRules, KlaverjasRules
from klabsite.solver import Solver
from tests.solver_helpers import (
    AnyDeal,
    copy_deal,
    final_value,
    klaberjass_deal,
    klaverjas_deal,
    other_key,
    play_until,
    side_of,
)


def _value_for(deal: AnyDeal, solver: Solver, key: str) -> int:
    """The solver's value of ``deal`` for the side ``key``."""
    assert deal.to_act is not None
    value = solver.solve(deal)
    return value if side_of(deal, deal.to_act) == key else -value


def _best_action(deal: AnyDeal, solver: Solver) -> Action:
    """An action of highest value for the side to act (the solver's value after each action)."""
    assert deal.to_act is not None
    key = side_of(deal, deal.to_act)
    legal = deal.legal_actions()
    values = {str(card): value for card, value in solver.card_values(deal).items()}
    best, best_value = legal[0], None
    for action in legal:
        if action.card is not None and len(legal) > 1 and values[str(action.card)] < max(values.values()):
            continue  # a card the solver already knows is worse
        child = copy_deal(deal)
        child.apply(action)
        value = final_value(child, key) if child.is_over else _value_for(child, solver, key)
        if best_value is None or value > best_value:
            best, best_value = action, value
    return best


def _play(deal: AnyDeal, key: str, best_sides: set[str], rng: random.Random) -> tuple[int, list[int]]:
    """Play ``deal`` to its end, sides in ``best_sides`` playing best and the others at random;
    return the final value for ``key`` and the solver's value for ``key`` before each action."""
    solver = Solver()
    values = []
    while not deal.is_over:
        assert deal.to_act is not None
        values.append(_value_for(deal, solver, key))
        if side_of(deal, deal.to_act) in best_sides:
            action = _best_action(deal, solver)
        else:
            action = rng.choice(deal.legal_actions())
        deal.apply(action)
    return final_value(deal, key), values


KLABERJASS_RULES = [
    KlaberjassRules(schmeiss="off"),
    KlaberjassRules(schmeiss="off", no_trick_melds="void", must_beat="any-lead", long_sequence=100),
]
KLAVERJAS_RULES = [KlaverjasRules(), KlaverjasRules(trick_rules="rotterdam", undertrump="forbidden")]


def _deals(rng: random.Random, count: int):
    for number in range(count):
        rules = KLABERJASS_RULES[number % 2]
        yield klaberjass_deal(rules, rng)
        deal = klaverjas_deal(KLAVERJAS_RULES[number % 2], rng)
        yield play_until(deal, rng, cards=4, mid_trick=False)


@pytest.mark.parametrize("game", ["klaberjass", "klaverjas"])
def test_best_play_by_both_sides_keeps_the_value_and_scores_it(game: str) -> None:
    rng = random.Random(f"best lines {game}")
    for deal in list(_deals(rng, 4))[game == "klaverjas"::2]:
        assert deal.to_act is not None
        key = side_of(deal, deal.to_act)
        final, values = _play(deal, key, {key, other_key(deal, key)}, rng)
        assert set(values) == {final}, values


@pytest.mark.parametrize("game", ["klaberjass", "klaverjas"])
def test_best_play_scores_at_least_the_value_and_random_play_at_most(game: str) -> None:
    rng = random.Random(f"random opponents {game}")
    for deal in list(_deals(rng, 6))[game == "klaverjas"::2]:
        assert deal.to_act is not None
        key = side_of(deal, deal.to_act)
        start = _value_for(deal, Solver(), key)
        guaranteed, _ = _play(copy_deal(deal), key, {key}, rng)
        held, _ = _play(copy_deal(deal), key, {other_key(deal, key)}, rng)
        assert held <= start <= guaranteed

