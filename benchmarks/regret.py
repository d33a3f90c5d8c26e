"""Where a Klaverjas bot loses double-dummy value: the regret of its cards in the true deal.

    python benchmarks/regret.py [--bot search] [--against heuristic] [--decks 1-30] [--seed strength]
                                [--shadow heuristic]

The decks and dealers are those of ``strength.py``; each deck is played twice, the bot on N–S and
then on E–W, against the other bot. At every card the bot plays with more than one legal card, the
solver values every legal card in the true deal (all hands as dealt): the card's *regret* is the
best card's value minus the value of the card played, for the bot's side. It prints, per trick
and per place in the trick (1: the lead), the mean regret of the bot's cards and how many there
were, then the same split by whether the bot's side chose trump. Regret is measured against a
player who sees every card, so some of it cannot be avoided; compare bots (``--bot`` may name a
variant of ``search_variants.py``, such as the yardstick ``search-knows-partner``).

``--shadow BOT`` asks that bot too, at each of the bot's choices, which card it would play there
(its answer is not played), and prints the same tables for those cards: which of the two plays
better in the same positions.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import search_variants  # noqa: E402

from klabsite.bots import BOTS, get_bot  # noqa: E402
from klabsite.bots.inference import infer_klaverjas  # noqa: E402
from klabsite.bots.search_positions import klaverjas_world  # noqa: E402
from klabsite.engine.cards import mask_of  # noqa: E402
from klabsite.engine.klaverjas import KlaverjasDeal, KlaverjasPhase, KlaverjasRules, deal_hands  # noqa: E402
from klabsite.engine.seats import CLOCKWISE, Side  # noqa: E402
from klabsite.records.decks import deck_from_seed  # noqa: E402
from klabsite.solver.klaverjas import KlaverjasSolver  # noqa: E402

Key = tuple[int, int, bool]
"""(trick, place in the trick, the bot's side chose trump)."""


def regrets(bot_name: str, against: str, seed: str, number: int,
            shadow_name: str | None = None) -> list[tuple[Key, int, int | None]]:
    """The regret of each of the bot's card choices on deck ``number``, both seatings, and that of
    the card the ``shadow_name`` bot would have played there (``None`` without one)."""
    deck = deck_from_seed(seed, number)
    dealer = CLOCKWISE[number % 4]
    search_variants._PLAYING[:] = [deck]  # where the yardsticks (search-knows-partner) read the deal
    bot, other = get_bot(bot_name), get_bot(against)
    shadow = get_bot(shadow_name) if shadow_name else None
    solver = KlaverjasSolver()
    out = []
    for half, side in enumerate((Side.NS, Side.EW)):
        deal = KlaverjasDeal(KlaverjasRules(), dealer, deck)
        dealt = deal_hands(dealer, deck)
        rng = random.Random(f"regret {seed} {number} {half}")
        while not deal.is_over:
            seat, legal = deal.to_act, deal.legal_actions()
            view = deal.view_for(seat)
            ours = seat.side is side
            action = (bot if ours else other).choose(view, legal, rng)
            if ours and deal.phase is KlaverjasPhase.PLAY and len(legal) > 1:
                knowledge = infer_klaverjas(view)
                truth = {place: mask_of(dealt[place]) & ~knowledge.played[place]
                         for place in knowledge.places}
                values = solver.card_values(klaverjas_world(view, knowledge, truth))
                assert action.card is not None
                key = (len(view.tricks), len(view.trick) + 1, view.playing is side)
                best = max(values.values())
                shadowed = None
                if shadow is not None:
                    card = shadow.choose(view, legal, random.Random(f"shadow {seed} {number} {half}")).card
                    assert card is not None
                    shadowed = best - values[card]
                out.append((key, best - values[action.card], shadowed))
            deal.apply(action)
    return out


def table_lines(title: str, table: dict[Key, list[int]], deals: int) -> list[str]:
    """The printed tables of one bot's regrets, ``deals`` deals played."""
    total = sum(sum(values) for values in table.values())
    lines = [f"{title}: {total / deals:.1f} points of regret a deal",
             "trick  " + "  ".join(f"place {place}     " for place in range(1, 5))]
    for trick in range(7):
        cells = []
        for place in range(1, 5):
            values = [v for (t, p, _), vs in table.items() if (t, p) == (trick, place) for v in vs]
            cells.append(f"{sum(values) / max(len(values), 1):5.1f} ({len(values):3d})")
        lines.append(f"{trick + 1:5}  " + "  ".join(cells))
    for playing in (True, False):
        values = [v for (_, _, p), vs in table.items() if p is playing for v in vs]
        leads = [v for (_, place, p), vs in table.items() if p is playing and place == 1 for v in vs]
        lines.append(f"{'chose trump' if playing else 'defended':11}: {sum(values) / deals:5.1f} a deal, "
                     f"of which leads {sum(leads) / deals:5.1f} ({len(leads)} leads)")
    return lines


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", default="search")
    parser.add_argument("--against", default="heuristic")
    parser.add_argument("--decks", default="1-30", help="FIRST-LAST")
    parser.add_argument("--seed", default="strength")
    parser.add_argument("--shadow", help="a bot asked for its card at each of the bot's choices")
    args = parser.parse_args(argv)
    BOTS.update(search_variants.VARIANTS)
    first, last = (int(part) for part in args.decks.split("-"))
    table: dict[Key, list[int]] = defaultdict(list)
    shadowed: dict[Key, list[int]] = defaultdict(list)
    for number in range(first, last + 1):
        for key, regret, shadow in regrets(args.bot, args.against, args.seed, number, args.shadow):
            table[key].append(regret)
            if shadow is not None:
                shadowed[key].append(shadow)
    deals = 2 * (last - first + 1)
    title = f"{args.bot} vs {args.against}, decks {first}-{last}"
    print("\n".join(table_lines(title, table, deals)))
    if args.shadow:
        print("\n".join(table_lines(f"{args.shadow}'s cards in the same positions", shadowed, deals)))


if __name__ == "__main__":
    main()
