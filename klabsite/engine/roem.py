"""Roem: the Klaverjas bonuses counted in each trick (the rules page "Klaverjas: roem and scoring", Roem).

The side that wins a trick scores the roem among its four cards:

- three cards of one suit in sequence 20, four in sequence 50 (natural order 7 8 9 10 J Q K A);
- *stuk*, the K and Q of trumps in the same trick, 20;
- these add up: K-Q-J of trumps is 20 + 20 = 40, 10-J-Q-K of trumps is 50 + 20 = 70;
- four of a kind: A, 10, K or Q 100; J 200; 7, 8 or 9 nothing.

>>> from klabsite.engine.cards import Suit, parse_cards
>>> trick_roem(parse_cards("KH QH JH 7C"), trump=Suit.HEARTS)
40
>>> trick_roem(parse_cards("TS JS QS KS"), trump=Suit.SPADES)
70
>>> roem_parts(parse_cards("JC JD JH JS"), trump=Suit.CLUBS)
(('four-jacks', 200),)
"""

from __future__ import annotations

from collections.abc import Sequence

from klabsite.engine.cards import Card, Rank, Suit

__all__ = [
    "trick_roem", "roem_parts", "roem_cards", "SEQUENCE_ROEM", "STUK_ROEM", "FOUR_OF_A_KIND_ROEM",
    "MAX_DEAL_ROEM", "PIT_BONUS", "RUN_ROEM",
]

SEQUENCE_ROEM: dict[int, int] = {3: 20, 4: 50}
"""Roem for a run of that many cards of one suit in one trick."""
STUK_ROEM = 20
"""Roem for the K and Q of trumps in the same trick."""
FOUR_OF_A_KIND_ROEM: dict[Rank, int] = {
    Rank.ACE: 100, Rank.TEN: 100, Rank.KING: 100, Rank.QUEEN: 100,
    Rank.JACK: 200, Rank.NINE: 0, Rank.EIGHT: 0, Rank.SEVEN: 0,
}
"""Roem for the four cards of one rank in one trick."""
MAX_DEAL_ROEM = 700
"""The most roem one deal can hold, both sides together: four jacks (200), four aces, kings and
queens (100 each), and the sixteen 7s, 8s, 9s and 10s as four runs of four (50 each). An
exhaustive search over every way to share the 32 cards among eight tricks (the tests run it)
finds no more; the play rules are left out, so this is an upper bound."""
PIT_BONUS = 100
"""Bonus for the playing side when it wins all eight tricks (the same page, Pit); not roem of a trick."""


def _longest_run(positions: Sequence[int]) -> int:
    """Length of the longest run of consecutive numbers among ``positions``."""
    ordered = sorted(set(positions))
    best = run = 1 if ordered else 0
    for previous, current in zip(ordered, ordered[1:], strict=False):
        run = run + 1 if current == previous + 1 else 1
        best = max(best, run)
    return best


def roem_parts(cards: Sequence[Card], trump: Suit) -> tuple[tuple[str, int], ...]:
    """The roem in one trick as ``(kind, value)`` pairs: ``sequence-3``, ``sequence-4``, ``stuk``,
    ``four-jacks``, ``four-of-a-kind`` (of another rank). Four of a kind of 7, 8 or 9 is worth
    nothing and is not listed."""
    first = cards[0]
    if len(cards) == 4 and all(card.rank is first.rank for card in cards):
        value = FOUR_OF_A_KIND_ROEM[first.rank]
        kind = "four-jacks" if first.rank is Rank.JACK else "four-of-a-kind"
        return ((kind, value),) if value else ()
    parts: list[tuple[str, int]] = []
    seen: list[Suit] = []
    for card in cards:
        if card.suit in seen:
            continue
        seen.append(card.suit)
        same = [other.rank.index for other in cards if other.suit is card.suit]
        length = _longest_run(same) if len(same) >= 3 else 0
        if length >= 3:
            parts.append((f"sequence-{min(length, 4)}", SEQUENCE_ROEM[min(length, 4)]))
    trumps = [card.rank for card in cards if card.suit is trump]
    if Rank.KING in trumps and Rank.QUEEN in trumps:
        parts.append(("stuk", STUK_ROEM))
    return tuple(parts)


def roem_cards(cards: Sequence[Card], trump: Suit) -> frozenset[Card]:
    """The cards of one trick that make its roem (:func:`roem_parts`): the longest run of each
    suit when it holds three or more, the K and Q of trumps, four of a kind worth something.

    >>> from klabsite.engine.cards import parse_cards
    >>> sorted(str(card) for card in roem_cards(parse_cards("7C 8C 9C JC"), trump=Suit.HEARTS))
    ['7C', '8C', '9C']
    """
    first = cards[0]
    if len(cards) == 4 and all(card.rank is first.rank for card in cards):
        return frozenset(cards) if FOUR_OF_A_KIND_ROEM[first.rank] else frozenset()
    marked: set[Card] = set()
    for suit in {card.suit for card in cards}:
        ordered = sorted((card for card in cards if card.suit is suit), key=lambda card: card.rank.index)
        runs: list[list[Card]] = []
        for card in ordered:
            if runs and card.rank.index == runs[-1][-1].rank.index + 1:
                runs[-1].append(card)
            else:
                runs.append([card])
        longest = max(runs, key=len)
        if len(longest) >= 3:
            marked.update(longest)
    stuk = [card for card in cards if card.suit is trump and card.rank in (Rank.KING, Rank.QUEEN)]
    if len(stuk) == 2:
        marked.update(stuk)
    return frozenset(marked)


def _run_roem(ranks: int) -> int:
    """Sequence roem of one suit's cards in a trick, given as a mask of rank indices (bit 0 = 7)."""
    positions = [index for index in range(8) if ranks >> index & 1]
    length = _longest_run(positions) if len(positions) >= 3 else 0
    return SEQUENCE_ROEM[min(length, 4)] if length >= 3 else 0


RUN_ROEM: tuple[int, ...] = tuple(_run_roem(ranks) for ranks in range(256))
"""``RUN_ROEM[ranks]``: the sequence roem of one suit whose ranks in the trick are ``ranks``."""
_STUK = 1 << Rank.KING.index | 1 << Rank.QUEEN.index


def trick_roem(cards: Sequence[Card], trump: Suit) -> int:
    """The total roem among the cards of one trick: the sum of :func:`roem_parts`' values,
    computed from a rank mask per suit (the engine calls this for every trick)."""
    rank = cards[0].rank
    if len(cards) == 4 and all(card.rank is rank for card in cards):
        return FOUR_OF_A_KIND_ROEM[rank]
    ranks = [0, 0, 0, 0]
    for card in cards:
        index = card.index
        ranks[index >> 3] |= 1 << (index & 7)
    roem = RUN_ROEM[ranks[0]] + RUN_ROEM[ranks[1]] + RUN_ROEM[ranks[2]] + RUN_ROEM[ranks[3]]
    if ranks[trump.index] & _STUK == _STUK:
        roem += STUK_ROEM
    return roem
