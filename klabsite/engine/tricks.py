"""Tricks: who wins one, and what it is worth. Shared by both games.

>>> from klabsite.engine.cards import parse_cards, Suit
>>> trick = parse_cards("AH JH 9S TH")
>>> trick_winner_index(trick, trump=Suit.HEARTS)   # the jack of trumps beats the ace
1
>>> trick_points(trick, trump=Suit.HEARTS)
41
"""

from __future__ import annotations

from collections.abc import Sequence

from klabsite.engine.cards import Card, Suit, points, strength

__all__ = ["trick_winner_index", "trick_points", "LAST_TRICK_BONUS"]

LAST_TRICK_BONUS = 10
"""The last trick scores 10 in both games."""


def trick_winner_index(cards: Sequence[Card], trump: Suit) -> int:
    """Index in play order of the card winning ``cards`` (the first card led).

    The highest trump wins; without trumps, the highest card of the suit led. Strength comes
    from the trump-keyed tables, never from raw card indices.
    """
    best = 0
    for i, card in enumerate(cards[1:], start=1):
        top = cards[best]
        if card.suit is top.suit:
            if strength(card, trump) > strength(top, trump):
                best = i
        elif card.suit is trump:
            best = i
    return best


def trick_points(cards: Sequence[Card], trump: Suit) -> int:
    """The card points in ``cards`` (without the last-trick bonus)."""
    return sum(points(card, trump) for card in cards)
