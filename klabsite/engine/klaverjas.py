"""Klaverjas (4 players, Amsterdam and Rotterdam rules): the pure rules engine.

The rule book, the rules pages "Klaverjas" and the two after it, is the law this module implements;
the option names are those of :class:`~klabsite.engine.options.KlaverjasRules`. Seats ``N E S W``
sit clockwise, N–S partners against E–W. A deal goes through three phases (:class:`KlaverjasPhase`):
choosing trump, playing eight tricks, over. Every action is checked against
:meth:`KlaverjasDeal.legal_actions`, the one source of truth for legality, and yields frozen events
(:mod:`klabsite.engine.events`).

>>> from klabsite.engine.cards import DECK
>>> deal = KlaverjasDeal(KlaverjasRules(), Seat.S, DECK)
>>> deal.to_act, [action.words for action in deal.legal_actions()]
(<Seat.W: 'W'>, ['pass', 'name C', 'name D', 'name H', 'name S'])
>>> [type(event).__name__ for event in deal.apply(Action.name(Seat.W, Suit.HEARTS))]
['BidMade', 'TrumpChosen']
>>> deal.playing, deal.to_act        # the maker's side plays; left of the dealer leads
(<Side.EW: 'EW'>, <Seat.W: 'W'>)
>>> while not deal.is_over:
...     _ = deal.apply(deal.legal_actions()[0])
>>> deal.result.to_json()["totals"]
{'NS': 88, 'EW': 74}

Decisions where the rule book leaves room (each is a reading of the rule book, stated here so that
records, tests and the rules pages agree):

- *Trump led, void in trumps*: any card (the rule book: "otherwise any card"); nobody has to trump.
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

from klabsite.engine.actions import Action, ActionKind
from klabsite.engine.cards import DECK, SUITS, Card, Suit, point_sums, strength
from klabsite.engine.deal import Deal, card_index, check_deck, deal_json
from klabsite.engine.events import (
    BidMade,
    CardPlayed,
    DealScored,
    Dealt,
    Event,
    TrickWon,
    TrumpChosen,
)
from klabsite.engine.options import KlaverjasRules
from klabsite.engine.roem import (
    FOUR_OF_A_KIND_ROEM,
    MAX_DEAL_ROEM,
    PIT_BONUS,
    SEQUENCE_ROEM,
    STUK_ROEM,
    trick_roem,
)
from klabsite.engine.seats import CLOCKWISE, Seat, Side
from klabsite.engine.tricks import LAST_TRICK_BONUS, trick_winner_index

__all__ = [
    "SEATS",
    "DEAL_POINTS",
    "MAX_DEAL_VALUE",
    "SIDE_POINT_SUMS",
    "ROEM_SUMS",
    "points_problem",
    "roem_problem",
    "KlaverjasError",
    "KlaverjasPhase",
    "KlaverjasDeal",
    "KlaverjasResult",
    "KlaverjasView",
    "deal_hands",
    "deck_from_hands",
    "legal_plays",
    "play_rule",
    "PLAY_RULES",
    "next_dealer",
    "scored_result",
    "award",
]

SEATS: tuple[Seat, ...] = CLOCKWISE
"""The Klaverjas seats, clockwise: N E S W."""
_SIDES: tuple[Side, Side] = (Side.NS, Side.EW)
"""The two sides, in record order (iterating the Enum is slower)."""
DEAL_POINTS = 162
"""Every deal is worth 152 card points plus 10 for the last trick."""
MAX_DEAL_VALUE = DEAL_POINTS + PIT_BONUS + MAX_DEAL_ROEM
"""The largest difference between the two sides' scores for one deal: every point, the pit
bonus and the most roem a deal can hold (a ``dd`` value is never larger)."""


_CARD_SUMS = frozenset().union(*point_sums(len(DECK)))
SIDE_POINT_SUMS = _CARD_SUMS | {total + LAST_TRICK_BONUS for total in _CARD_SUMS}
"""The card points one side can take in a deal: every number from 0 to 162 but 1 and 161 (what
``klabsite score`` accepts, and ``klabsite check`` in a score-sheet deal's ``Points``)."""


def _roem_sums() -> frozenset[int]:
    parts = {*SEQUENCE_ROEM.values(), STUK_ROEM, *FOUR_OF_A_KIND_ROEM.values()} - {0}
    sums = {0}
    for total in range(10, MAX_DEAL_ROEM + 1, 10):  # every roem value is a multiple of 10
        if any(total - part in sums for part in parts):
            sums.add(total)
    return frozenset(sums)


ROEM_SUMS = _roem_sums()
"""The sums of roem values one side's roem must be (runs 20 and 50, stuk 20, four of a kind 100
and 200): 0, 20, and every multiple of 10 from 40 to 700. Not every one of them can be held: an
exhaustive search over the ways to share the cards among tricks finds no way to 530, 630 or 670
to 690; this set does not refuse those."""


def points_problem(points: Mapping[str, int]) -> str | None:
    """Why card points (last trick included) by side, ``NS`` or ``EW``, cannot come from one deal,
    or ``None`` when they can; a side left out has the rest of 162, checked after those given.

    >>> print(points_problem({"NS": 92}))
    None
    >>> print(points_problem({"EW": 161}))
    EW 161: no deal gives a side 161 card points (cards count 2, 3, 4, 10, 11, 14 or 20, the last trick 10)
    """
    for key in [*points, *(side.value for side in _SIDES if side.value not in points)]:
        value = points[key] if key in points else DEAL_POINTS - points[Side(key).other.value]
        if value not in SIDE_POINT_SUMS:
            return (f"{key} {value}: no deal gives a side {value} card points (cards count 2, 3, 4, 10, "
                    "11, 14 or 20, the last trick 10)")
    return None


def roem_problem(roem: Mapping[str, int]) -> str | None:
    """Why roem by side, ``NS`` or ``EW``, cannot come from one deal, or ``None`` when it can.

    >>> print(roem_problem({"NS": 20, "EW": 0}))
    None
    >>> print(roem_problem({"NS": 10}))
    NS 10: roem comes in 20, 50, 100 and 200, which make 0, 20, 40 or more
    """
    for key, value in roem.items():
        if value > MAX_DEAL_ROEM:
            return (f"{key} {value}: no deal holds more than {MAX_DEAL_ROEM} roem (four jacks, four aces, "
                    "kings and queens, and four runs of four)")
        if value % 10:
            return f"{key} {value} is not a multiple of 10 (roem comes in 20, 50, 100 …)"
        if value not in ROEM_SUMS:
            return f"{key} {value}: roem comes in 20, 50, 100 and 200, which make 0, 20, 40 or more"
    if sum(roem.values()) > MAX_DEAL_ROEM:
        both = " ".join(f"{side.value} {roem[side.value]}" for side in _SIDES if side.value in roem)
        return f"{both}: no deal holds more than {MAX_DEAL_ROEM} roem, both sides together"
    return None


TRICKS = 8
PACKETS = (3, 2, 3)
"""The deal: packets of 3, 2 and 3 cards to each seat in turn, starting left of the dealer."""


class KlaverjasError(ValueError):
    """A deal or score-sheet entry that cannot be set up: a wrong deck, seat or proposed suit."""


class KlaverjasPhase(Enum):
    """The phases of a deal, in order."""

    TRUMP = "trump"
    """Choosing trump."""
    PLAY = "play"
    """Playing the eight tricks."""
    OVER = "over"
    """Scored; nothing more to do."""

    __hash__ = object.__hash__  # members are singletons: hash by identity


_TRANSITIONS: dict[KlaverjasPhase, frozenset[KlaverjasPhase]] = {
    KlaverjasPhase.TRUMP: frozenset({KlaverjasPhase.PLAY}),
    KlaverjasPhase.PLAY: frozenset({KlaverjasPhase.OVER}),
    KlaverjasPhase.OVER: frozenset(),
}
"""Which phase may follow which."""


# ---------------------------------------------------------------------------------------------
# Dealing


def _order_from(seat: Seat) -> tuple[Seat, ...]:
    """The four seats clockwise starting at ``seat``."""
    return tuple(CLOCKWISE[(seat.index + i) % 4] for i in range(4))


def deal_hands(dealer: Seat, deck: Sequence[Card]) -> dict[Seat, tuple[Card, ...]]:
    """Each seat's eight cards (sorted by card index) when ``dealer`` deals ``deck`` (top first).

    record-format.md: cards 1–3, 4–6, 7–9, 10–12 to the four seats in turn starting left of the
    dealer, then 13–14 … 19–20, then 21–23 … 30–32.

    >>> from klabsite.engine.cards import DECK, format_cards
    >>> format_cards(deal_hands(Seat.W, DECK)[Seat.N])
    '7C 8C 9C JD QD JH QH KH'
    """
    return _deal(dealer, check_deck(deck, KlaverjasError))


def _deal(dealer: Seat, cards: tuple[Card, ...]) -> dict[Seat, tuple[Card, ...]]:
    hands: dict[Seat, list[Card]] = {seat: [] for seat in CLOCKWISE}
    position = 0
    for size in PACKETS:
        for seat in _order_from(dealer.left):
            hands[seat].extend(cards[position:position + size])
            position += size
    return {seat: tuple(sorted(hands[seat], key=card_index)) for seat in CLOCKWISE}


def deck_from_hands(dealer: Seat, hands: Mapping[Seat, Iterable[Card]]) -> tuple[Card, ...]:
    """A deck that deals exactly ``hands`` (eight cards per seat) when ``dealer`` deals.

    Used to set up a position on purpose: for tests, teaching deals and hand-written records.

    >>> from klabsite.engine.cards import DECK
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
    return check_deck(deck, KlaverjasError)


# ---------------------------------------------------------------------------------------------
# Card play (the rules page "Klaverjas: playing the cards")


def _card_list(cards: Iterable[Card], trump: Suit | None) -> str:
    """Cards for a message: by suit, strongest first within a suit (``KH, QH``)."""
    def key(card: Card) -> tuple[int, int]:
        return (card.suit.index, -strength(card, trump) if trump else -card.rank.index)
    return ", ".join(str(card) for card in sorted(cards, key=key))


_STRENGTH: dict[Suit, tuple[int, ...]] = {
    trump: tuple(strength(card, trump) for card in DECK) for trump in SUITS
}
"""``_STRENGTH[trump][card.index]``: :func:`~klabsite.engine.cards.strength`, looked up."""


PLAY_RULES = ("lead", "follow", "higher-trump", "lower-trump", "any", "trump", "overtrump", "undertrump",
              "no-undertrump", "only-lower-trumps", "partner-wins", "partner-no-undertrump")
"""The words :func:`play_rule` names the rule by (docstring there)."""

_RULE_MESSAGES: dict[str, str | None] = {
    "lead": None, "any": None, "partner-wins": None, "only-lower-trumps": None,
    "follow": "must follow suit with {cards}", "lower-trump": "must follow suit with {cards}",
    "higher-trump": "must overtrump with {cards}", "overtrump": "must overtrump with {cards}",
    "trump": "must trump with {cards}", "undertrump": "must undertrump with {cards}",
    "no-undertrump": "cannot overtrump and may not undertrump: play one of {cards}",
    "partner-no-undertrump": "may not undertrump partner's trump: play one of {cards}",
}


def play_rule(
    hand: Sequence[Card], trick: Sequence[Card], trump: Suit, rules: KlaverjasRules
) -> tuple[tuple[Card, ...], str]:
    """The cards of ``hand`` that may be played to ``trick`` (the cards so far, led first), and
    the word of the rule that decides them (the rules page "Klaverjas: playing the cards", with
    ``trick-rules`` and ``undertrump``):

    ``lead`` any card, leading; ``follow`` the suit led (a plain suit); trumps led: a
    ``higher-trump`` than any in the trick, or with none, any trump (``lower-trump``). Void in
    the suit led: ``any`` card without trumps; ``trump`` when the trick holds none yet, else
    ``overtrump``; unable to, ``only-lower-trumps`` when that is all the hand holds (whatever the
    rules), else ``undertrump`` (Rotterdam, ``undertrump=required``) or a card of another suit
    (``no-undertrump``). In Amsterdam, when the partner is winning the trick: any card
    (``partner-wins``), or any card but a trump lower than the partner's
    (``partner-no-undertrump``).

    >>> from klabsite.engine.cards import parse_cards
    >>> hand = parse_cards("7C JS 8S")                # void in hearts
    >>> trick = parse_cards("AH 9S 7H")              # the partner trumped the ace and is winning
    >>> play_rule(hand, trick, Suit.SPADES, KlaverjasRules())
    ((Card.parse('7C'), Card.parse('JS')), 'partner-no-undertrump')
    >>> play_rule(hand, trick, Suit.SPADES, KlaverjasRules.parse("trick-rules=rotterdam"))
    ((Card.parse('JS'),), 'overtrump')
    """
    cards = tuple(hand)
    if not trick:
        return cards, "lead"
    led = trick[0].suit
    follow = tuple(card for card in cards if card.suit is led)
    if follow and led is not trump:
        return follow, "follow"
    power = _STRENGTH[trump]
    top = max((power[card.index] for card in trick if card.suit is trump), default=0)  # 0: no trump
    trumps = follow if led is trump else tuple(card for card in cards if card.suit is trump)
    higher = tuple(card for card in trumps if power[card.index] > top)
    if led is trump:
        if higher:
            return higher, "higher-trump"
        return (follow, "lower-trump") if follow else (cards, "any")
    if not trumps:
        return cards, "any"
    plain = tuple(card for card in cards if card.suit is not trump)
    partner_winning = trick_winner_index(trick, trump) == len(trick) - 2
    if rules.trick_rules == "amsterdam" and partner_winning:
        allowed = tuple(card for card in cards if card.suit is not trump or power[card.index] > top)
        if not allowed:
            return cards, "only-lower-trumps"
        if not top or len(allowed) == len(cards):  # no trump in the trick, or no lower one held
            return cards, "partner-wins"
        return allowed, "partner-no-undertrump"
    if higher:
        return higher, ("overtrump" if top else "trump")
    if not plain:   # nothing but lower trumps: every rule lets them be played
        return cards, "only-lower-trumps"
    if rules.trick_rules == "rotterdam" and rules.undertrump == "required":
        return trumps, "undertrump"
    return plain, "no-undertrump"


def legal_plays(
    hand: Sequence[Card], trick: Sequence[Card], trump: Suit, rules: KlaverjasRules
) -> tuple[tuple[Card, ...], str | None]:
    """The cards of ``hand`` that may be played to ``trick`` (the cards so far, led first),
    and the rule that limits them (``None`` when any card may be played): :func:`play_rule`'s
    cards, its rule read as the end of a message, e.g. ``must follow suit with {cards}``.

    >>> from klabsite.engine.cards import parse_cards
    >>> hand = parse_cards("7C JS 8S")                # void in hearts, an opponent trumped
    >>> legal_plays(hand, parse_cards("AH 9S"), Suit.SPADES, KlaverjasRules())
    ((Card.parse('JS'),), 'must overtrump with {cards}')
    >>> legal_plays(hand, parse_cards("AH 7H"), Suit.SPADES, KlaverjasRules())[1] is None
    True
    """
    cards, rule = play_rule(hand, trick, trump, rules)
    return cards, _RULE_MESSAGES[rule]


# ---------------------------------------------------------------------------------------------
# Scoring (the rules page "Klaverjas: roem and scoring")


def _by_side(values: Mapping[Side, Any]) -> dict[str, Any]:
    return {side.value: values[side] for side in _SIDES}


def award(
    playing: Side, points: Mapping[Side, int], roem: Mapping[Side, int], pit: bool
) -> tuple[dict[Side, int], str, dict[Side, int]]:
    """Totals, ``made``/``nat`` and the awarded score from points (incl. last trick) and roem:
    the nat rule ("Made or nat"), unchecked (the points need not add up to 162, so that a caller may ask
    what other points would have scored).

    >>> totals, result, score = award(Side.NS, {Side.NS: 71, Side.EW: 81}, {Side.NS: 0, Side.EW: 0}, False)
    >>> result, score[Side.EW]
    ('nat', 162)
    """
    totals = {
        side: points[side] + roem[side] + (PIT_BONUS if pit and side is playing else 0) for side in _SIDES
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
        details: dict[str, Any]
        if self.outcome == "played":
            assert self.trump is not None and self.last_trick is not None
            details = {
                "trump": self.trump.value, "playing": self.playing.value,
                "card_points": dict(self.card_points or {}), "last_trick": self.last_trick.value,
            }
        else:
            details = {"playing": self.playing.value, "points": dict(self.points or {})}
        details["roem"] = dict(self.roem)
        details["pit"] = self.pit
        return deal_json(self, details)


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
    if roem[Side.NS] + roem[Side.EW] > MAX_DEAL_ROEM:
        raise KlaverjasError(
            f"roem NS {roem[Side.NS]} EW {roem[Side.EW]}: no deal holds more than {MAX_DEAL_ROEM} roem "
            "(four jacks, four aces, kings and queens, and four runs of four)"
        )
    if points[Side.NS] + points[Side.EW] != DEAL_POINTS:
        raise KlaverjasError(
            f"the card points of both sides add up to {DEAL_POINTS}, not "
            f"{points[Side.NS]} + {points[Side.EW]}"
        )
    if pit and (points[playing] != DEAL_POINTS or roem[playing.other]):
        raise KlaverjasError(f"pit means {playing} took every trick: all {DEAL_POINTS} points, no roem for "
                             f"{playing.other}")
    totals, result, score = award(playing, points, roem, pit)
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

_PLAY_ACTIONS: dict[Seat, tuple[Action, ...]] = {
    seat: tuple(Action.play(seat, card) for card in DECK) for seat in CLOCKWISE
}
"""Every card-play action, made once (actions are frozen values): ``[seat][card.index]``."""

_CARD_PLAYED: dict[Seat, tuple[tuple[CardPlayed, ...], ...]] = {
    seat: tuple(tuple(CardPlayed(seat, card, number) for card in DECK) for number in range(1, TRICKS + 1))
    for seat in CLOCKWISE
}
"""Every ``CardPlayed`` event, made once (events are frozen values): ``[seat][trick - 1][card.index]``."""

_NAMES: dict[Seat, tuple[Action, ...]] = {
    seat: tuple(Action.name(seat, suit) for suit in SUITS) for seat in CLOCKWISE
}
_TAKE: dict[Seat, Action] = {seat: Action(seat, ActionKind.TAKE) for seat in CLOCKWISE}
_PASS: dict[Seat, Action] = {seat: Action(seat, ActionKind.PASS) for seat in CLOCKWISE}
"""The trump-choice actions, made once per seat."""
_LEFT: dict[Seat, Seat] = {seat: seat.left for seat in CLOCKWISE}


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


class KlaverjasDeal(Deal[KlaverjasRules, KlaverjasPhase, KlaverjasResult]):
    """One Klaverjas deal, from the dealt cards to the score.

    ``deck`` is the 32 cards, top first; ``proposed`` is the suit proposed with
    ``trump-choice=turned`` (required there, refused otherwise). The public state and the
    checked ``legal_actions()`` / ``verify()`` / ``apply()`` come from :class:`~klabsite.engine.deal.Deal`.
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
        cards = check_deck(deck, KlaverjasError)
        dealt = _deal(dealer, cards)
        super().__init__(
            rules, dealer, cards, {seat: list(held) for seat, held in dealt.items()},
            KlaverjasPhase.TRUMP, dealer.left,
        )
        self.proposed = proposed
        self._bids: list[BidMade] = []
        self._maker: Seat | None = None
        self._leader = dealer.left
        self._tricks: list[TrickWon] = []
        self.events.append(Dealt(dealer, tuple(dealt.items()), proposed=proposed))

    # -- state (the rest is :class:`~klabsite.engine.deal.Deal`'s) -----------------------------------

    @property
    def maker(self) -> Seat | None:
        """Who chose trump (named it or took the proposed suit)."""
        return self._maker

    @property
    def chooser(self) -> Seat | None:
        """The maker, by the name it had before (scripts written for it keep working)."""
        return self._maker

    @property
    def playing(self) -> Side | None:
        """The playing side: the maker's side."""
        return self._maker.side if self._maker else None

    @property
    def bids(self) -> tuple[BidMade, ...]:
        """The trump-choice actions so far."""
        return tuple(self._bids)

    @property
    def tricks(self) -> tuple[TrickWon, ...]:
        """The completed tricks."""
        return tuple(self._tricks)

    @property
    def leader(self) -> Seat:
        """Who leads (led) the current trick."""
        return self._leader

    # -- legality ---------------------------------------------------------------------------

    def _all_passed(self) -> bool:
        return len(self._bids) >= 4

    def play_rule(self) -> tuple[tuple[Card, ...], str]:
        """In the card play, the cards the player to act may play and the word of the rule that
        decides them (:func:`play_rule`)."""
        assert self._to_act is not None and self._trump is not None
        hand = self._hands[self._to_act]
        return play_rule(hand, [card for _, card in self._trick], self._trump, self.rules)

    def _compute_legal(self) -> list[Action]:
        seat = self._to_act
        if seat is None:
            return []
        if self._phase is KlaverjasPhase.PLAY:
            plays = _PLAY_ACTIONS[seat]
            return [plays[card.index] for card in self.play_rule()[0]]
        choice = self.rules.trump_choice
        names = _NAMES[seat]
        if choice == "turned":
            if self._all_passed():
                return [name for name in names if name.suit is not self.proposed]
            return [_TAKE[seat], _PASS[seat]]
        if choice == "forced" or self._all_passed():
            return list(names)
        return [_PASS[seat], *names]

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
            cards, rule = self.play_rule()
            listed = _card_list(cards, self._trump)
            return f"{seat} cannot {what}: " + (_RULE_MESSAGES[rule] or "{cards}").format(cards=listed)
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

    def _bid(self, action: Action, new: list[Event]) -> None:
        seat = action.seat
        if action.kind is ActionKind.PASS:
            bid = BidMade(seat, "pass")
            self._bids.append(bid)
            new.append(bid)
            self._to_act = _LEFT[seat]
            return
        if action.kind is ActionKind.TAKE:
            bid, trump = BidMade(seat, "take", self.proposed), self.proposed
        else:
            bid, trump = BidMade(seat, "name", action.suit), action.suit
        assert trump is not None
        self._bids.append(bid)
        self._trump, self._maker = trump, seat
        self._leader = self.dealer.left
        self._enter(KlaverjasPhase.PLAY, self._leader)
        new += (bid, TrumpChosen(trump, seat))

    def _play(self, action: Action, new: list[Event]) -> None:
        seat, card = action.seat, action.card
        assert card is not None
        self._play_card(seat, card)
        number = len(self._tricks) + 1
        new.append(_CARD_PLAYED[seat][number - 1][card.index])
        if len(self._trick) < 4:
            self._to_act = _LEFT[seat]
            return
        won = self._take_trick(number, number == TRICKS)
        self._tricks.append(won)
        new.append(won)
        self._to_act = self._leader = won.winner
        if won.last:
            new.append(self._finish())

    def _trick_roem(self, cards: Sequence[Card], trump: Suit) -> int:
        return trick_roem(cards, trump)

    def _finish(self) -> DealScored:
        assert self._trump is not None and self._maker is not None
        playing = self._maker.side
        card_points = dict.fromkeys(_SIDES, 0)
        roem = dict.fromkeys(_SIDES, 0)
        won = dict.fromkeys(_SIDES, 0)
        for trick in self._tricks:
            side = trick.winner.side
            card_points[side] += trick.points - (LAST_TRICK_BONUS if trick.last else 0)
            roem[side] += trick.roem
            won[side] += 1
        last_trick = self._tricks[-1].winner.side
        points = {side: card_points[side] + (LAST_TRICK_BONUS if side is last_trick else 0)
                  for side in _SIDES}
        pit = won[playing] == TRICKS
        totals, result, score = award(playing, points, roem, pit)
        self._result = KlaverjasResult(
            dealer=self.dealer, outcome="played", playing=playing, roem=_by_side(roem), pit=pit,
            totals=_by_side(totals), result=result, score=_by_side(score), trump=self._trump,
            card_points=_by_side(card_points), last_trick=last_trick,
        )
        self._enter(KlaverjasPhase.OVER, None)
        return DealScored(result, tuple(_by_side(score).items()))

    _TRANSITIONS = _TRANSITIONS
    _HANDLERS = {ActionKind.PASS: _bid, ActionKind.TAKE: _bid, ActionKind.NAME: _bid, ActionKind.PLAY: _play}

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
