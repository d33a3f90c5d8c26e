"""The Klaverjas rules of thumb: choosing trump and playing a card, from one seat's view.

**Trump.** Each suit is valued as trump (:func:`trump_value`): the jack (Jass) and nine (Menel)
of trumps first, then the other trumps, length, stuk, side aces and guarded tens, a void beside
length. A seat names (or takes) the best suit when it is worth :data:`NAME_AT`; a seat that must
choose names its best suit.

**Play.** Every legal card is scored by what it is likely to bring to the trick (:func:`card_score`):
the points in the trick, the roem it makes (for whichever side wins), the last trick's 10, times
the chance that our side takes the trick (from the cards each player can still hold:
:mod:`klabsite.bots.inference`), less what the card is worth kept for later (a master card, a high
trump, the guard of a ten or of the nine of trumps). That one measure plays like a club player:
smear points on the partner's safe trick, take a trick with the cheapest card that holds it,
throw the least valuable card on a lost trick, don't complete a run or stuk for the opponents,
keep the menel guarded. On the lead the playing side draws trumps with the master trump (and
the maker's partner returns a trump), masters are led while they stand, tens after the ace has
gone, a void of the partner is fed; the defenders keep their trumps.

>>> import random
>>> from klabsite.engine.actions import Action
>>> from klabsite.engine.cards import DECK, Suit
>>> from klabsite.engine.klaverjas import KlaverjasDeal, KlaverjasRules
>>> from klabsite.engine.seats import Seat
>>> deal = KlaverjasDeal(KlaverjasRules(), Seat.W, DECK)
>>> bot = KlaverjasHeuristic()
>>> str(bot.choose(deal.view_for(Seat.N), deal.legal_actions(), random.Random(1)))  # 7C 8C 9C JD QD JH QH KH
'N name H'
>>> _ = deal.apply(Action.name(Seat.N, Suit.HEARTS))
>>> str(bot.choose(deal.view_for(Seat.N), deal.legal_actions(), random.Random(1)))  # draw trumps
'N JH'
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from klabsite.bots.inference import Knowledge, infer_klaverjas
from klabsite.bots.tactics import (
    BEATS,
    POINTS,
    SUIT_MASKS,
    SUIT_OF,
    TRUMP_WEIGHT,
    Keep,
    Odds,
    best_of_trick,
    bits,
    keep_value,
    rank_bit,
)
from klabsite.engine.actions import Action, ActionKind
from klabsite.engine.cards import SUITS, Rank, mask_of
from klabsite.engine.fast.klaverjas import trick_roem
from klabsite.engine.klaverjas import KlaverjasPhase, KlaverjasView
from klabsite.engine.seats import Seat
from klabsite.engine.tricks import LAST_TRICK_BONUS

__all__ = ["KlaverjasHeuristic", "KlaverjasStyle", "trump_value", "card_score", "NAME_AT"]

NAME_AT = 56.0
"""A suit worth this much as trump (:func:`trump_value`) is named or taken."""


@dataclass(frozen=True)
class KlaverjasStyle:
    """The knobs of the Klaverjas rules of thumb (the defaults are the ``heuristic`` bot)."""

    name_at: float = NAME_AT
    """Name or take a suit worth this much as trump."""
    length_bonus: float = 10.0
    side_ace: float = 11.0
    side_ten: float = 7.0
    side_void: float = 10.0
    """Bidding: per trump beyond three, per side ace, a side ten beside its ace, a void beside
    three trumps or more (:func:`trump_value`)."""
    keep: Keep = Keep(trump_step=2.5, master_base=1.5, master_points=0.6)
    """What cards are worth kept for later."""
    follower_points: float = 3.0
    """The points each player still to play is expected to add to the trick."""
    surprise: float = 0.3
    """How much harder a card that an unseen card has likely beaten is to beat again."""
    draw_trumps: float = 6.0
    """Lead bonus for a trump while the opponents may hold trumps, for the playing side."""
    return_trump: float = 8.0
    """More of it for the maker's partner in the first tricks ("partner plays: lead trumps")."""
    defender_trump: float = -16.0
    """Lead bonus (a malus) for a trump led by the defenders, or with no trump left out."""
    menel_lead: float = -12.0
    """Lead malus for the nine of trumps while the jack is out."""


STYLE = KlaverjasStyle()


