"""The solver's positions of a sampled world: a seat's view plus a layout of its hidden cards.

:mod:`klabsite.bots.worlds` gives the engine's fast-path position; the solver also needs what the
score still depends on, built here from the view alone:

- Klaverjas (:func:`klaverjas_world`): the playing side and each side's points, roem and tricks.
- Klaberjass (:func:`klaberjass_world`): points and tricks, the bella still to claim, and the
  sequences. After the first trick the comparison is public (the sequences shown, or none).
  Before it, a player who has declared declared, in this world, the sequences worth most among
  those of his cards that make the table talk heard (a player whose talk is silent declared
  nothing); a player still to declare has every declaration the rules allow, as the solver's
  matrix of outcomes (:func:`klabsite.solver.deals.meld_matrix`).

What the view does not tell: whether a player who played both K and Q of trumps claimed bella
(a claim is taken; declining is rare and only a failing maker's choice).

>>> import random
>>> from klabsite.bots.inference import infer
>>> from klabsite.engine.actions import Action
>>> from klabsite.engine.cards import DECK, Suit
>>> from klabsite.engine.klaverjas import KlaverjasDeal, KlaverjasRules
>>> from klabsite.engine.seats import Seat
>>> deal = KlaverjasDeal(KlaverjasRules(), Seat.W, DECK)
>>> _ = deal.apply(Action.name(Seat.N, Suit.SPADES))
>>> view = deal.view_for(Seat.N)
>>> knowledge = infer(view)
>>> position = klaverjas_world(view, knowledge, knowledge.sample(random.Random(1)))
>>> position.playing, position.leader, bin(position.hands[0]) == bin(knowledge.hand)
(0, 0, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from klabsite.bots.inference import Knowledge, Place
from klabsite.engine.actions import Meld
from klabsite.engine.cards import Card, Rank, Suit, cards_of, mask_of
from klabsite.engine.fast import klaberjass as fast2
from klabsite.engine.fast import klaverjas as fast4
from klabsite.engine.klaberjass import KlaberjassView, opponent_of
from klabsite.engine.klaverjas import KlaverjasView
from klabsite.engine.melds import meld_sets, meld_value, opening_talk, reply_talk
from klabsite.engine.seats import CLOCKWISE, Seat, Side
from klabsite.solver.deals import PLAYERS, meld_matrix
from klabsite.solver.klaberjass import BELLA, NO_MELDS, KlaberjassPosition, MeldOutcome
from klabsite.solver.klaverjas import KlaverjasPosition

__all__ = [
    "klaverjas_world", "klaberjass_world", "declarations_for_talk", "bella_holder", "bella_holder_of",
    "elder_of",
]


Matrix = tuple[tuple[MeldOutcome, ...], ...]


def elder_of(dealer: Seat) -> Seat:
    """The Klaberjass non-dealer."""
    return opponent_of(dealer)


# ---------------------------------------------------------------------------------------------
# Klaverjas


def klaverjas_world(view: KlaverjasView, knowledge: Knowledge,
                    layout: Mapping[Place, int]) -> KlaverjasPosition:
    """The solver's position of a Klaverjas card play with the hidden hands of ``layout``."""
    trump, playing = view.trump, view.playing
    if trump is None or playing is None:
        raise ValueError("the solver starts once trump is chosen")
    hands = {knowledge.seat: knowledge.hand}
    hands.update((place, mask) for place, mask in layout.items() if isinstance(place, Seat))
    trick = view.trick
    leader = trick[0][0] if trick else view.to_act
    assert leader is not None
    points, roem, tricks = fast4.side_tally(view.tricks)
    rules = view.rules
    return KlaverjasPosition(
        hands=tuple(hands[seat] for seat in CLOCKWISE), trump=trump.index,
        playing=0 if playing is Side.NS else 1, leader=leader.index,
        trick=tuple(card.index for _, card in trick), points=(points[0], points[1]),
        roem=(roem[0], roem[1]), tricks=(tricks[0], tricks[1]),
        rotterdam=rules.trick_rules == "rotterdam", undertrump=rules.undertrump == "required",
    )


# ---------------------------------------------------------------------------------------------
# Klaberjass sequences


def _worth(melds: Sequence[Meld], long_sequence: int) -> int:
    return sum(meld_value(meld, long_sequence) for meld in melds)


def _choices(cards: Sequence[Card]) -> list[tuple[Meld, ...]]:
    """Every declaration a hand allows, silence first."""
    return [(), *meld_sets(cards)]


def _declaration_key(melds: Sequence[Meld], trump: Suit, long_sequence: int) -> tuple[int, ...]:
    """Declarations by worth, then by their best sequence (value, top card, in trumps)."""
    if not melds:
        return (0,)
    top = max((meld_value(meld, long_sequence), meld[0].rank.index, meld[0].suit is trump) for meld in melds)
    return (_worth(melds, long_sequence), top[0], top[1], int(top[2]))


def declarations_for_talk(view: KlaberjassView, elder_cards: Sequence[Card], dealer_cards: Sequence[Card],
                          dealer_declared: bool) -> tuple[tuple[Meld, ...], tuple[Meld, ...]]:
    """What each player declared, holding these cards at his first card, given the table talk:
    the declarations that make the talk heard (the dealer's only once ``dealer_declared``),
    the non-dealer's worth most first, then the dealer's. Nothing when none fits."""
    trump = view.trump
    assert trump is not None
    long = view.rules.long_sequence
    elder, dealer = elder_of(view.dealer), view.dealer
    said = tuple(view.talk)
    best: tuple[tuple[Meld, ...], tuple[Meld, ...]] = ((), ())
    best_key: tuple[tuple[int, ...], tuple[int, ...]] = ((-1,), (-1,))
    for elder_melds in _choices(elder_cards):
        opening = opening_talk(elder, elder_melds, long)
        if not dealer_declared:
            if opening == said and (_declaration_key(elder_melds, trump, long), (0,)) > best_key:
                best, best_key = (elder_melds, ()), (_declaration_key(elder_melds, trump, long), (0,))
            continue
        if said[:len(opening)] != opening:
            continue
        for dealer_melds in _choices(dealer_cards):
            if opening + reply_talk(elder, elder_melds, dealer, dealer_melds, trump, long) != said:
                continue
            key = (_declaration_key(elder_melds, trump, long), _declaration_key(dealer_melds, trump, long))
            if key > best_key:
                best, best_key = (elder_melds, dealer_melds), key
    return best


