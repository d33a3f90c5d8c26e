"""Spec audit: the engines against a small independent reading of the rule book, on seeded random deals.

The functions below are written from the rule book alone (card tables retyped, not imported): which
cards may be played (Klaberjass rule 7, Klaverjas rule 2 under every option), the roem of a trick
(Klaverjas rule 3) and the score of a deal (Klaverjas 4-5, Klaberjass 8-9 from the trick history).
Random legal play, seeded; at every card the engine's legal cards must be exactly the oracle's.
"""

from __future__ import annotations

import random

import pytest

from klabsite.actions import ActionKind
from klabsite.cards import DECK
from klabsite.events import CardPlayed, TrickWon
from klabsite.klaberjass import KlaberjassDeal
from klabsite.klaverjas import KlaverjasDeal
from klabsite.melds import Declared
from klabsite.options import KlaberjassRules, KlaverjasRules
from klabsite.seats import Seat

TRUMP_ORDER = ["J", "9", "A", "T", "K", "Q", "8", "7"]
PLAIN_ORDER = ["A", "T", "K", "Q", "J", "9", "8", "7"]
TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
PLAIN_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
NATURAL = ["7", "8", "9", "T", "J", "Q", "K", "A"]


def rank(card) -> str:
    return str(card)[0]


def suit(card) -> str:
    return str(card)[1]


def power(card, trump: str) -> int:
    """Higher wins; any trump beats any plain card."""
    if suit(card) == trump:
        return 100 - TRUMP_ORDER.index(rank(card))
    return 10 - PLAIN_ORDER.index(rank(card))


def value(card, trump: str) -> int:
    return (TRUMP_POINTS if suit(card) == trump else PLAIN_POINTS)[rank(card)]


def winner(cards, trump: str) -> int:
    led = suit(cards[0])
    best = 0
    for i, card in enumerate(cards):
        if suit(card) in (led, trump) and power(card, trump) > power(cards[best], trump) and (
                suit(card) == trump or suit(cards[best]) != trump):
            best = i
    return best


# ------------------------------------------------------------------------------- Klaverjas


def klaverjas_legal(hand, trick, trump: str, rules: KlaverjasRules) -> set:
    if not trick:
        return set(hand)
    led = suit(trick[0])
    follow = {c for c in hand if suit(c) == led}
    trumps = {c for c in hand if suit(c) == trump}
    top = max((power(c, trump) for c in trick if suit(c) == trump), default=0)
    higher = {c for c in trumps if power(c, trump) > top}
    if led == trump:
        return higher or follow or set(hand)
    if follow:
        return follow
    if not trumps:
        return set(hand)
    partner_winning = len(trick) >= 2 and winner(trick, trump) == len(trick) - 2
    plain = set(hand) - trumps
    if rules.trick_rules == "amsterdam":
        if partner_winning:
            if top == 0:
                return set(hand)
            allowed = set(hand) - (trumps - higher)
            return allowed or set(hand)
        return higher or plain or set(hand)
    if higher:
        return higher
    if rules.undertrump == "required":
        return trumps
    return plain or set(hand)


def klaverjas_roem(cards, trump: str) -> int:
    ranks = [rank(c) for c in cards]
    if len(set(ranks)) == 1:
        return {"J": 200, "A": 100, "T": 100, "K": 100, "Q": 100}.get(ranks[0], 0)
    total = 0
    for s in "CDHS":
        positions = sorted(NATURAL.index(rank(c)) for c in cards if suit(c) == s)
        longest = run = 1 if positions else 0
        for a, b in zip(positions, positions[1:], strict=False):
            run = run + 1 if b == a + 1 else 1
            longest = max(longest, run)
        total += {3: 20, 4: 50}.get(longest, 0)
    trump_ranks = {rank(c) for c in cards if suit(c) == trump}
    return total + (20 if {"K", "Q"} <= trump_ranks else 0)


KLAVERJAS_OPTIONS = ["", "trick-rules=rotterdam", "trick-rules=rotterdam undertrump=forbidden",
                     "trump-choice=forced", "trump-choice=turned"]


@pytest.mark.parametrize("options", KLAVERJAS_OPTIONS)
def test_klaverjas_engine_agrees_with_an_independent_reading(options):
    rules = KlaverjasRules.parse(options)
    rng = random.Random(f"audit-klaverjas-{options}")
    for number in range(60):
        deck = list(DECK)
        rng.shuffle(deck)
        dealer = rng.choice(list(Seat))
        proposed = rng.choice(deck).suit if rules.trump_choice == "turned" else None
        deal = KlaverjasDeal(rules, dealer, deck, proposed=proposed)
        while deal.trump is None:
            deal.apply(rng.choice(deal.legal_actions()))
        chooser_side = deal.playing
        trump = str(deal.trump)
        trick: list = []
        tally = {"NS": [0, 0, 0], "EW": [0, 0, 0]}          # card points, roem, tricks
        while not deal.is_over:
            seat = deal.to_act
            hand = deal.hands[seat]
            legal = {a.card for a in deal.legal_actions()}
            assert legal == klaverjas_legal(hand, trick, trump, rules), (number, seat, hand, trick, trump)
            card = rng.choice(sorted(legal, key=lambda c: c.index))
            deal.apply(next(a for a in deal.legal_actions() if a.card == card))
            trick.append(card)
            if len(trick) == 4:
                lead_seat = seat.left                       # the seat after the 4th is the leader
                won_by = list(Seat)[(lead_seat.index + winner(trick, trump)) % 4]
                side = won_by.side.value
                tally[side][0] += sum(value(c, trump) for c in trick)
                tally[side][1] += klaverjas_roem(trick, trump)
                tally[side][2] += 1
                last_side = side
                trick = []
        playing = chooser_side.value
        other = "EW" if playing == "NS" else "NS"
        points = {s: tally[s][0] + (10 if s == last_side else 0) for s in tally}
        pit = tally[playing][2] == 8
        totals = {s: points[s] + tally[s][1] + (100 if pit and s == playing else 0) for s in tally}
        if totals[playing] > totals[other]:
            result, score = "made", totals
        else:
            result, score = "nat", {playing: 0, other: 162 + tally["NS"][1] + tally["EW"][1]}
        data = deal.result.to_json()
        assert (data["result"], data["score"], data["totals"], data["pit"]) == (
            result, {"NS": score["NS"], "EW": score["EW"]}, totals, pit), number
        assert data["roem"] == {s: tally[s][1] for s in ("NS", "EW")}
        assert data["card_points"] == {s: tally[s][0] for s in ("NS", "EW")}


