"""Klaverjas card play on bitmasks: legal-move masks, playing a card, random playouts.

UNCHECKED fast path for bots, solvers and benchmarks. It covers the card play only (trump
already chosen): no events, no messages, no validation of its input. It implements the same
rules as :func:`klabsite.engine.klaverjas.legal_plays` and is tested to agree with
``KlaverjasDeal.legal_actions()`` on thousands of positions (tests/test_fastpath_klaverjas.py).

Seats are indices 0–3 (N E S W, clockwise), sides 0 (N–S) and 1 (E–W) = ``seat & 1``; cards
are indices 0–31 and hands are bitmasks (:mod:`klabsite.engine.fast.tables`); the trump is a suit
index 0–3 (C D H S). Points include the last trick's 10; roem is per trick, to the winner.

>>> import random
>>> from klabsite.engine.cards import DECK
>>> from klabsite.engine.klaverjas import KlaverjasDeal, KlaverjasRules
>>> from klabsite.engine.seats import Seat
>>> from klabsite.engine.actions import Action
>>> from klabsite.engine.cards import Suit
>>> deal = KlaverjasDeal(KlaverjasRules(), Seat.W, DECK)
>>> _ = deal.apply(Action.name(Seat.N, Suit.SPADES))
>>> position = position_from_deal(deal)
>>> position.to_act, bin(position.legal()).count("1")
(0, 8)
>>> outcome = random_playout(position, random.Random(1))
>>> sum(outcome.points), sum(outcome.tricks)
(162, 8)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, NamedTuple

from klabsite.engine.cards import RANKS
from klabsite.engine.fast.tables import POINTS, STRENGTH, SUIT_MASKS, SUIT_OF
from klabsite.engine.klaverjas import DEAL_POINTS
from klabsite.engine.roem import FOUR_OF_A_KIND_ROEM, PIT_BONUS, RUN_ROEM, STUK_ROEM
from klabsite.engine.tricks import LAST_TRICK_BONUS

if TYPE_CHECKING:
    import random

    from klabsite.engine.events import TrickWon
    from klabsite.engine.klaverjas import KlaverjasDeal
    from klabsite.engine.options import KlaverjasRules

__all__ = [
    "Position",
    "Outcome",
    "legal_mask",
    "trick_roem",
    "random_playout",
    "deal_score",
    "position_from_deal",
    "side_tally",
    "flags",
]


# ABOVE[t][s]: the trumps (suit t) stronger than trick strength s (0–16; 0–8 = no trump: all trumps).
ABOVE: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        sum(1 << i for i in range(32) if SUIT_OF[i] == t and STRENGTH[t][i] > s)
        for s in range(17)
    )
    for t in range(4)
)


FOUR_ROEM: tuple[int, ...] = tuple(FOUR_OF_A_KIND_ROEM[rank] for rank in RANKS)
"""FOUR_ROEM[rank]: four of a kind, ranks 7 8 9 T J Q K A."""
STUK: tuple[int, ...] = tuple(0b01100000 << (8 * t) for t in range(4))
"""STUK[t]: the K and Q of trumps."""


def trick_roem(trick: int, trump: int) -> int:
    """The roem in a trick given as a mask of its four cards.

    >>> from klabsite.engine.cards import mask_of, parse_cards
    >>> trick_roem(mask_of(parse_cards("TS JS QS KS")), 3)
    70
    """
    four = trick & trick >> 8 & trick >> 16 & trick >> 24 & 0xFF
    if four:
        return FOUR_ROEM[four.bit_length() - 1]
    roem = RUN_ROEM[trick & 0xFF] + RUN_ROEM[trick >> 8 & 0xFF]
    roem += RUN_ROEM[trick >> 16 & 0xFF] + RUN_ROEM[trick >> 24]
    if trick & STUK[trump] == STUK[trump]:
        roem += STUK_ROEM
    return roem


def _winner(trick: Sequence[int], trump: int) -> tuple[int, int]:
    """(position in the trick, strength) of the card winning ``trick`` so far."""
    strength = STRENGTH[trump]
    led = SUIT_OF[trick[0]]
    best_pos, best = 0, strength[trick[0]]
    for pos in range(1, len(trick)):
        card = trick[pos]
        suit = SUIT_OF[card]
        if (suit in (trump, led)) and strength[card] > best:
            best_pos, best = pos, strength[card]
    return best_pos, best


def legal_mask(hand: int, trick: Sequence[int], trump: int, rotterdam: bool = False,
               undertrump: bool = True) -> int:
    """The cards of ``hand`` that may be played to ``trick`` (card indices, led first).

    ``rotterdam`` selects ``trick-rules=rotterdam``; ``undertrump`` is ``undertrump=required``.
    """
    if not trick:
        return hand
    led = SUIT_OF[trick[0]]
    best_pos, best = _winner(trick, trump)
    follow = hand & SUIT_MASKS[led]
    if led == trump:
        if follow:
            return follow & ABOVE[trump][best] or follow
        return hand
    if follow:
        return follow
    trumps = hand & SUIT_MASKS[trump]
    if not trumps:
        return hand
    higher = trumps & ABOVE[trump][best]
    if not rotterdam and best_pos == len(trick) - 2:
        if best <= 8:
            return hand
        return hand & ~trumps | higher or hand
    if higher:
        return higher
    if rotterdam and undertrump:
        return trumps
    return hand & ~SUIT_MASKS[trump] or hand


class Outcome(NamedTuple):
    """A finished card play, per side index (0 = N–S, 1 = E–W)."""

    points: tuple[int, int]
    """Card points including the last trick's 10."""
    roem: tuple[int, int]
    tricks: tuple[int, int]


