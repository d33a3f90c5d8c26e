"""The search bot's card play in both games: perfect-information Monte Carlo with the solver.

For each legal card (one per class of interchangeable cards,
:func:`~klabsite.bots.search_worlds.card_classes`) and each sampled world, the card's exact
double-dummy value (:mod:`klabsite.solver`) for the seat's side; the card with the best mean is
played. In Klaberjass the second of K and Q of trumps is two options, claiming bella and not,
each valued with its claim settled. A Klaberjass declaration (which sequences to declare, or
none) is chosen the same way: each one's value with the best card after it, in every world.

>>> import random
>>> from klabsite.engine.actions import Action
>>> from klabsite.engine.cards import parse_cards, Suit
>>> from klabsite.engine.klaverjas import KlaverjasDeal, KlaverjasRules, deck_from_hands
>>> from klabsite.engine.seats import Seat
>>> hands = {Seat.N: parse_cards("JH 9H AH TH KH QH 8H 7H"), Seat.E: parse_cards("7C 8C 9C TC JC QC KC AC"),
...          Seat.S: parse_cards("7D 8D 9D TD JD QD KD AD"), Seat.W: parse_cards("7S 8S 9S TS JS QS KS AS")}
>>> deal = KlaverjasDeal(KlaverjasRules(), Seat.W, deck_from_hands(Seat.W, hands))
>>> _ = deal.apply(Action.name(Seat.N, Suit.HEARTS))     # N takes every trick whatever he leads
>>> str(klaverjas_card(deal.view_for(Seat.N), deal.legal_actions(), random.Random(1), Budget(4, 4, 0)))
'N JH'
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from klabsite.bots.heuristic import HeuristicBot
from klabsite.bots.inference import Knowledge, Place, infer_klaberjass, infer_klaverjas
from klabsite.bots.sampling import Sampler
from klabsite.bots.search_positions import klaberjass_world, klaverjas_world
from klabsite.bots.search_worlds import Budget, Tally, card_classes
from klabsite.engine.actions import Action, ActionKind, Meld
from klabsite.engine.cards import mask_of
from klabsite.engine.klaberjass import KlaberjassView
from klabsite.engine.klaverjas import KlaverjasView
from klabsite.solver.deals import PLAYERS
from klabsite.solver.klaberjass import KlaberjassSolver
from klabsite.solver.klaverjas import KlaverjasSolver

__all__ = ["klaverjas_card", "klaberjass_card", "klaberjass_declaration", "Layouts", "layouts"]

_HEURISTIC = HeuristicBot()

Layout = dict[Place, int]
Layouts = Callable[[], Layout]
"""Draws one world (a layout of the hidden cards)."""


def layouts(knowledge: Knowledge, rng: random.Random, sampler: Sampler | None = None) -> Layouts:
    """A function drawing uniform layouts of the hidden cards of ``knowledge``."""
    sampler = sampler or knowledge.sampler()
    places = knowledge.places

    def draw() -> Layout:
        return dict(zip(places, sampler.sample(rng), strict=True))
    return draw


def _classes(knowledge: Knowledge, legal: int, trick: int, trump: int, roem: bool) -> dict[int, int]:
    """One representative legal card (the lowest) per class of interchangeable legal cards, with
    the class's legal cards."""
    out = {}
    for cards in card_classes(knowledge.hand, knowledge.unseen | trick, trump, roem):
        playable = cards & legal
        if playable:
            out[(playable & -playable).bit_length() - 1] = playable
    return out


# ---------------------------------------------------------------------------------------------
# Klaverjas


