"""Build-time link check: every internal link of every page reaches a file, and its ``#id`` exists.

Links must be relative (``../fr/index.html``), except in ``404.html``, which links from the site
root. Which links may leave the site (``https://`` in ``<a href>`` only) is the output guard's
rule (:mod:`klabsite.site.guard`); this check follows the links that stay.

>>> check_links({"a.html": b'<a href="b.html#x">b</a>', "b.html": b'<h2 id="x">X</h2>'}, "/")
>>> check_links({"a.html": b'<a href="b.html#y">b</a>', "b.html": b'<h2 id="x">X</h2>'}, "/")
Traceback (most recent call last):
...
klabsite.site.errors.BuildError: a.html:1: broken link b.html#y: b.html has no id 'y'
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterator, Mapping
from urllib.parse import unquote, urlsplit

from klabsite.site.errors import BuildError
from klabsite.site.guard import Scan, scan_page

__all__ = ["check_links", "broken_links", "link_problem"]


def broken_links(outputs: Mapping[str, bytes], pages: Mapping[str, Scan], site_path: str = "/"
                 ) -> Iterator[tuple[str, int, str, str]]:
    """(page, line, URL, problem) of every broken internal link; ``pages`` are the scanned pages."""
    for path, page in sorted(pages.items()):
        for line, _tag, _attr, url in page.links:
            problem = link_problem(path, url, outputs, pages, site_path)
            if problem:
                yield path, line, url, problem


def check_links(outputs: Mapping[str, bytes], site_path: str = "/") -> None:
    """Raise :class:`BuildError` (``page:line: …``) at the first broken internal link."""
    pages = {path: scan_page(data.decode("utf-8")) for path, data in outputs.items()
             if path.endswith(".html")}
    for path, line, _url, problem in broken_links(outputs, pages, site_path):
        raise BuildError(problem, path, line)


def link_problem(path: str, url: str, outputs: Mapping[str, bytes], pages: Mapping[str, Scan],
                 site_path: str = "/") -> str | None:
    """Why ``url`` on page ``path`` does not reach a file (or an id in it), or None."""
    parts = urlsplit(url)
    if parts.scheme or parts.netloc:
        return None
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
