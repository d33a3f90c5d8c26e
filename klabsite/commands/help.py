"""How the ``klabsite`` commands talk on the command line.

Each command's help has a description in plain words and an ``examples:`` epilog, laid out as
written (:class:`argparse.RawDescriptionHelpFormatter`). A usage error is one line on standard
error, exit status 2, naming the command and pointing to its ``--help``::

    klabsite score FILE add: error: argument --points: expected one argument (see klabsite
    score FILE add --help)

Arguments that are not valid UTF-8 (the shell passes bytes; Python keeps the ones it cannot decode
as surrogate escapes) are refused the same way (:func:`argument_error`), and so are file names
holding a NUL character.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any, NoReturn

from klabsite.engine.text import LARGEST_NUMBER, quote, shorten, whole_number

__all__ = ["CommandParser", "add_command", "examples", "argument_error", "EXIT_USAGE"]

EXIT_USAGE = 2
"""The exit status of a usage error."""


class CommandParser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one short line (and unknown arguments are its own)."""

    def error(self, message: str) -> NoReturn:
        """Print ``PROG: error: MESSAGE (see PROG --help)`` on standard error and exit with status 2."""
        self.exit(EXIT_USAGE, f"{self.prog}: error: {shorten(message, 120)} (see {self.prog} --help)\n")

    def parse_known_args(  # type: ignore[override]  # one signature for argparse's overloads
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        """As ``argparse``, but arguments this command does not know are its usage error."""
        parsed, extras = super().parse_known_args(args, namespace)
        if extras:
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed, extras


def add_command(subparsers: Any, name: str, **options: Any) -> CommandParser:
    """Add sub-command ``name`` (keywords as for ``add_parser``) with plain-text help and
    one-line usage errors."""
    options.setdefault("formatter_class", argparse.RawDescriptionHelpFormatter)
    return subparsers.add_parser(name, **options)  # type: ignore[no-any-return]  # klabsite.cli: CommandParser


def examples(*lines: str) -> str:
    """An ``examples:`` epilog: one command per line, indented."""
    return "examples:\n" + "\n".join(f"  {line}" for line in lines)


def whole(text: str) -> int:
    """An option's whole number, written with the digits 0–9 (argparse ``type``): ``３`` or ``+3``
    is refused as a mistake, not read as 3.

    >>> whole("12")
    12
    """
    value = whole_number(text)
    if value is None:
        raise argparse.ArgumentTypeError(f"write a whole number with the digits 0-9, not {quote(text)}")
    if value > LARGEST_NUMBER:
        raise argparse.ArgumentTypeError(f"{shorten(text, 20)} is far too large")
    return value


MAX_TEXT = 4000
"""The longest text an option of :data:`TEXT_OPTIONS` may give: its tag's line stays far below the
64 KiB a ``.klab`` line may hold, whatever its characters."""
TEXT_OPTIONS = frozenset({"--title", "--source", "--note", "--players"})
"""The options whose text goes into a record as it is (a number or a word has its own checks)."""


def argument_error(prog: str, values: dict[str, Any], files: dict[str, Any] | None = None) -> str | None:
    """The usage-error line for the first argument klabsite cannot use, or ``None``.

    ``values`` map each text argument's name (``--title``) to its value (a string, a list of them,
    or ``None``): each must be UTF-8. ``files`` map file-name arguments the same way: any bytes
    will do, but not a NUL character (no system allows one in a name), and not none at all.

    >>> argument_error("klabsite score FILE add", {"--title": "Club", "--note": "caf\\udce9"})
    "klabsite score FILE add: error: --note is not UTF-8 text (check the terminal's encoding)"
    >>> argument_error("klabsite check", {}, {"FILE": ["a.klab", "b\\0"]})
    'klabsite check: error: FILE: a file name cannot hold a NUL character'
    >>> argument_error("klabsite simulate", {"--players": "N:" + "x" * 5000})
    'klabsite simulate: error: --players is 5,002 characters long: write at most 4,000'
    """
    for name, value in values.items():
        if any(_undecodable(text) for text in _texts(value)):
            return f"{prog}: error: {name} is not UTF-8 text (check the terminal's encoding)"
        if name in TEXT_OPTIONS and (longest := max(map(len, _texts(value)), default=0)) > MAX_TEXT:
            return f"{prog}: error: {name} is {longest:,} characters long: write at most {MAX_TEXT:,}"
    for name, value in (files or {}).items():
        if any("\0" in text for text in _texts(value)):
            return f"{prog}: error: {name}: a file name cannot hold a NUL character"
        if any(not text for text in _texts(value)):
            return f"{prog}: error: {name}: a file name cannot be empty"
    return None


def _texts(value: Any) -> list[str]:
    return [text for text in (value if isinstance(value, list) else [value]) if isinstance(text, str)]


def _undecodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False
