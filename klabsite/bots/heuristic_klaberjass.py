"""The Klaberjass rules of thumb: bidding, dix, declarations, bella and card play, from one view.

**Bidding.** A suit is valued as trump (:func:`trump_value`) from the six cards held: the jack
and nine (menel) of trumps first, then the other trumps and their number, the upcard when the
7 of trumps gets it by the dix, K and Q of trumps (bella), side aces and tens, sequences. A
player takes (or names, in the second round) at :data:`TAKE_AT`; answers a schmeiss by refusing
when he would make the deal himself (``refuser-makes``) or holds enough trumps to beat the
schmeisser (``schmeisser-makes``); schmeisses only with a hand just short of taking, when a
refusal makes the refuser play; names his best suit when he must.

**Dix.** Exchange the 7 of trumps for the upcard, unless the 7 is part of a sequence worth more.

**Declarations.** Declare the set of sequences worth most. Stay silent when the opponent's
announced value already beats every sequence held, or as a maker who expects to fail (a failed
maker's sequences go to the opponent).

**Bella.** Claimed, unless the maker expects to fail (:func:`expects_to_fail`).

**Play.** As in Klaverjas (:mod:`klabsite.bots.heuristic_klaverjas`) each legal card is scored by
what it brings to the trick (exactly known to the second player; from the cards the opponent can
still hold for the leader), less what it is worth kept: the maker draws trumps with the master
trump, masters are cashed, a trick is taken with the cheapest card that takes it, points are not
thrown on a lost trick, the menel is kept guarded, and the last trick's 10 counts.

>>> import random
>>> from klabsite.engine.cards import parse_cards
>>> from klabsite.engine.klaberjass import KlaberjassDeal, KlaberjassRules, stack_deck
>>> from klabsite.engine.seats import Seat
>>> elder = parse_cards("JH 9H AC 7S 8S 8D TH KC QC")        # bidding on the first six cards
>>> dealer = parse_cards("7C 8C 9C TC JC QD TS AD KS")
>>> deal = KlaberjassDeal(KlaberjassRules(), Seat.S, stack_deck(elder, dealer, parse_cards("AH")[0]))
>>> str(KlaberjassHeuristic().choose(deal.view_for(Seat.N), deal.legal_actions(), random.Random(1)))
'N take'
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from klabsite.bots.inference import Knowledge, announced_value, infer_klaberjass
from klabsite.bots.tactics import (
    BEATS,
    POINTS,
    STRENGTH,
    SUIT_MASKS,
    SUIT_OF,
    TRUMP_WEIGHT,
    Keep,
    Odds,
    bits,
    keep_value,
    rank_bit,
)
from klabsite.engine.actions import Action, ActionKind
from klabsite.engine.cards import SUITS, Rank, Suit, cards_of, mask_of
from klabsite.engine.fast.klaberjass import finished_tricks, follower_wins
from klabsite.engine.klaberjass import BELLA, KlaberjassView, Phase, opponent_of
from klabsite.engine.melds import meld_sets, meld_value, runs_in
from klabsite.engine.seats import Seat
from klabsite.engine.tricks import LAST_TRICK_BONUS

__all__ = ["KlaberjassHeuristic", "KlaberjassStyle", "trump_value", "expects_to_fail", "TAKE_AT"]

TAKE_AT = 46.0
"""A suit worth this much as trump (:func:`trump_value`) is taken or named."""
ALL_CARD_POINTS = sum(POINTS[0]) + LAST_TRICK_BONUS
"""The points of all 32 cards (152, whatever the trump) and the last trick (10): more than one
deal can bring, since only 18 cards are played; the heuristic splits what is left of it."""


@dataclass(frozen=True)
class KlaberjassStyle:
    """The knobs of the Klaberjass rules of thumb (the defaults are the ``heuristic`` bot)."""

    take_at: float = TAKE_AT
    """Take or name a suit worth this much as trump."""
    second_round: float = 0.0
    """Added to ``take_at`` for naming a suit in the second round."""
    last_chance: float = -8.0
    """Added again for the dealer, whose pass in the second round throws the hands in."""
    schmeiss_from: float = 38.0
    """With ``schmeiss-refused=refuser-makes``, schmeiss a hand worth this much but short of taking."""
    keep: Keep = Keep(trump_step=2.5, master_base=1.0, master_points=0.0)
    """What cards are worth kept for later."""
    won_lead: float = 0.0
    """The points the opponent is expected to add to a lead he cannot beat."""
    lost_lead: float = 4.0
    """… and to a lead he beats."""
    draw_trumps: float = 6.0
    """Lead bonus for a trump by the maker while the opponent may hold trumps."""
    defender_trump: float = -4.0
    """Lead bonus (a malus) for a trump led by the maker's opponent."""
    menel_lead: float = -12.0
    """Lead malus for the nine of trumps while the jack is out."""


