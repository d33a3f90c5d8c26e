"""The Python-Markdown extension behind the rules pages: directives, block translation, ids, links.

Stages, registered on a fresh ``markdown.Markdown`` per document and language:

0. ``klab-front-matter`` (preprocessor, first): an optional block at the very top of the file,
   between two ``---`` lines, of ``key: value`` lines. The one key is ``summary``: a sentence that
   describes the page (the home page lists it, ``<meta name=description>`` holds it). It is a
   message like any block, translated the same way. The block's lines become blank lines, so
   every later line keeps its number.
1. ``klab-directives`` (preprocessor, right after whitespace normalisation, which keeps lines):
   a paragraph that is exactly ``[[klab:NAME key=value …]]`` is replaced by what
   ``klabsite.site.directives.DIRECTIVES[NAME](localizer, args)`` returns, stashed so Markdown
   leaves it alone: views (:mod:`klabsite.site.views`), drawn by the language's components (the
   site's macros, :mod:`klabsite.site.components`), or a string of HTML. An unknown NAME is a
   :class:`BuildError` at that line.
   ``klab-raw-html-start`` (preprocessor, after the directives and fenced code) marks where the
   HTML written in the source starts in Markdown's stash, so that only that HTML is checked.
2. ``klab-translate`` (tree processor, before inline parsing): every block whose text is inline
   Markdown (paragraph, list item, heading, table cell, definition) is one message. Its text,
   whitespace-normalised, is the msgid; when the language has a translation, the translation
   replaces the text, inline Markdown and all; otherwise the English stays and the block is
   marked ``lang="en"``. Headings get an id from their ENGLISH text (``{#id}`` at the end of a
   heading sets it explicitly), so anchors are the same in every language.
3. ``klab-links`` (tree processor, after inline parsing): links to ``other.md#anchor`` become
   ``other.html#anchor``; tables are wrapped in a scrolling container; the ``h1`` is taken out
   (the template prints the title) and ``h2``/``h3`` are collected for the table of contents. On a
   right-to-left page every ``code`` span is isolated as left to right (``dir="ltr"``); code is
   marked English on other pages, and an option (``trick-rules=rotterdam``) breaks only after its
   ``=``. An emphasised word of another language (*nat*, *pit*) is marked with its ``lang``. Raw
   HTML and link targets are checked here, at their Markdown line (see below). Every ``h2``,
   ``h3`` and ``h4`` gets a visible "§" link to itself (named ``anchor_label``, "Link to this
   section"), to share the section. The stage also takes the page's lead paragraph and the ids
   of its headings.
4. ``klab-focusable-pre`` (postprocessor): a code block can be scrolled with the keyboard (a
   region named after its heading), and is marked English, left to right, on other pages.

Two stages of :mod:`klabsite.site.glossary`: ``klab-glossary-entries`` (before ``klab-links``, on
the glossary page: an anchor per entry, entries sorted A–Z in the page's language) and
``klab-term-links`` (last, on the other rules pages: the first use of each term links to it).

Markdown extensions enabled: tables, fenced_code, def_list, sane_lists, admonition.

Raw HTML in the prose is limited to :data:`ALLOWED_HTML`, harmless inline tags written without
attributes (``<kbd>Ctrl</kbd>``, ``H<sub>2</sub>O``, ``<bdi>…</bdi>``); any other tag, or any
attribute, is a :class:`BuildError` at its line. An HTML comment on its own (``<!-- TRANSLATORS:
… -->``) is a note for translators and is left out of the page. A link or image may not use a
``javascript:``, ``data:`` or other scheme; an image is always one of the site's files, and a link
out of the site is written with ``https://`` (see :mod:`klabsite.site.guard`).
"""

from __future__ import annotations

import datetime as dt
import html
import re
import shlex
import unicodedata
import xml.etree.ElementTree as etree
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import markdown
from markdown.extensions import Extension
from markdown.postprocessors import Postprocessor
from markdown.preprocessors import Preprocessor
from markdown.treeprocessors import Treeprocessor
from markdown.util import HTML_PLACEHOLDER_RE

from klabsite.site.errors import BuildError
from klabsite.site.glossary import GlossaryEntries, TermLinks
from klabsite.site.guard import scan_fragment, url_problem
from klabsite.site.i18n import GAME_WORDS

__all__ = ["DocumentContext", "RenderedDocument", "convert", "normalize", "slugify", "plain_text",
           "TEMPLATE_IDS", "DIRECTIVE_RE", "directive_arguments", "MARKDOWN_EXTENSIONS", "FRONT_MATTER_KEYS",
           "ALLOWED_HTML"]

