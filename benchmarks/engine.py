"""Engine speed on one core: full random deals through the public API, and fast-path playouts.

    python benchmarks/engine.py [--seconds 2]

Each figure is a ``(label, function, target)`` entry in :data:`FIGURES`; a function takes the
number of seconds to run and a seeded ``random.Random`` and returns how many items it did per
second. To add a game, append its entries (Klaverjas: deals through ``klabsite.engine.klaverjas`` and
playouts through ``klabsite.engine.fast.klaverjas``).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from klabsite.engine.cards import DECK, Card, mask_of
from klabsite.engine.deal import Deal
from klabsite.engine.fast import klaverjas as fast_klaverjas
from klabsite.engine.fast.klaberjass import Position, random_playout
from klabsite.engine.klaberjass import SEATS, KlaberjassDeal
from klabsite.engine.klaverjas import SEATS as KLAVERJAS_SEATS
from klabsite.engine.klaverjas import KlaverjasDeal
from klabsite.engine.options import KlaberjassRules, KlaverjasRules

Rate = Callable[[float, random.Random], float]


def timed(seconds: float, step: Callable[[], int]) -> float:
    """Call ``step`` (returning how many items it did) until ``seconds`` pass; items per second."""
    done, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        done += step()
    return done / elapsed


def random_deals(seconds: float, rng: random.Random, new_deal: Callable[[list[Card]], Deal]) -> float:
    """Random deals from a shuffled deck to the score, through ``legal_actions()`` and ``apply()``.

    Events are kept. Only deals that count (played to a score) are counted; a thrown-in deal's
    time still counts against the rate.
    """
    deck = list(DECK)

    def one() -> int:
        rng.shuffle(deck)
        deal = new_deal(deck)
        choice = rng.choice
        while not deal.is_over:
            deal.apply(choice(deal.legal_actions()))
        assert deal.result is not None
        return 1 if deal.result.counted else 0

    return timed(seconds, one)


def klaberjass_deals(seconds: float, rng: random.Random) -> float:
    """Klaberjass deals, bidding to score (schmeiss off, so few are thrown in)."""
    rules = KlaberjassRules(schmeiss="off")
    return random_deals(seconds, rng, lambda deck: KlaberjassDeal(rules, SEATS[rng.randrange(2)], deck))


def klaberjass_playouts(seconds: float, rng: random.Random) -> float:
    """Fast-path random card-play playouts of nine tricks from random 9-card hands."""
    positions = []
    deck = list(DECK)
    for _ in range(1000):
        rng.shuffle(deck)
        positions.append(Position([mask_of(deck[:9]), mask_of(deck[9:18])], rng.randrange(4),
                                  rng.randrange(2), any_lead=rng.random() < 0.5))

    def batch() -> int:
        for position in positions:
            random_playout(position, rng)
        return len(positions)

    return timed(seconds, batch)


def klaverjas_deals(seconds: float, rng: random.Random) -> float:
    """Klaverjas deals, trump choice to score."""
    rules = KlaverjasRules()
    return random_deals(seconds, rng,
                        lambda deck: KlaverjasDeal(rules, KLAVERJAS_SEATS[rng.randrange(4)], deck))


def klaverjas_playouts(seconds: float, rng: random.Random) -> float:
    """Fast-path random card-play playouts of eight tricks from random deals (both trick rules)."""
    positions = []
    deck = list(DECK)
    for _ in range(1000):
        rng.shuffle(deck)
        hands = [mask_of(deck[8 * seat:8 * seat + 8]) for seat in range(4)]
        positions.append(fast_klaverjas.Position(hands, rng.randrange(4), rng.randrange(4),
                                                 rotterdam=rng.random() < 0.5))

    def batch() -> int:
        for position in positions:
            fast_klaverjas.random_playout(position, rng)
        return len(positions)

    return timed(seconds, batch)


FIGURES: list[tuple[str, Rate, float]] = [
    ("klaberjass: random deals/s (public API, events)", klaberjass_deals, 2_000),
    ("klaberjass: fast-path random playouts/s", klaberjass_playouts, 20_000),
    ("klaverjas: random deals/s (public API, events)", klaverjas_deals, 1_500),
    ("klaverjas: fast-path random playouts/s", klaverjas_playouts, 15_000),
]
"""(label, function, target per second) for every figure printed."""


def main(argv: list[str] | None = None) -> int:
    """Print every figure with its target; exit 0 (figures are informative, not a test)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per figure (default 2)")
    parser.add_argument("--seed", default="benchmark", help="random seed (default 'benchmark')")
    args = parser.parse_args(argv)
    for label, rate, target in FIGURES:
        value = rate(args.seconds, random.Random(args.seed))
        verdict = "ok" if value >= target else "BELOW TARGET"
        print(f"{label:<52} {value:>10,.0f}   (target {target:,.0f}: {verdict})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
