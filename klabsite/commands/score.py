"""``klabsite score FILE ACTION …``: keep a match as a score sheet, each deal's result as counted.

A score sheet is a ``.klab`` record whose deals carry only the result as counted at the table
(score-sheet deals in ``docs/record-format.md``); :mod:`klabsite.records.sheet` derives the rest: the
dealers, nat and pit, the scores and the match totals. Every change is read back and replayed
exactly as ``klabsite check`` does before it is written.

How the files are kept safe:

- One ``klabsite score`` at a time changes the sheets of a folder: an ``fcntl.flock`` lock on the
  folder (not on the sheet, which is replaced by a rename) is held from reading to writing.
- A symlinked sheet is followed: its target is changed, the link stays.
- A read-only sheet (or undo history) is refused, never replaced.
- The sheet and its undo history ``FILE.undo`` are replaced together
  (:func:`klabsite.files.replace_together`): on a refusal or any write failure both are
  left byte for byte as they were. Temporary files left by a killed run are removed on the next.

Exit status: 0 done; 1 a refused change or a file that is not a valid sheet, with one line
``FILE: message`` (``FILE:LINE: message`` when the file itself has an error) on standard error;
2 a usage error; 3 an internal error (a klabsite bug).
"""

from __future__ import annotations

import argparse
import os
import stat
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from klabsite.commands.help import EXIT_USAGE, add_command, argument_error, examples
from klabsite.engine.text import printable, whole_number
from klabsite.files import (
    EXIT_BUG,
    internal_error,
    locked,
    output_target,
    remove_stale_temporaries,
    replace_together,
    write_atomically,
)
from klabsite.records.sheet import DealOptions, Sheet, SheetError
from klabsite.records.undo import History

__all__ = ["register", "run", "write_atomically", "history_path", "MAX_SHEET_BYTES"]

EXIT_OK, EXIT_REFUSED = 0, 1

MAX_SHEET_BYTES = 16 * 1024 * 1024
"""A sheet file larger than this is refused unread (a 10,000-deal sheet is under 2 MiB)."""

DESCRIPTION = """\
Keep a match as a score sheet: for each deal, the result as counted at the table.
The sheet is a .klab record (klabsite check reads it); the dealer, nat, pit, the
scores and the match totals are worked out for you. Every change can be undone.
Run klabsite score FILE ACTION --help for an action's options."""

EPILOG = examples(
    "klabsite score night.klab new --game klaverjas --players \"N:Ana E:Ivo S:Maja W:Luka\"",
    "klabsite score night.klab add --playing NS --points 92 --roem \"NS 20\"",
    "klabsite score night.klab show",
    "klabsite score night.klab edit 1 --points 102",
    "klabsite score night.klab undo",
    "klabsite score duel.klab new --game klaberjass --dealer S",
    "klabsite score duel.klab add --maker N --totals \"N 102 S 60\"",
) + """

Exit status: 0 done, 1 refused (the files are left as they were), 2 usage error.
The undo history is kept next to the sheet, in FILE.undo."""

_ACTION_HELP: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "new": ("start a sheet (--game klaverjas or klaberjass)",
            "Start a new score sheet. The first dealer is N unless you say otherwise; later dealers\n"
            "follow the rules. An existing file is replaced only with --force (undo brings it back).",
            ('klabsite score night.klab new --game klaverjas --players "N:Ana E:Ivo S:Maja W:Luka"',
             'klabsite score duel.klab new --game klaberjass --rules "target=1000" --dealer S')),
    "add": ("add the next deal's result",
            "Add the next deal's result.\n"
            "Klaverjas: the playing side (the side that chose trump), one side's card points\n"
            "(last trick included; the other side has 162 minus that), the roem, and --pit\n"
            "when the playing side took every trick.\n"
            "Klaberjass: the maker and both players' totals (cards, last trick, sequences,\n"
            "bella) as counted at the table.",
            ("klabsite score night.klab add --playing NS --points 92",
             'klabsite score night.klab add --playing EW --points "EW 162" --roem "EW 100" --pit',
             'klabsite score duel.klab add --maker S --totals "N 70 S 112" --note "bella for S"')),
    "edit": ("correct a deal (give only what changes)",
             "Correct deal N: give only the values that change; the rest is kept.",
             ("klabsite score night.klab edit 2 --points 100",
              "klabsite score night.klab edit 3 --no-pit",
              'klabsite score night.klab edit 1 --note ""')),
    "delete": ("delete a deal (later deals are renumbered)",
               "Delete deal N. Later deals move up one number and their dealers are worked out again.",
               ("klabsite score night.klab delete 4",)),
    "show": ("print the sheet: a table, the totals, who deals next",
             "Print the sheet: the players, a table of every deal, the notes, the match totals,\n"
             "and the winner or who deals next.",
             ("klabsite score night.klab show",)),
    "undo": ("take back the last change (again and again)",
             "Take back the last change (new --force, add, edit or delete); run it again to go\n"
             "further back. A file changed by hand since is not undone.",
             ("klabsite score night.klab undo",)),
}


