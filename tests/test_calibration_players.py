"""benchmarks/simple_player.py and benchmarks/ismcts.py: the opponents that calibrate the target."""

from __future__ import annotations

import random

import pytest

from klabsite.bots import BOTS
from klabsite.engine.actions import Action
from klabsite.engine.cards import Card, Suit, parse_cards
from klabsite.engine.klaverjas import KlaverjasDeal, KlaverjasRules, deck_from_hands
from klabsite.engine.seats import Seat
from klabsite.records.decks import deck_from_seed
from tests.benchmark_helpers import load_benchmark

HANDS = {Seat.N: parse_cards("JH 9H AS 7S AC 8C KD 7D"), Seat.E: parse_cards("AH TH TS 9S TC 7C AD 8D"),
         Seat.S: parse_cards("KH QH KS 8S KC 9C TD 9D"), Seat.W: parse_cards("8H 7H QS JS QC JC QD JD")}


def _deal(*cards: str) -> KlaverjasDeal:
    """The deal of HANDS, W dealing, N naming hearts, then ``cards`` played."""
    deal = KlaverjasDeal(KlaverjasRules(), Seat.W, deck_from_hands(Seat.W, HANDS))
    deal.apply(Action.name(Seat.N, Suit.HEARTS))
    for card in cards:
        deal.apply(Action.play(deal.to_act, Card.parse(card)))
    return deal


def _simple(deal: KlaverjasDeal, **style: bool) -> str:
    simple = load_benchmark("simple_player").SimpleBot(**style)
    seat = deal.to_act
    return str(simple.choose(deal.view_for(seat), deal.legal_actions(), random.Random(0)).card)


def test_the_simple_player_leads_its_master_worth_most() -> None:
    assert _simple(_deal()) == "JH"                      # JH and AS, AC are masters: JH has 20 points


def test_the_simple_player_second_to_play_takes_with_the_master_of_the_led_suit() -> None:
    assert _simple(_deal("KD")) == "AD"


def test_the_simple_player_second_to_play_without_the_master_plays_cheapest() -> None:
    assert _simple(_deal("7S")) == "9S"                   # TS 10 points, 9S none


def test_the_simple_player_third_smears_on_its_partners_master() -> None:
    # N leads AS, E plays 9S, S has KS 8S: the most points on the partner's master
    assert _simple(_deal("AS", "9S")) == "KS"
    assert _simple(_deal("AS", "9S"), third_follows_low=True) == "8S"


def test_the_simple_player_last_takes_with_its_cheapest_winning_card() -> None:
    # N leads 7D, E plays 8D, S wins with 9D: W holds QD JD, both beat it; JD has 2 points, QD 3
    assert _simple(_deal("7D", "8D", "9D")) == "JD"


def test_the_simple_player_last_smears_when_its_partner_wins() -> None:
    # N leads 8C, E takes with TC, S plays 9C: W, E's partner, plays its dearest club
    assert _simple(_deal("8C", "TC", "9C")) == "QC"


@pytest.mark.parametrize("name", ["simple", "simple-low", "random-cards", "ismcts"])
def test_the_calibration_players_play_legal_cards_and_repeat_for_a_seed(name: str) -> None:
    variants = load_benchmark("search_variants").VARIANTS
    make = variants[name] if name != "ismcts" else (lambda: load_benchmark("ismcts").IsmctsBot(iterations=20))
    for number in range(1, 4 if name == "ismcts" else 30):
        plays = []
        for _ in range(2):
            deal = KlaverjasDeal(KlaverjasRules(), Seat.W, deck_from_seed("calibration", number))
            bot, rng = make(), random.Random(number)
            while not deal.is_over:
                action = bot.choose(deal.view_for(deal.to_act), deal.legal_actions(), rng)
                assert action in deal.legal_actions()
                deal.apply(action)
            plays.append(deal.result.score)
        assert plays[0] == plays[1]


def test_the_ismcts_player_beats_random_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    strength = load_benchmark("search_variants").strength
    ismcts = load_benchmark("ismcts")
    monkeypatch.setitem(BOTS, "ismcts-test", lambda: ismcts.IsmctsBot(iterations=40))
    monkeypatch.setitem(BOTS, "random-cards-test", load_benchmark("simple_player").RandomCardsBot)
    figure = strength.measure("klaverjas", "", ("ismcts-test", "random-cards-test"), "test", 6, 999.0, 6)
    assert figure.mean > 20