STYLE = KlaberjassStyle()

def trump_value(hand: int, trump: int, upcard: int | None = None) -> float:
    """How good the bidding hand ``hand`` (a mask) is with ``trump`` (a suit index) as trump.

    ``upcard`` is the upcard's index when ``trump`` is its suit: holding the 7 of trumps, the dix
    brings it into the hand.

    >>> from klabsite.engine.cards import mask_of, parse_cards
    >>> trump_value(mask_of(parse_cards("JH 9H AC 7S 8S 8D")), trump=2) >= TAKE_AT
    True
    >>> trump_value(mask_of(parse_cards("KH 7H AC 7S 8S 8D")), trump=2) < TAKE_AT
    True
    """
    if upcard is not None and hand & rank_bit(trump, Rank.SEVEN):
        hand = hand & ~rank_bit(trump, Rank.SEVEN) | 1 << upcard
    trumps = hand & SUIT_MASKS[trump]
    value = 0.0
    for rank, weight in TRUMP_WEIGHT.items():
        if trumps & rank_bit(trump, rank):
            value += weight
    value += 7 * max(trumps.bit_count() - 2, 0)
    if trumps & rank_bit(trump, Rank.KING) and trumps & rank_bit(trump, Rank.QUEEN):
        value += 12  # bella
    for suit in range(4):
        if suit == trump:
            continue
        if hand & rank_bit(suit, Rank.ACE):
            value += 11
            if hand & rank_bit(suit, Rank.TEN):
                value += 7
        elif hand & rank_bit(suit, Rank.TEN) and (hand & SUIT_MASKS[suit]).bit_count() >= 2:
            value += 2
    for run in runs_in(cards_of(hand)):
        value += 0.6 * meld_value(run, 50)
    return value


# ---------------------------------------------------------------------------------------------
# Estimating the deal


def _power(card: int, trump: int) -> float:
    """A card's share of the trick-taking power of a hand (used to split the points to come)."""
    s = STRENGTH[trump][card]
    return float(s * s) if s > 8 else float(s)


def _tally(view: KlaberjassView) -> dict[Seat, int]:
    """Card points won so far by each player (the last trick's 10 included once won)."""
    trump = view.trump
    assert trump is not None
    won = {Seat.N: 0, Seat.S: 0}
    for winner, points in finished_tricks(view.played, trump.index):
        won[winner] += points
    return won


def _meld_points(view: KlaberjassView) -> dict[Seat, int]:
    """The sequence points each player is known to score (the shown sequences)."""
    points = {Seat.N: 0, Seat.S: 0}
    for seat, melds in view.shown:
        points[seat] = sum(meld_value(meld, view.rules.long_sequence) for meld in melds)
    return points


def expects_to_fail(view: KlaberjassView, knowledge: Knowledge, extra: int = 0) -> bool:
    """Whether the maker ``view.seat`` expects to total less than the opponent, counting
    ``extra`` more points for himself (a bella, sequences about to be declared).

    The points still to be won are split in proportion to the trick-taking power of the maker's
    hand and of the cards the opponent is likely to hold.
    """
    trump = view.trump
    assert trump is not None
    seat = view.seat
    opponent = opponent_of(seat)
    t = trump.index
    won = _tally(view)
    melds = _meld_points(view)
    mine = won[seat] + melds[seat] + extra + _bella_so_far(view, seat)
    theirs = won[opponent] + melds[opponent] + _bella_so_far(view, opponent)
    left = max(ALL_CARD_POINTS - sum(won.values()), 0)
    odds = Odds(knowledge.sizes, knowledge.possible)
    my_power = sum(_power(card, t) for card in bits(knowledge.hand))
    their_power = sum(odds.chance(0, card) * _power(card, t) for card in bits(knowledge.possible[0]))
    share = my_power / (my_power + their_power) if my_power + their_power else 0.5
    return mine + share * left < theirs + (1 - share) * left


