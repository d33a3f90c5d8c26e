"""Klaverjas double-dummy values: nat, pit and roem on top of the search of the card play.

A :class:`KlaverjasPosition` is a card-play position with all four hands visible, plus what the
score still depends on: the playing side, and each side's points, roem and tricks so far. Its
**value** for a side is the deal's score for that side minus the other's as the rules award it.

How the score is searched. Let ``D`` be the playing side's total minus the opponents' (points,
roem, and the pit's 100 when the playing side takes every trick) and ``R`` all roem of the deal.
The value for the playing side is ``D`` when ``D > 0`` (made) and ``-(162 + R)`` otherwise (nat):
two quantities, and in a nat the playing side, beaten on ``D``, still fights about ``R``. So:

- "Is the value at least ``v``?" for ``v > -162`` asks only ``D ≥ max(v, 1)``: a search of ``D``
  (points and roem of each trick to its winner, ± for the playing side, pit as a bonus);
- for ``v = -(162 + r)`` it asks "``D ≥ 1`` or ``R ≤ r``": one search of ``D + BIG·[R ≤ r]``
  (:mod:`klabsite.solver.klaverjas_search`, the roem limit ``r`` minus the roem so far).

The search first asks whether the deal is made; if so it finds ``D`` with null windows,
galloping up from the first bound and then bisecting; if not, the smallest roem limit the playing
side can hold (a nat's value), trying the limits from the smallest.

>>> from klabsite.engine.cards import mask_of, parse_cards
>>> hands = tuple(mask_of(parse_cards(text)) for text in ("JH 7C", "9H AC", "KH 8C", "QH TC"))
>>> position = KlaverjasPosition(hands, trump=2, playing=1, leader=0)
>>> KlaverjasSolver().value(position)      # E–W take 31 to 41 + roem 40: nat pays N–S 162 + 40
202
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from klabsite.engine.cards import DECK, Card
from klabsite.engine.fast import klaverjas as fast
from klabsite.engine.klaverjas import DEAL_POINTS
from klabsite.engine.roem import PIT_BONUS
from klabsite.engine.tricks import LAST_TRICK_BONUS
from klabsite.solver.native import KlaverjasCore, klaverjas_search
from klabsite.solver.search import largest
from klabsite.solver.tables import cards_in, points_in, roem_bound

__all__ = ["KlaverjasPosition", "KlaverjasSolver", "takes_every_trick"]


@dataclass(frozen=True, slots=True)
class KlaverjasPosition:
    """A Klaverjas card-play position, all cards visible. Seats 0–3 are ``N E S W``; sides 0
    (``NS``) and 1 (``EW``) are ``seat & 1``.

    ``hands`` are the cards still held (bit ``i`` is card ``i`` of ``DECK``); ``leader`` led the
    trick in progress, whose cards so far are ``trick``; ``points`` (the last trick's 10 included
    once won), ``roem`` and ``tricks`` are per side so far; ``rotterdam`` is
    ``trick-rules=rotterdam`` and ``undertrump`` is ``undertrump=required``.
    """

    hands: tuple[int, ...]
    trump: int
    playing: int
    leader: int
    trick: tuple[int, ...] = ()
    points: tuple[int, int] = (0, 0)
    roem: tuple[int, int] = (0, 0)
    tricks: tuple[int, int] = (0, 0)
    rotterdam: bool = False
    undertrump: bool = True

    @property
    def to_act(self) -> int:
        """The seat to play next."""
        return (self.leader + len(self.trick)) & 3

    @property
    def is_over(self) -> bool:
        """Whether every card has been played."""
        return not any(self.hands) and not self.trick

    def _fast(self) -> fast.Position:
        position = fast.Position(self.hands, self.trump, self.leader, rotterdam=self.rotterdam,
                                 undertrump=self.undertrump)
        position.trick = list(self.trick)
        position.points, position.roem = list(self.points), list(self.roem)
        position.tricks = list(self.tricks)
        return position

    def legal(self) -> int:
        """The cards the seat to act may play, as a mask."""
        return self._fast().legal()

    def play(self, card: int) -> KlaverjasPosition:
        """The position after the seat to act plays ``card`` (unchecked)."""
        position = self._fast()
        position.play(card)
        points, roem, tricks = position.points, position.roem, position.tricks
        return replace(self, hands=tuple(position.hands), leader=position.leader, trick=tuple(position.trick),
                       points=(points[0], points[1]), roem=(roem[0], roem[1]), tricks=(tricks[0], tricks[1]))

    def cards_in_play(self) -> int:
        """The cards still held and those of the trick in progress."""
        cards = self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3]
        for card in self.trick:
            cards |= 1 << card
        return cards

    def final_value(self) -> int:
        """The value for the playing side of a finished deal (nat and pit applied)."""
        score = fast.deal_score(self.playing, self._fast().outcome())
        return score[self.playing] - score[1 - self.playing]


class KlaverjasSolver:
    """Exact values of Klaverjas positions, keeping a search (and its transposition table) per
    trump, playing side and trick rules between calls: positions of one deal share it.

    ``nodes`` counts the cards played by the searches of the last :meth:`value` or
    :meth:`card_values` call. ``native``: use the C search core (``True``), the Python one
    (``False``), or C when it is built (``None``).
    """

    def __init__(self, native: bool | None = None) -> None:
        self.native = native
        self._searches: dict[tuple[int, int, bool, bool], KlaverjasCore] = {}
        self.nodes = 0

    def _search(self, position: KlaverjasPosition) -> KlaverjasCore:
        key = (position.trump, position.playing, position.rotterdam, position.undertrump)
        search = self._searches.get(key)
        if search is None:
            search = self._searches[key] = klaverjas_search(*key, native=self.native)
        return search

    def playing_value(self, position: KlaverjasPosition, guess: int | None = None) -> int:
        """The exact value of ``position`` for the playing side (``guess``: a value to try first)."""
        if position.is_over:
            return position.final_value()
        playing = position.playing
        search = self._search(position)
        pit = not position.tricks[1 - playing]
        hands, leader, trick = position.hands, position.leader, position.trick
        sign = 1 if (leader & 1) == playing else -1
        done = (position.points[playing] + position.roem[playing]
                - position.points[1 - playing] - position.roem[1 - playing])
        roem_so_far = position.roem[0] + position.roem[1]

        def test(threshold: int, roem_limit: int) -> tuple[bool, int]:
            """Is the playing side's search value at least ``threshold``? (and a fail-soft bound)"""
            beta = threshold if sign > 0 else 1 - threshold
            found = search.search(hands, leader, trick, pit, roem_limit, beta - 1, beta)
            if sign > 0:
                return found >= beta, found
            return found < beta, -found

        made, bound = test(1 - done, -1)
        cards = position.cards_in_play()
        roem = roem_bound(cards, position.trump)
        if made:
            reach = points_in(cards, position.trump) + LAST_TRICK_BONUS + roem + (PIT_BONUS if pit else 0)
            start = max(1 - done, min(bound, reach))
            hint = None if guess is None else guess - done
            return done + largest(lambda t: test(t, -1), start, reach, hint, step=16)
        limits = [-1, 0, *range(20, roem + 1, 10)]  # roem comes in 20, 50, 100, 200: never 10 or 30 more
        if 30 in limits:
            limits.remove(30)
        first = None
        if guess is not None and guess <= -DEAL_POINTS:  # the limit a nat of value ``guess`` would hold
            first = max(0, min(len(limits) - 2, (-DEAL_POINTS - guess - roem_so_far) // 10)) or None
        held = largest(lambda i: (not test(1 - done, limits[i])[0], i), 0, len(limits) - 1, first, step=2)
        return -(DEAL_POINTS + roem_so_far + limits[held + 1])

    @property
    def total_nodes(self) -> int:
        """The cards played by all searches of this solver so far (a deterministic measure of
        work, for budgets that must not depend on the machine's speed)."""
        return self._counted()

    def _counted(self) -> int:
        return sum(search.nodes for search in self._searches.values())

    def value(self, position: KlaverjasPosition) -> int:
        """The exact value of ``position`` for the side of the seat to act."""
        start = self._counted()
        value = self.playing_value(position)
        self.nodes = self._counted() - start
        return value if (position.to_act & 1) == position.playing else -value

    def card_values(self, position: KlaverjasPosition) -> dict[Card, int]:
        """The value, for the side of the seat to act, of each card it may play, in card order."""
        start = self._counted()
        sign = 1 if (position.to_act & 1) == position.playing else -1
        values: dict[Card, int] = {}
        guess: int | None = None
        for card in cards_in(position.legal()):
            guess = self.playing_value(position.play(card), guess)
            values[DECK[card]] = sign * guess
        self.nodes = self._counted() - start
        return values


_Seen = dict[tuple[tuple[int, ...], int, tuple[int, ...]], bool]
"""Positions already answered, by hands, leader and trick."""


def takes_every_trick(position: KlaverjasPosition) -> bool:
    """Whether the playing side takes every trick still to win, whatever the other side plays and
    all cards visible: a pit in reach (or already made, at the end). A pit is worth more than
    anything else the playing side can score, so it is what perfect play makes when it can.

    >>> from klabsite.engine.cards import mask_of, parse_cards
    >>> hands = tuple(mask_of(parse_cards(text)) for text in ("JH AC", "9H 7C", "KS AS", "QH TS"))
    >>> position = KlaverjasPosition(hands, trump=2, playing=0, leader=0)   # hearts are trumps
    >>> takes_every_trick(position)                # N draws the trumps first, then cashes the ace
    True
    >>> takes_every_trick(position.play(Card.parse("AC").index))   # the ace first: W trumps it
    False
    """
    return _every_trick(position, {})


def _every_trick(position: KlaverjasPosition, seen: _Seen) -> bool:
    if position.tricks[1 - position.playing]:
        return False
    if position.is_over:
        return True
    key = (position.hands, position.leader, position.trick)
    if key not in seen:
        children = (_every_trick(position.play(card), seen) for card in cards_in(position.legal()))
        seen[key] = any(children) if (position.to_act & 1) == position.playing else all(children)
    return seen[key]
