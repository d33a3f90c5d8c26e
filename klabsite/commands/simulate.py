"""``klabsite simulate``: play seeded deals with bots and write them as a canonical ``.klab`` record.

The play itself is :mod:`klabsite.commands.simulation`; ``--find`` is :mod:`klabsite.commands.find`.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from collections.abc import Sequence
from typing import Any

from klabsite.bots import BOTS
from klabsite.commands.find import FIND_SEED, MAX_COUNT, find, seeds_fit
from klabsite.commands.help import EXIT_USAGE, add_command, argument_error, examples, whole
from klabsite.commands.simulation import SimulationError, seeded_rng, simulate
from klabsite.engine.match import MatchScore
from klabsite.engine.text import printable, shorten
from klabsite.files import check_writable, write_atomically, write_standard_output
from klabsite.records.klab import MAX_DEALS as MAX_RECORD_DEALS
from klabsite.records.klab import Record
from klabsite.records.tags import TAG_WORDS

__all__ = ["register", "run", "simulate", "seeded_rng", "wrote_line", "SimulationError"]


def _bot_names() -> str:
    """The bots of the registry, for the help: ``random``, ``random, search`` …"""
    return ", ".join(sorted(BOTS))


DESCRIPTION = """\
Play deals with computer players (bots) and write them as a .klab record that
klabsite check, the site and people can read. Everything random comes from the
seed: the same seed, game, rules and bots give the same record, byte for byte.
Each deal gets the tag words that say what makes it interesting (pit, dix, ...).

--deals N plays N deals (fewer if the match ends first); --match plays until
the match is over. --analyse adds the solver's analysis of every card play
(and so the tag blunder).

