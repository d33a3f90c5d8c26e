"""Double-dummy solver speed on one core: full deals from the first card, and analysing a deal.

    python benchmarks/solver.py [--deals 100] [--analyse 10] [--game klaberjass|klaverjas] [--python]

For each game and option set: the CPU time (``time.process_time``) and nodes (cards played by
the search) of :meth:`Solver.solve` on seeded random deals at their first card play (trump and
maker from random bidding; Klaberjass declarations still to come), as median, 90th percentile and
maximum; then the CPU time to compute every legal card's value at every card play of a deal
(:meth:`Solver.card_values` with one solver per deal, as an ``analyse`` command would; the deal
played on by its best cards), median over ``--analyse`` deals. ``--python`` uses the pure-Python
search cores instead of the C ones. Targets (not tested): Klaberjass 5 ms median for a deal and
0.2 s to analyse one; Klaverjas 0.5 s and 10 s.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Iterator
from typing import Any

from klabsite.engine.cards import DECK
from klabsite.engine.klaberjass import KlaberjassDeal, Phase
from klabsite.engine.klaverjas import SEATS as KLAVERJAS_SEATS
from klabsite.engine.klaverjas import KlaverjasDeal
from klabsite.engine.options import KlaberjassRules, KlaverjasRules
from klabsite.engine.seats import Seat
from klabsite.solver import Solver

OPTION_SETS: dict[str, list[str]] = {
    "klaberjass": ["", "must-beat=any-lead", "no-trick-melds=void long-sequence=100 equal-meld=elder"],
    "klaverjas": ["", "trick-rules=rotterdam", "trick-rules=rotterdam undertrump=forbidden"],
}
TARGETS = {"klaberjass": (0.005, 0.2), "klaverjas": (0.5, 10.0)}


def klaberjass_deals(options: str, rng: random.Random) -> Iterator[KlaberjassDeal]:
    """Seeded deals at their first card play (random bidding, no schmeiss, no dix)."""
    rules = KlaberjassRules.parse(options + " schmeiss=off")
    while True:
        deck = list(DECK)
        rng.shuffle(deck)
        deal = KlaberjassDeal(rules, rng.choice((Seat.N, Seat.S)), deck)
        while not deal.is_over and deal.phase is not Phase.PLAY:
            deal.apply(rng.choice(deal.legal_actions()))
        if not deal.is_over:
            yield deal


def klaverjas_deals(options: str, rng: random.Random) -> Iterator[KlaverjasDeal]:
    """Seeded deals at their first card (random trump choice)."""
    rules = KlaverjasRules.parse(options)
    while True:
        deck = list(DECK)
        rng.shuffle(deck)
        deal = KlaverjasDeal(rules, rng.choice(KLAVERJAS_SEATS), deck)
        while deal.trump is None:
            deal.apply(rng.choice(deal.legal_actions()))
        yield deal


DEALS: dict[str, Callable[[str, random.Random], Iterator[Any]]] = {
    "klaberjass": klaberjass_deals,
    "klaverjas": klaverjas_deals,
}


def solve_figures(game: str, options: str, count: int, seed: str, native: bool | None = None) -> tuple[
    list[float], list[int], list[float]
]:
    """CPU seconds, nodes and wall seconds of a full-deal solve, per deal."""
    times, nodes, walls = [], [], []
    deals = DEALS[game](options, random.Random(f"{seed} {game} {options}"))
    for _ in range(count):
        deal = next(deals)
        solver = Solver(native)
        start, wall = time.process_time(), time.perf_counter()
        solver.solve(deal)
        times.append(time.process_time() - start)
        walls.append(time.perf_counter() - wall)
        nodes.append(solver.nodes)
    return times, nodes, walls


def analyse_figures(game: str, options: str, count: int, seed: str, native: bool | None = None) -> tuple[
    list[float], list[int], list[float]
]:
    """CPU seconds, nodes and wall seconds to value every legal card at every card play, per deal."""
    times, nodes, walls = [], [], []
    deals = DEALS[game](options, random.Random(f"{seed} analyse {game} {options}"))
    for _ in range(count):
        deal = next(deals)
        solver = Solver(native)
        spent, counted, waited = 0.0, 0, 0.0
        while not deal.is_over:
            legal = deal.legal_actions()
            start, wall = time.process_time(), time.perf_counter()
            values = solver.card_values(deal)
            spent += time.process_time() - start
            waited += time.perf_counter() - wall
            counted += solver.nodes
            best = max(values.values())
            # play on: a best card (with the engine's default action for it, bella claimed)
            action = next((a for a in legal if a.card is not None and values[a.card] == best), legal[0])
            deal.apply(action)
        times.append(spent)
        nodes.append(counted)
        walls.append(waited)
    return times, nodes, walls


def _summary(times: list[float], nodes: list[int], walls: list[float]) -> str:
    ordered = sorted(times)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return (f"CPU median {statistics.median(times) * 1000:8.1f} ms  p90 {p90 * 1000:8.1f} ms  "
            f"max {ordered[-1] * 1000:8.1f} ms  (wall median {statistics.median(walls) * 1000:8.1f} ms)  "
            f"nodes median {statistics.median(nodes):>10,.0f}  max {max(nodes):>11,}")


def main(argv: list[str] | None = None) -> int:
    """Print the figures; exit 0 (figures are informative, not a test)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100, help="deals per full-deal figure (default 100)")
    parser.add_argument("--analyse", type=int, default=10, help="deals per analyse figure (0: skip)")
    parser.add_argument("--game", choices=sorted(DEALS), action="append", help="only this game (repeatable)")
    parser.add_argument("--options", action="append", help="only this option set (repeatable)")
    parser.add_argument("--seed", default="solver benchmark", help="random seed")
    parser.add_argument("--python", action="store_true", help="the pure-Python search cores, not C")
    args = parser.parse_args(argv)
    native = False if args.python else None
    for game in args.game or sorted(DEALS):
        solve_target, analyse_target = TARGETS[game]
        for options in args.options or OPTION_SETS[game]:
            label = f"{game} {options or 'defaults'}" + (" [python]" if args.python else "")
            if args.deals:
                figures = solve_figures(game, options, args.deals, args.seed, native)
                print(f"{label:<62} solve   ({len(figures[0])} deals) {_summary(*figures)}"
                      f"  target median {solve_target * 1000:.0f} ms", flush=True)
            if args.analyse:
                figures = analyse_figures(game, options, args.analyse, args.seed, native)
                print(f"{label:<62} analyse ({len(figures[0])} deals) {_summary(*figures)}"
                      f"  target {analyse_target:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
