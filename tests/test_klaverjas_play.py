"""Klaverjas card play (the rule book, Klaverjas rule 2), Amsterdam and Rotterdam.

Every position is built through the public API: a deck chosen with ``deck_from_hands`` deals
the hands wanted, the player left of the dealer (N, dealer W) names spades, then the cards of
the trick so far are played.
"""

from __future__ import annotations

import pytest

from klabsite.actions import Action, IllegalAction
from klabsite.cards import Card, Suit, parse_cards
from klabsite.klaverjas import KlaverjasDeal, KlaverjasRules, deck_from_hands, legal_plays
from klabsite.seats import Seat

AMSTERDAM = "trick-rules=amsterdam"
ROTTERDAM = "trick-rules=rotterdam"
ROTTERDAM_FORBIDDEN = "trick-rules=rotterdam undertrump=forbidden"
ALL_RULES = (AMSTERDAM, ROTTERDAM, ROTTERDAM_FORBIDDEN)


def in_play(hands: dict[str, str], plays: str = "", rules: str = "", trump: str = "S") -> KlaverjasDeal:
    """Deal ``hands`` (seat letter → its 8 cards) with W dealing; N names ``trump``; play ``plays``."""
    dealt = {Seat.parse(seat): parse_cards(cards) for seat, cards in hands.items()}
    deal = KlaverjasDeal(KlaverjasRules.parse(rules), Seat.W, deck_from_hands(Seat.W, dealt))
    deal.apply(Action.name(Seat.N, Suit.parse(trump)))
    for word in plays.split():
        assert deal.to_act is not None
        deal.apply(Action.play(deal.to_act, Card.parse(word)))
    return deal


def legal(deal: KlaverjasDeal) -> set[str]:
    """The legal cards of the seat to act, as notation."""
    return {str(action.card) for action in deal.legal_actions()}


def held(deal: KlaverjasDeal) -> set[str]:
    """Every card the seat to act holds."""
    assert deal.to_act is not None
    return {str(card) for card in deal.hands[deal.to_act]}


def refused(deal: KlaverjasDeal, card: str) -> str:
    """The message refusing ``card`` for the seat to act."""
    assert deal.to_act is not None
    with pytest.raises(IllegalAction) as error:
        deal.apply(Action.play(deal.to_act, Card.parse(card)))
    return str(error.value)


# Trump led: N leads AS; E has no trump; S (N's partner) holds JS and 8S; W holds only lower trumps.
TRUMP_LEAD = {
    "N": "AS 7C 8C 9C TC JC QC KC",
    "E": "7D 8D 9D TD JD QD KD AD",
    "S": "JS 8S 7H 8H 9H TH JH QH",
    "W": "9S TS KS QS 7S AC AH KH",
}


@pytest.mark.parametrize("rules", ALL_RULES)
def test_trump_led_partner_must_beat_partners_trump(rules: str) -> None:
    deal = in_play(TRUMP_LEAD, "AS 7D", rules)
    assert deal.to_act is Seat.S
    assert legal(deal) == {"JS"}
    assert refused(deal, "8S") == "S cannot play 8S: must overtrump with JS"


@pytest.mark.parametrize("rules", ALL_RULES)
def test_trump_led_void_in_trumps_may_play_any_card(rules: str) -> None:
    deal = in_play(TRUMP_LEAD, "AS", rules)
    assert legal(deal) == held(deal)


@pytest.mark.parametrize("rules", ALL_RULES)
def test_trump_led_cannot_beat_plays_any_trump(rules: str) -> None:
    deal = in_play(TRUMP_LEAD, "AS 7D JS", rules)
    assert legal(deal) == {"9S", "TS", "KS", "QS", "7S"}
    assert refused(deal, "AH") == "W cannot play AH: must follow suit with 9S, TS, KS, QS, 7S"


@pytest.mark.parametrize("rules", ALL_RULES)
def test_trump_nine_beats_trump_ace_not_card_index(rules: str) -> None:
    hands = {
        "N": "AS 7C 8C 9C TC JC QC KC",
        "E": "9S KS 7D 8D 9D TD JD QD",
        "S": "JS 8S 7H 8H 9H TH JH QH",
        "W": "TS QS 7S AC AH KH KD AD",
    }
    deal = in_play(hands, "AS", rules)
    assert legal(deal) == {"9S"}
    deal.apply(Action.play(Seat.E, Card.parse("9S")))
    assert legal(deal) == {"JS"}                      # the jack beats the nine


