"""Players the simulator can seat: each sees only its seat's view and returns one legal action.

A bot is any object with ``choose(view, legal, rng) -> Action``: ``view`` is the engine's
``view_for(seat)``, ``legal`` the legal actions (sorted), ``rng`` the caller's seeded
``random.Random`` (bots never use the global generator).

The bots: ``random`` (:mod:`klabsite.bots.random`); ``heuristic``
(:mod:`klabsite.bots.heuristic`: rules of thumb, :mod:`~klabsite.bots.heuristic_klaberjass` and
:mod:`~klabsite.bots.heuristic_klaverjas`); and ``search`` (:mod:`klabsite.bots.search`: sampled
worlds solved double-dummy), made of :mod:`~klabsite.bots.search_play` (the card play),
:mod:`~klabsite.bots.search_bidding` (the Klaberjass bidding and dix),
:mod:`~klabsite.bots.search_trump` (the Klaverjas trump choice), :mod:`~klabsite.bots.search_worlds`
(the mean value of each option over the worlds), :mod:`~klabsite.bots.search_models` (worlds
weighed by how well they fit the other players' bids and cards) and
:mod:`~klabsite.bots.search_positions` (a world as the solver's position).

What they stand on: :mod:`~klabsite.bots.inference` (what a view tells about the hidden cards),
:mod:`~klabsite.bots.sampling` (uniform layouts of them), :mod:`~klabsite.bots.worlds` (whole
decks from a layout) and :mod:`~klabsite.bots.tactics` (card-play building blocks on masks).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from klabsite.engine.actions import Action
from klabsite.engine.text import quote

__all__ = ["Bot", "BOTS", "BotError", "get_bot"]


class BotError(ValueError):
    """An unknown bot name."""


class Bot(Protocol):
    """What the simulator asks of a player."""

    def choose(self, view: Any, legal: Sequence[Action], rng: random.Random) -> Action:
        """One of ``legal`` for the seat whose ``view`` this is."""
        ...


def _random_bot() -> Bot:
    from klabsite.bots.random import RandomBot

    return RandomBot()


def _heuristic_bot() -> Bot:
    from klabsite.bots.heuristic import HeuristicBot

    return HeuristicBot()


def _search_bot() -> Bot:
    from klabsite.bots.search import SearchBot

    return SearchBot()


BOTS: dict[str, Callable[[], Bot]] = {
    "random": _random_bot, "heuristic": _heuristic_bot, "search": _search_bot,
}
"""Bot factories by the name used in ``--bots`` and the ``Source`` tag."""


def get_bot(name: str) -> Bot:
    """A new bot called ``name``."""
    try:
        return BOTS[name]()
    except KeyError:
        raise BotError(f"unknown bot {quote(name)}: known bots are {', '.join(BOTS)}") from None
