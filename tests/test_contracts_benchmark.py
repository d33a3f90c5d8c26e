"""benchmarks/contracts.py: the decks of strength.py, split by whether the bidding differed."""

from __future__ import annotations

import pytest

from tests.benchmark_helpers import load_benchmark


@pytest.mark.parametrize("game", ["klaberjass", "klaverjas"])
def test_the_split_adds_up_to_the_strength_figure(game: str) -> None:
    contracts = load_benchmark("contracts")
    split = contracts.split(game, "", ("heuristic", "random"), "test", 8)
    figure = contracts.strength.measure(game, "", ("heuristic", "random"), "test", 8, 999.0, 8)
    assert split.decks == 8
    assert sorted(split.same + split.different) == sorted(figure.values)
    assert split.mean() == pytest.approx(figure.mean)


def test_a_bot_against_itself_reaches_the_same_contract_on_every_deck() -> None:
    contracts = load_benchmark("contracts")
    split = contracts.split("klaverjas", "", ("heuristic", "heuristic"), "test", 8)
    assert split.different == [] and split.same == [0.0] * 8


def test_random_bidding_differs_between_the_seatings() -> None:
    contracts = load_benchmark("contracts")
    split = contracts.split("klaverjas", "", ("heuristic", "random"), "test", 8)
    assert split.different


def test_jobs_give_the_split_of_one_process() -> None:
    contracts = load_benchmark("contracts")
    alone = contracts.split("klaverjas", "", ("heuristic", "random"), "test", 6)
    shared = contracts.split("klaverjas", "", ("heuristic", "random"), "test", 6, jobs=2)
    assert (shared.same, shared.different) == (alone.same, alone.different)


def test_the_contract_is_the_trump_and_who_chose_it() -> None:
    contracts = load_benchmark("contracts")
    results: list[object] = []
    duplicates = contracts.strength.Duplicates("klaverjas", "", ("heuristic", "random"), "test")
    contracts.strength.duplicate(duplicates.game, duplicates.rules, "test", 1, duplicates.first,
                                 duplicates.second, results)
    assert len(results) == 2
    for result in results:
        trump, chooser = contracts.contract(result)
        assert trump in ("C", "D", "H", "S") and chooser in ("NS", "EW")
