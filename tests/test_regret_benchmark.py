"""benchmarks/regret.py: the regret of a bot's cards, and of the cards a shadow bot would play."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path


def _regret():  # type: ignore[no-untyped-def]
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "regret.py"
    spec = importlib.util.spec_from_file_location("benchmark_regret", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_regret_is_never_negative_and_the_shadow_is_asked_at_every_choice() -> None:
    rows = _regret().regrets("heuristic", "random", "test", 1, "random")
    assert rows
    assert all(regret >= 0 and shadow is not None and shadow >= 0 for _, regret, shadow in rows)


def test_a_shadow_that_is_the_bot_itself_has_its_regrets() -> None:
    rows = _regret().regrets("heuristic", "random", "test", 2, "heuristic")
    assert all(regret == shadow for _, regret, shadow in rows)


def test_a_random_shadow_plays_worse_than_the_heuristic() -> None:
    regret = _regret()
    rows = [row for number in (1, 2, 3) for row in regret.regrets("heuristic", "random", "test", number, "random")]
    assert sum(shadow for _, _, shadow in rows) > sum(r for _, r, _ in rows)


def test_without_a_shadow_there_is_none() -> None:
    assert all(shadow is None for _, _, shadow in _regret().regrets("heuristic", "random", "test", 1))
