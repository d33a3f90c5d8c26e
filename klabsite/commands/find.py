"""``klabsite simulate --find TAG[,TAG…] --count N``: search seeds for deals that have those tags.

The seeds: from ``--seed S`` the candidates are ``S-1``, ``S-2``, ``S-3`` … in order (``S`` is
any word :func:`~klabsite.commands.simulation.check_seed` takes; without ``--seed``, it is
:data:`FIND_SEED`). Each candidate is one deal, played like the first deal of ``klabsite
simulate --seed S-n`` (its deck, and a generator that first draws the seed's own dealer, then the
proposed suit and every bot decision), except that its dealer and the hanging points it starts
with are those of its place in the record being built.

The record: the deals found, in the order found, as the deals of one match, so that it is a valid
record: deal 1 is dealt by the dealer ``seeded_rng(S)`` draws, and each later deal follows the
rotation (and receives the hanging points) after the one before; the record's rules are
``--rules`` with ``deals=N``, a match of exactly the N deals found (``--rules`` may not give a
``target`` or ``deals`` of its own, which would end the match elsewhere). A Klaberjass deal
thrown in does not count toward ``deals=N``, so N counts only the deals played; when the last
deal found is thrown in, the record has no ``deals=N`` and stops before the end of its match.
``Source`` names the seed of every deal: ``simulated seeds=S-4,S-19 find=pit bots=…``. Every deal
is analysed (``dd`` annotations) and tagged; its ``Tags`` hold all the words asked for (and any
others it has).

A candidate is given up as soon as a word asked for cannot become true
(:func:`klabsite.records.tags.ruled_out`: pit after the first trick the other side wins, dix
once play starts without one, roem-200 once a trick holds one to three jacks …); ``blunder``
needs the solver, so only candidates having every other word asked for are analysed.

``--jobs J`` spreads the seeds over J processes, each searching a contiguous range of seed
numbers; the ranges are read in order and the first deal found in them is taken, so the record
is the one ``--jobs 1`` writes, byte for byte.
"""

from __future__ import annotations

import multiprocessing
import sys
import time
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from dataclasses import dataclass, replace
from typing import Any, TextIO

from klabsite.commands.simulation import (
    SimulationError,
    bot_names_of,
    bots_for,
    check_seed,
    describe,
    first_dealer,
    record_deal,
    seeded_rng,
)
from klabsite.engine.games import Game, get_game
from klabsite.engine.seats import Seat
from klabsite.records.klab import DealRecord, Record, format_deal, read_record
from klabsite.records.replay import replay
from klabsite.records.tags import TAG_WORDS, deal_tags, ruled_out
from klabsite.solver.annotate import analyse_record

__all__ = ["FindSpec", "Found", "Progress", "find", "search_range", "wanted_words", "MAX_COUNT", "FIND_SEED"]

MAX_COUNT = 1000
"""The most deals one ``--find`` writes."""

SOURCE_ROOM = 60_000
"""Bytes the seeds of a ``--find`` record's ``Source`` line may take: the line must stay within the
64 KiB a ``.klab`` line holds. Each seed is the seed given, a dash, the candidate's number (at most
nine digits) and a comma."""


def seeds_fit(seed: str, count: int) -> bool:
    """Whether ``count`` found seeds made from ``seed`` fit in a ``Source`` line (:data:`SOURCE_ROOM`).

    >>> seeds_fit("club-night", 1000), seeds_fit("\U0001f600" * 40, 450)
    (True, False)
    """
    return count * (len(seed.encode("utf-8")) + 11) <= SOURCE_ROOM


FIND_SEED = "1"
"""The seed of ``--find`` when ``--seed`` is not given: the same search gives the same record."""

MAX_JOBS = 64
"""The most processes one ``--find`` starts (each more than the machine's cores only costs)."""

CHUNK_SECONDS = 0.5
"""About how long one range of seeds takes a process: long enough to be cheap to hand out, short
enough that little work is lost when a deal is found in an earlier range."""

