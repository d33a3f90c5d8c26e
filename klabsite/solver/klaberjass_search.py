"""The Klaberjass search core: alpha-beta over the card points still to be won. Pure Python.

This is the inner loop of :mod:`klabsite.solver.klaberjass`. It knows only the card play: both
hands (bit ``i`` is card ``i``), the trump, who leads, and ``must-beat``. Its value, for the
leader of the trick in progress, is

    (the card points he will still win) − (those his opponent will)   the last trick's 10 included,
    + ``sign·BIG`` for player ``capot`` (``-sign·BIG`` for his opponent) if ``capot`` wins no trick.

Every scoring rule is applied outside, as a monotone function of the difference (see
:mod:`klabsite.solver.klaberjass`). The last term (off when ``capot`` is -1) answers the question
``no-trick-melds=void`` asks while the player whose sequences would score has won no trick: his
sequences count only if he wins one, so "is the value at least v?" is "he wins a trick and the
points reach t, or he wins none and that outcome's (fixed) value reaches v", one search whose
``sign`` says whether the second outcome passes.

Techniques: fail-soft alpha-beta searched with null windows; a transposition table at trick
boundaries keyed by the cards still held, the leader and the capot term (the partition of the
cards between the hands is fixed for one deal, so the remaining cards say who holds what); the
table's best lead tried first, then the leads whose greedy answer (the follower taking the most
he can, or giving the least he must) is best for the leader, the follower's greedy answer first;
the last trick computed directly; one card of each class of interchangeable cards
(:func:`~klabsite.solver.tables.representatives`); and a cut when all points still in play cannot
reach the window.

>>> from klabsite.engine.cards import mask_of, parse_cards
>>> search = KlaberjassSearch(trump=2, any_lead=False)   # hearts
>>> hands = (mask_of(parse_cards("JH 7C")), mask_of(parse_cards("9H AC")))
>>> search.value(hands, leader=0, led=-1)   # 7C first: S wins 11, then must lead 9H into JH (34 + 10)
33
>>> search.value(hands, leader=0, led=-1, capot=1, sign=-1) == 33    # S cannot avoid a trick
True
"""

from __future__ import annotations

from collections.abc import Callable

from klabsite.engine.fast.klaberjass import BEATS
from klabsite.engine.fast.tables import POINTS, STRENGTH, SUIT_MASKS, SUIT_OF
from klabsite.engine.tricks import LAST_TRICK_BONUS
from klabsite.solver.search import DealCards
from klabsite.solver.tables import POINT_SUM, representatives

__all__ = ["KlaberjassSearch", "BIG", "INFINITY"]

BIG = 10_000
"""The weight of the capot term: more than any points of a deal."""
INFINITY = 100_000
"""Larger than any value."""

Bounds = tuple[int, int, int]
"""A table entry: lower bound, upper bound, best lead (-1 when not known)."""


