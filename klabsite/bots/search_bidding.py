"""The search bot's Klaberjass bidding and dix: each option solved double-dummy in sampled deals.

A world is the opponent's six cards and the order of the stock (so the three cards each player
receives), drawn uniformly among those that fit what the seat has seen, weighted by how well the
opponent's bids so far fit the heuristic bidder (:mod:`klabsite.bots.search_models`). A world and
a *contract* (trump and maker) make a whole deal: the hands completed, the dix made by whoever
holds the 7 of trumps (as the heuristic makes it), and the deal's double-dummy value from the
first lead with every declaration still open (:mod:`klabsite.solver`).

The bidding that follows an option is played out (:class:`Bidding`, the rule book's bidding):
the opponent bids, accepts or refuses as the heuristic does with his cards of the world; the
seat's own later choices are the best *on average* over the worlds in which it would face them
(it will not see the opponent's cards then either). A thrown-in or redealt deal is worth 0.

>>> state = Bidding.start(Seat.S, KlaberjassRules())
>>> state.to_act, [str(action) for action in state.legal()]
(<Seat.N: 'N'>, ['N take', 'N pass', 'N schmeiss'])
>>> state = state.after(Action(Seat.N, ActionKind.PASS))
>>> state = state.after(Action(Seat.S, ActionKind.PASS))
>>> state.phase, state.to_act
(<Phase.BIDDING_2: 'bidding-2'>, <Seat.N: 'N'>)
>>> state.after(Action.name(Seat.N, Suit.SPADES)).contract(Suit.HEARTS)
(<Suit.SPADES: 'S'>, <Seat.N: 'N'>)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from klabsite.bots.heuristic_klaberjass import KlaberjassHeuristic
from klabsite.bots.inference import STOCK, Knowledge, Place, infer_klaberjass
from klabsite.bots.search_models import MISFIT, Weight, fitting_layouts
from klabsite.bots.search_play import layouts
from klabsite.bots.search_positions import bella_holder_of, elder_of
from klabsite.bots.search_worlds import Budget, confident_best
from klabsite.engine.actions import Action, ActionKind
from klabsite.engine.cards import SUITS, Card, Rank, Suit, cards_of
from klabsite.engine.events import BidMade
from klabsite.engine.klaberjass import KlaberjassView, Phase, opponent_of
from klabsite.engine.melds import meld_sets, meld_value
from klabsite.engine.options import KlaberjassRules
from klabsite.engine.seats import Seat
from klabsite.solver.deals import PLAYERS, meld_matrix
from klabsite.solver.klaberjass import KlaberjassPosition, KlaberjassSolver

__all__ = ["Bidding", "BiddingSearch", "klaberjass_bid", "klaberjass_dix", "exchanges"]

Contract = tuple[Suit, Seat]
"""Trump and maker."""
Layout = dict[Place, int]
_HEURISTIC = KlaberjassHeuristic()


@dataclass(frozen=True)
class Bidding:
    """A point of the Klaberjass bidding (the rules page "Klaberjass", Bidding): whose turn, in which phase,
    the bids so far; or its end (``phase`` ``None``): a contract, or the deal thrown in."""

    rules: KlaberjassRules
    dealer: Seat
    phase: Phase | None
    to_act: Seat | None
    bids: tuple[BidMade, ...] = ()
    round: int = 1
    schmeisser: Seat | None = None
    maker: Seat | None = None
    named: Suit | None = None

    @classmethod
    def start(cls, dealer: Seat, rules: KlaberjassRules) -> Bidding:
        """The bidding before its first bid."""
        return cls(rules, dealer, Phase.BIDDING_1, elder_of(dealer))

    @classmethod
    def replay(cls, dealer: Seat, rules: KlaberjassRules, bids: Sequence[BidMade]) -> Bidding:
        """The bidding after ``bids``."""
        state = cls.start(dealer, rules)
        for bid in bids:
            kind = ActionKind(bid.word)
            state = state.after(Action.name(bid.seat, bid.suit) if bid.suit else Action(bid.seat, kind))
        return state

    @property
    def is_over(self) -> bool:
        """Whether the bidding has ended (a contract, or thrown in)."""
        return self.phase is None

    def contract(self, upcard_suit: Suit) -> Contract | None:
        """Trump and maker at the end of the bidding (``None``: thrown in or redealt)."""
        if self.maker is None:
            return None
        return (self.named or upcard_suit), self.maker

    def legal(self, upcard_suit: Suit | None = None) -> list[Action]:
        """The actions of the player to act (naming lists the suits other than ``upcard_suit``)."""
        seat, rules = self.to_act, self.rules
        assert seat is not None
        schmeiss = rules.schmeiss == "on"
        if self.phase is Phase.BIDDING_1:
            return [Action(seat, ActionKind.TAKE), Action(seat, ActionKind.PASS)] + (
                [Action(seat, ActionKind.SCHMEISS)] if schmeiss else [])
        if self.phase is Phase.SCHMEISS:
            return [Action(seat, ActionKind.ACCEPT), Action(seat, ActionKind.REFUSE)]
        names = [Action.name(seat, suit) for suit in SUITS if suit is not upcard_suit]
        if self.phase is Phase.NAMING:
            return names
        return [Action(seat, ActionKind.PASS), *names] + (
            [Action(seat, ActionKind.SCHMEISS)] if schmeiss and rules.schmeiss_round_2 == "on" else [])

    def after(self, action: Action) -> Bidding:
        """The bidding once ``action`` is made."""
        seat, kind = action.seat, action.kind
        bids = (*self.bids, BidMade(seat, kind.value, action.suit))
        state = replace(self, bids=bids)
        elder = elder_of(self.dealer)
        if kind is ActionKind.TAKE:
            return replace(state, phase=None, to_act=None, maker=seat)
        if kind is ActionKind.NAME:
            return replace(state, phase=None, to_act=None, maker=seat, named=action.suit)
        if kind is ActionKind.PASS:
            if seat is elder:
                return replace(state, to_act=self.dealer)
            if self.phase is Phase.BIDDING_1:
                return replace(state, phase=Phase.BIDDING_2, to_act=elder, round=2)
            return replace(state, phase=None, to_act=None)
        if kind is ActionKind.SCHMEISS:
            return replace(state, phase=Phase.SCHMEISS, to_act=opponent_of(seat), schmeisser=seat)
        if kind is ActionKind.ACCEPT:
            return replace(state, phase=None, to_act=None)
        if kind is ActionKind.REFUSE:
            assert self.schmeisser is not None
            maker = self.schmeisser if self.rules.schmeiss_refused == "schmeisser-makes" else seat
            if self.round == 1:
                return replace(state, phase=None, to_act=None, maker=maker)
            return replace(state, phase=Phase.NAMING, to_act=maker)
        raise ValueError(f"{action} is not a bid")


def exchanges(cards: Sequence[Card], upcard: Card, long_sequence: int) -> bool:
    """Whether the heuristic exchanges the 7 of trumps (``upcard``'s suit) in ``cards`` for the
    upcard (:class:`~klabsite.bots.heuristic_klaberjass.KlaberjassHeuristic`'s dix)."""
    from klabsite.bots.tactics import TRUMP_WEIGHT

    seven = Card(Rank.SEVEN, upcard.suit)
    after = [card for card in cards if card != seven] + [upcard]

    def best(hand: Sequence[Card]) -> int:
        return max((sum(meld_value(m, long_sequence) for m in s) for s in meld_sets(hand)), default=0)
    return best(after) - best(cards) + TRUMP_WEIGHT[upcard.rank] - TRUMP_WEIGHT[Rank.SEVEN] >= 0


@dataclass(frozen=True)
class BiddingSearch:
    """The knobs of the Klaberjass bidding and dix search."""

    budget: Budget = field(default_factory=lambda: Budget(worlds=80, min_worlds=24, nodes=1_500_000))
    confidence: float = 1.5
    """The heuristic's choice stands unless another option's mean is better by this many standard
    errors (of the difference, world by world)."""
    maker_bias: float = 10.0
    """Points taken off the maker's double-dummy value: real play falls short of it (measured: 12
    points a deal with the heuristic's card play, 7 with the search's)."""


class _World:
    """One world of the bidding: every card's place; values of contracts, cached."""

    def __init__(self, view: KlaberjassView, knowledge: Knowledge, layout: Mapping[Place, int],
                 rng: random.Random, solver: KlaberjassSolver, bias: float) -> None:
        self.view, self.solver, self.bias = view, solver, bias
        seat = view.seat
        opponent = opponent_of(seat)
        self.first = {seat: knowledge.hand, opponent: layout[opponent]}
        stock = cards_of(layout[STOCK])
        rng.shuffle(stock)
        elder = elder_of(view.dealer)
        self.extra = {elder: stock[0:3], view.dealer: stock[3:6]}
        self._values: dict[tuple[Contract, bool | None], float] = {}

    def hand(self, seat: Seat) -> list[Card]:
        """The six cards ``seat`` bids with."""
        return cards_of(self.first[seat])

    def value(self, contract: Contract, my_dix: bool | None = None) -> float:
        """The double-dummy value of the deal under ``contract`` for the seat (``my_dix``: the
        seat's own dix decision, when it holds the 7 of trumps; else as the heuristic makes it)."""
        key = (contract, my_dix)
        cached = self._values.get(key)
        if cached is not None:
            return cached
        view = self.view
        trump, maker = contract
        hands = {seat: cards_of(self.first[seat]) + self.extra[seat] for seat in self.first}
        upcard = view.upcard if view.dix is None else view.dix.upcard
        if trump is upcard.suit:
            seven = Card(Rank.SEVEN, trump)
            for seat, cards in hands.items():
                if seven in cards:
                    mine = seat is view.seat and my_dix is not None
                    if my_dix if mine else exchanges(cards, upcard, view.rules.long_sequence):
                        hands[seat] = [card for card in cards if card != seven] + [upcard]
        rules = view.rules
        elder = elder_of(view.dealer)
        masks = {seat: sum(card.bit for card in cards) for seat, cards in hands.items()}
        position = KlaberjassPosition(
            hands=(masks[Seat.N], masks[Seat.S]), trump=trump.index, maker=PLAYERS.index(maker),
            leader=PLAYERS.index(elder),
            melds=meld_matrix(elder, [(), *meld_sets(hands[elder])], view.dealer,
                              [(), *meld_sets(hands[view.dealer])], trump, rules),
            elder=PLAYERS.index(elder), bella_holder=bella_holder_of((masks[Seat.N], masks[Seat.S]), trump),
            any_lead=rules.must_beat == "any-lead", void=rules.no_trick_melds == "void",
        )
        value = self.solver.maker_value(position) - self.bias
        if maker is not view.seat:
            value = -value
        self._values[key] = value
        return value


def _model(state: Bidding, view: KlaberjassView, hand: list[Card]) -> Action:
    """The heuristic's bid for the player to act at ``state``, holding ``hand`` (six cards)."""
    seat = state.to_act
    assert seat is not None and state.phase is not None
    legal = state.legal(view.upcard.suit)
    other = replace(view, seat=seat, phase=state.phase, to_act=seat, hand=tuple(hand), bids=state.bids,
                    legal=tuple(legal))
    return _HEURISTIC.choose(other, legal, random.Random(0))


def _same(a: Action, b: Action) -> bool:
    return a.kind is b.kind and a.suit is b.suit


def _fit(view: KlaberjassView) -> Weight:
    """A world's weight: :data:`MISFIT` per past bid of the opponent the heuristic would not make."""
    opponent = opponent_of(view.seat)
    points = []
    state = Bidding.start(view.dealer, view.rules)
    for bid in view.bids:
        action = Action.name(bid.seat, bid.suit) if bid.suit else Action(bid.seat, ActionKind(bid.word))
        if bid.seat is opponent:
            points.append((state, action))
        state = state.after(action)

    def weight(layout: Layout, floor: float = 0.0) -> float:
        hand = cards_of(layout[opponent])
        out = 1.0
        for before, action in points:
            if not _same(_model(before, view, hand), action):
                out *= MISFIT
        return out
    return weight


def _values(state: Bidding, worlds: list[_World], view: KlaberjassView) -> list[float]:
    """The value of the bidding from ``state`` on in each of ``worlds`` (module docstring)."""
    if not worlds:
        return []
    if state.is_over:
        contract = state.contract(view.upcard.suit)
        return [0.0] * len(worlds) if contract is None else [world.value(contract) for world in worlds]
    if state.to_act is view.seat:  # one choice for every world: the best on average
        return max((_values(state.after(action), worlds, view) for action in state.legal(view.upcard.suit)),
                   key=sum)
    groups: dict[tuple[ActionKind, Suit | None], tuple[Action, list[int]]] = {}
    for index, world in enumerate(worlds):
        action = _model(state, view, world.hand(opponent_of(view.seat)))
        groups.setdefault((action.kind, action.suit), (action, []))[1].append(index)
    out = [0.0] * len(worlds)
    for action, indices in groups.values():
        for index, value in zip(indices, _values(state.after(action), [worlds[i] for i in indices], view),
                                strict=True):
            out[index] = value
    return out


def _worlds(view: KlaberjassView, rng: random.Random, search: BiddingSearch, solver: KlaberjassSolver,
            state: Bidding, legal: Sequence[Action]) -> list[_World]:
    """Worlds for the bidding from ``state``, until the budget is spent; each world's contracts
    reachable after ``legal`` are solved as it is drawn (so that the node budget counts them)."""
    knowledge = infer_klaberjass(view)
    draw = fitting_layouts(layouts(knowledge, rng), _fit(view), rng)
    worlds: list[_World] = []
    while search.budget.more(len(worlds), solver.total_nodes):
        world = _World(view, knowledge, draw(), rng, solver, search.maker_bias)
        for action in legal:
            _values(state.after(action), [world], view)  # fills the world's cache
        worlds.append(world)
    return worlds


def klaberjass_bid(view: KlaberjassView, legal: Sequence[Action], rng: random.Random,
                   search: BiddingSearch | None = None) -> Action:
    """The bid (take, pass, name, schmeiss, accept or refuse) with the best mean double-dummy
    value, the bidding after it played out (module docstring)."""
    search = search or BiddingSearch()
    state = Bidding.replay(view.dealer, view.rules, view.bids)
    solver = KlaberjassSolver()
    worlds = _worlds(view, rng, search, solver, state, legal)
    # the seat's later choices are taken on all worlds together
    options = {action: _values(state.after(action), worlds, view) for action in legal}
    return confident_best(options, _HEURISTIC.choose(view, legal, rng), search.confidence)


def klaberjass_dix(view: KlaberjassView, legal: Sequence[Action], rng: random.Random,
                   search: BiddingSearch | None = None) -> Action:
    """Exchange the 7 of trumps for the upcard or keep it: the better mean double-dummy value."""
    search = search or BiddingSearch()
    assert view.trump is not None and view.maker is not None
    contract = (view.trump, view.maker)
    solver = KlaberjassSolver()
    knowledge = infer_klaberjass(view)
    draw = layouts(knowledge, rng)
    options: dict[Action, list[float]] = {action: [] for action in legal}
    worlds = 0
    while search.budget.more(worlds, solver.total_nodes):
        world = _DixWorld(view, knowledge, draw(), solver, search.maker_bias)
        for action in legal:
            options[action].append(world.value(contract, action.kind is ActionKind.DIX))
        worlds += 1
    return confident_best(options, _HEURISTIC.choose(view, legal, rng), search.confidence)


class _DixWorld(_World):
    """A world once the hands are complete (the dix to decide): the hands as they are."""

    def __init__(self, view: KlaberjassView, knowledge: Knowledge, layout: Mapping[Place, int],
                 solver: KlaberjassSolver, bias: float) -> None:
        self.view, self.solver, self.bias = view, solver, bias
        opponent = opponent_of(view.seat)
        self.first = {view.seat: knowledge.hand, opponent: layout[opponent]}
        self.extra: dict[Seat, list[Card]] = {view.seat: [], opponent: []}
        self._values: dict[tuple[Contract, bool | None], float] = {}
