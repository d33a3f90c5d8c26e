"""Helpers for the solver tests: an exhaustive minimax over the engine, and seeded positions.

:func:`brute_force` is deliberately simple and slow: it copies the deal, tries every action of
``legal_actions()`` through ``apply()`` (declarations and ``nobella`` included) and reads the
score from the engine's own result. It is the reference the solver is checked against on small
endgames. The position generators play seeded random deals with a bias that makes the scoring
rules matter in the endgame: the K and Q of trumps kept back (bella still to decide), sequences
declared and their winner losing tricks (``no-trick-melds=void``), the playing side winning
tricks (pit), roem cards kept back.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable

from klabsite.engine.actions import Action, ActionKind
from klabsite.engine.cards import DECK, Rank, strength
from klabsite.engine.events import TrickWon
from klabsite.engine.klaberjass import KlaberjassDeal, Phase
from klabsite.engine.klaverjas import KlaverjasDeal
from klabsite.engine.options import KlaberjassRules, KlaverjasRules
from klabsite.engine.seats import CLOCKWISE, Seat
from klabsite.engine.tricks import trick_winner_index
from klabsite.solver import Solver, native

AnyDeal = KlaberjassDeal | KlaverjasDeal


def side_of(deal: AnyDeal, seat: Seat) -> str:
    """The score key of ``seat``: the seat (Klaberjass) or its side (Klaverjas)."""
    return str(seat) if isinstance(deal, KlaberjassDeal) else str(seat.side)


def other_key(deal: AnyDeal, key: str) -> str:
    """The opposing score key."""
    if isinstance(deal, KlaberjassDeal):
        return "S" if key == "N" else "N"
    return "EW" if key == "NS" else "NS"


def copy_deal(deal: AnyDeal) -> AnyDeal:
    """An independent copy. A deal's state is immutable values (cards, seats, events, results),
    lists of them and dicts of them or of such lists, so copying those containers is enough."""
    child = copy.copy(deal)
    for name, value in vars(deal).items():
        if isinstance(value, list):
            setattr(child, name, list(value))
        elif isinstance(value, dict):
            setattr(child, name, {key: list(item) if isinstance(item, list) else item
                                  for key, item in value.items()})
        else:
            assert isinstance(value, (tuple, int, str, type(None))) or type(value).__hash__ is not None, name
    return child


def final_value(deal: AnyDeal, key: str) -> int:
    """The score of ``key`` minus the other side's, from the engine's result (no hanging points)."""
    assert deal.result is not None
    score = deal.result.score
    return score[key] - score[other_key(deal, key)]


def brute_force(deal: AnyDeal, key: str | None = None) -> int:
    """The value of ``deal`` for ``key`` (default: the side to act) by exhaustive minimax over
    every legal action."""
    if key is None:
        assert deal.to_act is not None
        key = side_of(deal, deal.to_act)
    if deal.is_over:
        return final_value(deal, key)
    assert deal.to_act is not None
    results = []
    for action in deal.legal_actions():
        child = copy_deal(deal)
        child.apply(action)
        results.append(brute_force(child, key))
    return max(results) if side_of(deal, deal.to_act) == key else min(results)


def brute_force_cards(deal: AnyDeal) -> dict[str, int]:
    """The value for the side to act of each legal card (the better of a card's actions: bella or
    not), by :func:`brute_force`."""
    assert deal.to_act is not None
    key = side_of(deal, deal.to_act)
    values: dict[str, int] = {}
    for action in deal.legal_actions():
        if action.kind is not ActionKind.PLAY:
            continue
        child = copy_deal(deal)
        child.apply(action)
        value = brute_force(child, key)
        name = str(action.card)
        values[name] = max(value, values.get(name, value))
    return values


def both_cores() -> list[Solver]:
    """A solver on the Python search cores, and one on the C cores when they are built."""
    solvers = [Solver(native=False)]
    if native.AVAILABLE:
        solvers.append(Solver(native=True))
    return solvers


def cards_held(deal: AnyDeal) -> int:
    """The fewest cards any seat still holds."""
    return min(len(cards) for cards in deal.hands.values())


# ---------------------------------------------------------------------------------------------
# Seeded positions

Policy = Callable[[AnyDeal, list[Action], random.Random, str], Action]
BIASES = ("random", "bella", "hang", "hang-bella", "pit")
"""What a generated position is steered toward: nothing; bella still to decide (Klaberjass);
the sequence winner without a trick (Klaberjass; ``hang-bella``: and bella still to decide);
the playing side without a lost trick (Klaverjas)."""


def _trick_winner_after(deal: AnyDeal, action: Action) -> Seat | None:
    """Who wins the trick in progress if ``action`` completes it (``None`` if it does not)."""
    trick = deal.trick
    if len(trick) + 1 < len(deal.hands):
        return None
    assert action.card is not None and deal.trump is not None
    cards = [*trick, (action.seat, action.card)]
    return cards[trick_winner_index([card for _, card in cards], deal.trump)][0]


def _klaberjass_policy(deal: AnyDeal, legal: list[Action], rng: random.Random, bias: str) -> Action:
    """Random, steered by ``bias``; sequences are usually declared."""
    assert isinstance(deal, KlaberjassDeal)
    melds = [a for a in legal if a.kind is ActionKind.MELD]
    if melds and rng.random() < 0.9:
        return rng.choice(melds)
    plays = [a for a in legal if a.kind is ActionKind.PLAY]
    if not plays:
        takes = [a for a in legal if a.kind in (ActionKind.TAKE, ActionKind.NAME, ActionKind.REFUSE)]
        return rng.choice(takes) if takes and rng.random() < 0.7 else rng.choice(legal)
    trump = deal.trump
    if bias in ("bella", "hang-bella"):
        quiet = [a for a in plays if not (a.card.suit is trump and a.card.rank in (Rank.KING, Rank.QUEEN))]
        plays = quiet or plays
    comparison = deal.comparison
    if bias in ("hang", "hang-bella") and comparison is not None and comparison.best is not None:
        best = comparison.best
        losing = [a for a in plays if _trick_winner_after(deal, a) not in (best, None)]
        if not deal.trick:  # the sequence winner leads low, his opponent high
            ranked = sorted(plays, key=lambda a: strength(a.card, trump))
            losing = ranked[:2] if deal.to_act is best else ranked[-2:]
        plays = losing or plays
    return rng.choice(plays)


def _klaverjas_policy(deal: AnyDeal, legal: list[Action], rng: random.Random, bias: str) -> Action:
    """Random, steered by ``bias``; roem cards (K, Q of trumps, jacks) are often kept back."""
    assert isinstance(deal, KlaverjasDeal)
    if deal.trump is None:
        names = [a for a in legal if a.kind is not ActionKind.PASS]
        return rng.choice(names or legal)
    trump = deal.trump
    keep = [a for a in legal if not (a.card.suit is trump and a.card.rank in (Rank.KING, Rank.QUEEN))
            and a.card.rank is not Rank.JACK]
    if keep and rng.random() < 0.5:
        legal = keep
    playing = deal.playing
    if bias == "pit" and playing is not None:
        if deal.trick:
            winning = [a for a in legal if (_trick_winner_after(deal, a) or a.seat).side is playing]
            legal = winning or legal
        elif deal.to_act is not None and deal.to_act.side is playing:
            legal = sorted(legal, key=lambda a: -strength(a.card, trump))[:2]
    return rng.choice(legal)


def klaberjass_deal(rules: KlaberjassRules, rng: random.Random, bias: str = "random") -> KlaberjassDeal:
    """A seeded Klaberjass deal that reached its card play."""
    while True:
        deck = list(DECK)
        rng.shuffle(deck)
        deal = KlaberjassDeal(rules, rng.choice((Seat.N, Seat.S)), deck)
        while not deal.is_over and deal.phase is not Phase.PLAY:
            deal.apply(_klaberjass_policy(deal, deal.legal_actions(), rng, bias))
        if not deal.is_over:
            return deal


def klaverjas_deal(rules: KlaverjasRules, rng: random.Random) -> KlaverjasDeal:
    """A seeded Klaverjas deal whose trump is chosen."""
    deck = list(DECK)
    rng.shuffle(deck)
    deal = KlaverjasDeal(rules, rng.choice(CLOCKWISE), deck)
    while deal.trump is None:
        deal.apply(_klaverjas_policy(deal, deal.legal_actions(), rng, "random"))
    return deal


def play_until(deal: AnyDeal, rng: random.Random, cards: int, mid_trick: bool, bias: str = "random") -> AnyDeal:
    """Play ``deal`` on with the biased policy until every seat holds at most ``cards`` cards (and,
    with ``mid_trick``, one to three more cards of the next trick are played)."""
    policy: Policy = _klaberjass_policy if isinstance(deal, KlaberjassDeal) else _klaverjas_policy
    while not deal.is_over and (max(len(h) for h in deal.hands.values()) > cards or deal.trick):
        deal.apply(policy(deal, deal.legal_actions(), rng, bias))
    if mid_trick and not deal.is_over:
        for _ in range(rng.randrange(1, len(deal.hands))):
            deal.apply(policy(deal, deal.legal_actions(), rng, bias))
    return deal


def _wanted(deal: AnyDeal, bias: str) -> bool:
    """Whether ``deal`` shows what ``bias`` steers toward (see :data:`BIASES`)."""
    won = {event.winner for event in deal.events if isinstance(event, TrickWon)}
    if bias == "hang-bella":
        return _wanted(deal, "hang") and _wanted(deal, "bella")
    if bias == "hang":
        assert isinstance(deal, KlaberjassDeal)
        comparison = deal.comparison
        return (deal.rules.no_trick_melds == "void" and comparison is not None and comparison.best is not None
                and comparison.points > 0 and comparison.best not in won)
    if bias == "pit":
        assert isinstance(deal, KlaverjasDeal) and deal.playing is not None
        return all(seat.side is deal.playing for seat in won)
    if bias == "bella":
        assert deal.trump is not None
        for seat, hand in deal.hands.items():
            played = [card for who, card in getattr(deal, "played", ()) if who is seat]
            king_queen = [c for c in (*hand, *played) if c.suit is deal.trump and c.rank in (Rank.KING, Rank.QUEEN)]
            if len(king_queen) == 2 and any(card in hand for card in king_queen):
                return True
        return False
    return True


def endgame(rules: KlaberjassRules | KlaverjasRules, rng: random.Random, cards: int,
            bias: str = "random") -> AnyDeal:
    """A seeded position with at most ``cards`` cards in each hand, at a trick's start or in it,
    showing what ``bias`` steers toward (tried up to 500 times; then any position)."""
    for attempt in range(500):
        if isinstance(rules, KlaberjassRules):
            deal: AnyDeal = klaberjass_deal(rules, rng, bias)
        else:
            deal = klaverjas_deal(rules, rng)
        deal = play_until(deal, rng, cards, mid_trick=rng.random() < 0.4, bias=bias)
        if not deal.is_over and (_wanted(deal, bias) or attempt == 499):
            return deal
    raise AssertionError("unreachable")
