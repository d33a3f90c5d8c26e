"""``klabsite check FILE… [--json] [--no-dd]``: replay every deal of each record through the rules engine.

As ``docs/record-format.md`` ("Checking a record") asks:

- a valid file: one line per deal on standard output (or, with ``--json``, the file's JSON
  object on one line: several files give one object per line, JSON Lines);
- an invalid file: ``FILE:LINE: message`` on standard error for the first error in each deal
  (or the one error that makes the whole file unreadable), and nothing on standard output.

Every ``dd`` annotation is checked against the position: it names exactly the cards that were
legal there, the played one among them, each with a whole-number value, highest value first, then
deck order, and its values are worked out again with the double-dummy solver: the first annotation
of each deal that disagrees is reported, as record-format.md asks of ``klabsite check`` for any
mismatch. That takes a few milliseconds a Klaberjass deal and up to a second or two a Klaverjas
one; ``--no-dd`` leaves the values unchecked, for a quick look at a large file. ``--dd``, which
asked for the values before they were checked by default, is still accepted.

A file is read line by line, never whole, and a line longer than
:data:`klabsite.records.klab.MAX_LINE` is refused unread, so any input (``/dev/zero`` included)
costs little memory and returns promptly.

Exit status: 0 every file valid; 1 some file invalid; 2 usage error or a file that cannot be
read (missing, unreadable); 3 an internal error (a klabsite bug, reported without traceback).
The highest status applies. ``-`` reads standard input.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from typing import Any, BinaryIO, TextIO

from klabsite.commands.help import add_command, argument_error, examples
from klabsite.engine.text import printable
from klabsite.files import EXIT_BUG, internal_error
from klabsite.records.klab import RecordError, format_scores, parse_record
from klabsite.records.replay import MatchReplay, describe_deal, replay
from klabsite.solver.annotate import verify_dd

__all__ = ["register", "run", "check_bytes"]

EXIT_OK, EXIT_INVALID, EXIT_UNREADABLE = 0, 1, 2

DESCRIPTION = """\
Check .klab deal records: every deal is played again, card by card, through the
rules, and every score is worked out. A valid file gets one line per deal and
one for the match; a file with mistakes gets, for each deal, its first mistake
as FILE:LINE: message, naming the rule broken.

A {dd …} annotation (the solver's analysis of a card play, written by klabsite
analyse) must list exactly the cards that could be played there, best first,
with the values the solver works out again; --no-dd skips that last check,
which is quicker on a large file."""

EPILOG = examples(
    "klabsite check game.klab",
    "klabsite check *.klab",
    "klabsite check --json game.klab",
    "klabsite check --no-dd big-analysed-file.klab",
    "klabsite simulate --game klaverjas --seed 7 --deals 3 | klabsite check -",
) + """

Exit status: 0 valid, 1 a file has mistakes, 2 usage error or a file that cannot
be read."""


def register(subparsers: Any) -> None:
    """Add the ``check`` sub-command."""
    parser = add_command(subparsers, "check", help="check .klab records by replaying every deal",
                         description=DESCRIPTION, epilog=EPILOG)
    parser.add_argument("files", nargs="+", metavar="FILE", help="a .klab record (- for standard input)")
    parser.add_argument("--json", action="store_true",
                        help="print each file's deals and scores as one line of JSON")
    parser.add_argument("--no-dd", dest="dd", action="store_false",
                        help="do not work out the values of the dd annotations again (quicker)")
    parser.add_argument("--dd", dest="dd", action="store_true", help=argparse.SUPPRESS)
    parser.set_defaults(func=run)


def check_bytes(data: bytes | str | BinaryIO) -> tuple[MatchReplay | None, list[RecordError]]:
    """Read and replay one record (its text, bytes or a binary file read line by line);
    the replay (``None`` if unreadable) and its errors."""
    try:
        record = parse_record(data)
    except RecordError as error:
        return None, [error]
    result = replay(record)
    return result, result.errors


def _summary(path: str, result: MatchReplay) -> list[str]:
    keys = result.game.score_keys
    lines = [f"{path}: {describe_deal(deal)}" for deal in result.deals]
    totals = format_scores(result.score.totals, keys)
    if result.score.over:
        ending = f"{result.score.winner} wins, {totals}" if result.score.winner else f"drawn, {totals}"
    else:
        count = len(result.deals)
        ending = f"unfinished after {count} deal{'s' if count != 1 else ''}, {totals}"
    lines.append(f"{path}: {result.game.name} match {result.record.match_id()}: {ending}")
    return lines


def _no_deals(result: MatchReplay) -> RecordError:
    """record-format.md: a record holds one or more deals (a score sheet just begun holds none yet,
    and ``klabsite score`` reads it; ``check`` says it is not yet a record)."""
    record = result.record
    line = record.tag_lines.get("Game", record.header_line)
    return RecordError('no deals: a record holds one or more deals, each from its [Deal "n"] tag '
                       "(klabsite score FILE add … adds one to a score sheet)", line)


def check_file(path: str, as_json: bool, out: TextIO, err: TextIO, dd: bool = True) -> int:
    """Check one file, printing to ``out``/``err``; its exit status. ``dd``: recompute the values
    of its ``dd`` annotations too."""
    try:
        with contextlib.ExitStack() as stack:
            file = sys.stdin.buffer if path == "-" else stack.enter_context(open(path, "rb"))
            result, errors = check_bytes(file)
        if result is not None and not errors and not result.deals:
            errors = [_no_deals(result)]
        if dd and result is not None and not errors:
            errors = verify_dd(result)
    except IsADirectoryError:
        print(f"klabsite check: {printable(path)} is a folder: give its .klab files "
              f"(klabsite check {printable(path)}/*.klab)", file=err)
        return EXIT_UNREADABLE
    except OSError as problem:
        print(f"klabsite check: cannot read {printable(path)}: {problem.strerror or problem}", file=err)
        return EXIT_UNREADABLE
    except Exception as bug:  # noqa: BLE001 - a bug must not print a traceback
        print(internal_error(path, bug), file=err)
        return EXIT_BUG
    if errors or result is None:
        for record_error in errors:
            print(record_error.located(printable(path)), file=err)
        return EXIT_INVALID
    if as_json:
        print(json.dumps(result.to_json(), ensure_ascii=False), file=out)
    else:
        for line in _summary(printable(path), result):
            print(line, file=out)
    return EXIT_OK


def run(args: argparse.Namespace) -> int:
    """Check every file named; the highest exit status."""
    wrong = argument_error("klabsite check", {}, {"FILE": args.files})
    if wrong is not None:
        print(wrong, file=sys.stderr)
        return EXIT_UNREADABLE
    if args.files.count("-") > 1:
        print("klabsite check: - (standard input) is given twice: it can be read once", file=sys.stderr)
        return EXIT_UNREADABLE
    status = EXIT_OK
    for path in args.files:
        status = max(status, check_file(path, args.json, sys.stdout, sys.stderr, dd=args.dd))
    return status