MARKDOWN_EXTENSIONS = ("tables", "fenced_code", "def_list", "sane_lists", "admonition")
"""The standard Python-Markdown extensions the rules pages may use."""

TRANSLATABLE_TAGS = frozenset({"p", "li", "h1", "h2", "h3", "h4", "h5", "h6", "td", "th", "dt", "dd"})
"""Blocks whose text is one message."""

ALLOWED_HTML = ("abbr", "bdi", "br", "kbd", "sub", "sup", "wbr")
"""The raw HTML tags the rules prose may use, always without attributes: they change how text
reads (a key, an abbreviation, an index, a line break, an isolated name), never what a page does."""

DIRECTIVE_RE = re.compile(r"^\[\[klab:([A-Za-z0-9_-]+)((?:\s+[^\]]*)?)\]\]\s*$")
"""``[[klab:NAME key=value …]]`` on a line of its own."""

FRONT_MATTER_KEYS = {
    "summary": "the page's summary in one sentence: the home page lists it under the page's title, and "
               "search engines show it (<meta name=description>)",
    "updated": "the date the page's rules last changed (YYYY-MM-DD), shown under the page; not translated",
}
"""The keys a front-matter block may set, with the note translators get for each."""

_DIRECTIVE_START = re.compile(r"\[\[klab:")
_FRONT_MATTER_FENCE = "---"
_FRONT_MATTER_LINE = re.compile(r"^([A-Za-z][\w-]*):\s*(.*)$")
_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
_EXPLICIT_ID = re.compile(r"\s*\{#([A-Za-z][\w-]*)\}\s*$")
_HAS_WORD = re.compile(r"[^\W\d_]")
_ENTITY = re.compile(r"&(?:#[0-9]+|#[xX][0-9A-Fa-f]+|[A-Za-z][A-Za-z0-9]*);")
_COMMENT = re.compile(r"<!--(?!-?>)(?:(?!<!--|--!?>).)*(?<!-)-->", re.DOTALL)
_SCHEME_OR_HOST = re.compile(r"^(?:[a-z][a-z0-9+.-]*:|//)", re.IGNORECASE)


_SPACES = re.compile(r"[ \t\n\r\f\v]+")


def normalize(text: str) -> str:
    """A block's text as a msgid: runs of whitespace (line breaks included) become one space.

    No-break spaces are kept: French writes one before a colon (``Klaberjass\u00a0:``), and a
    title must not break there.

    >>> normalize("  one\\n  two  three ")
    'one two three'
    >>> normalize("Klaberjass\u00a0: la\u202fmarque")
    'Klaberjass\xa0: la\u202fmarque'
    """
    return _SPACES.sub(" ", text).strip()


_TAG = re.compile(r"<[^>]+>")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.DOTALL)
_ESCAPED = re.compile(r"\\(.)")
_KEPT = re.compile("\ue000(\\d+)\ue001")
_ESCAPED_PLACEHOLDER = re.compile("\x02(\\d+)\x03")
"""A character Markdown escaped (``\\*``), as it stands in the tree until the end."""


def plain_text(inline: str) -> str:
    r"""Inline Markdown reduced to its words (for heading ids and summaries), entities as
    characters; the text of inline code and escaped characters as written.

    >>> plain_text("The **jack** of [trumps](cards.md#x) `JH` &amp; <sub>2</sub>")
    'The jack of trumps JH & 2'
    >>> plain_text(r"Code `&lt;i&gt;` and `<kbd>`, c\*d")
    'Code &lt;i&gt; and <kbd>, c*d'
    """
    kept: list[str] = []

    def keep(text: str) -> str:
        kept.append(text)
        return f"\ue000{len(kept) - 1}\ue001"

    text = _CODE_SPAN.sub(lambda match: keep(match.group(2).strip()), inline)
    text = _ESCAPED.sub(lambda match: keep(match.group(1)), text)
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = _TAG.sub("", text)
    text = re.sub(r"[*_`]+", "", text)
    text = html.unescape(HTML_PLACEHOLDER_RE.sub("", text))
    return normalize(_KEPT.sub(lambda match: kept[int(match.group(1))], text))


TEMPLATE_IDS = frozenset({"main", "toc-heading", "page-list-heading", "rules-heading", "deals-heading",
                          "step-nav", "marks", "analysis", "matches", "turns", "costly"})
"""The ids the bundled templates give their own elements (the skip link's ``main``, the contents'
heading …): a heading of the same words gets the next free id (``main-2``), so no page holds an
id twice."""


