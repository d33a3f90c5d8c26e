"""``klabsite score FILE ACTION …``: keep a match as a score sheet, the way seed 002's app does.

A score sheet is a ``.klab`` record whose deals carry only the result as counted at the table
(shared/record-format.md, score-sheet deals); :mod:`klabsite.sheet` derives the rest.

- ``new --game klaverjas|klaberjass [--rules "…"] [--players "N:… E:… S:… W:…"] [--dealer N]
  [--title …] [--source …] [--force]``: start a sheet (an existing file only with ``--force``).
- ``add --playing NS --points 92 [--roem "NS 20 EW 0"] [--pit]`` (Klaverjas: one side's card
  points, last trick included; ``--points "EW 70"`` names the side) or ``add --maker N
  --totals "N 84 S 60"`` (Klaberjass); ``--note TEXT`` on both.
- ``show``: the sheet as an aligned table, the totals, the winner or the next dealer.
- ``edit N …`` (the options of ``add``, any subset; ``--no-pit`` removes pit), ``delete N``
  (later deals renumber, dealers are derived again), ``undo`` (reverts the last change: new
  with ``--force``, add, edit, delete; several undos go further back).

The dealer is derived: the first from ``new --dealer`` (default N, kept in the match tag
``FirstDealer``), then the engine's rotation. Every change is read back and replayed exactly as
``klabsite check`` does before it replaces the file atomically (a temporary file in the same
folder, fsync, ``os.replace``). The undo history lives next to the sheet in ``FILE.undo``
(JSON; see :class:`klabsite.sheet.History` for why not inside the record).

Exit status: 0 done; 1 a refused change or a file that is not a valid sheet, with one line
``FILE: message`` (``FILE:LINE: message`` when the file itself has an error) on standard error
and every file left byte for byte as it was; 2 a usage error; 3 an internal error.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from klabsite.commands.files import EXIT_BUG, internal_error, write_atomically
from klabsite.sheet import DealOptions, History, Sheet, SheetError

__all__ = ["register", "run", "write_atomically", "history_path"]

EXIT_OK, EXIT_REFUSED = 0, 1


def register(subparsers: Any) -> None:
    """Add the ``score`` sub-command and its actions."""
    parser = subparsers.add_parser(
        "score",
        help="keep a match as a score sheet (each deal's counted result)",
        description=__doc__.split("\n\n")[0],
        epilog="Exit status: 0 done, 1 refused (the file is left as it was), 2 usage error, "
               "3 internal error. The undo history is kept in FILE.undo.",
    )
    parser.add_argument("file", metavar="FILE", help="the .klab score sheet")
    actions = parser.add_subparsers(dest="score_action", required=True, metavar="ACTION")

    new = actions.add_parser("new", help="start a new sheet")
    new.add_argument("--game", help="klaverjas or klaberjass")
    new.add_argument("--rules", default="", help='options that differ from the defaults, e.g. "target=1000"')
    new.add_argument("--players", default="", help='display names, e.g. "N:Ana E:Ivo S:Maja W:Luka"')
    new.add_argument("--dealer", default="N", help="who deals the first deal (default N)")
    new.add_argument("--title", default="", help="a short title for the match")
    new.add_argument("--source", default="", help="where the match was played (free text)")
    new.add_argument("--force", action="store_true", help="replace an existing file (undo brings it back)")

    add = actions.add_parser("add", help="add the next deal's result")
    _deal_options(add)
    edit = actions.add_parser("edit", help="correct a deal (unchanged values are kept)")
    edit.add_argument("deal", metavar="N", help="the deal's number")
    _deal_options(edit)
    delete = actions.add_parser("delete", help="delete a deal (later deals renumber)")
    delete.add_argument("deal", metavar="N", help="the deal's number")
    actions.add_parser("show", help="print the sheet as a table")
    actions.add_parser("undo", help="revert the last change")
    parser.set_defaults(func=run)


def _deal_options(parser: argparse.ArgumentParser) -> None:
    klaverjas = parser.add_argument_group("Klaverjas")
    klaverjas.add_argument("--playing", help="the playing side (chose trump): NS or EW")
    klaverjas.add_argument("--points", help='card points incl. last trick: 92 (playing side) or "EW 70"')
    klaverjas.add_argument("--roem", help='roem per side, e.g. "NS 20 EW 0" (default 0)')
    klaverjas.add_argument("--pit", action=argparse.BooleanOptionalAction, default=None,
                           help="the playing side took every trick (--no-pit removes it)")
    klaberjass = parser.add_argument_group("Klaberjass")
    klaberjass.add_argument("--maker", help="the maker: N or S")
    klaberjass.add_argument("--totals", help='both totals (cards, last trick, sequences, bella): "N 84 S 60"')
    parser.add_argument("--note", help="free text shown with the deal (empty removes it)")


def _options(args: argparse.Namespace) -> DealOptions:
    return DealOptions(playing=args.playing, points=args.points, roem=args.roem, pit=args.pit,
                       maker=args.maker, totals=args.totals, note=args.note)


# --------------------------------------------------------------------------- files


def history_path(path: Path) -> Path:
    """The sidecar file keeping the undo history of the sheet at ``path``: ``FILE.undo``."""
    return path.with_name(path.name + ".undo")


def _read_bytes(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


def _load(path: Path) -> tuple[bytes, Sheet]:
    data = _read_bytes(path)
    if data is None:
        raise SheetError("no such file: start a sheet with klabsite score FILE new --game klaverjas "
                         "(or klaberjass)")
    return data, Sheet.read(data)


def _load_history(path: Path) -> History:
    data = _read_bytes(history_path(path))
    if data is None:
        return History()
    try:
        return History.from_text(data)
    except SheetError:
        raise SheetError(f"its undo history {history_path(path).name} cannot be read; delete it "
                         "to start a new one") from None


def _commit(
    path: Path, before: bytes | None, sheet: Sheet, command: str, history: History | None = None
) -> bool:
    """Write ``sheet`` over ``path`` with the change in the history; False if nothing changed."""
    after = sheet.to_text().encode("utf-8")
    if after == before:
        return False
    Sheet.read(after)  # the exact bytes about to be written replay as klabsite check would
    history = (history if history is not None else _load_history(path)).pushed(command, before, after)
    write_atomically(history_path(path), history.to_text().encode("utf-8"))
    write_atomically(path, after)
    return True


# --------------------------------------------------------------------------- actions


def _new(path: Path, args: argparse.Namespace) -> str:
    if not args.game:
        raise SheetError("new needs --game klaverjas or --game klaberjass")
    before = _read_bytes(path)
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
    rules = sheet.record.rules.format() or "the defaults"
    return f"new {sheet.game.name} sheet ({rules}), first dealer {sheet.first_dealer}"


def _add(path: Path, args: argparse.Namespace) -> str:
    before, sheet = _load(path)
    changed = sheet.add(_options(args))
    number = len(changed.record.deals)
    _commit(path, before, changed, f"add deal {number}")
    return f"added {changed.summary(number)}; {changed.status(totals=False)}"


def _edit(path: Path, args: argparse.Namespace) -> str:
    before, sheet = _load(path)
    changed = sheet.edit(args.deal, _options(args))
    number = int(args.deal)
    if not _commit(path, before, changed, f"edit deal {number}"):
        return f"deal {number} unchanged"
    return f"edited {changed.summary(number)}; {changed.status(totals=False)}"


def _delete(path: Path, args: argparse.Namespace) -> str:
    before, sheet = _load(path)
    changed = sheet.delete(args.deal)
    number = int(args.deal)
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
    data = _read_bytes(path)
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
    write_atomically(path, change.before)
    write_atomically(history_path(path), rest.to_text().encode("utf-8"))
    status = f"; {restored.status()}" if restored is not None else ""
    return f"undid {change.command}{status}"


ACTIONS: dict[str, Callable[[Path, argparse.Namespace], str]] = {
    "new": _new, "add": _add, "edit": _edit, "delete": _delete, "show": _show, "undo": _undo,
}


def run(args: argparse.Namespace) -> int:
    """Carry out one action on the sheet ``args.file``; the exit status."""
    name = args.file
    try:
        message = ACTIONS[args.score_action](Path(name), args)
    except SheetError as error:
        print(error.located(name), file=sys.stderr)
        return EXIT_REFUSED
    except OSError as problem:
        where = problem.filename if problem.filename and str(problem.filename) != name else None
        detail = f"{problem.strerror or problem}" + (f" ({where})" if where else "")
        print(f"{name}: cannot read or write: {detail}", file=sys.stderr)
        return EXIT_REFUSED
    except Exception as bug:  # noqa: BLE001 - a bug must not print a traceback
        print(internal_error(name, bug), file=sys.stderr)
        return EXIT_BUG
    if message:
        print(f"{name}: {message}")
    return EXIT_OK
