"""The steps of a replayed deal, each with the table as it stands after it. Pure.

A deal's replay is a list of :class:`Step`, named as the replay addresses are (docs/record-format.md,
"Canonical form and identity"): ``deal`` (the hands as dealt), ``b1``, ``b2`` … (each bidding
action), ``x`` (Klaberjass: the extra cards and the bottom card turned up), ``dix`` (the 7 of
trumps exchanged or kept), ``m1``, ``m2`` … (each declaration), ``t3-2`` (trick 3, card 2) and
``end`` (the score). A thrown-in deal goes from its last bid to ``end``; an unfinished one stops
at its last action. Each step carries the events it produced and a :class:`Table`: everything a
page draws, folded from the event log alone (the engine is never asked again).

A seat's row is sorted the way a player sorts his hand: in a fixed suit order (black and red
alternating), trumps jack, nine, ace, ten …, the other suits ace, ten, king …. He sorts it again
when trump is chosen and, in Klaberjass, when the extra cards come and when he takes the upcard by
dix; all of that happens before the first card, so from the first card to the last nothing moves:
a played card keeps its place. A slot is ``coming`` (a Klaberjass extra card, drawn face down at
the end of the row until it is dealt), ``held``, ``played`` (in trick n) or ``gone`` (the 7 of
trumps given up for the upcard).

>>> from pathlib import Path
>>> from klabsite.records.klab import read_record
>>> from klabsite.records.replay import replay
>>> doc = Path(__file__).parents[2] / "docs" / "record-format.md"  # its first example
>>> text = doc.read_text(encoding="utf-8").split("```klab")[1].split("```")[0]
>>> match = replay(read_record(text))
>>> steps = deal_steps(match.deals[0])
>>> [step.name for step in steps[:6]], steps[-1].name
(['deal', 'b1', 'x', 'dix', 'm1', 't1-1'], 'end')
>>> last_card = steps[-2]
>>> last_card.name, last_card.table.points, last_card.table.won_by
('t9-2', {'N': 14, 'S': 78}, <Seat.S: 'S'>)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from klabsite.engine.actions import Action, ActionKind
from klabsite.engine.cards import PLAIN_ORDER, TRUMP_ORDER, Card, Suit
from klabsite.engine.events import (
    CardPlayed,
    DealScored,
    Dealt,
    Event,
    ThrownIn,
    TrickWon,
    TrumpChosen,
)
from klabsite.engine.klaberjass import BELLA, DixDecided, HandsCompleted
from klabsite.engine.melds import MeldsCompared, MeldsShown
from klabsite.engine.seats import Seat
from klabsite.records.replay import DealReplay

__all__ = ["Slot", "Table", "Step", "deal_steps", "SUIT_ORDER"]

SUIT_ORDER: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)
"""How hands are sorted on the table: black and red suits alternate."""

_BIDS = frozenset({ActionKind.TAKE, ActionKind.PASS, ActionKind.NAME, ActionKind.SCHMEISS,
                   ActionKind.ACCEPT, ActionKind.REFUSE})
_DECLARATIONS = frozenset({ActionKind.MELD, ActionKind.NOMELD})
_EXCHANGE = frozenset({ActionKind.DIX, ActionKind.KEEP})


@dataclass(frozen=True, slots=True)
class Slot:
    """One place in a seat's row of cards: the card and what has become of it."""

    card: Card
    state: str
    """``coming`` (not dealt yet), ``held``, ``played`` or ``gone`` (given up by dix)."""
    trick: int | None = None
    """For a played card, the trick it went to."""
    extra: bool = False
    """Klaberjass: the card came with the extra cards, after the bidding."""


