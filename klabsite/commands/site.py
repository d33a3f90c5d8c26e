"""The site's sub-commands: ``klabsite build``, ``klabsite serve``, ``klabsite i18n …``."""

from __future__ import annotations

import argparse
import errno
import sys
from collections.abc import Sequence
from pathlib import Path

from klabsite.commands.help import EXIT_USAGE, CommandParser
from klabsite.engine.text import printable
from klabsite.site import i18n_tools
from klabsite.site.build import run_build
from klabsite.site.config import LANGUAGES, load_config
from klabsite.site.errors import BuildError, quote
from klabsite.site.project import Project, find_project, is_project
from klabsite.site.server import make_server, serve

__all__ = ["register", "main"]


def _project(args: argparse.Namespace) -> Project:
    """The project in ``--root`` (the current folder), or the default site; raises BuildError."""
    return find_project(Path(args.root))


def _out_dir(args: argparse.Namespace, project: Project, given: str | None) -> str | None:
    """The output folder: as given (relative to the current folder), or ``_site`` here for the
    default site."""
    if given:
        return str(Path(given).absolute())
    return str(Path(args.root).absolute() / "_site") if project.bundled else None


def _languages(args: argparse.Namespace) -> list[str] | None:
    if not args.lang:
        return None
    return [code.strip() for value in args.lang for code in value.split(",") if code.strip()]


def _empty_folder(args: argparse.Namespace) -> bool:
    """Whether ``--out`` or ``--dir`` was given as an empty name, or ``--lang`` without a code or
    with an empty one between commas (said on standard error): an empty value is a mistake (an
    unset shell variable), never the default."""
    for option in ("out", "dir"):
        if getattr(args, option, None) == "":
            print(f"--{option}: a folder name cannot be empty", file=sys.stderr)
            return True
    if getattr(args, "lang", None) and not _languages(args):
        print("--lang: give language codes such as fr,es (or leave --lang out for every language)",
              file=sys.stderr)
        return True
    for value in getattr(args, "lang", None) or ():
        if any(not code.strip() for code in value.split(",")):
            print(f"--lang {quote(value)}: a code is missing between two commas; write codes such as fr,es",
                  file=sys.stderr)
            return True
    return False


def _build(args: argparse.Namespace) -> int:
    if _empty_folder(args):
        return EXIT_USAGE
    try:
        project = _project(args)
    except BuildError as error:
        print(error, file=sys.stderr)
        return 1
    print(f"building {project.describe()}")
    return run_build(project.root, out=_out_dir(args, project, args.out), langs=_languages(args),
                     base_url=args.base_url, strict=args.strict)


def _replay(args: argparse.Namespace) -> int:
    if _empty_folder(args):
        return EXIT_USAGE
    try:
        project = _project(args)
    except BuildError as error:
        print(error, file=sys.stderr)
        return 1
    deals = [Path(name) for name in args.files]  # as given: errors name them so, like check
    twice = next((path for index, path in enumerate(deals) if path.resolve() in
                  {earlier.resolve() for earlier in deals[:index]}), None)
    if twice is not None:
        print(f"{twice}: given twice; name each record once", file=sys.stderr)
        return EXIT_USAGE
    records = f"{len(deals)} record{'s' if len(deals) != 1 else ''}"
    print(f"building replays of {records} with {project.describe()}")
    return run_build(project.root, out=_out_dir(args, project, args.out), langs=_languages(args),
                     base_url=args.base_url, deals=deals)


def _port(text: str) -> int | None:
    """The port number in ``text`` (0 to 65535), or None."""
    text = text.strip()
    if text.isascii() and text.isdigit() and len(text) <= 5 and int(text) <= 65535:
        return int(text)
    return None


