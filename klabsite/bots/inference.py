"""What a seat can know about the cards it cannot see, from its view alone; and sampling them.

:func:`infer` reads a view (``view_for(seat)`` of either engine) and returns a
:class:`Knowledge`: for every *place* the seat cannot see into (each other player's hand, and in
Klaberjass the stock) how many cards it holds, which cards it *may* hold and which it surely
holds, plus Klaberjass *claims* (an announced sequence the player must hold somewhere).
:meth:`Knowledge.sampler` then draws complete layouts of the hidden cards, uniformly among all
that fit (:mod:`klabsite.bots.sampling`).

The inferences:

- every card a player played and was allowed to play tells what he did not hold at that moment
  (so does not hold now): found by asking the fast path's legality (the engines' rules) whether
  the card would still have been legal beside each other kind of card. That one test covers
  following suit (a void), trumping when void (no trump), the must-overtrump rules on a trump
  lead, Klaberjass ``must-beat=any-lead`` (no higher card of the suit led), and Amsterdam and
  Rotterdam overtrumping and undertrumping (no higher trump; no plain card);
- Klaberjass: the face-up upcard and bottom card are nobody's; after a ``dix`` the exchanger
  holds the old upcard; a ``keep`` shows who holds the 7 of trumps, and no dix decision at all
  (the upcard's suit trump) shows that neither hand holds it; the sequences shown after the
  first trick are held by their owner; the table talk ("Fifty." "How high?" "King high." "In
  trumps?") says that the speaker holds a sequence of that value, top card and trump-ness.
  Bella gives nothing away: it is claimed with the second of K and Q, both then on the table.

>>> from klabsite.engine.cards import DECK, Suit
>>> from klabsite.engine.klaverjas import KlaverjasDeal, KlaverjasRules
>>> from klabsite.engine.actions import Action
>>> from klabsite.engine.seats import Seat
>>> deal = KlaverjasDeal(KlaverjasRules(), Seat.W, DECK)        # W is dealt no club
>>> _ = deal.apply(Action.name(Seat.N, Suit.SPADES))
>>> for _ in range(4):                                            # N leads 7C, W discards
...     _ = deal.apply(deal.legal_actions()[0])
>>> [str(card) for _, card in deal.tricks[0].cards]
['7C', 'TC', 'KC', '8D']
>>> knowledge = infer(deal.view_for(Seat.N))
>>> knowledge.places, knowledge.sizes
((<Seat.E: 'E'>, <Seat.S: 'S'>, <Seat.W: 'W'>), (7, 7, 7))
>>> [bool(possible & 0xFF) for possible in knowledge.possible]   # may still hold a club?
[True, True, False]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from klabsite.bots.sampling import Claim, Sampler
from klabsite.engine.cards import SUITS, Card, Rank, Suit, mask_of
from klabsite.engine.fast import klaberjass as fast2
from klabsite.engine.fast import klaverjas as fast4
from klabsite.engine.fast.tables import FULL_DECK, SUIT_MASKS, SUIT_OF
from klabsite.engine.klaberjass import KlaberjassView, opponent_of
from klabsite.engine.klaberjass import Phase as KlaberjassPhase
from klabsite.engine.klaverjas import KlaverjasView
from klabsite.engine.melds import Phrase
from klabsite.engine.seats import CLOCKWISE, Seat

__all__ = [
    "STOCK", "Place", "Knowledge", "infer", "infer_klaberjass", "infer_klaverjas", "excluded_by_play",
    "klaberjass_categories", "klaverjas_categories", "talk_claims", "announced_value", "MeldClaim",
]

STOCK = "stock"
"""The Klaberjass stock's hidden cards, as a place."""

Place = Seat | str
Legal = Callable[[int], int]
"""The legal cards (a mask) of a hand (a mask) at one moment of the play."""

_BIDDING = frozenset({KlaberjassPhase.BIDDING_1, KlaberjassPhase.SCHMEISS, KlaberjassPhase.BIDDING_2,
                      KlaberjassPhase.NAMING})


