"""Klaverjas dealing and choosing trump (the rule book, Klaverjas intro and rule 1;
record-format.md, "Dealing from the deck")."""

from __future__ import annotations

import pytest

from klabsite.engine.actions import Action, ActionKind, IllegalAction
from klabsite.engine.cards import DECK, Card, Suit
from klabsite.engine.events import BidMade, Dealt, TrumpChosen
from klabsite.engine.klaverjas import (
    SEATS,
    KlaverjasDeal,
    KlaverjasError,
    KlaverjasPhase,
    KlaverjasRules,
    deal_hands,
    deck_from_hands,
    next_dealer,
)
from klabsite.engine.seats import CLOCKWISE, Seat, Side

FREE = KlaverjasRules()
FORCED = KlaverjasRules(trump_choice="forced")
TURNED = KlaverjasRules(trump_choice="turned")
PASS = ActionKind.PASS


def words(deal: KlaverjasDeal) -> list[str]:
    return [action.words for action in deal.legal_actions()]


def test_seats_are_clockwise_with_north_south_partners() -> None:
    assert SEATS == (Seat.N, Seat.E, Seat.S, Seat.W)
    assert Seat.N.side is Seat.S.side is Side.NS and Seat.E.side is Seat.W.side is Side.EW


@pytest.mark.parametrize("dealer", CLOCKWISE)
def test_deal_is_three_two_three_clockwise_from_left_of_dealer(dealer: Seat) -> None:
    hands = KlaverjasDeal(FREE, dealer, DECK).hands
    order = [CLOCKWISE[(dealer.index + i) % 4] for i in range(1, 5)]
    packets = [(0, 3), (3, 6), (6, 9), (9, 12), (12, 14), (14, 16), (16, 18), (18, 20),
               (20, 23), (23, 26), (26, 29), (29, 32)]
    for number, (start, stop) in enumerate(packets):
        seat = order[number % 4]
        assert set(DECK[start:stop]) <= set(hands[seat]), (number, seat)
    assert all(len(cards) == 8 for cards in hands.values())


def test_dealt_event_comes_first_and_deck_from_hands_round_trips() -> None:
    deal = KlaverjasDeal(FREE, Seat.E, DECK)
    assert isinstance(deal.events[0], Dealt) and deal.events[0].dealer is Seat.E
    assert dict(deal.events[0].hands) == deal.hands
    shuffled = DECK[7:] + DECK[:7]
    hands = deal_hands(Seat.E, shuffled)
    assert deal_hands(Seat.E, deck_from_hands(Seat.E, hands)) == hands


def test_a_bad_deck_is_refused_with_a_clear_message() -> None:
    with pytest.raises(KlaverjasError, match="missing 7C"):
        KlaverjasDeal(FREE, Seat.N, DECK[1:])
    with pytest.raises(KlaverjasError, match="more than once AS"):
        KlaverjasDeal(FREE, Seat.N, (*DECK[:-1], Card.parse("AS"), Card.parse("AS")))


def test_free_each_in_turn_from_left_of_dealer_names_or_passes() -> None:
    deal = KlaverjasDeal(FREE, Seat.N, DECK)
    assert deal.phase is KlaverjasPhase.TRUMP and deal.to_act is Seat.E
    assert words(deal) == ["pass", "name C", "name D", "name H", "name S"]
    deal.apply(Action(Seat.E, PASS))
    assert deal.to_act is Seat.S
    events = deal.apply(Action.name(Seat.S, Suit.DIAMONDS))
    assert events == (BidMade(Seat.S, "name", Suit.DIAMONDS), TrumpChosen(Suit.DIAMONDS, Seat.S))
    assert deal.trump is Suit.DIAMONDS and deal.playing is Side.NS and deal.maker is Seat.S
    assert events[-1].chooser is deal.chooser is Seat.S  # the older names, for older templates and scripts
    assert deal.phase is KlaverjasPhase.PLAY and deal.to_act is Seat.E  # left of the dealer leads


