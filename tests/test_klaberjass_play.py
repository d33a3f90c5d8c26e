"""Klaberjass trick play: follow suit, trump, beat a trump lead, must-beat, bella."""

from __future__ import annotations

import pytest

from klabsite.engine.actions import Action, ActionKind, IllegalAction
from klabsite.engine.cards import Card, Suit, parse_cards
from klabsite.engine.events import CardPlayed, TrickWon
from klabsite.engine.klaberjass import BellaDecided, KlaberjassDeal, stack_deck
from klabsite.engine.options import KlaberjassRules
from klabsite.engine.seats import Seat

DEFAULT = KlaberjassRules()


def started(elder: str, dealer: str, upcard: str, *lines: str, rules: KlaberjassRules = DEFAULT
            ) -> KlaberjassDeal:
    """S deals; N takes the upcard's suit; then ``lines`` are applied."""
    deck = stack_deck(parse_cards(elder), parse_cards(dealer), Card.parse(upcard))
    deal = KlaberjassDeal(rules, Seat.S, deck)
    run(deal, "N take", *lines)
    return deal


def run(deal: KlaberjassDeal, *lines: str) -> tuple:
    events: tuple = ()
    for line in lines:
        seat, words = line.split(" ", 1)
        events = deal.apply(Action.parse(seat, words))
    return events


def plays(deal: KlaberjassDeal) -> list[str]:
    return [action.words for action in deal.legal_actions()]


def refusal(deal: KlaberjassDeal, line: str) -> str:
    seat, words = line.split(" ", 1)
    with pytest.raises(IllegalAction) as error:
        deal.verify(Action.parse(seat, words))
    return str(error.value)


# Hearts are trump (upcard 7H); neither hand holds a sequence.
ELDER = "AH KC 8C 9D QD AS 8S 7D TC"
DEALER = "JH 9H 8H AC 9C JD KS TS 7C"


def test_the_non_dealer_leads_any_card_to_the_first_trick():
    deal = started(ELDER, DEALER, "7H")
    assert deal.to_act is Seat.N
    assert plays(deal) == ["nomeld", *[str(c) for c in sorted(parse_cards(ELDER), key=lambda c: c.index)]]


def test_trump_led_must_play_a_higher_trump_if_able():
    deal = started(ELDER, DEALER, "7H", "N AH")
    assert plays(deal) == ["nomeld", "9H", "JH"]
    assert refusal(deal, "S 8H") == "S cannot play 8H: trump was led, must play a higher trump: JH, 9H"
    assert refusal(deal, "S AC") == "S cannot play AC: trump was led, must play a higher trump: JH, 9H"


def test_trump_led_without_a_higher_trump_any_trump():
    deal = started("JH KC 8C 9D QD AS 8S 7D TC", "AH 9H 8H AC 9C JD KS TS 7C", "7H", "N JH")
    assert plays(deal) == ["nomeld", "8H", "9H", "AH"]


def test_trump_led_void_in_trumps_any_card():
    deal = started("JH KC 8C 9D QD AS 8S 7D TC", "AD KD AC 9C JD KS TS 7C 8D", "7H", "N JH")
    assert len(plays(deal)) == 1 + 9


def test_j_and_9_of_trumps_outrank_a_and_10_of_trumps():
    deal = started(ELDER, DEALER, "7H", "N AH")
    won = run(deal, "S 9H")[-1]
    assert isinstance(won, TrickWon) and won.winner is Seat.S and won.points == 11 + 14
    deal = started("TH KC 8C 9D QD AS 8S 7D AH", DEALER, "7H", "N TH")
    won = run(deal, "S JH")[-1]
    assert isinstance(won, TrickWon) and won.winner is Seat.S


def test_follow_suit_if_you_can():
    # Spades are trump (upcard 7S); N leads the queen of hearts.
    deal = started("QH AC 8C 9D QD AS 8S 7D TC", "KH JH 7C JD 9C KS TS 9H AD", "7S", "N QH")
    assert plays(deal) == ["nomeld", "9H", "JH", "KH"]
    assert refusal(deal, "S 7C") == "S cannot play 7C: must follow suit with KH, JH, 9H"


def test_void_must_trump():
    # S has no club: a trump (heart) is required.
    deal = started(ELDER, "JH 9H 8H 8D JD AD 7S TS KS", "7H", "N KC")
    assert plays(deal) == ["nomeld", "8H", "9H", "JH"]
    assert refusal(deal, "S 8D") == "S cannot play 8D: cannot follow clubs, must trump with JH, 9H, 8H"


def test_follow_suit_without_beating_a_plain_lead():
    deal = started(ELDER, "8D JD AD 7S TS KS 7C 9C AC", "7H", "N KC")
    assert plays(deal) == ["nomeld", "7C", "9C", "AC"]