def slugify(text: str) -> str:
    """A heading id, as Python-Markdown's ``toc`` makes it.

    >>> slugify("The rules both agree on"), slugify("Bella — K & Q of trumps"), slugify("Schmeiss!")
    ('the-rules-both-agree-on', 'bella-k-q-of-trumps', 'schmeiss')
    """
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[-\s]+", "-", text) or "section"


Directive = Callable[[Any, dict[str, str]], Any]
"""A directive: ``(localizer, args)`` to views (:mod:`klabsite.site.views`) or a string of HTML."""


@dataclass
class DocumentContext:
    """What one conversion needs: the file (for messages), the language, and the link map.

    ``translate(msgid) -> str | None`` returns the translation or None (English stays);
    ``localizer`` and ``directives`` are only needed when rendering (``extract=False``), and
    ``components``, the macros that draw the views directives return (by default the localizer's).
    """

    path: str
    source_lang: str = "en"
    lang: str = "en"
    dir: str = "ltr"
    translate: Callable[[str], str | None] = lambda msgid: None
    localizer: Any = None
    directives: Mapping[str, Directive] = field(default_factory=dict)
    components: Any = None
    page_links: Mapping[str, str] = field(default_factory=dict)
    table_label: str = "Table"
    extract: bool = False
    anchor_label: str = ""
    """The title of the link each heading's words become (``Link to this section``); empty: no
    such links."""
    glossary: bool = False
    """This document is the glossary: its entries get anchors and are sorted
    (:mod:`klabsite.site.glossary`)."""
    glossary_href: str = ""
    """The glossary page (``glossary.html``) the first use of each of ``terms`` links to."""
    terms: Sequence[tuple[str, str]] = ()
    """(anchor, term as this language writes it) of the glossary's entries."""


@dataclass
class RenderedDocument:
    """One Markdown document converted for one language."""

    html: str
    title: str
    headings: list[tuple[int, str, str]]
    """(level, id, text) of every ``h2`` and ``h3``, in order."""
    messages: list[tuple[int, str]]
    """(line, msgid) of every translatable block, in order."""
    links: list[tuple[int, str]]
    """(line, URL) of every link and image within the site, after rewriting (``other.html#x``, ``#x``)."""
    ids: set[str]
    translated: int
    total: int
    lead: str = ""
    """The first paragraph's text after the title (for summaries)."""
    summary: str = ""
    """The front matter's ``summary`` (translated when the language has it), as plain text."""
    summary_lang: str = ""
    """The language :attr:`summary` is in (the source language when it is not translated yet)."""
    updated: dt.date | None = None
    """The front matter's ``updated``: when the page's rules last changed."""
    notes: dict[int, str] = field(default_factory=dict)
    """Notes for translators by message line (the front matter's keys)."""
    texts: list[tuple[int, str, str, bool]] = field(default_factory=list)
    """(line, msgid, the text shown, whether it is a translation) of every message, in order (for
    the build's checks of what translators and writers wrote: length, punctuation)."""
    summary_line: int = 0
    """The Markdown line of the front matter's ``summary`` (0 without one)."""
    summary_msgid: str = ""
    """The summary's msgid (its English text, whitespace-normalised)."""
    terms: list[tuple[str, str]] = field(default_factory=list)
    """On a glossary page: (anchor id, term as shown in this language) of every term, in the
    page's (sorted) order."""


@dataclass
class DocumentState:
    """What the stages of one conversion find and hand on; :func:`convert` makes it the
    :class:`RenderedDocument` (see there for each field)."""

    source: str
    messages: list[tuple[int, str]] = field(default_factory=list)
    links: list[tuple[int, str]] = field(default_factory=list)
    headings: list[tuple[int, str, str]] = field(default_factory=list)
    ids: set[str] = field(default_factory=set)
    translated: int = 0
    total: int = 0
    title: str | None = None
    """The ``h1``'s text, once the link stage has taken it out (None before, or without one)."""
    lead: str = ""
    summary: str = ""
    summary_lang: str = ""
    summary_line: int = 0
    summary_msgid: str = ""
    updated: dt.date | None = None
    notes: dict[int, str] = field(default_factory=dict)
    texts: list[tuple[int, str, str, bool]] = field(default_factory=list)
    terms: list[tuple[str, str]] = field(default_factory=list)
    body_start: int = 0
    """The index of the first line after the front matter."""
    raw_from: int = 0
    """Markdown's HTML stash counter once the source's own HTML starts (``klab-raw-html-start``)."""