@pytest.mark.parametrize("rules", ALL_RULES)
def test_must_follow_suit_message_names_the_cards(rules: str) -> None:
    hands = {
        "N": "AH 7C 8C 9C TC JC QC KC",
        "E": "KH QH 7D 8D 9D TD JD QD",
        "S": "JS 8S 7H 8H 9H TH JH AC",
        "W": "9S TS KS QS 7S AS KD AD",
    }
    deal = in_play(hands, "AH", rules)
    assert legal(deal) == {"KH", "QH"}
    assert refused(deal, "7D") == "E cannot play 7D: must follow suit with KH, QH"


# Hearts led by N, E follows low: N (S's partner) is winning with a plain card; S is void in hearts.
PARTNER_PLAIN = {
    "N": "AH 7C 8C 9C TC JC QC KC",
    "E": "7H 8H 9H TH JH QH KH AC",
    "S": "9S 8S 7D 8D 9D TD JD QD",
    "W": "JS AS TS KS QS 7S KD AD",
}


def test_amsterdam_void_partner_winning_with_plain_card_may_play_anything() -> None:
    deal = in_play(PARTNER_PLAIN, "AH 7H", AMSTERDAM)
    assert deal.to_act is Seat.S
    assert legal(deal) == held(deal)


@pytest.mark.parametrize("rules", (ROTTERDAM, ROTTERDAM_FORBIDDEN))
def test_rotterdam_void_partner_winning_must_trump(rules: str) -> None:
    deal = in_play(PARTNER_PLAIN, "AH 7H", rules)
    assert legal(deal) == {"9S", "8S"}
    assert refused(deal, "7D") == "S cannot play 7D: must trump with 9S, 8S"


# N leads 7H, E (void) trumps with KS, S follows: E is winning with a trump; W is E's partner,
# void in hearts, holding a higher trump (AS), a lower trump (7S) and plain cards.
PARTNER_TRUMPED = {
    "N": "7H 9H 9S TS QS JS 7C 8C",
    "E": "KS 8S KC AC 7D 8D 9D TD",
    "S": "8H TH JH QH KH AH JD QD",
    "W": "AS 7S 9C TC JC QC KD AD",
}


def test_amsterdam_void_partner_winning_with_trump_lower_trump_is_illegal() -> None:
    deal = in_play(PARTNER_TRUMPED, "7H KS 8H", AMSTERDAM)
    assert deal.to_act is Seat.W
    assert legal(deal) == held(deal) - {"7S"}         # overtrumping the partner is allowed
    assert refused(deal, "7S") == (
        "W cannot play 7S: may not undertrump partner's trump: play one of TC, QC, JC, 9C, AD, KD, AS"
    )


@pytest.mark.parametrize("rules", (ROTTERDAM, ROTTERDAM_FORBIDDEN))
def test_rotterdam_void_partner_winning_with_trump_must_overtrump(rules: str) -> None:
    deal = in_play(PARTNER_TRUMPED, "7H KS 8H", rules)
    assert legal(deal) == {"AS"}
    assert refused(deal, "7S") == "W cannot play 7S: must overtrump with AS"


def test_amsterdam_partner_winning_with_trump_holding_only_lower_trumps_may_undertrump() -> None:
    trump, rules = Suit.SPADES, KlaverjasRules()
    trick = parse_cards("7H KS 8H")
    assert set(legal_plays(parse_cards("7S 8S"), trick, trump, rules)[0]) == set(parse_cards("7S 8S"))
    # higher and lower trumps, no plain card: the lower trump stays illegal
    assert legal_plays(parse_cards("7S AS"), trick, trump, rules)[0] == (Card.parse("AS"),)


# N leads 7H, E (void) trumps with JS: an opponent of S is winning with a trump S cannot beat.
OPPONENT_TRUMPED = {
    "N": "7H 8H 9H TH 7C 8C 9C TC",
    "E": "JS 7S JC QC KC AC 7D 8D",
    "S": "9S 8S 9D TD JD QD KD AD",
    "W": "JH QH KH AH AS TS KS QS",
}


@pytest.mark.parametrize("rules", ALL_RULES)
def test_void_opponent_winning_with_plain_card_must_trump(rules: str) -> None:
    deal = in_play(OPPONENT_TRUMPED, "7H", rules)
    assert legal(deal) == {"JS", "7S"}
    assert refused(deal, "AC") == "E cannot play AC: must trump with JS, 7S"


