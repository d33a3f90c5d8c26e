"""The ``klabsite`` command: one sub-command per module, each registering itself.

Each command module provides ``register(subparsers)``, which adds its parser and sets
``func`` (taking the parsed arguments, returning the exit code).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from klabsite import __version__
from klabsite.commands.help import CommandParser
from klabsite.site.build import INTERRUPTED

__all__ = ["main"]

COMMAND_MODULES = (
    "klabsite.commands.check",
    "klabsite.commands.analyse",
    "klabsite.commands.simulate",
    "klabsite.commands.score",
    "klabsite.commands.site",
    "klabsite.commands.init",
)
"""Modules that register sub-commands, in the order of ``klabsite --help``."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every available sub-command."""
    parser = CommandParser(
        prog="klabsite",
        description="Check, analyse, simulate and score Klaberjass and Klaverjas deal records (.klab "
        "files), and build the rules and replay site.",
        epilog="Run `klabsite COMMAND --help` for a command's options and examples.",
    )
    parser.add_argument("--version", action="version", version=f"klabsite {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND",
                                       parser_class=CommandParser)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``klabsite`` with ``argv`` (default: the process arguments); return the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        return INTERRUPTED  # what a shell reports for Ctrl-C (128 + SIGINT)
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