class _FrontMatter(Preprocessor):
    """Reads (and blanks out) the ``---`` block of ``key: value`` lines at the top of a document."""

    def __init__(self, md: markdown.Markdown, context: DocumentContext, state: DocumentState) -> None:
        super().__init__(md)
        self.context = context
        self.state = state

    def run(self, lines: list[str]) -> list[str]:
        first = next((index for index, line in enumerate(lines) if line.strip()), None)
        if first is None or lines[first].strip() != _FRONT_MATTER_FENCE:
            return lines
        end = next((index for index in range(first + 1, len(lines))
                    if lines[index].strip() == _FRONT_MATTER_FENCE), None)
        if end is None:
            raise BuildError("the front matter that starts here has no closing --- line",
                             self.context.path, first + 1)
        values: dict[str, tuple[int, list[str]]] = {}
        key = ""
        for index in range(first + 1, end):
            line = lines[index]
            if not line.strip():
                continue
            match = _FRONT_MATTER_LINE.match(line)
            if line[:1].isspace() and key:
                values[key][1].append(line.strip())
            elif match and match.group(1) in FRONT_MATTER_KEYS:
                key = match.group(1)
                if key in values:
                    raise BuildError(f"front matter: {key!r} is given twice", self.context.path, index + 1)
                values[key] = (index + 1, [match.group(2)])
            else:
                known = ", ".join(f"{name}: …" for name in FRONT_MATTER_KEYS)
                raise BuildError(f"front matter: cannot read {line.strip()!r} (known keys: {known})",
                                 self.context.path, index + 1)
        if "summary" in values:
            number, parts = values["summary"]
            self._summary(number, normalize(" ".join(parts)))
        if "updated" in values:
            number, parts = values["updated"]
            try:
                self.state.updated = dt.date.fromisoformat(" ".join(parts).strip())
            except ValueError:
                given = " ".join(parts)
                raise BuildError(f"front matter: updated takes a date such as 2026-12-01, not {given!r}",
                                 self.context.path, number) from None
        self.state.body_start = end + 1
        return [""] * (end + 1) + lines[end + 1:]

    def _summary(self, line: int, msgid: str) -> None:
        if not msgid:
            raise BuildError("front matter: the summary is empty", self.context.path, line)
        context, state = self.context, self.state
        state.messages.append((line, msgid))
        state.notes[line] = FRONT_MATTER_KEYS["summary"]
        state.total += 1
        translation = None if context.extract else (
            context.translate(msgid) if context.lang != context.source_lang else msgid)
        if translation:
            state.translated += 1
        state.summary = plain_text(translation or msgid)
        state.summary_lang = context.lang if translation else context.source_lang
        state.summary_line, state.summary_msgid = line, msgid
        state.texts.append((line, msgid, translation or msgid,
                               bool(translation) and context.lang != context.source_lang))


class _Directives(Preprocessor):
    def __init__(self, md: markdown.Markdown, context: DocumentContext) -> None:
        super().__init__(md)
        self.context = context

    def run(self, lines: list[str]) -> list[str]:
        out: list[str] = []
        fence: str | None = None
        for index, line in enumerate(lines):
            if fence is not None:
                if line.strip().startswith(fence):
                    fence = None
                out.append(line)
                continue
            if match := _FENCE.match(line):
                fence = match.group(1)[0] * len(match.group(1))
                out.append(line)
                continue
            if line.startswith(("    ", "\t")) or not _DIRECTIVE_START.search(_CODE_SPAN.sub("", line)):
                out.append(line)
                continue
            out.append(self._expand(lines, index))
        return out

    def _expand(self, lines: list[str], index: int) -> str:
        line = lines[index]
        where = (self.context.path, index + 1)
        match = DIRECTIVE_RE.match(line.strip())
        alone = (index == 0 or not lines[index - 1].strip()) and (
            index + 1 == len(lines) or not lines[index + 1].strip())
        if not match or not alone:
            raise BuildError("a directive must be a paragraph of its own: [[klab:NAME key=value ...]]",
                             *where)
        name, arguments = match.group(1), match.group(2)
        args = _parse_arguments(arguments, where)
        if self.context.extract:
            return ""
        directive = self.context.directives.get(name)
        if directive is None:
            known = ", ".join(sorted(self.context.directives)) or "none"
            raise BuildError(f"unknown directive {name!r} (known: {known})", *where)
        components = self.context.components or self.context.localizer.components
        try:
            block = components.directive(name, directive(self.context.localizer, args))
        except BuildError:
            raise
        except Exception as error:  # a directive's own failure, reported at its line
            message = str(error)
            if not message.startswith(f"klab:{name}:"):  # the directives' own errors name it
                message = f"directive {name!r} failed: {message}"
            raise BuildError(message, *where) from error
        return self.md.htmlStash.store(str(block))


