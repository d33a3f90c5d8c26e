"""The glossary page's terms, and the rules pages' links to them: two stages of the Markdown pipeline.

**The glossary** (the rules page whose slug is ``glossary``, :data:`GLOSSARY_SLUG`): every list
item that starts with a term in bold (``- **Trump suit**: the suit chosen…``) is an entry. Each
entry gets an anchor from its ENGLISH term (``id="term-trump-suit"``, the same in every
language), and the entries of each list are sorted A–Z by the term as the page's language writes
it (:func:`sort_key`), so a translated glossary is in its own alphabetical order. The page's
terms, as shown, are :attr:`RenderedDocument.terms <klabsite.site.markdown_ext.RenderedDocument.terms>`.

**Every other rules page** links the first use of each term to its entry
(:class:`TermLinks`): the term list is the glossary page's in the same language (translated
terms come from the content catalog, as the glossary's items do). A term is found case-blind,
as a whole word (English, French and Spanish also find it with a plural ``s``); the longest term
wins where two start at the same place (*trump suit* before *trump*). Only the first use on a
page is linked, and never inside a heading, a link, code, a table header or a caption. A term
that holds a comma, a quotation mark or a digit (``Ace, king, …``, ``"Good."``) names a group or
a phrase, not a word of the prose, and is not looked for; nor are the games' names
(:data:`UNLINKED`), which every page is about (and *Jass*, the jack of trumps, is also the name
of a Swiss game).

>>> sort_key("Élder hand", "fr") < sort_key("Enchère", "fr"), sort_key("الكبّة", "ar") == sort_key("كبّة", "ar")
(True, True)
"""

from __future__ import annotations

import re
import unicodedata
import xml.etree.ElementTree as etree
from collections.abc import Sequence
from typing import Any

import markdown
from markdown.treeprocessors import Treeprocessor

__all__ = ["GLOSSARY_SLUG", "UNLINKED", "TERM_PREFIX", "sort_key", "term_id", "english_term",
           "GlossaryEntries", "TermLinks", "term_pattern"]

UNLINKED = frozenset({"klaberjass", "klaverjas", "jass"})
"""Glossary entries (by anchor) the rules pages do not link to."""

GLOSSARY_SLUG = "glossary"
"""The slug of the glossary page (``NN-glossary.md``)."""

TERM_PREFIX = "term-"
"""The anchors of the glossary's entries: ``term-`` and the English term's slug."""

_BOLD_START = re.compile(r"^\s*\*\*(.+?)\*\*")
_NOT_A_WORD = re.compile(r"[,\"“”«»„‘’\d]")
_PLURALS = {"en": "(?:s|es)?", "fr": "(?:s|x)?", "es": "(?:s|es)?"}
_SKIPPED = frozenset({"h1", "h2", "h3", "h4", "h5", "h6", "a", "code", "pre", "th", "caption", "kbd"})
_ARTICLE = re.compile(r"^(?:al-|ال)")


def english_term(msgid: str) -> str | None:
    """The bold term an entry's msgid starts with (``**Trump suit**: …`` → ``Trump suit``)."""
    match = _BOLD_START.match(msgid)
    return match.group(1).strip("*_ ") if match else None


def term_id(term: str) -> str:
    """The anchor of an entry, from its English term.

    >>> term_id("Trump suit"), term_id('"Good."')
    ('term-trump-suit', 'term-good')
    """
    from klabsite.site.markdown_ext import slugify

    return TERM_PREFIX + slugify(term)


def sort_key(term: str, lang: str) -> tuple[str, str]:
    """How a term sorts A–Z in ``lang``: letters and digits only (no accents, spaces, apostrophes or
    hyphens), case-blind, and in Arabic without the article ال; ties broken by the exact text, so
    the order is stable (``Règles d’Amsterdam`` before ``Règles de Rotterdam``).

    This is a simple approximation of each language's collation, enough for a glossary of a
    hundred terms (Croatian č and ć sort with c).
    """
    text = term.strip().strip("\"“”«»„‘’'¡¿*_ ")
    if lang == "ar":
        text = _ARTICLE.sub("", text)
    decomposed = unicodedata.normalize("NFKD", text)
    base = "".join(char for char in decomposed if char.isalnum()).casefold()  # no accents, spaces or ’
    return base, text


def _text(element: etree.Element) -> str:
    return " ".join("".join(element.itertext()).split())


