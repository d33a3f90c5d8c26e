"""Seeded random Klaverjas deals through the public API, checking invariants at every step.

1,200 deals: 100 for each combination of trump-choice, trick-rules and undertrump. After each
action: the legal list is non-empty and sorted, every legal card is held, the 32 cards are all
somewhere (hands, trick in progress, tricks won), and an illegal card is refused with a message
that names the legal cards. After each deal: card points plus last trick make 162, roem is a
multiple of 10 and matches an independent recount, totals, pit and nat agree with the rules.
"""

from __future__ import annotations

import itertools
import random

import pytest

from klabsite.engine.actions import Action, ActionKind, IllegalAction
from klabsite.engine.cards import DECK, Suit, mask_of
from klabsite.engine.events import CardPlayed, DealScored, TrickWon
from klabsite.engine.fast.klaverjas import trick_roem as fast_trick_roem
from klabsite.engine.klaverjas import KlaverjasDeal, KlaverjasPhase, KlaverjasRules
from klabsite.engine.seats import CLOCKWISE, Side

DEALS_PER_COMBINATION = 170
COMBINATIONS = [
    KlaverjasRules(trump_choice=choice, trick_rules=tricks, undertrump=under)
    for choice, tricks, under in itertools.product(
        ("free", "forced", "turned"), ("amsterdam", "rotterdam"), ("required", "forbidden")
    )
]


def check_step(deal: KlaverjasDeal, rng: random.Random) -> None:
    """Invariants that hold before every action."""
    legal = deal.legal_actions()
    assert legal, "the legal list is empty before the deal is over"
    assert legal == sorted(legal, key=Action.sort_key)
    assert len(set(legal)) == len(legal)
    assert all(action.seat is deal.to_act for action in legal)
    hands = deal.hands
    in_hands = [card for cards in hands.values() for card in cards]
    in_trick = [card for _, card in deal.trick]
    in_tricks = [card for trick in deal.tricks for _, card in trick.cards]
    everything = in_hands + in_trick + in_tricks
    assert len(everything) == 32 and set(everything) == set(DECK)
    assert len(in_trick) < 4 and len(deal.tricks) * 4 + len(in_trick) + len(in_hands) == 32
    if deal.phase is KlaverjasPhase.PLAY:
        assert deal.to_act is not None
        hand = hands[deal.to_act]
        assert all(action.kind is ActionKind.PLAY and action.card in hand for action in legal)
        illegal = [card for card in hand if Action.play(deal.to_act, card) not in legal]
        if illegal:
            card = rng.choice(illegal)
            with pytest.raises(IllegalAction) as error:
                deal.verify(Action.play(deal.to_act, card))
            message = str(error.value)
            assert message.startswith(f"{deal.to_act} cannot play {card}: ")
            assert all(str(action.card) in message for action in legal)
        assert len(hand) == 8 - len(deal.tricks)


def check_result(deal: KlaverjasDeal) -> None:
    """Invariants of a finished deal."""
    result = deal.result
    assert result is not None and deal.to_act is None and deal.legal_actions() == []
    tricks = deal.tricks
    assert len(tricks) == 8 and [trick.number for trick in tricks] == list(range(1, 9))
    assert sum(trick.points for trick in tricks) == 162
    assert result.card_points is not None
    assert result.card_points["NS"] + result.card_points["EW"] == 152
    assert deal.trump is not None
    recount = {"NS": 0, "EW": 0}
    for trick in tricks:
        roem = fast_trick_roem(mask_of(card for _, card in trick.cards), deal.trump.index)
        assert trick.roem == roem and roem % 10 == 0
        recount[trick.winner.side.value] += trick.roem
    assert result.roem == recount
    playing = result.playing.value
    other = result.playing.other.value
    won = sum(1 for trick in tricks if trick.winner.side is result.playing)
    assert result.pit == (won == 8)
    for side in Side:
        key = side.value
        last = 10 if result.last_trick is side else 0
        pit = 100 if result.pit and key == playing else 0
        assert result.totals[key] == result.card_points[key] + last + result.roem[key] + pit
    if result.result == "made":
        assert result.totals[playing] > result.totals[other] and result.score == result.totals
    else:
        assert result.result == "nat" and not result.pit
        assert result.totals[playing] <= result.totals[other]
        assert result.score == {playing: 0, other: 162 + result.roem["NS"] + result.roem["EW"]}
    assert deal.events[-1] == DealScored(result.result, tuple(result.score.items()))
    played = [event for event in deal.events if isinstance(event, CardPlayed)]
    assert len(played) == 32
    assert sum(isinstance(event, TrickWon) for event in deal.events) == 8
    assert set(result.to_json()) == {
        "dealer", "outcome", "trump", "playing", "card_points", "last_trick", "roem", "pit",
        "totals", "result", "score",
    }


@pytest.mark.parametrize("rules", COMBINATIONS, ids=lambda rules: rules.format() or "defaults")
def test_random_deals_keep_every_invariant(rules: KlaverjasRules) -> None:
    rng = random.Random(f"klaverjas-playouts {rules.format()}")
    outcomes = set()
    for number in range(DEALS_PER_COMBINATION):
        deck = list(DECK)
        rng.shuffle(deck)
        proposed = rng.choice(list(Suit)) if rules.trump_choice == "turned" else None
        deal = KlaverjasDeal(rules, CLOCKWISE[number % 4], deck, proposed=proposed)
        while not deal.is_over:
            check_step(deal, rng)
            before = len(deal.events)
            new = deal.apply(rng.choice(deal.legal_actions()))
            assert new and tuple(deal.events[before:]) == new
        check_result(deal)
        assert deal.result is not None
        outcomes.add(deal.result.result)
    assert outcomes == {"made", "nat"}


def test_same_seed_same_deal() -> None:
    def run() -> list[str]:
        rng = random.Random(7)
        deck = list(DECK)
        rng.shuffle(deck)
        deal = KlaverjasDeal(KlaverjasRules(), CLOCKWISE[0], deck)
        while not deal.is_over:
            deal.apply(rng.choice(deal.legal_actions()))
        return [repr(event) for event in deal.events]

    assert run() == run()