def deal_score(playing: int, outcome: Outcome) -> tuple[int, int]:
    """The score per side (0 = N–S, 1 = E–W) after nat and pit, ``playing`` the playing side.

    >>> deal_score(0, Outcome((81, 81), (0, 0), (4, 4)))
    (0, 162)
    """
    points, roem, tricks = outcome
    totals = [points[0] + roem[0], points[1] + roem[1]]
    if tricks[playing] == 8:
        totals[playing] += PIT_BONUS
    if totals[playing] > totals[1 - playing]:
        return totals[0], totals[1]
    nat = [0, 0]
    nat[1 - playing] = DEAL_POINTS + roem[0] + roem[1]
    return nat[0], nat[1]


class Position:
    """A card-play position: hands, trump, the trick in progress and what each side has won.

    Mutable and cheap to copy; :meth:`play` does not check legality.
    """

    __slots__ = ("hands", "trump", "rotterdam", "undertrump", "leader", "trick", "points", "roem", "tricks")

    def __init__(self, hands: Sequence[int], trump: int, leader: int, *, rotterdam: bool = False,
                 undertrump: bool = True) -> None:
        self.hands = list(hands)
        self.trump = trump
        self.rotterdam = rotterdam
        self.undertrump = undertrump
        self.leader = leader
        self.trick: list[int] = []
        self.points = [0, 0]
        self.roem = [0, 0]
        self.tricks = [0, 0]

    def copy(self) -> Position:
        """An independent copy."""
        other = Position.__new__(Position)
        other.hands, other.trump, other.rotterdam = list(self.hands), self.trump, self.rotterdam
        other.undertrump, other.leader, other.trick = self.undertrump, self.leader, list(self.trick)
        other.points, other.roem, other.tricks = list(self.points), list(self.roem), list(self.tricks)
        return other

    @property
    def to_act(self) -> int:
        """The seat index to play next."""
        return (self.leader + len(self.trick)) & 3

    @property
    def is_over(self) -> bool:
        """Whether all cards have been played."""
        return not any(self.hands)

    def legal(self) -> int:
        """The legal cards of the seat to play, as a mask."""
        return legal_mask(self.hands[self.to_act], self.trick, self.trump, self.rotterdam, self.undertrump)

    def play(self, card: int) -> None:
        """Play card index ``card`` for the seat to act (unchecked); completes the trick if fourth."""
        self.hands[self.to_act] &= ~(1 << card)
        self.trick.append(card)
        if len(self.trick) == 4:
            trump = self.trump
            pos = _winner(self.trick, trump)[0]
            winner = (self.leader + pos) & 3
            side = winner & 1
            points = POINTS[trump]
            mask = 0
            for c in self.trick:
                mask |= 1 << c
            self.points[side] += sum(points[c] for c in self.trick)
            self.roem[side] += trick_roem(mask, trump)
            self.tricks[side] += 1
            if not any(self.hands):
                self.points[side] += LAST_TRICK_BONUS
            self.leader = winner
            self.trick = []

    def outcome(self) -> Outcome:
        """Points, roem and tricks per side so far."""
        return Outcome((self.points[0], self.points[1]), (self.roem[0], self.roem[1]),
                       (self.tricks[0], self.tricks[1]))


