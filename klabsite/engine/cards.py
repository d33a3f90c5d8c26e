"""Cards, suits, ranks and the tables that give them strength and points.

A card is a plain value: it prints as its record notation (``JH``) and its
``repr`` rebuilds it. A card has no ordering of its own; how strong it is and
how many points it is worth depend on the trump suit, and come from the tables
below (the rules page "The cards").

>>> card = Card.parse("10h")
>>> card, str(card)
(Card.parse('TH'), 'TH')
>>> points(card, trump=Suit.SPADES)
10
>>> strength(Card.parse("9S"), trump=Suit.SPADES) > strength(Card.parse("AS"), trump=Suit.SPADES)
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum

from klabsite.engine.text import ascii_upper, quote

__all__ = [
    "Suit",
    "Rank",
    "Card",
    "DECK",
    "CardError",
    "parse_cards",
    "format_cards",
    "strength",
    "point_sums",
    "points",
    "sequence_position",
    "is_sequence",
    "mask_of",
    "cards_of",
]


class CardError(ValueError):
    """A card's notation could not be read."""


class Suit(Enum):
    """The four suits, valued by their record letter."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def letter(self) -> str:
        """The record letter: ``C``, ``D``, ``H`` or ``S``."""
        return self.value

    @property
    def symbol(self) -> str:
        """The suit symbol printed on cards: ♣ ♦ ♥ ♠."""
        return _SUIT_SYMBOLS[self]

    @property
    def index(self) -> int:
        """0 for clubs … 3 for spades, the order used for sorting."""
        return _SUIT_INDEX[self]

    __hash__ = object.__hash__  # members are singletons: hash by identity (hot in the engines)

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read a suit letter or symbol, in either case (``h``, ``H``, ``♥``)."""
        key = ascii_upper(text.strip())
        for suit in cls:
            if key in (suit.value, suit.symbol, suit.name):
                return suit
        raise CardError(f"unknown suit {quote(text)}: use C, D, H or S")

    def __str__(self) -> str:
        return self.value


_SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
_SUIT_INDEX = {suit: i for i, suit in enumerate(Suit)}
SUITS: tuple[Suit, ...] = tuple(Suit)


class Rank(Enum):
    """The eight ranks, valued by their record letter, listed in sequence order (7 low, A high)."""

    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "T"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"
    ACE = "A"

    @property
    def letter(self) -> str:
        """The record letter: ``7 8 9 T J Q K A``."""
        return self.value

    @property
    def index(self) -> int:
        """0 for the seven … 7 for the ace: the order of sequences (melds, roem)."""
        return _RANK_INDEX[self]

    __hash__ = object.__hash__  # members are singletons: hash by identity (hot in the engines)

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Read a rank letter, in either case, accepting ``10`` for the ten."""
        key = ascii_upper(text.strip())
        if key == "10":
            key = "T"
        for rank in cls:
            if key == rank.value:
                return rank
        raise CardError(f"unknown rank {quote(text)}: use 7, 8, 9, T (or 10), J, Q, K or A")

    def __str__(self) -> str:
        return self.value


_RANK_INDEX = {rank: i for i, rank in enumerate(Rank)}
RANKS: tuple[Rank, ...] = tuple(Rank)


@dataclass(frozen=True, slots=True)
class Card:
    """One of the 32 cards. ``str(card)`` is its notation, ``repr(card)`` rebuilds it."""

    rank: Rank
    suit: Suit
    index: int = field(init=False, repr=False, compare=False)
    """A dense index 0–31 (suit-major), the bit used in card masks."""
    bit: int = field(init=False, repr=False, compare=False)
    """``1 << index``: this card as a one-card mask."""

    def __post_init__(self) -> None:
        index = self.suit.index * 8 + self.rank.index
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "bit", 1 << index)

    def __hash__(self) -> int:
        return self.index

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card leniently: ``JH``, ``jh``, ``10h``, ``TH``, ``J♥``."""
        key = text.strip()
        if len(key) < 2:
            raise CardError(f"cannot read card {quote(text)}: write rank then suit, e.g. JH or TS")
        try:
            return _BY_KEY[(Rank.parse(key[:-1]), Suit.parse(key[-1]))]
        except CardError:
            raise CardError(f"cannot read card {quote(text)}: write a rank (7 8 9 T J Q K A, or 10) then a "
                            "suit (C D H S), e.g. JH or TS") from None

    def __str__(self) -> str:
        return self.rank.value + self.suit.value

    def __repr__(self) -> str:
        return f"Card.parse('{self}')"


