"""Klaberjass card play on bitmasks, unchecked and without events: for bots, solvers, benchmarks.

Only the card-play phase: given the trump, both hands as masks (bit ``i`` is card ``i`` of
:data:`klabsite.engine.cards.DECK`), who leads and the ``must-beat`` option. Players are indexes
0 (``N``) and 1 (``S``). Nothing is verified: play a card from :func:`legal_mask` or get
nonsense. Bella, sequences and scoring stay with :mod:`klabsite.engine.klaberjass`; the tests check
that :func:`legal_mask` agrees with ``KlaberjassDeal.legal_actions()`` on thousands of positions.

>>> from klabsite.engine.cards import mask_of, parse_cards, cards_of, Suit
>>> hand = mask_of(parse_cards("JH 9H 8H AC 7D"))
>>> led = parse_cards("AH")[0].index
>>> cards_of(legal_mask(hand, led, Suit.HEARTS.index, any_lead=False))   # a higher trump
[Card.parse('9H'), Card.parse('JH')]
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from klabsite.engine.fast.tables import POINTS, STRENGTH, SUIT_MASKS, SUIT_OF
from klabsite.engine.tricks import LAST_TRICK_BONUS

if TYPE_CHECKING:
    import random

    from klabsite.engine.cards import Card
    from klabsite.engine.seats import Seat

__all__ = ["BEATS", "LAST_TRICK", "legal_mask", "follower_wins", "finished_tricks", "Position",
           "random_playout", "position_of"]

LAST_TRICK = LAST_TRICK_BONUS
"""The last trick's bonus."""

BEATS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        sum(1 << j for j in range(32) if SUIT_OF[j] == SUIT_OF[i] and STRENGTH[trump][j] > STRENGTH[trump][i])
        for i in range(32)
    )
    for trump in range(4)
)
"""BEATS[trump][i]: the cards of card ``i``'s suit that beat it (trump order J 9 A 10 K Q 8 7)."""


def legal_mask(hand: int, led: int, trump: int, any_lead: bool) -> int:
    """The cards of ``hand`` that may be played; ``led`` is the card led, or -1 to lead.

    Follow suit; a trump led must be beaten if possible (any led card with ``any_lead``, i.e.
    ``must-beat=any-lead``); void: trump if possible; otherwise any card.
    """
    if led < 0:
        return hand
    suit = SUIT_OF[led]
    same = hand & SUIT_MASKS[suit]
    if same:
        if any_lead or suit == trump:
            higher = same & BEATS[trump][led]
            if higher:
                return higher
        return same
    return hand & SUIT_MASKS[trump] or hand


def follower_wins(led: int, follow: int, trump: int) -> bool:
    """Whether the second card of a trick beats the card led."""
    if SUIT_OF[follow] == SUIT_OF[led]:
        return STRENGTH[trump][follow] > STRENGTH[trump][led]
    return SUIT_OF[follow] == trump


LAST_CARD = 17
"""The index of the deal's last card (9 tricks of 2): its trick earns the last trick's 10."""


def finished_tricks(plays: Sequence[tuple[Seat, Card]], trump: int) -> Iterator[tuple[Seat, int]]:
    """Each finished trick of ``plays`` (the cards played so far, in order): who won it and its
    card points, the last trick's 10 included; a trick still open is left out."""
    for i in range(1, len(plays), 2):
        (leader, led), (other, follow) = plays[i - 1], plays[i]
        winner = other if follower_wins(led.index, follow.index, trump) else leader
        last = LAST_TRICK if i == LAST_CARD else 0
        yield winner, POINTS[trump][led.index] + POINTS[trump][follow.index] + last


@dataclass(slots=True)
class Position:
    """A card-play position: hands, trump, who leads the current trick, the card led (or -1).

    ``points`` are each player's card points so far, the last trick's 10 included once won.
    """

    hands: list[int]
    trump: int
    leader: int
    any_lead: bool = False
    led: int = -1
    points: list[int] = field(default_factory=lambda: [0, 0])

    @property
    def to_act(self) -> int:
        """The player index to play next."""
        return self.leader if self.led < 0 else 1 - self.leader

    @property
    def over(self) -> bool:
        """Whether every card has been played."""
        return not (self.hands[0] | self.hands[1]) and self.led < 0

    def legal(self) -> int:
        """The mask of the cards the player to act may play."""
        return legal_mask(self.hands[self.to_act], self.led, self.trump, self.any_lead)

    def play(self, card: int) -> None:
        """Play card index ``card`` for the player to act (unchecked)."""
        player = self.to_act
        self.hands[player] &= ~(1 << card)
        if self.led < 0:
            self.led = card
            return
        led, trump = self.led, self.trump
        winner = player if follower_wins(led, card, trump) else self.leader
        won = POINTS[trump][led] + POINTS[trump][card]
        if not (self.hands[0] | self.hands[1]):
            won += LAST_TRICK
        self.points[winner] += won
        self.leader, self.led = winner, -1

    def copy(self) -> Position:
        """An independent copy."""
        return Position(list(self.hands), self.trump, self.leader, self.any_lead, self.led, list(self.points))


def random_playout(position: Position, rng: random.Random) -> tuple[int, int]:
    """Play ``position`` to the end with uniformly random legal cards; return both players' points.

    ``position`` itself is not changed.
    """
    hand0, hand1 = position.hands
    trump, leader, led, any_lead = position.trump, position.leader, position.led, position.any_lead
    points = list(position.points)
    table = POINTS[trump]
    trump_mask = SUIT_MASKS[trump]
    beats = BEATS[trump]
    strength = STRENGTH[trump]
    suit_of = SUIT_OF
    suit_masks = SUIT_MASKS
    uniform = rng.random
    hands = [hand0, hand1]
    while hands[0] | hands[1] or led >= 0:
        player = leader if led < 0 else 1 - leader
        hand = hands[player]
        if led < 0:
            legal = hand
        else:
            suit = suit_of[led]
            legal = hand & suit_masks[suit]
            if legal:
                if any_lead or suit == trump:
                    legal = (legal & beats[led]) or legal
            else:
                legal = hand & trump_mask or hand
        pick = int(uniform() * legal.bit_count())
        while pick:
            legal &= legal - 1
            pick -= 1
        bit = legal & -legal
        card = bit.bit_length() - 1
        hands[player] = hand ^ bit
        if led < 0:
            led = card
            continue
        same_suit = suit_of[card] == suit_of[led]
        if (same_suit and strength[card] > strength[led]) or (not same_suit and suit_of[card] == trump):
            winner = player
        else:
            winner = leader
        won = table[led] + table[card]
        if not (hands[0] | hands[1]):
            won += LAST_TRICK
        points[winner] += won
        leader, led = winner, -1
    return points[0], points[1]


def position_of(deal: Any) -> Position:
    """The card-play position of a ``KlaberjassDeal`` in its play phase (points start at 0)."""
    from klabsite.engine.cards import mask_of
    from klabsite.engine.seats import Seat

    players = (Seat.N, Seat.S)
    hands = deal.hands
    trick = deal.trick
    leader = trick[0][0] if trick else deal.to_act
    return Position(
        hands=[mask_of(hands[seat]) for seat in players],
        trump=deal.trump.index,
        leader=players.index(leader),
        any_lead=deal.rules.must_beat == "any-lead",
        led=trick[0][1].index if trick else -1,
    )
