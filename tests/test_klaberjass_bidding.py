"""Klaberjass: dealing from the deck, the two bidding rounds, schmeiss, throw-in, dix."""

from __future__ import annotations

import random

import pytest

from klabsite.engine.actions import Action, ActionKind, IllegalAction
from klabsite.engine.cards import DECK, Card, Suit, parse_cards
from klabsite.engine.klaberjass import (
    DixDecided,
    HandsCompleted,
    KlaberjassDeal,
    Phase,
    next_dealer,
    stack_deck,
)
from klabsite.engine.options import KlaberjassRules
from klabsite.engine.seats import Seat

# N (the non-dealer when S deals) and S hold no sequence; the upcard is the 7 of hearts.
ELDER = parse_cards("AH KC 8C 9D QD AS 8S 7D TC")
DEALER = parse_cards("JH 9H 8H AC 9C JD KS TS 7C")


DEFAULT = KlaberjassRules()


def deal_of(rules: KlaberjassRules = DEFAULT, elder=ELDER, dealer=DEALER, upcard="7H",
            bottom=None) -> KlaberjassDeal:
    deck = stack_deck(elder, dealer, Card.parse(upcard), Card.parse(bottom) if bottom else None)
    return KlaberjassDeal(rules, Seat.S, deck)


def run(deal: KlaberjassDeal, *lines: str) -> None:
    for line in lines:
        seat, words = line.split(" ", 1)
        deal.apply(Action.parse(seat, words))


def words(deal: KlaberjassDeal) -> list[str]:
    return [str(action) for action in deal.legal_actions()]


def test_dealing_follows_the_deck_three_three_then_upcard_then_three_after_bidding():
    deck = list(DECK)
    random.Random(7).shuffle(deck)
    deal = KlaberjassDeal(KlaberjassRules(), Seat.N, deck)  # N deals, S is the non-dealer
    assert deal.hands[Seat.S] == tuple(sorted(deck[0:3] + deck[6:9], key=lambda c: c.index))
    assert deal.hands[Seat.N] == tuple(sorted(deck[3:6] + deck[9:12], key=lambda c: c.index))
    assert deal.upcard == deck[12] and deal.stock == tuple(deck[13:])
    assert deal.to_act is Seat.S and deal.bottom is None
    events = deal.apply(Action(Seat.S, ActionKind.TAKE))
    completed = next(e for e in events if isinstance(e, HandsCompleted))
    assert completed.added == ((Seat.S, tuple(deck[13:16])), (Seat.N, tuple(deck[16:19])))
    assert completed.bottom == deck[31] == deal.bottom
    assert set(deal.hands[Seat.S]) == set(deck[0:3] + deck[6:9] + deck[13:16])
    assert set(deal.hands[Seat.N]) == set(deck[3:6] + deck[9:12] + deck[16:19])


def test_first_round_non_dealer_first_take_pass_or_schmeiss():
    deal = deal_of()
    assert deal.phase is Phase.BIDDING_1
    assert words(deal) == ["N take", "N pass", "N schmeiss"]
    run(deal, "N pass")
    assert words(deal) == ["S take", "S pass", "S schmeiss"]
    run(deal, "S take")
    assert deal.maker is Seat.S and deal.trump is Suit.HEARTS
    assert deal.phase is Phase.PLAY and deal.to_act is Seat.N


def test_take_makes_the_upcards_suit_trump_and_the_taker_maker():
    deal = deal_of()
    events = deal.apply(Action(Seat.N, ActionKind.TAKE))
    assert [type(e).__name__ for e in events] == ["BidMade", "TrumpChosen", "HandsCompleted"]
    assert (deal.trump, deal.maker) == (Suit.HEARTS, Seat.N)


def test_second_round_names_one_of_the_other_three_suits():
    deal = deal_of()
    run(deal, "N pass", "S pass")
    assert deal.phase is Phase.BIDDING_2
    assert words(deal) == ["N pass", "N name C", "N name D", "N name S"]
    with pytest.raises(IllegalAction, match="upcard's suit"):
        deal.verify(Action.name(Seat.N, Suit.HEARTS))
    with pytest.raises(IllegalAction, match="N cannot take"):
        deal.verify(Action(Seat.N, ActionKind.TAKE))
    run(deal, "N pass", "S name D")
    assert (deal.trump, deal.maker, deal.to_act) == (Suit.DIAMONDS, Seat.S, Seat.N)


def test_throw_in_after_two_passing_rounds_moves_the_deal():
    rules = KlaberjassRules()
    deal = deal_of(rules)
    run(deal, "N pass", "S pass", "N pass", "S pass")
    assert deal.is_over and deal.to_act is None and deal.legal_actions() == []
    assert deal.result is not None
    assert deal.result.outcome == "thrown-in" and not deal.result.counted
    assert deal.result.to_json() == {"dealer": "S", "outcome": "thrown-in"}
    assert next_dealer(rules, Seat.S, "thrown-in") is Seat.N
    assert next_dealer(rules, Seat.N, "thrown-in") is Seat.S


def test_the_dealer_alternates_after_a_played_deal():
    assert next_dealer(KlaberjassRules(), Seat.S, "played") is Seat.N
    assert next_dealer(KlaberjassRules(), Seat.N, "scored") is Seat.S


def test_wrong_turn_is_refused_naming_whose_turn_it_is():
    deal = deal_of()
    run(deal, "N pass")
    with pytest.raises(IllegalAction) as error:
        deal.apply(Action(Seat.N, ActionKind.TAKE))
    assert str(error.value) == "N cannot take: it is S's turn"
    assert not deal.can_apply(Action(Seat.N, ActionKind.TAKE))


