"""Inference of the hidden cards: each rule on a hand-made position, and the real deal always
satisfies what is inferred (sizes, possible and known cards, announced sequences)."""

from __future__ import annotations

import random

import pytest

from klabsite.bots.inference import (
    STOCK,
    MeldClaim,
    excluded_by_play,
    infer,
    klaberjass_categories,
    klaverjas_categories,
    talk_claims,
)
from klabsite.engine.actions import Action
from klabsite.engine.cards import Card, Suit, cards_of, mask_of, parse_cards
from klabsite.engine.fast import klaberjass as fast2
from klabsite.engine.fast import klaverjas as fast4
from klabsite.engine.klaberjass import KlaberjassDeal, stack_deck
from klabsite.engine.klaverjas import KlaverjasDeal, deck_from_hands
from klabsite.engine.melds import Phrase
from klabsite.engine.options import KlaberjassRules, KlaverjasRules
from klabsite.engine.seats import Seat
from tests.bots_positions import every_option_set, hidden_truth, positions

C = Card.parse
SPADES = Suit.SPADES.index
HEARTS = 0x00FF0000
TRUMPS = 0xFF000000  # spades
PLAIN = 0x0000FFFF  # clubs and diamonds


def cards(text: str) -> int:
    return mask_of(parse_cards(text))


def klaverjas_excluded(trick: str, card: str, rotterdam: bool = False, undertrump: bool = True) -> int:
    """What playing ``card`` to ``trick`` (spades trump) shows the player did not hold."""
    so_far = [c.index for c in parse_cards(trick)]
    return excluded_by_play(C(card).index, klaverjas_categories(so_far, SPADES),
                            lambda hand: fast4.legal_mask(hand, so_far, SPADES, rotterdam, undertrump))


def klaberjass_excluded(led: str, card: str, any_lead: bool = False) -> int:
    index = C(led).index
    return excluded_by_play(C(card).index, klaberjass_categories(index, SPADES),
                            lambda hand: fast2.legal_mask(hand, index, SPADES, any_lead))


def test_not_following_suit_shows_a_void_and_not_trumping_shows_no_trump():
    # the leader is an opponent: void in hearts, a discard shows no trump either (both rules)
    assert klaverjas_excluded("AH", "7C") == HEARTS | TRUMPS
    assert klaverjas_excluded("AH", "7C", rotterdam=True) == HEARTS | TRUMPS
    # a ruff shows only the void; following shows nothing
    assert klaverjas_excluded("AH", "7S") == HEARTS
    assert klaverjas_excluded("AH", "8H") == 0
    assert klaberjass_excluded("8H", "7C") == HEARTS | TRUMPS
    assert klaberjass_excluded("8H", "7S") == HEARTS


def test_amsterdam_void_with_partner_winning_shows_no_forced_trump():
    # partner led AH and still wins: a discard shows only the void (Amsterdam), also no trump
    # under Rotterdam, where one must trump even over the partner
    assert klaverjas_excluded("AH 8H", "7C") == HEARTS
    assert klaverjas_excluded("AH 8H", "7C", rotterdam=True) == HEARTS | TRUMPS


def test_amsterdam_undertrumping_the_partner_shows_only_lower_trumps_were_held():
    # the fourth player's partner ruffed with 9S: undertrumping him with 7S is allowed only
    # holding nothing else (no plain card, no higher trump); a discard shows only the void
    assert klaverjas_excluded("8H 9S AH", "7S") == HEARTS | PLAIN | cards("JS")
    assert klaverjas_excluded("8H 9S AH", "7C") == HEARTS


def test_not_overtrumping_an_opponent_shows_no_higher_trump():
    # an opponent ruffed with 9S (the partner led): Amsterdam and Rotterdam/forbidden discard when
    # unable to overtrump, so a discard shows no higher trump
    assert klaverjas_excluded("AH 9S", "7C", rotterdam=True, undertrump=False) == HEARTS | cards("JS")
    assert klaverjas_excluded("8H AH 9S", "7C") == HEARTS | cards("JS")
    # Rotterdam/required: a discard shows no trump at all, an undertrump no higher one
    assert klaverjas_excluded("AH 9S", "7C", rotterdam=True) == HEARTS | TRUMPS
    assert klaverjas_excluded("AH 9S", "7S", rotterdam=True) == HEARTS | cards("JS")


