"""Klaberjass sequences: what may be declared, the comparison, long-sequence, no-trick-melds, talk."""

from __future__ import annotations

import pytest

from klabsite.engine.actions import Action, ActionKind, IllegalAction
from klabsite.engine.cards import Card, Rank, Suit, parse_cards
from klabsite.engine.klaberjass import KlaberjassDeal, stack_deck
from klabsite.engine.melds import (
    Comparison,
    Declared,
    MeldsCompared,
    MeldsShown,
    Phrase,
    Talk,
    compare,
    meld_sets,
    meld_value,
    reply_talk,
    runs_in,
)
from klabsite.engine.options import KlaberjassRules
from klabsite.engine.seats import Seat

N, S = Seat.N, Seat.S
DEFAULT = KlaberjassRules()


def melds(text: str) -> tuple[tuple[Card, ...], ...]:
    return tuple(tuple(parse_cards(meld)) for meld in text.split(","))


def versus(elder: str, dealer: str, trump: Suit = Suit.HEARTS, long_sequence: int = 50,
           equal_meld: str = "neither") -> Comparison:
    return compare(N, melds(elder) if elder else (), S, melds(dealer) if dealer else (), trump,
                   long_sequence, equal_meld)


def started(elder: str, dealer: str, upcard: str, *lines: str, rules: KlaberjassRules = DEFAULT
            ) -> tuple[KlaberjassDeal, list]:
    deck = stack_deck(parse_cards(elder), parse_cards(dealer), Card.parse(upcard))
    deal = KlaberjassDeal(rules, S, deck)
    events: list = []
    for line in ("N take", *lines):
        seat, words = line.split(" ", 1)
        events.extend(deal.apply(Action.parse(seat, words)))
    return deal, events


def finish(deal: KlaberjassDeal) -> None:
    while not deal.is_over:
        deal.apply(next(a for a in deal.legal_actions() if a.kind is not ActionKind.MELD))


# -- what a hand may declare -------------------------------------------------------------------


def test_sequence_values_three_cards_20_four_cards_50_five_or_more_long_sequence():
    assert meld_value(parse_cards("KS QS JS"), 50) == 20
    assert meld_value(parse_cards("KS QS JS TS"), 50) == 50
    assert meld_value(parse_cards("KS QS JS TS 9S"), 50) == 50
    assert meld_value(parse_cards("KS QS JS TS 9S 8S"), 100) == 100


def test_sequences_use_the_natural_order_with_ten_between_jack_and_nine():
    assert [len(run) for run in runs_in(parse_cards("JD TD 9D"))] == [3]
    assert runs_in(parse_cards("AD TD 9D")) == []   # A 10 9 is not a sequence
    assert runs_in(parse_cards("AD KD QD JD")) == [tuple(parse_cards("AD KD QD JD"))]


def test_any_set_of_disjoint_runs_of_three_may_be_declared():
    sets = meld_sets(parse_cards("AS KS QS JS TS 9S 8H 7H 9H"))
    as_text = {",".join("-".join(map(str, m)) for m in s) for s in sets}
    assert "AS-KS-QS,JS-TS-9S" in as_text
    assert "AS-KS-QS-JS-TS-9S,9H-8H-7H" in as_text
    assert "KS-QS-JS" in as_text
    assert all(len(m) >= 3 for s in sets for m in s)


def test_no_nine_card_hand_declares_more_than_max_sequences_the_bound_of_a_dd_value():
    """Every shape of a hand: the best declaration of each suit's ranks, shared out over nine cards."""
    from klabsite.engine.cards import Card, Rank, Suit
    from klabsite.engine.klaberjass import HAND, MAX_SEQUENCES
    from klabsite.engine.melds import meld_sets, meld_value

    ranks = list(Rank)
    best_of_size = [0] * (HAND + 1)  # one suit: the best sequences held in n of its cards
    for mask in range(1 << len(ranks)):
        held = [Card(rank, Suit.HEARTS) for index, rank in enumerate(ranks) if mask >> index & 1]
        if len(held) <= HAND:
            value = max((sum(meld_value(meld, 100) for meld in melds) for melds in meld_sets(held)), default=0)
            best_of_size[len(held)] = max(best_of_size[len(held)], value)
    best = {0: 0}  # cards used in the suits so far -> the best sequences they hold
    for _suit in Suit:
        grown: dict[int, int] = {}
        for used, value in best.items():
            for size in range(HAND + 1 - used):
                grown[used + size] = max(grown.get(used + size, 0), value + best_of_size[size])
        best = grown
    assert best[HAND] == MAX_SEQUENCES == 150


