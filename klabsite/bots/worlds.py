"""Whole deals from a sample: the deck that deals the seat's own cards, the sampled hidden cards
and the cards already played, so that the deal's public actions can be played again on it; and
the fast path's card-play position with the sampled hands, for searching from here.

A search bot samples layouts of the hidden cards (:meth:`Knowledge.sampler
<klabsite.bots.inference.Knowledge.sampler>`) and turns each into a deck here; tests replay the
real actions on such decks to check that every sample is consistent with the play.

>>> import random
>>> from klabsite.bots.inference import infer
>>> from klabsite.engine.cards import DECK
>>> from klabsite.engine.klaverjas import KlaverjasDeal, KlaverjasRules, deal_hands
>>> from klabsite.engine.seats import Seat
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
from klabsite.engine.cards import Card, cards_of, mask_of
from klabsite.engine.fast import klaberjass as fast2
from klabsite.engine.fast import klaverjas as fast4
from klabsite.engine.klaberjass import SEATS, KlaberjassView, Phase, opponent_of, stack_deck
from klabsite.engine.klaverjas import KlaverjasView, deck_from_hands
from klabsite.engine.seats import CLOCKWISE, Seat

__all__ = ["deck_for", "initial_hands", "position_for"]

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

    Klaverjas: the deck of :func:`~klabsite.engine.klaverjas.deck_from_hands`. Klaberjass: the upcard
    (the one turned at the deal, before any dix) and the bottom card where they were; during the
    bidding the stock's order, which decides the three cards each player receives, is shuffled
    with ``rng``; afterwards the first six of each hand are taken as the ones dealt first (which
    six does not matter to the play).
    """
    hands = initial_hands(view, knowledge, layout)
    if isinstance(view, KlaverjasView):
        return deck_from_hands(view.dealer, {seat: cards_of(mask) for seat, mask in hands.items()})
    elder = opponent_of(view.dealer)
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


def position_for(view: KlaberjassView | KlaverjasView, knowledge: Knowledge,
                 layout: Mapping[Place, int]) -> fast2.Position | fast4.Position:
    """The fast-path card-play position (:mod:`klabsite.engine.fast`) with the hidden hands of
    ``layout``: the trick in progress and what each player (Klaberjass: card points) or side
    (Klaverjas: points, roem, tricks) has won so far. For the play phase only.
    """
    if view.trump is None:
        raise ValueError("the fast path starts once trump is chosen")
    hands = {knowledge.seat: knowledge.hand}
    hands.update((place, mask) for place, mask in layout.items() if isinstance(place, Seat))
    trick = view.trick
    leader = trick[0][0] if trick else view.to_act
    assert leader is not None
    if isinstance(view, KlaverjasView):
        rotterdam, undertrump = fast4.flags(view.rules)
        position = fast4.Position([hands[seat] for seat in CLOCKWISE], view.trump.index, leader.index,
                                  rotterdam=rotterdam, undertrump=undertrump)
        position.trick = [card.index for _, card in trick]
        position.points, position.roem, position.tricks = fast4.side_tally(view.tricks)
        return position
    trump = view.trump.index
    points = [0, 0]
    plays = view.played[:len(view.played) - len(trick)]
    for winner, trick_points in fast2.finished_tricks(plays, trump):
        points[SEATS.index(winner)] += trick_points
    return fast2.Position([hands[Seat.N], hands[Seat.S]], trump, SEATS.index(leader),
                          view.rules.must_beat == "any-lead", trick[0][1].index if trick else -1, points)
