"""The interface messages the templates hold, read as ``klabsite i18n extract`` reads them.

A template changed since the last extraction may hold words that no catalog has yet; they show
in English. The build finds them here, in every branch of every template, whether or not a page
drew it this time (a page taken unchanged from the last build draws nothing), and names the first
at its template line.
"""

from __future__ import annotations

import functools
import io
from collections.abc import Callable, Iterable
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract

from klabsite.site.catalogs import MessageKey, holds, short_msgid

__all__ = ["template_messages", "absent_messages"]

_OPTIONS = {"extensions": "jinja2.ext.i18n", "trimmed": "true", "trim_blocks": "true",
            "lstrip_blocks": "true", "silent": "true"}
"""The options of the project's mapping (``babel.cfg``); a template that does not parse yields
nothing here (rendering it reports the mistake at its line)."""

Where = tuple[str, int]
"""A template file (as shown in messages) and a line."""


@functools.lru_cache(maxsize=256)
def _extract(text: str) -> tuple[tuple[int, MessageKey], ...]:
    found: list[tuple[int, MessageKey]] = []
    for line, message, _comments, context in extract("jinja2.ext:babel_extract", io.BytesIO(text.encode()),
                                                    keywords=DEFAULT_KEYWORDS, options=_OPTIONS):
        plural = not isinstance(message, str)
        msgid = message if isinstance(message, str) else message[0]
        if msgid:
            found.append((line, (context, msgid, plural)))
    return tuple(found)


def template_messages(templates: Iterable[Path], read: Callable[[Path], str],
                      shown: Callable[[Path], str]) -> dict[MessageKey, Where]:
    """Every message of the ``templates`` (read with ``read``), with where it first stands."""
    found: dict[MessageKey, Where] = {}
    for path in sorted(templates):
        for line, key in _extract(read(path)):
            found.setdefault(key, (shown(path), line))
    return found


def absent_messages(messages: dict[MessageKey, Where], catalog: Catalog,
                    display: str) -> tuple[Where, str] | None:
    """Where the first message the ``catalog`` (shown as ``display``) lacks stands, and what to say
    of those it lacks; None when it holds them all (translated or not: its own warning covers those).

    >>> catalog = Catalog(locale="fr")
    >>> messages = {(None, "Home", False): ("base.html", 3), (None, "New", False): ("base.html", 9)}
    >>> catalog.add("Home", "Accueil")
    <Message ...>
    >>> where, message = absent_messages(messages, catalog, "fr.po")
    >>> where, message.split(":")[0]
    (('base.html', 9), "the interface message 'New' is not in fr.po yet")
    """
    absent = sorted((where, key[1]) for key, where in messages.items() if not holds(catalog, key))
    if not absent:
        return None
    where, first = absent[0]
    shown = short_msgid(first)
    if len(absent) > 1:
        what = f"{len(absent)} interface messages ({shown}, …) are not in {display} yet: they show"
    else:
        what = f"the interface message {shown} is not in {display} yet: it shows"
    return where, f"{what} in English (run: klabsite i18n extract && klabsite i18n update)"
