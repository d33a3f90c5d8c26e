"""Actions: the choices players make, one per record line (``N take``, ``S JH nobella``).

An :class:`Action` prints as its record line and :meth:`Action.parse` reads one back. Actions
sort in a fixed order (by kind, then suit, then card), which is the order of
``legal_actions()`` in both engines.

>>> action = Action.parse("S", "jh nobella")
>>> str(action), action.words
('S JH nobella', 'JH nobella')
>>> str(Action.parse("N", "meld KS-QS-JS,9D-8D-7D"))
'N meld KS-QS-JS,9D-8D-7D'
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from enum import Enum

from klabsite.engine.cards import Card, CardError, Suit
from klabsite.engine.seats import Seat
from klabsite.engine.text import ascii_lower, quote

__all__ = ["ActionKind", "Action", "ActionError", "IllegalAction", "Meld"]

Meld = tuple[Card, ...]
"""One declared sequence, its cards high first."""


class ActionError(ValueError):
    """An action line could not be read."""


class IllegalAction(ValueError):
    """A well-formed action the rules do not allow now.

    The message names who tried what, the rule that forbids it and what was legal, e.g.
    ``S cannot play 7C: must follow suit with KH, QH``.
    """


class ActionKind(Enum):
    """What kind of choice an action is; the value is its record word."""

    TAKE = "take"
    PASS = "pass"
    NAME = "name"
    SCHMEISS = "schmeiss"
    ACCEPT = "accept"
    REFUSE = "refuse"
    DIX = "dix"
    KEEP = "keep"
    MELD = "meld"
    NOMELD = "nomeld"
    PLAY = "play"

    __hash__ = object.__hash__  # members are singletons: hash by identity


_KIND_ORDER = {kind: i for i, kind in enumerate(ActionKind)}
_WORDS = {kind.value: kind for kind in ActionKind if kind is not ActionKind.PLAY}


@dataclass(frozen=True, slots=True)
class Action:
    """One player's choice.

    ``card`` is set for ``PLAY``; ``suit`` for ``NAME``; ``melds`` for ``MELD``. ``bella`` is
    ``False`` only for a play written ``CARD nobella`` (the second of K/Q of trumps, bella not
    claimed).
    """

    seat: Seat
    kind: ActionKind
    card: Card | None = None
    suit: Suit | None = None
    melds: tuple[Meld, ...] = ()
    bella: bool = True

    @classmethod
    def play(cls, seat: Seat, card: Card, bella: bool = True) -> Action:
        """Playing ``card``; ``bella=False`` declines bella with the second of K/Q of trumps."""
        return cls(seat, ActionKind.PLAY, card=card, bella=bella)

    @classmethod
    def name(cls, seat: Seat, suit: Suit) -> Action:
        """Naming ``suit`` as trump."""
        return cls(seat, ActionKind.NAME, suit=suit)

    @classmethod
    def meld(cls, seat: Seat, melds: tuple[Meld, ...]) -> Action:
        """Declaring sequences, each written high first, in the order given.

        Two meld actions that declare the same sequences in another order mean the same
        declaration: compare them with :meth:`same_as`.
        """
        ordered = tuple(tuple(sorted(meld, key=lambda c: -c.rank.index)) for meld in melds)
        return cls(seat, ActionKind.MELD, melds=ordered)

    def same_as(self, other: Action) -> bool:
        """Equality that ignores the order in which sequences are declared."""
        if self.kind is ActionKind.MELD and other.kind is ActionKind.MELD:
            return self.seat is other.seat and Counter(self.melds) == Counter(other.melds)
        return self == other

    @classmethod
    def parse(cls, seat: Seat | str, words: str) -> Action:
        """Read the words of an action line after its seat (lenient about case and blanks)."""
        seat = seat if isinstance(seat, Seat) else Seat.parse(seat)
        parts = words.split()
        if not parts:
            raise ActionError("an action line needs a seat and an action, e.g. N take or S JH")
        head, rest = ascii_lower(parts[0]), parts[1:]
        try:
            if head == "name":
                if len(rest) != 1:
                    raise ActionError("name takes one suit letter: name C, name D, name H or name S")
                return cls.name(seat, Suit.parse(rest[0]))
            if head == "meld":
                if len(rest) != 1:
                    raise ActionError("meld takes its sequences joined by commas: meld KS-QS-JS,9D-8D-7D")
                return cls.meld(seat, _read_melds(rest[0]))
            if head in _WORDS:
                if rest:
                    raise ActionError(f"{head} takes nothing after it, found {quote(' '.join(rest))}")
                return cls(seat, _WORDS[head])
            card = Card.parse(parts[0])
        except CardError as error:
            raise ActionError(f"cannot read action {quote(words.strip())}: {error}") from None
        if [ascii_lower(word) for word in rest] == ["nobella"]:
            return cls.play(seat, card, bella=False)
        if rest:
            raise ActionError(f"a card may be followed only by nobella, found {quote(' '.join(rest))}")
        return cls.play(seat, card)

    @property
    def words(self) -> str:
        """The record words after the seat: ``take``, ``name H``, ``JH nobella`` …"""
        if self.kind is ActionKind.PLAY:
            assert self.card is not None
            return f"{self.card}" if self.bella else f"{self.card} nobella"
        if self.kind is ActionKind.NAME:
            return f"name {self.suit}"
        if self.kind is ActionKind.MELD:
            return "meld " + ",".join("-".join(str(card) for card in meld) for meld in self.melds)
        return self.kind.value

    def sort_key(self) -> tuple[object, ...]:
        """The order of ``legal_actions()``: kind, suit, card index, melds, claimed before declined."""
        return (
            _KIND_ORDER[self.kind],
            self.suit.index if self.suit else -1,
            self.card.index if self.card else -1,
            [[card.index for card in meld] for meld in self.melds],
            not self.bella,
        )

    def __str__(self) -> str:
        return f"{self.seat} {self.words}"


def _read_melds(text: str) -> tuple[tuple[Card, ...], ...]:
    """The sequences of a ``meld`` action: each one's cards joined by ``-``, the sequences joined by
    commas, with nothing missing between two marks (``KS-QS-JS,9D-8D-7D``)."""
    runs = [run.split("-") for run in text.split(",")]
    if any("" in run for run in runs):
        raise ActionError(f"cannot read meld {quote(text)}: join each sequence's cards with - and the "
                          "sequences with commas, e.g. meld KS-QS-JS,9D-8D-7D")
    return tuple(tuple(Card.parse(card) for card in run) for run in runs)
