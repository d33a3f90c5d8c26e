"""The search bot's Klaverjas trump choice: each option solved double-dummy in sampled deals.

Worlds are the other three hands, drawn uniformly among those that fit the bids made so far
(:mod:`klabsite.bots.search_models`). In each world every option gets a value for the seat's
side, the deal's double-dummy value from the first lead (left of the dealer):

- naming a suit (or taking the proposed one): our side plays it;
- passing: the bidding goes on with the others bidding as the model does, holding their cards
  of this world; whoever names makes his side play his suit. If the choice comes back to this
  seat (it must then name), its suit is the one that is best on average over the worlds where
  that happens, not the best of each world: the seat will not know the other hands then either.

Only the suits worth most by the heuristic's valuation are solved (:attr:`TrumpSearch.candidates`),
and a hand far from the heuristic's bar passes or names without search
(:attr:`TrumpSearch.margin`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from klabsite.bots.heuristic_klaverjas import NAME_AT, KlaverjasHeuristic
from klabsite.bots.heuristic_klaverjas import trump_value as klaverjas_value
from klabsite.bots.inference import infer_klaverjas
from klabsite.bots.search_models import bid_order, fitting_layouts, klaverjas_bid, klaverjas_fit
from klabsite.bots.search_play import Layouts, layouts
from klabsite.bots.search_worlds import Budget, confident_best
from klabsite.bots.worlds import initial_hands
from klabsite.engine.actions import Action, ActionKind
from klabsite.engine.cards import Suit, cards_of
from klabsite.engine.klaverjas import KlaverjasDeal, KlaverjasView, deck_from_hands
from klabsite.engine.seats import CLOCKWISE, Seat, Side
from klabsite.solver.klaverjas import KlaverjasPosition, KlaverjasSolver

__all__ = ["TrumpSearch", "klaverjas_trump"]

_HEURISTIC = KlaverjasHeuristic()


@dataclass(frozen=True)
class TrumpSearch:
    """The knobs of the Klaverjas trump search."""

    budget: Budget = field(default_factory=lambda: Budget(worlds=16, min_worlds=6, nodes=10_000_000))
    candidates: int = 2
    """How many suits (the best by the heuristic's valuation) are solved as our trump."""
    playing_bias: float = 30.0
    """Points taken off the playing side's double-dummy value: real play falls short of it, the
    playing side most (measured: 47 points a deal with the heuristic's card play on all seats,
    24 with the search's)."""
    dd_weight: float = 0.5
    """How the value of a deal is found: its double-dummy value (1), the score of the heuristic
    playing it out on every seat (0), or a mix."""
    confidence: float = 1.5
    """The heuristic's bid stands unless another option's mean is better by this many standard
    errors (of the difference, world by world)."""
    margin: float = 30.0
    """No search when the best suit is worth this much more or less than the heuristic's bar:
    name it or pass as the heuristic does."""


def _suits_by_value(hand: int, suits: Sequence[Suit]) -> list[Suit]:
    values = {suit: klaverjas_value(hand, suit.index) for suit in suits}
    return sorted(suits, key=lambda suit: (-values[suit], suit.index))


class _Values:
    """The values of one world's deal for the seat's side, per trump and maker: the double-dummy
    value (less the playing side's bias) and the heuristic's play, mixed by ``dd_weight``."""

    def __init__(self, solver: KlaverjasSolver, hands: dict[Seat, int], view: KlaverjasView,
                 search: TrumpSearch) -> None:
        self.solver, self.search, self.view = solver, search, view
        self.hands = hands
        self.side = view.seat.side
        self._cache: dict[tuple[Suit, Seat], float] = {}

    def _dd(self, trump: Suit, playing: Side) -> float:
        rules = self.view.rules
        position = KlaverjasPosition(tuple(self.hands[seat] for seat in CLOCKWISE), trump.index,
                                     0 if playing is Side.NS else 1, self.view.dealer.left.index,
                                     rotterdam=rules.trick_rules == "rotterdam",
                                     undertrump=rules.undertrump == "required")
        return self.solver.playing_value(position) - self.search.playing_bias

    def _playout(self, trump: Suit, maker: Seat) -> float:
        """The playing side's score minus the other's, the heuristic playing every seat."""
        view = self.view
        rules = replace(view.rules, trump_choice="free")
        deck = deck_from_hands(view.dealer, {seat: cards_of(mask) for seat, mask in self.hands.items()})
        deal = KlaverjasDeal(rules, view.dealer, deck)
        seat = view.dealer.left
        while seat is not maker:
            deal.apply(Action(seat, ActionKind.PASS))
            seat = seat.left
        deal.apply(Action.name(maker, trump))
        rng = random.Random(0)
        while not deal.is_over:
            to_act = deal.to_act
            assert to_act is not None
            deal.apply(_HEURISTIC.choose(deal.view_for(to_act), deal.legal_actions(), rng))
        result = deal.result
        assert result is not None
        return result.score[str(maker.side)] - result.score[str(maker.side.other)]

    def __call__(self, trump: Suit, maker: Seat) -> float:
        """The value for our side when ``maker`` makes ``trump``."""
        key = (trump, maker)
        value = self._cache.get(key)
        if value is None:
            weight = self.search.dd_weight
            value = 0.0
            if weight > 0:
                value += weight * self._dd(trump, maker.side)
            if weight < 1:
                value += (1 - weight) * self._playout(trump, maker)
            if maker.side is not self.side:
                value = -value
            self._cache[key] = value
        return value


def klaverjas_trump(view: KlaverjasView, legal: Sequence[Action], rng: random.Random,
                    search: TrumpSearch | None = None, draw: Layouts | None = None) -> Action:
    """The bid (name, take or pass) with the best mean double-dummy value (module docstring), over
    worlds from ``draw`` (by default: uniform among those that fit the bids)."""
    search = search or TrumpSearch()
    knowledge = infer_klaverjas(view)
    hand = knowledge.hand
    names = {action.suit: action for action in legal if action.kind is ActionKind.NAME and action.suit}
    passing = next((action for action in legal if action.kind is ActionKind.PASS), None)
    taking = next((action for action in legal if action.kind is ActionKind.TAKE), None)
    proposed = view.proposed
    ours = _suits_by_value(hand, list(names))[:search.candidates] if names else []
    # the heuristic's bar, and no search far from it
    shown = [proposed] if taking is not None and proposed is not None else ours[:1]
    best_value = klaverjas_value(hand, shown[0].index)
    if passing is not None:
        if best_value < NAME_AT - search.margin:
            return passing
        if best_value > NAME_AT + search.margin:
            return taking if taking is not None else names[shown[0]]
    order = bid_order(view.dealer)
    number = len(view.bids)
    rules = view.rules
    forced_later: list[Suit] = []
    if passing is not None and order[0] is view.seat:  # after four passes this seat must name
        turned = rules.trump_choice == "turned"
        others = [suit for suit in Suit if suit is not proposed] if turned else list(Suit)
        forced_later = _suits_by_value(hand, others)[:search.candidates]
    draw = draw or fitting_layouts(layouts(knowledge, rng), klaverjas_fit(view, knowledge), rng)
    solver = KlaverjasSolver()
    options: dict[Action, list[float]] = {names[suit]: [] for suit in ours}
    if taking is not None:
        options[taking] = []
    passed: list[float | None] = []  # per world: the value of passing, None when it comes back here
    forced: dict[Suit, list[float]] = {suit: [] for suit in forced_later}
    worlds = 0
    while search.budget.more(worlds, solver.total_nodes):
        hands = initial_hands(view, knowledge, draw())
        values = _Values(solver, hands, view, search)
        for suit in ours:
            options[names[suit]].append(values(suit, view.seat))
        if taking is not None and proposed is not None:
            options[taking].append(values(proposed, view.seat))
        if passing is not None:
            passed.append(_after_passing(view, hands, values, forced_later, forced, number))
        worlds += 1
    if passing is not None:
        # the suit to name when it comes back: the best on average over the worlds where it does
        again = iter(forced[max(forced, key=lambda suit: sum(forced[suit]))] if forced else ())
        options[passing] = [next(again) if value is None else value for value in passed]
    return confident_best(options, _HEURISTIC.choose(view, legal, rng), search.confidence)


def _after_passing(view: KlaverjasView, hands: dict[Seat, int], values: _Values, forced_later: list[Suit],
                   forced: dict[Suit, list[float]], number: int) -> float | None:
    """The value of passing in one world: the others bid as the model does, holding their cards of
    the world. ``None`` when the choice comes back to this seat: then each suit it may name is
    valued in ``forced``."""
    order = bid_order(view.dealer)
    rules, proposed = view.rules, view.proposed
    for later in range(number + 1, 5):
        seat = order[later % 4]
        if seat is view.seat:
            for suit in forced_later:
                forced[suit].append(values(suit, view.seat))
            return None
        word, named = klaverjas_bid(hands[seat], rules, proposed, later)
        if word != "pass":
            return values(named or proposed, seat)  # type: ignore[arg-type]
    return 0.0
