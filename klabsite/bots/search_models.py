"""What the other players' bids and cards say about their hands: a model of how they bid and
play, and worlds drawn in proportion to how well they fit it.

The model is the heuristic (:mod:`klabsite.bots.heuristic_klaverjas`,
:mod:`klabsite.bots.heuristic_klaberjass`): in a sampled world, would the player have made the
bid he made, holding the cards the world gives him (:func:`klaverjas_fit`)? Would an opponent
have played the card he played, holding his cards of the world at that moment
(:func:`klaverjas_play_fit`)? A world in which everything fits keeps weight 1; each bid that
does not multiplies it by :data:`MISFIT`, each card by :data:`PLAY_MISFIT` (players are not all
the heuristic, so no world is ruled out). :func:`fitting_layouts` draws worlds with probability
proportional to that weight, by rejection from the uniform sampler.

>>> from klabsite.engine.cards import mask_of, parse_cards
>>> from klabsite.engine.options import KlaverjasRules
>>> strong = mask_of(parse_cards("JH 9H AH TH AC TC AS 7D"))
>>> klaverjas_bid(strong, KlaverjasRules(), None, 0)
('name', <Suit.HEARTS: 'H'>)
>>> turned = KlaverjasRules(trump_choice="turned")
>>> klaverjas_bid(strong, turned, Suit.CLUBS, 0), klaverjas_bid(strong, turned, Suit.CLUBS, 4)
(('pass', None), ('name', <Suit.HEARTS: 'H'>))
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, NamedTuple, Protocol

from klabsite.bots.heuristic_klaverjas import NAME_AT, choose_card
from klabsite.bots.heuristic_klaverjas import trump_value as klaverjas_value
from klabsite.bots.inference import Knowledge, Place
from klabsite.bots.worlds import initial_hands
from klabsite.engine.cards import SUITS, Card, Suit, cards_of, mask_of
from klabsite.engine.fast import klaverjas as fast4
from klabsite.engine.klaverjas import KlaverjasView
from klabsite.engine.options import KlaverjasRules
from klabsite.engine.seats import CLOCKWISE, Seat

__all__ = ["MISFIT", "PLAY_MISFIT", "Bid", "klaverjas_bid", "klaverjas_fit", "klaverjas_play_fit",
           "fitting_layouts", "bid_order"]

MISFIT = 0.2
"""The weight a world loses for each bid the model would not have made in it."""

PLAY_MISFIT = 0.3
"""The weight a world loses for each card an opponent played that the model would not have."""

Bid = tuple[str, Suit | None]
"""A bid as its word and suit: ``("pass", None)``, ``("name", Suit.HEARTS)``, ``("take", None)``."""
Layout = dict[Place, int]


class Weight(Protocol):
    """A world's weight (at most 1); it may stop counting once it is at most ``floor``."""

    def __call__(self, layout: Layout, floor: float = 0.0) -> float: ...


def _best(hand: int, suits: tuple[Suit, ...]) -> tuple[Suit, float]:
    values = {suit: klaverjas_value(hand, suit.index) for suit in suits}
    best = max(suits, key=lambda suit: (values[suit], -suit.index))
    return best, values[best]


def klaverjas_bid(hand: int, rules: KlaverjasRules, proposed: Suit | None, number: int) -> Bid:
    """The heuristic's bid with ``hand`` (a mask) as bid ``number`` (0 is the first; 4 comes after
    four passes, and with ``trump-choice=forced`` the only bid is 0 and must name)."""
    choice = rules.trump_choice
    if choice == "turned":
        assert proposed is not None
        if number >= 4:
            return "name", _best(hand, tuple(suit for suit in SUITS if suit is not proposed))[0]
        return ("take", None) if klaverjas_value(hand, proposed.index) >= NAME_AT else ("pass", None)
    suit, value = _best(hand, SUITS)
    if choice == "forced" or number >= 4 or value >= NAME_AT:
        return "name", suit
    return "pass", None


def bid_order(dealer: Seat) -> tuple[Seat, ...]:
    """The Klaverjas seats in bidding order: left of the dealer first."""
    order = [dealer.left]
    while len(order) < 4:
        order.append(order[-1].left)
    return tuple(order)


def klaverjas_fit(view: KlaverjasView, knowledge: Knowledge, misfit: float = MISFIT,
                  partner_misfit: float | None = None) -> Weight:
    """The weight of a world: ``misfit`` to the power of the others' bids the model would not
    have made in it (their hands as dealt: held now and played); the partner's bids count
    ``partner_misfit`` instead, when it is given."""
    bids = [(number, bid) for number, bid in enumerate(view.bids) if bid.seat is not view.seat]
    rules, proposed = view.rules, view.proposed
    partner = view.seat.partner
    partner_factor = misfit if partner_misfit is None else partner_misfit

    def weight(layout: Mapping[Place, int], floor: float = 0.0) -> float:
        hands = initial_hands(view, knowledge, layout)
        out = 1.0
        for number, bid in bids:
            if klaverjas_bid(hands[bid.seat], rules, proposed, number) != (bid.word, bid.suit):
                out *= partner_factor if bid.seat is partner else misfit
        return out
    return weight


