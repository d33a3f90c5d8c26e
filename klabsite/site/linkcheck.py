"""Build-time link check: every internal link of every page reaches a file, and its ``#id`` exists.

Links must be relative (``../fr/index.html``), except in ``404.html``, which links from the site
root. A link to another site is an error too: the site makes no external requests and sends
nobody elsewhere without a reason written into the prose.

>>> check_links({"a.html": b'<a href="b.html#x">b</a>', "b.html": b'<h2 id="x">X</h2>'}, "/")
>>> check_links({"a.html": b'<a href="b.html#y">b</a>', "b.html": b'<h2 id="x">X</h2>'}, "/")
Traceback (most recent call last):
...
klabsite.site.errors.BuildError: a.html:1: broken link b.html#y: b.html has no id 'y'
"""

from __future__ import annotations

import posixpath
from html.parser import HTMLParser
from urllib.parse import unquote, urlsplit

from klabsite.site.errors import BuildError

__all__ = ["check_links", "PageLinks", "parse_page"]


class PageLinks(HTMLParser):
    """Collects the ids and the linked URLs (with their lines) of one HTML page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[tuple[int, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.add(values["id"] or "")
        for name in ("href", "src"):
            url = values.get(name)
            if url is not None and not (tag == "link" and values.get("rel") in ("canonical", "alternate")
                                        and url.startswith(("http://", "https://"))):
                self.links.append((self.getpos()[0], url))


def parse_page(html: str) -> PageLinks:
    """The ids and links of a page."""
    parser = PageLinks()
    parser.feed(html)
    parser.close()
    return parser


def check_links(outputs: dict[str, bytes], site_path: str = "/") -> None:
    """Raise :class:`BuildError` (``page:line: …``) at the first broken internal link."""
    pages = {path: parse_page(data.decode("utf-8")) for path, data in sorted(outputs.items())
             if path.endswith(".html")}
    for path, page in pages.items():
        for line, url in page.links:
            problem = _problem(path, url, outputs, pages, site_path)
            if problem:
                raise BuildError(problem, path, line)


def _problem(path: str, url: str, outputs: dict[str, bytes], pages: dict[str, PageLinks],
             site_path: str) -> str | None:
    parts = urlsplit(url)
    if parts.scheme or parts.netloc:
        if parts.scheme in ("mailto", "data"):
            return None
        return f"link to another site: {url}"
    if not parts.path:
        target = path
    elif parts.path.startswith("/"):
        if path != "404.html":
            return f"link from the site root ({url}): use a relative link"
        if not parts.path.startswith(site_path):
            return f"link outside the site ({url})"
        target = parts.path[len(site_path):]
    else:
        target = posixpath.normpath(posixpath.join(posixpath.dirname(path), unquote(parts.path)))
    if target.endswith("/") or target in ("", "."):
        return f"link to a directory ({url}): link to its index.html"
    if target not in outputs:
        return f"broken link {url}: no file {target}"
    if parts.fragment and target in pages and parts.fragment not in pages[target].ids:
        return f"broken link {url}: {target} has no id {parts.fragment!r}"
    return None