def _serve(args: argparse.Namespace) -> int:
    if _empty_folder(args):
        return EXIT_USAGE
    port = _port(args.port)
    if port is None:
        print(f"--port: must be a number from 0 to 65535 (0 picks a free port), not {quote(args.port)}",
              file=sys.stderr)
        return EXIT_USAGE
    try:
        project = _project(args)
        out = _out_dir(args, project, args.dir)
        config = load_config(project.root, out_dir=Path(out) if out else None)
    except BuildError as error:
        print(error, file=sys.stderr)
        return 1
    name = (args.dir.rstrip("/") if args.dir else config.relative(config.out_dir)) + "/"
    if project.bundled and not args.dir:
        name = "_site/"
    if not (config.out_dir / "index.html").is_file():
        print(printable(f"{name}index.html: no site here; run: klabsite build"), file=sys.stderr)
        return 1
    try:
        server = make_server(config.out_dir, port, args.host)
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            print(f"--port {port}: already in use; choose another port, or --port 0 for a free one",
                  file=sys.stderr)
        else:
            print(f"--host {args.host}: cannot listen there: {error.strerror or error}", file=sys.stderr)
        return 1
    serve(server, name)
    return 0


def _i18n(args: argparse.Namespace) -> int:
    if args.check and args.action not in ("extract", "update"):
        print(f"klabsite i18n {args.action}: --check works with extract and update only (nothing was done)",
              file=sys.stderr)
        return EXIT_USAGE
    root = Path(args.root).resolve()
    if not is_project(root):
        print(f"klabsite i18n: {root} is not a site project (no site_src/ folder): run it in one, "
              "or start one with `klabsite init DIR`", file=sys.stderr)
        return 1
    try:
        config = load_config(root)
    except BuildError as error:
        print(error, file=sys.stderr)
        return 1
    try:
        if args.action == "extract":
            return i18n_tools.extract(config, check=args.check)
        if args.action == "update":
            return i18n_tools.update(config, check=args.check)
        if args.action == "compile":
            return i18n_tools.compile_catalogs(config)
        return i18n_tools.status(config)
    except OSError as error:  # a full disk, a folder that cannot be written
        where = config.relative(Path(error.filename) if error.filename else config.locales_dir)
        print(f"klabsite i18n {args.action}: {printable(where)}: {error.strerror or error}",
              file=sys.stderr)
        return 1


