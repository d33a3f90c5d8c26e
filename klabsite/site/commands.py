"""The site's sub-commands: ``klabsite build``, ``klabsite serve``, ``klabsite i18n …``."""

from __future__ import annotations

import argparse
import contextlib
import functools
import http.server
import sys
from collections.abc import Sequence
from pathlib import Path

from klabsite.site import i18n_tools
from klabsite.site.build import run_build
from klabsite.site.config import LANGUAGES, load_config
from klabsite.site.errors import BuildError
from klabsite.site.project import Project, find_project, is_project

__all__ = ["register", "main", "serve"]


def _project(args: argparse.Namespace) -> Project:
    """The project in ``--root`` (the current folder), or the default site; raises BuildError."""
    return find_project(Path(args.root))


def _out_dir(args: argparse.Namespace, project: Project, given: str | None) -> str | None:
    """The output folder: as given (relative to the current folder), or ``_site`` here for the
    default site."""
    if given:
        return str(Path(given).absolute())
    return str(Path(args.root).absolute() / "_site") if project.bundled else None


def _build(args: argparse.Namespace) -> int:
    langs = None
    if args.lang:
        langs = [code.strip() for value in args.lang for code in value.split(",") if code.strip()]
    try:
        project = _project(args)
    except BuildError as error:
        print(error, file=sys.stderr)
        return 1
    print(f"building {project.describe()}")
    return run_build(project.root, out=_out_dir(args, project, args.out), langs=langs,
                     base_url=args.base_url, strict=args.strict)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (the base class's name)
        sys.stderr.write("%s\n" % (format % args))


def serve(directory: Path, port: int, host: str = "127.0.0.1") -> None:
    """Serve ``directory`` on http://host:port/ until interrupted."""
    handler = functools.partial(_QuietHandler, directory=str(directory))
    with http.server.ThreadingHTTPServer((host, port), handler) as server:
        print(f"serving {directory} at http://{host}:{server.server_address[1]}/ (Ctrl-C to stop)")
        with contextlib.suppress(KeyboardInterrupt):
            server.serve_forever()


def _serve(args: argparse.Namespace) -> int:
    try:
        project = _project(args)
        out = _out_dir(args, project, args.dir)
        config = load_config(project.root, out_dir=Path(out) if out else None)
    except BuildError as error:
        print(error, file=sys.stderr)
        return 1
    if not (config.out_dir / "index.html").is_file():
        print(f"{config.relative(config.out_dir)}/index.html: no site here; run: python build.py",
              file=sys.stderr)
        return 1
    serve(config.out_dir, args.port)
    return 0


def _i18n(args: argparse.Namespace) -> int:
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
    if args.action == "extract":
        return i18n_tools.extract(config, check=args.check)
    if args.action == "update":
        return i18n_tools.update(config, check=args.check)
    if args.action == "compile":
        return i18n_tools.compile_catalogs(config)
    return i18n_tools.status(config)


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``build``, ``serve`` and ``i18n``."""
    codes = ",".join(language.code for language in LANGUAGES)
    build = subparsers.add_parser("build", help="build the static site into _site/",
                                  description="Build the site: load site_src/ and locales/, render every "
                                  "page, write the output atomically.")
    build.add_argument("--out", metavar="DIR", help="output directory (default: _site)")
    build.add_argument("--lang", action="append", metavar="CODES",
                       help=f"only these languages, comma-separated (default: {codes}); "
                       "English is always built")
    build.add_argument("--base-url", metavar="URL",
                       help="the site's public URL: absolute hreflang/canonical links and sitemap.xml")
    build.add_argument("--strict", action="store_true",
                       help="untranslated or fuzzy messages are errors, not warnings")
    build.add_argument("--root", default=".", help=argparse.SUPPRESS)
    build.set_defaults(func=_build)

    serve_parser = subparsers.add_parser("serve", help="preview the built site on localhost")
    serve_parser.add_argument("--port", type=int, default=8000, help="port (default: 8000)")
    serve_parser.add_argument("--dir", metavar="DIR", help="directory to serve (default: _site)")
    serve_parser.add_argument("--root", default=".", help=argparse.SUPPRESS)
    serve_parser.set_defaults(func=_serve)

    i18n = subparsers.add_parser("i18n", help="translation catalogs: extract, update, compile, status",
                                 description=(i18n_tools.__doc__ or "").splitlines()[0])
    i18n.add_argument("action", choices=("extract", "update", "compile", "status"))
    i18n.add_argument("--check", action="store_true",
                      help="with extract or update: change nothing, exit 1 if a template or a "
                      "catalog is out of date")
    i18n.add_argument("--root", default=".", help=argparse.SUPPRESS)
    i18n.set_defaults(func=_i18n)


def main(argv: Sequence[str] | None = None, root: Path | None = None) -> int:
    """Run one of this module's commands without the rest of the ``klabsite`` CLI (``build.py``)."""
    parser = argparse.ArgumentParser(prog="build.py")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    if root is not None and args.root == ".":
        args.root = str(root)
    return int(args.func(args))