def directive_arguments(text: str) -> dict[str, str]:
    """A directive's ``key=value`` pairs (a value may be quoted: ``cards="9H JH"``); a
    :class:`ValueError` says what cannot be read.

    >>> directive_arguments(' game=klaverjas cards="9H JH"')
    {'game': 'klaverjas', 'cards': '9H JH'}
    """
    try:
        words = shlex.split(text)
    except ValueError as error:
        raise ValueError(f"cannot read the arguments: {error}") from None
    args: dict[str, str] = {}
    for word in words:
        key, sep, value = word.partition("=")
        if not sep or not key:
            raise ValueError(f"cannot read argument {word!r}: write key=value")
        if key in args:
            raise ValueError(f"argument {key!r} is given twice")
        args[key] = value
    return args


def _parse_arguments(text: str, where: tuple[str, int]) -> dict[str, str]:
    try:
        return directive_arguments(text)
    except ValueError as error:
        raise BuildError(f"directive {error}", *where) from None


class _RawHtmlStart(Preprocessor):
    """Runs after the directives and fenced code, before raw HTML is read: every piece of HTML
    Markdown keeps aside from here on (block and inline) was written in the source."""

    def __init__(self, md: markdown.Markdown, state: DocumentState) -> None:
        super().__init__(md)
        self.state = state

    def run(self, lines: list[str]) -> list[str]:
        self.state.raw_from = self.md.htmlStash.html_counter
        return lines


class _LineFinder:
    """Finds the source line of each block, searching forward in document order."""

    def __init__(self, source: str, start: int = 0) -> None:
        self.lines = source.split("\n")
        self.cursor = start

    def find(self, text: str) -> int:
        first = next((part.strip() for part in text.split("\n") if part.strip()), "")
        first = HTML_PLACEHOLDER_RE.split(first)[0].strip() or first
        for index in range(self.cursor, len(self.lines)):
            if first and first in self.lines[index]:
                self.cursor = index
                return index + 1
        return self.cursor + 1


class _Translate(Treeprocessor):
    def __init__(self, md: markdown.Markdown, context: DocumentContext, state: DocumentState) -> None:
        super().__init__(md)
        self.context = context
        self.state = state

    def run(self, root: etree.Element) -> None:
        self.finder = _LineFinder(self.state.source, self.state.body_start)
        self.used_ids: set[str] = set(TEMPLATE_IDS)
        self._walk(root, self.context.lang)

    def _walk(self, element: etree.Element, current_lang: str) -> None:
        for child in element:
            lang = current_lang
            if child.tag in TRANSLATABLE_TAGS and child.text and child.text.strip():
                lang = self._block(child, current_lang)
            self._walk(child, lang)

    def _block(self, element: etree.Element, current_lang: str) -> str:
        context = self.context
        text = element.text or ""
        line = self.finder.find(text)
        element.set("data-klab-line", str(line))
        if element.tag[0] == "h" and element.tag != "hr":
            explicit = _EXPLICIT_ID.search(text)
            if explicit:
                text = text[: explicit.start()]
                element.text = text
            if element.tag != "h1":
                self._set_id(element, explicit.group(1) if explicit else slugify(plain_text(text)), line)
        msgid = normalize(text)
        if not _HAS_WORD.search(HTML_PLACEHOLDER_RE.sub("", msgid)):
            return current_lang
        self.state.messages.append((line, msgid))
        self.state.total += 1
        if context.extract:
            return current_lang
        translation = context.translate(msgid) if context.lang != context.source_lang else msgid
        self.state.texts.append((line, msgid, translation or msgid,
                                    bool(translation) and context.lang != context.source_lang))
        if context.glossary:
            element.set("data-klab-msgid", msgid)
        if translation:
            self.state.translated += 1
            element.text = translation
            lang = context.lang
        else:
            lang = context.source_lang
        if lang != current_lang:
            element.set("lang", lang)
            if lang == context.source_lang and context.dir == "rtl":
                element.set("dir", "ltr")
            elif lang == context.lang and context.dir == "rtl":
                element.set("dir", "rtl")
        return lang

    def _set_id(self, element: etree.Element, slug: str, line: int) -> None:
        if slug in self.used_ids:
            number = 2
            while f"{slug}-{number}" in self.used_ids:
                number += 1
            slug = f"{slug}-{number}"
        self.used_ids.add(slug)
        element.set("id", slug)


