"""Card-play building blocks shared by the heuristic players of both games, on card masks.

Cards are indices 0–31 and sets of cards are bitmasks, as in :mod:`klabsite.engine.fast`; trick
strength and points come from its tables (built from :mod:`klabsite.engine.cards`, the one strength
table). Trumps are a suit index 0–3.

>>> from klabsite.engine.cards import Card, mask_of, parse_cards
>>> trick = [Card.parse(c).index for c in ("KS", "AS", "7H")]      # hearts trump: 7H wins
>>> best_of_trick(trick, trump=2)
2
>>> is_master(Card.parse("TS").index, trump=2, outstanding=mask_of(parse_cards("KS 9H")))
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from klabsite.engine.cards import Rank
from klabsite.engine.fast.klaberjass import BEATS
from klabsite.engine.fast.tables import POINTS, STRENGTH, SUIT_MASKS, SUIT_OF

__all__ = [
    "POINTS", "STRENGTH", "SUIT_MASKS", "SUIT_OF", "BEATS",
    "bits", "best_of_trick", "is_master", "Odds", "keep_value", "Keep", "KEEP", "TRUMP_WEIGHT", "rank_bit",
]


TRUMP_WEIGHT: dict[Rank, int] = {
    Rank.JACK: 30, Rank.NINE: 22, Rank.ACE: 12, Rank.TEN: 10, Rank.KING: 6, Rank.QUEEN: 5,
    Rank.EIGHT: 4, Rank.SEVEN: 4,
}
"""What each trump adds to a hand's value when choosing trump (both games' bidding)."""


def rank_bit(suit: int, rank: Rank) -> int:
    """The one-card mask of ``rank`` in suit index ``suit``."""
    return 1 << (suit * 8 + rank.index)


def bits(mask: int) -> list[int]:
    """The card indices of ``mask``, lowest index first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def best_of_trick(trick: Sequence[int], trump: int) -> int:
    """The position in ``trick`` (cards led first) of the card winning it so far."""
    power = STRENGTH[trump]
    led = SUIT_OF[trick[0]]
    best = 0
    for pos in range(1, len(trick)):
        card = trick[pos]
        if SUIT_OF[card] in (led, trump) and power[card] > power[trick[best]]:
            best = pos
    return best


def is_master(card: int, trump: int, outstanding: int) -> bool:
    """Whether no card in ``outstanding`` (cards others may hold) is higher in ``card``'s suit."""
    return not BEATS[trump][card] & outstanding


@dataclass(frozen=True)
class Keep:
    """The weights of :func:`keep_value` (what a card is worth kept for later)."""

    trump_step: float = 1.5
    """Per step of trump strength above the 7 of trumps."""
    master_trump: float = 5.0
    """For the master trump while other trumps are out."""
    menel_guard: float = 6.0
    """For the one other trump beside the menel while the jack is out."""
    master_base: float = 3.0
    master_points: float = 0.4
    """A master of a plain suit: ``master_base + master_points × its points``."""
    ten_guard: float = 3.0
    """For the one other card beside a ten while its ace is out."""


KEEP = Keep()


def keep_value(card: int, trump: int, hand: int, outstanding: int, keep: Keep = KEEP) -> float:
    """What ``card`` is worth kept for a later trick, so what playing it now gives up.

    A trump by its strength, more while it is the master trump and others are out; a master of
    a plain suit by its points; the guard of the menel while the jack of trumps is out, and the
    guard of a ten while its ace is out. ``hand`` is the player's, ``outstanding`` the cards the
    others may hold.

    >>> from klabsite.engine.cards import Card, mask_of, parse_cards
    >>> hand = mask_of(parse_cards("9H 7H TS 8S"))
    >>> out = mask_of(parse_cards("JH AS 7C"))
    >>> [keep_value(Card.parse(c).index, 2, hand, out) for c in ("9H", "7H", "TS", "8S")]
    [10.5, 7.5, 0.0, 3.0]
    """
    suit = SUIT_OF[card]
    master = is_master(card, trump, outstanding)
    if suit == trump:
        value = (STRENGTH[trump][card] - 8) * keep.trump_step
        if master and outstanding & SUIT_MASKS[trump]:
            value += keep.master_trump
        nine, jack = rank_bit(trump, Rank.NINE), rank_bit(trump, Rank.JACK)
        if 1 << card != nine and hand & nine and outstanding & jack \
                and (hand & SUIT_MASKS[trump]).bit_count() == 2:
            value += keep.menel_guard
        return value
    value = keep.master_base + POINTS[trump][card] * keep.master_points if master else 0.0
    ten, ace = rank_bit(suit, Rank.TEN), rank_bit(suit, Rank.ACE)
    if 1 << card != ten and hand & ten and outstanding & ace and (hand & SUIT_MASKS[suit]).bit_count() == 2:
        value += keep.ten_guard
    return value


class Odds:
    """Rough chances that a place holds given cards, from the cards it may hold and its size.

    A card only one place may hold is there; a card possible for several places is at each in
    proportion to the room left there once such sure cards are counted. Cards are treated as
    independent: good enough for rules of thumb (the sampler is exact).

    >>> odds = Odds(sizes=(2, 2), possible=(0b0111, 0b0110))   # card 0 is surely at place 0
    >>> odds.chance(0, 0), round(odds.chance(0, 1), 2), round(odds.none_of(1, 0b0110), 2)
    (1.0, 0.33, 0.11)
    """

    def __init__(self, sizes: Sequence[int], possible: Sequence[int]) -> None:
        self.sizes = tuple(sizes)
        self.possible = tuple(possible)
        self._sure = tuple(
            mask & ~_union(m for other, m in enumerate(self.possible) if other != place)
            for place, mask in enumerate(self.possible)
        )
        self.sizes = tuple(max(size - sure.bit_count(), 0)
                           for size, sure in zip(self.sizes, self._sure, strict=True))
        """The room left at each place once its sure cards are counted."""
        self._total: dict[int, int] = {}

    def chance(self, place: int, card: int) -> float:
        """The chance that ``place`` holds ``card``."""
        if not self.possible[place] >> card & 1:
            return 0.0
        if self._sure[place] >> card & 1:
            return 1.0
        total = self._total.get(card)
        if total is None:
            total = self._total[card] = sum(
                size for size, mask in zip(self.sizes, self.possible, strict=True) if mask >> card & 1)
        return self.sizes[place] / total if total else 0.0

    def none_of(self, place: int, mask: int) -> float:
        """The chance that ``place`` holds no card of ``mask``."""
        mask &= self.possible[place]
        p = 1.0
        while mask:
            low = mask & -mask
            p *= 1.0 - self.chance(place, low.bit_length() - 1)
            mask ^= low
        return max(p, 0.0)

    def any_of(self, place: int, mask: int) -> float:
        """The chance that ``place`` holds at least one card of ``mask``."""
        return 1.0 - self.none_of(place, mask)


def _union(masks: Iterable[int]) -> int:
    out = 0
    for mask in masks:
        out |= mask
    return out
