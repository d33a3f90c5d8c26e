"""Seeded random Klaberjass matches, checking the invariants after every step and every deal.

Over 1,200 deals across option combinations: the legal list is never empty and always sorted,
every card is in exactly one place, refused actions are refused, events are frozen, and at the
end the points add up and the score follows the maker rule and the hanging points.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest

from klabsite.engine.actions import Action, ActionKind, IllegalAction
from klabsite.engine.cards import DECK, points
from klabsite.engine.events import CardPlayed, DealScored, Dealt, ThrownIn, TrickWon
from klabsite.engine.klaberjass import SEATS, BellaDecided, DixDecided, KlaberjassDeal, Phase, next_dealer
from klabsite.engine.match import MatchScore
from klabsite.engine.melds import MeldsCompared
from klabsite.engine.options import KlaberjassRules

OPTION_SETS = [
    "",
    "schmeiss=off",
    "schmeiss-refused=refuser-makes",
    "schmeiss-redeal=same-dealer",
    "schmeiss-round-2=on",
    "long-sequence=100",
    "equal-meld=elder",
    "no-trick-melds=void",
    "must-beat=any-lead",
    "equal-score=next-deal-winner",
    "schmeiss-refused=refuser-makes schmeiss-redeal=same-dealer schmeiss-round-2=on long-sequence=100 "
    "equal-meld=elder no-trick-melds=void must-beat=any-lead equal-score=next-deal-winner target=300",
    "schmeiss-round-2=on equal-score=next-deal-winner deals=4",
]
DEALS_PER_SET = 170
PLAYED_KEYS = {"dealer", "outcome", "trump", "maker", "card_points", "last_trick", "melds", "bella",
               "totals", "result", "score"}


def check_cards(deal: KlaberjassDeal) -> None:
    """Every card is in exactly one place: a hand, the upcard, the stock, or played."""
    places = Counter(card for hand in deal.hands.values() for card in hand)
    places.update([deal.upcard, *deal.stock, *(card for _, card in deal.played)])
    assert places == Counter(DECK), deal
    assert [card for _, card in deal.trick] == [card for _, card in deal.played[len(deal.played)
                                                                                 - len(deal.trick):]]


def check_legal(deal: KlaberjassDeal, legal: list[Action]) -> None:
    if deal.is_over:
        assert legal == [] and deal.to_act is None
        return
    assert legal, deal
    assert legal == sorted(legal, key=Action.sort_key)
    assert len(set(legal)) == len(legal)
    assert all(action.seat is deal.to_act for action in legal)


def check_refusals(deal: KlaberjassDeal, legal: list[Action], rng: random.Random) -> None:
    """A card not held, a turn out of order and a random non-legal word are all refused."""
    seat = deal.to_act
    assert seat is not None
    other = SEATS[1 - SEATS.index(seat)]
    wrong_turn = Action.play(other, rng.choice(DECK))
    foreign = [card for card in DECK if card not in deal.hands[seat]]
    candidates = [wrong_turn, Action.play(seat, rng.choice(foreign)),
                  Action(seat, rng.choice(list(ActionKind)[:8]))]
    for action in candidates:
        if action in legal:
            continue
        assert not deal.can_apply(action)
        with pytest.raises(IllegalAction, match=f"^{action.seat} cannot "):
            deal.verify(action)


def check_played_result(deal: KlaberjassDeal, hanging: int) -> None:
    result = deal.result
    assert result is not None and result.outcome == "played" and result.counted
    data = result.to_json()
    assert set(data) == PLAYED_KEYS
    trump, maker = deal.trump, deal.maker
    assert trump is not None and maker is not None
    assert len(deal.played) == 18
    tricks = [event for event in deal.events if isinstance(event, TrickWon)]
    assert [t.number for t in tricks] == list(range(1, 10))
    assert [t.last for t in tricks] == [False] * 8 + [True]
    played_points = sum(points(card, trump) for _, card in deal.played)
    assert played_points == sum(result.card_points.values())
    assert played_points + 10 == sum(t.points for t in tricks)
    last = str(tricks[-1].winner)
    assert data["last_trick"] == last
    for seat in ("N", "S"):
        assert result.totals[seat] == (result.card_points[seat] + (10 if seat == last else 0)
                                       + result.melds[seat] + result.bella[seat])
        assert result.bella[seat] in (0, 20)
    assert min(result.melds.values()) == 0
    # The maker rule, worked out independently.
    maker_key, opponent_key = str(maker), "S" if str(maker) == "N" else "N"
    mine, theirs = result.totals[maker_key], result.totals[opponent_key]
    if mine > theirs:
        expected, kind = {maker_key: mine, opponent_key: theirs}, "made"
    elif mine < theirs:
        expected, kind = {maker_key: 0, opponent_key: mine + theirs}, "failed"
    else:
        expected, kind = {maker_key: 0, opponent_key: theirs}, "tie"
    assert result.result == kind
    if kind == "tie":
        tied = mine if deal.rules.equal_score == "next-deal-winner" else 0
        assert result.hanging == hanging + tied
    else:
        expected[max(expected, key=expected.__getitem__)] += hanging
        assert result.hanging == 0
    assert result.score == expected
    assert deal.events[-1] == DealScored(kind, (("N", expected["N"]), ("S", expected["S"])))


def play_deal(deal: KlaberjassDeal, rng: random.Random, seen: Counter) -> None:
    assert isinstance(deal.events[0], Dealt)
    while True:
        check_cards(deal)
        legal = deal.legal_actions()
        check_legal(deal, legal)
        if deal.is_over:
            return
        if rng.random() < 0.1:
            check_refusals(deal, legal, rng)
        action = rng.choice(legal)
        before = len(deal.events)
        events = deal.apply(action)
        assert events and tuple(deal.events[before:]) == events
        for event in events:
            assert dataclasses.is_dataclass(event) and type(event).__dataclass_params__.frozen  # type: ignore
            seen[type(event).__name__] += 1
            if isinstance(event, BellaDecided):
                seen["bella claimed" if event.claimed else "bella declined"] += 1
            if isinstance(event, MeldsCompared):
                seen[f"melds {event.reason}"] += 1
            if isinstance(event, DixDecided):
                seen["dix" if event.exchanged else "keep"] += 1
            if isinstance(event, CardPlayed):
                assert deal.phase in (Phase.PLAY, Phase.OVER)


def play_matches(rules: KlaberjassRules, deals: int, rng: random.Random, seen: Counter) -> None:
    match = MatchScore(rules, keys=("N", "S"))
    dealer, hanging = SEATS[rng.randrange(2)], 0
    for _ in range(deals):
        deck = list(DECK)
        rng.shuffle(deck)
        deal = KlaberjassDeal(rules, dealer, deck, hanging=hanging)
        play_deal(deal, rng, seen)
        result = deal.result
        assert result is not None
        seen[result.outcome] += 1
        if result.outcome == "played":
            check_played_result(deal, hanging)
            seen[result.result or ""] += 1
        else:
            assert isinstance(deal.events[-1], ThrownIn)
            assert result.to_json() == {"dealer": str(dealer), "outcome": result.outcome}
            assert result.hanging == hanging and not result.counted
        hanging = result.hanging
        match.add(result.score, counted=result.counted)
        dealer = next_dealer(rules, dealer, result.outcome)
        if match.over:
            seen["match over"] += 1
            match = MatchScore(rules, keys=("N", "S"))
            hanging = 0


def test_seeded_random_deals_keep_every_invariant():
    seen: Counter = Counter()
    for number, options in enumerate(OPTION_SETS):
        rng = random.Random(f"klaberjass-{number}")
        play_matches(KlaberjassRules.parse(options), DEALS_PER_SET, rng, seen)
    assert sum(seen[o] for o in ("played", "thrown-in", "redeal")) == len(OPTION_SETS) * DEALS_PER_SET >= 2000
    for wanted in ("played", "thrown-in", "redeal", "made", "failed", "tie", "dix", "keep", "bella claimed",
                   "bella declined", "melds value", "melds only", "melds top-card", "melds equal",
                   "match over"):
        assert seen[wanted] > 0, (wanted, seen)
