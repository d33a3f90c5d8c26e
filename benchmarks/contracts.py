"""Where a pairing's points come from: the bidding or the card play.

    python benchmarks/contracts.py [--games klaverjas] [--pair search,heuristic ...] [--deals 200]
                                   [--seed strength] [--rules-klaberjass ""] [--rules-klaverjas ""]
                                   [--jobs 1]

It plays the duplicate decks of ``strength.py`` (the same decks, dealers and generators, so the
figures are its figures) and splits them by *contract*: the trump and who chose it (the seat in
Klaberjass, the side in Klaverjas). When both seatings of a deck end in the same contract, one
bot chose it in one seating and the other bot in the other. The bidding did not differ, so the
deck's figure is the card play's alone (with, in Klaberjass, the declarations). On the other
decks the bidding differs too. A thrown-in deal's contract has no trump.

For each pairing it prints both groups: how many decks, the mean figure of a deck in the group,
and what the group adds to the mean over all decks. The two shares add up to the mean that
``strength.py`` prints for the same decks. The pairs may name the variants of
``search_variants.py``.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import search_variants  # noqa: E402
import strength  # noqa: E402

from klabsite.bots import BOTS  # noqa: E402
from klabsite.engine.games import get_game  # noqa: E402

Contract = tuple[str, str]
"""The trump and who chose it, as record text (``("None", "None")`` for a thrown-in deal)."""


def contract(result: Any) -> Contract:
    """The contract of a finished deal's result."""
    chooser = result.playing if hasattr(result, "playing") else result.maker
    return str(result.trump), str(chooser)


@dataclass
class Split:
    """A pairing's decks split by whether both seatings ended in the same contract."""

    game: str
    pair: tuple[str, str]
    same: list[float] = field(default_factory=list)
    """The figures of the decks whose two seatings ended in the same contract."""
    different: list[float] = field(default_factory=list)

    def add(self, value: float, contracts: Sequence[Contract]) -> None:
        """One deck: its figure and its two deals' contracts."""
        (self.same if contracts[0] == contracts[1] else self.different).append(value)

    @property
    def decks(self) -> int:
        return len(self.same) + len(self.different)

    def mean(self) -> float:
        """The mean figure over all decks (``strength.py``'s for the same decks)."""
        return (sum(self.same) + sum(self.different)) / max(self.decks, 1)

    def lines(self) -> list[str]:
        a, b = self.pair
        out = [f"{self.game:10} {a} vs {b}: {self.mean():+7.1f} points/deal over {self.decks} "
               "duplicate decks"]
        for label, values in (("same contract", self.same), ("other contracts", self.different)):
            mean = sum(values) / len(values) if values else 0.0
            out.append(f"{'':10} {label:16} {len(values):5} decks, {mean:+7.1f} a deck, "
                       f"{sum(values) / max(self.decks, 1):+7.1f} of the mean")
        return out


_WORKER: strength.Duplicates | None = None


def _start_worker(*arguments: Any) -> None:
    global _WORKER
    _WORKER = strength.Duplicates(*arguments)


def _worker_deck(number: int) -> tuple[float, list[Contract]]:
    assert _WORKER is not None
    return _deck(_WORKER, number)


def _deck(duplicates: strength.Duplicates, number: int) -> tuple[float, list[Contract]]:
    results: list[Any] = []
    value = strength.duplicate(duplicates.game, duplicates.rules, duplicates.seed, number, duplicates.first,
                               duplicates.second, results)
    return value, [contract(result) for result in results]


def split(game_name: str, rules_text: str, pair: tuple[str, str], seed: str, decks: int,
          jobs: int = 1) -> Split:
    """Decks 1 to ``decks`` of ``strength.py``, split by contract."""
    arguments = (game_name, rules_text, pair, seed)
    out = Split(get_game(game_name).name, pair)
    numbers = range(1, decks + 1)
    if jobs > 1:
        with multiprocessing.get_context("fork").Pool(jobs, _start_worker, arguments) as pool:
            for value, contracts in pool.imap(_worker_deck, numbers):
                out.add(value, contracts)
    else:
        duplicates = strength.Duplicates(*arguments)
        for number in numbers:
            out.add(*_deck(duplicates, number))
    return out


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="klaverjas")
    parser.add_argument("--pair", action="append", help="two bot names, e.g. search,heuristic (repeatable)")
    parser.add_argument("--deals", type=int, default=200, help="this many duplicate decks")
    parser.add_argument("--seed", default="strength")
    parser.add_argument("--rules-klaberjass", default="")
    parser.add_argument("--rules-klaverjas", default="")
    parser.add_argument("--jobs", type=int, default=1, help="play the decks in this many processes")
    args = parser.parse_args(argv)
    BOTS.update(search_variants.VARIANTS)
    strength.play = search_variants._play_seen  # search-seeing reads the deck being played
    for game, rules, pair in strength.pairings(parser, args, "search,heuristic"):
        for line in split(game, rules, pair, args.seed, args.deals, args.jobs).lines():
            print(line, flush=True)


if __name__ == "__main__":
    main()
