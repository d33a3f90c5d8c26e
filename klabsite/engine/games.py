"""The two games, by their record name: rules class, seats, score keys and engine hooks.

``GAMES["klaberjass"]`` and ``GAMES["klaverjas"]`` tell the record reader which seats and
options a game has; the engine module (``klabsite.engine.klaberjass`` / ``klabsite.engine.klaverjas``) is
imported only when a deal is actually played or scored, so records can be read without it.

>>> game = get_game("klaverjas")
>>> game.seats, game.score_keys
(('N', 'E', 'S', 'W'), ('NS', 'EW'))
>>> get_game("bridge")
Traceback (most recent call last):
...
klabsite.engine.games.UnknownGameError: unknown game 'bridge': use klaberjass or klaverjas
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from klabsite.engine.options import GameRules, KlaberjassRules, KlaverjasRules
from klabsite.engine.seats import Seat
from klabsite.engine.text import quote

__all__ = ["Game", "GAMES", "UnknownGameError", "get_game"]


class UnknownGameError(ValueError):
    """A ``Game`` tag names a game klabsite does not know."""


@dataclass(frozen=True)
class Game:
    """One game: its record name, options, seats, score keys and engine module."""

    name: str
    rules_class: type[GameRules]
    seat_letters: tuple[str, ...]
    score_keys: tuple[str, ...]
    module_name: str
    deal_class_name: str

    @property
    def seats(self) -> tuple[str, ...]:
        """The seat letters in clockwise order (``N S`` or ``N E S W``)."""
        return self.seat_letters

    @property
    def seat_list(self) -> tuple[Seat, ...]:
        """The seats as :class:`Seat` values."""
        return tuple(Seat(letter) for letter in self.seat_letters)

    @property
    def keys_are_sides(self) -> bool:
        """Whether scores are kept per side (Klaverjas) rather than per player."""
        return self.score_keys == ("NS", "EW")

    @property
    def engine(self) -> ModuleType:
        """The rules engine module (imported on first use)."""
        return importlib.import_module(self.module_name)

    @property
    def deal_class(self) -> Callable[..., Any]:
        """The engine's deal class (``KlaberjassDeal`` or ``KlaverjasDeal``)."""
        return getattr(self.engine, self.deal_class_name)  # type: ignore[no-any-return]

    @property
    def max_deal_value(self) -> int:
        """The largest difference between the two scores of one deal (the engine's
        ``MAX_DEAL_VALUE``): no ``dd`` value is larger."""
        return self.engine.MAX_DEAL_VALUE  # type: ignore[no-any-return]

    @property
    def next_dealer(self) -> Callable[..., Seat]:
        """The engine's ``next_dealer(rules, dealer, outcome)``."""
        return self.engine.next_dealer  # type: ignore[no-any-return]

    @property
    def scored_result(self) -> Callable[..., Any]:
        """The engine's ``scored_result(...)`` for score-sheet deals."""
        return self.engine.scored_result  # type: ignore[no-any-return]

    def parse_rules(self, text: str) -> GameRules:
        """The options of a ``Rules`` tag value (raises ``OptionError``)."""
        return self.rules_class.parse(text)


GAMES: dict[str, Game] = {
    "klaberjass": Game("klaberjass", KlaberjassRules, ("N", "S"), ("N", "S"),
                       "klabsite.engine.klaberjass", "KlaberjassDeal"),
    "klaverjas": Game("klaverjas", KlaverjasRules, ("N", "E", "S", "W"), ("NS", "EW"),
                      "klabsite.engine.klaverjas", "KlaverjasDeal"),
}
"""Every game by its record name."""


def get_game(name: str) -> Game:
    """The game called ``name`` (case-insensitive), or ``UnknownGameError``."""
    try:
        return GAMES[name.strip().lower()]
    except KeyError:
        raise UnknownGameError(f"unknown game {quote(name)}: use {' or '.join(GAMES)}") from None
