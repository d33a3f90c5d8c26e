"""Helpers for the bot tests: seeded deals played by bots, every option set, and replaying a
deal's actions on a deck rebuilt from a sample of the hidden cards.

Imported as ``tests.bots_positions``.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from klabsite.bots import get_bot
from klabsite.bots.inference import STOCK, Knowledge
from klabsite.bots.search_play import layouts
from klabsite.bots.worlds import deck_for
from klabsite.engine.actions import Action, ActionKind
from klabsite.engine.cards import DECK, SUITS, mask_of
from klabsite.engine.events import Event
from klabsite.engine.klaberjass import KlaberjassDeal
from klabsite.engine.klaverjas import KlaverjasDeal
from klabsite.engine.melds import Talk, opening_talk, reply_talk
from klabsite.engine.options import KlaberjassRules, KlaverjasRules
from klabsite.engine.seats import Seat

KLABERJASS_OPTIONS = {
    "schmeiss": ("on", "off"), "schmeiss_refused": ("schmeisser-makes", "refuser-makes"),
    "schmeiss_round_2": ("off", "on"), "long_sequence": (50, 100), "equal_meld": ("neither", "elder"),
    "no_trick_melds": ("score", "void"), "must_beat": ("trump-lead", "any-lead"),
    "equal_score": ("maker-scores-nothing", "next-deal-winner"),
}
KLAVERJAS_OPTIONS = {
    "trump_choice": ("free", "forced", "turned"), "trick_rules": ("amsterdam", "rotterdam"),
    "undertrump": ("required", "forbidden"),
}


def every_option_set(game: str) -> list[KlaberjassRules | KlaverjasRules]:
    """Every combination of the options that change how a deal is played."""
    options, cls = ((KLABERJASS_OPTIONS, KlaberjassRules) if game == "klaberjass"
                    else (KLAVERJAS_OPTIONS, KlaverjasRules))
    names = list(options)
    return [cls(**dict(zip(names, values, strict=True))) for values in itertools.product(*options.values())]


@dataclass
class Position:
    """A deal in progress (the live engine object) and how it got there."""

    deal: Any
    rules: Any
    proposed: Any
    history: list[tuple[Action, tuple[Event, ...]]] = field(default_factory=list)

    @property
    def game(self) -> str:
        return "klaberjass" if isinstance(self.deal, KlaberjassDeal) else "klaverjas"


def new_deal(rules: Any, rng: random.Random) -> Position:
    """A deal with a shuffled deck, a random dealer and (``turned``) a random proposed suit."""
    deck = list(DECK)
    rng.shuffle(deck)
    if isinstance(rules, KlaberjassRules):
        return Position(KlaberjassDeal(rules, rng.choice((Seat.N, Seat.S)), deck), rules, None)
    proposed = rng.choice(SUITS) if rules.trump_choice == "turned" else None
    return Position(KlaverjasDeal(rules, rng.choice(tuple(Seat)), deck, proposed=proposed), rules, proposed)


def positions(rules: Any, rng: random.Random, bot_names: Sequence[str]) -> Iterator[Position]:
    """Every position of one deal played by the bots named (one per seat, cycled), each yielded
    before its action is chosen; the action is then chosen and applied (and checked legal)."""
    position = new_deal(rules, rng)
    deal = position.deal
    seats = (Seat.N, Seat.S) if position.game == "klaberjass" else tuple(Seat)
    bots = {seat: get_bot(name) for seat, name in zip(seats, itertools.cycle(bot_names))}
    while not deal.is_over:
        yield position
        seat = deal.to_act
        legal = deal.legal_actions()
        action = bots[seat].choose(deal.view_for(seat), legal, rng)
        assert any(action is candidate for candidate in legal), (action, legal)
        position.history.append((action, deal.apply(action)))


def replay(position: Position, seat: Seat, knowledge: Knowledge, layout: dict[Any, int],
           rng: random.Random) -> Any:
    """The deal's actions so far, played again on the deck rebuilt from ``layout``; returns the
    new deal. The other player's Klaberjass declaration is replaced, when his sampled cards do
    not allow it, by one that they allow and that makes the same table talk; a ``nomeld`` is
    added when his sampled cards hold a sequence and he had played without declaring."""
    deal = position.deal
    view = deal.view_for(seat)
    deck = deck_for(view, knowledge, layout, rng)
    if position.game == "klaverjas":
        new = KlaverjasDeal(position.rules, deal.dealer, deck, proposed=position.proposed)
    else:
        new = KlaberjassDeal(position.rules, deal.dealer, deck)
    for action, events in position.history:
        if position.game == "klaberjass" and action.seat is not seat:
            action = _declaration(new, action, events)
        new.apply(action)
    return new


def _declaration(new: KlaberjassDeal, action: Action, events: tuple[Event, ...]) -> Action:
    """The other player's action, adapted to his sampled cards (see :func:`replay`)."""
    legal = new.legal_actions()
    if action.kind is ActionKind.PLAY and not any(a.kind is ActionKind.PLAY for a in legal):
        new.apply(next(a for a in legal if a.kind is ActionKind.NOMELD))
        return action
    if action.kind is not ActionKind.MELD or any(a.same_as(action) for a in legal):
        return action
    said = tuple(phrase for event in events if isinstance(event, Talk) for phrase in event.phrases)
    long = new.rules.long_sequence
    for candidate in legal:  # a silence can say "Good." too
        if candidate.kind not in (ActionKind.MELD, ActionKind.NOMELD):
            continue
        if action.seat is new.elder:
            talk = opening_talk(action.seat, candidate.melds, long)
        else:
            talk = reply_talk(new.elder, new.declared.get(new.elder, ()), action.seat, candidate.melds,
                              new.trump, long)
        if talk == said:
            return candidate
    raise AssertionError(f"no declaration of the sampled hand makes the talk {said}")


def hidden_truth(deal: Any, place: Any) -> int:
    """The cards really at a hidden place (a seat's hand, or the Klaberjass stock's hidden part)."""
    if place == STOCK:
        stock = mask_of(deal.stock)
        return stock & ~deal.bottom.bit if deal.bottom is not None else stock
    return mask_of(deal.hands[place])


def weight_exponents(weight: Any, knowledge: Knowledge, factor: float, rng: random.Random, draws: int) -> set[int]:
    """The powers of ``factor`` that a world weight gives ``draws`` uniformly drawn worlds, checking
    that each weight is such a power and that stopping at a random floor tells the same side of
    the floor as counting to the end."""
    exponents = set()
    draw = layouts(knowledge, rng)
    for _ in range(draws):
        layout = draw()
        full = weight(layout)
        exponent = round(math.log(full, factor))
        assert math.isclose(full, factor ** exponent, rel_tol=1e-6)
        exponents.add(exponent)
        floor = rng.random()
        assert (weight(layout, floor) > floor) is (full > floor)
    return exponents
