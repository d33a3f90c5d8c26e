"""Playing strength of the bots: duplicate deals, mean points per deal with standard error.

    python benchmarks/strength.py [--games klaberjass,klaverjas] [--pair heuristic,random ...]
                                  [--deals 200] [--target-se 3] [--max-deals 20000]
                                  [--seed strength] [--rules-klaberjass ""] [--rules-klaverjas ""]
                                  [--jobs 1] [--progress]

Every deck (:func:`klabsite.records.decks.deck_from_seed` of the seed and the deal number) is played
twice with the same dealer: once with the first bot of the pair at N (Klaberjass) or N and S
(Klaverjas), once with the seats swapped, so that each side of the table plays both hands. The
figure for a deck is the mean, over its two plays, of the awarded score of the first bot's seat
or side minus the second's (a thrown-in or redealt deal scores 0 for both); the standard error
is that of the per-deck figures. Decks are added until at least ``--deals`` are played and the
standard error is at most ``--target-se``, or ``--max-deals`` is reached.

Deals are played through the engines' public API exactly as ``klabsite simulate`` plays them
(``legal_actions()``, ``view_for(seat)``, ``bot.choose(view, legal, rng)``, ``apply()``); each
play has its own generator derived from the seed, the deal number and the half. The CPU time
(``time.process_time``) of every ``choose`` call is summed per bot: seconds per move.

``--jobs J`` plays the decks in J processes; the decks, their figures and the stopping point are
those of one process (results are taken in deck order and the stopping rule is applied to them
alone). ``--progress`` prints the running figure to standard error every 50 decks.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import multiprocessing
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from klabsite.bots import Bot, get_bot
from klabsite.engine.actions import Action
from klabsite.engine.cards import SUITS
from klabsite.engine.games import Game, get_game
from klabsite.engine.seats import Seat, Side
from klabsite.records.decks import deck_from_seed


@dataclass
class Clock:
    """CPU seconds and moves, per bot name."""

    seconds: dict[str, float] = field(default_factory=dict)
    moves: dict[str, int] = field(default_factory=dict)

    def per_move(self, name: str) -> float:
        """Mean CPU seconds per move of ``name``."""
        return self.seconds.get(name, 0.0) / max(self.moves.get(name, 0), 1)

    def total(self) -> float:
        """CPU seconds of every bot."""
        return sum(self.seconds.values())


class Timed:
    """A bot whose ``choose`` calls are timed (CPU time) into a :class:`Clock`."""

    def __init__(self, name: str, bot: Bot, clock: Clock) -> None:
        self.name, self.bot, self.clock = name, bot, clock

    def choose(self, view: Any, legal: Sequence[Action], rng: random.Random) -> Action:
        start = time.process_time()
        action = self.bot.choose(view, legal, rng)
        self.clock.seconds[self.name] = self.clock.seconds.get(self.name, 0.0) + time.process_time() - start
        self.clock.moves[self.name] = self.clock.moves.get(self.name, 0) + 1
        return action


def _rng(seed: str, *parts: object) -> random.Random:
    digest = hashlib.sha256(":".join(map(str, ("klabsite strength", seed, *parts))).encode()).digest()
    return random.Random(int.from_bytes(digest, "big"))


def play(game: Game, rules: Any, dealer: Seat, deck: Any, extra: dict[str, Any],
         bots: dict[Seat, Timed], rng: random.Random) -> Any:
    """One deal from the deck to the score, as ``klabsite simulate`` plays it; the deal's result
    (its awarded ``score``, its ``trump`` …)."""
    deal = game.deal_class(rules, dealer, deck, **extra)
    while not deal.is_over:
        seat = deal.to_act
        legal = deal.legal_actions()
        deal.apply(bots[seat].choose(deal.view_for(seat), legal, rng))
    return deal.result


def duplicate(game: Game, rules: Any, seed: str, number: int, first: Timed, second: Timed,
              results: list[Any] | None = None) -> float:
    """The mean, over both seatings, of the first bot's score minus the second's on deck ``number``;
    the two deals' results are added to ``results`` (the first bot at N, or N and S, first)."""
    seats = game.seat_list
    deck = deck_from_seed(seed, number)
    dealer = seats[number % len(seats)]
    extra: dict[str, Any] = {}
    if game.name == "klaverjas" and rules.trump_choice == "turned":
        extra["proposed"] = SUITS[_rng(seed, number, "proposed").randrange(4)]
    total = 0
    for half in (0, 1):
        if game.name == "klaberjass":
            mine = (Seat.N, Seat.S)[half]
            bots = {seat: first if seat is mine else second for seat in seats}
            result = play(game, rules, dealer, deck, extra, bots, _rng(seed, number, half))
            score = result.score
            total += score[str(mine)] - score[str(Seat.S if mine is Seat.N else Seat.N)]
        else:
            side = (Side.NS, Side.EW)[half]
            bots = {seat: first if seat.side is side else second for seat in seats}
            result = play(game, rules, dealer, deck, extra, bots, _rng(seed, number, half))
            score = result.score
            total += score[str(side)] - score[str(side.other)]
        if results is not None:
            results.append(result)
    return total / 2