@pytest.mark.parametrize("rules", ALL_RULES)
def test_void_opponent_winning_with_trump_must_overtrump(rules: str) -> None:
    deal = in_play(OPPONENT_TRUMPED, "7H 7S", rules)
    assert legal(deal) == {"9S", "8S"}
    assert refused(deal, "AD") == "S cannot play AD: must overtrump with 9S, 8S"


def test_amsterdam_void_opponent_winning_cannot_overtrump_must_play_plain_card() -> None:
    deal = in_play(OPPONENT_TRUMPED, "7H JS", AMSTERDAM)
    assert legal(deal) == {"9D", "TD", "JD", "QD", "KD", "AD"}
    assert refused(deal, "8S") == (
        "S cannot play 8S: cannot overtrump and may not undertrump: play one of AD, TD, KD, QD, JD, 9D"
    )


def test_rotterdam_cannot_overtrump_undertrump_required_plays_lower_trump() -> None:
    deal = in_play(OPPONENT_TRUMPED, "7H JS", ROTTERDAM)
    assert legal(deal) == {"9S", "8S"}
    assert refused(deal, "AD") == "S cannot play AD: must undertrump with 9S, 8S"


def test_rotterdam_cannot_overtrump_undertrump_forbidden_plays_plain_card() -> None:
    deal = in_play(OPPONENT_TRUMPED, "7H JS", ROTTERDAM_FORBIDDEN)
    assert legal(deal) == {"9D", "TD", "JD", "QD", "KD", "AD"}


@pytest.mark.parametrize("rules", ALL_RULES)
def test_cannot_overtrump_holding_only_lower_trumps_undertrumps(rules: str) -> None:
    hand = parse_cards("8S 7S")
    cards, rule = legal_plays(hand, parse_cards("7H JS"), Suit.SPADES, KlaverjasRules.parse(rules))
    assert set(cards) == set(hand)


def test_rotterdam_partner_winning_with_trump_cannot_overtrump() -> None:
    trick, trump = parse_cards("7H KS 8H"), Suit.SPADES
    hand = parse_cards("7S AD")
    required = legal_plays(hand, trick, trump, KlaverjasRules.parse(ROTTERDAM))[0]
    forbidden = legal_plays(hand, trick, trump, KlaverjasRules.parse(ROTTERDAM_FORBIDDEN))[0]
    amsterdam = legal_plays(hand, trick, trump, KlaverjasRules())[0]
    assert required == (Card.parse("7S"),)
    assert forbidden == (Card.parse("AD"),)
    assert amsterdam == (Card.parse("AD"),)


def test_void_without_trumps_may_play_any_card() -> None:
    hand = parse_cards("7C AD")
    for rules in ALL_RULES:
        cards, rule = legal_plays(hand, parse_cards("7H"), Suit.SPADES, KlaverjasRules.parse(rules))
        assert cards == tuple(hand) and rule is None


def test_leader_may_lead_any_card_and_trick_winner_leads_next() -> None:
    deal = in_play(OPPONENT_TRUMPED)
    assert deal.to_act is Seat.N and legal(deal) == held(deal)
    for card in ["7H", "JS", "9D", "JH"]:
        deal.apply(Action.play(deal.to_act, Card.parse(card)))
    assert deal.tricks[0].winner is Seat.E and deal.to_act is Seat.E and deal.leader is Seat.E


def test_play_out_of_turn_or_unheld_card_is_refused() -> None:
    deal = in_play(OPPONENT_TRUMPED)
    with pytest.raises(IllegalAction, match="E cannot play JS: it is N's turn"):
        deal.apply(Action.play(Seat.E, Card.parse("JS")))
    with pytest.raises(IllegalAction, match="N cannot play AS: N does not hold AS"):
        deal.apply(Action.play(Seat.N, Card.parse("AS")))
    with pytest.raises(IllegalAction, match="no bella in Klaverjas"):
        deal.apply(Action.play(Seat.N, Card.parse("7H"), bella=False))
    with pytest.raises(IllegalAction, match="trump is chosen"):
        deal.apply(Action.name(Seat.N, Suit.HEARTS))
    assert not deal.can_apply(Action.play(Seat.N, Card.parse("AS")))
    assert deal.can_apply(Action.play(Seat.N, Card.parse("7H")))
