"""Tables the solvers share: trick order, point sums, equivalent cards and a bound on roem.

Every table is derived from the engine's own tables (:mod:`klabsite.engine.fast.tables`,
:mod:`klabsite.engine.roem`) when first needed, so the rules stay in one place. Card ``i`` is bit ``i``
(suit-major, ranks 7 … A within a suit); a *suit byte* is the eight bits of one suit.

>>> from klabsite.engine.cards import mask_of, parse_cards, cards_of
>>> hand = mask_of(parse_cards("9C 8C 7C AC"))
>>> others = mask_of(parse_cards("KC"))
>>> cards_of(representatives(hand, others, trump=3, roem=False))   # 9 8 7 are one card here
[Card.parse('9C'), Card.parse('AC')]
>>> runs = others | mask_of(parse_cards("TC JC"))   # with roem the 9 could make 9-10-J: kept apart
>>> cards_of(representatives(hand, runs, trump=3, roem=True))
[Card.parse('8C'), Card.parse('9C'), Card.parse('AC')]
"""

from __future__ import annotations

from functools import cache

from klabsite.engine.cards import RANKS
from klabsite.engine.fast.klaverjas import STUK
from klabsite.engine.fast.tables import POINTS, STRENGTH
from klabsite.engine.roem import FOUR_OF_A_KIND_ROEM, RUN_ROEM, STUK_ROEM

__all__ = [
    "cards_in",
    "POINT_SUM",
    "points_in",
    "representatives",
    "suit_order",
    "suit_points",
    "inert_ranks",
    "suit_classes",
    "suit_representatives",
    "roem_bound",
    "RUN_BOUND",
    "STRONGEST_FIRST",
]

STRONGEST_FIRST: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(range(32), key=lambda i: (-STRENGTH[trump][i], i))) for trump in range(4)
)
"""STRONGEST_FIRST[trump]: the 32 card indices, strongest first (trumps, then plain by strength)."""

POINT_SUM: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        tuple(sum(POINTS[trump][8 * suit + r] for r in range(8) if byte >> r & 1) for byte in range(256))
        for suit in range(4)
    )
    for trump in range(4)
)
"""POINT_SUM[trump][suit][byte]: the card points of the cards of ``suit`` whose ranks are ``byte``."""


def cards_in(mask: int) -> list[int]:
    """The card indices of ``mask``, lowest first.

    >>> cards_in(0b1010_0001)
    [0, 5, 7]
    """
    cards = []
    while mask:
        bit = mask & -mask
        mask ^= bit
        cards.append(bit.bit_length() - 1)
    return cards


def points_in(mask: int, trump: int) -> int:
    """The card points of the cards in ``mask``.

    >>> from klabsite.engine.cards import mask_of, parse_cards
    >>> points_in(mask_of(parse_cards("JH 9H AS")), trump=2)
    45
    """
    table = POINT_SUM[trump]
    return (table[0][mask & 0xFF] + table[1][mask >> 8 & 0xFF] + table[2][mask >> 16 & 0xFF]
            + table[3][mask >> 24 & 0xFF])


@cache
def _inert(others: int) -> int:
    """The ranks (as a suit byte) whose card never changes the run roem of a trick whose other
    cards of its suit are at most three of ``others`` (a suit byte): :data:`RUN_ROEM` decides."""
    inert = 0
    for rank in range(8):
        bit = 1 << rank
        if others & bit:
            continue
        subset, changes = others, False
        while not changes:  # every subset of ``others``
            changes = subset.bit_count() <= 3 and RUN_ROEM[subset | bit] != RUN_ROEM[subset]
            if not subset:
                break
            subset = (subset - 1) & others
        if not changes:
            inert |= bit
    return inert


_FOUR_BY_RANK = tuple(FOUR_OF_A_KIND_ROEM[rank] for rank in RANKS)
_STUK_RANKS = STUK[0]  # the K and Q, as a suit byte


def suit_order(is_trump: bool) -> tuple[int, ...]:
    """The ranks 0–7 (7 … A) of a trump or a plain suit, strongest first in trick order."""
    strength = STRENGTH[0 if is_trump else 1]  # suit 0 as the trump (0) or as a plain suit (1)
    return tuple(sorted(range(8), key=lambda rank: -strength[rank]))


def suit_points(is_trump: bool) -> tuple[int, ...]:
    """The points of the ranks 0–7 (7 … A) of a trump or a plain suit."""
    return POINTS[0 if is_trump else 1][:8]


def inert_ranks(others: int) -> int:
    """The ranks (a suit byte) whose card never changes the run roem of a trick whose other
    cards of its suit are at most three of ``others``: see :func:`suit_classes`."""
    return _inert(others)