def _build(trump: int, any_lead: bool, table: dict[int, Bounds], count: list[int]) -> tuple[
    Callable[..., int], Callable[..., int]
]:
    """The two mutually recursive search functions, with the tables bound as locals."""
    points = POINTS[trump]
    strength = STRENGTH[trump]
    suit_of = SUIT_OF
    suit_masks = SUIT_MASKS
    beats = BEATS[trump]
    trump_mask = SUIT_MASKS[trump]
    point_sum = POINT_SUM[trump]
    get = table.get
    last_bonus = LAST_TRICK_BONUS

    def legal(hand: int, led: int) -> int:
        suit = suit_of[led]
        same = hand & suit_masks[suit]
        if same:
            if any_lead or suit == trump:
                higher = same & beats[led]
                if higher:
                    return higher
            return same
        return hand & trump_mask or hand

    def reply(h0: int, h1: int, leader: int, led: int, bonus: int, capot: int, sign: int, alpha: int,
              beta: int) -> int:
        """The follower, to play to ``led``, minimises the leader's value."""
        follower_hand = h1 if leader == 0 else h0
        leader_hand = h0 if leader == 0 else h1
        allowed = legal(follower_hand, led) & representatives(
            follower_hand, leader_hand | 1 << led, trump, False)
        led_points, led_suit, led_strength = points[led], suit_of[led], strength[led]
        replies = []
        while allowed:
            bit = allowed & -allowed
            allowed ^= bit
            card = bit.bit_length() - 1
            won = points[card] + led_points + bonus
            suit = suit_of[card]
            wins = strength[card] > led_strength if suit == led_suit else suit == trump
            replies.append((won if wins else -won, card, wins, won))
        replies.sort(reverse=True)
        best = INFINITY
        for _, card, wins, won in replies:
            count[0] += 1
            bit = 1 << card
            c0, c1 = (h0, h1 ^ bit) if leader == 0 else (h0 ^ bit, h1)
            winner = 1 - leader if wins else leader
            next_capot = -1 if winner == capot else capot
            if wins:
                value = -won - trick(c0, c1, winner, next_capot, sign, -beta - won, -alpha - won)
            else:
                value = won + trick(c0, c1, winner, next_capot, sign, alpha - won, beta - won)
            if value < best:
                best = value
                if best <= alpha:
                    break
        return best

    def trick(h0: int, h1: int, leader: int, capot: int, sign: int, alpha: int, beta: int) -> int:
        """The leader of a new trick maximises his value."""
        rem = h0 | h1
        term = 0 if capot < 0 else (sign * BIG if leader == capot else -sign * BIG)  # if capot wins none
        if not rem:
            return term
        total = (point_sum[0][rem & 0xFF] + point_sum[1][rem >> 8 & 0xFF] + point_sum[2][rem >> 16 & 0xFF]
                 + point_sum[3][rem >> 24] + last_bonus)
        high, low = total + max(term, 0), -total + min(term, 0)
        if high <= alpha:
            return high
        if low >= beta:
            return low
        leader_hand, other = (h0, h1) if leader == 0 else (h1, h0)
        if rem.bit_count() == 2:  # the last trick: one card each, nothing to choose
            count[0] += 2
            led, card = leader_hand.bit_length() - 1, other.bit_length() - 1
            won = points[led] + points[card] + last_bonus
            suit = suit_of[card]
            wins = strength[card] > strength[led] if suit == suit_of[led] else suit == trump
            winner = 1 - leader if wins else leader
            return (-won if wins else won) + (0 if winner == capot else term)
        key = rem << 1 | leader | (capot + 1) << 33 | (sign > 0) << 35
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
        leads = []
        candidates = representatives(leader_hand, other, trump, False)
        while candidates:
            bit = candidates & -candidates
            candidates ^= bit
            card = bit.bit_length() - 1
            if card == first:
                leads.append((INFINITY, card))
                continue
            # the follower's greedy answer: the most he can take, or the least he must give
            answers = legal(other, card)
            led_points, led_suit, led_strength = points[card], suit_of[card], strength[card]
            worst = INFINITY
            while answers:
                abit = answers & -answers
                answers ^= abit
                answer = abit.bit_length() - 1
                won = points[answer] + led_points
                suit = suit_of[answer]
                if (strength[answer] > led_strength if suit == led_suit else suit == trump):
                    won = -won
                if won < worst:
                    worst = won
            leads.append((worst, card))
        leads.sort(reverse=True)
        best, best_card = -INFINITY, -1
        floor = alpha
        for _, card in leads:
            count[0] += 1
            bit = 1 << card
            c0, c1 = (h0 ^ bit, h1) if leader == 0 else (h0, h1 ^ bit)
            value = reply(c0, c1, leader, card, 0, capot, sign, floor, beta)
            if value > best:
                best, best_card = value, card
                if best > floor:
                    floor = best
                    if floor >= beta:
                        break
        if best <= alpha:
            high = min(high, best)
        elif best >= beta:
            low = max(low, best)
        else:
            low = high = best
        table[key] = (low, high, best_card)
        return best

    return trick, reply


class KlaberjassSearch:
    """Alpha-beta search of Klaberjass card play for one trump and ``must-beat`` option.

    The transposition table is kept between calls while the hands come from the same deal (each
    card stays with the player who held it), so a deal's positions share it; hands from another
    deal clear it.
    """

    def __init__(self, trump: int, any_lead: bool) -> None:
        self.trump = trump
        self.any_lead = any_lead
        self.table: dict[int, Bounds] = {}
        self._count = [0]
        self._cards = DealCards(2)
        self._trick, self._reply = _build(trump, any_lead, self.table, self._count)

    @property
    def nodes(self) -> int:
        """Cards played in the search so far (all calls)."""
        return self._count[0]

    def _check_deal(self, hands: tuple[int, int], led: int, leader: int) -> None:
        held = list(hands)
        if led >= 0:
            held[leader] |= 1 << led
        if not self._cards.same_deal(held):
            self.table.clear()

    def search(self, hands: tuple[int, int], leader: int, led: int, alpha: int, beta: int, capot: int = -1,
               sign: int = 1) -> int:
        """Fail-soft alpha-beta value, for the trick's leader, of the card points still to win
        (his minus his opponent's, the current trick and the last trick's 10 included), with the
        capot term for player ``capot`` (-1: none) weighted ``sign`` (+1 or -1; see above).

        ``led`` is the card the leader has played to the trick in progress, or -1 before the
        lead; ``hands`` are the cards still held (``led`` no longer in the leader's hand).
        """
        self._check_deal(hands, led, leader)
        h0, h1 = hands
        if led < 0:
            return self._trick(h0, h1, leader, capot, sign, alpha, beta)
        bonus = LAST_TRICK_BONUS if (h0 | h1).bit_count() == 1 else 0
        return self._reply(h0, h1, leader, led, bonus, capot, sign, alpha, beta)

    def value(self, hands: tuple[int, int], leader: int, led: int, capot: int = -1, sign: int = 1) -> int:
        """The exact value of :meth:`search` (an MTD(f) sequence of null-window searches)."""
        low, high, guess = -INFINITY, INFINITY, 0
        while low < high:
            beta = guess + 1 if guess == low else guess
            guess = self.search(hands, leader, led, beta - 1, beta, capot, sign)
            if guess < beta:
                high = guess
            else:
                low = guess
        return low
