"""Cards the solver treats as one (:func:`~klabsite.solver.tables.suit_classes`) are worth the
same, by exhaustive minimax; and in Klaverjas the roem rule of the classes is needed: merging
low cards that could still complete a run would join cards of different values."""

from __future__ import annotations

import random

from klabsite.engine.cards import DECK
from klabsite.engine.options import KlaberjassRules, KlaverjasRules
from klabsite.solver.deals import klaberjass_position, klaverjas_position
from klabsite.solver.tables import suit_classes
from tests.solver_helpers import brute_force_cards, endgame


def _classes(position, legal: int, roem: bool) -> list[list[str]]:
    """The mover's classes of legal cards with two or more cards, as card names."""
    held = position.hands[position.to_act]
    cards = position.hands[0]
    for hand in position.hands[1:]:
        cards |= hand
    trick = getattr(position, "trick", ()) or ((position.led,) if getattr(position, "led", -1) >= 0 else ())
    for card in trick:
        cards |= 1 << card
    others = cards & ~held
    result = []
    for suit in range(4):
        shift = 8 * suit
        for group in suit_classes(held >> shift & 0xFF, others >> shift & 0xFF, suit == position.trump, roem):
            names = [str(DECK[shift + r]) for r in range(8) if group >> r & 1 and legal >> (shift + r) & 1]
            if len(names) > 1:
                result.append(names)
    return result


def test_klaberjass_cards_of_one_class_are_worth_the_same() -> None:
    rng = random.Random("klaberjass classes")
    merged = 0
    for number in range(150):
        rules = KlaberjassRules(schmeiss="off", must_beat=("trump-lead", "any-lead")[number % 2])
        deal = endgame(rules, rng, cards=4)
        position = klaberjass_position(deal)
        classes = _classes(position, position.legal(), roem=False)
        if not classes:
            continue
        values = brute_force_cards(deal)
        for names in classes:
            merged += 1
            assert len({values[name] for name in names}) == 1, (deal, names, values)
    assert merged >= 10


def test_klaverjas_cards_of_one_class_are_worth_the_same_and_roem_keeps_runs_apart() -> None:
    rng = random.Random("klaverjas classes")
    merged = roem_blind_wrong = 0
    for number in range(1500):
        rules = KlaverjasRules(trick_rules=("amsterdam", "rotterdam")[number % 2])
        deal = endgame(rules, rng, cards=3)
        position = klaverjas_position(deal)
        legal = position.legal()
        classes, blind = _classes(position, legal, roem=True), _classes(position, legal, roem=False)
        if classes == blind and (not classes or merged >= 20):  # roem splits a class, or 20 more merges
            continue
        values = brute_force_cards(deal)
        for names in classes:
            merged += 1
            assert len({values[name] for name in names}) == 1, (deal, names, values)
        roem_blind_wrong += any(len({values[name] for name in names}) > 1 for names in blind)
    assert merged >= 10 and roem_blind_wrong >= 2, (merged, roem_blind_wrong)