def _opening_cards(view: KlaberjassView, seat: Seat, hand: int) -> list[Card]:
    """The cards ``seat`` held at his first card (his hand now and what he has played)."""
    played = mask_of(card for who, card in view.played if who is seat)
    return cards_of(hand | played)


def _klaberjass_melds(view: KlaberjassView, hands: dict[Seat, int], declared: dict[Seat, tuple[Meld, ...]]
                      ) -> Matrix:
    """The sequences matrix of a Klaberjass world (see the module docstring)."""
    trump = view.trump
    assert trump is not None
    rules = view.rules
    if len(view.played) >= 2:  # after the first trick: public
        if not view.shown:
            return ((NO_MELDS,),)
        seat, melds = view.shown[0]
        return (((PLAYERS.index(seat), _worth(melds, rules.long_sequence)),),)
    elder, dealer = elder_of(view.dealer), view.dealer
    talk = view.talk
    # the non-dealer declares before his first card, the dealer after it: at a card of the first
    # trick both have declared but the dealer while the non-dealer leads; ``declared`` holds a
    # declaration being decided
    elder_cards = _opening_cards(view, elder, hands[elder])
    dealer_cards = _opening_cards(view, dealer, hands[dealer])
    # the dealer's words are in the talk once he has declared; a dealer at his first card who
    # has said nothing declared nothing (or holds nothing and declares nothing with his card)
    spoke = any(phrase.seat is dealer for phrase in talk)
    elder_melds, dealer_melds = declarations_for_talk(view, elder_cards, dealer_cards, spoke)
    elder_choices = [declared.get(elder, elder_melds)]
    if dealer in declared:
        dealer_choices = [declared[dealer]]
    elif view.played:
        dealer_choices = [dealer_melds]
    else:
        dealer_choices = _choices(dealer_cards)
    return meld_matrix(elder, elder_choices, dealer, dealer_choices, trump, rules)


def bella_holder(view: KlaberjassView, hands: Mapping[Seat, int]) -> int | None:
    """The player (solver index) who holds the K and Q of trumps, or one of them having played the
    other: his bella is still to claim."""
    trump = view.trump
    assert trump is not None
    king_queen = Card(Rank.KING, trump).bit | Card(Rank.QUEEN, trump).bit
    for index, seat in enumerate(PLAYERS):
        played = mask_of(card for who, card in view.played if who is seat)
        held = hands[seat] & king_queen
        if held and (held | played) & king_queen == king_queen:
            return index
    return None


def bella_holder_of(hands: tuple[int, int], trump: Suit) -> int | None:
    """The player (solver index) whose hand (a mask, before any card is played) holds the K and Q
    of trumps."""
    king_queen = Card(Rank.KING, trump).bit | Card(Rank.QUEEN, trump).bit
    return next((index for index, hand in enumerate(hands) if hand & king_queen == king_queen), None)


def klaberjass_world(view: KlaberjassView, knowledge: Knowledge, layout: Mapping[Place, int],
                     declared: Mapping[Seat, tuple[Meld, ...]] | None = None) -> KlaberjassPosition:
    """The solver's position of a Klaberjass card play with the opponent's hand of ``layout``.

    ``declared`` fixes a player's declaration (the seat's own, as it decides or decided it);
    the others are read from the talk or left open (the module docstring).
    """
    trump, maker = view.trump, view.maker
    if trump is None or maker is None:
        raise ValueError("the solver starts once trump is chosen")
    hands = {knowledge.seat: knowledge.hand}
    hands.update((place, mask) for place, mask in layout.items() if isinstance(place, Seat))
    t = trump.index
    points, tricks, bella = [0, 0], [0, 0], [0, 0]
    trick = view.trick
    plays = view.played[:len(view.played) - len(trick)]
    for seat, won in fast2.finished_tricks(plays, t):
        player = PLAYERS.index(seat)
        points[player] += won
        tricks[player] += 1
    king_queen = Card(Rank.KING, trump).bit | Card(Rank.QUEEN, trump).bit
    for index, seat in enumerate(PLAYERS):
        if mask_of(card for who, card in view.played if who is seat) & king_queen == king_queen:
            bella[index] = BELLA  # assumed claimed: the view does not say
    leader = trick[0][0] if trick else view.to_act
    assert leader is not None
    rules = view.rules
    return KlaberjassPosition(
        hands=(hands[Seat.N], hands[Seat.S]), trump=t, maker=PLAYERS.index(maker),
        leader=PLAYERS.index(leader), led=trick[0][1].index if trick else -1,
        points=(points[0], points[1]), tricks=(tricks[0], tricks[1]),
        melds=_klaberjass_melds(view, hands, dict(declared or {})),
        elder=PLAYERS.index(elder_of(view.dealer)), bella=(bella[0], bella[1]),
        bella_holder=bella_holder(view, hands), any_lead=rules.must_beat == "any-lead",
        void=rules.no_trick_melds == "void",
    )