def trump_value(hand: int, trump: int, style: KlaverjasStyle | None = None) -> float:
    """How good ``hand`` (a mask) is with ``trump`` (a suit index) as trump.

    >>> from klabsite.engine.cards import mask_of, parse_cards
    >>> trump_value(mask_of(parse_cards("JH 9H AH 7H AC TC 8S 7D")), trump=2) > NAME_AT
    True
    >>> trump_value(mask_of(parse_cards("KH 8H 7H AC 9C 8S 7S 7D")), trump=2) < NAME_AT
    True
    """
    style = style or STYLE
    trumps = hand & SUIT_MASKS[trump]
    value = 0.0
    for rank, weight in TRUMP_WEIGHT.items():
        if trumps & rank_bit(trump, rank):
            value += weight
    count = trumps.bit_count()
    value += style.length_bonus * max(count - 3, 0)
    stuk = rank_bit(trump, Rank.KING) | rank_bit(trump, Rank.QUEEN)
    if trumps & stuk == stuk:
        value += 8
    for suit in range(4):
        if suit == trump:
            continue
        held = hand >> (suit * 8) & 0xFF
        ace, ten, king = held >> 7 & 1, held >> 3 & 1, held >> 6 & 1
        value += style.side_ace * ace
        if ten:
            value += style.side_ten if ace else 3 if king or held.bit_count() >= 3 else 0
        if not held and count >= 3:
            value += style.side_void
    return value


# ---------------------------------------------------------------------------------------------
# Card play


def _holds(odds: Odds, places: Sequence[int], best: int, led: int, trump: int) -> float:
    """The chance that none of the players at ``places`` (still to play) beats ``best``.

    A higher card of the suit can be in only one hand, so its chance to be with any of them is
    the sum of the chances; a ruff needs a void in the suit led and a trump.
    """
    if not places:
        return 1.0
    higher = BEATS[trump][best]
    p = 1.0
    possible = 0
    for place in places:
        possible |= odds.possible[place]
    if SUIT_OF[best] == trump:
        for c in bits(higher & possible):
            if led == trump:
                held = sum(odds.chance(place, c) for place in places)
            else:
                held = sum(odds.chance(place, c) * odds.none_of(place, SUIT_MASKS[led]) for place in places)
            p *= max(0.0, 1.0 - held)
        return p
    for c in bits(higher & possible):
        p *= max(0.0, 1.0 - sum(odds.chance(place, c) for place in places))
    for place in places:
        p *= 1.0 - odds.none_of(place, SUIT_MASKS[led]) * odds.any_of(place, SUIT_MASKS[trump])
    return p


def _our_chance(odds: Odds, followers: Sequence[tuple[int, bool]], best: int, led: int, trump: int,
                ours: bool, surprise: float) -> float:
    """The chance that our side takes the trick, ``best`` winning it now (ours or not).

    Ours: it holds unless an opponent still to play beats it, and then the partner may take it
    back if he plays after that opponent. Theirs: the partner, if still to play, may beat it, and
    an opponent after him may beat the partner's card. ``surprise`` scales the chance of beating
    a card that is itself unknown (it beat ``best``).
    """
    opponents = [place for place, partner in followers if not partner]
    partner_at = next((i for i, (_, partner) in enumerate(followers) if partner), None)
    if ours:
        held = _holds(odds, opponents, best, led, trump)
        if partner_at is not None and not followers[0][1]:
            partner = followers[partner_at][0]
            held += (1.0 - held) * (1.0 - _holds(odds, [partner], best, led, trump)) * surprise
        return held
    if partner_at is None:
        return 0.0
    beat = 1.0 - _holds(odds, [followers[partner_at][0]], best, led, trump)
    after = [place for place, partner in followers[partner_at + 1:] if not partner]
    return beat * (1.0 - (1.0 - _holds(odds, after, best, led, trump)) * surprise)


