"""The engine contract both games share through klabsite.engine.deal: one base, one API, one deck check.

Also checks what the shared code relies on (hands stay sorted by card index) and that the fast
roem count agrees with the rule's parts for every possible trick.
"""

from __future__ import annotations

import itertools
import random

import pytest

from klabsite.engine.actions import Action, ActionKind, IllegalAction
from klabsite.engine.cards import DECK, SUITS, Card, Suit, parse_cards
from klabsite.engine.deal import Deal, DealResult, check_deck
from klabsite.engine.events import CardPlayed, Dealt, TrickWon
from klabsite.engine.klaberjass import DealError, KlaberjassDeal, KlaberjassResult, stack_deck
from klabsite.engine.klaverjas import KlaverjasDeal, KlaverjasError, KlaverjasResult, deck_from_hands
from klabsite.engine.options import KlaberjassRules, KlaverjasRules
from klabsite.engine.roem import roem_cards, roem_parts, trick_roem
from klabsite.engine.seats import Seat

SHARED = ("legal_actions", "can_apply", "verify", "apply", "hands", "trick", "phase", "to_act",
          "trump", "is_over", "result")


def new_deal(game: str, rng: random.Random) -> Deal:
    deck = list(DECK)
    rng.shuffle(deck)
    if game == "klaberjass":
        return KlaberjassDeal(KlaberjassRules(), rng.choice((Seat.N, Seat.S)), deck)
    return KlaverjasDeal(KlaverjasRules(), rng.choice(list(Seat)), deck)


@pytest.mark.parametrize("game", ["klaberjass", "klaverjas"])
def test_both_engines_are_deals_with_the_shared_api(game: str) -> None:
    deal = new_deal(game, random.Random(game))
    assert isinstance(deal, Deal)
    for name in SHARED:  # the shared API is the base's, not a game's copy
        assert name not in vars(type(deal)), name
        assert hasattr(deal, name)
    assert callable(deal.view_for)
    assert isinstance(deal.events[0], Dealt) and deal.result is None and not deal.is_over


@pytest.mark.parametrize("game", ["klaberjass", "klaverjas"])
def test_random_deals_keep_the_contract_through_the_base(game: str) -> None:
    rng = random.Random(f"contract {game}")
    for _ in range(40):
        deal = new_deal(game, rng)
        while not deal.is_over:
            legal = deal.legal_actions()
            assert legal and legal == sorted(legal, key=Action.sort_key)
            assert all(action.seat is deal.to_act for action in legal)
            assert all(list(cards) == sorted(cards, key=lambda c: c.index) for cards in deal.hands.values())
            stranger = next(seat for seat in Seat if seat is not deal.to_act)
            with pytest.raises(IllegalAction, match=f"^{stranger} cannot"):
                deal.verify(Action(stranger, ActionKind.PASS))
            action = rng.choice(legal)
            assert deal.can_apply(action)
            before = len(deal.events)
            new = deal.apply(action)
            assert new and tuple(deal.events[before:]) == new
        result = deal.result
        assert isinstance(result, DealResult) and isinstance(result, (KlaberjassResult, KlaverjasResult))
        assert deal.to_act is None and deal.legal_actions() == []
        data = result.to_json()
        assert list(data)[:2] == ["dealer", "outcome"]
        if result.counted:
            assert list(data)[-3:] == ["totals", "result", "score"] and data["score"] == result.score
        else:
            assert list(data) == ["dealer", "outcome"]


def test_a_trick_is_won_alike_in_both_games() -> None:
    """The shared trick bookkeeping: winner and card points in both games; Klaverjas adds roem
    (Q-K-A of trumps 20, stuk 20)."""
    kb = KlaberjassDeal(KlaberjassRules(schmeiss="off"), Seat.S, stack_deck(
        parse_cards("AH 8C 9C TC JC QC KC AC 7D"), parse_cards("TH 8D 9D TD JD QD KD AD 7S"),
        upcard=parse_cards("7H")[0]))
    for action in (Action(Seat.N, ActionKind.TAKE), Action(Seat.N, ActionKind.NOMELD),
                   Action.play(Seat.N, parse_cards("AH")[0]), Action(Seat.S, ActionKind.NOMELD)):
        kb.apply(action)
    kb_won = [e for e in kb.apply(Action.play(Seat.S, parse_cards("TH")[0])) if isinstance(e, TrickWon)]
    assert [(w.winner, w.points, w.roem) for w in kb_won] == [(Seat.N, 21, 0)]

    hands = {Seat.N: parse_cards("AH JH 9H 7C 8C 9C TC JC"), Seat.E: parse_cards("TH 7D 8D 9D TD JD QD KD"),
             Seat.S: parse_cards("KH QC KC AC AD 7S 8S 9S"), Seat.W: parse_cards("QH 7H 8H TS JS QS KS AS")}
    kv = KlaverjasDeal(KlaverjasRules(), Seat.W, deck_from_hands(Seat.W, hands))
    kv.apply(Action.name(Seat.N, Suit.HEARTS))
    events = [kv.apply(Action.play(seat, card))
              for seat, card in zip((Seat.N, Seat.E, Seat.S, Seat.W), parse_cards("AH TH KH QH"), strict=True)]
    assert [type(e) for e in events[0]] == [CardPlayed]
    won = events[-1][-1]
    assert isinstance(won, TrickWon) and (won.winner, won.points, won.roem) == (Seat.N, 28, 40)


@pytest.mark.parametrize(("deal", "error"), [
    (lambda deck: KlaberjassDeal(KlaberjassRules(), Seat.S, deck), DealError),
    (lambda deck: KlaverjasDeal(KlaverjasRules(), Seat.S, deck), KlaverjasError),
])
def test_both_engines_check_the_deck_alike(deal, error) -> None:
    bad = list(DECK[1:]) + [DECK[-1]]
    with pytest.raises(error, match="missing 7C; more than once AS"):
        deal(bad)
    with pytest.raises(error, match="this one has 31 cards; missing 7C"):
        deal(DECK[1:])


def test_the_cards_marked_as_roem_hold_all_of_a_tricks_roem_and_none_of_them_is_spare() -> None:
    for trump in SUITS:
        for cards in itertools.combinations(DECK, 4):
            roem, marked = trick_roem(cards, trump), roem_cards(cards, trump)
            assert marked <= set(cards) and bool(marked) == bool(roem), cards
            if marked and len(marked) < 4:
                assert trick_roem(list(marked), trump) == roem, cards
            assert all(trick_roem([card for card in marked if card != spare], trump) < roem for spare in marked), cards


def test_check_deck_gives_the_canonical_cards() -> None:
    copies = [Card(card.rank, card.suit) for card in DECK]
    assert all(a is b for a, b in zip(check_deck(copies, ValueError), DECK, strict=True))


def test_trick_roem_is_the_sum_of_roem_parts_for_every_trick() -> None:
    for trump in SUITS:
        for size in (3, 4):
            for cards in itertools.combinations(DECK, size):
                assert trick_roem(cards, trump) == sum(value for _, value in roem_parts(cards, trump)), cards
