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

from klabsite.engine.actions import Action
from klabsite.engine.options import KlaberjassRules, KlaverjasRules
from klabsite.solver import Solver, native
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


def _play(deal: AnyDeal, key: str, best_sides: set[str], rng: random.Random, solver: Solver) -> tuple[
    int, list[int]
]:
    """Play ``deal`` to its end, sides in ``best_sides`` playing best and the others at random;
    return the final value for ``key`` and the solver's value for ``key`` before each action."""
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
CORES = ["python", "c"] if native.AVAILABLE else ["python"]


def _deals(game: str, core: str, rng: random.Random, count: int) -> list[AnyDeal]:
    """Seeded deals at their first card play; Klaverjas on the Python core from four cards each."""
    deals: list[AnyDeal] = []
    for number in range(count):
        if game == "klaberjass":
            deals.append(klaberjass_deal(KLABERJASS_RULES[number % 2], rng))
        else:
            deal = klaverjas_deal(KLAVERJAS_RULES[number % 2], rng)
            deals.append(deal if core == "c" else play_until(deal, rng, cards=4, mid_trick=False))
    return deals


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize("game", ["klaberjass", "klaverjas"])
def test_best_play_by_both_sides_keeps_the_value_and_scores_it(game: str, core: str) -> None:
    rng = random.Random(f"best lines {game} {core}")
    for deal in _deals(game, core, rng, 2):
        assert deal.to_act is not None
        key = side_of(deal, deal.to_act)
        final, values = _play(deal, key, {key, other_key(deal, key)}, rng, Solver(native=core == "c"))
        assert set(values) == {final}, values


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize("game", ["klaberjass", "klaverjas"])
def test_best_play_scores_at_least_the_value_and_random_play_at_most(game: str, core: str) -> None:
    rng = random.Random(f"random opponents {game} {core}")
    for deal in _deals(game, core, rng, 3):
        assert deal.to_act is not None
        key = side_of(deal, deal.to_act)
        solver = Solver(native=core == "c")
        start = _value_for(deal, solver, key)
        guaranteed, _ = _play(copy_deal(deal), key, {key}, rng, solver)
        held, _ = _play(copy_deal(deal), key, {other_key(deal, key)}, rng, solver)
        assert held <= start <= guaranteed
