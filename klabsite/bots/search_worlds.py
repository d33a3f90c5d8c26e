"""Perfect-information Monte Carlo: the mean value of each option over sampled worlds.

A *world* is one layout of the hidden cards, drawn uniformly among those consistent with the
seat's view (:meth:`Knowledge.sampler <klabsite.bots.inference.Knowledge.sampler>`), optionally
weighted by how likely the other players' public choices were in it (a bidding model). Every
option is valued in every world by the caller's ``value`` function (the double-dummy solver);
the options are compared on the same worlds, and the one with the best weighted mean wins.

How many worlds: at least :attr:`Budget.min_worlds`, then more while the solver has played
fewer than :attr:`Budget.nodes` cards for this decision, at most :attr:`Budget.worlds`. The
solver's node count is exact and machine-independent, so the choice depends only on the view,
the legal actions and the generator, never on the clock.

>>> import random
>>> budget = Budget(worlds=8, min_worlds=8, nodes=0)
>>> tally = Tally(["a", "b"])
>>> for world in range(budget.worlds):
...     tally.add({"a": world % 2, "b": 0.25})
>>> tally.best(), tally.means()
('a', {'a': 0.5, 'b': 0.25})
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from math import sqrt
from typing import Generic, TypeVar

from klabsite.solver.tables import suit_classes

__all__ = ["Budget", "Tally", "card_classes", "confident_best"]

T = TypeVar("T", bound=Hashable)


@dataclass(frozen=True)
class Budget:
    """How much search one decision gets: worlds and solver nodes (cards played by the searches)."""

    worlds: int = 24
    """The most worlds sampled."""
    min_worlds: int = 8
    """The fewest worlds sampled, whatever they cost."""
    nodes: int = 2_000_000
    """No new world once the searches of this decision have played this many cards."""

    def more(self, worlds: int, nodes: int) -> bool:
        """Whether to sample another world after ``worlds`` costing ``nodes``."""
        if worlds < self.min_worlds:
            return True
        return worlds < self.worlds and nodes < self.nodes


class Tally(Generic[T]):
    """Weighted sums of each option's value over the worlds seen."""

    def __init__(self, options: Sequence[T]) -> None:
        self.options = list(options)
        self.sums: dict[T, float] = dict.fromkeys(self.options, 0.0)
        self.weight = 0.0
        self.worlds = 0

    def add(self, values: dict[T, float], weight: float = 1.0) -> None:
        """One world's value of every option."""
        for option in self.options:
            self.sums[option] += weight * values[option]
        self.weight += weight
        self.worlds += 1

    def means(self) -> dict[T, float]:
        """Each option's weighted mean value (0 before any world)."""
        if not self.weight:
            return dict.fromkeys(self.options, 0.0)
        return {option: total / self.weight for option, total in self.sums.items()}

    def best(self, prefer: Callable[[], T | None] | None = None, within: float = 0.0) -> T:
        """The option with the best mean (the first listed among equals); with ``prefer``, the
        option it gives when that option's mean is within ``within`` of the best (``prefer`` is
        called only when several options are that close)."""
        means = self.means()
        best = max(self.options, key=lambda option: means[option])
        if prefer is not None:
            close = [option for option in self.options if means[option] >= means[best] - within]
            if len(close) > 1:
                preferred = prefer()
                if preferred in close:
                    return preferred
        return best


def card_classes(hand: int, others: int, trump: int, roem: bool) -> list[int]:
    """The seat's cards in classes of interchangeable cards (masks), the same in every world: two
    cards are interchangeable when no card still in play elsewhere (``others``: the unseen cards
    and the trick's) lies between them and they score alike (:func:`klabsite.solver.tables.suit_classes`)."""
    classes = []
    for suit in range(4):
        shift = 8 * suit
        for cards in suit_classes(hand >> shift & 0xFF, others >> shift & 0xFF, suit == trump, roem):
            classes.append(cards << shift)
    return classes


def confident_best(options: Mapping[T, Sequence[float]], default: T, confidence: float) -> T:
    """The option with the best mean of its values (one per world, the same worlds for every
    option) if it beats ``default`` by more than ``confidence`` standard errors of the difference
    world by world; else ``default`` (the best mean when ``default`` is not an option).

    >>> confident_best({"a": [1, 2, 3], "b": [3, 4, 5]}, "a", 2.0)       # b always better by 2
    'b'
    >>> confident_best({"a": [1, 2, 3], "b": [9, 0, 0]}, "a", 1.0)       # better on average, noisy
    'a'
    """
    def mean(values: Sequence[float]) -> float:
        return sum(values) / len(values) if values else 0.0
    best = max(options, key=lambda option: mean(options[option]))
    if default not in options:
        return best
    if best == default:
        return default
    diffs = [b - d for b, d in zip(options[best], options[default], strict=True)]
    n = len(diffs)
    if n < 2:
        return best if mean(diffs) > 0 else default
    m = mean(diffs)
    variance = sum((x - m) ** 2 for x in diffs) / (n - 1)
    return best if m > confidence * sqrt(variance / n) else default
