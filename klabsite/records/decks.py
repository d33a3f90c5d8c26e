"""Decks derived from a seed string (docs/record-format.md, "How the deck is dealt").

The same seed gives the same deal everywhere, in any language and Python version: the 32
canonical card names are sorted by the SHA-256 digest of ``"<seed>:<deal number>:<card>"``
(UTF-8), ascending; the first card of the result is the top of the pack. A simulated record
stores its decks, so reading it never depends on this rule.

>>> deck = deck_from_seed("demo", 1)
>>> len(deck), len(set(deck))
(32, 32)
>>> deck == deck_from_seed("demo", 1) != deck_from_seed("demo", 2)
True
"""

from __future__ import annotations

import hashlib

from klabsite.engine.cards import DECK, Card

__all__ = ["deck_from_seed", "seed_digest"]


def seed_digest(seed: str, deal: int, card: Card) -> bytes:
    """The SHA-256 digest that places ``card`` in the deck of deal ``deal`` for ``seed``."""
    return hashlib.sha256(f"{seed}:{deal}:{card}".encode()).digest()


def deck_from_seed(seed: str, deal: int) -> tuple[Card, ...]:
    """The deck of deal number ``deal`` (1, 2, …) for ``seed``, top of the pack first."""
    return tuple(sorted(DECK, key=lambda card: seed_digest(seed, deal, card)))
