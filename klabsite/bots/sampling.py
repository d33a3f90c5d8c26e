"""Sampling hidden cards: exactly uniform over every layout that satisfies the constraints.

The unseen cards are to be laid out over *places* (the other players' hands, and in Klaberjass
the stock), each of a known size. Every card may go only to the places whose ``possible`` mask
holds it (a card known to be in one hand is possible only there). A *claim* says that one
place holds at least one of some candidate sets of cards (Klaberjass: the sequence a player
announced). :class:`Sampler` counts the layouts exactly and draws them uniformly:

- cards are grouped by the set of places they may go to; a dynamic programme over the groups
  counts, for every way of filling the remaining places, how many layouts there are (exact
  integers), and a sample walks the groups, choosing how many cards of each group go to each
  place in proportion to those counts, then which cards by a seeded shuffle;
- with claims, a candidate (one per claim) is chosen in proportion to the number of layouts in
  which its place holds it, a layout is drawn with the candidate forced, and it is kept with
  probability 1 / (how many candidates it holds): the result is uniform over the union.

It never fails on constraints that some layout satisfies (``count`` > 0), and raises
:class:`InconsistentConstraints` otherwise. Everything random comes from the generator given.

>>> import random
>>> from klabsite.engine.cards import cards_of, mask_of, parse_cards
>>> sampler = Sampler(("E", "W"), (2, 1), (mask_of(parse_cards("AH KH QH")), mask_of(parse_cards("KH QH"))))
>>> sampler.count                                 # AH must go east; KH or QH joins it
2
>>> east, west = sampler.sample(random.Random(1))
>>> len(cards_of(east)), len(cards_of(west)), parse_cards("AH")[0] in cards_of(east)
(2, 1, True)
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterator, Sequence
from itertools import product
from math import factorial
from typing import TypeVar

from klabsite.bots.tactics import bits

__all__ = ["Sampler", "InconsistentConstraints", "Claim"]

Claim = tuple[int, tuple[int, ...]]
"""``(place index, candidate masks)``: that place holds every card of at least one candidate."""

T = TypeVar("T")
_FACTORIAL = tuple(factorial(n) for n in range(33))


class InconsistentConstraints(ValueError):
    """No layout of the unseen cards satisfies the constraints (the view is contradictory)."""


def _splits(k: int, caps: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Every way to write ``k`` as a sum of ``len(caps)`` parts, part ``i`` at most ``caps[i]``."""
    if len(caps) == 1:
        if k <= caps[0]:
            yield (k,)
        return
    rest = sum(caps[1:])
    for first in range(max(0, k - rest), min(k, caps[0]) + 1):
        for tail in _splits(k - first, caps[1:]):
            yield (first, *tail)


class _Layouts:
    """Exact counting and uniform drawing of layouts without claims."""

    def __init__(self, sizes: Sequence[int], possible: Sequence[int]) -> None:
        unseen = 0
        for mask in possible:
            unseen |= mask
        by_places: dict[int, list[int]] = {}
        for card in bits(unseen):
            signature = sum(1 << place for place, mask in enumerate(possible) if mask >> card & 1)
            by_places.setdefault(signature, []).append(card)
        # single-place groups first, the widest last (its split is then forced)
        order = sorted(by_places, key=lambda signature: (signature.bit_count(), signature))
        self.groups = [(tuple(p for p in range(len(sizes)) if s >> p & 1), by_places[s]) for s in order]
        self.sizes = tuple(sizes)
        self._memo: dict[tuple[int, tuple[int, ...]], int] = {}
        self._choices: dict[tuple[int, tuple[int, ...]], list[tuple[int, tuple[int, ...]]]] = {}
        self.count = self._ways(0, self.sizes) if unseen.bit_count() == sum(sizes) else 0

    def _options(self, index: int, caps: tuple[int, ...]) -> list[tuple[int, tuple[int, ...]]]:
        """(weight, split) for group ``index`` given the room ``caps`` left in each place."""
        key = (index, caps)
        cached = self._choices.get(key)
        if cached is not None:
            return cached
        places, cards = self.groups[index]
        k = len(cards)
        options = []
        for split in _splits(k, [caps[p] for p in places]):
            after = list(caps)
            ways = _FACTORIAL[k]
            for place, n in zip(places, split, strict=True):
                after[place] -= n
                ways //= _FACTORIAL[n]
            ways *= self._ways(index + 1, tuple(after))
            if ways:
                options.append((ways, split))
        self._choices[key] = options
        return options

    def _ways(self, index: int, caps: tuple[int, ...]) -> int:
        if index == len(self.groups):
            return 0 if any(caps) else 1
        key = (index, caps)
        cached = self._memo.get(key)
        if cached is None:
            cached = self._memo[key] = sum(weight for weight, _ in self._options(index, caps))
        return cached

    def draw(self, rng: random.Random) -> list[int]:
        """One layout, uniformly: a mask per place."""
        hands = [0] * len(self.sizes)
        caps = self.sizes
        for index, (places, cards) in enumerate(self.groups):
            split = _weighted(self._options(index, caps), rng.randrange(self._ways(index, caps)))
            shuffled = list(cards)
            rng.shuffle(shuffled)
            start = 0
            after = list(caps)
            for place, n in zip(places, split, strict=True):
                for card in shuffled[start:start + n]:
                    hands[place] |= 1 << card
                start += n
                after[place] -= n
            caps = tuple(after)
        return hands