def _bella_so_far(view: KlaberjassView, seat: Seat) -> int:
    """20 when ``seat`` has played both K and Q of trumps (assumed claimed)."""
    trump = view.trump
    assert trump is not None
    kq = rank_bit(trump.index, Rank.KING) | rank_bit(trump.index, Rank.QUEEN)
    played = mask_of(card for who, card in view.played if who is seat)
    return BELLA if played & kq == kq else 0


# ---------------------------------------------------------------------------------------------
# Card play


def _beat_chance(odds: Odds, card: int, trump: int) -> float:
    """The chance that the opponent (place 0) beats ``card`` led: with a higher card of its suit,
    or, void in it, with a trump."""
    suit = SUIT_OF[card]
    higher = odds.any_of(0, BEATS[trump][card])
    if suit == trump:
        return higher
    void = odds.none_of(0, SUIT_MASKS[suit])
    return min(1.0, higher + void * odds.any_of(0, SUIT_MASKS[trump]))


def lead_score(card: int, view: KlaberjassView, knowledge: Knowledge, odds: Odds, trump: int,
               style: KlaberjassStyle = STYLE) -> float:
    """The value of leading ``card``: the trick won or lost by the opponent's likely answer, the
    card's worth kept, and the maker drawing trumps."""
    last = len(view.played) == 16
    p_beat = _beat_chance(odds, card, trump)
    bonus = LAST_TRICK_BONUS if last else 0
    gain = POINTS[trump][card] + style.won_lead + bonus
    loss = POINTS[trump][card] + style.lost_lead + bonus
    kept = keep_value(card, trump, knowledge.hand, knowledge.unseen, style.keep)
    value = (1.0 - p_beat) * gain - p_beat * loss - kept
    if SUIT_OF[card] == trump:
        if view.maker is view.seat and knowledge.possible[0] & SUIT_MASKS[trump]:
            value += style.draw_trumps
        elif view.maker is not view.seat:
            value += style.defender_trump
        if 1 << card == rank_bit(trump, Rank.NINE) and knowledge.unseen & rank_bit(trump, Rank.JACK):
            value += style.menel_lead
    return value


def follow_score(card: int, led: int, view: KlaberjassView, knowledge: Knowledge, trump: int,
                 style: KlaberjassStyle = STYLE) -> float:
    """The value of answering ``led`` with ``card``: the trick's points (and last trick) won or
    lost, less the card's worth kept."""
    last = len(view.played) == 17
    value = POINTS[trump][led] + POINTS[trump][card] + (LAST_TRICK_BONUS if last else 0)
    sign = 1.0 if follower_wins(led, card, trump) else -1.0
    return sign * value - keep_value(card, trump, knowledge.hand, knowledge.unseen, style.keep)


def choose_card(view: KlaberjassView, legal: int, knowledge: Knowledge,
                style: KlaberjassStyle = STYLE) -> int:
    """The card (index) to play from the ``legal`` mask."""
    assert view.trump is not None
    trump = view.trump.index
    if view.trick:
        led = view.trick[0][1].index
        scores = {card: follow_score(card, led, view, knowledge, trump, style) for card in bits(legal)}
    else:
        odds = Odds(knowledge.sizes, knowledge.possible)
        scores = {card: lead_score(card, view, knowledge, odds, trump, style) for card in bits(legal)}
    return max(scores, key=lambda card: (scores[card], -card))


# ---------------------------------------------------------------------------------------------
# The bot