_EXCLUSIVE: tuple[tuple[str, str], ...] = (
    ("maker-failed", "tie"), ("maker-failed", "hanging-points"), ("nat", "pit"),
    ("bella", "bella-declined"),
    ("pit", "last-trick-decides"),
    ("capot", "tie"), ("capot", "hanging-points"),
)
"""Words no deal has together. A deal has one result; one player holds the K and Q of trumps, and
claims bella or keeps quiet; after a pit the other side has no points, so the playing side makes
it with or without the last trick's 10; and a capot player's 162 card points and the sequences
and bella, all multiples of 10, never add up to equal totals (points hang only after a tie)."""
_WITH_THROWN_IN = {"schmeiss"}
"""The only word a thrown-in deal can have besides ``thrown-in`` (an accepted schmeiss)."""


def wanted_words(text: str, game: Game, rules: Any) -> tuple[str, ...]:
    """The tag words of ``--find`` (comma separated), in :data:`TAG_WORDS` order; a
    :class:`SimulationError` naming the known words for one that is not, and for words no deal of
    ``game`` under ``rules`` can have (together)."""
    words = [word.strip().lower() for word in text.split(",")]
    known = [word for word, games in TAG_WORDS.items() if game.name in games]
    if not any(words):
        raise SimulationError(f"--find takes tag words, comma separated: {', '.join(known)}")
    if not all(words):
        raise SimulationError(f"--find {text!r}: a word is missing between two commas; write words such as "
                              f"{','.join(known[:2])}")
    for word in words:
        if word not in TAG_WORDS:
            raise SimulationError(f"--find: unknown tag word {word!r}; {game.name} deals can have: "
                                  f"{', '.join(known)}")
        if word not in known:
            raise SimulationError(f"--find: {word} is a {TAG_WORDS[word][0]} word, no {game.name} deal has "
                                  "it; "
                                  f"{game.name} deals can have: {', '.join(known)}")
    chosen = set(words)
    for first, second in _EXCLUSIVE:
        if {first, second} <= chosen:
            raise SimulationError(f"--find: no deal is both {first} and {second}")
    if "thrown-in" in chosen and chosen - _WITH_THROWN_IN - {"thrown-in"}:
        other = sorted(chosen - _WITH_THROWN_IN - {"thrown-in"}, key=list(TAG_WORDS).index)[0]
        raise SimulationError(f"--find: a thrown-in deal is never {other}")
    if "thrown-in" in chosen and game.name == "klaverjas":
        raise SimulationError("--find: a Klaverjas deal is never thrown in (someone must name trump)")
    if "hanging-points" in chosen and getattr(rules, "equal_score", None) != "next-deal-winner":
        raise SimulationError('--find: points hang only with --rules "equal-score=next-deal-winner"')
    if "schmeiss" in chosen and getattr(rules, "schmeiss", None) != "on":
        raise SimulationError("--find: schmeiss=off: no deal has a schmeiss")
    return tuple(word for word in TAG_WORDS if word in chosen)


@dataclass(frozen=True)
class FindSpec:
    """What is searched for: the game, the record's rules (``Rules`` text), one bot name per
    seat, the words, and the base seed ``S`` of the candidates ``S-1``, ``S-2`` …"""

    game: str
    rules: str
    bots: tuple[str, ...]
    words: tuple[str, ...]
    seed: str

    def candidate(self, number: int) -> str:
        """The seed of candidate ``number`` (1, 2, …)."""
        return f"{self.seed}-{number}"


@dataclass(frozen=True)
class Slot:
    """The place in the record a candidate is played for: its dealer and the hanging points it
    starts with."""

    dealer: str
    hanging: int = 0


@dataclass(frozen=True)
class Found:
    """A deal that has every word: its candidate number, its canonical deal block (numbered 1,
    no ``Result``, ``Tags`` or annotations yet: text, so that it crosses processes as it is), and
    what the next deal of the record starts from."""

    number: int
    deal: str
    outcome: str
    hanging: int


def _stopper(game: str, words: Sequence[str]) -> Callable[[Any], bool]:
    needed = [word for word in words if word != "blunder"]
    return lambda deal: any(ruled_out(word, game, deal.events) for word in needed)