def test_void_without_trumps_any_card():
    deal = started("AH KH 8C 9D QD AS 8S 7D TC", "8D JD AD 7S TS KS QC 9C AC", "7H", "N AH")
    assert len(plays(deal)) == 1 + 9


def test_must_beat_trump_lead_does_not_force_beating_a_plain_lead():
    deal = started("QH AC 8C 9D QD AS 8S 7D TC", "KH AH 8H JD 9C KS TS 9H AD", "7S", "N QH")
    assert plays(deal) == ["nomeld", "8H", "9H", "KH", "AH"]


def test_must_beat_any_lead_forces_winning_a_plain_lead_when_able():
    rules = KlaberjassRules(must_beat="any-lead")
    deal = started("QH AC 8C 9D QD AS 8S 7D TC", "KH AH 8H JD 9C KS TS 9H AD", "7S", "N QH", rules=rules)
    assert plays(deal) == ["nomeld", "KH", "AH"]
    assert refusal(deal, "S 8H") == "S cannot play 8H: must beat QH with AH, KH (must-beat=any-lead)"


def test_must_beat_any_lead_cannot_beat_plays_any_card_of_the_suit():
    rules = KlaberjassRules(must_beat="any-lead")
    deal = started("AH AC 8C 9D QD AS 8S 7D TC", "KH QH 8H JD 9C KS TS 9H AD", "7S", "N AH", rules=rules)
    assert plays(deal) == ["nomeld", "8H", "9H", "QH", "KH"]


def test_must_beat_any_lead_void_must_trump():
    rules = KlaberjassRules(must_beat="any-lead")
    deal = started("AH AC 8C 9D QD AS 8S 7D TC", "JD 9C KS TS AD 7C 8D 9S QC", "7S", "N AH", rules=rules)
    assert plays(deal) == ["nomeld", "9S", "TS", "KS"]


def test_a_card_not_held_is_refused():
    deal = started(ELDER, DEALER, "7H")
    assert refusal(deal, "N JH") == "N cannot play JH: does not hold JH"


# -- bella -------------------------------------------------------------------------------------

# Hearts trump. S holds K and Q of hearts; N leads a club, S (void in clubs) trumps with the
# king and wins, then leads the queen.
BELLA_ELDER = "AC KC 8C 9D QD AS 8S 7D TC"
BELLA_DEALER = "KH QH 8H 8D JD AD 7S TS KS"


def test_bella_claimed_scores_20_with_the_second_of_king_and_queen_of_trumps():
    deal = started(BELLA_ELDER, BELLA_DEALER, "7H", "N AC", "S KH")
    legal = plays(deal)
    assert legal[legal.index("QH") + 1] == "QH nobella" and "KH nobella" not in legal
    events = run(deal, "S QH")
    assert CardPlayed(Seat.S, Card.parse("QH"), 2, bella=True) in events
    assert BellaDecided(Seat.S, Card.parse("QH"), True) in events
    finish(deal)
    assert deal.result is not None and deal.result.bella == {"N": 0, "S": 20}


def test_bella_declined_scores_nothing():
    deal = started(BELLA_ELDER, BELLA_DEALER, "7H", "N AC", "S KH")
    events = run(deal, "S QH nobella")
    assert CardPlayed(Seat.S, Card.parse("QH"), 2, bella=False) in events
    assert BellaDecided(Seat.S, Card.parse("QH"), False) in events
    finish(deal)
    assert deal.result is not None and deal.result.bella == {"N": 0, "S": 0}


def test_nobella_is_refused_on_the_first_of_king_and_queen():
    deal = started(BELLA_ELDER, BELLA_DEALER, "7H", "N AC")
    assert "KH nobella" not in plays(deal)
    assert refusal(deal, "S KH nobella") == (
        "S cannot play KH nobella: nobella goes only with a player's second of K and Q of trumps"
    )


def test_king_and_queen_of_trumps_played_by_different_players_are_no_bella():
    deal = started("QH KC QC 9D QD AS 8S 7D TC", "KH AC 8H 8D JD AD 7S TS KS", "7H", "N QH")
    assert plays(deal) == ["nomeld", "KH"]
    events = run(deal, "S KH")
    assert not any(isinstance(e, BellaDecided) for e in events)


def finish(deal: KlaberjassDeal) -> None:
    """Play on with the first legal action that is not a declaration of sequences."""
    while not deal.is_over:
        deal.apply(next(a for a in deal.legal_actions() if a.kind is not ActionKind.MELD))


def test_trump_suit_of_these_deals_is_hearts():
    assert started(ELDER, DEALER, "7H").trump is Suit.HEARTS
