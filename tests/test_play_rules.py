"""Rule 7 of both games, as the replays explain it: the word ``play_rule()`` names for each card
play, checked on seeded random deals against the rule book's definition, written here from the
hand, the trick and the options alone (not from the engine's code). Each word must also occur.

Klaverjas: 300 deals in each of Amsterdam, Rotterdam with undertrumping required and Rotterdam
with it forbidden. Klaberjass: 150 deals with each ``must-beat`` option.
"""

from __future__ import annotations

import random

import pytest

from klabsite.engine.actions import ActionKind
from klabsite.engine.cards import DECK, Card, Suit, strength
from klabsite.engine.klaberjass import KlaberjassDeal, Phase
from klabsite.engine.klaverjas import PLAY_RULES, KlaverjasDeal, KlaverjasPhase, KlaverjasRules
from klabsite.engine.options import KlaberjassRules
from klabsite.engine.seats import CLOCKWISE


def _winning(trick: list[Card], trump: Suit) -> int:
    """The place in ``trick`` of the card winning it so far."""
    led = trick[0].suit
    def power(card: Card) -> int:
        return 100 + strength(card, trump) if card.suit is trump else strength(card, trump) if card.suit is led else -1
    return max(range(len(trick)), key=lambda place: power(trick[place]))


def _klaverjas_rule(hand: tuple[Card, ...], trick: list[Card], trump: Suit, rules: KlaverjasRules,
                    legal: set[Card]) -> str:
    """The word rule 7 gives, from the hand, the trick and the options (the legal cards only to
    tell a case the word does not fix)."""
    if not trick:
        return "lead"
    led = trick[0].suit
    same = {card for card in hand if card.suit is led}
    trumps = {card for card in hand if card.suit is trump}
    top = max((strength(card, trump) for card in trick if card.suit is trump), default=-1)
    higher = {card for card in trumps if strength(card, trump) > top}
    if same and led is not trump:
        return "follow"
    if led is trump:
        return "higher-trump" if higher else "lower-trump" if same else "any"
    if not trumps:
        return "any"
    if rules.trick_rules == "amsterdam" and _winning(trick, trump) == len(trick) - 2:
        if trumps == set(hand) and not higher:
            return "only-lower-trumps"
        return "partner-wins" if legal == set(hand) else "partner-no-undertrump"
    if higher:
        return "overtrump" if top >= 0 else "trump"
    if trumps == set(hand):   # nothing but lower trumps: no rule leaves a choice of suit
        return "only-lower-trumps"
    return "undertrump" if rules.undertrump == "required" and rules.trick_rules == "rotterdam" else "no-undertrump"


def _klaverjas_cards(word: str, hand: tuple[Card, ...], trick: list[Card], trump: Suit) -> set[Card]:
    """The cards rule 7 allows under ``word``."""
    led = trick[0].suit if trick else None
    trumps = {card for card in hand if card.suit is trump}
    top = max((strength(card, trump) for card in trick if card.suit is trump), default=-1)
    higher = {card for card in trumps if strength(card, trump) > top}
    return {
        "lead": set(hand), "any": set(hand), "partner-wins": set(hand), "only-lower-trumps": set(hand),
        "follow": {card for card in hand if card.suit is led}, "lower-trump": trumps,
        "higher-trump": higher, "overtrump": higher, "trump": trumps, "undertrump": trumps,
        "no-undertrump": set(hand) - trumps,
        "partner-no-undertrump": (set(hand) - trumps) | higher,
    }[word]


NOT_IN = {
    "": {"undertrump"},
    "trick-rules=rotterdam": {"partner-wins", "partner-no-undertrump", "no-undertrump"},
    "trick-rules=rotterdam undertrump=forbidden": {"partner-wins", "partner-no-undertrump", "undertrump"},
}
"""The words that cannot occur under each option: Rotterdam never lets the partner's winning
trick free a player, and undertrumping is then either required or forbidden; Amsterdam ignores
``undertrump`` (a player who cannot overtrump an opponent plays another suit)."""


@pytest.mark.parametrize("options", NOT_IN)
def test_rule_7_klaverjas_play_rule_names_the_rule_that_decides_the_legal_cards(options):
    rules = KlaverjasRules.parse(options)
    rng = random.Random(f"play-rules {options}")
    seen = set()
    for number in range(300):
        deck = list(DECK)
        rng.shuffle(deck)
        deal = KlaverjasDeal(rules, CLOCKWISE[number % 4], deck)
        while not deal.is_over:
            actions = deal.legal_actions()
            if deal.phase is KlaverjasPhase.PLAY:
                legal = {action.card for action in actions}
                cards, word = deal.play_rule()
                hand, trick, trump = deal.hands[deal.to_act], [card for _, card in deal.trick], deal.trump
                assert set(cards) == legal
                assert word == _klaverjas_rule(hand, trick, trump, rules, legal), (hand, trick, trump)
                assert legal == _klaverjas_cards(word, hand, trick, trump), (word, hand, trick)
                seen.add(word)
            deal.apply(rng.choice(actions))
    assert seen == set(PLAY_RULES) - NOT_IN[options]


@pytest.mark.parametrize("must_beat", ["trump-lead", "any-lead"])
def test_rule_7_klaberjass_play_rule_names_the_rule_that_decides_the_legal_cards(must_beat):
    rules = KlaberjassRules.parse(f"must-beat={must_beat}")
    rng = random.Random(f"play-rules {must_beat}")
    seen = set()
    for number in range(150):
        deck = list(DECK)
        rng.shuffle(deck)
        deal = KlaberjassDeal(rules, CLOCKWISE[0] if number % 2 else CLOCKWISE[2], deck)
        while not deal.is_over:
            actions = deal.legal_actions()
            plays = {action.card for action in actions if action.kind is ActionKind.PLAY}
            if deal.phase is Phase.PLAY and plays:
                cards, word = deal.play_rule()
                hand, trick, trump = deal.hands[deal.to_act], [card for _, card in deal.trick], deal.trump
                assert set(cards) == plays
                same = {card for card in hand if card.suit is (trick[0].suit if trick else None)}
                higher = {card for card in same if trick and strength(card, trump) > strength(trick[0], trump)}
                trumps = {card for card in hand if card.suit is trump}
                if not trick:
                    expected, allowed = "lead", set(hand)
                elif higher and (trick[0].suit is trump or must_beat == "any-lead"):
                    expected, allowed = ("higher-trump" if trick[0].suit is trump else "beat"), higher
                elif same:
                    expected, allowed = ("lower-trump" if trick[0].suit is trump else "follow"), same
                elif trumps:
                    expected, allowed = "trump", trumps
                else:
                    expected, allowed = "any", set(hand)
                assert (word, plays) == (expected, allowed), (hand, trick, trump)
                seen.add(word)
            deal.apply(rng.choice(actions))
    assert seen == {"lead", "follow", "higher-trump", "lower-trump", "trump", "any"} | (
        {"beat"} if must_beat == "any-lead" else set())
