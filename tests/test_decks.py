"""Decks from a seed (record-format.md, "Decks from a seed")."""

from __future__ import annotations

import hashlib

from klabsite.engine.cards import DECK
from klabsite.records.decks import deck_from_seed


def test_deck_from_seed_sorts_card_names_by_sha256_of_seed_deal_and_card():
    names = sorted((str(card) for card in DECK),
                   key=lambda name: hashlib.sha256(f"demo:3:{name}".encode()).hexdigest())
    assert [str(card) for card in deck_from_seed("demo", 3)] == names


def test_deck_from_seed_is_a_whole_pack():
    deck = deck_from_seed("20261130-7", 1)
    assert len(deck) == 32 and set(deck) == set(DECK)


def test_deck_from_seed_depends_on_seed_and_deal_number_only():
    assert deck_from_seed("demo", 1) == deck_from_seed("demo", 1)
    assert deck_from_seed("demo", 1) != deck_from_seed("demo", 2)
    assert deck_from_seed("demo", 1) != deck_from_seed("demó", 1)


def test_deck_from_seed_golden_value():
    # Pinned so that a change of the rule (which would change every simulated record) is noticed.
    assert " ".join(str(card) for card in deck_from_seed("demo", 1)[:8]) == GOLDEN


GOLDEN = "TS 8H JD KD 9H AH JC AC"
