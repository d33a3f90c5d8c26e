"""``klabsite init DIR``: start a site project of your own from the default site."""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

from klabsite.commands.help import EXIT_USAGE
from klabsite.site.errors import BuildError
from klabsite.site.project import init_project

__all__ = ["register", "run"]

DESCRIPTION = """\
Start a new site project in DIR, a copy of the default site to change as you like:
  site_src/rules/      the rules pages (English Markdown)
  site_src/templates/  the page templates
  site_src/static/     the stylesheet and icon
  site_src/site.toml   the site's settings (every line commented out)
  locales/             the translations, one folder per language
  docs/                the record format's reference, also a page of the site
Then build it from inside DIR with `klabsite build`."""

EXAMPLES = """\
examples:
  klabsite init my-site
  cd my-site && klabsite build && klabsite serve"""


def run(args: argparse.Namespace) -> int:
    """Create the project; print what was made and what to do next."""
    if not args.dir.strip():  # an unset shell variable, never meant as the current folder
        print("klabsite init: a folder name cannot be empty", file=sys.stderr)
        return EXIT_USAGE
    target = Path(args.dir)
    try:
        made = init_project(target)
    except BuildError as error:
        print(f"klabsite init: {error.message}", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"klabsite init: cannot create {target}: {error.strerror or error}", file=sys.stderr)
        return 1
    print(f"created {', '.join(made)} in {target}")
    print(f"next: cd {shlex.quote(str(target))} && klabsite build")
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``init``."""
    parser = subparsers.add_parser("init", help="start a site project of your own from the default site",
                                   description=DESCRIPTION, epilog=EXAMPLES,
                                   formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dir", metavar="DIR", help="the new project's folder (new or empty)")
    parser.set_defaults(func=run)
