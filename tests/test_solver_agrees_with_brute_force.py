"""The solver's values equal an exhaustive minimax over the engine's own legal actions, on seeded
small endgames of both games, in every rule variant that affects the card play or the score.

Every legal card's value (:func:`card_values`, a bella card the better of claiming and not) and
the position's value (:func:`solve`, the best of them) are compared with an exhaustive minimax
(``tests.solver_helpers.brute_force``) that knows nothing of the solver: it tries every action
``legal_actions()`` offers (``nobella`` included) and reads the score from the engine's result.
Both search cores are checked: C (when built) and Python.
"""

from __future__ import annotations

import itertools
import random

import pytest

from klabsite.engine.options import KlaberjassRules, KlaverjasRules
from klabsite.solver import Solver, takes_every_trick
from klabsite.solver.deals import klaverjas_position
from tests.solver_helpers import both_cores, brute_force_cards, copy_deal, endgame


def _klaberjass_variants() -> list[KlaberjassRules]:
    """Every value of every Klaberjass option that affects play or score, each pair of them
    together: the must-beat × no-trick-melds product, the other options varied across it."""
    variants = []
    for (must_beat, no_trick_melds), (long_sequence, equal_meld, equal_score) in itertools.product(
        itertools.product(("trump-lead", "any-lead"), ("score", "void")),
        [(50, "neither", "maker-scores-nothing"), (100, "elder", "next-deal-winner")],
    ):
        variants.append(KlaberjassRules(must_beat=must_beat, no_trick_melds=no_trick_melds, schmeiss="off",
                                        long_sequence=long_sequence, equal_meld=equal_meld,
                                        equal_score=equal_score))
    return variants


KLABERJASS_VARIANTS = _klaberjass_variants()
KLAVERJAS_VARIANTS = [
    KlaverjasRules(trick_rules=tricks, undertrump=undertrump)
    for tricks, undertrump in itertools.product(("amsterdam", "rotterdam"), ("required", "forbidden"))
]


def _check(deal, solvers: list[Solver]) -> None:
    expected_cards = brute_force_cards(deal)  # every legal action here plays a card
    for solver in solvers:
        assert solver.solve(deal) == max(expected_cards.values()), (deal, solver.native)
        values = {str(card): value for card, value in solver.card_values(deal).items()}
        assert values == expected_cards, (deal, solver.native)


@pytest.mark.parametrize("rules", KLABERJASS_VARIANTS, ids=lambda rules: rules.format())
def test_klaberjass_endgames_match_brute_force(rules: KlaberjassRules) -> None:
    rng = random.Random(f"klaberjass brute force {rules.format()}")
    solvers = both_cores()
    for number in range(20):
        bias = ("random", "bella", "hang", "hang-bella")[number % 4]
        if bias.startswith("hang") and rules.no_trick_melds != "void":
            bias = "bella"
        _check(endgame(rules, rng, cards=4 if number % 3 == 0 else 3, bias=bias), solvers)


@pytest.mark.parametrize("rules", KLAVERJAS_VARIANTS, ids=lambda rules: rules.format() or "defaults")
def test_klaverjas_endgames_match_brute_force(rules: KlaverjasRules) -> None:
    rng = random.Random(f"klaverjas brute force {rules.format()}")
    solvers = both_cores()
    for number in range(16):
        bias = ("random", "pit")[number % 2]
        _check(endgame(rules, rng, cards=3 if number % 4 else 2, bias=bias), solvers)


def _every_trick_by_brute_force(deal) -> bool:
    """Whether the playing side wins a pit against every defence: every legal action tried, the
    pit read from the engine's result."""
    if deal.is_over:
        return deal.result.to_json()["pit"]
    outcomes = []
    for action in deal.legal_actions():
        child = copy_deal(deal)
        child.apply(action)
        outcomes.append(_every_trick_by_brute_force(child))
    return any(outcomes) if deal.to_act.side is deal.playing else all(outcomes)


@pytest.mark.parametrize("rules", KLAVERJAS_VARIANTS, ids=lambda rules: rules.format() or "defaults")
def test_a_pit_in_reach_matches_brute_force(rules: KlaverjasRules) -> None:
    rng = random.Random(f"klaverjas pit in reach {rules.format()}")
    found = []
    for number in range(24):
        deal = endgame(rules, rng, cards=3 if number % 2 else 2, bias="pit")
        found.append(_every_trick_by_brute_force(deal))
        assert takes_every_trick(klaverjas_position(deal)) is found[-1], deal
    assert True in found and False in found   # both answers are put to the test