class _Links(Treeprocessor):
    @staticmethod
    def _wrap_table(table: etree.Element, parent: etree.Element, label: str, number: int) -> None:
        """Put a table in a scrolling region named after the heading it stands under (the second
        table under one heading is "Heading (2)"), so each region's name is unique on the page."""
        if number > 1:
            label = f"{label} ({number})"
        if table.find("caption") is None:  # a Markdown table: named after its heading too
            caption = etree.Element("caption", {"class": "visually-hidden"})
            caption.text = label
            table.insert(0, caption)
        index = list(parent).index(table)
        wrapper = etree.Element("div", {"class": "table-wrap", "tabindex": "0", "role": "region",
                                        "aria-label": label})
        parent.remove(table)
        parent.insert(index, wrapper)
        wrapper.append(table)

    def __init__(self, md: markdown.Markdown, context: DocumentContext, state: DocumentState) -> None:
        super().__init__(md)
        self.context = context
        self.state = state

    def run(self, root: etree.Element) -> None:
        self.lines = self.state.source.split("\n")
        if not self.context.extract:
            self._raw_html(root, 1)
        self._walk(root, 1)
        parents = {child: parent for parent in root.iter() for child in parent}
        heading, tables = "", 0
        for element in list(root.iter()):
            if element.tag == "h1" and self.state.title is None:
                self.state.title = self._text(element)
                parents[element].remove(element)
            elif element.tag in ("h2", "h3", "h4"):
                heading, tables = self._text(element), 0
            elif element.tag == "table":
                tables += 1
                self._wrap_table(element, parents[element], heading or self.context.table_label, tables)
        for element in root.iter():
            ident = element.get("id")
            if element.tag in ("h2", "h3") and ident:
                self.state.headings.append((int(element.tag[1]), ident, self._text(element)))
            if ident:
                self.state.ids.add(ident)
            if element.tag == "p" and self.state.title is not None and not self.state.lead:
                self.state.lead = self._text(element)
            element.attrib.pop("data-klab-line", None)
        in_pre = {id(code) for pre in root.iter("pre") for code in pre.iter("code")}
        for code in [code for code in root.iter("code") if id(code) not in in_pre]:
            _option_code(code, self.context)
        for word in root.iter("em"):
            lang = FOREIGN_WORDS.get((word.text or "").strip().casefold()) if not len(word) else None
            if lang and lang != self.context.lang:
                word.set("lang", lang)
        if self.context.anchor_label and not self.context.extract:
            for titled in [element for element in root.iter() if element.tag in ("h2", "h3", "h4")
                           and element.get("id")]:
                _link_to_itself(titled, self.context.anchor_label)

    def _text(self, element: etree.Element) -> str:
        """The words of ``element`` as a reader sees them (for the title, contents and lead):
        raw tags dropped, entities (``&lt;``, and the escaped text of inline code) as characters.
        On a right-to-left page inline code is isolated as left to right (``⁦.klab⁩``), as its
        ``<code>`` element is: without it the dot of ``.klab`` would move to its end."""
        stash = self.md.htmlStash.rawHtmlBlocks

        def stashed(match: re.Match[str]) -> str:
            index = int(match.group(1))
            return _TAG.sub("", str(stash[index])) if index < len(stash) else ""

        def words(node: etree.Element) -> str:
            inner = "".join(node.itertext()) if node.tag == "code" else (node.text or "") + "".join(
                words(child) + (child.tail or "") for child in node)
            return f"\u2066{inner}\u2069" if node.tag == "code" and self.context.dir == "rtl" else inner

        text = html.unescape(HTML_PLACEHOLDER_RE.sub(stashed, words(element)))
        return normalize(_ESCAPED_PLACEHOLDER.sub(lambda match: chr(int(match.group(1))), text))

    def _line_of(self, text: str, line: int) -> int:
        """The line, from the block's first ``line`` on, where ``text`` (its first line) is written."""
        first = next((part.strip() for part in text.split("\n") if part.strip()), "")
        for index in range(line - 1, len(self.lines)):
            if first and first in self.lines[index]:
                return index + 1
        return line

    def _raw_html(self, element: etree.Element, line: int) -> None:
        """Check every piece of raw HTML (kept aside by Markdown as placeholders) at its line."""
        for child in list(element):
            child_line = int(child.get("data-klab-line", line))
            text = child.text
            child.text = self._check_raw(child.text, child_line)
            self._raw_html(child, child_line)
            child.tail = self._check_raw(child.tail, line)
            if text and not (child.text or "").strip() and not len(child) and child.tag == "p":
                element.remove(child)  # a paragraph that only held a comment

    def _check_raw(self, text: str | None, line: int) -> str | None:
        if not text or "\x02" not in text:
            return text
        stash = self.md.htmlStash.rawHtmlBlocks

        def check(match: re.Match[str]) -> str:
            index = int(match.group(1))
            raw = stash[index] if index < len(stash) else ""
            if index < self.state.raw_from or not isinstance(raw, str) or _ENTITY.fullmatch(raw):
                return match.group(0)
            if _COMMENT.fullmatch(raw.strip()):
                return ""  # a note for translators: not published
            problems = scan_fragment(raw, ALLOWED_HTML)
            if problems:
                at = self._line_of(raw, line) + problems[0].line - 1
                raise BuildError(problems[0].message, self.context.path, at)
            return match.group(0)

        return HTML_PLACEHOLDER_RE.sub(check, text)

    def _walk(self, element: etree.Element, line: int) -> None:
        for child in element:
            child_line = int(child.get("data-klab-line", line))
            attr = {"a": "href", "img": "src"}.get(child.tag)
            url = child.get(attr) if attr else None
            if url is not None and not self.context.extract:
                at = self._line_of(url, child_line) if url else child_line
                problem = url_problem(child.tag, dict(child.attrib), attr or "", url)
                if problem:
                    raise BuildError(problem, self.context.path, at)
                if attr == "href":
                    url = self._rewrite(url, at)
                    child.set("href", url)
                if not _SCHEME_OR_HOST.match(url):
                    self.state.links.append((at, url))
            self._walk(child, child_line)

    def _rewrite(self, href: str, line: int) -> str:
        if _SCHEME_OR_HOST.match(href):
            return href
        target, _, fragment = href.partition("#")
        name = target.rsplit("/", 1)[-1]
        if not target or not name.endswith(".md"):
            return href
        page = self.context.page_links.get(name)
        if page is None:
            raise BuildError(f"link to {target!r}: no such rules page", self.context.path, line)
        return page + (f"#{fragment}" if fragment else "")


