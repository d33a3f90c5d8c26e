"""What both engines share: one deal's state, its checked public API, tricks and results. Pure.

:class:`Deal` is the base of :class:`~klabsite.engine.klaberjass.KlaberjassDeal` and
:class:`~klabsite.engine.klaverjas.KlaverjasDeal`. It holds the state both games have (rules, dealer,
deck, phase, seat to act, trump, hands, the trick in progress, events, result) and the engine
contract built on it: ``legal_actions()`` (cached), ``can_apply()``, ``verify()`` and
``apply()``, which dispatches a legal action to the game's handler for its
:class:`~klabsite.engine.actions.ActionKind`. A game supplies three hooks: ``_compute_legal()`` (the
one source of truth for legality), ``_explain(action)`` (why an action is refused) and
``_HANDLERS`` (what each kind of action does); and its ``_TRANSITIONS`` table (checked by
``_enter``, the one place where the phase changes) and its own ``view_for()``.

The trick bookkeeping is shared too: :meth:`Deal._play_card` and :meth:`Deal._take_trick`
(the winner, the card points with the last trick's 10, the roem of ``_trick_roem``, which is 0
unless the game overrides it, and a ``TrickWon``). Bidding, declarations, which cards may be
played and scoring stay in the game modules.

>>> from klabsite.engine.cards import DECK
>>> from klabsite.engine.klaberjass import KlaberjassDeal, KlaberjassRules
>>> from klabsite.engine.klaverjas import KlaverjasDeal, KlaverjasRules
>>> from klabsite.engine.seats import Seat
>>> deals = [KlaberjassDeal(KlaberjassRules(), Seat.S, DECK), KlaverjasDeal(KlaverjasRules(), Seat.S, DECK)]
>>> all(isinstance(deal, Deal) for deal in deals)
True
>>> for deal in deals:
...     while not deal.is_over:
...         _ = deal.apply(deal.legal_actions()[0])
>>> [isinstance(deal.result, DealResult) and deal.result.counted for deal in deals]
[True, True]
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from bisect import bisect_left
from collections.abc import Callable, Mapping, Sequence
from enum import Enum
from operator import attrgetter
from typing import Any, ClassVar, Generic, Protocol, TypeVar, runtime_checkable

from klabsite.engine.actions import Action, ActionKind, IllegalAction
from klabsite.engine.cards import DECK, Card, Suit
from klabsite.engine.events import Event, TrickWon
from klabsite.engine.options import GameRules
from klabsite.engine.seats import Seat
from klabsite.engine.tricks import LAST_TRICK_BONUS, trick_points, trick_winner_index

__all__ = ["Deal", "DealResult", "check_deck", "deal_json", "card_index"]

card_index: Callable[[Card], int] = attrgetter("index")
"""A card's index 0–31: the sort key of hands (suit C D H S, then 7 … A)."""


def check_deck(deck: Sequence[Card], error: type[ValueError]) -> tuple[Card, ...]:
    """The deck as ``DECK``'s card values, after checking it holds each of the 32 cards once;
    else raise ``error`` (the game's own ``ValueError``) naming what is missing or doubled.

    >>> check_deck(DECK[1:] + DECK[-1:], ValueError)
    Traceback (most recent call last):
    ...
    ValueError: a deck holds all 32 cards once each; this one has 32 cards; missing 7C; more than once AS
    """
    cards = tuple(deck)
    if not all(isinstance(card, Card) for card in cards):
        raise error("the deck must be a sequence of Card values")
    indices = [card.index for card in cards]
    if len(cards) != 32 or len(set(indices)) != 32:
        missing = [card for card in DECK if card.index not in indices]
        doubled = [card for card in DECK if indices.count(card.index) > 1]
        problems = [f"{len(cards)} cards"]
        if missing:
            problems.append("missing " + ", ".join(map(str, missing)))
        if doubled:
            problems.append("more than once " + ", ".join(map(str, doubled)))
        raise error(f"a deck holds all 32 cards once each; this one has {'; '.join(problems)}")
    return tuple(DECK[index] for index in indices)


