"""The Klaverjas fast path agrees with the engine: legal cards at every position of seeded random
deals (every rule combination), trick results and deal scores; random playouts add up."""

from __future__ import annotations

import itertools
import random

import pytest

from klabsite.engine.cards import DECK, Suit, mask_of, parse_cards
from klabsite.engine.fast.klaverjas import (
    Outcome,
    Position,
    deal_score,
    legal_mask,
    position_from_deal,
    random_playout,
    trick_roem,
)
from klabsite.engine.klaverjas import KlaverjasDeal, KlaverjasRules
from klabsite.engine.roem import trick_roem as engine_trick_roem
from klabsite.engine.seats import CLOCKWISE

RULES = [
    KlaverjasRules(trick_rules=tricks, undertrump=under)
    for tricks, under in itertools.product(("amsterdam", "rotterdam"), ("required", "forbidden"))
]


def random_deal_in_play(rules: KlaverjasRules, rng: random.Random, number: int) -> KlaverjasDeal:
    deck = list(DECK)
    rng.shuffle(deck)
    deal = KlaverjasDeal(rules, CLOCKWISE[number % 4], deck)
    while deal.trump is None:
        deal.apply(rng.choice(deal.legal_actions()))
    return deal


@pytest.mark.parametrize("rules", RULES, ids=lambda rules: rules.format() or "defaults")
def test_fast_legal_mask_agrees_with_legal_actions(rules: KlaverjasRules) -> None:
    rng = random.Random(f"fastpath {rules.format()}")
    positions = 0
    for number in range(40):
        deal = random_deal_in_play(rules, rng, number)
        position = position_from_deal(deal)
        while not deal.is_over:
            assert deal.to_act is not None and position.to_act == deal.to_act.index
            expected = mask_of(action.card for action in deal.legal_actions() if action.card)
            assert position.legal() == expected, (deal, [str(c) for _, c in deal.trick])
            assert position.copy().legal() == position_from_deal(deal).legal() == expected
            action = rng.choice(deal.legal_actions())
            assert action.card is not None
            deal.apply(action)
            position.play(action.card.index)
            positions += 1
        result = deal.result
        assert result is not None and result.card_points and result.last_trick and position.is_over
        outcome = position.outcome()
        assert outcome.tricks[0] + outcome.tricks[1] == 8
        by_side = {"NS": 0, "EW": 1}
        for key, side in by_side.items():
            points = result.card_points[key] + (10 if result.last_trick.value == key else 0)
            assert outcome.points[side] == points
            assert outcome.roem[side] == result.roem[key]
        score = deal_score(by_side[result.playing.value], outcome)
        assert score == (result.score["NS"], result.score["EW"])
    assert positions == 40 * 32


def test_fast_trick_roem_agrees_with_engine_on_random_tricks() -> None:
    rng = random.Random(11)
    for _ in range(3000):
        cards = rng.sample(DECK, 4)
        trump = rng.choice(list(Suit))
        assert trick_roem(mask_of(cards), trump.index) == engine_trick_roem(cards, trump)


def test_legal_mask_examples() -> None:
    spades = Suit.SPADES.index
    hand = mask_of(parse_cards("7S AS 9C"))
    trick = [card.index for card in parse_cards("7H KS 8H")]   # partner winning with a trump
    assert legal_mask(hand, trick, spades) == mask_of(parse_cards("AS 9C"))
    assert legal_mask(hand, trick, spades, rotterdam=True) == mask_of(parse_cards("AS"))
    assert legal_mask(hand, [], spades) == hand


def test_random_playout_adds_up_and_leaves_the_position_alone() -> None:
    rng = random.Random(3)
    for number in range(300):
        rules = RULES[number % 4]
        deal = random_deal_in_play(rules, rng, number)
        for _ in range(number % 9):                             # start some playouts mid-trick
            deal.apply(rng.choice(deal.legal_actions()))
        position = position_from_deal(deal)
        before = (list(position.hands), list(position.trick), position.leader, list(position.points))
        outcome = random_playout(position, rng)
        assert (position.hands, position.trick, position.leader, position.points) == before
        assert isinstance(outcome, Outcome)
        assert sum(outcome.points) == 162 and sum(outcome.tricks) == 8
        assert all(roem % 10 == 0 for roem in outcome.roem)


def test_random_playout_is_seeded() -> None:
    position = Position([mask_of(DECK[8 * seat:8 * seat + 8]) for seat in range(4)], 2, 0)
    first = [random_playout(position, random.Random(5)) for _ in range(3)]
    assert first[0] == first[1] == first[2]


def reference_playout(position: Position, rng: random.Random) -> Outcome:
    """A slow playout through ``Position.legal``/``play`` drawing cards exactly like the fast one."""
    position = position.copy()
    while not position.is_over:
        legal = position.legal()
        cards = [index for index in range(32) if legal >> index & 1]
        position.play(cards[int(rng.random() * len(cards))])
    return position.outcome()


@pytest.mark.parametrize("rules", RULES, ids=lambda rules: rules.format() or "defaults")
def test_random_playout_plays_the_same_cards_as_the_checked_position(rules: KlaverjasRules) -> None:
    rng = random.Random(f"playout {rules.format()}")
    for number in range(150):
        deal = random_deal_in_play(rules, rng, number)
        for _ in range(number % 11):
            deal.apply(rng.choice(deal.legal_actions()))
        position = position_from_deal(deal)
        seed = rng.random()
        fast = random_playout(position, random.Random(seed))
        assert fast == reference_playout(position, random.Random(seed))