def test_a_player_holding_a_sequence_must_declare_or_say_nomeld_before_his_first_card():
    deal, _ = started("KS QS JS AH 8C TC QD AC 7S", "TD 9D 8D 7D JH 9H KC 9C 8S", "7H")
    assert [a.words for a in deal.legal_actions()] == ["meld KS-QS-JS", "nomeld"]


def test_declaring_a_card_not_held_is_refused_naming_it():
    deal, _ = started("KS JS TS 9S AH 8C TC QD AC", "TD 9D 8D 7D JH 9H KC 9C 8S", "7H")
    with pytest.raises(IllegalAction) as error:
        deal.apply(Action.parse("N", "meld KS-QS-JS"))
    assert str(error.value) == "N cannot meld KS-QS-JS: does not hold QS"


def test_a_declaration_is_accepted_in_any_order_of_its_sequences():
    deal, _ = started("KS QS JS 9D 8D 7D AH AC TC", "TD JD QD KD JH 9H KC 9C 8S", "7H")
    events = deal.apply(Action.parse("N", "meld 7d-8d-9d,ks-qs-js"))
    assert events[0] == Declared(N, melds("KS-QS-JS,9D-8D-7D"))


def test_a_sequence_declared_twice_is_refused_as_sharing_its_cards():
    deal, _ = started("KS QS JS 9D 8D 7D AH AC TC", "TD JD QD KD JH 9H KC 9C 8S", "7H")
    with pytest.raises(IllegalAction) as error:
        deal.apply(Action.parse("N", "meld KS-QS-JS,KS-QS-JS"))
    assert str(error.value) == "N cannot meld KS-QS-JS,KS-QS-JS: the sequences share KS, QS, JS"
    with pytest.raises(IllegalAction):
        deal.apply(Action.parse("N", "meld KS-QS-JS,9D-8D-7D,KS-QS-JS"))
    assert not Action.parse("N", "meld KS-QS-JS,KS-QS-JS").same_as(Action.parse("N", "meld KS-QS-JS"))


# -- the comparison -----------------------------------------------------------------------------


def test_sequences_compared_by_value_first():
    assert versus("TS-9S-8S-7S", "AD-KD-QD") == Comparison(N, "value", 50)


def test_sequences_of_equal_value_compared_by_top_card():
    assert versus("KS-QS-JS", "AD-KD-QD") == Comparison(S, "top-card", 20)
    # A five-card and a four-card sequence are both worth 50 by default: the top card decides.
    assert versus("QS-JS-TS-9S-8S", "AD-KD-QD-JD") == Comparison(S, "top-card", 50)


def test_sequences_of_equal_value_and_top_card_a_trump_sequence_wins():
    assert versus("KS-QS-JS", "KH-QH-JH", trump=Suit.HEARTS) == Comparison(S, "trump", 20)
    assert versus("KS-QS-JS", "KH-QH-JH", trump=Suit.SPADES) == Comparison(N, "trump", 20)


def test_equal_meld_neither_scores_by_default():
    assert versus("KS-QS-JS", "KD-QD-JD") == Comparison(None, "equal", 0)


def test_equal_meld_elder_the_non_dealer_scores():
    assert versus("KS-QS-JS,9C-8C-7C", "KD-QD-JD", equal_meld="elder") == Comparison(N, "equal", 40)


def test_only_the_best_player_scores_and_then_all_his_sequences():
    assert versus("KS-QS-JS", "TD-9D-8D-7D,QC-JC-TC") == Comparison(S, "value", 70)


def test_long_sequence_100_makes_five_cards_beat_four():
    assert versus("QS-JS-TS-9S-8S", "AD-KD-QD-JD", long_sequence=100) == Comparison(N, "value", 100)
    deal, _ = started("QS JS TS 9S 8S AH AC TC QD", "KD 9D 8D 7D JH 9H KC 9C 7S", "7H",
                      "N meld QS-JS-TS-9S-8S", rules=KlaberjassRules(long_sequence=100))
    finish(deal)
    assert deal.result is not None and deal.result.melds == {"N": 100, "S": 0}


# -- in a deal ----------------------------------------------------------------------------------


