"""The Klaverjas search core: alpha-beta over points and roem still to be won. Pure Python.

This is the inner loop of :mod:`klabsite.solver.klaverjas`. It knows the card play (four hands,
bit ``i`` is card ``i``; trump; ``trick-rules`` and ``undertrump``), roem per trick and pit. Its
value, for the side of the leader of the trick in progress, is

    (what that side still wins) − (what the other side still wins)      points and roem of tricks,
    + 100 to the playing side if it wins every trick and ``pit`` says it has lost none so far,
    + ``BIG`` to the playing side if the roem still to be scored is at most ``roem_limit``.

The last term (off when ``roem_limit`` is negative) lets one search answer the question a nat
asks, "can the playing side make it, or else hold the roem to the limit?", with one number:
:mod:`klabsite.solver.klaverjas` explains why the value of a deal needs it.

Techniques as in :mod:`klabsite.solver.klaberjass_search`: fail-soft null-window alpha-beta; a
transposition table at trick boundaries keyed by the cards still held, the leader, the pit flag
and the roem limit; the table's best lead first, then the cards no card can beat (plain ones
before trumps, strongest first), then the others lowest first; each follower's greedy card first
(take the trick with the most points, or give the partner the most, or throw the least); one
card per class of interchangeable cards (roem-aware:
:func:`~klabsite.solver.tables.representatives`); cuts from the points and a bound on the roem
still in play (:func:`~klabsite.solver.tables.roem_bound`), which also settles the roem limit
when no more roem than the limit can be scored.

>>> from klabsite.engine.cards import mask_of, parse_cards
>>> hands = [mask_of(parse_cards(text)) for text in ("JH", "9H", "KH", "QH")]
>>> search = KlaverjasSearch(trump=2, playing=0, rotterdam=False, undertrump=True)
>>> search.value(hands, leader=0, trick=(), pit=True, roem_limit=-1)   # 41 + 10, J-Q-K 20, stuk 20, pit
191
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from klabsite.engine.fast.klaberjass import BEATS
from klabsite.engine.fast.klaverjas import ABOVE, trick_roem
from klabsite.engine.fast.tables import POINTS, STRENGTH, SUIT_MASKS, SUIT_OF
from klabsite.engine.roem import PIT_BONUS
from klabsite.engine.tricks import LAST_TRICK_BONUS
from klabsite.solver.search import DealCards
from klabsite.solver.tables import POINT_SUM, STRONGEST_FIRST, representatives, roem_bound

__all__ = ["KlaverjasSearch", "BIG", "INFINITY"]

BIG = 100_000
"""The weight of "roem held to the limit": more than any points and roem of a deal."""
INFINITY = 1_000_000
"""Larger than any value."""

Bounds = tuple[int, int, int]
"""A table entry: lower bound, upper bound, best lead (-1 when not known)."""


def _build(trump: int, playing: int, rotterdam: bool, undertrump: bool, table: dict[int, Bounds],
           count: list[int]) -> tuple[Callable[..., int], Callable[..., int]]:
    """The two mutually recursive search functions, with the tables bound as locals."""
    points = POINTS[trump]
    strength = STRENGTH[trump]
    suit_of = SUIT_OF
    suit_masks = SUIT_MASKS
    above = ABOVE[trump]
    trump_mask = SUIT_MASKS[trump]
    point_sum = POINT_SUM[trump]
    rank = {card: i for i, card in enumerate(STRONGEST_FIRST[trump])}
    get = table.get
    above_card = BEATS[trump]
    last_bonus = LAST_TRICK_BONUS

    def legal(hand: int, n: int, led_suit: int, best_pos: int, best: int) -> int:
        follow = hand & suit_masks[led_suit]
        if led_suit == trump:
            if follow:
                return follow & above[best] or follow
            return hand
        if follow:
            return follow
        trumps = hand & trump_mask
        if not trumps:
            return hand
        higher = trumps & above[best]
        if not rotterdam and best_pos == n - 2:
            if best <= 8:
                return hand
            return hand & ~trumps | higher or hand
        if higher:
            return higher
        if rotterdam and undertrump:
            return trumps
        return hand & ~trump_mask or hand

    def follow(hands: list[int], leader: int, n: int, cards: int, led_suit: int, best_pos: int, best: int,
               pit: bool, limit: int, alpha: int, beta: int) -> int:
        """Position ``n`` (1–3) of the trick plays; the value is for the leader's side, which the
        players at even positions maximise and the others minimise."""
        seat = (leader + n) & 3
        hand = hands[seat]
        others = (hands[0] | hands[1] | hands[2] | hands[3]) & ~hand | cards
        allowed = legal(hand, n, led_suit, best_pos, best) & representatives(hand, others, trump, True)
        maximise = not n & 1
        partner_winning = (best_pos & 1) == (n & 1)
        options = []
        while allowed:
            bit = allowed & -allowed
            allowed ^= bit
            card = bit.bit_length() - 1
            suit = suit_of[card]
            beats = suit in (led_suit, trump) and strength[card] > best
            value = points[card] if beats or partner_winning else -points[card]
            options.append((value, -rank[card], card, beats))
        options.sort(reverse=True)
        best_value = -INFINITY if maximise else INFINITY
        for _, _, card, beats in options:
            count[0] += 1
            bit = 1 << card
            hands[seat] ^= bit
            pos, top = (n, strength[card]) if beats else (best_pos, best)
            if n < 3:
                value = follow(hands, leader, n + 1, cards | bit, led_suit, pos, top, pit, limit, alpha, beta)
            else:
                trick_cards = cards | bit
                roem = trick_roem(trick_cards, trump)
                won = (point_sum[0][trick_cards & 0xFF] + point_sum[1][trick_cards >> 8 & 0xFF]
                       + point_sum[2][trick_cards >> 16 & 0xFF] + point_sum[3][trick_cards >> 24] + roem)
                if not (hands[0] | hands[1] | hands[2] | hands[3]):
                    won += last_bonus
                winner = (leader + pos) & 3
                next_limit = limit - roem if limit >= roem else -1
                next_pit = pit and (winner & 1) == playing
                if pos & 1:
                    value = -won - trick(hands, winner, next_pit, next_limit, -beta - won, -alpha - won)
                else:
                    value = won + trick(hands, winner, next_pit, next_limit, alpha - won, beta - won)
            hands[seat] ^= bit
            if maximise:
                if value > best_value:
                    best_value = value
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            break
            elif value < best_value:
                best_value = value
                if value < beta:
                    beta = value
                    if alpha >= beta:
                        break
        return best_value

    def trick(hands: list[int], leader: int, pit: bool, limit: int, alpha: int, beta: int) -> int:
        """The leader of a new trick; the value is for his side."""
        rem = hands[0] | hands[1] | hands[2] | hands[3]
        sign = 1 if (leader & 1) == playing else -1
        if not rem:
            return sign * ((PIT_BONUS if pit else 0) + (BIG if limit >= 0 else 0))
        if rem.bit_count() == 4:  # the last trick: one card each, nothing to choose
            count[0] += 4
            cards = [hands[(leader + n) & 3] for n in range(4)]
            led_suit = suit_of[cards[0].bit_length() - 1]
            pos, best = 0, strength[cards[0].bit_length() - 1]
            for n in (1, 2, 3):
                card = cards[n].bit_length() - 1
                if suit_of[card] in (led_suit, trump) and strength[card] > best:
                    pos, best = n, strength[card]
            roem = trick_roem(rem, trump)
            won = (point_sum[0][rem & 0xFF] + point_sum[1][rem >> 8 & 0xFF] + point_sum[2][rem >> 16 & 0xFF]
                   + point_sum[3][rem >> 24] + roem + last_bonus)
            winner_playing = ((leader + pos) & 1) == playing
            extra = (PIT_BONUS if pit and winner_playing else 0) + (BIG if limit >= roem else 0)
            value = won if pos % 2 == 0 else -won
            return value + extra if (leader & 1) == playing else value - extra
        roem = roem_bound(rem, trump)
        reach = (point_sum[0][rem & 0xFF] + point_sum[1][rem >> 8 & 0xFF] + point_sum[2][rem >> 16 & 0xFF]
                 + point_sum[3][rem >> 24] + last_bonus + roem)
        if limit >= roem:  # no more roem than the limit can be scored: the BIG term is certain
            low_bound = BIG - reach
            if sign > 0 and low_bound >= beta:
                return low_bound
            if sign < 0 and -low_bound <= alpha:
                return -low_bound
        extra = (PIT_BONUS if pit else 0) + (BIG if limit >= 0 else 0)
        high, low = (reach + extra, -reach) if sign > 0 else (reach, -reach - extra)
        if high <= alpha:
            return high
        if low >= beta:
            return low
        key = rem | leader << 32 | pit << 34 | (limit // 10 + 1) << 35
        entry = get(key)
        first = -1
        if entry is not None:
            low, high, first = entry
            if low >= beta:
                return low
            if high <= alpha:
                return high
        else:
            low, high = -INFINITY, INFINITY
        hand = hands[leader]
        leads = representatives(hand, rem & ~hand, trump, True)
        order = []
        while leads:
            bit = leads & -leads
            leads ^= bit
            card = bit.bit_length() - 1
            top = not rem & above_card[card]  # no card of its suit can beat it
            plain_top = top and suit_of[card] != trump
            order.append((card == first, top, plain_top, -rank[card] if top else rank[card], card))
        order.sort(reverse=True)
        best_value, best_card = -INFINITY, -1
        floor = alpha
        for *_, card in order:
            count[0] += 1
            bit = 1 << card
            hands[leader] ^= bit
            value = follow(hands, leader, 1, bit, suit_of[card], 0, strength[card], pit, limit, floor, beta)
            hands[leader] ^= bit
            if value > best_value:
                best_value, best_card = value, card
                if value > floor:
                    floor = value
                    if floor >= beta:
                        break
        if best_value <= alpha:
            high = min(high, best_value)
        elif best_value >= beta:
            low = max(low, best_value)
        else:
            low = high = best_value
        table[key] = (low, high, best_card)
        return best_value

    return trick, follow


class KlaverjasSearch:
    """Alpha-beta search of Klaverjas card play for one trump, playing side and trick rules.

    The transposition table is kept between calls while the hands come from the same deal (each
    card stays with the seat that held it); hands from another deal clear it.
    """

    def __init__(self, trump: int, playing: int, rotterdam: bool, undertrump: bool) -> None:
        self.trump = trump
        self.playing = playing
        self.table: dict[int, Bounds] = {}
        self._count = [0]
        self._cards = DealCards(4)
        self._trick, self._follow = _build(trump, playing, rotterdam, undertrump, self.table, self._count)

    @property
    def nodes(self) -> int:
        """Cards played in the search so far (all calls)."""
        return self._count[0]

    def _check_deal(self, hands: Sequence[int], leader: int, trick: Sequence[int]) -> None:
        held = list(hands)
        for i, card in enumerate(trick):
            held[(leader + i) & 3] |= 1 << card
        if not self._cards.same_deal(held):
            self.table.clear()

    def search(self, hands: Sequence[int], leader: int, trick: Sequence[int], pit: bool, roem_limit: int,
               alpha: int, beta: int) -> int:
        """Fail-soft alpha-beta value for the side of ``leader`` (who led ``trick``, the cards
        played so far to the trick in progress, possibly none); ``hands`` are the cards still held.
        ``pit``: the playing side has lost no trick so far. ``roem_limit``: -1 (off) or a multiple
        of 10 (see the module's docstring)."""
        self._check_deal(hands, leader, trick)
        held = list(hands)
        if not trick:
            return self._trick(held, leader, pit, roem_limit, alpha, beta)
        strength = STRENGTH[self.trump]
        led_suit = SUIT_OF[trick[0]]
        best_pos, best = 0, strength[trick[0]]
        cards = 0
        for pos, card in enumerate(trick):
            cards |= 1 << card
            if pos and (SUIT_OF[card] in (led_suit, self.trump)) and strength[card] > best:
                best_pos, best = pos, strength[card]
        return self._follow(held, leader, len(trick), cards, led_suit, best_pos, best, pit, roem_limit,
                            alpha, beta)

    def value(self, hands: Sequence[int], leader: int, trick: Sequence[int], pit: bool,
              roem_limit: int) -> int:
        """The exact value of :meth:`search` (an MTD(f) sequence of null-window searches)."""
        low, high, guess = -INFINITY, INFINITY, 0
        while low < high:
            beta = guess + 1 if guess == low else guess
            guess = self.search(hands, leader, trick, pit, roem_limit, beta - 1, beta)
            if guess < beta:
                high = guess
            else:
                low = guess
        return low
