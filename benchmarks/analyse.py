"""How long ``klabsite analyse`` takes a deal, and how fast ``simulate --find`` tries seeds.

    python benchmarks/analyse.py [--deals 20] [--bots heuristic] [--find-seconds 20]

Analysis: CPU time (``time.process_time``) of :func:`klabsite.solver.annotate.analyse_record` on
one-deal records simulated with ``--bots`` (one solver per deal, every card play with a choice),
as median, 90th percentile and maximum per game; targets 0.2 s a Klaberjass deal, 10 s a
Klaverjas one. Finding: seeds tried per second (wall clock) and deals found for a few ``--find``
words, one process, for about ``--find-seconds`` each.
"""

from __future__ import annotations

import argparse
import statistics
import time

from klabsite.commands.find import FindSpec, Slot, search_range
from klabsite.commands.simulation import simulate
from klabsite.engine.games import get_game
from klabsite.solver.annotate import analyse_record

TARGETS = {"klaberjass": 0.2, "klaverjas": 10.0}
FINDS = [("klaverjas", "pit"), ("klaberjass", "dix,sequence-duel"), ("klaverjas", "roem-200"),
         ("klaberjass", "capot")]


def analyse_times(game: str, deals: int, bots: str) -> list[float]:
    """CPU seconds to analyse each of ``deals`` simulated one-deal records."""
    times = []
    for number in range(deals):
        record = simulate(game, f"bench-{number}", deals=1, bot_names=[bots] * len(get_game(game).seats))
        began = time.process_time()
        _, errors = analyse_record(record)
        times.append(time.process_time() - began)
        assert not errors
    return times


def find_rate(game: str, words: str, bots: str, seconds: float) -> tuple[int, int, float]:
    """Seeds tried, deals found and wall seconds for about ``seconds`` of ``--find words``."""
    names = tuple([bots] * len(get_game(game).seats))
    spec = FindSpec(game, "deals=1000", names, tuple(words.split(",")), "bench")
    tried = found = 0
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        count, hit, _ = search_range(spec, tried + 1, tried + 2, Slot("S"))
        tried += count
        found += hit is not None
    return tried, found, time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--bots", default="heuristic")
    parser.add_argument("--find-seconds", type=float, default=20.0)
    args = parser.parse_args()
    for game, target in TARGETS.items():
        times = sorted(analyse_times(game, args.deals, args.bots))
        p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
        median = statistics.median(times)
        print(f"analyse {game:10} ({len(times)} deals, {args.bots}): CPU median {median:.3f} s  "
              f"p90 {p90:.3f} s  max {times[-1]:.3f} s  (target {target} s)")
    for game, words in FINDS:
        tried, found, seconds = find_rate(game, words, args.bots, args.find_seconds)
        print(f"find {game:10} {words:20} {args.bots}: {tried} seeds in {seconds:.1f} s = "
              f"{tried / seconds:.1f} seeds/s, {found} found")


if __name__ == "__main__":
    main()