def register(subparsers: Any) -> None:
    """Add the ``score`` sub-command and its actions."""
    parser = add_command(subparsers, "score", description=DESCRIPTION, epilog=EPILOG,
                         help="keep a match as a score sheet (each deal's counted result)")
    parser.add_argument("file", metavar="FILE", help="the .klab score sheet")
    actions = parser.add_subparsers(dest="score_action", required=True, metavar="ACTION")
    made = {name: _action(actions, name) for name in _ACTION_HELP}

    new = made["new"]
    new.add_argument("--game", help="klaverjas or klaberjass")
    new.add_argument("--rules", default="", help='rules that differ from the usual ones, e.g. "target=1000"')
    new.add_argument("--players", default="", help='the players\' names, e.g. "N:Ana E:Ivo S:Maja W:Luka"')
    new.add_argument("--dealer", default="N", help="who deals the first deal (default N)")
    new.add_argument("--title", default="", help="a short title for the match")
    new.add_argument("--source", default="", help="where the match was played")
    new.add_argument("--force", action="store_true", help="replace an existing file (undo brings it back)")

    _deal_options(made["add"])
    made["edit"].add_argument("deal", metavar="N", help="the deal's number")
    _deal_options(made["edit"])
    made["delete"].add_argument("deal", metavar="N", help="the deal's number")
    parser.set_defaults(func=run)


def _action(actions: Any, name: str) -> argparse.ArgumentParser:
    short, description, lines = _ACTION_HELP[name]
    return actions.add_parser(name, help=short, description=description, epilog=examples(*lines),
                              formatter_class=argparse.RawDescriptionHelpFormatter)


def _deal_options(parser: argparse.ArgumentParser) -> None:
    klaverjas = parser.add_argument_group("Klaverjas")
    klaverjas.add_argument("--playing", help="the playing side (the side that chose trump): NS or EW")
    klaverjas.add_argument("--points", help='card points, last trick included: 92 (the playing side) '
                                            'or "EW 70"')
    klaverjas.add_argument("--roem", help='roem of each side, e.g. "NS 20 EW 0" (default 0)')
    klaverjas.add_argument("--pit", action=argparse.BooleanOptionalAction, default=None,
                           help="the playing side took every trick (--no-pit takes it back)")
    klaberjass = parser.add_argument_group("Klaberjass")
    klaberjass.add_argument("--maker", help="the maker (who chose trump): N or S")
    klaberjass.add_argument("--totals", help='both totals (cards, last trick, sequences, bella), '
                                             'e.g. "N 102 S 60"')
    parser.add_argument("--note", help="a note shown with the deal; its line breaks and tabs become "
                        "spaces (an empty note removes it)")


def _options(args: argparse.Namespace) -> DealOptions:
    return DealOptions(playing=args.playing, points=args.points, roem=args.roem, pit=args.pit,
                       maker=args.maker, totals=args.totals, note=args.note)


# --------------------------------------------------------------------------- files


def history_path(path: Path) -> Path:
    """The sidecar file keeping the undo history of the sheet at ``path``: ``FILE.undo``."""
    return path.with_name(path.name + ".undo")