# ---------------------------------------------------------------------------------------------
# Results


@runtime_checkable
class DealResult(Protocol):
    """What every deal result offers (``KlaberjassResult``, ``KlaverjasResult``): frozen values.

    Keys of the per-seat or per-side maps are ``"N"``/``"S"`` or ``"NS"``/``"EW"``.
    """

    @property
    def dealer(self) -> Seat:
        """Who dealt."""

    @property
    def outcome(self) -> str:
        """``played``, ``thrown-in``, ``redeal`` or ``scored`` (a score-sheet deal)."""

    @property
    def score(self) -> dict[str, int]:
        """What the deal awards each player or side."""

    @property
    def counted(self) -> bool:
        """Whether the deal counts toward ``deals=N``."""

    @property
    def hanging(self) -> int:
        """Points still waiting after this deal (Klaberjass ``equal-score=next-deal-winner``)."""

    @property
    def totals(self) -> dict[str, int]:
        """Each player's or side's total before the maker or nat rule."""

    @property
    def result(self) -> str | None:
        """``made``, ``failed``, ``tie`` or ``nat``; ``None`` when the deal was not counted."""

    def to_json(self) -> dict[str, Any]:
        """record-format.md's per-deal keys, without ``deal``, ``id`` and ``match``."""


def deal_json(result: DealResult, details: Mapping[str, Any]) -> dict[str, Any]:
    """record-format.md's per-deal JSON: ``dealer`` and ``outcome``; then, for a counted (played
    or scored) deal only, the game's ``details`` followed by ``totals``, ``result`` and ``score``."""
    data: dict[str, Any] = {"dealer": str(result.dealer), "outcome": result.outcome}
    if result.counted:
        data.update(details)
        data["totals"] = dict(result.totals)
        data["result"] = result.result
        data["score"] = dict(result.score)
    return data


# ---------------------------------------------------------------------------------------------
# The deal

RulesT = TypeVar("RulesT", bound=GameRules)
PhaseT = TypeVar("PhaseT", bound=Enum)
ResultT = TypeVar("ResultT", bound=DealResult)

Handler = Callable[[Any, Action, list[Event]], None]
"""Carries out a legal action: ``handler(deal, action, new)`` appends the events it causes to ``new``."""


