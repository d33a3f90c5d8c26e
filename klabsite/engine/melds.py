"""Klaberjass sequences: finding them, checking a declaration, comparing, and the table talk.

The rules page "Klaberjass: sequences, play and bella", Sequences. Three or more cards of one suit
in the natural order 7 8 9 10 J Q K A form a sequence: 3 cards = 20, 4 cards = 50, 5 or more =
``long-sequence`` (50 or 100). Only the player with the best sequence scores, and then all his
declared sequences. Best = higher value; then higher top card; then a trump sequence beats a plain
one; still equal: ``equal-meld`` (``neither`` scores, or the ``elder``, the non-dealer).

The talk at the table follows from what both declared. It is a sequence of :class:`Phrase`
values with stable keys (``twenty``, ``fifty``, ``hundred``, ``good``, ``not-good``,
``how-high``, ``top``, ``in-trumps``, ``yes``, ``no``, ``equal``) that the site translates.

>>> from klabsite.engine.cards import parse_cards
>>> [format_meld(m) for m in runs_in(parse_cards("KS QS JS TS 9D 8D 7D AH"))]
['9D-8D-7D', 'KS-QS-JS-TS']
>>> meld_value(tuple(parse_cards("KS QS JS TS 9S")), long_sequence=100)
100
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import product

from klabsite.engine.actions import Meld
from klabsite.engine.cards import RANKS, Card, Rank, Suit, is_sequence
from klabsite.engine.events import Event
from klabsite.engine.seats import Seat

__all__ = [
    "runs_in",
    "meld_sets",
    "meld_value",
    "sequence_value",
    "meld_problem",
    "format_meld",
    "Comparison",
    "compare",
    "Phrase",
    "PHRASE_KEYS",
    "opening_talk",
    "reply_talk",
    "Declared",
    "Talk",
    "MeldsCompared",
    "MeldsShown",
]


def format_meld(meld: Sequence[Card]) -> str:
    """A sequence in record notation, high first: ``KS-QS-JS``."""
    return "-".join(str(card) for card in meld)


def _by_height(cards: Iterable[Card]) -> list[Card]:
    return sorted(cards, key=lambda card: -card.rank.index)


def runs_in(cards: Iterable[Card]) -> list[Meld]:
    """The maximal sequences (three or more cards) in ``cards``, each high first, in card order."""
    by_suit: dict[Suit, list[Card]] = {}
    for card in cards:
        by_suit.setdefault(card.suit, []).append(card)
    runs: list[Meld] = []
    for suit in Suit:
        held = sorted(by_suit.get(suit, ()), key=lambda card: card.rank.index)
        start = 0
        for i in range(1, len(held) + 1):
            if i == len(held) or held[i].rank.index != held[i - 1].rank.index + 1:
                if i - start >= 3:
                    runs.append(tuple(reversed(held[start:i])))
                start = i
    return runs


def _splits(run: Meld) -> list[tuple[Meld, ...]]:
    """Every set of disjoint sub-sequences (three or more cards) of one run, the empty set included."""
    if len(run) < 3:
        return [()]
    result: list[tuple[Meld, ...]] = list(_splits(run[1:]))  # the top card is not used
    for length in range(3, len(run) + 1):
        for rest in _splits(run[length:]):
            result.append((run[:length], *rest))
    return result


def meld_sets(cards: Iterable[Card]) -> list[tuple[Meld, ...]]:
    """Every declaration a hand allows: non-empty sets of disjoint sequences of held cards.

    Each set lists its sequences high card first (by card index, so spades before hearts).

    >>> from klabsite.engine.cards import parse_cards
    >>> [",".join(map(format_meld, s)) for s in meld_sets(parse_cards("AS KS QS JS 7H"))]
    ['KS-QS-JS', 'AS-KS-QS', 'AS-KS-QS-JS']
    """
    choices = [_splits(run) for run in runs_in(cards)]
    sets = []
    for combination in product(*choices):
        melds = [meld for part in combination for meld in part]
        if melds:
            sets.append(tuple(sorted(melds, key=lambda meld: -meld[0].index)))
    return sets


def sequence_value(length: int, long_sequence: int) -> int:
    """Points of a sequence of ``length`` cards: 3 cards 20, 4 cards 50, 5 or more ``long_sequence``."""
    if length >= 5:
        return long_sequence
    return 50 if length == 4 else 20


def meld_value(meld: Sequence[Card], long_sequence: int) -> int:
    """Points of one sequence: 3 cards 20, 4 cards 50, 5 or more ``long_sequence``."""
    return sequence_value(len(meld), long_sequence)


def meld_problem(melds: Sequence[Sequence[Card]], hand: Iterable[Card]) -> str | None:
    """Why ``melds`` is not a declaration the hand allows, or ``None`` when it is.

    >>> from klabsite.engine.cards import parse_cards
    >>> meld_problem([parse_cards("KS QS JS")], parse_cards("KS JS TS 9S"))
    'does not hold QS'
    """
    held = set(hand)
    if not melds:
        return "a declaration needs at least one sequence (or say nomeld)"
    seen: set[Card] = set()
    for meld in melds:
        for card in meld:
            if card not in held:
                return f"does not hold {card}"
        if len(meld) < 3 or len({card.suit for card in meld}) != 1:
            return f"{format_meld(meld)} is not a sequence of three or more cards of one suit"
        if not is_sequence(meld):
            return f"{format_meld(meld)} is not a sequence: its cards are not consecutive"
        shared = seen.intersection(meld)
        if shared:
            return f"the sequences share {', '.join(str(card) for card in _by_height(shared))}"
        seen.update(meld)
    return None


def _best_key(melds: Sequence[Meld], trump: Suit, long_sequence: int) -> tuple[int, int, bool]:
    """(value, top card's natural rank, is trump) of the best sequence among ``melds``."""
    return max(
        (meld_value(meld, long_sequence), max(card.rank.index for card in meld), meld[0].suit is trump)
        for meld in melds
    )


@dataclass(frozen=True, slots=True)
class Comparison:
    """Who has the best sequence and why.

    ``best`` is the seat whose sequences score (``None``: nobody). ``reason`` is ``none``
    (nobody declared), ``only`` (one player declared), ``value``, ``top-card``, ``trump`` (what
    decided), or ``equal`` (still equal: ``equal-meld`` decided). ``points`` is what ``best``'s
    declared sequences are worth (before ``no-trick-melds``).
    """

    best: Seat | None
    reason: str
    points: int


def compare(
    elder: Seat,
    elder_melds: Sequence[Meld],
    dealer: Seat,
    dealer_melds: Sequence[Meld],
    trump: Suit,
    long_sequence: int,
    equal_meld: str,
) -> Comparison:
    """Compare both declarations (the same page, "Who scores for sequences"); ``elder`` is the non-dealer."""
    def worth(melds: Sequence[Meld]) -> int:
        return sum(meld_value(meld, long_sequence) for meld in melds)

    if not elder_melds and not dealer_melds:
        return Comparison(None, "none", 0)
    if not dealer_melds:
        return Comparison(elder, "only", worth(elder_melds))
    if not elder_melds:
        return Comparison(dealer, "only", worth(dealer_melds))
    mine = _best_key(elder_melds, trump, long_sequence)
    theirs = _best_key(dealer_melds, trump, long_sequence)
    for index, reason in enumerate(("value", "top-card", "trump")):
        if mine[index] != theirs[index]:
            best = elder if mine[index] > theirs[index] else dealer
            return Comparison(best, reason, worth(elder_melds if best is elder else dealer_melds))
    if equal_meld == "elder":
        return Comparison(elder, "equal", worth(elder_melds))
    return Comparison(None, "equal", 0)


# ---------------------------------------------------------------------------------------------
# The talk at the table

PHRASE_KEYS: dict[str, str] = {
    "twenty": "Twenty.",
    "fifty": "Fifty.",
    "hundred": "Hundred.",
    "good": "Good.",
    "not-good": "Not good.",
    "how-high": "How high?",
    "top": "{rank} high.",
    "in-trumps": "In trumps?",
    "yes": "Yes.",
    "no": "No.",
    "equal": "Equal.",
}
"""Every phrase key and its English text (``top`` names the rank of the top card)."""

_RANK_WORDS = {
    Rank.ACE: "Ace", Rank.KING: "King", Rank.QUEEN: "Queen", Rank.JACK: "Jack",
    Rank.TEN: "Ten", Rank.NINE: "Nine", Rank.EIGHT: "Eight", Rank.SEVEN: "Seven",
}
_VALUE_KEYS = {20: "twenty", 50: "fifty", 100: "hundred"}


@dataclass(frozen=True, slots=True)
class Phrase:
    """One line of table talk: who says it, a stable key, and for ``top`` the rank named.

    >>> str(Phrase(Seat.S, "top", Rank.KING)), str(Phrase(Seat.N, "not-good"))
    ('S: King high.', 'N: Not good.')
    """

    seat: Seat
    key: str
    rank: Rank | None = None

    @property
    def text(self) -> str:
        """The English words."""
        words = PHRASE_KEYS[self.key]
        return words.format(rank=_RANK_WORDS[self.rank]) if self.rank else words

    def __str__(self) -> str:
        return f"{self.seat}: {self.text}"


def opening_talk(elder: Seat, elder_melds: Sequence[Meld], long_sequence: int) -> tuple[Phrase, ...]:
    """What the non-dealer says on declaring: the value of his best sequence ("Fifty.")."""
    if not elder_melds:
        return ()
    value = max(meld_value(meld, long_sequence) for meld in elder_melds)
    return (Phrase(elder, _VALUE_KEYS[value]),)


def reply_talk(
    elder: Seat,
    elder_melds: Sequence[Meld],
    dealer: Seat,
    dealer_melds: Sequence[Meld],
    trump: Suit,
    long_sequence: int,
) -> tuple[Phrase, ...]:
    """The rest of the dialogue, once the dealer has declared (or not).

    The dealer answers the non-dealer's value with "Good." (his own is lower or absent),
    "Not good." (higher) or "How high?" (equal); the non-dealer names his top card and the
    dealer answers again; on equal top cards the dealer asks "In trumps?". When only the dealer
    declared, he announces the value and the non-dealer says "Good.".
    """
    if not dealer_melds:
        return (Phrase(dealer, "good"),) if elder_melds else ()
    if not elder_melds:
        value = max(meld_value(meld, long_sequence) for meld in dealer_melds)
        return (Phrase(dealer, _VALUE_KEYS[value]), Phrase(elder, "good"))
    mine = _best_key(elder_melds, trump, long_sequence)
    theirs = _best_key(dealer_melds, trump, long_sequence)
    if mine[0] != theirs[0]:
        return (Phrase(dealer, "good" if mine[0] > theirs[0] else "not-good"),)
    talk = [Phrase(dealer, "how-high"), Phrase(elder, "top", RANKS[mine[1]])]
    if mine[1] != theirs[1]:
        talk.append(Phrase(dealer, "good" if mine[1] > theirs[1] else "not-good"))
        return tuple(talk)
    talk.append(Phrase(dealer, "in-trumps"))
    talk.append(Phrase(elder, "yes" if mine[2] else "no"))
    if mine[2]:
        talk.append(Phrase(dealer, "good"))
    else:
        talk.append(Phrase(dealer, "not-good" if theirs[2] else "equal"))
    return tuple(talk)


# ---------------------------------------------------------------------------------------------
# Events of the declarations


@dataclass(frozen=True, slots=True)
class Declared(Event):
    """A ``meld …`` or ``nomeld`` declaration; ``melds`` is empty for ``nomeld``."""

    seat: Seat
    melds: tuple[Meld, ...]


@dataclass(frozen=True, slots=True)
class Talk(Event):
    """Table talk spoken at this point of the deal, in order."""

    phrases: tuple[Phrase, ...]


@dataclass(frozen=True, slots=True)
class MeldsCompared(Event):
    """Both declarations are known: who scores sequences, what decided it, and their worth."""

    best: Seat | None
    reason: str
    points: int


@dataclass(frozen=True, slots=True)
class MeldsShown(Event):
    """After the first trick the player who won the comparison shows his declared sequences."""

    seat: Seat
    melds: tuple[Meld, ...]
