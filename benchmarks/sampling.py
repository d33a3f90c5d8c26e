"""Speed of inference and sampling of the hidden cards, on positions of seeded heuristic deals.

    python benchmarks/sampling.py [--deals 200] [--samples 50]

For each game and stage of the deal (tricks completed), the CPU time (``time.process_time``)
of :func:`klabsite.bots.inference.infer` on the view of the seat to act, of building its
:class:`~klabsite.bots.sampling.Sampler`, and of drawing samples from it (samples per second).
"""

from __future__ import annotations

import argparse
import random
import time
from collections import defaultdict
from collections.abc import Sequence

from klabsite.bots import get_bot
from klabsite.bots.inference import infer
from klabsite.engine.cards import DECK
from klabsite.engine.klaberjass import KlaberjassDeal
from klabsite.engine.klaverjas import KlaverjasDeal
from klabsite.engine.options import KlaberjassRules, KlaverjasRules
from klabsite.engine.seats import Seat


def views(game: str, deals: int, rng: random.Random) -> list[tuple[int, object]]:
    """(tricks completed, view of the seat to act) at every card play of seeded heuristic deals."""
    bot = get_bot("heuristic")
    out = []
    for _ in range(deals):
        deck = list(DECK)
        rng.shuffle(deck)
        deal: KlaberjassDeal | KlaverjasDeal
        if game == "klaberjass":
            deal = KlaberjassDeal(KlaberjassRules(), rng.choice((Seat.N, Seat.S)), deck)
        else:
            deal = KlaverjasDeal(KlaverjasRules(), rng.choice(tuple(Seat)), deck)
        while not deal.is_over:
            view = deal.view_for(deal.to_act)
            if deal.trump is not None and view.legal and view.legal[0].card is not None:
                done = len(view.played) // 2 if game == "klaberjass" else len(view.tricks)
                out.append((done, view))
            deal.apply(bot.choose(view, deal.legal_actions(), rng))
    return out


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--samples", type=int, default=50, help="samples drawn per position")
    args = parser.parse_args(argv)
    rng = random.Random(1)
    for game in ("klaberjass", "klaverjas"):
        by_stage: dict[str, list[object]] = defaultdict(list)
        for done, view in views(game, args.deals, rng):
            stage = "trick 1" if done == 0 else "tricks 2-4" if done < 4 else "tricks 5+"
            by_stage[stage].append(view)
            by_stage["all"].append(view)
        for stage in ("trick 1", "tricks 2-4", "tricks 5+", "all"):
            positions = by_stage[stage]
            start = time.process_time()
            knowledge = [infer(view) for view in positions]  # type: ignore[arg-type]
            inferred = time.process_time()
            samplers = [k.sampler() for k in knowledge]
            built = time.process_time()
            for sampler in samplers:
                for _ in range(args.samples):
                    sampler.sample(rng)
            drawn = time.process_time()
            n = len(positions)
            print(f"{game:10} {stage:10} {n:6} positions: infer {1e6 * (inferred - start) / n:6.0f} µs, "
                  f"sampler {1e6 * (built - inferred) / n:6.0f} µs, "
                  f"{n * args.samples / (drawn - built):8.0f} samples/s", flush=True)


if __name__ == "__main__":
    main()