@dataclass(frozen=True)
class Knowledge:
    """What ``seat`` knows about the cards it cannot see.

    ``places`` are the hidden places (the other seats clockwise from ``seat``'s left, then the
    Klaberjass stock); ``sizes``, ``possible`` and ``known`` are per place: how many unseen cards
    it holds, the mask of cards it may hold, the mask it surely holds. ``played`` is each seat's
    played cards; ``claims`` are ``(place index, candidate masks)`` (one must be held).
    """

    seat: Seat
    trump: Suit | None
    hand: int
    played: dict[Seat, int]
    places: tuple[Place, ...]
    sizes: tuple[int, ...]
    possible: tuple[int, ...]
    known: tuple[int, ...]
    claims: tuple[Claim, ...] = ()

    @property
    def unseen(self) -> int:
        """The cards whose place ``seat`` does not see (the known ones included)."""
        mask = 0
        for possible in self.possible:
            mask |= possible
        return mask

    def possible_for(self, place: Place) -> int:
        """The cards ``place`` may hold (0 for a place that is not hidden)."""
        return self.possible[self.places.index(place)] if place in self.places else 0

    def sampler(self) -> Sampler:
        """A uniform sampler of the hidden cards (``sample(rng)`` gives a mask per place)."""
        return Sampler(self.places, self.sizes, self.possible, self.claims)

    def sample(self, rng: Any) -> dict[Place, int]:
        """One uniformly drawn layout of the hidden cards, by place (build a :meth:`sampler` to
        draw many)."""
        return dict(zip(self.places, self.sampler().sample(rng), strict=True))


def _knowledge(seat: Seat, trump: Suit | None, hand: int, played: dict[Seat, int], places: list[Place],
               sizes: list[int], unseen: int, excluded: dict[Place, int], known: dict[Place, int],
               claims: Iterable[Claim] = ()) -> Knowledge:
    """Assemble a :class:`Knowledge`: a known card is possible only where it is known to be."""
    everywhere_known = 0
    for mask in known.values():
        everywhere_known |= mask
    possible = []
    for place in places:
        mine = known.get(place, 0)
        possible.append((unseen & ~excluded.get(place, 0) & ~everywhere_known) | mine)
    return Knowledge(seat, trump, hand, played, tuple(places), tuple(sizes), tuple(possible),
                     tuple(known.get(place, 0) for place in places), tuple(claims))


# ---------------------------------------------------------------------------------------------
# The one play inference


def excluded_by_play(card: int, categories: Iterable[int], legal: Legal) -> int:
    """The cards a player cannot have held beside ``card`` when he played it legally.

    ``legal`` maps a hand to its legal cards at that moment; ``categories`` partition the deck
    into kinds of card the rules treat alike (led suit beating / not beating, trumps above /
    below the best trump, the rest). A kind is excluded when ``card`` would not have been legal
    in a hand holding ``card`` and one card of that kind. The rules are cascades ("follow if you
    can, else trump if you can …"), so ``card`` was legal in a hand exactly when the hand held
    no card of an excluded kind; tests check this against whole hands.

    >>> from klabsite.engine.cards import Card, Suit
    >>> c = Card.parse
    >>> led, played = c("AH").index, c("7S").index                # S led hearts, N trumped
    >>> cats = klaberjass_categories(led, Suit.SPADES.index)
    >>> legal = lambda hand: fast2.legal_mask(hand, led, Suit.SPADES.index, False)
    >>> from klabsite.engine.cards import cards_of
    >>> [str(card) for card in cards_of(excluded_by_play(played, cats, legal))]   # void in hearts
    ['7H', '8H', '9H', 'TH', 'JH', 'QH', 'KH', 'AH']
    """
    bit = 1 << card
    out = 0
    for kind in categories:
        other = kind & ~bit
        if other and not legal(bit | (other & -other)) & bit:
            out |= kind
    return out


def klaberjass_categories(led: int, trump: int) -> tuple[int, ...]:
    """The kinds of card Klaberjass's follower rules tell apart, for ``led`` in ``trump``."""
    suit = SUIT_MASKS[SUIT_OF[led]]
    beating = fast2.BEATS[trump][led]
    trumps = SUIT_MASKS[trump] & ~suit
    return (beating, suit & ~beating, trumps, FULL_DECK & ~suit & ~trumps)


def klaverjas_categories(trick: list[int], trump: int) -> tuple[int, ...]:
    """The kinds of card Klaverjas's rules tell apart for the next card to ``trick``."""
    suit = SUIT_MASKS[SUIT_OF[trick[0]]]
    trumps = SUIT_MASKS[trump]
    best = max((fast4.STRENGTH[trump][card] for card in trick if SUIT_OF[card] == trump), default=0)
    above = fast4.ABOVE[trump][best]
    return (suit & ~trumps, above, trumps & ~above, FULL_DECK & ~suit & ~trumps)