def test_the_dealer_declares_after_the_non_dealers_first_card_and_the_best_is_shown_after_trick_1():
    deal, events = started("KS QS JS AH 8C TC QD AC 7S", "TD 9D 8D 7D JH 9H KC 9C 8S", "7H",
                           "N meld KS-QS-JS")
    assert events[-2:] == [Declared(N, melds("KS-QS-JS")), Talk((Phrase(N, "twenty"),))]
    deal.apply(Action.parse("N", "AH"))
    assert [a.words for a in deal.legal_actions()] == [
        "meld 9D-8D-7D", "meld TD-9D-8D", "meld TD-9D-8D-7D", "nomeld"]
    events = deal.apply(Action.parse("S", "meld TD-9D-8D-7D"))
    assert events == (
        Declared(S, melds("TD-9D-8D-7D")),
        Talk((Phrase(S, "not-good"),)),
        MeldsCompared(S, "value", 50),
    )
    events = deal.apply(Action.parse("S", "JH"))
    assert events[-1] == MeldsShown(S, melds("TD-9D-8D-7D"))
    finish(deal)
    assert deal.result is not None and deal.result.melds == {"N": 0, "S": 50}


def test_a_dealer_without_a_sequence_may_skip_declaring_and_says_good():
    deal, _ = started("KS QS JS AH 8C TC QD AC 7S", "TD 8D KD 7D JH 9H KC 9C 8S", "7H",
                      "N meld KS-QS-JS", "N AH")
    assert [a.words for a in deal.legal_actions()] == ["nomeld", "9H", "JH"]
    events = deal.apply(Action.parse("S", "9H"))
    assert events[:2] == (Talk((Phrase(S, "good"),)), MeldsCompared(N, "only", 20))


@pytest.mark.parametrize(("equal_meld", "best", "points"), [("neither", None, 0), ("elder", N, 20)])
def test_equal_sequences_in_a_deal_follow_equal_meld(equal_meld, best, points):
    deal, _ = started("KS QS JS AH 8C TC 9D AC 7S", "KD QD JD 7D JH 9H KC 9C 8S", "7H",
                      "N meld KS-QS-JS", "N AH", "S meld KD-QD-JD",
                      rules=KlaberjassRules(equal_meld=equal_meld))
    assert deal.comparison == Comparison(best, "equal", points)
    finish(deal)
    assert deal.result is not None and deal.result.melds == {"N": points, "S": 0}


# N holds every club and declares them; S holds the trumps, never has to follow N's suits and
# wins every trick, so N wins the comparison but takes no trick.
VOID_ELDER = "AC KC QC JC TC 9C 8C 7C 7D"
VOID_DEALER = "JH 9H AH TH KH QH 8H 7S 8S"


@pytest.mark.parametrize(("option", "scored"), [("score", 50), ("void", 0)])
def test_no_trick_melds(option, scored):
    deal, _ = started(VOID_ELDER, VOID_DEALER, "7H", "N meld AC-KC-QC-JC-TC-9C-8C-7C", "N 7D",
                      "S nomeld", rules=KlaberjassRules(no_trick_melds=option))
    assert deal.comparison == Comparison(N, "only", 50)
    finish(deal)
    assert deal.result is not None
    assert deal.result.card_points["N"] == 0 and deal.result.last_trick is S
    assert deal.result.melds == {"N": scored, "S": 0}


# -- the talk -----------------------------------------------------------------------------------


def talk(elder: str, dealer: str, trump: Suit = Suit.HEARTS, long_sequence: int = 50) -> list[str]:
    return [str(p) for p in reply_talk(N, melds(elder) if elder else (), S, melds(dealer) if dealer else (),
                                       trump, long_sequence)]


def test_talk_good_not_good_how_high_in_trumps():
    assert talk("KS-QS-JS", "") == ["S: Good."]
    assert talk("KS-QS-JS-TS", "AD-KD-QD") == ["S: Good."]
    assert talk("KS-QS-JS", "AD-KD-QD-JD") == ["S: Not good."]
    assert talk("KS-QS-JS", "QD-JD-TD") == ["S: How high?", "N: King high.", "S: Good."]
    assert talk("KS-QS-JS", "KH-QH-JH") == ["S: How high?", "N: King high.", "S: In trumps?", "N: No.",
                                            "S: Not good."]
    assert talk("KH-QH-JH", "KS-QS-JS") == ["S: How high?", "N: King high.", "S: In trumps?", "N: Yes.",
                                            "S: Good."]
    assert talk("KC-QC-JC", "KS-QS-JS") == ["S: How high?", "N: King high.", "S: In trumps?", "N: No.",
                                            "S: Equal."]
    assert talk("", "AD-KD-QD-JD") == ["S: Fifty.", "N: Good."]
    assert talk("", "") == []


def test_talk_uses_hundred_for_a_long_sequence_of_100():
    assert talk("", "AD-KD-QD-JD-TD", long_sequence=100) == ["S: Hundred.", "N: Good."]
    assert Phrase(N, "top", Rank.ACE).key == "top"
