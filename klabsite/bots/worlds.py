"""Whole deals from a sample: the deck that deals the seat's own cards, the sampled hidden cards
and the cards already played, so that the deal's public actions can be played again on it.

A search bot samples layouts of the hidden cards (:meth:`Knowledge.sampler
<klabsite.bots.inference.Knowledge.sampler>`) and turns each into a deck here; tests replay the
real actions on such decks to check that every sample is consistent with the play.

>>> import random
>>> from klabsite.bots.inference import infer
>>> from klabsite.cards import DECK
>>> from klabsite.klaverjas import KlaverjasDeal, KlaverjasRules, deal_hands
>>> from klabsite.seats import Seat
>>> deal = KlaverjasDeal(KlaverjasRules(), Seat.W, DECK)
>>> view = deal.view_for(Seat.N)
>>> knowledge = infer(view)
>>> deck = deck_for(view, knowledge, knowledge.sample(random.Random(7)), random.Random(7))
>>> deal_hands(Seat.W, deck)[Seat.N] == view.hand
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from klabsite.bots.inference import STOCK, Knowledge, Place
from klabsite.cards import Card, cards_of, mask_of
from klabsite.klaberjass import KlaberjassView, Phase, stack_deck
from klabsite.klaverjas import KlaverjasView, deck_from_hands
from klabsite.seats import Seat

__all__ = ["deck_for", "initial_hands"]

_BIDDING = (Phase.BIDDING_1, Phase.SCHMEISS, Phase.BIDDING_2, Phase.NAMING)


def initial_hands(view: Any, knowledge: Knowledge, layout: Mapping[Place, int]) -> dict[Seat, int]:
    """Each seat's cards as dealt (masks), from a layout of the hidden cards: what it holds now
    and what it has played; in Klaberjass the dix is undone (the exchanger held the 7 of trumps)."""
    hands = {knowledge.seat: knowledge.hand | knowledge.played[knowledge.seat]}
    for place, mask in layout.items():
        if isinstance(place, Seat):
            hands[place] = mask | knowledge.played[place]
    dix = getattr(view, "dix", None)
    if dix is not None and dix.exchanged:
        hands[dix.seat] = hands[dix.seat] & ~dix.upcard.bit | dix.seven.bit
    return hands


def deck_for(view: KlaberjassView | KlaverjasView, knowledge: Knowledge, layout: Mapping[Place, int],
             rng: random.Random) -> tuple[Card, ...]:
    """A deck that deals the seat's cards and the ``layout`` of the hidden cards.

    Klaverjas: the deck of :func:`~klabsite.klaverjas.deck_from_hands`. Klaberjass: the upcard
    (the one turned at the deal, before any dix) and the bottom card where they were; during the
    bidding the stock's order, which decides the three cards each player receives, is shuffled
    with ``rng``; afterwards the first six of each hand are taken as the ones dealt first (which
    six does not matter to the play).
    """
    hands = initial_hands(view, knowledge, layout)
    if isinstance(view, KlaverjasView):
        return deck_from_hands(view.dealer, {seat: cards_of(mask) for seat, mask in hands.items()})
    elder = Seat.S if view.dealer is Seat.N else Seat.N
    if view.phase in _BIDDING:
        stock = cards_of(layout[STOCK])
        rng.shuffle(stock)
        first = {seat: cards_of(mask) for seat, mask in hands.items()}
        return stack_deck(first[elder] + stock[0:3], first[view.dealer] + stock[3:6], view.upcard, stock[-1])
    upcard = view.dix.upcard if view.dix is not None and view.dix.exchanged else view.upcard
    assert view.bottom is not None
    used = mask_of([upcard, view.bottom])
    assert not any(mask & used for mask in hands.values())
    return stack_deck(cards_of(hands[elder]), cards_of(hands[view.dealer]), upcard, view.bottom)
