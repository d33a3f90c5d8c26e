"""Seats at the table and the two sides of Klaverjas.

Klaberjass uses the seats ``N`` and ``S``; Klaverjas uses ``N E S W`` clockwise, with N–S
partners against E–W.
"""

from __future__ import annotations

from enum import Enum

from klabsite.engine.text import ascii_upper, quote

__all__ = ["Seat", "Side", "SeatError"]


class SeatError(ValueError):
    """A seat or side could not be read."""


class Seat(Enum):
    """A seat, valued by its record letter, in clockwise order."""

    N = "N"
    E = "E"
    S = "S"
    W = "W"

    @property
    def index(self) -> int:
        """0 for N, 1 for E, 2 for S, 3 for W (clockwise)."""
        return _SEAT_INDEX[self]

    @property
    def side(self) -> Side:
        """The Klaverjas side this seat belongs to."""
        return Side.NS if self in (Seat.N, Seat.S) else Side.EW

    @property
    def partner(self) -> Seat:
        """The seat opposite (Klaverjas partner; in Klaberjass, the opponent)."""
        return CLOCKWISE[(self.index + 2) % 4]

    @property
    def left(self) -> Seat:
        """The next seat clockwise (Klaverjas: the player to this seat's left)."""
        return CLOCKWISE[(self.index + 1) % 4]

    __hash__ = object.__hash__  # members are singletons: hash by identity (hot in the engines)

    @classmethod
    def parse(cls, text: str) -> Seat:
        """Read a seat letter in either case."""
        try:
            return cls(ascii_upper(text.strip()))
        except ValueError:
            raise SeatError(f"unknown seat {quote(text)}: use N, E, S or W") from None

    def __str__(self) -> str:
        return self.value


CLOCKWISE: tuple[Seat, ...] = (Seat.N, Seat.E, Seat.S, Seat.W)
_SEAT_INDEX = {seat: i for i, seat in enumerate(CLOCKWISE)}


class Side(Enum):
    """A Klaverjas partnership."""

    NS = "NS"
    EW = "EW"

    @property
    def seats(self) -> tuple[Seat, Seat]:
        """The two seats of this side."""
        return (Seat.N, Seat.S) if self is Side.NS else (Seat.E, Seat.W)

    @property
    def other(self) -> Side:
        """The opposing side."""
        return Side.EW if self is Side.NS else Side.NS

    __hash__ = object.__hash__  # members are singletons: hash by identity

    @classmethod
    def parse(cls, text: str) -> Side:
        """Read ``NS`` or ``EW`` (also ``SN``/``WE``) in either case."""
        key = ascii_upper(text.strip())
        key = {"SN": "NS", "WE": "EW"}.get(key, key)
        try:
            return cls(key)
        except ValueError:
            raise SeatError(f"unknown side {quote(text)}: use NS or EW") from None

    def __str__(self) -> str:
        return self.value