@dataclass(frozen=True)
class Table:
    """The table after a step: what a replay page draws. Figures are per player (Klaberjass) or side."""

    hands: dict[Seat, tuple[Slot, ...]]
    dealer: Seat
    trump: Suit | None = None
    maker: Seat | None = None
    """The player who chose trump: the Klaberjass maker, or the Klaverjas player whose side plays."""
    upcard: Card | None = None
    """Klaberjass: the card face up beside the stock: the turned card, or after a dix the 7 of
    trumps given for it."""
    dix: DixDecided | None = None
    """Klaberjass: the dix, once made (who gave which 7 for which upcard)."""
    proposed: Suit | None = None
    """Klaverjas ``trump-choice=turned``: the proposed suit."""
    bottom: Card | None = None
    """Klaberjass: the stock's bottom card, turned up with the extra cards."""
    stock: int = 0
    """Klaberjass: the number of cards left in the stock."""
    trick: tuple[tuple[Seat, Card], ...] = ()
    """The cards of the trick in the middle, in play order (the last complete one until the next lead)."""
    trick_number: int = 0
    won_by: Seat | None = None
    """The winner of the trick in the middle, once it is complete."""
    tricks: tuple[TrickWon, ...] = ()
    points: dict[str, int] = field(default_factory=dict)
    """Card points won so far (the last trick's 10 included once it is played)."""
    roem: dict[str, int] = field(default_factory=dict)
    """Klaverjas: roem won so far."""
    bella: dict[str, int] = field(default_factory=dict)
    """Klaberjass: bella scored so far."""
    melds: dict[str, int] = field(default_factory=dict)
    """Klaberjass: sequences scored so far: the comparison's winner's points, from when he shows
    them after the first trick."""
    thrown_in: str | None = None
    """``thrown-in`` or ``redeal`` once the deal is thrown in."""


@dataclass(frozen=True)
class Step:
    """One step of a deal: its address name, the action (none for ``deal`` and ``end``), its
    events, and the table after it."""

    name: str
    action: Action | None
    events: tuple[Event, ...]
    table: Table

    @property
    def seat(self) -> Seat | None:
        """Who acted (None for ``deal``, ``x`` and ``end``)."""
        return self.action.seat if self.action is not None and self.name != "x" else None

    @property
    def trick(self) -> int | None:
        """For a card step, its trick number."""
        return int(self.name[1:].split("-")[0]) if self.name.startswith("t") else None


def _key(seat: Seat, by_side: bool) -> str:
    return seat.side.value if by_side else seat.value


def _sorted(cards: Iterable[Card], trump: Suit | None = None) -> list[Card]:
    """Cards as a player sorts them: by suit, each suit high to low (the trump suit in trump order)."""
    def place(card: Card) -> tuple[int, int]:
        order = TRUMP_ORDER if card.suit == trump else PLAIN_ORDER
        return SUIT_ORDER.index(card.suit), order.index(card.rank)
    return sorted(cards, key=place)