class Deal(ABC, Generic[RulesT, PhaseT, ResultT]):
    """One deal of either game: the common state, the checked API and the trick bookkeeping.

    Hands are lists kept sorted by card index and hold ``DECK``'s card values (the deck is
    checked and made canonical on construction); ``hands`` gives a copy.
    """

    _HANDLERS: ClassVar[Mapping[ActionKind, Handler]]
    """What each kind of legal action does (set by the game)."""
    _TRANSITIONS: ClassVar[Mapping[Any, frozenset[Any]]]
    """Which phase may follow which (set by the game); checked by :meth:`_enter`."""

    def __init__(
        self, rules: RulesT, dealer: Seat, deck: tuple[Card, ...], hands: dict[Seat, list[Card]],
        phase: PhaseT, to_act: Seat,
    ) -> None:
        self.rules = rules
        self.dealer = dealer
        self.deck = deck
        """The 32 cards, top first, as dealt."""
        self.events: list[Event] = []
        """Every event so far, in order; the game's ``Dealt`` first."""
        self._hands = hands
        self._phase = phase
        self._to_act: Seat | None = to_act
        self._trump: Suit | None = None
        self._trick: list[tuple[Seat, Card]] = []
        self._legal: list[Action] | None = None
        self._result: ResultT | None = None

    # -- public state ------------------------------------------------------------------------

    @property
    def phase(self) -> PhaseT:
        """The current phase (the game's ``Enum``)."""
        return self._phase

    @property
    def to_act(self) -> Seat | None:
        """Who acts next, or ``None`` when the deal is over."""
        return self._to_act

    @property
    def trump(self) -> Suit | None:
        """The trump suit, once chosen."""
        return self._trump

    @property
    def hands(self) -> dict[Seat, tuple[Card, ...]]:
        """The cards each seat still holds (a copy), sorted by card index."""
        return {seat: tuple(cards) for seat, cards in self._hands.items()}

    @property
    def trick(self) -> tuple[tuple[Seat, Card], ...]:
        """The cards of the trick in progress, in play order."""
        return tuple(self._trick)

    @property
    def is_over(self) -> bool:
        """Whether the deal has ended (it then has a result)."""
        return self._result is not None

    @property
    def result(self) -> ResultT | None:
        """The result, once the deal is over."""
        return self._result

    # -- legality ----------------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Every action allowed now, sorted by :meth:`Action.sort_key`; empty when over."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return list(legal)

    def can_apply(self, action: Action) -> bool:
        """Whether ``action`` is allowed now."""
        return self._canonical(action) is not None

    def verify(self, action: Action) -> None:
        """Raise :class:`IllegalAction`, naming the rule and what was legal, unless allowed."""
        if self._canonical(action) is None:
            raise IllegalAction(self._explain(action))

    def apply(self, action: Action) -> tuple[Event, ...]:
        """Verify ``action``, act, and return the new events (also appended to ``events``)."""
        legal = self._canonical(action)
        if legal is None:
            raise IllegalAction(self._explain(action))
        self._legal = None
        new: list[Event] = []
        self._HANDLERS[legal.kind](self, legal, new)
        self.events.extend(new)
        return tuple(new)

    def _canonical(self, action: Action) -> Action | None:
        """The legal action ``action`` stands for (meld order ignored), or ``None``."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        for candidate in legal:  # bots hand back the very objects legal_actions() gave them
            if candidate is action:
                return action
        for candidate in legal:
            if candidate == action or candidate.same_as(action):
                return candidate
        return None

    @abstractmethod
    def _compute_legal(self) -> list[Action]:
        """The legal actions now, sorted (empty when over): the one source of truth for legality."""

    @abstractmethod
    def _explain(self, action: Action) -> str:
        """Why ``action`` is refused: who, what, the rule, what was legal."""

    @abstractmethod
    def view_for(self, seat: Seat) -> Any:
        """What ``seat`` may see now (its own hand, the public table, its legal actions), for bots."""

    # -- acting ------------------------------------------------------------------------------

    def _enter(self, phase: PhaseT, to_act: Seat | None) -> None:
        """The one place where the phase changes (``to_act`` is ``None`` once over)."""
        assert phase in self._TRANSITIONS[self._phase], (self._phase, phase)
        self._phase = phase
        self._to_act = to_act

    def _play_card(self, seat: Seat, card: Card) -> None:
        """Move ``card`` (one of ``DECK``'s values, held by ``seat``) from the hand to the trick."""
        hand = self._hands[seat]
        index = bisect_left(hand, card.index, key=card_index)
        assert hand[index] is card, (seat, card, hand)
        del hand[index]
        self._trick.append((seat, card))

    def _trick_roem(self, cards: Sequence[Card], trump: Suit) -> int:
        """The roem a completed trick scores (0 unless the game has roem)."""
        del cards, trump
        return 0

    def _take_trick(self, number: int, last: bool) -> TrickWon:
        """Close the trick in progress (trump chosen): who wins it and what it is worth, with the
        last trick's 10 when ``last``; the trick is then empty."""
        trump = self._trump
        assert trump is not None
        trick = tuple(self._trick)
        cards = [card for _, card in trick]
        winner = trick[trick_winner_index(cards, trump)][0]
        points = trick_points(cards, trump) + (LAST_TRICK_BONUS if last else 0)
        self._trick = []
        return TrickWon(number, winner, trick, points, last, self._trick_roem(cards, trump))
