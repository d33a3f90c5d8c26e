"""Sampling hidden deals: every sample fits every constraint and replays through the engine,
the same seed gives the same samples, and the samples are uniform (checked against full
enumeration on positions small enough to enumerate)."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter

import pytest

from klabsite.bots.inference import infer
from klabsite.bots.sampling import InconsistentConstraints, Sampler
from tests.bots_positions import every_option_set, positions, replay


def fits(knowledge, layout) -> bool:
    """Whether a layout (a mask per place) satisfies every constraint of ``knowledge``."""
    union = 0
    for mask, size, possible, known in zip(layout, knowledge.sizes, knowledge.possible, knowledge.known,
                                           strict=True):
        if mask & union or mask.bit_count() != size or mask & ~possible or known & ~mask:
            return False
        union |= mask
    if union != knowledge.unseen:
        return False
    return all(any(not run & ~layout[place] for run in runs) for place, runs in knowledge.claims)


@pytest.mark.parametrize("game", ["klaberjass", "klaverjas"])
def test_every_sample_fits_and_replays_through_the_engine(game):
    """The deal's actions, played again on a deck rebuilt from any sample (with the seat's own
    cards), are all legal and lead to the very view the seat has."""
    rng = random.Random(77)
    rule_sets = every_option_set(game)
    replays = 0
    for i in range(64 if game == "klaberjass" else 36):
        rules = rule_sets[(i * 5) % len(rule_sets)]
        for step, position in enumerate(positions(rules, rng, ["heuristic", "random"])):
            if step % 3:
                continue
            seat = position.deal.to_act
            view = position.deal.view_for(seat)
            knowledge = infer(view)
            sampler = knowledge.sampler()
            for _ in range(2):
                layout = sampler.sample(rng)
                assert fits(knowledge, layout)
                new = replay(position, seat, knowledge, dict(zip(knowledge.places, layout, strict=True)), rng)
                assert new.view_for(seat) == view
                replays += 1
    assert replays > 700


def test_sampling_is_deterministic_for_a_seed():
    rng = random.Random(5)
    for game in ("klaberjass", "klaverjas"):
        for position in itertools.islice(positions(every_option_set(game)[0], rng, ["random"]), 0, 40, 7):
            sampler = infer(position.deal.view_for(position.deal.to_act)).sampler()
            first = [sampler.sample(random.Random(9)) for _ in range(3)]
            assert first == [sampler.sample(random.Random(9)) for _ in range(3)]
            assert len({sampler.sample(random.Random(s)) for s in range(20)}) > 1


def enumerate_layouts(sizes, possible, claims=()):
    """Every layout, by brute force: each unseen card to a place."""
    unseen = 0
    for mask in possible:
        unseen |= mask
    cards = [i for i in range(32) if unseen >> i & 1]
    out = []
    for places in itertools.product(range(len(sizes)), repeat=len(cards)):
        layout = [0] * len(sizes)
        for card, place in zip(cards, places, strict=True):
            layout[place] |= 1 << card
        if all(layout[p].bit_count() == sizes[p] and not layout[p] & ~possible[p] for p in range(len(sizes))) \
                and all(any(not run & ~layout[p] for run in runs) for p, runs in claims):
            out.append(tuple(layout))
    return out


def assert_uniform(sampler, layouts, rng, draws_per_layout=60):
    """A chi-square check that the sampler draws every layout equally often."""
    counts = Counter(sampler.sample(rng) for _ in range(draws_per_layout * len(layouts)))
    assert set(counts) <= set(layouts)
    expected = draws_per_layout
    chi2 = sum((counts[layout] - expected) ** 2 / expected for layout in layouts)
    df = len(layouts) - 1
    assert chi2 < df + 5 * math.sqrt(2 * df), (chi2, df)


@pytest.mark.parametrize(("sizes", "possible", "claims"), [
    ((3, 2, 2), (0b1111111, 0b0111100, 0b1100111), ()),
    ((2, 3), (0b11111, 0b11110), ()),
    # a claim: place 0 holds cards {0, 1} or cards {2, 3} (overlapping with the other places)
    ((3, 3), (0b111111, 0b111100), ((0, (0b0011, 0b1100)),)),
    # overlapping candidates, a layout may hold both: drawn once, not twice as often
    ((4, 2), (0b111111, 0b111111), ((0, (0b000011, 0b000110)),)),
    ((3, 2, 2), (0b1111111, 0b1111100, 0b1111111), ((0, (0b0011100, 0b1110000, 0b0000111)),)),
])
def test_samples_are_uniform_over_every_layout(sizes, possible, claims):
    layouts = enumerate_layouts(sizes, possible, claims)
    sampler = Sampler(("A", "B", "C")[:len(sizes)], sizes, possible, claims)
    assert sampler.count == len(layouts) > 3
    assert_uniform(sampler, layouts, random.Random(len(layouts)))


def test_late_klaverjas_positions_are_sampled_uniformly_and_each_card_lands_as_often_as_it_should():
    rng = random.Random(3)
    checked = 0
    while checked < 4:
        for position in positions(every_option_set("klaverjas")[checked % 12], rng, ["heuristic"]):
            deal = position.deal
            if len(deal.tricks) < 5 or deal.trick:
                continue
            knowledge = infer(deal.view_for(deal.to_act))
            layouts = enumerate_layouts(knowledge.sizes, knowledge.possible)
            sampler = knowledge.sampler()
            assert sampler.count == len(layouts)
            if len(layouts) > 2:
                assert_uniform(sampler, layouts, rng, draws_per_layout=30)
                # each unseen card appears in each possible place as often as in the layouts
                draws = [sampler.sample(rng) for _ in range(3000)]
                for card in range(32):
                    if not knowledge.unseen >> card & 1:
                        continue
                    for place in range(3):
                        exact = sum(layout[place] >> card & 1 for layout in layouts) / len(layouts)
                        seen = sum(draw[place] >> card & 1 for draw in draws) / len(draws)
                        assert abs(seen - exact) < 4 * math.sqrt(exact * (1 - exact) / len(draws)) + 1e-9
                checked += 1
            break


def test_early_positions_give_each_unseen_card_to_each_possible_place_plausibly():
    """Trick 2 of Klaberjass: the 21 unseen cards, the opponent's 8 and the stock's 12, with the
    inferred voids; every card lands at each place with about the share of the places' sizes
    among those that may hold it."""
    rng = random.Random(8)
    found = None
    while found is None:
        for position in positions(every_option_set("klaberjass")[0], rng, ["heuristic"]):
            if len(position.deal.played) == 2:
                found = position.deal
                break
    knowledge = infer(found.view_for(found.to_act))
    sampler = knowledge.sampler()
    draws = [sampler.sample(rng) for _ in range(3000)]
    for card in range(32):
        if not knowledge.unseen >> card & 1:
            continue
        share = [sum(draw[p] >> card & 1 for draw in draws) / len(draws) for p in range(2)]
        assert abs(sum(share) - 1) < 1e-9
        for p in range(2):
            if not knowledge.possible[p] >> card & 1:
                assert share[p] == 0
            elif knowledge.possible[1 - p] >> card & 1 and not knowledge.known[p] >> card & 1:
                assert 0.1 < share[p] < 0.9, (card, share)


def test_inconsistent_constraints_are_refused():
    with pytest.raises(InconsistentConstraints):
        Sampler(("A", "B"), (2, 1), (0b011, 0b011))  # three places' worth of room, two cards
    with pytest.raises(InconsistentConstraints):
        Sampler(("A", "B"), (1, 2), (0b111, 0b001))  # B needs two cards but may hold one
    with pytest.raises(InconsistentConstraints):
        Sampler(("A", "B"), (2, 1), (0b011, 0b100), ((0, (0b100,)),))  # A must hold card 2


@pytest.mark.parametrize("game", ["klaberjass", "klaverjas"])
def test_the_fast_path_position_of_the_real_layout_is_the_deal_s_own(game):
    from klabsite.bots.worlds import position_for
    from klabsite.engine.fast import klaberjass as fast2
    from klabsite.engine.fast import klaverjas as fast4
    from tests.bots_positions import hidden_truth

    rng = random.Random(13)
    checked = 0
    for i in range(30):
        for position in positions(every_option_set(game)[i % 12], rng, ["heuristic", "random"]):
            deal = position.deal
            if deal.trump is None or (game == "klaberjass" and deal.phase.value != "play"):
                continue
            view = deal.view_for(deal.to_act)
            knowledge = infer(view)
            truth = {place: hidden_truth(deal, place) for place in knowledge.places}
            mine = position_for(view, knowledge, truth)
            if game == "klaverjas":
                theirs = fast4.position_from_deal(deal)
                assert (mine.hands, mine.trick, mine.leader, mine.points, mine.roem, mine.tricks) == (
                    theirs.hands, theirs.trick, theirs.leader, theirs.points, theirs.roem, theirs.tricks)
            else:
                theirs = fast2.position_of(deal)
                assert (mine.hands, mine.led, mine.leader, mine.any_lead) == (
                    theirs.hands, theirs.led, theirs.leader, theirs.any_lead)
                assert sum(mine.points) == sum(t.points for t in deal.events if type(t).__name__ == "TrickWon")
            checked += 1
    assert checked > 300
