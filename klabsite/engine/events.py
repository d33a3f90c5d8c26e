"""Events: the immutable log of a deal, one or more per applied action.

Both engines append these to ``deal.events``; replays are rendered from the log, never by
re-simulating in templates. Game-specific events (the Klaberjass declaration talk, say) live
in the game's module and subclass :class:`Event` too.
"""

from __future__ import annotations

from dataclasses import dataclass

from klabsite.engine.cards import Card, Suit
from klabsite.engine.seats import Seat

__all__ = [
    "Event",
    "Dealt",
    "BidMade",
    "TrumpChosen",
    "ThrownIn",
    "CardPlayed",
    "TrickWon",
    "DealScored",
]

Hand = tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Event:
    """Base class of every event."""


@dataclass(frozen=True, slots=True)
class Dealt(Event):
    """The cards are dealt: each seat's hand; the Klaberjass upcard or Klaverjas proposed suit."""

    dealer: Seat
    hands: tuple[tuple[Seat, Hand], ...]
    upcard: Card | None = None
    proposed: Suit | None = None


@dataclass(frozen=True, slots=True)
class BidMade(Event):
    """A bidding-phase choice: ``take``, ``pass``, ``name``, ``schmeiss``, ``accept``, ``refuse``."""

    seat: Seat
    word: str
    suit: Suit | None = None


@dataclass(frozen=True, slots=True)
class TrumpChosen(Event):
    """Trump is fixed; ``maker`` chose it (in Klaverjas, his side is the playing side)."""

    trump: Suit
    maker: Seat

    @property
    def chooser(self) -> Seat:
        """The maker, by the name that the templates of projects made before it was renamed use."""
        return self.maker


@dataclass(frozen=True, slots=True)
class ThrownIn(Event):
    """The deal ends before play: ``reason`` is ``thrown-in`` (all passed) or ``redeal`` (schmeiss)."""

    reason: str


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    """A card is played to trick ``trick`` (1-based); ``bella`` when it scores bella."""

    seat: Seat
    card: Card
    trick: int
    bella: bool = False


@dataclass(frozen=True, slots=True)
class TrickWon(Event):
    """Trick ``number`` is complete: its cards in play order, winner, card points and roem.

    ``points`` includes the 10 for the last trick when ``last``. ``roem`` is 0 in Klaberjass.
    """

    number: int
    winner: Seat
    cards: tuple[tuple[Seat, Card], ...]
    points: int
    last: bool
    roem: int = 0


@dataclass(frozen=True, slots=True)
class DealScored(Event):
    """The deal is scored; ``score`` maps each player (Klaberjass) or side (Klaverjas) to points.

    ``result`` is ``made``, ``failed`` or ``tie`` (Klaberjass) or ``made`` or ``nat`` (Klaverjas).
    """

    result: str
    score: tuple[tuple[str, int], ...]

