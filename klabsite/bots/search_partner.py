"""The partner as a searcher: a Klaverjas world fits the partner's cards when each was among his
best, double dummy, in that world.

The heuristic is a poor model of the search bot's partner (he is a search bot too), but the
search bot plays, in most positions, a card that is best when every hand is seen. So a world in
which the partner's card at some moment was worse, double dummy, than another card he held then
is less likely: it loses a factor ``misfit`` for each such card (:func:`klaverjas_partner_fit`).

Each such question solves the position the partner faced, once for every class of
interchangeable cards he could have played, so it is asked only of cards played from trick
``since`` on, when the positions are small.

Measured, it is not worth it, and it is not the default (``SearchStyle.partner_best``): the
partner's cards were best double dummy in the true deal no more often than in drawn worlds (what
is best depends on the opponents' cards, which he did not know), and the bot lost 6.1 ± 2.4
points a deal with it (``search-dd`` in ``benchmarks/search_variants.py``).

>>> from klabsite.engine.actions import Action
>>> from klabsite.engine.cards import DECK, Suit
>>> from klabsite.engine.klaverjas import KlaverjasDeal, KlaverjasRules
>>> from klabsite.engine.seats import Seat
>>> deal = KlaverjasDeal(KlaverjasRules(), Seat.W, DECK)
>>> _ = deal.apply(Action.name(Seat.N, Suit.SPADES))
>>> from klabsite.bots.inference import infer_klaverjas
>>> view = deal.view_for(Seat.N)
>>> klaverjas_partner_fit(view, infer_klaverjas(view))({})     # the partner has not played
1.0
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import NamedTuple

from klabsite.bots.inference import Knowledge, Place
from klabsite.bots.search_models import Weight, card_plays
from klabsite.bots.search_positions import klaverjas_world
from klabsite.bots.search_worlds import card_classes
from klabsite.engine.cards import mask_of
from klabsite.engine.fast import klaverjas as fast4
from klabsite.engine.klaverjas import KlaverjasView
from klabsite.engine.seats import CLOCKWISE, Seat
from klabsite.solver.klaverjas import KlaverjasPosition, KlaverjasSolver

__all__ = ["PARTNER_MISFIT", "PARTNER_SINCE", "klaverjas_partner_fit"]

PARTNER_MISFIT = 0.5
"""The weight a world loses for each of the partner's cards that was not among his best in it."""

PARTNER_SINCE = 2
"""The first trick (0 is the first) whose partner's cards are asked about."""


class _Moment(NamedTuple):
    """One of the partner's cards, with the position he played it in (its hands left empty)."""

    card: int
    later: dict[Seat, int]
    """Each seat's cards played from then on (held then), the partner's card included."""
    position: KlaverjasPosition


def _moments(view: KlaverjasView, knowledge: Knowledge, since: int) -> list[_Moment]:
    """The partner's cards from trick ``since`` on, with the positions he played them in as far
    as they are the same in every world."""
    partner = view.seat.partner
    plays = card_plays(view)
    moments = []
    for index, (who, card, number, before) in enumerate(plays):
        if who is not partner or number < since:
            continue
        later = {seat: mask_of(c for w, c, _, _ in plays[index:] if w is seat) for seat in CLOCKWISE}
        then = replace(view, to_act=partner, trick=before, tricks=view.tricks[:number])
        position = klaverjas_world(then, knowledge, dict.fromkeys(CLOCKWISE, 0))
        moments.append(_Moment(card.index, later, position))
    return moments


def klaverjas_partner_fit(view: KlaverjasView, knowledge: Knowledge, misfit: float = PARTNER_MISFIT,
                          since: int = PARTNER_SINCE) -> Weight:
    """The weight of a world by the partner's cards from trick ``since`` on: ``misfit`` to the
    power of those worse, double dummy in that world, than another card he could have played."""
    trump, playing = view.trump, view.playing
    assert trump is not None and playing is not None
    partner = view.seat.partner
    moments = _moments(view, knowledge, since)
    rotterdam, undertrump = fast4.flags(view.rules)
    sign = 1 if partner.side is playing else -1
    solver = KlaverjasSolver()

    def fits(moment: _Moment, layout: Mapping[Place, int]) -> bool:
        hands = tuple((knowledge.hand if seat is view.seat else layout[seat]) | moment.later[seat]
                      for seat in CLOCKWISE)
        held = hands[partner.index]
        trick = moment.position.trick
        legal = fast4.legal_mask(held, trick, trump.index, rotterdam, undertrump)
        if legal & (legal - 1) == 0:
            return True
        position = replace(moment.position, hands=hands)
        others = (hands[0] | hands[1] | hands[2] | hands[3]) & ~held
        for card in trick:
            others |= 1 << card
        played = sign * solver.playing_value(position.play(moment.card))
        for cards in card_classes(held, others, trump.index, True):
            playable = cards & legal
            if not playable or playable >> moment.card & 1:
                continue
            card = (playable & -playable).bit_length() - 1
            if sign * solver.playing_value(position.play(card), sign * played) > played:
                return False
        return True

    def weight(layout: Mapping[Place, int], floor: float = 0.0) -> float:
        out = 1.0
        for moment in moments:
            if not fits(moment, layout):
                out *= misfit
                if out <= floor:
                    break
        return out
    return weight
