"""benchmarks/strength.py: the same decks give the same figures in one process or several."""

from __future__ import annotations

import pytest

from tests.benchmark_helpers import load_benchmark


@pytest.mark.parametrize("game", ["klaberjass", "klaverjas"])
def test_jobs_give_the_figures_of_one_process(game: str) -> None:
    strength = load_benchmark("strength")
    alone = strength.measure(game, "", ("heuristic", "random"), "test", 6, 99.0, 6)
    shared = strength.measure(game, "", ("heuristic", "random"), "test", 6, 99.0, 6, jobs=2)
    assert len(alone.values) == 6
    assert shared.values == alone.values
    assert shared.clock.moves == alone.clock.moves


def test_the_stopping_rule_is_that_of_one_process() -> None:
    strength = load_benchmark("strength")
    alone = strength.measure("klaberjass", "", ("heuristic", "random"), "test", 50, 1000.0, 120)
    shared = strength.measure("klaberjass", "", ("heuristic", "random"), "test", 50, 1000.0, 120, jobs=2)
    assert len(alone.values) == len(shared.values) == 50  # a standard error under 1000 stops at 50
    assert shared.values == alone.values