class _Fold:
    """The table, built up event by event."""

    def __init__(self, dealt: Dealt, everything: Sequence[Event], by_side: bool) -> None:
        self.by_side = by_side
        keys = sorted({_key(seat, by_side) for seat, _ in dealt.hands}, key=lambda key: "NESW".index(key[0]))
        zero = dict.fromkeys(keys, 0)
        self.rows: dict[Seat, list[Card]] = {seat: _sorted(hand) for seat, hand in dealt.hands}
        self.coming: dict[Seat, list[Card]] = {seat: [] for seat, _ in dealt.hands}
        self.extras: set[Card] = set()
        for event in everything:  # the Klaberjass extra cards, face down until they are dealt
            if isinstance(event, HandsCompleted):
                for seat, cards in event.added:
                    self.coming[seat] = _sorted(cards)
                    self.extras.update(cards)
        self.state: dict[Card, tuple[str, int | None]] = {
            card: ("held", None) for _, hand in dealt.hands for card in hand}
        self.state.update((card, ("coming", None)) for card in self.extras)
        stock = 32 - sum(len(hand) for _, hand in dealt.hands) - (1 if dealt.upcard else 0)
        self.table = Table(hands={}, dealer=dealt.dealer, upcard=dealt.upcard, proposed=dealt.proposed,
                           stock=stock if dealt.upcard else 0, points=dict(zero),
                           roem=dict(zero) if by_side else {}, bella={} if by_side else dict(zero),
                           melds={} if by_side else dict(zero))
        self.sequences = 0  # what the comparison's winner scores for his sequences

    def apply(self, event: Event) -> None:
        table = self.table
        if isinstance(event, TrumpChosen):
            self.rows = {seat: _sorted(row, event.trump) for seat, row in self.rows.items()}
            self.table = replace(table, trump=event.trump, maker=event.maker)
        elif isinstance(event, ThrownIn):
            self.table = replace(table, thrown_in=event.reason)
        elif isinstance(event, CardPlayed):
            self.state[event.card] = ("played", event.trick)
            middle = table.trick if table.won_by is None else ()
            bella = dict(table.bella)
            if event.bella:
                bella[_key(event.seat, self.by_side)] += BELLA
            self.table = replace(table, trick=(*middle, (event.seat, event.card)), trick_number=event.trick,
                                 won_by=None, bella=bella)
        elif isinstance(event, TrickWon):
            key = _key(event.winner, self.by_side)
            points, roem = dict(table.points), dict(table.roem)
            points[key] += event.points
            if event.roem:
                roem[key] += event.roem
            self.table = replace(table, won_by=event.winner, points=points, roem=roem,
                                 tricks=(*table.tricks, event))
        elif isinstance(event, HandsCompleted):
            for seat, cards in event.added:
                for card in cards:
                    self.state[card] = ("held", None)
                self.rows[seat] = _sorted([*self.rows[seat], *cards], table.trump)
                self.coming[seat] = []
            dealt = sum(len(cards) for _, cards in event.added)
            self.table = replace(table, bottom=event.bottom, stock=table.stock - dealt)
        elif isinstance(event, MeldsCompared):
            self.sequences = event.points if event.best is not None else 0
        elif isinstance(event, MeldsShown) and self.sequences:
            self.table = replace(table, melds={**table.melds, _key(event.seat, self.by_side): self.sequences})
        elif isinstance(event, DixDecided) and event.exchanged:
            self.state[event.seven] = ("gone", None)
            self.state[event.upcard] = ("held", None)
            self.rows[event.seat] = _sorted([*self.rows[event.seat], event.upcard], table.trump)
            self.table = replace(table, upcard=event.seven, dix=event)

    def snapshot(self) -> Table:
        state = self.state
        hands = {seat: tuple(Slot(card, *state[card], extra=card in self.extras)
                             for card in (*row, *self.coming[seat]))
                 for seat, row in self.rows.items()}
        return replace(self.table, hands=hands)


def _name(action: Action, counts: dict[str, int], trick: tuple[int, int]) -> str:
    kind = action.kind
    if kind in _BIDS:
        counts["b"] += 1
        return f"b{counts['b']}"
    if kind in _EXCHANGE:
        return "dix"
    if kind in _DECLARATIONS:
        counts["m"] += 1
        return f"m{counts['m']}"
    return f"t{trick[0]}-{trick[1]}"


def _split(events: tuple[Event, ...]) -> tuple[tuple[Event, ...], tuple[Event, ...], tuple[Event, ...]]:
    """An action's events as (its own, the extra cards dealt ``x``, the deal's end)."""
    own: list[Event] = []
    extra: list[Event] = []
    end: list[Event] = []
    for event in events:
        if isinstance(event, DealScored):
            end.append(event)
        elif isinstance(event, HandsCompleted):
            extra.append(event)
        else:
            own.append(event)
    return tuple(own), tuple(extra), tuple(end)


def deal_steps(done: DealReplay) -> list[Step]:
    """The steps of a played deal (``[]`` for a score-sheet deal or one that could not be replayed)."""
    if done.deal is None or not done.opening:
        return []
    dealt = next(event for event in done.opening if isinstance(event, Dealt))
    everything = [event for _, events in done.applied for event in events]
    fold = _Fold(dealt, everything, by_side=len(dealt.hands) == 4)
    steps = [Step("deal", None, done.opening, fold.snapshot())]
    counts = {"b": 0, "m": 0}
    ending: list[Event] = []
    for action, events in done.applied:
        card = next((event for event in events if isinstance(event, CardPlayed)), None)
        position = len(fold.table.trick) + 1 if fold.table.won_by is None else 1
        trick = (card.trick, position) if card else (0, 0)
        own, extra, end = _split(events)
        for event in own:
            fold.apply(event)
        steps.append(Step(_name(action, counts, trick), action, own, fold.snapshot()))
        if extra:
            for event in extra:
                fold.apply(event)
            steps.append(Step("x", action, extra, fold.snapshot()))
        ending += end
    if done.result is not None:
        steps.append(Step("end", None, tuple(ending), fold.snapshot()))
    return steps