# ---------------------------------------------------------------------------------------------
# Klaberjass talk


@dataclass(frozen=True)
class MeldClaim:
    """What the talk says one player holds: a run of at least ``length`` cards, its top card's
    rank index compared with ``top`` (``relation`` ``=``, ``<``, ``>``, or ``None`` for any), in
    trumps (``trump`` ``True``), not in trumps (``False``) or either (``None``)."""

    length: int
    top: int | None = None
    relation: str | None = None
    trump: bool | None = None

    def candidates(self, trump: Suit) -> tuple[int, ...]:
        """The runs of exactly ``length`` cards that satisfy the claim, as masks."""
        out = []
        for suit in SUITS:
            if self.trump is not None and (suit is trump) is not self.trump:
                continue
            for top in range(self.length - 1, 8):
                if self.relation == "=" and top != self.top:
                    continue
                if self.relation == "<" and top >= (self.top or 0):
                    continue
                if self.relation == ">" and top <= (self.top or 0):
                    continue
                out.append(((1 << self.length) - 1) << (suit.index * 8 + top - self.length + 1))
        return tuple(out)


_VALUES = {"twenty": 20, "fifty": 50, "hundred": 100}


def announced_value(talk: Sequence[Phrase]) -> int | None:
    """The value the first player to declare announced ("Twenty." 20 …), or ``None``.

    >>> announced_value([Phrase(Seat.N, "fifty")]), announced_value([])
    (50, None)
    """
    return _VALUES.get(talk[0].key) if talk else None


def _length(value: int, long_sequence: int) -> int:
    """The fewest cards in a sequence worth ``value``."""
    return 3 if value == 20 else 4 if value == 50 or long_sequence == 50 else 5


def talk_claims(
    talk: Iterable[Phrase], elder: Seat, dealer: Seat, long_sequence: int
) -> dict[Seat, MeldClaim]:
    """What the table talk (:func:`klabsite.engine.melds.reply_talk`) says each player holds.

    >>> from klabsite.engine.melds import Phrase
    >>> from klabsite.engine.cards import Rank
    >>> talk = [Phrase(Seat.N, "fifty"), Phrase(Seat.S, "how-high"), Phrase(Seat.N, "top", Rank.KING),
    ...         Phrase(Seat.S, "not-good")]
    >>> claims = talk_claims(talk, Seat.N, Seat.S, 50)
    >>> claims[Seat.N]
    MeldClaim(length=4, top=6, relation='=', trump=None)
    >>> claims[Seat.S]                   # "Not good.": a fifty with a higher top card than the king
    MeldClaim(length=4, top=6, relation='>', trump=None)
    """
    words = [(phrase.seat, phrase.key, phrase.rank) for phrase in talk]
    claims: dict[Seat, MeldClaim] = {}
    if not words:
        return claims
    seat, key, _ = words[0]
    if seat is not elder:  # only the dealer declared: "Fifty." "Good."
        claims[dealer] = MeldClaim(_length(_VALUES[key], long_sequence))
        return claims
    value = _VALUES[key]
    length = _length(value, long_sequence)
    claims[elder] = MeldClaim(length)
    rest = words[1:]
    if not rest or rest[0][1] == "good":
        return claims
    if rest[0][1] == "not-good":
        claims[dealer] = MeldClaim(_length(100 if value == 50 else 50, long_sequence))
        return claims
    top = rest[1][2]
    assert top is not None
    claims[elder] = MeldClaim(length, top.index, "=")
    answer = rest[2][1]
    if answer in ("good", "not-good"):
        claims[dealer] = MeldClaim(length, top.index, "<" if answer == "good" else ">")
        return claims
    elder_trump = rest[3][1] == "yes"
    claims[elder] = MeldClaim(length, top.index, "=", elder_trump)
    claims[dealer] = MeldClaim(length, top.index, "=", not elder_trump and rest[4][1] == "not-good")
    return claims


# ---------------------------------------------------------------------------------------------
# Klaberjass