class GlossaryEntries(Treeprocessor):
    """On the glossary page: an anchor per entry, the entries of each list sorted A–Z, the terms
    collected in ``state["terms"]``. Runs after inline parsing, before the link stage collects ids.

    The English term of each entry is the ``data-klab-msgid`` attribute the translation stage left
    on the item (removed here).
    """

    def __init__(self, md: markdown.Markdown, lang: str, state: dict[str, Any], enabled: bool) -> None:
        super().__init__(md)
        self.lang = lang
        self.state = state
        self.enabled = enabled

    def run(self, root: etree.Element) -> None:
        if not self.enabled:
            for element in root.iter():
                element.attrib.pop("data-klab-msgid", None)
            return
        used: set[str] = set()
        if any(child.tag == "h3" for child in root):
            self._heading_entries(root, used)
        for parent in list(root.iter()):
            if parent.tag not in ("ul", "ol") or not len(parent):
                continue
            found = []
            for item in parent:
                loose = len(item) and item[0].tag == "p" and not (item.text or "").strip()
                block = item[0] if loose else item
                msgid = block.attrib.pop("data-klab-msgid", None)
                english = english_term(msgid) if item.tag == "li" and msgid else None
                first = block[0] if len(block) else None
                if english is None or first is None or first.tag != "strong" or (block.text or "").strip():
                    found = []
                    break
                found.append((english, _text(first), item))
            entries = []
            for english, term, item in found:
                ident = term_id(english)
                while ident in used:
                    ident += "-2"
                used.add(ident)
                item.set("id", ident)
                item.set("class", "term")
                entries.append((sort_key(term, self.lang), ident, term, item))
            if not entries:
                continue
            entries.sort(key=lambda entry: entry[0])
            for item in list(parent):
                parent.remove(item)
            for _key, ident, term, item in entries:
                parent.append(item)
                self.state["terms"].append((ident, term))
        for element in root.iter():
            element.attrib.pop("data-klab-msgid", None)

    def _heading_entries(self, root: etree.Element, used: set[str]) -> None:
        """The glossary written as ``## Letter`` sections of ``### Term`` entries: every entry (its
        heading and the blocks up to the next heading) sorted A–Z by its term in the page's
        language, under letter headings drawn again from the sorted terms."""
        children = list(root)
        start = next(index for index, child in enumerate(children) if child.tag in ("h2", "h3"))
        entries: list[tuple[tuple[str, str], list[etree.Element]]] = []
        for child in children[start:]:
            root.remove(child)
            if child.tag == "h3":
                english = child.attrib.pop("data-klab-msgid", None) or _text(child)
                ident = child.get("id") or term_id(english)  # the heading's own id: links keep working
                used.add(ident)
                child.set("class", "term")
                term = _text(child)
                entries.append((sort_key(term, self.lang), [child]))
                self.state["terms"].append((ident, term))
            elif child.tag != "h2" and entries:
                entries[-1][1].append(child)
        entries.sort(key=lambda entry: entry[0])
        self.state["terms"].sort(key=lambda item: sort_key(item[1], self.lang))
        letter = None
        for key, blocks in entries:
            initial = (key[0][:1] or "#").upper()
            if initial != letter:
                letter = initial
                ident = f"letter-{initial.lower()}" if initial.isascii() and initial.isalnum() else \
                    f"letter-{len(used)}"
                used.add(ident)
                heading = etree.SubElement(root, "h2", {"id": ident, "class": "letter"})
                heading.text = initial
            for block in blocks:
                root.append(block)


def term_pattern(terms: Sequence[tuple[str, str]],
                 lang: str) -> tuple[re.Pattern[str] | None, dict[str, str]]:
    """One pattern finding every linkable term (longest first), and each term's anchor by its
    case-folded text.

    >>> pattern, ids = term_pattern([("term-trump", "Trump"), ("term-trump-suit", "Trump suit")], "en")
    >>> pattern.search("Two trump suits").group(0), ids["trump suit"]
    ('trump suits', 'term-trump-suit')
    """
    ids: dict[str, str] = {}
    for ident, term in terms:
        if term and not _NOT_A_WORD.search(term) and ident not in UNLINKED:
            ids.setdefault(term.casefold(), ident)
    if not ids:
        return None, ids
    alternatives = "|".join(re.escape(term) for term in sorted(ids, key=lambda text: (-len(text), text)))
    plural = _PLURALS.get(lang, "")
    return re.compile(rf"(?<!\w)({alternatives}){plural}(?!\w)", re.IGNORECASE), ids


class TermLinks(Treeprocessor):
    """On every other rules page: the first use of each glossary term links to its entry."""

    def __init__(self, md: markdown.Markdown, href: str, terms: Sequence[tuple[str, str]], lang: str) -> None:
        super().__init__(md)
        self.href = href
        self.pattern, self.ids = term_pattern(terms, lang)
        self.linked: set[str] = set()

    def run(self, root: etree.Element) -> None:
        if self.pattern is not None:
            self._walk(root)

    def _walk(self, element: etree.Element) -> None:
        if element.tag in _SKIPPED or "card" in (element.get("class") or "").split():
            return
        element.text = self._link_in(element, element.text, 0)
        index = 0
        while index < len(element):
            child = element[index]
            self._walk(child)
            child.tail = self._link_in(element, child.tail, index + 1)
            index += 1

    def _link_in(self, parent: etree.Element, text: str | None, position: int) -> str | None:
        """Link the first unlinked term in ``text`` (the text before ``parent[position]``); the
        rest of the text becomes the new link's tail, where the next term is looked for."""
        if not text or self.pattern is None:
            return text
        for match in self.pattern.finditer(text):
            ident = self.ids[match.group(1).casefold()]
            if ident in self.linked or "\x02" in text[:match.start()].rsplit("\x03", 1)[-1]:
                continue
            self.linked.add(ident)
            link = etree.Element("a", {"class": "term-link", "href": f"{self.href}#{ident}"})
            link.text = match.group(0)
            link.tail = text[match.end():]
            parent.insert(position, link)
            return text[:match.start()]
        return text