def test_a_trump_lead_must_be_overtrumped_in_both_games():
    above_king = cards("TS AS 9S JS")  # trump order J 9 A 10 K Q 8 7
    assert klaverjas_excluded("KS", "7S") == above_king
    assert klaverjas_excluded("KS", "7C") == TRUMPS
    assert klaberjass_excluded("KS", "7S") == above_king
    assert klaberjass_excluded("KS", "AS") == 0


def test_klaberjass_must_beat_any_lead_shows_no_higher_card_of_the_suit():
    assert klaberjass_excluded("QH", "8H", any_lead=True) == cards("KH TH AH")
    assert klaberjass_excluded("QH", "8H", any_lead=False) == 0


@pytest.mark.parametrize("game", ["klaberjass", "klaverjas"])
def test_one_card_beside_each_kind_decides_legality_for_whole_hands(game):
    """The rules are cascades, so a played card was legal in a hand exactly when the hand held
    no card of an excluded kind: checked on random tricks and random hands of every size."""
    rng = random.Random(11)
    excluded_some = 0
    for _ in range(3000):
        deck = list(range(32))
        rng.shuffle(deck)
        trump = rng.randrange(4)
        if game == "klaberjass":
            led, card, rest = deck[0], deck[1], deck[2:]
            any_lead = rng.random() < 0.5
            kinds = klaberjass_categories(led, trump)

            def legal(hand, led=led, trump=trump, any_lead=any_lead):
                return fast2.legal_mask(hand, led, trump, any_lead)
        else:
            n = rng.randrange(1, 4)
            trick, card, rest = deck[:n], deck[n], deck[n + 1:]
            rotterdam, undertrump = rng.random() < 0.5, rng.random() < 0.5
            kinds = klaverjas_categories(trick, trump)

            def legal(hand, trick=trick, trump=trump, rotterdam=rotterdam, undertrump=undertrump):
                return fast4.legal_mask(hand, trick, trump, rotterdam, undertrump)
        out = excluded_by_play(card, kinds, legal)
        excluded_some += bool(out)
        for _ in range(5):
            hand = 1 << card
            for other in rng.sample(rest, rng.randrange(0, 9)):
                hand |= 1 << other
            assert bool(legal(hand) >> card & 1) == (not hand & out), (game, card, cards_of(hand))
    assert excluded_some > 1000


ELDER = parse_cards("7H 8C 9C TC AS KS QS 8D 9D")  # N; the first six are dealt before the bidding
DEALER = parse_cards("JH 9H TH 7C JD QD KD 7S 8S")  # S


def test_klaberjass_dix_keep_and_the_face_up_cards_are_known():
    deal = KlaberjassDeal(KlaberjassRules(), Seat.S, stack_deck(ELDER, DEALER, C("AH"), C("AC")))
    deal.apply(Action.parse("N", "take"))
    knowledge = infer(deal.view_for(Seat.S))  # N holds the 7 of trumps: it is his dix decision
    assert knowledge.places == (Seat.N, STOCK) and knowledge.sizes == (9, 12)
    assert knowledge.known == (C("7H").bit, 0)
    deal.apply(Action.parse("N", "dix"))
    knowledge = infer(deal.view_for(Seat.S))
    assert knowledge.known == (C("AH").bit, 0)  # N took the upcard
    assert not knowledge.unseen & cards("7H AC")  # the 7 lies face up, and so does the bottom card
    assert not knowledge.possible_for(STOCK) & C("AH").bit


def test_klaberjass_no_dix_decision_shows_nobody_holds_the_seven_of_trumps():
    elder = parse_cards("8H 8C 9C TC AS KS QS 8D 9D")
    deal = KlaberjassDeal(KlaberjassRules(), Seat.S, stack_deck(elder, DEALER, C("AH"), C("7D")))
    deal.apply(Action.parse("N", "take"))
    knowledge = infer(deal.view_for(Seat.S))
    assert not knowledge.possible_for(Seat.N) & C("7H").bit
    assert knowledge.possible_for(STOCK) & C("7H").bit