_BY_KEY = {(rank, suit): Card(rank, suit) for suit in SUITS for rank in RANKS}
DECK: tuple[Card, ...] = tuple(_BY_KEY[(rank, suit)] for suit in SUITS for rank in RANKS)
"""The 32 cards in index order (clubs 7…A, diamonds, hearts, spades)."""

assert all(card.index == i for i, card in enumerate(DECK))


def parse_cards(text: str) -> list[Card]:
    """Read cards separated by blanks, commas or hyphens: ``"KS-QS-JS"`` → three cards."""
    return [Card.parse(word) for word in text.replace(",", " ").replace("-", " ").split()]


def format_cards(cards: Iterable[Card], sep: str = " ") -> str:
    """Write cards in notation, joined by ``sep``."""
    return sep.join(str(card) for card in cards)


# Trick-taking strength, high number = strong ("The cards", Order and points):
# trump J 9 A 10 K Q 8 7; plain A 10 K Q J 9 8 7.
TRUMP_ORDER: tuple[Rank, ...] = (
    Rank.JACK, Rank.NINE, Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.EIGHT, Rank.SEVEN,
)
PLAIN_ORDER: tuple[Rank, ...] = (
    Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.NINE, Rank.EIGHT, Rank.SEVEN,
)
TRUMP_POINTS: dict[Rank, int] = {
    Rank.JACK: 20, Rank.NINE: 14, Rank.ACE: 11, Rank.TEN: 10,
    Rank.KING: 4, Rank.QUEEN: 3, Rank.EIGHT: 0, Rank.SEVEN: 0,
}
PLAIN_POINTS: dict[Rank, int] = {
    Rank.ACE: 11, Rank.TEN: 10, Rank.KING: 4, Rank.QUEEN: 3,
    Rank.JACK: 2, Rank.NINE: 0, Rank.EIGHT: 0, Rank.SEVEN: 0,
}
_TRUMP_STRENGTH = {rank: 8 - i for i, rank in enumerate(TRUMP_ORDER)}
_PLAIN_STRENGTH = {rank: 8 - i for i, rank in enumerate(PLAIN_ORDER)}


def strength(card: Card, trump: Suit) -> int:
    """Trick-taking strength of ``card`` within its suit: 1 (weakest) … 8; trumps get +8.

    A trump always beats a plain card; among cards of one suit the higher number wins.
    """
    if card.suit is trump:
        return 8 + _TRUMP_STRENGTH[card.rank]
    return _PLAIN_STRENGTH[card.rank]


def points(card: Card, trump: Suit) -> int:
    """Card points of ``card`` when ``trump`` is the trump suit."""
    return TRUMP_POINTS[card.rank] if card.suit is trump else PLAIN_POINTS[card.rank]


def point_sums(most: int) -> tuple[frozenset[int], ...]:
    """The card points that ``n`` cards of the deck can hold together, for each ``n`` from 0 to
    ``most`` (the point tables are the same whichever suit is trump).

    >>> sums = point_sums(2)
    >>> sorted(sums[1]), 34 in sums[2], 1 in sums[2]
    ([0, 2, 3, 4, 10, 11, 14, 20], True, False)
    """
    reach: list[set[int]] = [{0}] + [set() for _ in range(most)]
    for card in DECK:
        value = points(card, Suit.HEARTS)
        for count in range(most, 0, -1):
            reach[count] |= {total + value for total in reach[count - 1]}
    return tuple(frozenset(sums) for sums in reach)


def sequence_position(card: Card) -> int:
    """Position in the natural order 7 8 9 10 J Q K A used by sequences and roem (0–7)."""
    return card.rank.index


def is_sequence(cards: Iterable[Card]) -> bool:
    """Whether the cards are of one suit and consecutive in natural order (any count ≥ 1)."""
    cards = list(cards)
    if not cards or len({card.suit for card in cards}) != 1:
        return False
    positions = sorted(sequence_position(card) for card in cards)
    return positions == list(range(positions[0], positions[0] + len(positions)))


def mask_of(cards: Iterable[Card]) -> int:
    """The bitmask of a collection of cards."""
    mask = 0
    for card in cards:
        mask |= card.bit
    return mask


def cards_of(mask: int) -> list[Card]:
    """The cards of a bitmask, in index order."""
    return [card for card in DECK if mask >> card.index & 1]