def random_playout(position: Position, rng: random.Random) -> Outcome:
    """Play ``position`` to the end with uniformly random legal cards; ``position`` is unchanged."""
    hands = list(position.hands)
    trump = position.trump
    rotterdam, undertrump = position.rotterdam, position.undertrump
    leader = position.leader
    trick = list(position.trick)
    points, roem, tricks = list(position.points), list(position.roem), list(position.tricks)
    strength, card_points = STRENGTH[trump], POINTS[trump]
    trump_mask, above, stuk = SUIT_MASKS[trump], ABOVE[trump], STUK[trump]
    rand = rng.random
    remaining = sum(hand.bit_count() for hand in hands)
    if trick:
        led = SUIT_OF[trick[0]]
        best_pos, best = _winner(trick, trump)
    else:
        led, best_pos, best = -1, 0, 0
    while remaining:
        n = len(trick)
        seat = (leader + n) & 3
        hand = hands[seat]
        # legal_mask, inlined
        if not n:
            legal = hand
        else:
            follow = hand & SUIT_MASKS[led]
            if led == trump:
                legal = (follow & above[best] or follow) if follow else hand
            elif follow:
                legal = follow
            else:
                trumps = hand & trump_mask
                if not trumps:
                    legal = hand
                else:
                    higher = trumps & above[best]
                    if not rotterdam and best_pos == n - 2:
                        legal = hand if best <= 8 else (hand & ~trumps | higher or hand)
                    elif higher:
                        legal = higher
                    elif rotterdam and undertrump:
                        legal = trumps
                    else:
                        legal = hand & ~trump_mask or hand
        # a uniformly random card of ``legal``
        k = int(rand() * legal.bit_count())
        while k:
            legal &= legal - 1
            k -= 1
        bit = legal & -legal
        card = bit.bit_length() - 1
        hands[seat] = hand ^ bit
        remaining -= 1
        suit = SUIT_OF[card]
        if not n:
            led, best_pos, best = suit, 0, strength[card]
        elif (suit in (trump, led)) and strength[card] > best:
            best_pos, best = n, strength[card]
        trick.append(card)
        if n == 3:
            winner = (leader + best_pos) & 3
            side = winner & 1
            mask = 1 << trick[0] | 1 << trick[1] | 1 << trick[2] | bit
            points[side] += (card_points[trick[0]] + card_points[trick[1]] + card_points[trick[2]]
                             + card_points[card])
            four = mask & mask >> 8 & mask >> 16 & mask >> 24 & 0xFF
            if four:
                roem[side] += FOUR_ROEM[four.bit_length() - 1]
            else:
                r = RUN_ROEM[mask & 0xFF] + RUN_ROEM[mask >> 8 & 0xFF] + RUN_ROEM[mask >> 16 & 0xFF]
                r += RUN_ROEM[mask >> 24]
                if mask & stuk == stuk:
                    r += STUK_ROEM
                roem[side] += r
            tricks[side] += 1
            leader = winner
            trick = []
            if not remaining:
                points[side] += LAST_TRICK_BONUS
    return Outcome((points[0], points[1]), (roem[0], roem[1]), (tricks[0], tricks[1]))


def flags(rules: KlaverjasRules) -> tuple[bool, bool]:
    """``(rotterdam, undertrump)`` for :class:`Position` from the rule options."""
    return rules.trick_rules == "rotterdam", rules.undertrump == "required"


def position_from_deal(deal: KlaverjasDeal) -> Position:
    """The fast-path position of a deal in its play phase (trump chosen)."""
    if deal.trump is None:
        raise ValueError("the fast path starts once trump is chosen")
    rotterdam, undertrump = flags(deal.rules)
    hands = deal.hands
    masks = [sum(card.bit for card in hands[seat]) for seat in sorted(hands, key=lambda s: s.index)]
    position = Position(masks, deal.trump.index, deal.leader.index,
                        rotterdam=rotterdam, undertrump=undertrump)
    position.trick = [card.index for _, card in deal.trick]
    position.points, position.roem, position.tricks = side_tally(deal.tricks)
    return position


def side_tally(tricks: Iterable[TrickWon]) -> tuple[list[int], list[int], list[int]]:
    """What each side (0: N–S, 1: E–W) has won in ``tricks``: card points (the last trick's 10
    included), roem and tricks."""
    points, roem, won = [0, 0], [0, 0], [0, 0]
    for trick in tricks:
        side = trick.winner.index & 1
        points[side] += trick.points
        roem[side] += trick.roem
        won[side] += 1
    return points, roem, won