class KlaberjassHeuristic:
    """The rule-of-thumb Klaberjass player (see the module docstring). Deterministic: it uses
    neither the generator nor anything but the view and the legal actions."""

    name = "heuristic"

    def __init__(self, style: KlaberjassStyle = STYLE) -> None:
        self.style = style

    def choose(self, view: KlaberjassView, legal: Sequence[Action], rng: random.Random) -> Action:
        """One of ``legal`` for ``view``'s seat."""
        del rng
        kinds = {action.kind: action for action in legal}
        if view.phase is Phase.DIX:
            return kinds[ActionKind.DIX] if self._dix(view) else kinds[ActionKind.KEEP]
        if view.phase is not Phase.PLAY:
            return self._bid(view, legal, kinds)
        knowledge = infer_klaberjass(view)
        if ActionKind.NOMELD in kinds:
            return self._declare(view, legal, knowledge)
        plays = [action for action in legal if action.kind is ActionKind.PLAY]
        card = choose_card(view, mask_of(action.card for action in plays if action.card), knowledge,
                           self.style)
        chosen = [action for action in plays if action.card is not None and action.card.index == card]
        if len(chosen) == 2:  # the second of K and Q of trumps: claim bella or not
            claim = not (view.maker is view.seat and expects_to_fail(view, knowledge, extra=20))
            return next(action for action in chosen if action.bella is claim)
        return chosen[0]

    # -- bidding -----------------------------------------------------------------------------

    def _values(self, view: KlaberjassView) -> dict[Suit, float]:
        hand = mask_of(view.hand)
        up = view.upcard
        return {suit: trump_value(hand, suit.index, up.index if suit is up.suit else None) for suit in SUITS}

    def _bid(self, view: KlaberjassView, legal: Sequence[Action],
             kinds: dict[ActionKind, Action]) -> Action:
        values = self._values(view)
        up = view.upcard.suit
        rules = view.rules
        style = self.style
        second_round = sum(bid.word == "pass" for bid in view.bids) >= 2
        best_other = max(value for suit, value in values.items() if suit is not up)
        if view.phase is Phase.SCHMEISS:
            if rules.schmeiss_refused == "refuser-makes":
                refuse = (best_other if second_round else values[up]) >= style.take_at
            elif second_round:
                refuse = False  # the schmeisser will name a suit of his choice
            else:  # the schmeisser makes: refuse when holding the trumps to beat him
                trumps = mask_of(view.hand) & SUIT_MASKS[up.index]
                refuse = bool(trumps & (rank_bit(up.index, Rank.JACK) | rank_bit(up.index, Rank.NINE))) \
                    and trumps.bit_count() >= 3
            return kinds[ActionKind.REFUSE] if refuse else kinds[ActionKind.ACCEPT]
        if view.phase is Phase.BIDDING_1:
            if values[up] >= style.take_at:
                return kinds[ActionKind.TAKE]
            if ActionKind.SCHMEISS in kinds and rules.schmeiss_refused == "refuser-makes" \
                    and values[up] >= style.schmeiss_from:
                return kinds[ActionKind.SCHMEISS]
            return kinds[ActionKind.PASS]
        names = [action for action in legal if action.kind is ActionKind.NAME]
        best = max(names, key=lambda action: (values[action.suit], -action.suit.index))  # type: ignore[index,union-attr]
        bar = style.take_at + style.second_round + (style.last_chance if view.seat is view.dealer else 0.0)
        if view.phase is Phase.NAMING or values[best.suit] >= bar:  # type: ignore[index]
            return best
        return kinds[ActionKind.PASS]

    # -- dix and declarations ------------------------------------------------------------------

    def _dix(self, view: KlaberjassView) -> bool:
        """Exchange the 7 of trumps for the upcard unless it breaks a sequence worth more."""
        assert view.trump is not None
        hand = list(view.hand)
        seven = next(card for card in hand if card.suit is view.trump and card.rank is Rank.SEVEN)
        after = [card for card in hand if card is not seven] + [view.upcard]
        long = view.rules.long_sequence
        before_melds = max((sum(meld_value(m, long) for m in s) for s in meld_sets(hand)), default=0)
        after_melds = max((sum(meld_value(m, long) for m in s) for s in meld_sets(after)), default=0)
        gain = TRUMP_WEIGHT[view.upcard.rank] - TRUMP_WEIGHT[Rank.SEVEN]
        return after_melds - before_melds + gain >= 0

    def _declare(self, view: KlaberjassView, legal: Sequence[Action], knowledge: Knowledge) -> Action:
        """The sequences worth most, or silence (see the module docstring)."""
        assert view.trump is not None
        long = view.rules.long_sequence
        silent = next(action for action in legal if action.kind is ActionKind.NOMELD)
        melds = [action for action in legal if action.kind is ActionKind.MELD]
        if not melds:
            return silent

        def key(action: Action) -> tuple[int, int, int, bool]:
            worth = sum(meld_value(meld, long) for meld in action.melds)
            top = max((meld_value(m, long), m[0].rank.index, m[0].suit is view.trump) for m in action.melds)
            return (worth, *top)

        best = max(melds, key=key)
        worth, value = key(best)[0], key(best)[1]
        announced = announced_value(view.talk)
        if view.seat is view.dealer and announced is not None and value < announced:
            return silent  # the elder's announced value beats every sequence held
        if view.maker is view.seat and expects_to_fail(view, knowledge, extra=worth):
            return silent
        return best