_OPTION_CODE = re.compile(r"^([A-Za-z0-9_.-]+=?)([A-Za-z0-9_.-]+)?$")

FOREIGN_WORDS = {
    **dict.fromkeys(("aas", "heer", "vrouw", "boer", "jas", "nel", "klaver", "klaverjas", "klaverjassen",
                     "smeren", "verzaken", "verzaakt", "verplicht", "mars", "kraken", "leids", "twents",
                     "utrechts", "troef", "maat", "bekennen", "introeven", "overtroeven", "ondertroeven",
                     "klaveren", "ruiten", "harten", "schoppen"), "nl"),
    **GAME_WORDS,
    "štiglja": "hr",
}
"""The words the rules pages quote in another language, in italics (``*verzaakt*``, a translation's
``*roem*``): each such ``<em>`` says its language (``lang="nl"``), so that a screen reader says it
as a Dutch word rather than spelling it out. A word on a page of its own language stays as it is
(``*dix*`` on a French page), and so does an inflected form (the Croatian ``*roema*``)."""


def _link_to_itself(heading: etree.Element, label: str) -> None:
    """Make the words of ``heading`` a link to it (the stylesheet adds a "§" after them, which a
    screen reader does not read), titled ``label`` (``Link to this section``): the heading's
    accessible name stays its words. A heading that holds a link already gets a "§" link of its
    own after its words instead, named ``label``."""
    href = f"#{heading.get('id')}"
    if any(element.tag == "a" for element in heading.iter()):
        anchor = etree.SubElement(heading, "a", {"class": "heading-anchor is-mark", "href": href,
                                                 "aria-label": label})
        anchor.text = "§"
        if len(heading) > 1:
            heading[-2].tail = (heading[-2].tail or "") + " "
        else:
            heading.text = (heading.text or "") + " "
        return
    anchor = etree.Element("a", {"class": "heading-anchor", "href": href, "title": label})
    anchor.text, heading.text = heading.text, None
    for child in list(heading):
        heading.remove(child)
        anchor.append(child)
    heading.append(anchor)


