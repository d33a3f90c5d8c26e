"""The Klaberjass (2-player) rules engine: one deal, from the deck to the score. Pure.

The rule book is the rules pages "Klaberjass" and the two after it; the deck is dealt as
docs/record-format.md says ("How the deck is dealt"). A deal is driven by
:class:`~klabsite.engine.actions.Action` values: ``legal_actions()`` lists them sorted, ``verify()``
explains a refusal, ``apply()`` acts and returns the new immutable events.

>>> from klabsite.engine.cards import parse_cards
>>> deck = parse_cards("JH TH 9H KS QS JS 7D AC 8C KH 9D 8S AH QC 7S TD AD JC "
...                    "8H 7C 9C TC KC 8D JD QD KD 7H QH 9S TS AS")
>>> deal = KlaberjassDeal(KlaberjassRules(), Seat.S, deck)
>>> deal.phase, deal.to_act, deal.upcard
(<Phase.BIDDING_1: 'bidding-1'>, <Seat.N: 'N'>, Card.parse('AH'))
>>> [str(action) for action in deal.legal_actions()]
['N take', 'N pass', 'N schmeiss']
>>> [type(event).__name__ for event in deal.apply(Action(Seat.N, ActionKind.TAKE))]
['BidMade', 'TrumpChosen', 'HandsCompleted']
>>> deal.apply(Action.play(Seat.N, parse_cards("7D")[0]))
Traceback (most recent call last):
...
klabsite.engine.actions.IllegalAction: N cannot play 7D: holds a sequence: must first declare ...

Decisions on points the rule book leaves open (each also stated where it is implemented):

- Declarations belong to the ``PLAY`` phase: the non-dealer decides at his first lead, the
  dealer at his first card. A player holding no sequence may skip the declaration: his card
  play then counts as ``nomeld`` (no ``Declared`` event, but the talk and comparison follow).
- The talk (:mod:`klabsite.engine.melds`) is derived from what was *declared*, not from what is held.
  The non-dealer's value is spoken when he declares; the rest when the dealer decides.
- ``no-trick-melds=void`` does not change the comparison: the player who won it but took no
  trick scores no sequences, and his opponent (who lost it) scores none either.
- Hanging points (``equal-score=next-deal-winner``) go, in full, to whoever is awarded more in
  the next played deal that is not a tie; on a tie they keep waiting (and the tied maker's total
  joins them). Thrown-in and redealt deals carry them unchanged; a score-sheet deal is a played
  deal. Under ``maker-scores-nothing`` a tie adds nothing to the hanging points.
- ``CARD nobella`` is legal only for the second of K and Q of trumps played by the same player;
  with any other card it is refused. A K or Q of trumps taken by the dix counts.
- Dix: when the 7 of trumps is the upcard or still in the stock, there is no dix decision.
  After ``dix`` the 7 of trumps lies face up where the upcard was.
- A refused round-2 schmeiss: the maker (per ``schmeiss-refused``) must name one of the three
  suits other than the upcard's; passing is not allowed.
- After the first trick the comparison winner shows his sequences (``MeldsShown``).
- A ``meld`` action may list its sequences in any order (``Action.same_as``); the engine keeps
  the legal action's order (highest top card first). Any set of disjoint runs of three or more
  held cards may be declared, not only maximal runs.
- Under ``long-sequence=50`` a five-card and a four-card sequence are both worth 50: the top card
  decides between them (the value, not the length, is compared).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from klabsite.engine.actions import Action, ActionKind, Meld
from klabsite.engine.cards import DECK, SUITS, Card, Rank, Suit, format_cards, point_sums, points, strength
from klabsite.engine.deal import Deal, card_index, check_deck, deal_json
from klabsite.engine.events import (
    BidMade,
    CardPlayed,
    DealScored,
    Dealt,
    Event,
    ThrownIn,
    TrumpChosen,
)
from klabsite.engine.melds import (
    Comparison,
    Declared,
    MeldsCompared,
    MeldsShown,
    Phrase,
    Talk,
    compare,
    meld_problem,
    meld_sets,
    opening_talk,
    reply_talk,
    runs_in,
    sequence_value,
)
from klabsite.engine.options import KlaberjassRules
from klabsite.engine.seats import Seat
from klabsite.engine.tricks import LAST_TRICK_BONUS

__all__ = [
    "SEATS",
    "Phase",
    "DealError",
    "KlaberjassDeal",
    "KlaberjassResult",
    "KlaberjassView",
    "HandsCompleted",
    "DixDecided",
    "BellaDecided",
    "next_dealer",
    "opponent_of",
    "scored_result",
    "possible_extras",
    "totals_problem",
    "CARD_POINT_SUMS",
    "PLAYER_CARD_POINT_SUMS",
    "MAX_SEQUENCES",
    "MAX_DEAL_VALUE",
    "stack_deck",
    "KlaberjassRules",
    "Seat",
    "Action",
    "ActionKind",
]

SEATS: tuple[Seat, Seat] = (Seat.N, Seat.S)
"""The two seats of Klaberjass."""

TRICKS = 9
"""Tricks in a deal: nine cards each are played, 14 of the 32 never are."""

BELLA = 20
"""Points for bella (K and Q of trumps played by one player)."""

HAND = 9
"""Cards in a hand once the hands are completed: what a declaration is made from."""

MAX_SEQUENCES = 150
"""The most one player's sequences can score: a run of five or more (100 with
``long-sequence=100``) and a run of four (50) in his nine cards (the tests try every hand shape)."""

MAX_DEAL_VALUE = sum(points(card, Suit.CLUBS) for card in DECK) + LAST_TRICK_BONUS + MAX_SEQUENCES + BELLA
"""The largest difference between the two players' scores for one deal: all the card points
and the last trick, the sequences (one player's only) and bella, when a failing maker's total goes
to the opponent. Hanging points count 0 in a ``dd`` value, so a ``dd`` value is never larger."""

PLAYED = 2 * HAND
"""The cards played in a deal: 18 of the 32 (the rest stay in the stock)."""

_OTHER = {Seat.N: Seat.S, Seat.S: Seat.N}


def opponent_of(seat: Seat) -> Seat:
    """The other Klaberjass player (the non-dealer, or elder, is the dealer's opponent).

    >>> opponent_of(Seat.N)
    <Seat.S: 'S'>
    """
    return _OTHER[seat]


_PLAYED_SUMS = point_sums(PLAYED)
CARD_POINT_SUMS, PLAYER_CARD_POINT_SUMS = _PLAYED_SUMS[PLAYED], frozenset().union(*_PLAYED_SUMS)
"""The card points that a deal's 18 played cards can hold together (every number from 18 to 146),
and that one player's tricks can hold (every number from 0 to 146 but 1)."""


def possible_extras(rules: KlaberjassRules) -> tuple[int, ...]:
    """What a deal's two totals together can hold beyond the card points and the last trick,
    lowest first: one player's sequences (only the better declaration scores) plus bella or not.

    >>> possible_extras(KlaberjassRules())
    (0, 20, 40, 50, 60, 70, 80, 90, 100, 120)
    """
    lengths = range(3, HAND + 1)
    melds = {0}
    for count in (1, 2, 3):
        for combination in itertools.combinations_with_replacement(lengths, count):
            if sum(combination) <= HAND:
                melds.add(sum(sequence_value(length, rules.long_sequence) for length in combination))
    return tuple(sorted({meld + bella for meld in melds for bella in (0, BELLA)}))


def totals_problem(rules: KlaberjassRules, totals: Mapping[Seat, int]) -> str | None:
    """Why two totals cannot come from one deal, or ``None`` when they can.

    Together they hold the card points of the 18 cards played, the last trick's 10, and the
    sequences and bella of :func:`possible_extras`.

    >>> print(totals_problem(KlaberjassRules(), {Seat.N: 0, Seat.S: 0}))  # doctest: +ELLIPSIS
    the totals N 0 S 0 add up to 0, which no deal can make: its cards and last trick give 28 to 156, ...
    >>> print(totals_problem(KlaberjassRules(), {Seat.N: 84, Seat.S: 60}))
    None
    >>> print(totals_problem(KlaberjassRules(), {Seat.N: 1, Seat.S: 27}))  # doctest: +ELLIPSIS
    N 1: no deal gives a player that total (cards count 2, 3, 4, 10, 11, 14 or 20 points, ...)
    """
    together = sum(totals.get(seat, 0) for seat in SEATS)
    base = together - LAST_TRICK_BONUS
    extras = possible_extras(rules)
    if any(base - extra in CARD_POINT_SUMS for extra in extras):
        for seat in SEATS:
            total = totals.get(seat, 0)
            if not any(total - bonus - extra in PLAYER_CARD_POINT_SUMS
                       for bonus in (0, LAST_TRICK_BONUS) for extra in extras):
                return (f"{seat} {total}: no deal gives a player that total (cards count 2, 3, 4, 10, "
                        "11, 14 or 20 points, the last trick 10, sequences and bella 20 or more)")
        return None
    pair = " ".join(f"{seat} {totals.get(seat, 0)}" for seat in SEATS)
    low, high = min(CARD_POINT_SUMS) + LAST_TRICK_BONUS, max(CARD_POINT_SUMS) + LAST_TRICK_BONUS
    listed = ", ".join(map(str, extras[1:-1])) + f" or {extras[-1]}"
    return (f"the totals {pair} add up to {together}, which no deal can make: its cards and last trick "
            f"give {low} to {high}, sequences and bella add {listed}")


class DealError(ValueError):
    """A deal cannot be set up: a bad deck, dealer or hanging points."""


class Phase(Enum):
    """The phases of a deal. Every change goes through ``KlaberjassDeal._enter``."""

    BIDDING_1 = "bidding-1"
    """First round: take the upcard's suit, pass, or schmeiss; non-dealer first."""
    SCHMEISS = "schmeiss"
    """The opponent of a schmeisser answers: accept (redeal) or refuse."""
    BIDDING_2 = "bidding-2"
    """Second round: name one of the other three suits, or pass (schmeiss if allowed)."""
    NAMING = "naming"
    """A round-2 schmeiss was refused: the maker names one of the other three suits."""
    DIX = "dix"
    """The holder of the 7 of trumps chooses ``dix`` (exchange with the upcard) or ``keep``."""
    PLAY = "play"
    """Nine tricks; each player declares sequences before his first card."""
    OVER = "over"
    """Scored, thrown in or redealt."""

    __hash__ = object.__hash__  # members are singletons: hash by identity


_TRANSITIONS: dict[Phase, frozenset[Phase]] = {
    Phase.BIDDING_1: frozenset({Phase.BIDDING_1, Phase.SCHMEISS, Phase.BIDDING_2, Phase.DIX, Phase.PLAY}),
    Phase.SCHMEISS: frozenset({Phase.OVER, Phase.NAMING, Phase.DIX, Phase.PLAY}),
    Phase.BIDDING_2: frozenset({Phase.BIDDING_2, Phase.SCHMEISS, Phase.PLAY, Phase.OVER}),
    Phase.NAMING: frozenset({Phase.PLAY}),
    Phase.DIX: frozenset({Phase.PLAY}),
    Phase.PLAY: frozenset({Phase.PLAY, Phase.OVER}),
    Phase.OVER: frozenset(),
}
"""Which phase may follow which: the one table of transitions."""


# ---------------------------------------------------------------------------------------------
# Klaberjass-specific events


@dataclass(frozen=True, slots=True)
class HandsCompleted(Event):
    """Three more cards each (non-dealer first); the stock's bottom card is turned face up."""

    added: tuple[tuple[Seat, tuple[Card, ...]], ...]
    bottom: Card


@dataclass(frozen=True, slots=True)
class DixDecided(Event):
    """The holder of the 7 of trumps exchanged it for the upcard (``exchanged``) or kept it."""

    seat: Seat
    exchanged: bool
    seven: Card
    upcard: Card


@dataclass(frozen=True, slots=True)
class BellaDecided(Event):
    """The second of K/Q of trumps was played: bella ``claimed`` (20) or declined (``nobella``)."""

    seat: Seat
    card: Card
    claimed: bool


# ---------------------------------------------------------------------------------------------
# Results


@dataclass(frozen=True)
class KlaberjassResult:
    """The outcome of a deal: ``played``, ``thrown-in``, ``redeal`` or ``scored`` (score sheet).

    Per-player figures are dicts keyed ``"N"``/``"S"`` (fresh copies on every access).
    ``hanging`` is the points still waiting after this deal (``equal-score=next-deal-winner``).
    """

    dealer: Seat
    outcome: str
    hanging: int = 0
    trump: Suit | None = None
    maker: Seat | None = None
    last_trick: Seat | None = None
    result: str | None = None
    score_items: tuple[tuple[str, int], ...] = (("N", 0), ("S", 0))
    totals_items: tuple[tuple[str, int], ...] = ()
    card_points_items: tuple[tuple[str, int], ...] = ()
    melds_items: tuple[tuple[str, int], ...] = ()
    bella_items: tuple[tuple[str, int], ...] = ()

    @property
    def counted(self) -> bool:
        """Whether the deal counts toward ``deals=N`` (thrown-in and redealt deals do not)."""
        return self.outcome in ("played", "scored")

    @property
    def score(self) -> dict[str, int]:
        """What the deal awards each player, after the maker rule and hanging points."""
        return dict(self.score_items)

    @property
    def totals(self) -> dict[str, int]:
        """Each player's total: card points + last trick + sequences + bella."""
        return dict(self.totals_items)

    @property
    def card_points(self) -> dict[str, int]:
        """Card points won in tricks, without the last trick's 10."""
        return dict(self.card_points_items)

    @property
    def melds(self) -> dict[str, int]:
        """Sequence points scored (only the comparison winner's, unless voided)."""
        return dict(self.melds_items)

    @property
    def bella(self) -> dict[str, int]:
        """Bella points scored (20 when claimed)."""
        return dict(self.bella_items)

    def to_json(self) -> dict[str, Any]:
        """The per-deal keys of record-format.md's JSON (without ``deal``, ``id``, ``match``)."""
        if self.outcome != "played":
            return deal_json(self, {"maker": str(self.maker)})
        return deal_json(self, {
            "trump": str(self.trump), "maker": str(self.maker), "card_points": self.card_points,
            "last_trick": str(self.last_trick), "melds": self.melds, "bella": self.bella,
        })


def _award(rules: KlaberjassRules, maker: Seat, totals: Mapping[Seat, int], hanging: int) -> tuple[
    str, dict[Seat, int], int
]:
    """The maker rule ("Klaberjass: scoring and the match", Counting a deal): result, score per
    seat, hanging points after."""
    opponent = _OTHER[maker]
    mine, theirs = totals[maker], totals[opponent]
    if mine > theirs:
        result, score = "made", {maker: mine, opponent: theirs}
    elif mine < theirs:
        result, score = "failed", {maker: 0, opponent: mine + theirs}
    else:
        result, score = "tie", {maker: 0, opponent: theirs}
    if result == "tie":
        waiting = hanging + (mine if rules.equal_score == "next-deal-winner" else 0)
    else:
        higher = maker if score[maker] > score[opponent] else opponent
        score[higher] += hanging
        waiting = 0
    return result, score, waiting


def _items(values: Mapping[Seat, int]) -> tuple[tuple[str, int], ...]:
    return tuple((str(seat), values.get(seat, 0)) for seat in SEATS)


def scored_result(
    rules: KlaberjassRules, dealer: Seat, maker: Seat, totals: Mapping[Seat, int], hanging: int = 0
) -> KlaberjassResult:
    """The result of a score-sheet deal (outcome ``scored``) from each player's total.

    >>> r = scored_result(KlaberjassRules(), Seat.S, Seat.N, {Seat.N: 84, Seat.S: 60})
    >>> r.to_json()["result"], r.score
    ('made', {'N': 84, 'S': 60})
    """
    if maker not in SEATS or dealer not in SEATS:
        raise DealError("Klaberjass seats are N and S")
    totals = {seat if isinstance(seat, Seat) else Seat.parse(seat): value for seat, value in totals.items()}
    if any(totals.get(seat, 0) < 0 for seat in SEATS):
        raise DealError("a total cannot be negative")
    result, score, waiting = _award(rules, maker, totals, hanging)
    return KlaberjassResult(
        dealer=dealer, outcome="scored", hanging=waiting, maker=maker, result=result,
        score_items=_items(score), totals_items=_items(totals),
    )


def next_dealer(rules: KlaberjassRules, dealer: Seat, outcome: str) -> Seat:
    """Who deals next: the dealer alternates every deal, throw-ins included; after an accepted
    schmeiss (outcome ``redeal``) with ``schmeiss-redeal=same-dealer`` he deals again.

    >>> next_dealer(KlaberjassRules(), Seat.S, "thrown-in")
    <Seat.N: 'N'>
    """
    if outcome == "redeal" and rules.schmeiss_redeal == "same-dealer":
        return dealer
    return _OTHER[dealer]


def stack_deck(
    elder_cards: Sequence[Card],
    dealer_cards: Sequence[Card],
    upcard: Card,
    bottom: Card | None = None,
) -> tuple[Card, ...]:
    """A deck (top first) that deals these hands, whoever deals: for tests and hand-written deals.

    ``elder_cards`` (the non-dealer's) and ``dealer_cards`` are nine cards each: the first six
    dealt, then the three added after the bidding. The other cards fill the stock in card order,
    ``bottom`` (if given) last.
    """
    if len(elder_cards) != 9 or len(dealer_cards) != 9:
        raise DealError("stack_deck needs nine cards for each player")
    used = [*elder_cards, *dealer_cards, upcard]
    rest = [card for card in DECK if card not in used and card != bottom]
    if bottom is not None:
        rest.append(bottom)
    e, d = list(elder_cards), list(dealer_cards)
    deck = (*e[0:3], *d[0:3], *e[3:6], *d[3:6], upcard, *e[6:9], *d[6:9], *rest)
    if len(set(deck)) != 32 or len(deck) != 32:
        raise DealError("stack_deck: the cards given are not 19 different cards")
    return deck


# ---------------------------------------------------------------------------------------------
# A seat's view


@dataclass(frozen=True, slots=True)
class KlaberjassView:
    """What one seat may see: its own hand and the public table, and its legal actions.

    ``rules``, ``bids`` and ``dix`` are public too: the options in play, the bidding so far, and
    the dix decision (who held the 7 of trumps, whether it was exchanged, and the upcard it was
    exchanged for, which was face up), so that a player need not remember earlier views.
    ``upcard`` is what lies face up now (the 7 of trumps after a dix).
    """

    seat: Seat
    rules: KlaberjassRules
    phase: Phase
    dealer: Seat
    to_act: Seat | None
    trump: Suit | None
    maker: Seat | None
    hand: tuple[Card, ...]
    opponent_cards: int
    upcard: Card
    bottom: Card | None
    trick: tuple[tuple[Seat, Card], ...]
    played: tuple[tuple[Seat, Card], ...]
    tricks_won: tuple[tuple[Seat, int], ...]
    talk: tuple[Phrase, ...]
    shown: tuple[tuple[Seat, tuple[Meld, ...]], ...]
    hanging: int
    bids: tuple[BidMade, ...]
    dix: DixDecided | None
    legal: tuple[Action, ...]


# ---------------------------------------------------------------------------------------------
# Shared action objects (actions are frozen values, so one object per choice will do)

_PLAYS = {
    (seat, bella): tuple(Action.play(seat, card, bella) for card in DECK) for seat in SEATS
    for bella in (True, False)
}
"""``_PLAYS[seat, bella][card.index]``: playing that card (``bella=False``: ``CARD nobella``)."""
_SIMPLE = {(seat, kind): Action(seat, kind) for seat in SEATS for kind in ActionKind}
_NAMES = {(seat, suit): Action.name(seat, suit) for seat in SEATS for suit in SUITS}
_SUIT_WORDS = {Suit.CLUBS: "clubs", Suit.DIAMONDS: "diamonds", Suit.HEARTS: "hearts", Suit.SPADES: "spades"}


def _by_strength(cards: Iterable[Card], trump: Suit) -> str:
    """Cards listed strongest first, for messages: ``JH, 9H``."""
    return ", ".join(str(card) for card in sorted(cards, key=lambda c: (-strength(c, trump), c.suit.index)))


# ---------------------------------------------------------------------------------------------
# The deal


class KlaberjassDeal(Deal[KlaberjassRules, Phase, KlaberjassResult]):
    """One deal of Klaberjass between ``N`` and ``S``.

    ``deck`` is the 32 cards, top first; ``hanging`` the points waiting from earlier tied deals
    (``equal-score=next-deal-winner``). The public state and the checked ``legal_actions()`` /
    ``verify()`` / ``apply()`` come from :class:`~klabsite.engine.deal.Deal`.
    """

    def __init__(
        self, rules: KlaberjassRules, dealer: Seat, deck: Sequence[Card], *, hanging: int = 0
    ) -> None:
        if dealer not in SEATS:
            raise DealError(f"the Klaberjass dealer is N or S, not {dealer}")
        cards = check_deck(deck, DealError)
        if hanging < 0:
            raise DealError(f"hanging points cannot be negative: {hanging}")
        elder = _OTHER[dealer]
        hands = {
            elder: sorted(cards[0:3] + cards[6:9], key=card_index),
            dealer: sorted(cards[3:6] + cards[9:12], key=card_index),
        }
        super().__init__(rules, dealer, cards, hands, Phase.BIDDING_1, elder)
        self.elder = elder
        """The non-dealer: bids, declares and leads first."""
        self.hanging = hanging
        """Points waiting from earlier tied deals when this deal began."""
        self._upcard = cards[12]
        self._stock: tuple[Card, ...] = cards[13:]
        self._bottom: Card | None = None
        self._maker: Seat | None = None
        self._schmeisser: Seat | None = None
        self._round = 1
        self._declared: dict[Seat, tuple[Meld, ...]] = {}
        self._comparison: Comparison | None = None
        self._talk: list[Phrase] = []
        self._played: list[tuple[Seat, Card]] = []
        self._tricks_won = {elder: 0, dealer: 0}
        self._card_points = {elder: 0, dealer: 0}
        self._last_winner: Seat | None = None
        self._one_of_kq = {elder: False, dealer: False}
        self._bella = {elder: 0, dealer: 0}
        self.events.append(
            Dealt(
                dealer=dealer,
                hands=tuple((seat, tuple(self._hands[seat])) for seat in (elder, dealer)),
                upcard=self._upcard,
            )
        )

    # -- public state (the rest is :class:`~klabsite.engine.deal.Deal`'s) -----------------------------

    @property
    def maker(self) -> Seat | None:
        """The player who chose trump, once there is one."""
        return self._maker

    @property
    def upcard(self) -> Card:
        """The face-up card (the 7 of trumps after a dix exchange)."""
        return self._upcard

    @property
    def stock(self) -> tuple[Card, ...]:
        """The cards still in the stock, top first (the last is the bottom card)."""
        return self._stock

    @property
    def bottom(self) -> Card | None:
        """The stock's bottom card, turned face up once the hands are completed."""
        return self._bottom

    @property
    def played(self) -> tuple[tuple[Seat, Card], ...]:
        """Every card played so far, in order."""
        return tuple(self._played)

    @property
    def declared(self) -> dict[Seat, tuple[Meld, ...]]:
        """The declarations made so far (an empty tuple for ``nomeld`` or a skipped one)."""
        return dict(self._declared)

    @property
    def comparison(self) -> Comparison | None:
        """The sequence comparison, once both players have declared."""
        return self._comparison

    # -- views and legality --------------------------------------------------------------------

    def view_for(self, seat: Seat) -> KlaberjassView:
        """What ``seat`` may see now (its own hand, the public table), for bots."""
        shown = tuple(
            (event.seat, event.melds) for event in self.events if isinstance(event, MeldsShown)
        )
        bids = tuple(event for event in self.events if isinstance(event, BidMade))
        dix = next((event for event in self.events if isinstance(event, DixDecided)), None)
        return KlaberjassView(
            seat=seat, rules=self.rules, phase=self._phase, dealer=self.dealer, to_act=self._to_act,
            trump=self._trump, maker=self._maker, hand=tuple(self._hands[seat]),
            opponent_cards=len(self._hands[_OTHER[seat]]), upcard=self._upcard, bottom=self._bottom,
            trick=tuple(self._trick), played=tuple(self._played),
            tricks_won=tuple(self._tricks_won.items()), talk=tuple(self._talk), shown=shown,
            hanging=self.hanging, bids=bids, dix=dix,
            legal=tuple(self.legal_actions()) if seat is self._to_act else (),
        )

    def _compute_legal(self) -> list[Action]:
        seat = self._to_act
        phase = self._phase
        if seat is None or phase is Phase.OVER:
            return []
        simple = _SIMPLE
        if phase is Phase.BIDDING_1:
            actions = [simple[seat, ActionKind.TAKE], simple[seat, ActionKind.PASS]]
            if self.rules.schmeiss == "on":
                actions.append(simple[seat, ActionKind.SCHMEISS])
            return actions
        if phase is Phase.BIDDING_2:
            actions = [simple[seat, ActionKind.PASS]]
            actions += [_NAMES[seat, suit] for suit in self._other_suits()]
            if self.rules.schmeiss == "on" and self.rules.schmeiss_round_2 == "on":
                actions.append(simple[seat, ActionKind.SCHMEISS])
            return actions
        if phase is Phase.SCHMEISS:
            return [simple[seat, ActionKind.ACCEPT], simple[seat, ActionKind.REFUSE]]
        if phase is Phase.NAMING:
            return [_NAMES[seat, suit] for suit in self._other_suits()]
        if phase is Phase.DIX:
            return [simple[seat, ActionKind.DIX], simple[seat, ActionKind.KEEP]]
        actions = []
        if self._declaring(seat):
            sets = meld_sets(self._hands[seat])
            actions = sorted((Action.meld(seat, melds) for melds in sets), key=Action.sort_key)
            actions.append(simple[seat, ActionKind.NOMELD])
            if sets:
                return actions
        cards, _ = self._playable(seat)
        second_kq = self._one_of_kq[seat]
        trump = self._trump
        plays, nobella = _PLAYS[seat, True], _PLAYS[seat, False]
        for card in cards:
            actions.append(plays[card.index])
            if second_kq and card.suit is trump and card.rank in (Rank.KING, Rank.QUEEN):
                actions.append(nobella[card.index])
        return actions

    def _other_suits(self) -> list[Suit]:
        return [suit for suit in SUITS if suit is not self._upcard.suit]

    def _declaring(self, seat: Seat) -> bool:
        """Whether ``seat`` is at his first card and has not yet declared."""
        return len(self._played) < 2 and seat not in self._declared

    def play_rule(self) -> tuple[tuple[Card, ...], str]:
        """In the card play, the cards the player to act may play and the word of the rule that
        decides them ("Klaberjass: sequences, play and bella", Play): ``lead`` (any card),
        ``follow`` (the suit led), ``higher-trump`` (trumps led, a higher one held),
        ``lower-trump`` (trumps led, none higher held: any trump), ``beat``
        (``must-beat=any-lead``: a higher card of the suit led), ``trump`` (void in the suit
        led) or ``any`` (void in it and in trumps)."""
        assert self._to_act is not None and self._trump is not None
        cards, rule = self._playable(self._to_act)
        return tuple(cards), rule

    def _playable(self, seat: Seat) -> tuple[list[Card], str]:
        """The cards ``seat`` may play and the rule that limits them (:meth:`play_rule`)."""
        hand = self._hands[seat]
        if not self._trick:
            return list(hand), "lead"
        led = self._trick[0][1]
        trump = self._trump
        assert trump is not None
        same = [card for card in hand if card.suit is led.suit]
        if same:
            trump_led = led.suit is trump
            if trump_led or self.rules.must_beat == "any-lead":
                bar = strength(led, trump)
                higher = [card for card in same if strength(card, trump) > bar]
                if higher:
                    return higher, "higher-trump" if trump_led else "beat"
            return same, "lower-trump" if trump_led else "follow"
        trumps = [card for card in hand if card.suit is trump]
        if trumps:
            return trumps, "trump"
        return list(hand), "any"

    def _explain(self, action: Action) -> str:
        """Why ``action`` is refused: who, what, the rule, what was legal."""
        seat = action.seat
        what = f"play {action.words}" if action.kind is ActionKind.PLAY else action.words
        head = f"{seat} cannot {what}"
        legal = self._legal or []
        options = ", ".join(a.words for a in legal)
        if self._phase is Phase.OVER:
            return f"{head}: the deal is over"
        if seat not in SEATS:
            return f"{head}: Klaberjass is played by N and S"
        if seat is not self._to_act:
            return f"{head}: it is {self._to_act}'s turn"
        kind = action.kind
        phase = self._phase
        if phase is Phase.PLAY:
            return f"{head}: {self._explain_play(action)}"
        if kind is ActionKind.SCHMEISS and self.rules.schmeiss == "off":
            return f"{head}: schmeiss is not played (schmeiss=off); legal: {options}"
        if phase is Phase.BIDDING_1:
            return f"{head}: the first bidding round is about the upcard's suit; legal: {options}"
        if phase is Phase.BIDDING_2:
            if kind is ActionKind.NAME:
                return (f"{head}: {_SUIT_WORDS[self._upcard.suit]} (the upcard's suit) was refused; "
                        f"name another suit; legal: {options}")
            if kind is ActionKind.SCHMEISS:
                return f"{head}: no schmeiss in the second round (schmeiss-round-2=off); legal: {options}"
            return f"{head}: in the second round {seat} may name another suit or pass; legal: {options}"
        if phase is Phase.SCHMEISS:
            return f"{head}: {seat} must answer the schmeiss; legal: {options}"
        if phase is Phase.NAMING:
            return f"{head}: the schmeiss was refused and {seat} must name a suit; legal: {options}"
        return f"{head}: {seat} holds the 7 of trumps and may exchange it for the upcard; legal: {options}"

    def _explain_play(self, action: Action) -> str:
        seat = action.seat
        hand = self._hands[seat]
        declaring = self._declaring(seat)
        kind = action.kind
        if kind in (ActionKind.MELD, ActionKind.NOMELD):
            if not declaring:
                if seat in self._declared:
                    return f"{seat} has already declared"
                return "sequences are declared only before one's first card"
            problem = meld_problem(action.melds, hand)
            return problem or "not a declaration this hand allows"
        if kind is not ActionKind.PLAY:
            return f"the cards are being played; legal: {', '.join(a.words for a in self._legal or [])}"
        card = action.card
        assert card is not None
        if declaring and runs_in(hand):
            return "holds a sequence: must first declare (meld …) or nomeld"
        if card not in hand:
            return f"does not hold {card}"
        cards, rule = self._playable(seat)
        trump = self._trump
        assert trump is not None
        if card in cards:
            return "nobella goes only with a player's second of K and Q of trumps"
        legal = _by_strength(cards, trump)
        led = self._trick[0][1]
        if rule in ("follow", "lower-trump"):
            return f"must follow suit with {legal}"
        if rule == "higher-trump":
            return f"trump was led, must play a higher trump: {legal}"
        if rule == "beat":
            return f"must beat {led} with {legal} (must-beat=any-lead)"
        return f"cannot follow {_SUIT_WORDS[led.suit]}, must trump with {legal}"

    # -- acting --------------------------------------------------------------------------------

    def _do_take(self, action: Action, new: list[Event]) -> None:
        new.append(BidMade(action.seat, "take"))
        self._choose_trump(action.seat, self._upcard.suit, new)

    def _do_pass(self, action: Action, new: list[Event]) -> None:
        seat = action.seat
        new.append(BidMade(seat, "pass"))
        if seat is self.elder:
            self._enter(self._phase, self.dealer)
        elif self._phase is Phase.BIDDING_1:
            self._round = 2
            self._enter(Phase.BIDDING_2, self.elder)
        else:
            self._end_unplayed("thrown-in", new)

    def _do_schmeiss(self, action: Action, new: list[Event]) -> None:
        new.append(BidMade(action.seat, "schmeiss"))
        self._schmeisser = action.seat
        self._enter(Phase.SCHMEISS, _OTHER[action.seat])

    def _do_accept(self, action: Action, new: list[Event]) -> None:
        new.append(BidMade(action.seat, "accept"))
        self._end_unplayed("redeal", new)

    def _do_refuse(self, action: Action, new: list[Event]) -> None:
        new.append(BidMade(action.seat, "refuse"))
        schmeisser = self._schmeisser
        assert schmeisser is not None
        maker = schmeisser if self.rules.schmeiss_refused == "schmeisser-makes" else action.seat
        if self._round == 1:
            self._choose_trump(maker, self._upcard.suit, new)
        else:
            self._enter(Phase.NAMING, maker)

    def _do_name(self, action: Action, new: list[Event]) -> None:
        assert action.suit is not None
        new.append(BidMade(action.seat, "name", action.suit))
        self._choose_trump(action.seat, action.suit, new)

    def _choose_trump(self, maker: Seat, trump: Suit, new: list[Event]) -> None:
        """Fix trump and maker, complete the hands, then dix or play."""
        self._maker, self._trump = maker, trump
        new.append(TrumpChosen(trump, maker))
        stock = self._stock
        elder, dealer = self.elder, self.dealer
        self._hands[elder] = sorted(self._hands[elder] + list(stock[0:3]), key=card_index)
        self._hands[dealer] = sorted(self._hands[dealer] + list(stock[3:6]), key=card_index)
        self._stock = stock[6:]
        self._bottom = stock[-1]
        new.append(HandsCompleted(((elder, stock[0:3]), (dealer, stock[3:6])), self._bottom))
        if trump is self._upcard.suit:
            seven = Card(Rank.SEVEN, trump)
            for seat in (elder, dealer):
                if seven in self._hands[seat]:
                    self._enter(Phase.DIX, seat)
                    return
        self._enter(Phase.PLAY, elder)

    def _do_dix(self, action: Action, new: list[Event]) -> None:
        seat = action.seat
        assert self._trump is not None
        seven = Card(Rank.SEVEN, self._trump)
        upcard = self._upcard
        exchanged = action.kind is ActionKind.DIX
        if exchanged:
            hand = self._hands[seat]
            hand.remove(seven)
            hand.append(upcard)
            hand.sort(key=card_index)
            self._upcard = seven
        new.append(DixDecided(seat, exchanged, seven, upcard))
        self._enter(Phase.PLAY, self.elder)

    def _do_meld(self, action: Action, new: list[Event]) -> None:
        self._declared[action.seat] = action.melds
        new.append(Declared(action.seat, action.melds))
        self._after_declaring(action.seat, new)

    def _after_declaring(self, seat: Seat, new: list[Event]) -> None:
        """Talk and, once both have declared, the comparison."""
        rules = self.rules
        if seat is self.elder:
            talk = opening_talk(seat, self._declared[seat], rules.long_sequence)
        else:
            assert self._trump is not None
            elder_melds, dealer_melds = self._declared.get(self.elder, ()), self._declared[seat]
            talk = reply_talk(self.elder, elder_melds, seat, dealer_melds, self._trump, rules.long_sequence)
            self._comparison = compare(
                self.elder, elder_melds, seat, dealer_melds, self._trump, rules.long_sequence,
                rules.equal_meld,
            )
        if talk:
            self._talk.extend(talk)
            new.append(Talk(talk))
        if self._comparison is not None and seat is self.dealer:
            c = self._comparison
            new.append(MeldsCompared(c.best, c.reason, c.points))

    def _do_play(self, action: Action, new: list[Event]) -> None:
        seat, card = action.seat, action.card
        assert card is not None
        if self._declaring(seat):  # he plays without declaring: he declares nothing
            self._declared[seat] = ()
            self._after_declaring(seat, new)
        trump = self._trump
        assert trump is not None
        self._play_card(seat, card)
        self._played.append((seat, card))
        number = (len(self._played) + 1) // 2
        if card.suit is trump and card.rank in (Rank.KING, Rank.QUEEN):
            if self._one_of_kq[seat]:
                if action.bella:
                    self._bella[seat] = BELLA
                new.append(CardPlayed(seat, card, number, bella=action.bella))
                new.append(BellaDecided(seat, card, action.bella))
            else:
                self._one_of_kq[seat] = True
                new.append(CardPlayed(seat, card, number))
        else:
            new.append(CardPlayed(seat, card, number))
        if len(self._trick) == 1:
            self._enter(Phase.PLAY, _OTHER[seat])
            return
        last = number == TRICKS
        trick = self._take_trick(number, last)
        winner = trick.winner
        self._card_points[winner] += trick.points - (LAST_TRICK_BONUS if last else 0)
        self._tricks_won[winner] += 1
        new.append(trick)
        if number == 1 and self._comparison is not None and self._comparison.best is not None:
            best = self._comparison.best
            new.append(MeldsShown(best, self._declared[best]))
        if last:
            self._last_winner = winner
            self._score(new)
        else:
            self._enter(Phase.PLAY, winner)

    def _score(self, new: list[Event]) -> None:
        rules = self.rules
        maker, trump, last = self._maker, self._trump, self._last_winner
        assert maker is not None and trump is not None and last is not None
        melds = {seat: 0 for seat in SEATS}
        comparison = self._comparison
        if comparison is not None and comparison.best is not None:
            best = comparison.best
            if not (rules.no_trick_melds == "void" and self._tricks_won[best] == 0):
                melds[best] = comparison.points
        totals = {
            seat: self._card_points[seat] + (LAST_TRICK_BONUS if seat is last else 0)
            + melds[seat] + self._bella[seat]
            for seat in SEATS
        }
        result, score, waiting = _award(rules, maker, totals, self.hanging)
        self._result = KlaberjassResult(
            dealer=self.dealer, outcome="played", hanging=waiting, trump=trump, maker=maker,
            last_trick=last, result=result, score_items=_items(score), totals_items=_items(totals),
            card_points_items=_items(self._card_points), melds_items=_items(melds),
            bella_items=_items(self._bella),
        )
        new.append(DealScored(result, self._result.score_items))
        self._enter(Phase.OVER, None)

    def _end_unplayed(self, outcome: str, new: list[Event]) -> None:
        new.append(ThrownIn(outcome))
        self._result = KlaberjassResult(dealer=self.dealer, outcome=outcome, hanging=self.hanging)
        self._enter(Phase.OVER, None)

    _TRANSITIONS = _TRANSITIONS
    _HANDLERS = {
        ActionKind.TAKE: _do_take,
        ActionKind.PASS: _do_pass,
        ActionKind.SCHMEISS: _do_schmeiss,
        ActionKind.ACCEPT: _do_accept,
        ActionKind.REFUSE: _do_refuse,
        ActionKind.NAME: _do_name,
        ActionKind.DIX: _do_dix,
        ActionKind.KEEP: _do_dix,
        ActionKind.MELD: _do_meld,
        ActionKind.NOMELD: _do_meld,
        ActionKind.PLAY: _do_play,
    }

    def __repr__(self) -> str:
        hands = " ".join(f"{seat}:{format_cards(cards, '')}" for seat, cards in self._hands.items())
        state = f"dealer={self.dealer} phase={self._phase.value} to_act={self._to_act}"
        return f"<KlaberjassDeal {state} {hands}>"
