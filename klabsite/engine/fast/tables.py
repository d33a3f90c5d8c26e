"""Integer tables for card masks, derived once from the rule tables in :mod:`klabsite.engine.cards`.

Card ``i`` is bit ``i`` (suit-major: clubs 0–7, diamonds 8–15, hearts 16–23, spades 24–31, the
ranks within a suit in natural order 7 … A).
"""

from __future__ import annotations

from klabsite.engine.cards import DECK, SUITS, points, strength

__all__ = ["SUIT_MASKS", "STRENGTH", "POINTS", "SUIT_OF", "FULL_DECK"]

FULL_DECK = (1 << 32) - 1
SUIT_MASKS: tuple[int, ...] = tuple(0xFF << (8 * s) for s in range(4))
"""SUIT_MASKS[s]: the eight cards of suit index ``s``."""
SUIT_OF: tuple[int, ...] = tuple(card.suit.index for card in DECK)
"""SUIT_OF[i]: the suit index of card ``i``."""
STRENGTH: tuple[tuple[int, ...], ...] = tuple(
    tuple(strength(card, trump) for card in DECK) for trump in SUITS
)
"""STRENGTH[trump][i]: trick strength of card ``i`` (trumps 9–16, plain 1–8)."""
POINTS: tuple[tuple[int, ...], ...] = tuple(tuple(points(card, trump) for card in DECK) for trump in SUITS)
"""POINTS[trump][i]: card points of card ``i``."""
