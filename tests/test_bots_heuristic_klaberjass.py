"""The Klaberjass heuristic's key decisions, each on a position built through the engine.

S deals, so N (the elder) bids, declares and leads first. ``stack_deck`` gives each player nine
cards: the first six are dealt before the bidding.
"""

from __future__ import annotations

import random

from klabsite.bots.heuristic_klaberjass import KlaberjassHeuristic, expects_to_fail
from klabsite.bots.inference import infer
from klabsite.engine.actions import Action
from klabsite.engine.cards import Card, parse_cards
from klabsite.engine.klaberjass import KlaberjassDeal, stack_deck
from klabsite.engine.options import KlaberjassRules
from klabsite.engine.seats import Seat

BOT = KlaberjassHeuristic()


def position(elder: str, dealer: str, upcard: str, *lines: str, bottom: str | None = None,
             rules: KlaberjassRules | None = None) -> KlaberjassDeal:
    deck = stack_deck(parse_cards(elder), parse_cards(dealer), Card.parse(upcard),
                      Card.parse(bottom) if bottom else None)
    deal = KlaberjassDeal(rules or KlaberjassRules(), Seat.S, deck)
    for line in lines:
        deal.apply(Action.parse(*line.split(" ", 1)))
    return deal


def choice(deal: KlaberjassDeal) -> str:
    legal = deal.legal_actions()
    action = BOT.choose(deal.view_for(deal.to_act), legal, random.Random(0))
    assert any(action is candidate for candidate in legal)
    return action.words


def test_the_holder_of_jack_and_nine_of_trumps_with_length_takes():
    assert choice(position("JH 9H 8H AC 7S 8D TC KC QC", "7C 8C 9C JC QD TS AD KS 9D", "QH")) == "take"


def test_a_weak_hand_passes_and_names_its_strong_suit_in_the_second_round():
    assert choice(position("KH 7C 8C 9D 7S 8S TC KC QC", "9C JC AC QD TS AD KS TD JD", "7H")) == "pass"
    deal = position("JS 9S AS 7C 8D 7H TC KC QC", "9C JC AC QD TS AD KS TD JD", "KH", "N pass", "S pass")
    assert choice(deal) == "name S"


def test_the_seven_of_trumps_is_exchanged_for_the_upcard_unless_it_breaks_a_sequence():
    assert choice(position("7H 8C 9C TC AS KS QS 8D 9D", "JH 9H TH 7C JD QD KD 7S 8S", "AH", "N take",
                           bottom="AC")) == "dix"
    # 7-8-9 of trumps is worth 20; with the queen instead it is no sequence
    assert choice(position("7H 8H 9H AC KC 7S 8S 8D 9D", "JH TH 7C JD QD KD AS KS TS", "QH",
                           "N take")) == "keep"


def test_the_dealer_stays_silent_when_the_elders_announced_sequence_beats_his():
    lines = ("N take", "N meld TC-9C-8C-7C", "N AH")  # "Fifty."
    weaker = position("7C 8C 9C TC AH QS 8S 8D 9D", "JD QD KD 7H 8H AC JS KH 9S", "KS", *lines)
    assert choice(weaker) == "nomeld"  # a twenty cannot beat a fifty
    higher = position("7C 8C 9C TC AH QS 8S 8D 9D", "JD QD KD AD 8H AC JS KH TD", "KS", *lines)
    assert choice(higher).startswith("meld AD-KD-QD-JD")  # a fifty to the ace beats one to the ten


WEAK = "KH QH 7C 8C 7D 8D 7S 8S TS"
STRONG = "JH 9H AH TH AC TC AD TD AS"


def test_a_maker_who_expects_to_fail_keeps_bella_quiet():
    lines = ("N take", "N QH", "S nomeld", "S JH", "S AC", "N 7C", "S TC", "N 8C", "S AD", "N 7D",
             "S TD", "N 8D", "S 9H")  # N has won nothing; S's trump lead forces out the king
    deal = position(WEAK, STRONG, "8H", *lines)
    assert [action.words for action in deal.legal_actions()] == ["KH", "KH nobella"]
    assert expects_to_fail(deal.view_for(Seat.N), infer(deal.view_for(Seat.N)), extra=20)
    assert choice(deal) == "KH nobella"


def test_a_maker_on_course_claims_bella():
    lines = ("N take", "S keep", "N QH", "S 9H", "S 7H")
    deal = position("KH QH AC TC AD TD AS TS KS", "7H 9H 7C 8C 7D 8D 7S 8S QC", "8H", *lines, bottom="JH")
    assert [action.words for action in deal.legal_actions()] == ["KH", "KH nobella"]
    assert choice(deal) == "KH"


ELDER = "AC 8C 8H 9D AS 7S 8S AH QD"
DEALER = "JC 9C TC TH JD KH KD 7D 8D"  # S makes clubs in the first round after N passes
OPENING = ("N pass", "S take", "N 9D", "S nomeld", "S JD")


def test_the_maker_draws_trumps_with_the_master_trump():
    assert choice(position(ELDER, DEALER, "KC", *OPENING, bottom="AD")) == "JC"


def test_no_high_card_is_thrown_on_a_lost_trick_and_a_ten_is_taken_with_the_ace():
    assert choice(position(ELDER, DEALER, "KC", *OPENING, "S JC", bottom="AD")) == "8C"  # not AC
    assert choice(position(ELDER, DEALER, "KC", *OPENING, "S TH", bottom="AD")) == "AH"