def klaverjas_card(view: KlaverjasView, legal: Sequence[Action], rng: random.Random, budget: Budget,
                   draw: Layouts | None = None, tie_break: float | None = None) -> Action:
    """The card with the best mean double-dummy value over sampled worlds; with ``tie_break``, the
    heuristic's card when its mean is within ``tie_break`` points of the best."""
    trump = view.trump
    assert trump is not None and view.playing is not None
    knowledge = infer_klaverjas(view)
    plays = {action.card.index: action for action in legal if action.card is not None}
    classes = _classes(knowledge, mask_of(action.card for action in legal if action.card is not None),
                       mask_of(card for _, card in view.trick), trump.index, roem=True)
    if len(classes) == 1:
        return plays[next(iter(classes))]
    draw = draw or layouts(knowledge, rng)
    solver = KlaverjasSolver()
    sign = 1 if view.seat.side is view.playing else -1
    tally: Tally[int] = Tally(list(classes))
    while budget.more(tally.worlds, solver.total_nodes):
        position = klaverjas_world(view, knowledge, draw())
        values: dict[int, float] = {}
        guess = None
        for card in classes:
            guess = solver.playing_value(position.play(card), guess)
            values[card] = sign * guess
        tally.add(values)

    def heuristic() -> int | None:
        card = _HEURISTIC.choose(view, legal, rng).card
        assert card is not None
        return next((rep for rep, cards in classes.items() if cards >> card.index & 1), None)
    return plays[tally.best(heuristic if tie_break is not None else None, tie_break or 0.0)]


# ---------------------------------------------------------------------------------------------
# Klaberjass


def _maker_sign(view: KlaberjassView) -> int:
    return 1 if view.maker is view.seat else -1


def klaberjass_card(view: KlaberjassView, legal: Sequence[Action], rng: random.Random, budget: Budget,
                    draw: Layouts | None = None, tie_break: float | None = None) -> Action:
    """The card (and, with the second of K and Q of trumps, the bella claim) with the best mean
    double-dummy value over sampled worlds; with ``tie_break``, the heuristic's when its mean is
    within ``tie_break`` points of the best."""
    trump = view.trump
    assert trump is not None and view.maker is not None
    knowledge = infer_klaberjass(view)
    plays = [action for action in legal if action.kind is ActionKind.PLAY and action.card is not None]
    led = view.trick[0][1].bit if view.trick else 0
    classes = _classes(knowledge, mask_of(action.card for action in plays if action.card is not None), led,
                       trump.index, roem=False)
    options = [action for action in plays if action.card is not None and action.card.index in classes]
    if len(options) == 1:
        return options[0]
    draw = draw or layouts(knowledge, rng)
    solver = KlaberjassSolver()
    sign = _maker_sign(view)
    tally: Tally[Action] = Tally(options)
    while budget.more(tally.worlds, solver.total_nodes):
        position = klaberjass_world(view, knowledge, draw())
        values: dict[Action, float] = {}
        guess = None
        for action in options:
            assert action.card is not None
            after = position.play(action.card.index)
            if after.bella_due() and after.bella_holder == PLAYERS.index(view.seat):
                after = after.settle_bella(action.bella)
            guess = solver.maker_value(after, guess)
            values[action] = sign * guess
        tally.add(values)

    def heuristic() -> Action | None:
        chosen = _HEURISTIC.choose(view, legal, rng)
        assert chosen.card is not None
        return next((option for option in options if option.card is not None and option.bella is chosen.bella
                     and classes[option.card.index] >> chosen.card.index & 1), None)
    return tally.best(heuristic if tie_break is not None else None, tie_break or 0.0)


def klaberjass_declaration(view: KlaberjassView, legal: Sequence[Action], rng: random.Random, budget: Budget,
                           draw: Layouts | None = None) -> Action:
    """The declaration (or silence) with the best mean value, the best card following it, over
    sampled worlds (the other player's declaration still to come chosen perfectly)."""
    assert view.maker is not None
    options = [action for action in legal if action.kind in (ActionKind.MELD, ActionKind.NOMELD)]
    if len(options) == 1:
        return options[0]
    knowledge = infer_klaberjass(view)
    draw = draw or layouts(knowledge, rng)
    solver = KlaberjassSolver()
    sign = _maker_sign(view)
    tally: Tally[Action] = Tally(options)
    while budget.more(tally.worlds, solver.total_nodes):
        layout = draw()
        values: dict[Action, float] = {}
        guess = None
        for action in options:
            declared: Mapping[Any, tuple[Meld, ...]] = {view.seat: action.melds}
            position = klaberjass_world(view, knowledge, layout, declared)
            guess = solver.maker_value(position, guess)
            values[action] = sign * guess
        tally.add(values)
    return tally.best()