def try_candidate(spec: FindSpec, number: int, slot: Slot) -> Found | None:
    """Play candidate ``number`` in ``slot``: the deal if it has every word of ``spec``, else ``None``."""
    game = get_game(spec.game)
    seed = spec.candidate(number)
    rng = seeded_rng(seed)
    first_dealer(game, rng)  # the seed's own dealer draw, as in simulate: the same generator from here
    record = Record.new(game.name, spec.rules)
    deal = record_deal(record, seed, 1, Seat(slot.dealer), slot.hanging, bots_for(game, spec.bots), rng,
                       stop=_stopper(game.name, spec.words))
    if not deal.is_over:
        return None
    done = replay(record).deals[0]
    plain = [word for word in spec.words if word != "blunder"]
    if not set(plain) <= set(deal_tags(done, game.name)):
        return None
    if "blunder" in spec.words:
        analysed, errors = analyse_record(record)
        assert not errors, errors
        if "blunder" not in deal_tags(analysed.deals[0], game.name):
            return None
        record.deals[0].annotations = []  # the whole record is analysed once found
    return Found(number, format_deal(record.deals[0]), deal.result.outcome, deal.result.hanging)


def search_range(spec: FindSpec, start: int, stop: int, slot: Slot) -> tuple[int, Found | None, float]:
    """Try candidates ``start`` … ``stop - 1`` in ``slot`` up to the first that has every word:
    how many were tried, that deal (or ``None``), and the seconds it took. Runs in a worker."""
    began = time.perf_counter()
    for number in range(start, stop):
        found = try_candidate(spec, number, slot)
        if found is not None:
            return number - start + 1, found, time.perf_counter() - began
    return stop - start, None, time.perf_counter() - began