def test_free_all_four_pass_then_left_of_dealer_must_name() -> None:
    deal = KlaverjasDeal(FREE, Seat.W, DECK)
    for seat in (Seat.N, Seat.E, Seat.S, Seat.W):
        deal.apply(Action(seat, PASS))
    assert deal.to_act is Seat.N
    assert words(deal) == ["name C", "name D", "name H", "name S"]
    with pytest.raises(IllegalAction, match="N cannot pass: all four passed, so the player left"):
        deal.apply(Action(Seat.N, PASS))
    deal.apply(Action.name(Seat.N, Suit.CLUBS))
    assert deal.trump is Suit.CLUBS and deal.playing is Side.NS and deal.to_act is Seat.N


def test_forced_left_of_dealer_must_name_trump() -> None:
    deal = KlaverjasDeal(FORCED, Seat.S, DECK)
    assert deal.to_act is Seat.W and words(deal) == ["name C", "name D", "name H", "name S"]
    with pytest.raises(IllegalAction, match="trump-choice=forced"):
        deal.apply(Action(Seat.W, PASS))
    deal.apply(Action.name(Seat.W, Suit.HEARTS))
    assert deal.playing is Side.EW and deal.to_act is Seat.W


def test_turned_needs_a_proposed_suit() -> None:
    with pytest.raises(KlaverjasError, match="trump-choice=turned needs the proposed suit"):
        KlaverjasDeal(TURNED, Seat.N, DECK)
    with pytest.raises(KlaverjasError, match="only with trump-choice=turned"):
        KlaverjasDeal(FREE, Seat.N, DECK, proposed=Suit.HEARTS)


def test_turned_take_makes_the_proposed_suit_trump() -> None:
    deal = KlaverjasDeal(TURNED, Seat.N, DECK, proposed=Suit.HEARTS)
    assert deal.events[0].proposed is Suit.HEARTS  # type: ignore[attr-defined]
    assert words(deal) == ["take", "pass"]
    with pytest.raises(IllegalAction, match="takes the proposed suit"):
        deal.apply(Action.name(Seat.E, Suit.SPADES))
    deal.apply(Action(Seat.E, PASS))
    deal.apply(Action(Seat.S, ActionKind.TAKE))
    assert deal.trump is Suit.HEARTS and deal.playing is Side.NS and deal.to_act is Seat.E


def test_turned_all_pass_left_of_dealer_names_one_of_the_other_three() -> None:
    deal = KlaverjasDeal(TURNED, Seat.N, DECK, proposed=Suit.HEARTS)
    for seat in (Seat.E, Seat.S, Seat.W, Seat.N):
        deal.apply(Action(seat, PASS))
    assert deal.to_act is Seat.E and words(deal) == ["name C", "name D", "name S"]
    with pytest.raises(IllegalAction, match="other three suits"):
        deal.apply(Action.name(Seat.E, Suit.HEARTS))
    deal.apply(Action.name(Seat.E, Suit.SPADES))
    assert deal.trump is Suit.SPADES and deal.playing is Side.EW


def test_no_card_is_played_before_trump_is_chosen() -> None:
    deal = KlaverjasDeal(FREE, Seat.N, DECK)
    card = deal.hands[Seat.E][0]
    with pytest.raises(IllegalAction, match="trump is not chosen yet"):
        deal.apply(Action.play(Seat.E, card))
    with pytest.raises(IllegalAction, match="it is E's turn"):
        deal.apply(Action(Seat.S, PASS))


def test_next_dealer_moves_one_seat_clockwise_every_deal() -> None:
    assert [next_dealer(FREE, seat, "played") for seat in CLOCKWISE] == [Seat.E, Seat.S, Seat.W, Seat.N]
    assert next_dealer(FREE, Seat.W, "scored") is Seat.N


def test_view_shows_own_hand_and_legal_actions_only_to_the_seat_to_act() -> None:
    deal = KlaverjasDeal(FREE, Seat.N, DECK)
    view = deal.view_for(Seat.E)
    assert view.hand == deal.hands[Seat.E] and len(view.legal) == 5
    other = deal.view_for(Seat.W)
    assert other.hand == deal.hands[Seat.W] and other.legal == ()
    assert other.hand_sizes == {seat: 8 for seat in CLOCKWISE}
    assert not hasattr(other, "hands")
