"""The shared core: cards and their tables, seats, options, actions, tricks, match totals."""

from __future__ import annotations

import pytest

from klabsite.engine.actions import Action, ActionError, ActionKind
from klabsite.engine.cards import (
    DECK,
    Card,
    CardError,
    Rank,
    Suit,
    is_sequence,
    parse_cards,
    points,
    strength,
)
from klabsite.engine.match import MatchOverError, MatchScore
from klabsite.engine.options import KlaberjassRules, KlaverjasRules, OptionError
from klabsite.engine.seats import Seat, SeatError, Side
from klabsite.engine.tricks import trick_points, trick_winner_index


def test_deck_has_32_distinct_cards_in_index_order():
    assert len(DECK) == 32 == len(set(DECK))
    assert [card.index for card in DECK] == list(range(32))


@pytest.mark.parametrize("text", ["JH", "jh", "Jh", "10h", "TH", "J♥"])
def test_card_notation_is_read_leniently(text):
    card = Card.parse(text)
    assert str(card) in ("JH", "TH")


def test_card_repr_rebuilds_the_card():
    for card in DECK:
        assert eval(repr(card), {"Card": Card}) == card


@pytest.mark.parametrize("text", ["", "X", "1H", "JX", "11H", "JHH"])
def test_bad_card_notation_is_a_card_error(text):
    with pytest.raises(CardError):
        Card.parse(text)


def test_card_points_add_up_to_152_whatever_the_trump():
    for trump in Suit:
        assert sum(points(card, trump) for card in DECK) == 152


def test_jack_and_nine_of_trumps_outrank_ace_and_ten_of_trumps():
    trump = Suit.SPADES
    order = [Card.parse(c) for c in ("JS", "9S", "AS", "TS", "KS", "QS", "8S", "7S")]
    values = [strength(card, trump) for card in order]
    assert values == sorted(values, reverse=True)


def test_plain_suit_order_is_ace_ten_king_queen_jack_nine_eight_seven():
    order = [Card.parse(c) for c in ("AH", "TH", "KH", "QH", "JH", "9H", "8H", "7H")]
    values = [strength(card, Suit.SPADES) for card in order]
    assert values == sorted(values, reverse=True)


def test_any_trump_beats_any_plain_card():
    assert strength(Card.parse("7S"), Suit.SPADES) > strength(Card.parse("AH"), Suit.SPADES)


def test_sequences_use_the_natural_order_in_every_suit():
    assert is_sequence(parse_cards("7H 8H 9H"))
    assert is_sequence(parse_cards("TS JS QS KS"))
    assert not is_sequence(parse_cards("9H TH QH"))
    assert not is_sequence(parse_cards("9H TH JS"))


def test_trick_is_won_by_the_highest_trump_else_the_highest_card_of_the_suit_led():
    assert trick_winner_index(parse_cards("AH TH"), Suit.SPADES) == 0
    assert trick_winner_index(parse_cards("AH 7S"), Suit.SPADES) == 1
    assert trick_winner_index(parse_cards("7H AC"), Suit.SPADES) == 0
    assert trick_winner_index(parse_cards("AS 9S JS TS"), Suit.SPADES) == 2
    assert trick_points(parse_cards("JS 9S"), Suit.SPADES) == 34


def test_seats_and_sides():
    assert Seat.parse("w") is Seat.W
    assert Seat.N.left is Seat.E and Seat.W.left is Seat.N
    assert Seat.E.partner is Seat.W and Seat.S.side is Side.NS
    assert Side.parse("we") is Side.EW and Side.NS.other is Side.EW
    with pytest.raises(SeatError):
        Seat.parse("X")


def test_options_default_to_the_rule_book_and_write_only_changes():
    assert KlaberjassRules().format() == ""
    assert KlaverjasRules().target == 1500 and KlaberjassRules().target == 500
    rules = KlaberjassRules.parse("equal-score=next-deal-winner schmeiss=off")
    assert rules.format() == "schmeiss=off equal-score=next-deal-winner"
    assert KlaberjassRules.parse(rules.format()) == rules
    assert KlaverjasRules.parse("undertrump=required").format() == ""


@pytest.mark.parametrize(
    "text",
    ["colour=red", "schmeiss=maybe", "target=-5", "long-sequence=70", "schmeiss", "deals=0",
     "trick-rules=amsterdam trick-rules=rotterdam"],
)
def test_unknown_option_or_value_is_an_option_error(text):
    with pytest.raises(OptionError):
        (KlaverjasRules if "trick" in text else KlaberjassRules).parse(text)


def test_actions_read_and_write_record_words():
    assert Action.parse("S", "jh nobella") == Action.play(Seat.S, Card.parse("JH"), bella=False)
    assert Action.parse("N", "name h").words == "name H"
    assert Action.parse("N", "TAKE").kind is ActionKind.TAKE
    meld = Action.parse("N", "meld QS-KS-JS,7D-8D-9D")
    assert meld.words == "meld KS-QS-JS,9D-8D-7D"
    assert meld.same_as(Action.parse("N", "meld 9D-8D-7D,KS-QS-JS"))


@pytest.mark.parametrize("words", ["", "name", "name X", "take now", "JH bella", "ZZ", "meld"])
def test_malformed_action_words_are_an_action_error(words):
    with pytest.raises(ActionError):
        Action.parse("N", words)


def test_actions_sort_by_kind_then_suit_then_card():
    actions = [Action.play(Seat.N, card) for card in reversed(DECK)] + [Action(Seat.N, ActionKind.PASS)]
    ordered = sorted(actions, key=Action.sort_key)
    assert ordered[0].kind is ActionKind.PASS
    assert [a.card for a in ordered[1:]] == list(DECK)


def test_match_ends_when_a_target_is_reached_with_unequal_totals():
    match = MatchScore(KlaverjasRules(), keys=("NS", "EW"))
    match.add({"NS": 1400, "EW": 0})
    assert not match.over
    match.add({"NS": 0, "EW": 1400})
    assert not match.over
    match.add({"NS": 100, "EW": 100})
    assert not match.over, "both at 1500: equal totals play on"
    match.add({"NS": 0, "EW": 162})
    assert match.over and match.winner == "EW"
    with pytest.raises(MatchOverError):
        match.add({"NS": 1, "EW": 0})


def test_match_of_n_deals_ends_after_n_counted_deals():
    match = MatchScore(KlaverjasRules(deals=2), keys=("NS", "EW"))
    match.add({"NS": 0, "EW": 0}, counted=False)
    match.add({"NS": 10, "EW": 0})
    assert not match.over
    match.add({"NS": 0, "EW": 10})
    assert match.over and match.winner is None, "equal after N deals: a draw"


def test_rank_index_follows_the_sequence_order():
    assert [rank.index for rank in Rank] == list(range(8))


@pytest.mark.parametrize(("rules", "keys"), [(KlaberjassRules(), ("N", "S")), (KlaverjasRules(), ("NS", "EW"))])
def test_match_ends_when_a_total_reaches_exactly_the_target(rules, keys):
    """"Reached" 500 (or 1500) includes exactly 500: the game ends there with one leader."""
    match = MatchScore(rules, keys=keys)
    match.add({keys[0]: rules.target - 100, keys[1]: 0})
    assert not match.over
    match.add({keys[0]: 100, keys[1]: 0})
    assert match.over and match.winner == keys[0] and match.totals[keys[0]] == rules.target