@dataclass
class Figure:
    """The result of one pairing in one game."""

    game: str
    pair: tuple[str, str]
    values: list[float]
    clock: Clock

    @property
    def mean(self) -> float:
        return sum(self.values) / len(self.values)

    @property
    def se(self) -> float:
        n = len(self.values)
        if n < 2:
            return math.inf
        mean = self.mean
        return math.sqrt(sum((v - mean) ** 2 for v in self.values) / (n - 1) / n)

    def line(self) -> str:
        a, b = self.pair
        b_clock = b + "'" if a == b else b  # the second of two equal bots is timed apart
        return (f"{self.game:10} {a} vs {b}: {self.mean:+7.1f} ± {self.se:4.1f} points/deal over "
                f"{len(self.values)} duplicate decks ({2 * len(self.values)} deals); CPU s/move "
                f"{a} {self.clock.per_move(a):.2e}, {b} {self.clock.per_move(b_clock):.2e}")


class Duplicates:
    """Plays duplicate decks of one pairing; one per process under ``--jobs``."""

    def __init__(self, game_name: str, rules_text: str, pair: tuple[str, str], seed: str) -> None:
        self.game = get_game(game_name)
        self.rules = self.game.parse_rules(rules_text)
        self.seed = seed
        self.clock = Clock()
        self.first, self.second = (Timed(name, get_bot(name), self.clock) for name in pair)
        if pair[0] == pair[1]:
            self.second = Timed(pair[1] + "'", get_bot(pair[1]), self.clock)

    def deck(self, number: int) -> tuple[float, Clock]:
        """Deck ``number``'s figure and the CPU time it took, per bot."""
        self.clock.seconds.clear()
        self.clock.moves.clear()
        value = duplicate(self.game, self.rules, self.seed, number, self.first, self.second)
        return value, Clock(dict(self.clock.seconds), dict(self.clock.moves))


_WORKER: Duplicates | None = None


def _start_worker(*arguments: Any) -> None:
    global _WORKER
    _WORKER = Duplicates(*arguments)


def _worker_deck(number: int) -> tuple[float, Clock]:
    assert _WORKER is not None
    return _WORKER.deck(number)


def measure(game_name: str, rules_text: str, pair: tuple[str, str], seed: str, deals: int,
            target_se: float, max_deals: int, jobs: int = 1, progress: bool = False) -> Figure:
    """Duplicate decks until ``deals`` are played and the standard error is ``target_se`` or less."""
    arguments = (game_name, rules_text, pair, seed)
    figure = Figure(get_game(game_name).name, pair, [], Clock())
    numbers = range(1, max_deals + 1)
    pool = None
    if jobs > 1:
        pool = multiprocessing.get_context("fork").Pool(jobs, _start_worker, arguments)
        results = pool.imap(_worker_deck, numbers)
    else:
        results = map(Duplicates(*arguments).deck, numbers)
    try:
        for number, (value, clock) in enumerate(results, start=1):
            figure.values.append(value)
            for name, seconds in clock.seconds.items():
                figure.clock.seconds[name] = figure.clock.seconds.get(name, 0.0) + seconds
                figure.clock.moves[name] = figure.clock.moves.get(name, 0) + clock.moves[name]
            if number % 50 == 0:
                if progress:
                    print(f"  {figure.line()}", file=sys.stderr, flush=True)
                if number >= deals and figure.se <= target_se:
                    break
    finally:
        if pool is not None:
            pool.terminate()
    return figure


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="klaberjass,klaverjas")
    parser.add_argument("--pair", action="append", help="two bot names, e.g. heuristic,random (repeatable)")
    parser.add_argument("--deals", type=int, default=200, help="at least this many duplicate decks")
    parser.add_argument("--target-se", type=float, default=3.0, help="stop once the standard error is this")
    parser.add_argument("--max-deals", type=int, default=20000, help="never more duplicate decks than this")
    parser.add_argument("--seed", default="strength")
    parser.add_argument("--rules-klaberjass", default="")
    parser.add_argument("--rules-klaverjas", default="")
    parser.add_argument("--jobs", type=int, default=1, help="play the decks in this many processes")
    parser.add_argument("--progress", action="store_true", help="the running figure every 50 decks")
    args = parser.parse_args(argv)
    for game, rules, pair in pairings(parser, args, "heuristic,random"):
        start = time.perf_counter()
        figure = measure(game, rules, pair, args.seed, args.deals, args.target_se, args.max_deals,
                         args.jobs, args.progress)
        print(figure.line() + f"; {figure.clock.total():.0f} CPU s of play, "
              f"{time.perf_counter() - start:.0f} s on the clock", flush=True)


def pairings(parser: argparse.ArgumentParser, args: argparse.Namespace,
             default: str) -> list[tuple[str, str, tuple[str, str]]]:
    """(game, rules text, pair) for every game of ``--games`` and pair of ``--pair`` (``default``
    when none is given); a pair that is not two names is the parser's error."""
    pairs = [tuple(p.split(",")) for p in (args.pair or [default])]
    for pair in pairs:
        if len(pair) != 2:
            parser.error(f"--pair takes two bot names, not {','.join(pair)!r}")
    return [(game, args.rules_klaberjass if game == "klaberjass" else args.rules_klaverjas,
             (pair[0], pair[1])) for game in args.games.split(",") for pair in pairs]


if __name__ == "__main__":
    main()
