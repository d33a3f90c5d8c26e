"""Which site a command works on: the project in the current directory, or the default site.

A *project* is a folder holding ``site_src/`` (prose, templates, static files, deal records) and
``locales/`` (the catalogs), as ``klabsite init DIR`` makes one. Where the current folder is not a
project, ``klabsite build`` builds the default site that comes with klabsite: from the package
data of an installed wheel (``klabsite/_default/``), or from the source checkout the package is
imported from. Either way the output goes to the current folder.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as folder:
...     project = find_project(Path(folder))
>>> project.bundled, (project.root / "site_src" / "templates").is_dir()
(True, True)
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from klabsite.site.errors import BuildError
from klabsite.site.writer import built_site_around

__all__ = ["Project", "SOURCE_DIRS", "bundled_root", "find_project", "is_project", "init_project"]

SOURCE_DIRS = ("site_src", "locales")
"""The folders that make a project (both copied by ``klabsite init``)."""

_PACKAGE = Path(__file__).resolve().parent.parent
_IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc", "*.mo", ".*")

SITE_TOML = """\
# The site's settings. Every line is optional. Paths are relative to the project folder (the one
# holding site_src/ and locales/).

# These values are the defaults:
# languages = ["en", "fr", "es", "hr", "ar"]  # English, the source language, is always built
# out_dir = "_site"                           # where `klabsite build` writes the site
# strict = false                              # untranslated or fuzzy messages are errors

# These two are examples; by default they are not set:
# base_url = "https://example.org/cards/"     # the public address: absolute canonical links, sitemap.xml,
#                                             # and the links of 404.html under a sub-path
# build_date = "2026-12-01"                   # a date shown on every page (or SOURCE_DATE_EPOCH)
"""


@dataclass(frozen=True, slots=True)
class Project:
    """The site a command works on: its root folder, and whether it is klabsite's default site."""

    root: Path
    bundled: bool

    def describe(self) -> str:
        """One line for the user saying which site this is."""
        if self.bundled:
            return ("the default site that comes with klabsite (no site_src/ here; "
                    "`klabsite init DIR` starts your own)")
        return f"the project in {self.root}"


def is_project(folder: Path) -> bool:
    """Whether ``folder`` holds a site project (a ``site_src/`` folder)."""
    return (folder / "site_src").is_dir()


def bundled_root() -> Path:
    """The folder holding the default ``site_src/`` and ``locales/``.

    An installed wheel carries them as package data in ``klabsite/_default/``; a source checkout
    (or an editable install) has them beside the package.
    """
    for candidate in (_PACKAGE / "_default", _PACKAGE.parent):
        if all((candidate / name).is_dir() for name in SOURCE_DIRS):
            return candidate
    raise BuildError("the default site is missing from this installation of klabsite: reinstall it "
                     "(pip install klabsite) or run the command in a project folder", "klabsite")


def find_project(folder: Path) -> Project:
    """``folder`` if it is a project, else the default site."""
    folder = folder.resolve()
    if is_project(folder):
        return Project(folder, bundled=False)
    return Project(bundled_root(), bundled=True)


def init_project(target: Path) -> list[str]:
    """Start a new project in ``target`` from the default site; returns what was created.

    ``target`` may exist only as an empty folder, so nothing is ever overwritten.
    """
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        what = "a folder that is not empty" if target.is_dir() else "a file"
        raise BuildError(f"{target} is {what}: choose a new or empty folder", str(target))
    source = bundled_root()
    copied = [source / name for name in (*SOURCE_DIRS, "docs")]
    inside = next((folder for folder in copied if target.resolve().is_relative_to(folder.resolve())), None)
    if inside is not None:
        raise BuildError(f"{target} is inside the default site's {inside.name}/ folder, which init copies "
                         "(it would copy itself): choose a folder outside it", str(target))
    if (around := built_site_around(target)) is not None:
        raise BuildError(f"{target} is inside {around}, a site that the next build there replaces whole "
                         "(the project would be deleted): choose a folder outside it", str(target))
    target.mkdir(parents=True, exist_ok=True)
    for name in SOURCE_DIRS:
        shutil.copytree(source / name, target / name, ignore=_IGNORED)
    if (source / "docs").is_dir():  # the record format's page
        shutil.copytree(source / "docs", target / "docs", ignore=_IGNORED)
    (target / "site_src" / "site.toml").write_text(SITE_TOML, encoding="utf-8")
    return [f"{name}/" for name in SOURCE_DIRS if (target / name).is_dir()] + \
        (["docs/"] if (target / "docs").is_dir() else []) + ["site_src/site.toml"]