def fitting_layouts(draw: Callable[[], Layout], weight: Weight, rng: random.Random,
                    tries: int = 40, adaptive: bool = False) -> Callable[[], Layout]:
    """Worlds drawn with probability proportional to ``weight`` (at most 1), by rejection from
    ``draw``; after ``tries`` rejections the world that fitted best is taken.

    A try is accepted when its weight beats a threshold drawn uniformly below the *bound*, 1.
    With ``adaptive``, when every try of a world fails, no world fits well (the others do not play like
    the model): the bound falls to the best weight seen, so that the next worlds are still
    drawn in proportion to their weight without 40 tries each; a weight above the bound raises
    it again. The threshold of each try is drawn before its weight, so that the weight may stop
    counting as soon as it falls below it (``weight(layout, floor)``)."""
    bound = 1.0

    def fitted() -> Layout:
        nonlocal bound
        best, best_weight = None, -1.0
        for _ in range(tries):
            layout = draw()
            threshold = rng.random() * bound
            value = weight(layout, threshold)
            if threshold < value:
                bound = max(bound, min(value, 1.0))
                return layout
            if value > best_weight:
                best, best_weight = layout, value
        assert best is not None
        if adaptive:
            bound = best_weight
        return best
    return fitted


class _Moment(NamedTuple):
    """An opponent's card as the play fit asks about it."""

    who: Seat
    card: int
    number: int
    """The trick's number (0 is the first)."""
    before: tuple[tuple[Seat, Card], ...]
    """The trick's cards before his."""
    later: int
    """His cards played from then on (he held them then)."""
    sizes: dict[Seat, int]
    """Every hand's size then."""
    key: tuple[Any, ...]
    """What the heuristic's choice depends on besides his hand: the rules and the public history."""


_PLAY_FITS: dict[tuple[Any, ...], bool] = {}
"""Whether the heuristic plays a card in a position (its key: the rules, the public history and
the hand), kept across decisions: the same questions come back at every card of a deal."""
_PLAY_FITS_SIZE = 200_000


_CardPlay = tuple[Seat, Card, int, tuple[tuple[Seat, Card], ...]]
"""A card played: who, the card, the trick's number (0 is the first) and the trick's cards before it."""


def _card_plays(view: KlaverjasView) -> list[_CardPlay]:
    """Every card played so far, in the order played."""
    plays: list[_CardPlay] = []
    for number, won in enumerate(view.tricks):
        plays.extend((who, card, number, won.cards[:i]) for i, (who, card) in enumerate(won.cards))
    plays.extend((who, card, len(view.tricks), view.trick[:i]) for i, (who, card) in enumerate(view.trick))
    return plays


def klaverjas_play_fit(view: KlaverjasView, knowledge: Knowledge, recent: int = 16,
                       misfit: float = PLAY_MISFIT) -> Weight:
    """The weight of a world by the opponents' last ``recent`` cards (not forced): ``misfit`` to
    the power of those the heuristic (:func:`~klabsite.bots.heuristic_klaverjas.choose_card`)
    would not have played, holding his cards of the world at that moment."""
    trump = view.trump
    assert trump is not None
    rotterdam, undertrump = fast4.flags(view.rules)
    plays = _card_plays(view)
    public = (view.rules, view.dealer, view.proposed, view.bids, trump, view.playing)
    history = tuple((who, card.index) for who, card, _, _ in plays)
    moments = []
    for index, (who, card, number, before) in enumerate(plays):
        if who.side is view.seat.side:
            continue
        later = mask_of(c for w, c, _, _ in plays[index:] if w is who)
        sizes = {seat: 8 - sum(1 for w, _, _, _ in plays[:index] if w is seat) for seat in CLOCKWISE}
        moments.append(_Moment(who, card.index, number, before, later, sizes, (public, history[:index + 1])))
    moments = moments[max(0, len(moments) - recent):]
    if len(_PLAY_FITS) > _PLAY_FITS_SIZE:
        _PLAY_FITS.clear()

    def fits(moment: _Moment, hand: int) -> bool:
        fit = _PLAY_FITS.get((moment.key, hand))
        if fit is None:
            legal = fast4.legal_mask(hand, [c.index for _, c in moment.before], trump.index, rotterdam,
                                     undertrump)
            fit = legal & (legal - 1) == 0 or choose_card(
                replace(view, seat=moment.who, to_act=moment.who, hand=tuple(cards_of(hand)),
                        hand_sizes=moment.sizes, trick=moment.before, tricks=view.tricks[:moment.number],
                        legal=()), legal) == moment.card
            _PLAY_FITS[moment.key, hand] = fit
        return fit

    def weight(layout: Mapping[Place, int], floor: float = 0.0) -> float:
        out = 1.0
        for moment in moments:
            if not fits(moment, layout[moment.who] | moment.later):
                out *= misfit
                if out <= floor:
                    break
        return out
    return weight


def product(*weights: Weight) -> Weight:
    """The product of world weights."""
    def weight(layout: Layout, floor: float = 0.0) -> float:
        out = 1.0
        for one in weights:
            out *= one(layout, floor / out)
            if out <= floor:
                break
        return out
    return weight