# ------------------------------------------------------------------------------ Klaberjass


def klaberjass_legal(hand, trick, trump: str, rules: KlaberjassRules) -> set:
    if not trick:
        return set(hand)
    led = trick[0]
    follow = {c for c in hand if suit(c) == suit(led)}
    if follow:
        if suit(led) == trump or rules.must_beat == "any-lead":
            higher = {c for c in follow if power(c, trump) > power(led, trump)}
            if higher:
                return higher
        return follow
    return {c for c in hand if suit(c) == trump} or set(hand)


def best_key(melds, trump: str, long_sequence: int):
    def worth(meld):
        return 20 if len(meld) == 3 else 50 if len(meld) == 4 else long_sequence
    return max((worth(m), max(NATURAL.index(rank(c)) for c in m), suit(m[0]) == trump) for m in melds)


KLABERJASS_OPTIONS = ["", "must-beat=any-lead", "long-sequence=100 equal-meld=elder",
                      "no-trick-melds=void schmeiss=off", "equal-score=next-deal-winner"]


@pytest.mark.parametrize("options", KLABERJASS_OPTIONS)
def test_klaberjass_engine_agrees_with_an_independent_reading(options):
    rules = KlaberjassRules.parse(options)
    rng = random.Random(f"audit-klaberjass-{options}")
    played = 0
    for number in range(120):
        deck = list(DECK)
        rng.shuffle(deck)
        dealer = rng.choice([Seat.N, Seat.S])
        deal = KlaberjassDeal(rules, dealer, deck)
        while not deal.is_over and deal.trump is None or deal.phase.value == "dix":
            deal.apply(rng.choice(deal.legal_actions()))
        if deal.is_over:
            continue
        played += 1
        trump, maker = str(deal.trump), deal.maker
        trick: list = []
        points = {Seat.N: 0, Seat.S: 0}
        tricks = {Seat.N: 0, Seat.S: 0}
        kq = {Seat.N: 0, Seat.S: 0}
        bella = {Seat.N: 0, Seat.S: 0}
        while not deal.is_over:
            seat = deal.to_act
            actions = deal.legal_actions()
            cards = {a.card for a in actions if a.kind is ActionKind.PLAY}
            if cards:
                expected = klaberjass_legal(deal.hands[seat], [c for _, c in trick], trump, rules)
                assert cards == expected, number
            action = rng.choice(actions)
            deal.apply(action)
            if action.kind is not ActionKind.PLAY:
                continue
            card = action.card
            if suit(card) == trump and rank(card) in "KQ":
                kq[seat] += 1
                if kq[seat] == 2 and action.bella:
                    bella[seat] = 20
            trick.append((seat, card))
            if len(trick) == 2:
                won_by = trick[winner([c for _, c in trick], trump)][0]
                points[won_by] += sum(value(c, trump) for _, c in trick)
                tricks[won_by] += 1
                last = won_by
                trick = []
        declared = {e.seat: e.melds for e in deal.events if isinstance(e, Declared)}
        elder = Seat.N if dealer is Seat.S else Seat.S
        melds = {Seat.N: 0, Seat.S: 0}
        have = {seat: declared.get(seat, ()) for seat in (Seat.N, Seat.S)}
        best = None
        if have[elder] and have[dealer]:
            a, b = best_key(have[elder], trump, rules.long_sequence), best_key(have[dealer], trump,
                                                                              rules.long_sequence)
            best = elder if a > b else dealer if b > a else (elder if rules.equal_meld == "elder" else None)
        elif have[elder] or have[dealer]:
            best = elder if have[elder] else dealer
        if best is not None and not (rules.no_trick_melds == "void" and tricks[best] == 0):
            melds[best] = sum(20 if len(m) == 3 else 50 if len(m) == 4 else rules.long_sequence
                              for m in have[best])
        totals = {s: points[s] + (10 if s == last else 0) + melds[s] + bella[s] for s in points}
        opponent = Seat.N if maker is Seat.S else Seat.S
        if totals[maker] > totals[opponent]:
            result, score = "made", dict(totals)
        elif totals[maker] < totals[opponent]:
            result, score = "failed", {maker: 0, opponent: totals[maker] + totals[opponent]}
        else:
            result, score = "tie", {maker: 0, opponent: totals[opponent]}
        data = deal.result.to_json()
        key = {Seat.N: "N", Seat.S: "S"}
        assert data["card_points"] == {key[s]: v for s, v in points.items()}, number
        assert data["melds"] == {key[s]: v for s, v in melds.items()}, number
        assert data["bella"] == {key[s]: v for s, v in bella.items()}, number
        assert (data["result"], data["score"]) == (result, {key[s]: v for s, v in score.items()}), number
        assert sum(isinstance(e, CardPlayed) for e in deal.events) == 18
        assert sum(isinstance(e, TrickWon) for e in deal.events) == 9
    assert played > 40
