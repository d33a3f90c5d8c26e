"""Serving a built site on this computer, to preview it: ``klabsite serve``.

The site's own ``404.html`` answers what is missing, folders are never listed, a symbolic link
that leads out of the served folder is answered as missing, and a request path no file can have
(a NUL byte, a control character, not UTF-8) gets a 400.
"""

from __future__ import annotations

import contextlib
import functools
import os
import sys
from http.server import HTTPServer, SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import BinaryIO
from urllib.parse import unquote, urlsplit

__all__ = ["SiteHandler", "make_server", "serve"]


class SiteHandler(SimpleHTTPRequestHandler):
    """Serves one built site: its own ``404.html`` for what is missing, no directory listings,
    nothing outside the folder through a symbolic link, and a 400 for a request path no file name
    has (a NUL byte, a control character, not UTF-8)."""

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (the base class's name)
        sys.stderr.write("%s\n" % (format % args))

    def send_head(self) -> BinaryIO | None:  # type: ignore[override]
        try:
            path = unquote(urlsplit(self.path).path, errors="strict")
        except (UnicodeDecodeError, ValueError):
            path = "\x00"  # not UTF-8: no file has that name
        if any(ord(char) < 32 or char == "\x7f" for char in path):
            self.send_error(400, "Bad request path")
            return None
        try:
            if not self._inside(Path(self.translate_path(self.path))):
                self.send_error(404)  # a symbolic link out of the site: as if it were not there
                return None
            return super().send_head()  # type: ignore[return-value]
        except (OSError, ValueError):  # a name the file system refuses (too long, not encodable)
            self.send_error(404)
            return None

    def _inside(self, path: Path) -> bool:
        """Whether ``path``, its symbolic links followed, is the served folder or inside it (a
        loop of links is not: ``realpath`` stops where ``Path.resolve`` would raise)."""
        root = os.path.realpath(str(self.directory))
        return Path(os.path.realpath(path)).is_relative_to(root)

    def list_directory(self, path: str | Path) -> None:  # type: ignore[override]
        self.send_error(404)
        return None

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        page = Path(str(self.directory)) / "404.html"
        if code != 404 or not page.is_file() or not self._inside(page):
            super().send_error(code, message, explain)
            return
        body = page.read_bytes()
        self.log_error("code %d, message %s", code, message or "Not Found")
        self.send_response(code, message)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        if self.command != "HEAD":
            self.wfile.write(body)


def make_server(directory: Path, port: int = 8000, host: str = "127.0.0.1") -> ThreadingHTTPServer:
    """A server for ``directory`` on ``host:port`` (port 0: a free one), not started yet."""
    handler = functools.partial(SiteHandler, directory=str(directory))
    return ThreadingHTTPServer((host, port), handler)


def serve(server: HTTPServer, name: str) -> None:
    """Print where ``server`` listens, then serve until interrupted (Ctrl-C)."""
    host, port = server.server_address[:2]
    with server:
        print(f"serving {name} at http://{host!s}:{port}/ (Ctrl-C to stop)", flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            server.serve_forever()
