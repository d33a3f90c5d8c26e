"""``klabsite analyse FILE… [--in-place | --out FILE]``: write the solver's ``dd`` annotations.

Every card play with more than one legal card gets ``{dd CARD:VALUE …}``: each legal card with
its double-dummy value for the player to move, best first, then deck order
(docs/record-format.md, "Annotations"), from :meth:`klabsite.solver.Solver.card_values` with one
solver per deal. Existing ``dd`` annotations are replaced (a forced card loses its ``dd``);
everything else (tags, notes, unknown annotations) is kept, comments are dropped and the output
is canonical. Ids do not change: annotations are not part of them.

The analysis itself is :mod:`klabsite.solver.annotate`, which ``klabsite check`` and
``klabsite simulate --analyse`` / ``--find`` use too.

Exit status: 0 analysed; 1 a record with mistakes (``FILE:LINE: message``, as ``klabsite check``
prints them; that record is not written); 2 usage error, or a file that cannot be read or written; 3 an
internal error (a klabsite bug).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from pathlib import Path
from typing import Any, BinaryIO

from klabsite.commands.help import EXIT_USAGE, add_command, argument_error, examples
from klabsite.engine.text import printable
from klabsite.files import (
    EXIT_BUG,
    check_writable,
    internal_error,
    locked,
    write_atomically,
    write_standard_output,
)
from klabsite.records.klab import Record, RecordError, parse_record
from klabsite.solver.annotate import analyse_record, annotated_plays

__all__ = ["register", "run", "EXIT_INVALID"]

EXIT_INVALID = 1

DESCRIPTION = """\
Analyse .klab deal records with the double-dummy solver: every card play where
the player had a choice gets a {dd …} annotation listing each card he could
have played with its value (his side's final score minus the other side's if
everybody played perfectly from there, all hands visible), best first. A card's
cost is the best value minus its own. Older dd annotations are replaced; tags,
notes and other annotations are kept, and deal ids do not change.

The analysed record goes to standard output, to --out FILE, or back into each
file with --in-place. Klaberjass deals take a few milliseconds each, Klaverjas
deals up to a few seconds."""

EPILOG = examples(
    "klabsite analyse game.klab",
    "klabsite analyse game.klab --out game-analysed.klab",
    "klabsite analyse --in-place night.klab duel.klab",
    "klabsite simulate --game klaverjas --seed 7 --deals 2 | klabsite analyse -",
) + """

Exit status: 0 analysed, 1 a file has mistakes (that file is not written; with
--in-place, the others are), 2 usage error or a file that cannot be read or written."""


def register(subparsers: Any) -> None:
    """Add the ``analyse`` sub-command."""
    parser = add_command(subparsers, "analyse", help="write the solver's analysis of every card play",
                         description=DESCRIPTION, epilog=EPILOG)
    parser.add_argument("files", nargs="+", metavar="FILE", help="a .klab record (- for standard input)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--in-place", action="store_true", help="write each analysed record back to its file")
    where.add_argument("--out", metavar="FILE",
                       help="write the analysed record to FILE (-: standard output, as without --out)")
    parser.set_defaults(func=run)


def _usage(args: argparse.Namespace) -> str | None:
    wrong = argument_error("klabsite analyse", {}, {"FILE": args.files, "--out": args.out})
    if wrong is not None:
        return wrong
    if not args.in_place and len(args.files) > 1:
        return ("klabsite analyse: error: several files need --in-place (standard output and --out "
                "take one record)")
    if args.in_place and "-" in args.files:
        return "klabsite analyse: error: --in-place cannot write back to standard input"
    return None


def _analyse(source: BinaryIO, path: str) -> tuple[Record | None, int]:
    """The analysed record read from ``source`` (or ``None`` and the exit status, errors printed)."""
    try:
        record = parse_record(source)
    except RecordError as error:
        print(error.located(printable(path)), file=sys.stderr)
        return None, EXIT_INVALID
    _, errors = analyse_record(record)
    for problem in errors:
        print(problem.located(printable(path)), file=sys.stderr)
    return (None, EXIT_INVALID) if errors else (record, 0)


def _signature(path: Path) -> tuple[int, int, int]:
    status = path.stat()
    return status.st_ino, status.st_size, status.st_mtime_ns


def _in_place(path: str) -> int:
    real = Path(os.path.realpath(path))
    before = _signature(real)
    with real.open("rb") as file:
        record, status = _analyse(file, path)
    if record is None:
        return status
    with locked(real.parent):
        if _signature(real) != before:
            print(f"{printable(path)}: the file changed while it was being analysed; nothing was written "
                  "(run klabsite analyse again)", file=sys.stderr)
            return EXIT_USAGE
        write_atomically(path, record.to_text().encode("utf-8"))  # errors name it as given
    print(_analysed_line(path, record))
    return 0


def _analysed_line(path: str, record: Record) -> str:
    count = len(record.deals)
    return (f"analysed {printable(path)}: {count} deal{'s' if count != 1 else ''}, "
            f"{annotated_plays(record)} card plays annotated")


def _one(path: str, out: str | None) -> int:
    if out == "-":
        out = None
    if out is not None:
        try:
            check_writable(out)  # before the analysis, which may take minutes
        except OSError as error:
            raise OSError(error.errno, f"cannot write the analysed record: {error.strerror or error}",
                          out) from None
    with contextlib.ExitStack() as stack:
        source = sys.stdin.buffer if path == "-" else stack.enter_context(open(path, "rb"))
        record, status = _analyse(source, path)
    if record is None:
        return status
    text = record.to_text()
    if out is None:
        try:
            write_standard_output(text)
        except OSError as error:
            raise OSError(error.errno, f"cannot write the analysed record: {error.strerror or error}",
                          "standard output") from None
        return 0
    try:
        write_atomically(out, text.encode("utf-8"))
    except OSError as error:
        raise OSError(error.errno, f"cannot write the analysed record: {error.strerror or error}",
                      error.filename or out) from None
    print(f"{_analysed_line(path, record)}, written to {printable(out)}")
    return 0


def run(args: argparse.Namespace) -> int:
    """Analyse each file named; the highest exit status."""
    wrong = _usage(args)
    if wrong is not None:
        print(wrong, file=sys.stderr)
        return EXIT_USAGE
    status = 0
    for path in args.files:
        try:
            status = max(status, _in_place(path) if args.in_place else _one(path, args.out))
        except OSError as problem:
            where = problem.filename if problem.filename else path
            print(f"klabsite analyse: {printable(str(where))}: {problem.strerror or problem}",
                  file=sys.stderr)
            status = max(status, EXIT_USAGE)
        except Exception as bug:  # noqa: BLE001 - a bug must not print a traceback
            print(internal_error(path, bug), file=sys.stderr)
            status = max(status, EXIT_BUG)
    return status