def _option_code(code: etree.Element, context: DocumentContext) -> None:
    """An inline ``name=value`` breaks only after the ``=``; code is English, left to right.

    Like the directives' options: ``<code><span>name=</span><wbr><span>value</span></code>``, each
    span kept on one line by the stylesheet, so ``equal-meld=neither`` never splits at a hyphen.
    Code (option names, ``nobella``, seat letters) is English in every language: on another
    language's page it says so (``lang="en"``), for screen readers. On a right-to-left page it is
    isolated left to right and never breaks: a line break inside an isolate would put its halves
    and the punctuation around them in the wrong order.
    """
    if context.lang != context.source_lang:
        code.set("lang", context.source_lang)
    if context.dir == "rtl":
        code.set("dir", "ltr")  # option names stay whole, punctuation lands on the right side
    match = _OPTION_CODE.match(code.text or "")
    if match is None or len(code):
        return
    code.text = None
    if context.dir == "rtl":
        etree.SubElement(code, "span").text = match.group(0)
        return
    for index, part in enumerate(match.groups()):
        if part is None:
            continue
        if index:
            etree.SubElement(code, "wbr")
        etree.SubElement(code, "span").text = part


class _FocusablePre(Postprocessor):
    """Code blocks scroll sideways on narrow screens; ``tabindex`` lets the keyboard scroll them,
    and under a heading that keyboard stop is a region named after it ("Heading (2)" for the
    second block), as tables are. Their text (commands, records, their comments) is English in
    every language: on another language's page a block says so (``lang="en"``), and on a
    right-to-left page it runs left to right."""

    def __init__(self, md: markdown.Markdown, context: DocumentContext) -> None:
        super().__init__(md)
        self.context = context

    def run(self, text: str) -> str:
        context = self.context
        marks = ' tabindex="0"'
        if context.lang != context.source_lang:
            marks += f' lang="{context.source_lang}"'
        if context.dir == "rtl":
            marks += ' dir="ltr"'
        heading, count = "", 0

        def mark(match: re.Match[str]) -> str:
            nonlocal heading, count
            if match.group(1) is not None:  # a heading: the blocks under it are named after it
                heading, count = normalize(html.unescape(re.sub(r"<[^>]+>", "", match.group(1)))), 0
                return match.group(0)
            if not heading:
                return f"<pre{marks}>"
            count += 1
            label = heading if count == 1 else f"{heading} ({count})"
            return f'<pre{marks} role="region" aria-label="{html.escape(label)}">'

        return re.sub(r"<h[234][^>]*>(.*?)</h[234]>|<pre>", mark, text, flags=re.S)


class KlabExtension(Extension):
    """Registers the klab stages for one document (see the module docstring)."""

    def __init__(self, context: DocumentContext, state: DocumentState) -> None:
        super().__init__()
        self.context = context
        self.state = state

    def extendMarkdown(self, md: markdown.Markdown) -> None:  # noqa: N802 (Python-Markdown's name)
        md.registerExtension(self)
        md.preprocessors.register(_FrontMatter(md, self.context, self.state), "klab-front-matter", 29.5)
        md.preprocessors.register(_Directives(md, self.context), "klab-directives", 29)
        md.preprocessors.register(_RawHtmlStart(md, self.state), "klab-raw-html-start", 22)
        md.treeprocessors.register(_Translate(md, self.context, self.state), "klab-translate", 30)
        context = self.context
        md.treeprocessors.register(GlossaryEntries(md, context.lang, self.state,
                                                   context.glossary and not context.extract),
                                   "klab-glossary-entries", 16)
        md.treeprocessors.register(_Links(md, context, self.state), "klab-links", 15)
        md.postprocessors.register(_FocusablePre(md, context), "klab-focusable-pre", 0)
        if context.terms and context.glossary_href and not context.glossary and not context.extract:
            md.treeprocessors.register(TermLinks(md, context.glossary_href, context.terms, context.lang),
                                       "klab-term-links", 14)


def convert(source: str, context: DocumentContext) -> RenderedDocument:
    """Convert one Markdown document for one language (or only extract its messages).

    >>> doc = convert("# Title\\n\\nSee [the cards](01-cards.md#tricks).\\n",
    ...               DocumentContext("x.md", page_links={"01-cards.md": "cards.html"}))
    >>> doc.title, doc.html
    ('Title', '<p>See <a href="cards.html#tricks">the cards</a>.</p>')
    >>> doc.messages
    [(1, 'Title'), (3, 'See [the cards](01-cards.md#tricks).')]
    """
    state = DocumentState(source)
    md = markdown.Markdown(extensions=[*MARKDOWN_EXTENSIONS, KlabExtension(context, state)],
                           output_format="html")
    html = md.convert(source)
    return RenderedDocument(html=html, title=state.title or "", headings=state.headings,
                            messages=state.messages, links=state.links, ids=state.ids,
                            translated=state.translated, total=state.total, lead=state.lead,
                            summary=state.summary, summary_lang=state.summary_lang,
                            notes=state.notes, texts=state.texts, summary_line=state.summary_line,
                            summary_msgid=state.summary_msgid, terms=state.terms, updated=state.updated)