# -- schmeiss ----------------------------------------------------------------------------------


def test_schmeiss_off_removes_schmeiss():
    deal = deal_of(KlaberjassRules(schmeiss="off"))
    assert words(deal) == ["N take", "N pass"]
    with pytest.raises(IllegalAction, match="schmeiss=off"):
        deal.verify(Action(Seat.N, ActionKind.SCHMEISS))


def test_schmeiss_accepted_is_a_redeal_and_the_dealer_changes_by_default():
    rules = KlaberjassRules()
    deal = deal_of(rules)
    run(deal, "N schmeiss")
    assert deal.phase is Phase.SCHMEISS and words(deal) == ["S accept", "S refuse"]
    run(deal, "S accept")
    assert deal.result is not None and deal.result.outcome == "redeal"
    assert deal.result.to_json() == {"dealer": "S", "outcome": "redeal"}
    assert not deal.result.counted
    assert next_dealer(rules, Seat.S, "redeal") is Seat.N


def test_schmeiss_accepted_with_same_dealer_keeps_the_dealer():
    rules = KlaberjassRules(schmeiss_redeal="same-dealer")
    deal = deal_of(rules)
    run(deal, "N pass", "S schmeiss", "N accept")
    assert deal.result is not None and deal.result.outcome == "redeal"
    assert next_dealer(rules, Seat.S, "redeal") is Seat.S
    assert next_dealer(rules, Seat.S, "thrown-in") is Seat.N


def test_schmeiss_refused_schmeisser_makes_with_the_upcards_suit():
    deal = deal_of()
    run(deal, "N schmeiss", "S refuse")
    assert (deal.maker, deal.trump, deal.phase) == (Seat.N, Suit.HEARTS, Phase.PLAY)


def test_schmeiss_refused_refuser_makes_with_the_upcards_suit():
    deal = deal_of(KlaberjassRules(schmeiss_refused="refuser-makes"))
    run(deal, "N schmeiss", "S refuse")
    assert (deal.maker, deal.trump) == (Seat.S, Suit.HEARTS)


def test_schmeiss_round_2_off_allows_no_schmeiss_in_the_second_round():
    deal = deal_of()
    run(deal, "N pass", "S pass")
    assert "N schmeiss" not in words(deal)
    with pytest.raises(IllegalAction, match="schmeiss-round-2=off"):
        deal.verify(Action(Seat.N, ActionKind.SCHMEISS))


@pytest.mark.parametrize(("refused", "maker"), [("schmeisser-makes", Seat.N), ("refuser-makes", Seat.S)])
def test_schmeiss_round_2_refused_the_maker_names_one_of_the_other_three_suits(refused, maker):
    deal = deal_of(KlaberjassRules(schmeiss_round_2="on", schmeiss_refused=refused))
    run(deal, "N pass", "S pass")
    assert words(deal) == ["N pass", "N name C", "N name D", "N name S", "N schmeiss"]
    run(deal, "N schmeiss", "S refuse")
    assert deal.phase is Phase.NAMING and deal.to_act is maker
    assert words(deal) == [f"{maker} name C", f"{maker} name D", f"{maker} name S"]
    deal.apply(Action.name(maker, Suit.SPADES))
    assert (deal.maker, deal.trump, deal.phase) == (maker, Suit.SPADES, Phase.PLAY)


def test_schmeiss_round_2_accepted_is_a_redeal():
    deal = deal_of(KlaberjassRules(schmeiss_round_2="on"))
    run(deal, "N pass", "S pass", "N pass", "S schmeiss", "N accept")
    assert deal.result is not None and deal.result.outcome == "redeal"


# -- dix ---------------------------------------------------------------------------------------


def test_dix_only_when_trump_is_the_upcards_suit():
    # S holds the 7 of spades; the upcard is the king of spades.
    elder = parse_cards("AH KC 8C 9D QD AS 8S 7D TC")
    dealer = parse_cards("JH 9H 8H AC 9C JD 7S TS 7C")
    taken = deal_of(elder=elder, dealer=dealer, upcard="KS")
    run(taken, "N take")
    assert taken.phase is Phase.DIX and taken.to_act is Seat.S
    assert words(taken) == ["S dix", "S keep"]
    events = taken.apply(Action(Seat.S, ActionKind.DIX))
    assert events == (DixDecided(Seat.S, True, Card.parse("7S"), Card.parse("KS")),)
    assert Card.parse("KS") in taken.hands[Seat.S] and Card.parse("7S") not in taken.hands[Seat.S]
    assert taken.upcard == Card.parse("7S") and taken.phase is Phase.PLAY and taken.to_act is Seat.N

    # The same cards, trump named in the second round: no dix (S holds 7C, 7 of the named suit).
    named = deal_of(elder=elder, dealer=dealer, upcard="KS")
    run(named, "N pass", "S pass", "N name C")
    assert named.phase is Phase.PLAY and named.upcard == Card.parse("KS")
    assert not any(isinstance(e, DixDecided) for e in named.events)


def test_dix_keep_leaves_the_upcard_out_of_both_hands():
    elder = parse_cards("AH KC 8C 9D QD AS 8S 7D TC")
    dealer = parse_cards("JH 9H 8H AC 9C JD 7S TS 7C")
    deal = deal_of(elder=elder, dealer=dealer, upcard="KS")
    run(deal, "N take", "S keep")
    assert deal.upcard == Card.parse("KS")
    assert all(Card.parse("KS") not in hand for hand in deal.hands.values())


def test_no_dix_when_the_seven_of_trumps_is_in_the_stock():
    deal = deal_of(upcard="QS")  # 7S is in neither hand
    run(deal, "N take")
    assert deal.phase is Phase.PLAY