def card_score(card: int, trick: Sequence[int], followers: Sequence[tuple[int, bool]], odds: Odds,
               knowledge: Knowledge, trump: int, last: bool, style: KlaverjasStyle = STYLE) -> float:
    """The value of playing ``card`` now (see the module docstring).

    ``trick`` holds the cards played so far (led first) and ``followers`` the players still to
    play after this seat, each ``(place index, is partner)``. The card winning the trick so far
    belongs to our side when its position has the parity of this seat's.
    """
    cards = [*trick, card]
    pos = best_of_trick(cards, trump)
    ours = (len(cards) - 1 - pos) % 2 == 0
    best = cards[pos]
    led = SUIT_OF[cards[0]]
    p_ours = _our_chance(odds, followers, best, led, trump, ours, style.surprise)
    mask = 0
    for c in cards:
        mask |= 1 << c
    points = sum(POINTS[trump][c] for c in cards) + style.follower_points * len(followers)
    value = points + trick_roem(mask, trump) + (LAST_TRICK_BONUS if last else 0)
    kept = keep_value(card, trump, knowledge.hand, knowledge.unseen, style.keep)
    return (2.0 * p_ours - 1.0) * value - kept


def _lead_bonus(card: int, view: KlaverjasView, knowledge: Knowledge, trump: int,
                style: KlaverjasStyle) -> float:
    """Rules of the lead on top of :func:`card_score`: draw trumps as the playing side, return a
    trump to the partner who chose it, feed the partner's void; defenders keep their trumps."""
    seat = view.seat
    trumps = SUIT_MASKS[trump]
    opponents_trumps = (knowledge.possible[0] | knowledge.possible[2]) & trumps
    if SUIT_OF[card] == trump:
        if view.playing is not seat.side or not opponents_trumps:
            return style.defender_trump
        bonus = style.draw_trumps
        if _maker(view) is seat.partner and len(view.tricks) < 3:
            bonus += style.return_trump
        if 1 << card == rank_bit(trump, Rank.NINE) and knowledge.unseen & rank_bit(trump, Rank.JACK):
            bonus += style.menel_lead  # keep the menel guarded while the jack is out
        return bonus
    suit = SUIT_MASKS[SUIT_OF[card]]
    if not knowledge.possible[1] & suit and knowledge.possible[1] & trumps:
        return 4.0 - POINTS[trump][card]  # the partner ruffs it: lead him a low card
    return 0.0


def _maker(view: KlaverjasView) -> Seat | None:
    """Who chose trump."""
    for bid in view.bids:
        if bid.word in ("name", "take"):
            return bid.seat
    return None


def choose_card(view: KlaverjasView, legal: int, style: KlaverjasStyle = STYLE) -> int:
    """The card (index) this seat plays from the ``legal`` mask."""
    assert view.trump is not None
    trump = view.trump.index
    knowledge = infer_klaverjas(view)
    odds = Odds(knowledge.sizes, knowledge.possible)
    trick = [card.index for _, card in view.trick]
    followers = [(place, place == 1) for place in range(3 - len(trick))]
    last = len(view.tricks) == 7
    best_card, best_value = -1, float("-inf")
    for card in bits(legal):
        value = card_score(card, trick, followers, odds, knowledge, trump, last, style)
        if not trick:
            value += _lead_bonus(card, view, knowledge, trump, style)
        if value > best_value + 1e-9:
            best_card, best_value = card, value
    return best_card


# ---------------------------------------------------------------------------------------------
# The bot


class KlaverjasHeuristic:
    """The rule-of-thumb Klaverjas player (see the module docstring). Deterministic: it uses
    neither the generator nor anything but the view and the legal actions."""

    name = "heuristic"

    def __init__(self, style: KlaverjasStyle = STYLE) -> None:
        self.style = style

    def choose(self, view: KlaverjasView, legal: Sequence[Action], rng: random.Random) -> Action:
        """One of ``legal`` for ``view``'s seat."""
        del rng
        if view.phase is KlaverjasPhase.PLAY:
            plays = {action.card.index: action for action in legal if action.card is not None}
            return plays[choose_card(view, mask_of(action.card for action in legal if action.card),
                                     self.style)]
        hand = mask_of(view.hand)
        values = {suit: trump_value(hand, suit.index, self.style) for suit in SUITS}
        names = [action for action in legal if action.kind is ActionKind.NAME]
        passing = [action for action in legal if action.kind is ActionKind.PASS]
        taking = [action for action in legal if action.kind is ActionKind.TAKE]
        if taking:
            assert view.proposed is not None
            return taking[0] if values[view.proposed] >= self.style.name_at else passing[0]
        assert names
        best = max(names, key=lambda action: (values[action.suit], -action.suit.index))  # type: ignore[index,union-attr]
        if passing and values[best.suit] < self.style.name_at:  # type: ignore[index]
            return passing[0]
        return best
