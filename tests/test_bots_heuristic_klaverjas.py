"""The Klaverjas heuristic's key decisions, each on a position built through the engine.

W deals, so N chooses first and leads; partners N–S against E–W.
"""

from __future__ import annotations

import random

from klabsite.bots.heuristic_klaverjas import KlaverjasHeuristic, trump_value
from klabsite.engine.actions import Action
from klabsite.engine.cards import SUITS, Suit, mask_of, parse_cards
from klabsite.engine.klaverjas import KlaverjasDeal, deck_from_hands
from klabsite.engine.options import KlaverjasRules
from klabsite.engine.seats import Seat

BOT = KlaverjasHeuristic()
AMSTERDAM, ROTTERDAM = KlaverjasRules(), KlaverjasRules(trick_rules="rotterdam")


def position(hands: dict[Seat, str], *lines: str, rules: KlaverjasRules = AMSTERDAM,
             dealer: Seat = Seat.W, proposed: Suit | None = None) -> KlaverjasDeal:
    deck = deck_from_hands(dealer, {seat: parse_cards(text) for seat, text in hands.items()})
    deal = KlaverjasDeal(rules, dealer, deck, proposed=proposed)
    for line in lines:
        deal.apply(Action.parse(*line.split(" ", 1)))
    return deal


def choice(deal: KlaverjasDeal) -> str:
    legal = deal.legal_actions()
    action = BOT.choose(deal.view_for(deal.to_act), legal, random.Random(0))
    assert any(action is candidate for candidate in legal)
    return action.words


def legal_words(deal: KlaverjasDeal) -> list[str]:
    return [action.words for action in deal.legal_actions()]


HANDS = {
    Seat.N: "JS 9S AS 7S AC TC 8D 7H",  # jack, menel, ace of spades and an ace with its ten
    Seat.E: "KS QS 8S KC QC 9D TD KH",
    Seat.S: "TS 7C 8C AD KD QD 8H 9H",
    Seat.W: "JC 9C JD 7D AH TH QH JH",
}


def test_jack_nine_and_ace_of_trumps_with_a_side_ace_name_that_suit():
    assert choice(position(HANDS)) == "name S"


def test_a_weak_hand_passes_and_one_that_must_choose_names_its_best_suit():
    assert choice(position(HANDS, dealer=Seat.N)) == "pass"  # E: KS QS 8S KC QC 9D TD KH
    forced = position(HANDS, rules=KlaverjasRules(trump_choice="forced"), dealer=Seat.N)
    hand = mask_of(forced.hands[Seat.E])
    best = max(SUITS, key=lambda suit: trump_value(hand, suit.index))
    assert choice(forced) == f"name {best}" == "name D"  # the menel and the ten of diamonds


def test_a_turned_suit_is_taken_only_with_a_strong_hand_in_it():
    turned = KlaverjasRules(trump_choice="turned")
    assert choice(position(HANDS, rules=turned, proposed=Suit.SPADES)) == "take"
    assert choice(position(HANDS, rules=turned, proposed=Suit.HEARTS)) == "pass"


def test_the_playing_side_draws_trumps_with_the_master_trump():
    assert choice(position(HANDS, "N name S")) == "JS"


def test_the_menel_is_kept_guarded_while_the_jack_is_out():
    hands = {Seat.N: "9S 7S AC AD AH 7C 7D 7H", Seat.E: "JS QS 8S KC QC 9D TD KH",
             Seat.S: "TS AS 8C KD QD 8H 9H JC", Seat.W: "KS 9C JD 8D TH QH JH TC"}
    assert choice(position(hands, "N name S")) not in ("9S", "7S")


def test_partner_winning_for_sure_the_last_player_smears_his_ten():
    hands = {Seat.N: "7C AC 9S 7D 8D 9D 7H 8H", Seat.E: "KC JS QS TD JD QD 9H TH",
             Seat.S: "8C 9C AS KS AD KD JH QH", Seat.W: "TC QC JC 7S AH KH 8S TS"}
    deal = position(hands, "N name H", "N 7C", "E KC", "S 8C")
    assert legal_words(deal) == ["TC", "JC", "QC"]
    assert choice(deal) == "TC"  # the ace is still out, but W plays last: E's king holds


def test_void_with_partner_winning_under_amsterdam_no_trump_is_forced_so_points_are_smeared():
    hands = {Seat.N: "7C 8C 9C 8D 9D TH 7H 8H", Seat.E: "AC TC JC TD JD QD 9H QH",
             Seat.S: "QC KC AD KD 7S 8S JH KH", Seat.W: "9S TS JS QS KS AS AH 7D"}
    lines = ("N name D", "N 7C", "E AC", "S QC")  # diamonds trump; W holds no club
    amsterdam = position(hands, *lines)
    assert len(legal_words(amsterdam)) == 8  # partner E wins: any card, the 7 of trumps too
    assert choice(amsterdam) in ("TS", "AS", "AH")  # not the trump: points on the partner's trick
    assert legal_words(position(hands, *lines, rules=ROTTERDAM)) == ["7D"]  # Rotterdam: must trump


def test_an_opponent_winning_the_trick_is_taken_without_spending_the_master():
    hands = {Seat.N: "9C 8S 9S 7D 8D 9D 7H 7S", Seat.E: "7C JS QS TD JD QD 9H TH",
             Seat.S: "8C AS KS AD KD TC JH QH", Seat.W: "AC KC QC JC AH KH TS 8H"}
    deal = position(hands, "N name H", "N 9C", "E 7C", "S 8C")  # N (an opponent) wins with 9C
    assert choice(deal) in ("JC", "QC", "KC")  # each takes it; the ace stays for a later trick


def test_the_last_player_does_not_complete_a_run_for_the_opponents():
    hands = {Seat.N: "AD 7C 8C 9C 7H 8H 9H 7S", Seat.E: "9D JC QC KC JH QH KH 8S",
             Seat.S: "TD TC AC AH TH 9S TS JS", Seat.W: "8D KD 7D QS KS AS QD JD"}
    lines = ("N name C", "N AD", "E 9D", "S TD")  # N-S win the trick: 8D or JD would make a run
    assert choice(position(hands, *lines)) == "7D"
    hands = {Seat.N: "AD 7C 8C 9C QD 8H 9H 7S", Seat.E: "9D 7D QC KC 7H QH KH 8S",
             Seat.S: "TD TC AC AH JD 9S TS JS", Seat.W: "8D KD JC QS KS AS TH JH"}
    deal = position(hands, *lines)
    assert legal_words(deal) == ["8D", "KD"]
    assert choice(deal) == "KD"  # the king gives them 4 points, the eight 20 of roem