class Sampler:
    """Uniform layouts of the unseen cards over ``places`` (any hashable labels).

    ``sizes[i]`` is how many unseen cards place ``i`` holds, ``possible[i]`` the mask of cards
    it may hold; every unseen card is in some ``possible`` mask. ``claims`` are
    ``(place index, candidates)``: the place holds every card of at least one candidate mask.
    """

    def __init__(self, places: Sequence[Hashable], sizes: Sequence[int], possible: Sequence[int],
                 claims: Sequence[Claim] = ()) -> None:
        if not len(places) == len(sizes) == len(possible):
            raise ValueError("places, sizes and possible masks must have the same length")
        self.places = tuple(places)
        self.sizes = tuple(sizes)
        self.possible = tuple(possible)
        self.claims = tuple((place, tuple(c for c in candidates if c & ~possible[place] == 0))
                            for place, candidates in claims)
        self.combos: list[tuple[int, tuple[int, ...], _Layouts]] = []
        """(weight, one candidate per claim, the layouts holding them), for the non-empty ones."""
        for combo in product(*(candidates for _, candidates in self.claims)):
            layouts = self._forcing(combo)
            if layouts is not None and layouts.count:
                self.combos.append((layouts.count, combo, layouts))
        self._total = sum(weight for weight, _, _ in self.combos)
        if not self._total:
            raise InconsistentConstraints(
                "no layout of the unseen cards fits every constraint: "
                + ", ".join(f"{place} {size} of {mask.bit_count()}"
                            for place, size, mask in zip(self.places, self.sizes, self.possible, strict=True))
            )

    def _forcing(self, combo: Sequence[int], extra: Sequence[tuple[int, int]] = ()) -> _Layouts | None:
        """The layouts in which each claim's place holds the chosen candidate (``None``: none)."""
        possible = list(self.possible)
        forced = [0] * len(possible)
        for (place, _), cards in zip(self.claims, combo, strict=True):
            forced[place] |= cards
        for place, cards in extra:
            forced[place] |= cards
        seen = 0
        for place, cards in enumerate(forced):
            if cards & seen or cards & ~self.possible[place]:
                return None  # a card forced into two places, or into one it cannot be in
            seen |= cards
            for other in range(len(possible)):
                if other != place:
                    possible[other] &= ~cards
        return _Layouts(self.sizes, possible)

    @property
    def count(self) -> int:
        """The number of layouts that satisfy every constraint: exact (with claims by
        inclusion–exclusion over their candidates, so only for a few candidates)."""
        if not self.claims:
            return self._total
        if sum(len(candidates) for _, candidates in self.claims) > 12:
            raise ValueError("count with claims is exact by inclusion–exclusion: at most 12 candidates")
        total = 0
        choices = [[subset for subset in _subsets(len(candidates)) if subset]
                   for _, candidates in self.claims]
        for pick in product(*choices):
            extra = [(place, _union(candidates, subset))
                     for (place, candidates), subset in zip(self.claims, pick, strict=True)]
            layouts = self._forcing([0] * len(self.claims), extra)
            sign = -1 if sum(len(subset) - 1 for subset in pick) % 2 else 1
            total += sign * (layouts.count if layouts is not None else 0)
        return total

    def sample(self, rng: random.Random) -> tuple[int, ...]:
        """One layout, uniformly among those satisfying every constraint: a mask per place."""
        while True:
            layouts = _weighted([(weight, layouts) for weight, _, layouts in self.combos],
                                rng.randrange(self._total))
            hands = layouts.draw(rng)
            held = 1
            for place, candidates in self.claims:
                held *= sum(1 for cards in candidates if cards & ~hands[place] == 0)
            if held == 1 or rng.randrange(held) == 0:
                return tuple(hands)


def _weighted(options: Sequence[tuple[int, T]], pick: int) -> T:
    """The option that ``pick`` (0 ≤ pick < total weight) falls on."""
    for weight, option in options:
        if pick < weight:
            return option
        pick -= weight
    raise AssertionError("pick beyond the total weight")


def _subsets(n: int) -> list[tuple[int, ...]]:
    return [tuple(i for i in range(n) if bits >> i & 1) for bits in range(1 << n)]


def _union(candidates: Sequence[int], subset: Sequence[int]) -> int:
    mask = 0
    for i in subset:
        mask |= candidates[i]
    return mask
