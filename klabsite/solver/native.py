"""The search cores in C (``klabsite.solver._search``), when built, with the tables they need.

The C cores search exactly like the Python ones (:mod:`klabsite.solver.klaberjass_search`,
:mod:`klabsite.solver.klaverjas_search`): same bounds, move order and node counts, tested to
agree. Every rule table they use is built here from the engine's tables, so the rules stay in
Python. The extension is optional (``setup.py``): :data:`AVAILABLE` says whether it was built
(and not switched off with the environment variable ``KLABSITE_SOLVER_PURE_PYTHON=1``, which
runs everything as on a machine without a compiler), and :func:`klaberjass_search` /
:func:`klaverjas_search` give the C core when it is (unless ``native=False``) and the Python
core otherwise.

>>> search = klaberjass_search(trump=2, any_lead=False)
>>> from klabsite.engine.cards import mask_of, parse_cards
>>> hands = (mask_of(parse_cards("JH 7C")), mask_of(parse_cards("9H AC")))
>>> search.value(hands, leader=0, led=-1)
33
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import cache
from typing import Any, Protocol

from klabsite.engine.fast.klaberjass import BEATS
from klabsite.engine.fast.klaverjas import ABOVE, FOUR_ROEM, STUK
from klabsite.engine.fast.tables import POINTS, STRENGTH
from klabsite.engine.roem import PIT_BONUS, RUN_ROEM, STUK_ROEM
from klabsite.engine.tricks import LAST_TRICK_BONUS
from klabsite.solver import klaberjass_search as python_klaberjass
from klabsite.solver import klaverjas_search as python_klaverjas
from klabsite.solver.search import DealCards
from klabsite.solver.tables import RUN_BOUND, STRONGEST_FIRST, inert_ranks, suit_order, suit_points

_search: Any
try:
    if os.environ.get("KLABSITE_SOLVER_PURE_PYTHON") == "1":
        raise ImportError("KLABSITE_SOLVER_PURE_PYTHON=1")
    from klabsite.solver import _search  # type: ignore[attr-defined,no-redef]
except ImportError:  # built without a C compiler: the Python cores serve
    _search = None

__all__ = ["AVAILABLE", "klaberjass_search", "klaverjas_search", "KlaberjassCore", "KlaverjasCore"]

AVAILABLE = _search is not None
"""Whether the C extension was built."""


class KlaberjassCore(Protocol):
    """What :mod:`klabsite.solver.klaberjass` asks of a Klaberjass search core."""

    @property
    def nodes(self) -> int: ...

    def search(self, hands: tuple[int, int], leader: int, led: int, alpha: int, beta: int, capot: int = -1,
               sign: int = 1) -> int: ...

    def value(self, hands: tuple[int, int], leader: int, led: int, capot: int = -1, sign: int = 1) -> int: ...


class KlaverjasCore(Protocol):
    """What :mod:`klabsite.solver.klaverjas` asks of a Klaverjas search core."""

    @property
    def nodes(self) -> int: ...

    def search(self, hands: Sequence[int], leader: int, trick: Sequence[int], pit: bool, roem_limit: int,
               alpha: int, beta: int) -> int: ...


@cache
def _tables(trump: int, roem: bool) -> dict[str, Sequence[int]]:
    """The rule tables of one trump for the C cores (``roem``: Klaverjas)."""
    rank = [0] * 32
    for position, card in enumerate(STRONGEST_FIRST[trump]):
        rank[card] = position
    return {
        "points": POINTS[trump],
        "strength": STRENGTH[trump],
        "beats": BEATS[trump],
        "rank": tuple(rank),
        "above": ABOVE[trump],
        "run_roem": RUN_ROEM,
        "run_bound": RUN_BOUND,
        "four_roem": FOUR_ROEM if roem else (0,) * 8,
        "stuk": (STUK[trump] if roem else 0,),
        "stuk_roem": (STUK_ROEM,),
        "inert": tuple(inert_ranks(others) for others in range(256)) if roem else (0xFF,) * 256,
        "plain_order": suit_order(False),
        "trump_order": suit_order(True),
        "plain_points": suit_points(False),
        "trump_points": suit_points(True),
    }


class _Native:
    """A C core behind the Python cores' interface (the deal check and ``value`` in Python)."""

    def __init__(self, core: Any, seats: int) -> None:
        self._core = core
        self._cards = DealCards(seats)

    @property
    def nodes(self) -> int:
        """Cards played by all searches so far."""
        return int(self._core.nodes)

    @property
    def size(self) -> int:
        """Positions in the transposition table."""
        return int(self._core.size)

    def _check(self, held: list[int]) -> None:
        if not self._cards.same_deal(held):
            self._core.clear()


class _NativeKlaberjass(_Native):
    def search(self, hands: tuple[int, int], leader: int, led: int, alpha: int, beta: int, capot: int = -1,
               sign: int = 1) -> int:
        held = list(hands)
        if led >= 0:
            held[leader] |= 1 << led
        self._check(held)
        return int(self._core.search(hands, leader, led, alpha, beta, capot, sign))

    value = python_klaberjass.KlaberjassSearch.value


class _NativeKlaverjas(_Native):
    def search(self, hands: Sequence[int], leader: int, trick: Sequence[int], pit: bool, roem_limit: int,
               alpha: int, beta: int) -> int:
        held = list(hands)
        for i, card in enumerate(trick):
            held[(leader + i) & 3] |= 1 << card
        self._check(held)
        return int(self._core.search(tuple(hands), leader, tuple(trick), pit, roem_limit, alpha, beta))

    value = python_klaverjas.KlaverjasSearch.value


def klaberjass_search(trump: int, any_lead: bool, native: bool | None = None) -> KlaberjassCore:
    """A Klaberjass search core: C when built (and ``native`` is not ``False``), else Python."""
    if native is False or _search is None:
        if native:
            raise RuntimeError("the C search core is not built (klabsite.solver._search)")
        return python_klaberjass.KlaberjassSearch(trump, any_lead)
    constants = (python_klaberjass.INFINITY, LAST_TRICK_BONUS, 0, python_klaberjass.BIG)
    core = _search.KlaberjassCore(trump, (int(any_lead), 0, 0, 0), constants, _tables(trump, roem=False))
    return _NativeKlaberjass(core, 2)


def klaverjas_search(trump: int, playing: int, rotterdam: bool, undertrump: bool,
                     native: bool | None = None) -> KlaverjasCore:
    """A Klaverjas search core: C when built (and ``native`` is not ``False``), else Python."""
    if native is False or _search is None:
        if native:
            raise RuntimeError("the C search core is not built (klabsite.solver._search)")
        return python_klaverjas.KlaverjasSearch(trump, playing, rotterdam, undertrump)
    constants = (python_klaverjas.INFINITY, LAST_TRICK_BONUS, PIT_BONUS, python_klaverjas.BIG)
    core = _search.KlaverjasCore(trump, (0, playing, int(rotterdam), int(undertrump)), constants,
                                 _tables(trump, roem=True))
    return _NativeKlaverjas(core, 4)
