"""The Klaberjass fast path agrees with the engine: legal cards, trick winners, points."""

from __future__ import annotations

import random

from klabsite.engine.actions import ActionKind
from klabsite.engine.cards import DECK, Suit, cards_of, mask_of, parse_cards
from klabsite.engine.fast.klaberjass import (
    BEATS,
    Position,
    finished_tricks,
    legal_mask,
    position_of,
    random_playout,
)
from klabsite.engine.fast.tables import POINTS
from klabsite.engine.klaberjass import SEATS, KlaberjassDeal
from klabsite.engine.options import KlaberjassRules


def test_jack_and_nine_of_trumps_beat_ace_and_ten_on_the_fast_path():
    trump = Suit.HEARTS.index
    beaten_by = set(cards_of(BEATS[trump][parse_cards("AH")[0].index]))
    assert beaten_by == set(parse_cards("JH 9H"))
    assert set(cards_of(BEATS[Suit.SPADES.index][parse_cards("AH")[0].index])) == set()


def test_void_must_trump_on_the_fast_path():
    hand = mask_of(parse_cards("JS 7S AD"))
    legal = legal_mask(hand, parse_cards("AH")[0].index, Suit.SPADES.index, False)
    assert cards_of(legal) == parse_cards("7S JS")


def play_positions(rules: KlaberjassRules, deals: int, seed: str):
    """Random engine deals; yields (deal, fast position) at every card-play decision."""
    rng = random.Random(seed)
    for number in range(deals):
        deck = list(DECK)
        rng.shuffle(deck)
        deal = KlaberjassDeal(rules, SEATS[number % 2], deck)
        fast: Position | None = None
        while not deal.is_over:
            legal = deal.legal_actions()
            plays = [a for a in legal if a.kind is ActionKind.PLAY]
            if plays:
                if fast is None:
                    fast = position_of(deal)
                yield deal, fast, plays
                action = rng.choice(plays)
                fast.play(action.card.index)
            else:
                action = rng.choice(legal)
            deal.apply(action)
        if fast is not None:
            yield deal, fast, []


def test_fast_legal_mask_agrees_with_the_engine_on_thousands_of_positions():
    checked = 0
    for must_beat in ("trump-lead", "any-lead"):
        rules = KlaberjassRules(must_beat=must_beat, schmeiss="off")
        for deal, fast, plays in play_positions(rules, 160, f"fast-{must_beat}"):
            if deal.is_over:
                result = deal.result
                assert result is not None
                won = dict.fromkeys(SEATS, 0)
                for winner, points in finished_tricks(deal.view_for(SEATS[0]).played, deal.trump.index):
                    won[winner] += points
                for i, seat in enumerate(SEATS):
                    key = str(seat)
                    expected = result.card_points[key] + (10 if result.last_trick is seat else 0)
                    assert fast.points[i] == expected == won[seat]
                assert fast.over
                continue
            assert fast.hands == [mask_of(deal.hands[seat]) for seat in SEATS]
            assert SEATS[fast.to_act] is deal.to_act
            assert fast.legal() == mask_of(action.card for action in plays)
            checked += 1
    assert checked >= 5000


def test_random_playout_gives_every_card_point_and_the_last_trick():
    rng = random.Random(3)
    for _ in range(300):
        deck = list(DECK)
        rng.shuffle(deck)
        trump = rng.randrange(4)
        position = Position([mask_of(deck[:9]), mask_of(deck[9:18])], trump, rng.randrange(2),
                            any_lead=rng.random() < 0.5)
        before = position.copy()
        total = sum(points for points in random_playout(position, rng))
        assert position == before
        assert total == sum(POINTS[trump][card.index] for card in deck[:18]) + 10


def test_every_benchmark_figure_runs():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "engine.py"
    spec = importlib.util.spec_from_file_location("benchmark_engine", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.FIGURES
    for label, rate, _target in module.FIGURES:  # the targets are the script's to print, not a test's
        assert rate(0.01, random.Random(label)) > 0