def test_klaberjass_shown_sequences_and_the_talk_are_known():
    deal = KlaberjassDeal(KlaberjassRules(), Seat.S, stack_deck(ELDER, DEALER, C("AH"), C("AC")))
    for line in ("N take", "N dix", "N meld AS-KS-QS", "N AS", "S meld KD-QD-JD"):
        deal.apply(Action.parse(*line.split(" ", 1)))
    # "Twenty." "How high?" "Ace high." "Good.": N holds a three-card sequence to the ace
    place, candidates = infer(deal.view_for(Seat.S)).claims[0]
    assert place == 0 and cards("KS QS") in candidates and cards("AD KD QD") in candidates
    deal.apply(Action.parse("S", "7S"))  # after the first trick N shows his sequence
    knowledge = infer(deal.view_for(Seat.S))
    assert knowledge.known[0] == cards("AH KS QS") and knowledge.claims == ()


def test_talk_says_what_each_player_holds():
    N, S = Seat.N, Seat.S
    talk = [Phrase(N, "twenty"), Phrase(S, "how-high"), Phrase(N, "top", C("KH").rank),
            Phrase(S, "in-trumps"), Phrase(N, "no"), Phrase(S, "equal")]
    claims = talk_claims(talk, N, S, 50)
    assert claims == {N: MeldClaim(3, 6, "=", False), S: MeldClaim(3, 6, "=", False)}
    assert claims[N].candidates(Suit.HEARTS) == tuple(cards(f"K{s} Q{s} J{s}") for s in "CDS")
    assert talk_claims([Phrase(N, "fifty"), Phrase(S, "good")], N, S, 50) == {N: MeldClaim(4)}
    assert talk_claims([Phrase(S, "hundred"), Phrase(N, "good")], N, S, 100) == {S: MeldClaim(5)}
    assert talk_claims([Phrase(N, "twenty"), Phrase(S, "not-good")], N, S, 50) == {
        N: MeldClaim(3), S: MeldClaim(4)}


def test_klaverjas_view_inference_end_to_end():
    hands = {Seat.N: "7C 8C 9C TC 7H 8H 9H TH", Seat.E: "AC KC 7D 8D 9D TD JD QD",
             Seat.S: "QC JC AH KH QH JH JS QS", Seat.W: "7S 8S 9S TS KS AS AD KD"}
    deal = KlaverjasDeal(KlaverjasRules(), Seat.W,
                         deck_from_hands(Seat.W, {s: parse_cards(h) for s, h in hands.items()}))
    for line in ("N name S", "N 7H", "E 7D"):  # E cannot follow hearts and does not trump
        deal.apply(Action.parse(*line.split(" ", 1)))
    knowledge = infer(deal.view_for(Seat.S))
    assert knowledge.places == (Seat.W, Seat.N, Seat.E) and knowledge.sizes == (8, 7, 7)
    assert not knowledge.possible_for(Seat.E) & (HEARTS | TRUMPS)
    assert knowledge.possible_for(Seat.W) & HEARTS  # W has not shown anything yet


@pytest.mark.parametrize("game", ["klaberjass", "klaverjas"])
def test_the_real_deal_always_satisfies_the_inference(game):
    rng = random.Random(2024)
    rule_sets = every_option_set(game)
    views = 0
    for i in range(120 if game == "klaberjass" else 48):
        rules = rule_sets[i % len(rule_sets)]
        for position in positions(rules, rng, ["random", "heuristic"]):
            deal = position.deal
            for seat in ((Seat.N, Seat.S) if game == "klaberjass" else tuple(Seat)):
                knowledge = infer(deal.view_for(seat))
                views += 1
                for place, size, possible, known in zip(knowledge.places, knowledge.sizes,
                                                        knowledge.possible, knowledge.known, strict=True):
                    truth = hidden_truth(deal, place)
                    assert truth.bit_count() == size
                    assert not truth & ~possible, (place, cards_of(truth & ~possible))
                    assert not known & ~truth
                for place, candidates in knowledge.claims:
                    truth = hidden_truth(deal, knowledge.places[place])
                    assert any(not run & ~truth for run in candidates)
    assert views > 3000