@cache
def suit_classes(hand: int, others: int, is_trump: bool, roem: bool) -> tuple[int, ...]:
    """The classes of interchangeable cards of one suit held by one player, as suit bytes,
    strongest class first.

    ``hand`` and ``others`` are suit bytes: the player's cards of the suit and the cards of the
    suit still in play elsewhere (other hands and the trick in progress); cards in neither are
    out of play. Two cards of ``hand`` are interchangeable when no card of ``others`` lies
    between them in trick order and they are worth the same points; with ``roem`` (Klaverjas)
    neither may change the run roem of any trick (:func:`_inert`), their four of a kind must be
    worth the same, and neither may be a stuk card (K, Q of trumps), because roem depends on the
    exact cards. Then playing one or the other changes nothing: who wins each trick, the points,
    the roem, what may be played.

    >>> [bin(c) for c in suit_classes(0b0000_0111, 0b0100_0000, is_trump=False, roem=False)]   # 9 8 7
    ['0b111']
    """
    order, points = suit_order(is_trump), suit_points(is_trump)
    inert = 0xFF
    if roem:
        inert = _inert(others) & ~(_STUK_RANKS if is_trump else 0)
    classes: list[int] = []
    previous: int | None = None  # the last hand card seen, while no card of ``others`` followed it
    for rank in order:
        bit = 1 << rank
        if hand & bit:
            if (previous is not None and points[rank] == points[previous]
                    and inert & bit and inert >> previous & 1
                    and (not roem or _FOUR_BY_RANK[rank] == _FOUR_BY_RANK[previous])):
                classes[-1] |= bit
            else:
                classes.append(bit)
            previous = rank
        elif others & bit:
            previous = None
    return tuple(classes)


@cache
def suit_representatives(hand: int, others: int, is_trump: bool, roem: bool) -> int:
    """One card, the strongest, of each of :func:`suit_classes`, as a suit byte."""
    kept = 0
    for cards in suit_classes(hand, others, is_trump, roem):
        kept |= 1 << next(rank for rank in suit_order(is_trump) if cards >> rank & 1)
    return kept


def representatives(hand: int, others: int, trump: int, roem: bool) -> int:
    """:func:`suit_representatives` over all four suits of the card masks ``hand`` and ``others``."""
    kept = 0
    for suit in range(4):
        shift = 8 * suit
        byte = hand >> shift & 0xFF
        if byte & (byte - 1):  # two or more cards of the suit
            kept |= suit_representatives(byte, others >> shift & 0xFF, suit == trump, roem) << shift
        else:
            kept |= byte << shift
    return kept


def _best_runs(byte: int) -> int:
    """The most run roem the ranks ``byte`` of one suit can score over tricks of up to four cards."""
    best = _RUN_MEMO.get(byte)
    if best is not None:
        return best
    if not byte:
        return 0
    low = byte & -byte
    rest = byte ^ low
    best = 0
    sub = rest
    while True:  # every group holding the lowest rank and up to three others
        if sub.bit_count() <= 3:
            best = max(best, RUN_ROEM[low | sub] + _best_runs(rest & ~sub))
        if not sub:
            break
        sub = (sub - 1) & rest
    _RUN_MEMO[byte] = best
    return best


_RUN_MEMO: dict[int, int] = {}
RUN_BOUND: tuple[int, ...] = tuple(_best_runs(byte) for byte in range(256))
"""RUN_BOUND[byte]: the most run roem one suit's ranks ``byte`` can still score (an upper bound)."""

_FOUR = tuple((rank.index, FOUR_OF_A_KIND_ROEM[rank]) for rank in RANKS if FOUR_OF_A_KIND_ROEM[rank])
_STUK = tuple(0b01100000 << (8 * trump) for trump in range(4))


def roem_bound(cards: int, trump: int) -> int:
    """An upper bound on the roem the cards ``cards`` can still score in tricks.

    Runs per suit (:data:`RUN_BOUND`), stuk if K and Q of trumps are both among ``cards``, and
    each four of a kind all of whose cards are among them.

    >>> from klabsite.engine.cards import mask_of, parse_cards
    >>> roem_bound(mask_of(parse_cards("KH QH JH 7C 9S")), trump=2)
    40
    """
    bound = (RUN_BOUND[cards & 0xFF] + RUN_BOUND[cards >> 8 & 0xFF] + RUN_BOUND[cards >> 16 & 0xFF]
             + RUN_BOUND[cards >> 24 & 0xFF])
    if cards & _STUK[trump] == _STUK[trump]:
        bound += STUK_ROEM
    four = cards & cards >> 8 & cards >> 16 & cards >> 24 & 0xFF
    if four:
        for rank, value in _FOUR:
            if four >> rank & 1:
                bound += value
    return bound

