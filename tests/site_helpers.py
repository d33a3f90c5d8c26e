"""Helpers shared by the site tests: a small project to build, and reading what a build wrote.

Imported as ``tests.site_helpers``; the ``project`` fixture (tests/conftest.py) is built with
:func:`make_project`.
"""

from __future__ import annotations

import io
import re
import shutil
from pathlib import Path

from klabsite.site.build import run_build
from klabsite.site.writer import MARKER

REPO = Path(__file__).resolve().parents[1]
FIXTURE = Path(__file__).resolve().parent / "fixtures" / "site"

ERROR_LINE = re.compile(r"^(?P<path>[^:\n]+):(?P<line>\d+): (?P<message>[^\n]+)\n$")
"""One error line of a failed build: ``path:LINE: message``."""


def fixture_hand(loc, args):
    """A test directive: the cards given, as glyphs."""
    from klabsite.cards import parse_cards

    return f"<p>{loc.cards(parse_cards(args['cards'].replace(',', ' ')))}</p>"


def make_project(root: Path) -> Path:
    """A project at ``root``: the fixture's rules and catalogs, the real templates and stylesheet."""
    shutil.copytree(FIXTURE / "rules", root / "site_src" / "rules")
    shutil.copytree(REPO / "site_src" / "templates", root / "site_src" / "templates")
    shutil.copytree(REPO / "site_src" / "static", root / "site_src" / "static")
    shutil.copytree(FIXTURE / "locales", root / "locales")
    return root


def tree(directory: Path) -> dict[str, bytes]:
    """The files of a built directory (without the writer's marker file)."""
    return {path.relative_to(directory).as_posix(): path.read_bytes()
            for path in sorted(directory.rglob("*")) if path.is_file() and path.name != MARKER}


def build_quietly(root: Path, **options) -> tuple[int, str, str]:
    """``run_build(root, **options)``: exit status, stdout, stderr."""
    stdout, stderr = io.StringIO(), io.StringIO()
    status = run_build(root, stdout=stdout, stderr=stderr, **options)
    return status, stdout.getvalue(), stderr.getvalue()


def append_entry(catalog: Path, msgid: str, msgstr: str) -> int:
    """Add ``msgid``/``msgstr`` (written as .po strings, escapes and all) to a catalog; returns the msgid's line."""
    text = catalog.read_text(encoding="utf-8").rstrip("\n") + "\n\n"
    line = text.count("\n") + 1
    catalog.write_text(text + f'msgid "{msgid}"\nmsgstr "{msgstr}"\n', encoding="utf-8")
    return line
