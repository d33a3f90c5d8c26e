"""Klaberjass: record-format.md's example deal replays, and a seat's view shows only its own cards."""

from __future__ import annotations

import pytest

from klabsite.engine.actions import Action, IllegalAction
from klabsite.engine.cards import Card, Rank, parse_cards
from klabsite.engine.klaberjass import DealError, KlaberjassDeal, Phase
from klabsite.engine.melds import MeldsCompared, MeldsShown, Phrase, Talk
from klabsite.engine.options import KlaberjassRules
from klabsite.engine.seats import Seat

EXAMPLE_DECK = ("JH TH 9H KS QS JS 7D AC 8C KH 9D 8S AH QC 7S TD AD JC "
                "8H 7C 9C TC KC 8D JD QD KD 7H QH 9S TS AS")
EXAMPLE_LINES = ["N take", "N meld JH-TH-9H", "N JH", "S meld KS-QS-JS", "S 8H", "N 9H", "S KH"]


def example(upto: int = len(EXAMPLE_LINES)) -> tuple[KlaberjassDeal, list]:
    deal = KlaberjassDeal(KlaberjassRules.parse("equal-meld=elder"), Seat.S, parse_cards(EXAMPLE_DECK))
    events: list = []
    for line in EXAMPLE_LINES[:upto]:
        seat, words = line.split(" ", 1)
        events.extend(deal.apply(Action.parse(seat, words)))
    return deal, events


def test_the_record_format_example_replays_with_its_talk():
    deal, events = example()
    talk = [str(p) for e in events if isinstance(e, Talk) for p in e.phrases]
    assert talk == ["N: Twenty.", "S: How high?", "N: Jack high.", "S: Not good."]
    assert MeldsCompared(Seat.S, "top-card", 20) in events
    assert MeldsShown(Seat.S, ((Card.parse("KS"), Card.parse("QS"), Card.parse("JS")),)) in events
    assert deal.to_act is Seat.N  # N won the first two tricks
    assert deal.bottom == Card.parse("AS")


def test_a_view_shows_the_own_hand_and_the_table_but_not_the_opponents_cards():
    deal, _ = example(3)
    view = deal.view_for(Seat.S)
    assert view.hand == deal.hands[Seat.S] and view.opponent_cards == 8
    assert view.trick == ((Seat.N, Card.parse("JH")),)
    assert view.legal == tuple(deal.legal_actions()) and view.phase is Phase.PLAY
    assert view.talk == (Phrase(Seat.N, "twenty"),)
    other = deal.view_for(Seat.N)
    assert other.legal == () and other.hand == deal.hands[Seat.N]
    assert not set(other.hand) & set(view.hand)
    with pytest.raises(AttributeError):
        view.hand = ()  # type: ignore[misc]


def test_top_phrase_names_the_rank():
    assert Phrase(Seat.N, "top", Rank.ACE).text == "Ace high."


def test_a_deck_must_hold_each_card_once():
    with pytest.raises(DealError, match="missing"):
        KlaberjassDeal(KlaberjassRules(), Seat.S, parse_cards(EXAMPLE_DECK)[:-1] + [Card.parse("JH")])


def test_an_over_deal_refuses_everything():
    deal = KlaberjassDeal(KlaberjassRules(), Seat.S, parse_cards(EXAMPLE_DECK))
    for line in ("N pass", "S pass", "N pass", "S pass"):
        deal.apply(Action.parse(*line.split(" ", 1)))
    with pytest.raises(IllegalAction, match="^N cannot take: the deal is over$"):
        deal.apply(Action.parse("N", "take"))


def test_a_view_shows_the_rules_the_bidding_and_the_dix_but_no_hidden_card():
    from klabsite.engine.cards import DECK
    from klabsite.engine.klaberjass import DixDecided, stack_deck

    seven, upcard = Card.parse("7H"), Card.parse("AH")
    elder = parse_cards("JC QC KC 8D 9D TD 7H 8S 9S")
    dealer = parse_cards("AC TC 9C JD QD KD 8H 9H TH")
    rules = KlaberjassRules.parse("must-beat=any-lead")
    deal = KlaberjassDeal(rules, Seat.S, stack_deck(elder, dealer, upcard))
    for line in ("N pass", "S take", "N dix"):
        deal.apply(Action.parse(*line.split(" ", 1)))
    view = deal.view_for(Seat.S)
    assert view.rules is rules
    assert [(bid.seat, bid.word) for bid in view.bids] == [(Seat.N, "pass"), (Seat.S, "take")]
    assert view.dix == DixDecided(Seat.N, True, seven, upcard) and view.upcard == seven
    assert upcard in deal.hands[Seat.N] and upcard not in view.hand
    public = {card for card in DECK if f"'{card}'" in repr(view) and card not in view.hand}
    assert public <= {seven, upcard, deal.bottom}
