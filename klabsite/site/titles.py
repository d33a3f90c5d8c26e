"""The titles of the shipped deal records: extracted for translators, looked up for each language.

A record's ``[Title "…"]`` tag names its deals and its match in the gallery, on every replay page
and in the browser's tab. The titles of ``site_src/deals/*.klab`` are site text like the rules
prose, so they are messages of the ``content`` domain, each under the context
:data:`TITLE_CONTEXT` (a title and a rules paragraph with the same words stay two messages).

Registered for Babel in ``babel-content.cfg``::

    [extractors]
    klab_titles = klabsite.site.titles:extract_titles
    [klab_titles: site_src/deals/**.klab]

>>> import io
>>> record = b'%klab 1\\n[Game "klaverjas"]\\n[Title "Four jacks in one trick"]\\n'
>>> [message[:3] for message in extract_titles(io.BytesIO(record), (), (), {})]
[(3, 'pgettext', ('deal title', 'Four jacks in one trick'))]
>>> titles({"Four jacks in one trick": "Quatre valets dans un pli"})("Four jacks in one trick")
'Quatre valets dans un pli'
>>> titles({})("A title of my own")
'A title of my own'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from typing import IO, Any

from babel.messages.catalog import Catalog

from klabsite.records.klab import read_record
from klabsite.site.glossary import sort_key

__all__ = ["TITLE_CONTEXT", "by_title", "title_key", "extract_titles", "missing_titles", "titles"]

TITLE_CONTEXT = "deal title"
"""The ``msgctxt`` of every record title in the catalogs."""

_COMMENT = ("The title of a shipped deal record, shown in the deal gallery, as the heading of its "
            "replay pages and in the browser's tab. Plain text: no Markdown.")


def extract_titles(fileobj: IO[bytes], keywords: Collection[str], comment_tags: Collection[str],
                   options: dict[str, Any]) -> Iterator[tuple[int, str, tuple[str, str], list[str]]]:
    """Babel extraction method: yields the record's title, if it has one, as a ``pgettext``
    message at the line of its ``Title`` tag. A record that does not read stops the extraction
    with ``klabsite check``'s message (the build would refuse it too)."""
    source = fileobj.read()
    title = read_record(source).title
    if not title:
        return
    lines = source.decode("utf-8").split("\n")
    line = next((number for number, text in enumerate(lines, 1) if text.lstrip().startswith("[Title")), 1)
    yield line, "pgettext", (TITLE_CONTEXT, title), [_COMMENT]


def missing_titles(catalog: Catalog, shown: Iterable[str | None]) -> list[str]:
    """The titles among ``shown`` that ``catalog`` does not hold at all (not yet extracted)."""
    known = {message.id for message in catalog if message.context == TITLE_CONTEXT}
    return sorted({title for title in shown if title and title not in known})


def titles(translated: Mapping[str, str]) -> Callable[[str], str]:
    """The Jinja filter of one language: a title's translation, or the title as written."""
    def title(text: str) -> str:
        return translated.get(text, text)
    return title


_ARTICLES = {
    "en": re.compile(r"(?:the|an?)\s+", re.IGNORECASE),
    "fr": re.compile(r"(?:(?:les?|la|une?|des)\s+|l[’'])", re.IGNORECASE),
    "es": re.compile(r"(?:el|la|las|los|un|una|unas|unos)\s+", re.IGNORECASE),
}
"""A title's leading article in each language, which A–Z leaves out ("The dix" goes under D), as
a library does (Arabic's article ال, the glossary's sort key leaves out already)."""


def title_key(text: str, lang: str) -> tuple[str, str]:
    """How a title sorts A–Z in ``lang``: the glossary's sort key without a leading article.

    >>> sorted(["The maker fails", "A match to 500", "Bella", "The dix"], key=lambda t: title_key(t, "en"))
    ['Bella', 'The dix', 'The maker fails', 'A match to 500']
    >>> [title_key(title, lang)[0] for title, lang in [("L’échange du sept", "fr"), ("Une partie", "fr"),
    ...                                                  ("Una partida", "es"), ("Un palo propuesto", "es")]]
    ['echangedusept', 'partie', 'partida', 'palopropuesto']
    """
    article = _ARTICLES.get(lang)
    found = article.match(text.strip()) if article else None
    return sort_key(text.strip()[found.end():] if found else text, lang)


def by_title(title: Callable[[str], str], lang: str) -> Callable[[Iterable[Any]], list[Any]]:
    """The Jinja filter of one language that orders deals A–Z by their titles as ``title`` (that
    language's :func:`titles` filter) shows them, without a leading article (:func:`title_key`),
    the deals of one record together in their order, and untitled deals last, in the order given.

    >>> from types import SimpleNamespace as Deal
    >>> deals = [Deal(title="Pit", match_id="p", number=2), Deal(title=None, match_id="u", number=1),
    ...          Deal(title="The nat", match_id="n", number=1), Deal(title="Pit", match_id="p", number=1)]
    >>> [(deal.title, deal.number) for deal in by_title(titles({}), "en")(deals)]
    [('The nat', 1), ('Pit', 1), ('Pit', 2), (None, 1)]
    """
    def ordered(deals: Iterable[Any]) -> list[Any]:
        listed = list(deals)
        first: dict[str, int] = {}
        for index, deal in enumerate(listed):
            first.setdefault(deal.match_id, index)

        def key(deal: Any) -> tuple[bool, tuple[str, str], int, int]:
            named = title_key(title(deal.title), lang) if deal.title else ("", "")
            return not deal.title, named, first[deal.match_id], deal.number
        return sorted(listed, key=key)
    return ordered
