"""Klaverjas (4 players, Amsterdam and Rotterdam rules): the pure rules engine.

shared/rules.md, "Klaverjas", is the law this module implements; the option names are those of
:class:`~klabsite.options.KlaverjasRules`. Seats ``N E S W`` sit clockwise, N–S partners against
E–W. A deal goes through three phases (:class:`KlaverjasPhase`): choosing trump, playing eight
tricks, over. Every action is checked against :meth:`KlaverjasDeal.legal_actions`, the one source
of truth for legality, and yields frozen events (:mod:`klabsite.events`).

>>> from klabsite.cards import DECK
>>> deal = KlaverjasDeal(KlaverjasRules(), Seat.S, DECK)
>>> deal.to_act, [action.words for action in deal.legal_actions()]
(<Seat.W: 'W'>, ['pass', 'name C', 'name D', 'name H', 'name S'])
>>> [type(event).__name__ for event in deal.apply(Action.name(Seat.W, Suit.HEARTS))]
['BidMade', 'TrumpChosen']
>>> deal.playing, deal.to_act        # the chooser's side plays; left of the dealer leads
(<Side.EW: 'EW'>, <Seat.W: 'W'>)
>>> while not deal.is_over:
...     _ = deal.apply(deal.legal_actions()[0])
>>> deal.result.to_json()["totals"]
{'NS': 88, 'EW': 74}

Decisions where the rule book leaves room (each is a reading of rules.md, stated here so that
records, tests and the rules pages agree):

- *Trump led, void in trumps*: any card (rules.md: "otherwise any card"); nobody has to trump.
- *Trump led, holding trumps but none higher*: any trump (a lower trump is forced, as following
  suit). Amsterdam's "no undertrumping" applies only when a plain suit is led.
- *Amsterdam, void, partner winning with a trump*: overtrumping the partner is allowed, a plain
  card is allowed, a lower trump is illegal unless every card held is a lower trump (a hand of
  higher and lower trumps only must overtrump).
- *Amsterdam, void, opponent winning*: if no trump is in the trick yet, any trump may be played
  (all are "higher"); if an opponent's or the partner's trump is in the trick, a higher trump
  must be played when held, else a non-trump, else (only lower trumps held) a lower trump.
- *Rotterdam, undertrump=forbidden*: with no higher trump the player plays any non-trump; only a
  hand of nothing but lower trumps undertrumps.
- *Roem of a four-card run* is 50, not 50 + 20; a suit's three-card run inside a trick with a
  fourth unrelated card is 20. Four of a kind cannot hold a run or stuk, so it scores alone.
- *Nat* compares totals including roem and the pit bonus; the nat payout is 162 plus the roem
  of both sides (the pit bonus never meets nat: a side that took every trick has beaten 0).
- *Pit* is only for the playing side; the opponents taking all eight tricks is simply nat.
- A ``proposed`` suit is accepted only with ``trump-choice=turned`` (where it is required).
- Hands are kept, shown and dealt out in events sorted by card index (suit C D H S, 7 … A).
- Lists of cards in messages are ordered by suit (C D H S) and, within a suit, strongest first
  for the trump in play (``must follow suit with KH, QH``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from klabsite.actions import Action, ActionKind, IllegalAction
from klabsite.cards import DECK, Card, Suit, strength
from klabsite.events import (
    BidMade,
    CardPlayed,
    DealScored,
    Dealt,
    Event,
    TrickWon,
    TrumpChosen,
)
from klabsite.options import KlaverjasRules
from klabsite.roem import PIT_BONUS, trick_roem
from klabsite.seats import CLOCKWISE, Seat, Side
from klabsite.tricks import LAST_TRICK_BONUS, trick_points, trick_winner_index

__all__ = [
    "SEATS",
    "DEAL_POINTS",
    "KlaverjasError",
    "KlaverjasPhase",
    "KlaverjasDeal",
    "KlaverjasResult",
    "KlaverjasView",
    "deal_hands",
    "deck_from_hands",
    "legal_plays",
    "next_dealer",
    "scored_result",
]

SEATS: tuple[Seat, ...] = CLOCKWISE
"""The Klaverjas seats, clockwise: N E S W."""
DEAL_POINTS = 162
"""Every deal is worth 152 card points plus 10 for the last trick."""
TRICKS = 8
PACKETS = (3, 2, 3)
"""The deal: packets of 3, 2 and 3 cards to each seat in turn, starting left of the dealer."""


class KlaverjasError(ValueError):
    """A deal or score-sheet entry that cannot be set up: a wrong deck, seat or proposed suit."""


class KlaverjasPhase(Enum):
    """The phases of a deal, in order."""

    TRUMP = "trump"
    """Choosing trump (rule 1)."""
    PLAY = "play"
    """Playing the eight tricks (rule 2)."""
    OVER = "over"
    """Scored; nothing more to do."""


# ---------------------------------------------------------------------------------------------
# Dealing


def _order_from(seat: Seat) -> tuple[Seat, ...]:
    """The four seats clockwise starting at ``seat``."""
    return tuple(CLOCKWISE[(seat.index + i) % 4] for i in range(4))


_INDEX: dict[Card, int] = {card: card.index for card in DECK}


def _check_deck(deck: Sequence[Card]) -> tuple[Card, ...]:
    """The deck as the canonical card values (``DECK``'s), after checking it holds each card once."""
    cards = tuple(deck)
    if not all(isinstance(card, Card) for card in cards):
        raise KlaverjasError("the deck must be a sequence of Card values")
    indices = [_INDEX[card] for card in cards]
    if len(cards) != 32 or len(set(indices)) != 32:
        missing = [card for card in DECK if card.index not in indices]
        doubled = [card for card in DECK if indices.count(card.index) > 1]
        problems = [f"{len(cards)} cards"]
        if missing:
            problems.append("missing " + ", ".join(map(str, missing)))
        if doubled:
            problems.append("more than once " + ", ".join(map(str, doubled)))
        raise KlaverjasError(f"a deck holds all 32 cards once each; this one has {'; '.join(problems)}")
    return tuple(DECK[index] for index in indices)


def deal_hands(dealer: Seat, deck: Sequence[Card]) -> dict[Seat, tuple[Card, ...]]:
    """Each seat's eight cards (sorted by card index) when ``dealer`` deals ``deck`` (top first).

    record-format.md: cards 1–3, 4–6, 7–9, 10–12 to the four seats in turn starting left of the
    dealer, then 13–14 … 19–20, then 21–23 … 30–32.

    >>> from klabsite.cards import DECK, format_cards
    >>> format_cards(deal_hands(Seat.W, DECK)[Seat.N])
    '7C 8C 9C JD QD JH QH KH'
    """
    return _deal(dealer, _check_deck(deck))


def _deal(dealer: Seat, cards: tuple[Card, ...]) -> dict[Seat, tuple[Card, ...]]:
    hands: dict[Seat, list[Card]] = {seat: [] for seat in CLOCKWISE}
    position = 0
    for size in PACKETS:
        for seat in _order_from(dealer.left):
            hands[seat].extend(cards[position:position + size])
            position += size
    return {seat: tuple(sorted(hands[seat], key=_INDEX.__getitem__)) for seat in CLOCKWISE}


def deck_from_hands(dealer: Seat, hands: Mapping[Seat, Iterable[Card]]) -> tuple[Card, ...]:
    """A deck that deals exactly ``hands`` (eight cards per seat) when ``dealer`` deals.

    Used to set up a position on purpose: for tests, teaching deals and hand-written records.

    >>> from klabsite.cards import DECK
    >>> hands = deal_hands(Seat.N, DECK)
    >>> deal_hands(Seat.N, deck_from_hands(Seat.N, hands)) == hands
    True
    """
    pools = {seat: list(hands[seat]) for seat in CLOCKWISE}
    for seat, pool in pools.items():
        if len(pool) != 8:
            raise KlaverjasError(f"{seat} must hold 8 cards, not {len(pool)}")
    deck: list[Card] = []
    for size in PACKETS:
        for seat in _order_from(dealer.left):
            deck.extend(pools[seat][:size])
            del pools[seat][:size]
    return _check_deck(deck)


# ---------------------------------------------------------------------------------------------
# Card play (rule 2)


def _card_list(cards: Iterable[Card], trump: Suit | None) -> str:
    """Cards for a message: by suit, strongest first within a suit (``KH, QH``)."""
    def key(card: Card) -> tuple[int, int]:
        return (card.suit.index, -strength(card, trump) if trump else -card.rank.index)
    return ", ".join(str(card) for card in sorted(cards, key=key))


def legal_plays(
    hand: Sequence[Card], trick: Sequence[Card], trump: Suit, rules: KlaverjasRules
) -> tuple[tuple[Card, ...], str | None]:
    """The cards of ``hand`` that may be played to ``trick`` (the cards so far, led first),
    and the rule that limits them (``None`` when any card may be played).

    The rule reads as the end of a message, e.g. ``must follow suit with {cards}``.

    >>> from klabsite.cards import parse_cards
    >>> hand = parse_cards("7C JS 8S")                # void in hearts, partner (the leader) wins
    >>> legal_plays(hand, parse_cards("AH 9S"), Suit.SPADES, KlaverjasRules())
    ((Card.parse('JS'),), 'must overtrump with {cards}')
    >>> legal_plays(hand, parse_cards("AH 7H"), Suit.SPADES, KlaverjasRules())[1] is None
    True
    """
    cards = tuple(hand)
    if not trick:
        return cards, None
    led = trick[0].suit
    follow = tuple(card for card in cards if card.suit is led)
    trumps_in_trick = [strength(card, trump) for card in trick if card.suit is trump]
    top = max(trumps_in_trick, default=0)
    higher = tuple(card for card in cards if card.suit is trump and strength(card, trump) > top)
    if led is trump:
        if higher:
            return higher, "must overtrump with {cards}"
        if follow:
            return follow, "must follow suit with {cards}"
        return cards, None
    if follow:
        return follow, "must follow suit with {cards}"
    trumps = tuple(card for card in cards if card.suit is trump)
    if not trumps:
        return cards, None
    lower = [card for card in trumps if card not in higher]
    plain = tuple(card for card in cards if card.suit is not trump)
    partner_winning = trick_winner_index(trick, trump) == len(trick) - 2
    if rules.trick_rules == "amsterdam" and partner_winning:
        allowed = tuple(card for card in cards if card not in lower)
        if not trumps_in_trick or not lower or not allowed:
            return cards, None
        return allowed, "may not undertrump partner's trump: play one of {cards}"
    if higher:
        return higher, ("must overtrump with {cards}" if trumps_in_trick else "must trump with {cards}")
    if rules.trick_rules == "rotterdam" and rules.undertrump == "required":
        return trumps, "must undertrump with {cards}"
    if plain:
        return plain, "cannot overtrump and may not undertrump: play one of {cards}"
    return cards, None


# ---------------------------------------------------------------------------------------------
# Scoring (rules 3–5)


def _by_side(values: Mapping[Side, Any]) -> dict[str, Any]:
    return {side.value: values[side] for side in Side}


def _score(
    playing: Side, points: Mapping[Side, int], roem: Mapping[Side, int], pit: bool
) -> tuple[dict[Side, int], str, dict[Side, int]]:
    """Totals, ``made``/``nat`` and the awarded score from points (incl. last trick) and roem."""
    totals = {
        side: points[side] + roem[side] + (PIT_BONUS if pit and side is playing else 0) for side in Side
    }
    if totals[playing] > totals[playing.other]:
        return totals, "made", dict(totals)
    return totals, "nat", {playing: 0, playing.other: DEAL_POINTS + roem[Side.NS] + roem[Side.EW]}


@dataclass(frozen=True)
class KlaverjasResult:
    """How a deal ended and what it scored. Side-keyed maps use the keys ``"NS"`` and ``"EW"``.

    ``card_points`` excludes the last trick's 10; ``points`` (score-sheet deals only) includes it.
    ``totals`` = card points + last trick + roem + pit bonus; ``score`` is what the deal awards.
    """

    dealer: Seat
    outcome: str
    playing: Side
    roem: dict[str, int]
    pit: bool
    totals: dict[str, int]
    result: str
    score: dict[str, int]
    trump: Suit | None = None
    card_points: dict[str, int] | None = None
    last_trick: Side | None = None
    points: dict[str, int] | None = None
    counted: bool = True
    """Every Klaverjas deal counts toward ``deals=N`` (there are no throw-ins)."""
    hanging: int = 0
    """Always 0: Klaverjas has no points waiting for a later deal."""

    def to_json(self) -> dict[str, Any]:
        """record-format.md's per-deal keys (without ``deal``, ``id`` and ``match``)."""
        data: dict[str, Any] = {"dealer": self.dealer.value, "outcome": self.outcome}
        if self.outcome == "played":
            assert self.trump is not None and self.last_trick is not None
            data["trump"] = self.trump.value
            data["playing"] = self.playing.value
            data["card_points"] = dict(self.card_points or {})
            data["last_trick"] = self.last_trick.value
        else:
            data["playing"] = self.playing.value
            data["points"] = dict(self.points or {})
        data["roem"] = dict(self.roem)
        data["pit"] = self.pit
        data["totals"] = dict(self.totals)
        data["result"] = self.result
        data["score"] = dict(self.score)
        return data


def _side(side: Side | str) -> Side:
    return side if isinstance(side, Side) else Side.parse(side)


def _side_map(values: Mapping[Side, int] | Mapping[str, int]) -> dict[Side, int]:
    """A side-keyed map from one keyed by :class:`Side` or by ``"NS"``/``"EW"``; both sides needed."""
    read = {_side(key): value for key, value in values.items()}
    missing = [str(side) for side in Side if side not in read]
    if missing:
        raise KlaverjasError(f"a value for {' and '.join(missing)} is needed")
    return read


def scored_result(
    rules: KlaverjasRules,
    dealer: Seat,
    playing: Side | str,
    points: Mapping[Side, int] | Mapping[str, int],
    roem: Mapping[Side, int] | Mapping[str, int],
    pit: bool,
) -> KlaverjasResult:
    """The result of a score-sheet deal (outcome ``scored``): each side's card points including
    the last trick (together 162), each side's roem, and whether the playing side took every trick.
    Sides may be given as :class:`Side` or as ``"NS"``/``"EW"``.

    >>> result = scored_result(KlaverjasRules(), Seat.N, Side.NS, {Side.NS: 81, Side.EW: 81},
    ...                        {Side.NS: 20, Side.EW: 0}, pit=False)
    >>> result.result, result.score
    ('made', {'NS': 101, 'EW': 81})
    """
    del rules  # every Klaverjas option scores a deal the same way
    playing, points, roem = _side(playing), _side_map(points), _side_map(roem)
    for side in Side:
        if points[side] < 0 or roem[side] < 0:
            raise KlaverjasError(f"{side} cannot have negative points or roem")
        if roem[side] % 10:
            raise KlaverjasError(f"{side} roem {roem[side]} is not a multiple of 10")
    if points[Side.NS] + points[Side.EW] != DEAL_POINTS:
        raise KlaverjasError(
            f"the card points of both sides add up to {DEAL_POINTS}, not "
            f"{points[Side.NS]} + {points[Side.EW]}"
        )
    if pit and (points[playing] != DEAL_POINTS or roem[playing.other]):
        raise KlaverjasError(f"pit means {playing} took every trick: all {DEAL_POINTS} points, no roem for "
                             f"{playing.other}")
    totals, result, score = _score(playing, points, roem, pit)
    return KlaverjasResult(
        dealer=dealer, outcome="scored", playing=playing, roem=_by_side(roem), pit=pit,
        totals=_by_side(totals), result=result, score=_by_side(score), points=_by_side(points),
    )


def next_dealer(rules: KlaverjasRules, dealer: Seat, outcome: str) -> Seat:
    """The dealer of the next deal: one seat clockwise, every deal.

    >>> next_dealer(KlaverjasRules(), Seat.W, "played")
    <Seat.N: 'N'>
    """
    del rules, outcome
    return dealer.left


# ---------------------------------------------------------------------------------------------
# The deal

_PLAY_ACTIONS: dict[Seat, dict[int, Action]] = {
    seat: {id(card): Action.play(seat, card) for card in DECK} for seat in CLOCKWISE
}
"""Every card-play action, made once (actions are frozen values), by seat and ``id`` of the
canonical card: the engine holds only ``DECK``'s card values, and ids are cheap to hash."""


@dataclass(frozen=True)
class KlaverjasView:
    """What one seat may see: its own hand and everything public, for bots."""

    seat: Seat
    rules: KlaverjasRules
    dealer: Seat
    phase: KlaverjasPhase
    to_act: Seat | None
    hand: tuple[Card, ...]
    hand_sizes: dict[Seat, int]
    proposed: Suit | None
    bids: tuple[BidMade, ...]
    trump: Suit | None
    playing: Side | None
    trick: tuple[tuple[Seat, Card], ...]
    tricks: tuple[TrickWon, ...]
    legal: tuple[Action, ...] = field(default=())
    """The legal actions, when this seat is to act; else empty."""


class KlaverjasDeal:
    """One Klaverjas deal, from the dealt cards to the score.

    ``deck`` is the 32 cards, top first; ``proposed`` is the suit proposed with
    ``trump-choice=turned`` (required there, refused otherwise).
    """

    def __init__(
        self,
        rules: KlaverjasRules,
        dealer: Seat,
        deck: Sequence[Card],
        *,
        proposed: Suit | None = None,
    ) -> None:
        if not isinstance(dealer, Seat):
            raise KlaverjasError(f"the dealer must be a seat N, E, S or W, not {dealer!r}")
        if rules.trump_choice == "turned" and proposed is None:
            raise KlaverjasError("trump-choice=turned needs the proposed suit (the deal's Proposed tag)")
        if rules.trump_choice != "turned" and proposed is not None:
            raise KlaverjasError(
                "a proposed suit is used only with trump-choice=turned, "
                f"not trump-choice={rules.trump_choice}"
            )
        self.rules = rules
        self.dealer = dealer
        self.deck: tuple[Card, ...] = _check_deck(deck)
        self.proposed = proposed
        self._hands: dict[Seat, list[Card]] = {
            seat: list(cards) for seat, cards in _deal(dealer, self.deck).items()
        }
        self._phase = KlaverjasPhase.TRUMP
        self._bids: list[BidMade] = []
        self._trump: Suit | None = None
        self._chooser: Seat | None = None
        self._to_act: Seat | None = dealer.left
        self._leader = dealer.left
        self._trick: list[tuple[Seat, Card]] = []
        self._tricks: list[TrickWon] = []
        self._result: KlaverjasResult | None = None
        self._legal: list[Action] | None = None
        self.events: list[Event] = [
            Dealt(dealer, tuple((seat, tuple(self._hands[seat])) for seat in CLOCKWISE), proposed=proposed)
        ]

    # -- state ------------------------------------------------------------------------------

    @property
    def phase(self) -> KlaverjasPhase:
        """The current phase."""
        return self._phase

    @property
    def to_act(self) -> Seat | None:
        """The seat to act, or ``None`` when the deal is over."""
        return self._to_act

    @property
    def trump(self) -> Suit | None:
        """The trump suit, once chosen."""
        return self._trump

    @property
    def chooser(self) -> Seat | None:
        """Who chose trump (named it or took the proposed suit)."""
        return self._chooser

    @property
    def playing(self) -> Side | None:
        """The playing side: the chooser's side."""
        return self._chooser.side if self._chooser else None

    @property
    def hands(self) -> dict[Seat, tuple[Card, ...]]:
        """The cards each seat still holds (a copy), sorted by card index."""
        return {seat: tuple(cards) for seat, cards in self._hands.items()}

    @property
    def bids(self) -> tuple[BidMade, ...]:
        """The trump-choice actions so far."""
        return tuple(self._bids)

    @property
    def trick(self) -> tuple[tuple[Seat, Card], ...]:
        """The cards of the trick in progress, in play order."""
        return tuple(self._trick)

    @property
    def tricks(self) -> tuple[TrickWon, ...]:
        """The completed tricks."""
        return tuple(self._tricks)

    @property
    def leader(self) -> Seat:
        """Who leads (led) the current trick."""
        return self._leader

    @property
    def is_over(self) -> bool:
        """Whether the deal has been scored."""
        return self._phase is KlaverjasPhase.OVER

    @property
    def result(self) -> KlaverjasResult | None:
        """The result, once the deal is over."""
        return self._result

    # -- legality ---------------------------------------------------------------------------

    def _all_passed(self) -> bool:
        return len(self._bids) >= 4

    def _play_rule(self) -> tuple[tuple[Card, ...], str | None]:
        assert self._to_act is not None and self._trump is not None
        hand = self._hands[self._to_act]
        return legal_plays(hand, [card for _, card in self._trick], self._trump, self.rules)

    def legal_actions(self) -> list[Action]:
        """Every legal action of the seat to act, sorted by :meth:`Action.sort_key`; empty when over."""
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

    def _compute_legal(self) -> list[Action]:
        seat = self._to_act
        if seat is None:
            return []
        if self._phase is KlaverjasPhase.PLAY:
            plays = _PLAY_ACTIONS[seat]
            return [plays[id(card)] for card in self._play_rule()[0]]
        choice = self.rules.trump_choice
        if choice == "turned":
            if self._all_passed():
                return [Action.name(seat, suit) for suit in Suit if suit is not self.proposed]
            return [Action(seat, ActionKind.TAKE), Action(seat, ActionKind.PASS)]
        names = [Action.name(seat, suit) for suit in Suit]
        if choice == "forced" or self._all_passed():
            return names
        return [Action(seat, ActionKind.PASS), *names]

    def can_apply(self, action: Action) -> bool:
        """Whether ``action`` is legal now."""
        if self._legal is None:
            self._legal = self._compute_legal()
        return action.seat is self._to_act and action in self._legal

    def verify(self, action: Action) -> None:
        """Raise :class:`IllegalAction`, naming the rule and what was legal, unless ``action`` is legal."""
        if self.can_apply(action):
            return
        raise IllegalAction(self._explain(action))

    def _explain(self, action: Action) -> str:
        seat, words = action.seat, action.words
        what = f"play {action.card}" if action.kind is ActionKind.PLAY else words
        if self._to_act is None:
            return f"{seat} cannot {what}: the deal is over"
        if seat is not self._to_act:
            return f"{seat} cannot {what}: it is {self._to_act}'s turn"
        legal = self.legal_actions()
        options = ", ".join(a.words for a in legal)
        if self._phase is KlaverjasPhase.PLAY:
            if action.kind is not ActionKind.PLAY:
                return f"{seat} cannot {what}: trump is chosen ({self._trump}); play a card: {options}"
            assert action.card is not None and self._trump is not None
            if action.card not in self._hands[seat]:
                return f"{seat} cannot {what}: {seat} does not hold {action.card}"
            if not action.bella:
                return f"{seat} cannot play {action.card} nobella: no bella in Klaverjas"
            cards, rule = self._play_rule()
            listed = _card_list(cards, self._trump)
            return f"{seat} cannot {what}: " + (rule or "{cards}").format(cards=listed)
        choice = self.rules.trump_choice
        if action.kind is ActionKind.PLAY:
            why = "trump is not chosen yet"
        elif action.kind not in (ActionKind.TAKE, ActionKind.PASS, ActionKind.NAME):
            why = f"{action.kind.value} is not a Klaverjas action"
        elif choice == "forced":
            why = "with trump-choice=forced the player left of the dealer must name trump"
        elif self._all_passed() and choice == "turned":
            why = f"all four passed on {self.proposed}, so one of the other three suits must be named"
        elif self._all_passed():
            why = "all four passed, so the player left of the dealer must name trump"
        elif choice == "turned":
            why = f"with trump-choice=turned each player takes the proposed suit ({self.proposed}) or passes"
        else:
            why = "with trump-choice=free each player names a suit or passes"
        return f"{seat} cannot {what}: {why}; legal: {options}"

    # -- acting -----------------------------------------------------------------------------

    def apply(self, action: Action) -> tuple[Event, ...]:
        """Verify ``action``, carry it out, append and return the events it caused."""
        self.verify(action)
        self._legal = None
        new = self._bid(action) if self._phase is KlaverjasPhase.TRUMP else self._play(action)
        self.events.extend(new)
        return new

    def _bid(self, action: Action) -> tuple[Event, ...]:
        seat = action.seat
        if action.kind is ActionKind.PASS:
            bid = BidMade(seat, "pass")
            self._bids.append(bid)
            self._to_act = seat.left
            return (bid,)
        if action.kind is ActionKind.TAKE:
            bid, trump = BidMade(seat, "take", self.proposed), self.proposed
        else:
            bid, trump = BidMade(seat, "name", action.suit), action.suit
        assert trump is not None
        self._bids.append(bid)
        self._trump, self._chooser = trump, seat
        self._phase = KlaverjasPhase.PLAY
        self._to_act = self._leader = self.dealer.left
        return (bid, TrumpChosen(trump, seat))

    def _play(self, action: Action) -> tuple[Event, ...]:
        seat, card = action.seat, action.card
        assert card is not None and self._trump is not None
        self._hands[seat].remove(card)
        self._trick.append((seat, card))
        number = len(self._tricks) + 1
        events: list[Event] = [CardPlayed(seat, card, number)]
        if len(self._trick) < 4:
            self._to_act = seat.left
            return tuple(events)
        cards = [c for _, c in self._trick]
        winner = self._trick[trick_winner_index(cards, self._trump)][0]
        last = number == TRICKS
        won = TrickWon(
            number=number,
            winner=winner,
            cards=tuple(self._trick),
            points=trick_points(cards, self._trump) + (LAST_TRICK_BONUS if last else 0),
            last=last,
            roem=trick_roem(cards, self._trump),
        )
        self._tricks.append(won)
        events.append(won)
        self._trick = []
        self._to_act = self._leader = winner
        if last:
            events.append(self._finish())
        return tuple(events)

    def _finish(self) -> DealScored:
        assert self._trump is not None and self._chooser is not None
        playing = self._chooser.side
        card_points = {side: 0 for side in Side}
        roem = {side: 0 for side in Side}
        won = {side: 0 for side in Side}
        for trick in self._tricks:
            side = trick.winner.side
            card_points[side] += trick.points - (LAST_TRICK_BONUS if trick.last else 0)
            roem[side] += trick.roem
            won[side] += 1
        last_trick = self._tricks[-1].winner.side
        points = {side: card_points[side] + (LAST_TRICK_BONUS if side is last_trick else 0) for side in Side}
        pit = won[playing] == TRICKS
        totals, result, score = _score(playing, points, roem, pit)
        self._result = KlaverjasResult(
            dealer=self.dealer, outcome="played", playing=playing, roem=_by_side(roem), pit=pit,
            totals=_by_side(totals), result=result, score=_by_side(score), trump=self._trump,
            card_points=_by_side(card_points), last_trick=last_trick,
        )
        self._phase = KlaverjasPhase.OVER
        self._to_act = None
        return DealScored(result, tuple(_by_side(score).items()))

    # -- views ------------------------------------------------------------------------------

    def view_for(self, seat: Seat) -> KlaverjasView:
        """What ``seat`` may see now: its own hand, the bids, the tricks, its legal actions."""
        return KlaverjasView(
            seat=seat,
            rules=self.rules,
            dealer=self.dealer,
            phase=self._phase,
            to_act=self._to_act,
            hand=tuple(self._hands[seat]),
            hand_sizes={s: len(cards) for s, cards in self._hands.items()},
            proposed=self.proposed,
            bids=tuple(self._bids),
            trump=self._trump,
            playing=self.playing,
            trick=tuple(self._trick),
            tricks=tuple(self._tricks),
            legal=tuple(self.legal_actions()) if seat is self._to_act else (),
        )

    def __repr__(self) -> str:
        return (f"KlaverjasDeal(dealer={self.dealer}, phase={self._phase.value}, trump={self._trump}, "
                f"to_act={self._to_act}, tricks={len(self._tricks)})")
