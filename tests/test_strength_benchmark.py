"""benchmarks/strength.py: the same decks give the same figures in one process or several."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest


def _strength():  # type: ignore[no-untyped-def]
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "strength.py"
    spec = importlib.util.spec_from_file_location("benchmark_strength", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses and its workers' functions are found by name
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("game", ["klaberjass", "klaverjas"])
def test_jobs_give_the_figures_of_one_process(game: str) -> None:
    strength = _strength()
    alone = strength.measure(game, "", ("heuristic", "random"), "test", 6, 99.0, 6)
    shared = strength.measure(game, "", ("heuristic", "random"), "test", 6, 99.0, 6, jobs=2)
    assert len(alone.values) == 6
    assert shared.values == alone.values
    assert shared.clock.moves == alone.clock.moves


def test_the_stopping_rule_is_that_of_one_process() -> None:
    strength = _strength()
    alone = strength.measure("klaberjass", "", ("heuristic", "random"), "test", 50, 1000.0, 120)
    shared = strength.measure("klaberjass", "", ("heuristic", "random"), "test", 50, 1000.0, 120, jobs=2)
    assert len(alone.values) == len(shared.values) == 50  # a standard error under 1000 stops at 50
    assert shared.values == alone.values