class _Inline(Executor):
    """Runs each task at once in this process (``--jobs 1``)."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        future.set_result(fn(*args, **kwargs))
        return future


class Progress:
    """The progress line on standard error (only when it is a terminal): seeds tried, deals found,
    the rate and the time elapsed, redrawn at most ten times a second."""

    def __init__(self, count: int, stream: TextIO | None = None, clock: Callable[[], float] = time.monotonic):
        self.stream = stream if stream is not None else sys.stderr
        self.shown = self.stream.isatty()
        self.count = count
        self.clock = clock
        self.start = clock()
        self.tried = 0
        self.found = 0
        self._drawn = -1.0

    def line(self, now: float) -> str:
        """``tried 1,234 seeds, found 1 of 2, 41.2 deals/s, 0:30`` at time ``now``."""
        elapsed = now - self.start
        rate = self.tried / elapsed if elapsed > 0 else 0.0
        minutes, seconds = divmod(int(elapsed), 60)
        seeds = "seed" if self.tried == 1 else "seeds"
        return (f"tried {self.tried:,} {seeds}, found {self.found} of {self.count}, {rate:,.1f} deals/s, "
                f"{minutes}:{seconds:02d}")

    def update(self, tried: int = 0, found: int = 0) -> None:
        """Count ``tried`` more candidates and ``found`` more deals; redraw if it is time."""
        self.tried += tried
        self.found += found
        now = self.clock()
        if self.shown and (found or now - self._drawn >= 0.1):
            self._drawn = now
            self.stream.write(f"\r{self.line(now)}\x1b[K")
            self.stream.flush()

    def close(self) -> None:
        """End the progress line."""
        if self.shown:
            self.stream.write(f"\r{self.line(self.clock())}\x1b[K\n")
            self.stream.flush()


def _executor(jobs: int) -> Executor:
    if jobs == 1:
        return _Inline()
    return ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn"))


def _next_found(pool: Executor, jobs: int, spec: FindSpec, slot: Slot, start: int,
                progress: Progress) -> Found:
    """The first candidate from ``start`` on that has every word in ``slot``."""
    ahead = 1 if jobs == 1 else 2 * jobs
    pending: deque[Future[tuple[int, Found | None, float]]] = deque()
    following, size = start, 1
    while True:
        while len(pending) < ahead:
            pending.append(pool.submit(search_range, spec, following, following + size, slot))
            following += size
        tried, found, seconds = pending.popleft().result()
        progress.update(tried, 1 if found else 0)
        if found is not None:
            for future in pending:
                future.cancel()
            return found
        size = max(1, min(10_000, round(CHUNK_SECONDS * tried / seconds) if seconds > 0 else 2 * size))


def find(game_name: str, seed: str, words: str, *, count: int = 1, rules: str = "", players: str = "",
         bot_names: Sequence[str] = (), jobs: int = 1,
         progress: Progress | None = None) -> tuple[Record, int]:
    """A record of the first ``count`` deals from the seeds ``seed-1``, ``seed-2`` … that have every
    tag word of ``words`` (comma separated), analysed and tagged; and how many seeds were tried.
    Raises :class:`SimulationError` for words or options that cannot be used."""
    check_seed(seed)
    game = get_game(game_name)
    if not 1 <= count <= MAX_COUNT:
        raise SimulationError(f"--count takes a number from 1 to {MAX_COUNT}")
    if not 1 <= jobs <= MAX_JOBS:
        raise SimulationError(f"--jobs takes a number of processes from 1 to {MAX_JOBS}")
    names = bot_names_of(game, bot_names)
    base = Record.new(game.name, rules).rules
    own = [name for name in ("target", "deals") if name in base.changed()]
    if own:
        raise SimulationError(f"--find writes a match of exactly --count deals: leave {own[0]} out of "
                              "--rules")
    rules_value = replace(base, deals=count)
    spec = FindSpec(game.name, rules_value.format(), tuple(names), wanted_words(words, game, base), seed)
    progress = progress if progress is not None else Progress(count)
    found: list[Found] = []
    slot = Slot(first_dealer(game, seeded_rng(seed)).value)
    start = 1
    pool = _executor(jobs)
    try:
        while len(found) < count:
            hit = _next_found(pool, jobs, spec, slot, start, progress)
            found.append(hit)
            start = hit.number + 1
            dealer = game.next_dealer(rules_value, Seat(slot.dealer), hit.outcome)
            slot = Slot(dealer.value, hit.hanging)
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
        progress.close()
    return _record(spec, players, found), progress.tried


def _match_of(spec: FindSpec, deals: Sequence[DealRecord], tags: dict[str, str]) -> Record:
    """The deals found as one match. Its ``deals=N`` counts what the rules count: a deal thrown in
    does not, so three deals found, two of them thrown in, are a match of one deal. When the last
    deal found is thrown in, no match of N deals ends there: the record keeps the game's own
    target, a match it stops before the end of (or, should a deal reach that target, ``deals=``
    the number found, as for a match where every deal counts)."""
    base = replace(Record.new(spec.game, spec.rules).rules, deals=None)  # the --rules given

    def match(rules: str) -> Record:
        record = Record.new(spec.game, rules, **tags)
        record.deals.extend(deals)
        record.renumber()
        return record

    found = match(spec.rules)
    replayed = replay(found).deals
    counted = sum(done.result is not None and done.result.counted for done in replayed)
    if counted == len(deals):
        return found
    last_counts = replayed[-1].result is not None and replayed[-1].result.counted
    shorter = match(replace(base, deals=counted).format() if last_counts else base.format())
    return shorter if replay(shorter).valid else found


def _record(spec: FindSpec, players: str, found: Sequence[Found]) -> Record:
    seeds = ",".join(spec.candidate(hit.number) for hit in found)
    tags = {"Source": f"simulated seeds={seeds} find={','.join(spec.words)} bots={','.join(spec.bots)}"}
    if players:
        tags["Players"] = players
    head = Record.new(spec.game, spec.rules).to_text()
    deals = [read_record(f"{head}\n{hit.deal}").deals[0] for hit in found]
    record = _match_of(spec, deals, tags)
    replayed = describe(record, analyse=True)
    for done in replayed.deals:
        missing = set(spec.words) - set(done.record.tags.get("Tags", "").split())
        assert not missing, f"deal {done.number} was found with {', '.join(spec.words)} but lacks {missing}"
    return record