def _read_bytes(path: Path, limit: int, what: str) -> bytes | None:
    """The bytes of ``path`` (``None`` if there is no such file); :class:`SheetError` beyond ``limit``."""
    try:
        with path.open("rb") as file:
            data = file.read(limit + 1)
    except FileNotFoundError:
        return None
    if len(data) > limit:
        raise SheetError(f"{what} is larger than {limit // (1024 * 1024)} MiB: not a file klabsite score "
                         "wrote")
    return data


def _load(path: Path) -> tuple[bytes, Sheet]:
    data = _read_bytes(path, MAX_SHEET_BYTES, "the sheet")
    if data is None:
        raise SheetError("no such file: start a sheet with klabsite score FILE new --game klaverjas "
                         "(or klaberjass)")
    return data, Sheet.read(data)


def _load_history(path: Path) -> History:
    undo = history_path(path)
    try:
        data = _read_bytes(undo, MAX_SHEET_BYTES * 4, "the undo history")
        return History() if data is None else History.from_text(data)
    except SheetError:
        raise SheetError(f"its undo history {printable(undo.name)} cannot be read; delete it to start a new "
                         "one") from None


def _refuse_read_only(path: Path) -> None:
    """Refuse to change the sheet if it, or its undo history, is read-only."""
    undo = history_path(path)
    for file, what in ((path, "the sheet is"), (undo, f"its undo history {undo.name} is")):
        try:
            mode = file.stat().st_mode
        except FileNotFoundError:
            continue
        if not (mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH)) or not os.access(file, os.W_OK):
            raise SheetError(f"{printable(what)} read-only (mode {stat.S_IMODE(mode):04o}): klabsite score "
                             "does not change it; make it writable first (chmod u+w)")


def _commit(
    path: Path, before: bytes | None, sheet: Sheet, command: str, history: History | None = None
) -> bool:
    """Write ``sheet`` over ``path`` with the change in the history; False if nothing changed."""
    after = sheet.to_text().encode("utf-8")
    if after == before:
        return False
    Sheet.read(after)  # the exact bytes about to be written replay as klabsite check would
    history = (history if history is not None else _load_history(path)).pushed(command, before, after)
    _refuse_read_only(path)
    replace_together([(history_path(path), history.to_text().encode("utf-8")), (path, after)])
    return True


# --------------------------------------------------------------------------- actions


def _new(path: Path, args: argparse.Namespace) -> str:
    if not args.game:
        raise SheetError("new needs --game klaverjas or --game klaberjass")
    before = _read_bytes(path, MAX_SHEET_BYTES, "the existing file")
    if before is not None and not args.force:
        raise SheetError("already exists: use --force to replace it (undo brings it back)")
    sheet = Sheet.new(args.game, args.rules, args.players, args.dealer, Title=args.title, Source=args.source)
    if before is None:
        history = History()
    else:
        try:
            history = _load_history(path)
        except SheetError:
            history = History()  # --force replaces an unreadable history too
    _commit(path, before, sheet, "new", history)
    rules = sheet.record.rules.format() or "the usual rules"
    return f"new {sheet.game.name} sheet ({rules}), first dealer {sheet.first_dealer}"


def _add(path: Path, args: argparse.Namespace) -> str:
    before, sheet = _load(path)
    changed = sheet.add(_options(args))
    number = len(changed.record.deals)
    _commit(path, before, changed, f"add deal {number}")
    return f"added {changed.summary(number)}; {changed.status(totals=False)}"


def _deal_number(text: str) -> int:
    """The number of a deal already accepted by :meth:`Sheet.edit` or :meth:`Sheet.delete`."""
    number = whole_number(text.strip())
    assert number is not None, "the sheet checked the deal number"
    return number


def _edit(path: Path, args: argparse.Namespace) -> str:
    before, sheet = _load(path)
    changed = sheet.edit(args.deal, _options(args))
    number = _deal_number(args.deal)
    if not _commit(path, before, changed, f"edit deal {number}"):
        return f"deal {number} unchanged"
    return f"edited {changed.summary(number)}; {changed.status(totals=False)}"


