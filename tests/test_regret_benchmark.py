"""benchmarks/regret.py: the regret of a bot's cards, and of the cards a shadow bot would play."""

from __future__ import annotations

from tests.benchmark_helpers import load_benchmark


def test_regret_is_never_negative_and_the_shadow_is_asked_at_every_choice() -> None:
    rows = load_benchmark("regret").regrets("heuristic", "random", "test", 1, "random")
    assert rows
    assert all(regret >= 0 and shadow is not None and shadow >= 0 for _, regret, shadow in rows)


def test_a_shadow_that_is_the_bot_itself_has_its_regrets() -> None:
    rows = load_benchmark("regret").regrets("heuristic", "random", "test", 2, "heuristic")
    assert all(regret == shadow for _, regret, shadow in rows)


def test_a_random_shadow_plays_worse_than_the_heuristic() -> None:
    regret = load_benchmark("regret")
    rows = [row for number in (1, 2, 3) for row in regret.regrets("heuristic", "random", "test", number, "random")]
    assert sum(shadow for _, _, shadow in rows) > sum(r for _, r, _ in rows)


def test_without_a_shadow_there_is_none() -> None:
    assert all(shadow is None for _, _, shadow in load_benchmark("regret").regrets("heuristic", "random", "test", 1))