--find TAG,... looks for deals having all those tags: it plays seeds S-1, S-2,
S-3 ... (S from --seed, 1 when not given) until it has --count of them, and
writes them analysed and tagged as the deals of one match, its Source naming
each deal's seed.
--jobs J plays J seeds at a time in J processes, with the same result. Rare
tags take many deals: the heuristic bots are much faster than the search bot
(--bots heuristic). A progress line shows on a terminal."""


def _epilog() -> str:
    bot = sorted(BOTS)[0]
    return examples(
        "klabsite simulate --game klaberjass --seed 7 --deals 3",
        "klabsite simulate --game klaverjas --seed club-night --match --out night.klab",
        f"klabsite simulate --game klaverjas --seed 1 --match --bots {bot}",
        'klabsite simulate --game klaverjas --seed 2 --deals 8 --rules "trick-rules=rotterdam"',
        "klabsite simulate --game klaberjass --seed 3 --deals 5 --analyse",
        "klabsite simulate --game klaverjas --seed x --find pit --count 2 --out pits.klab",
        "klabsite simulate --game klaberjass --seed x --find dix,sequence-duel --bots search,heuristic "
        "--jobs 2",
    ) + "\n\n" + textwrap.fill(f"Tag words: {', '.join(TAG_WORDS)}.", 80)


def register(subparsers: Any) -> None:
    """Add the ``simulate`` sub-command."""
    parser = add_command(subparsers, "simulate", help="play seeded deals with bots and write a .klab record",
                         description=DESCRIPTION, epilog=_epilog())
    parser.add_argument("--game", required=True, choices=["klaberjass", "klaverjas"],
                        help="klaberjass (two players) or klaverjas (four players)")
    parser.add_argument("--seed", help=f"a word, no blanks or commas; the same seed gives the same record "
                                       f"(needed with --deals and --match; with --find, {FIND_SEED!r} when "
                                       "not given)")
    amount = parser.add_mutually_exclusive_group(required=True)
    amount.add_argument("--deals", type=whole, metavar="N", help=f"play N deals (1 to {MAX_RECORD_DEALS})")
    amount.add_argument("--match", action="store_true", help="play until the match is over")
    amount.add_argument("--find", metavar="TAG,…", help="look for deals having all these tag words")
    parser.add_argument("--rules", default="", help='rules that differ from the usual ones, e.g. '
                                                     '"trick-rules=rotterdam target=1000"')
    parser.add_argument("--players", default="", help='the players\' names, e.g. "N:Anna S:Ben"')
    parser.add_argument("--bots", metavar="BOT,…",
                        help=f"one bot for every seat, or one per seat, comma separated, in seat order; "
                             f"bots: {_bot_names()} (default: random everywhere)")
    parser.add_argument("--out", metavar="FILE",
                        help="write the record to FILE (default, or -: standard output)")
    parser.add_argument("--analyse", action="store_true",
                        help="add the solver's analysis of every card play (--find always does)")
    parser.add_argument("--count", type=whole, metavar="N",
                        help=f"with --find: how many deals to find (default 1, at most {MAX_COUNT})")
    parser.add_argument("--jobs", type=whole, metavar="J",
                        help="with --find: processes to search with (default 1)")
    parser.set_defaults(func=run)


def _result_text(record: Record, played: Sequence[Any]) -> str:
    """``N wins 551–481`` (or ``drawn 500–500``) once the match is over, else ``""``."""
    keys = record.game.score_keys
    match = MatchScore(record.rules, keys)
    for deal in played:
        match.add(deal.result.score, counted=deal.result.counted)
    if not match.over:
        return ""
    totals = match.totals
    if match.winner is None:
        return f"drawn {totals[keys[0]]}–{totals[keys[1]]}"
    other = next(key for key in keys if key != match.winner)
    return f"{match.winner} wins {totals[match.winner]}–{totals[other]}"


def wrote_line(record: Record, played: Sequence[Any], out: str) -> str:
    """What ``--out`` says it wrote: ``wrote 14 deals to m.klab: N wins 551–481``.

    ``played`` are the engine's deals of the record (from :func:`simulate`).
    """
    count = len(record.deals)
    result = _result_text(record, played)
    line = f"wrote {count} deal{'s' if count != 1 else ''} to {printable(out)}"
    return f"{line}: {result}" if result else line


def _options_error(args: argparse.Namespace) -> str | None:
    wrong = argument_error("klabsite simulate", {"--seed": args.seed, "--rules": args.rules,
                                                 "--players": args.players, "--bots": args.bots,
                                                 "--find": args.find}, {"--out": args.out})
    if wrong is not None:
        return wrong
    if args.bots is not None and not all(args.bots.split(",")):
        every = "search,heuristic,search,heuristic" if args.game == "klaverjas" else "search,heuristic"
        return (f"klabsite simulate: --bots has an empty name: give one bot for all seats or one for "
                f"every seat, e.g. --bots search or --bots {every}")
    if args.deals is not None and not 1 <= args.deals <= MAX_RECORD_DEALS:
        return f"klabsite simulate: --deals takes a number from 1 to {MAX_RECORD_DEALS}"
    if args.find is None and args.seed is None:
        return "klabsite simulate: --seed is needed with --deals and --match, e.g. --seed 1"
    if args.find is None:
        given = [flag for flag, value in (("--count", args.count), ("--jobs", args.jobs))
                 if value is not None]
        if given:
            return f"klabsite simulate: {given[0]} goes with --find"
    elif not seeds_fit(args.seed or FIND_SEED, args.count or 1):
        return (f"klabsite simulate: --count {args.count} deals found from this seed would make the record's "
                "Source line, which names each deal's seed, longer than a .klab line may be: use a shorter "
                "seed (a character outside plain ASCII takes 2 to 4 bytes) or fewer deals")
    return None


def _simulate(args: argparse.Namespace, bots: list[str]) -> tuple[Record, str, list[str]]:
    """The record, the line ``--out`` prints, and notes for the user."""
    if args.find is not None:
        seed = FIND_SEED if args.seed is None else args.seed
        record, tried = find(args.game, seed, args.find, count=1 if args.count is None else args.count,
                             rules=args.rules, players=args.players, bot_names=bots,
                             jobs=1 if args.jobs is None else args.jobs)
        count = len(record.deals)
        return record, (f"wrote {count} deal{'s' if count != 1 else ''} to {printable(args.out or '')}: "
                        f"found in {tried:,} seed{'s' if tried != 1 else ''}"), []
    notes: list[str] = []
    played: list[Any] = []
    record = simulate(args.game, args.seed, deals=None if args.match else args.deals, rules=args.rules,
                      players=args.players, bot_names=bots, notes=notes, played=played, analyse=args.analyse)
    return record, wrote_line(record, played, args.out or ""), notes


def run(args: argparse.Namespace) -> int:
    """Simulate and write the record; 0, or 2 for options that cannot be used or a file not writable."""
    wrong = _options_error(args)
    if wrong is not None:
        print(wrong, file=sys.stderr)
        return EXIT_USAGE
    if args.out == "-":
        args.out = None  # as FILE - reads standard input elsewhere
    if args.out:
        try:
            check_writable(args.out)  # before the play, which may take minutes
        except OSError as error:
            print(f"{printable(args.out)}: cannot write the record: {error.strerror or error}",
                  file=sys.stderr)
            return EXIT_USAGE
    try:
        record, wrote, notes = _simulate(args, args.bots.split(",") if args.bots is not None else [])
    except ValueError as error:
        print(f"klabsite simulate: {shorten(str(error), 400)}", file=sys.stderr)
        return EXIT_USAGE
    for note in notes:
        print(f"klabsite simulate: note: {note}", file=sys.stderr)
    text = record.to_text()
    if args.out:
        try:
            write_atomically(args.out, text.encode("utf-8"))
        except OSError as error:
            print(f"{printable(args.out)}: cannot write the record: {error.strerror or error}",
                  file=sys.stderr)
            return EXIT_USAGE
        print(wrote)
    else:
        try:
            write_standard_output(text)
        except OSError as error:
            print(f"klabsite simulate: cannot write the record to standard output: {error.strerror or error}",
                  file=sys.stderr)
            return EXIT_USAGE
    return 0