_FORMATTER = argparse.RawDescriptionHelpFormatter


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``build``, ``replay``, ``serve`` and ``i18n``."""
    codes = ",".join(language.code for language in LANGUAGES)
    build = subparsers.add_parser(
        "build", help="build the static site into _site/", formatter_class=_FORMATTER,
        description="Build the rules site: read site_src/ (templates, rules pages, stylesheet) and\n"
        "locales/ (translations), render every page in every language, check every page,\n"
        "then replace the output folder in one step. On any error nothing is written and one\n"
        "line says where the problem is (file:line: message); the exit status is 1 (2 for\n"
        "a mistake in the command line itself).\n"
        "Run it from the project folder (the one holding site_src/ and locales/).",
        epilog="examples:\n"
        "  klabsite build                        # all languages into _site/\n"
        "  klabsite build --lang fr,ar --strict  # English, French and Arabic; no missing translation\n"
        "  klabsite build --out public --base-url https://example.org/klab/")
    build.add_argument("--out", metavar="DIR",
                       help="output folder (default: _site); it must be one a build made, or empty, or new")
    build.add_argument("--lang", action="append", metavar="CODES",
                       help=f"only these languages, comma-separated (default: {codes}); "
                       "English is always built")
    build.add_argument("--base-url", metavar="URL",
                       help="the site's public address, such as https://example.org/: absolute "
                       "hreflang and canonical links, sitemap.xml, and the links of 404.html, which "
                       "need it when the site is served under a sub-path")
    build.add_argument("--strict", action="store_true",
                       help="untranslated or fuzzy messages are errors, not warnings")
    build.add_argument("--root", default=".", help=argparse.SUPPRESS)
    build.set_defaults(func=_build)

    replay = subparsers.add_parser(
        "replay", help="build a site of replays of your own .klab records", formatter_class=_FORMATTER,
        description="Build a small site of just these records: for each deal an overview and a page per\n"
        "step, the deals' gallery and the matches, in every language, with the rules pages beside\n"
        "them. It needs no JavaScript and works from any folder of any static host. A record with a\n"
        "mistake stops the build with one line (FILE:LINE: message, as klabsite check says it) and\n"
        "the output folder is left as it was.",
        epilog="examples:\n"
        "  klabsite replay our-match.klab --out replays\n"
        "  klabsite replay deal1.klab deal2.klab --out public --lang fr --base-url https://example.org/")
    replay.add_argument("files", nargs="+", metavar="FILE", help="the .klab records to show")
    replay.add_argument("--out", metavar="DIR", required=True,
                        help="output folder (new, empty, or made by an earlier build)")
    replay.add_argument("--lang", action="append", metavar="CODES",
                        help=f"only these languages, comma-separated (default: {codes}); "
                        "English is always built")
    replay.add_argument("--base-url", metavar="URL",
                        help="the site's public address (absolute links, previews, and the links of "
                        "404.html under a sub-path)")
    replay.add_argument("--root", default=".", help=argparse.SUPPRESS)
    replay.set_defaults(func=_replay)

    serve_parser = subparsers.add_parser(
        "serve", help="preview the built site on this computer", formatter_class=_FORMATTER,
        description="Serve the built site (default: _site/) over HTTP to preview it in a browser.\n"
        "By default it listens on 127.0.0.1 only: nobody else on the network sees it. Missing pages get\n"
        "the site's own 404 page; folders are never listed. Stop it with Ctrl-C.",
        epilog="examples:\n"
        "  klabsite build && klabsite serve   # then open http://127.0.0.1:8000/\n"
        "  klabsite serve --port 0            # any free port (printed)\n"
        "  klabsite serve --dir public --port 8080")
    serve_parser.add_argument("--port", default="8000",
                              help="port from 0 to 65535 (default: 8000; 0 picks a free one)")
    serve_parser.add_argument("--host", default="127.0.0.1",
                              help="address to listen on (default: 127.0.0.1, this computer only)")
    serve_parser.add_argument("--dir", metavar="DIR", help="folder to serve (default: _site)")
    serve_parser.add_argument("--root", default=".", help=argparse.SUPPRESS)
    serve_parser.set_defaults(func=_serve)

    i18n = subparsers.add_parser(
        "i18n", help="translation catalogs: extract, update, compile, status", formatter_class=_FORMATTER,
        description="The translation workflow, with Babel's own commands:\n"
        "  extract  collect the interface strings and the rules paragraphs into locales/*.pot\n"
        "  update   merge them into every language's catalog, locales/<lang>/LC_MESSAGES/*.po\n"
        "  compile  check every catalog, then write the .mo files\n"
        "  status   how much of each catalog is translated\n"
        "Run it from the project folder (the one holding site_src/ and locales/).",
        epilog="examples:\n"
        "  klabsite i18n extract && klabsite i18n update   # after changing a template or a rules page\n"
        "  klabsite i18n status\n"
        "  klabsite i18n update --check                    # in CI: exit 1 if a catalog is out of date")
    i18n.add_argument("action", choices=("extract", "update", "compile", "status"))
    i18n.add_argument("--check", action="store_true",
                      help="with extract or update: change nothing, exit 1 if a template or a "
                      "catalog is out of date")
    i18n.add_argument("--root", default=".", help=argparse.SUPPRESS)
    i18n.set_defaults(func=_i18n)


def main(argv: Sequence[str] | None = None, root: Path | None = None) -> int:
    """Run one of this module's commands without the rest of the ``klabsite`` CLI (``build.py``)."""
    parser = CommandParser(prog="build.py")
    subparsers = parser.add_subparsers(dest="command", required=True, parser_class=CommandParser)
    register(subparsers)
    subparsers.choices["build"].prog = "build.py"  # `python build.py --help` is the build's help
    args = parser.parse_args(argv)
    if root is not None and args.root == ".":
        args.root = str(root)
    return int(args.func(args))
