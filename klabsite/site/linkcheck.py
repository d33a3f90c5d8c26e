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

import functools
import posixpath
import string
from collections.abc import Iterator, Mapping
from urllib.parse import unquote, urlsplit

from klabsite.site.errors import BuildError
from klabsite.site.guard import Scan, scan_page

__all__ = ["check_links", "broken_links", "link_problem", "resolve_link"]


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
    target, fragment, problem = resolve_link(path, url, site_path)
    if problem or target is None:
        return problem
    if target not in outputs:
        return f"broken link {url}: no file {target}"
    if fragment and target in pages and fragment not in pages[target].ids:
        return f"broken link {url}: {target} has no id {fragment!r}"
    return None


def resolve_link(path: str, url: str, site_path: str = "/") -> tuple[str | None, str, str | None]:
    """(the output path ``url`` on page ``path`` leads to, its ``#`` fragment, why it may not be
    written so); the path is None for a link out of the site, and for a link that may not be
    written so.

    >>> resolve_link("en/deals/x/t1-1.html", "../../rules/index.html#bella")
    ('en/rules/index.html', 'bella', None)
    """
    page = "" if url[:1] in _STARTS_A_PATH and path != "404.html" else path
    return _resolve(path.rpartition("/")[0], page, url, site_path)  # output paths are relative


_STARTS_A_PATH = frozenset(string.ascii_letters + string.digits + "./_~%-")
"""A URL starting so has a path, or a scheme (a link out): its answer is the same on every page of
a folder."""


@functools.lru_cache(maxsize=1 << 16)
def _resolve(directory: str, page: str, url: str, site_path: str) -> tuple[str | None, str, str | None]:
    """:func:`resolve_link` for a page in ``directory``; ``page`` is given only where the answer
    depends on the page itself (a link to itself, or from ``404.html``), so that the pages of one
    folder share their answers."""
    parts = urlsplit(url)
    if parts.scheme or parts.netloc:
        return None, parts.fragment, None
    if not parts.path:
        target = page
    elif parts.path.startswith("/"):
        if page != "404.html":
            return None, parts.fragment, f"link from the site root ({url}): use a relative link"
        if not parts.path.startswith(site_path):
            return None, parts.fragment, f"link outside the site ({url})"
        target = parts.path[len(site_path):]
    else:
        target = posixpath.normpath(posixpath.join(directory, unquote(parts.path)))
    if target.endswith("/") or target in ("", "."):
        return None, parts.fragment, f"link to a directory ({url}): link to its index.html"
    return target, parts.fragment, None