def _delete(path: Path, args: argparse.Namespace) -> str:
    before, sheet = _load(path)
    changed = sheet.delete(args.deal)
    number = _deal_number(args.deal)
    _commit(path, before, changed, f"delete deal {number}")
    later = " (later deals renumbered)" if number <= len(changed.record.deals) else ""
    return f"deleted deal {number}{later}; {changed.status()}"


def _show(path: Path, args: argparse.Namespace) -> str:
    del args
    _, sheet = _load(path)
    sys.stdout.write(sheet.table())
    return ""


def _undo(path: Path, args: argparse.Namespace) -> str:
    del args
    data = _read_bytes(path, MAX_SHEET_BYTES, "the sheet")
    history = _load_history(path)
    change, rest = history.undo(data)
    assert change.before is not None
    restored = None
    if change.command != "new":  # new --force: the file it replaced comes back as it was
        try:
            restored = Sheet.read(change.before)
        except SheetError as error:
            raise SheetError(f"cannot undo {change.command}: the sheet before it does not replay "
                             f"now ({error.message})") from None
    _refuse_read_only(path)
    replace_together([(path, change.before), (history_path(path), rest.to_text().encode("utf-8"))])
    status = f"; {restored.status()}" if restored is not None else ""
    return f"undid {change.command}{status}"


ACTIONS: dict[str, Callable[[Path, argparse.Namespace], str]] = {
    "new": _new, "add": _add, "edit": _edit, "delete": _delete, "show": _show, "undo": _undo,
}

_ARGUMENTS = {"game": "--game", "rules": "--rules", "players": "--players", "dealer": "--dealer",
              "title": "--title", "source": "--source", "deal": "N", "playing": "--playing",
              "points": "--points", "roem": "--roem", "maker": "--maker", "totals": "--totals",
              "note": "--note"}
"""Each action's argument (its ``args`` name) as the user wrote it, for messages."""


def _carry_out(path: str, args: argparse.Namespace) -> str:
    """The action on the real file behind ``path`` (symbolic links followed), under the folder's
    lock for a change."""
    real = output_target(path)
    if real.exists() and not real.is_file():
        raise SheetError("is not a regular file: a score sheet is kept in a file of its own")
    if args.score_action == "show":
        return ACTIONS["show"](real, args)
    with locked(real.parent):
        for stale in (real, history_path(real)):
            remove_stale_temporaries(stale)
        return ACTIONS[args.score_action](real, args)


def _other_file(problem: OSError, given: str) -> str | None:
    """The file a failed read or write names when it is not the sheet ``given`` itself: its undo
    history (named beside ``given``) or another file; None for the sheet."""
    if not problem.filename:
        return None
    failed = os.path.realpath(problem.filename)
    if failed == os.path.realpath(given):
        return None
    if not Path(given).name:
        return str(problem.filename)
    undo = history_path(Path(given))
    return str(undo) if failed == os.path.realpath(undo) else str(problem.filename)


def run(args: argparse.Namespace) -> int:
    """Carry out one action on the sheet ``args.file``; the exit status."""
    name = printable(args.file)
    given = {flag: getattr(args, dest) for dest, flag in _ARGUMENTS.items() if hasattr(args, dest)}
    wrong = argument_error(f"klabsite score FILE {args.score_action}", given, {"FILE": args.file})
    if wrong is not None:
        print(wrong, file=sys.stderr)
        return EXIT_USAGE
    try:
        message = _carry_out(args.file, args)
    except SheetError as error:
        print(error.located(name), file=sys.stderr)
        return EXIT_REFUSED
    except OSError as problem:
        where = _other_file(problem, args.file)
        detail = f"{problem.strerror or problem}" + (f" ({printable(where)})" if where else "")
        print(f"{name}: cannot read or write: {detail}", file=sys.stderr)
        return EXIT_REFUSED
    except Exception as bug:  # noqa: BLE001 - a bug must not print a traceback
        print(internal_error(args.file, bug), file=sys.stderr)
        return EXIT_BUG
    if message:
        print(f"{name}: {message}")
    return EXIT_OK