def infer_klaberjass(view: KlaberjassView) -> Knowledge:
    """The knowledge of a Klaberjass seat (see the module docstring)."""
    seat = view.seat
    opponent = opponent_of(seat)
    hand = mask_of(view.hand)
    played = {Seat.N: 0, Seat.S: 0}
    for who, card in view.played:
        played[who] |= card.bit
    seen = hand | played[Seat.N] | played[Seat.S] | view.upcard.bit
    if view.bottom is not None:
        seen |= view.bottom.bit
    unseen = FULL_DECK & ~seen
    known: dict[Place, int] = {opponent: 0}
    excluded: dict[Place, int] = {opponent: 0, STOCK: 0}
    trump = view.trump
    if view.phase in _BIDDING:
        places: list[Place] = [opponent, STOCK]
        sizes = [6, unseen.bit_count() - 6]
        return _knowledge(seat, trump, hand, played, places, sizes, unseen, excluded, known)
    assert trump is not None
    seven = Card(Rank.SEVEN, trump).bit
    dix = view.dix
    if dix is not None:
        if dix.seat is opponent:
            known[opponent] |= (dix.upcard.bit if dix.exchanged else seven) & ~played[opponent]
    elif view.phase is KlaberjassPhase.DIX:
        if view.to_act is opponent:
            known[opponent] |= seven
    elif view.upcard.suit is trump:
        excluded[opponent] |= seven  # no dix decision: neither hand held the 7 of trumps
    for shown_seat, melds in view.shown:
        if shown_seat is opponent:
            known[opponent] |= mask_of(card for meld in melds for card in meld) & ~played[opponent]
    any_lead = view.rules.must_beat == "any-lead"
    plays = view.played
    for i in range(1, len(plays), 2):
        (_, led), (who, card) = plays[i - 1], plays[i]
        if who is opponent:
            def legal(mask: int, led: int = led.index) -> int:
                return fast2.legal_mask(mask, led, trump.index, any_lead)
            excluded[opponent] |= excluded_by_play(
                card.index, klaberjass_categories(led.index, trump.index), legal)
    claims: list[Claim] = []
    if not any(shown_seat is opponent for shown_seat, _ in view.shown):
        elder = opponent_of(view.dealer)
        claim = talk_claims(view.talk, elder, view.dealer, view.rules.long_sequence).get(opponent)
        if claim is not None:
            runs = [run & ~played[opponent] for run in claim.candidates(trump)]
            if all(runs):  # a run already played out in full satisfies the claim
                claims.append((0, tuple(runs)))
    places = [opponent, STOCK]
    sizes = [view.opponent_cards, unseen.bit_count() - view.opponent_cards]
    return _knowledge(seat, trump, hand, played, places, sizes, unseen, excluded, known, claims)


# ---------------------------------------------------------------------------------------------
# Klaverjas


def infer_klaverjas(view: KlaverjasView) -> Knowledge:
    """The knowledge of a Klaverjas seat (see the module docstring)."""
    seat = view.seat
    hand = mask_of(view.hand)
    played = dict.fromkeys(CLOCKWISE, 0)
    excluded: dict[Place, int] = dict.fromkeys(CLOCKWISE, 0)
    trump = view.trump
    rotterdam, undertrump = fast4.flags(view.rules)
    tricks = [won.cards for won in view.tricks]
    if view.trick:
        tricks.append(view.trick)
    for trick in tricks:
        cards: list[int] = []
        for who, card in trick:
            played[who] |= card.bit
            if cards and who is not seat:
                assert trump is not None
                so_far = list(cards)

                def legal(mask: int, so_far: list[int] = so_far) -> int:
                    return fast4.legal_mask(mask, so_far, trump.index, rotterdam, undertrump)
                kinds = klaverjas_categories(so_far, trump.index)
                excluded[who] |= excluded_by_play(card.index, kinds, legal)
            cards.append(card.index)
    seen = hand
    for mask in played.values():
        seen |= mask
    places: list[Place] = [CLOCKWISE[(seat.index + i) % 4] for i in (1, 2, 3)]
    sizes = [view.hand_sizes[place] for place in places]  # type: ignore[index]
    return _knowledge(seat, trump, hand, played, places, sizes, FULL_DECK & ~seen, excluded, {})


def infer(view: KlaberjassView | KlaverjasView) -> Knowledge:
    """The :class:`Knowledge` of the seat whose view this is, for either game."""
    if isinstance(view, KlaberjassView):
        return infer_klaberjass(view)
    return infer_klaverjas(view)
