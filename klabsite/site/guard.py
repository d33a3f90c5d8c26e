"""The output guard: what no page, stylesheet or image of the site may contain.

Every output is checked after rendering and before anything is written; a problem fails the
build at the source that produced it (the caller maps a :class:`Problem` to its template,
Markdown file or catalog line). Pages are read with :mod:`html.parser`, the way a browser tokenizes
them, so case and whitespace hide nothing (``<ScRiPt``, ``onclick =``, ``&#106;avascript:``).

A page may not contain:

* the elements ``script``, ``iframe``, ``frame``, ``frameset``, ``object``, ``embed``, ``applet``,
  ``portal``, ``form``, ``base``, SVG's ``foreignObject`` and animation elements; nor a ``style``
  element (the policy lets only the site's own stylesheets style a page); nor the elements whose
  content a browser reads as text where this guard would read markup (``noscript``, ``xmp``,
  ``noembed``, ``noframes``, ``plaintext``, ``textarea``), and no markup inside ``<title>``: a
  ``<p title="</noscript><img onerror=…>">`` would be harmless text here and a live image there;
* an event-handler attribute (``on…``), an inline ``style`` or a ``srcdoc`` attribute;
* in a URL attribute (``href``, ``src``, ``action``, ``formaction``, ``srcset``, ``poster``,
  ``xlink:href`` …): a ``javascript:``, ``vbscript:``, ``data:`` or any other scheme's URL, or an
  absolute or protocol-relative (``//host``) URL. The exceptions: ``https://`` and ``mailto:`` in
  ``<a href>`` (a link the reader follows: "further reading"), and the ``canonical`` and
  ``alternate`` ``<link>`` URLs under the site's ``--base-url``. A resource (``src``, ``<link
  href>``, CSS ``url()``) is always one of the site's own files;
* a ``<meta http-equiv>`` other than the Content-Security-Policy (no ``refresh``);
* an HTML comment, a processing instruction or CDATA, or a ``<`` that does not start a tag (text
  is always escaped, so this is broken markup, where browsers and parsers may disagree).

And every page has exactly one Content-Security-Policy ``<meta>``, in ``<head>`` before any
stylesheet, whose policy forbids scripts (``script-src``, or else ``default-src``, is ``'none'``).

>>> [p.message for p in scan_page('<p onclick="x">hi</p>').problems][:1]
['an event-handler attribute onclick on <p>: the site runs no scripts; remove it']
>>> url_problem("a", {}, "href", "https://example.org/"), url_problem("img", {}, "src", "//x.org/a.png")
(None, "an external resource in <img src> ('//x.org/a.png'): the site loads only its own files")
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from html.parser import HTMLParser, attrfind_tolerant  # type: ignore[attr-defined]
from typing import Any

import tinycss2

from klabsite.site.errors import quote

__all__ = ["Problem", "Scan", "scan_page", "scan_fragment", "scan_svg", "check_css", "url_problem",
           "URL_ATTRIBUTES", "FORBIDDEN_ELEMENTS"]

FORBIDDEN_ELEMENTS = frozenset({
    "script", "iframe", "frame", "frameset", "object", "embed", "applet", "portal", "form", "base",
    "foreignobject", "animate", "animatemotion", "animatetransform", "set", "handler", "listener",
})
"""Elements that run code, load other documents, send data or change how URLs resolve."""

_TEXT_ELEMENTS = frozenset({"noscript", "xmp", "noembed", "noframes", "plaintext", "textarea"})
"""Elements whose content browsers read as text up to their end tag, where :mod:`html.parser`
reads markup (``<title>`` is one too, but a page needs it: it may hold no markup)."""
_TITLE_END = re.compile(r"</title[\t\n\f\r />]", re.IGNORECASE)
"""Where a browser ends a title: ``</title`` then a space, ``/`` or ``>`` (not ``</titlex>``)."""

URL_ATTRIBUTES = frozenset({
    "href", "src", "action", "formaction", "srcset", "imagesrcset", "poster", "xlink:href",
    "background", "ping", "data", "manifest", "cite", "longdesc", "codebase", "lowsrc", "dynsrc",
    "icon",
})
"""Attributes whose value is a URL (or, for ``srcset``, a list of them)."""

_FORBIDDEN_ATTRIBUTES = {"style": "an inline style attribute", "srcdoc": "a srcdoc attribute"}
_CSP = "content-security-policy"
_IGNORED_IN_URLS = re.compile(r"[\t\n\r]")
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):")
_UNSAFE_SCHEMES = frozenset({"javascript", "vbscript", "data", "file", "blob", "filesystem"})
_ANCHOR_SCHEMES = frozenset({"https", "mailto"})
_SPECIAL_ELEMENTS = FORBIDDEN_ELEMENTS | _TEXT_ELEMENTS | {"head", "body", "style", "meta", "link", "img",
                                                           "title"}
_SVG = "http://www.w3.org/2000/svg"
_XLINK = "http://www.w3.org/1999/xlink"
_PLAIN_PATH = re.compile(r"[A-Za-z0-9._#?%~-][^:\x00-\x20]*\Z")
"""A relative URL that cannot hide a scheme or a host: no colon, no space, no leading slash."""


@dataclass(frozen=True)
class Problem:
    """One thing an output may not contain: where in the output, what, and how to find its source.

    ``needles`` are texts to look for in the sources (templates, catalogs, Markdown), best first.
    """

    line: int
    message: str
    needles: tuple[str, ...] = ()


def _clean_url(url: str) -> str:
    """The URL as a browser reads it: tabs and newlines removed, spaces and controls trimmed."""
    return _IGNORED_IN_URLS.sub("", url).strip("\x00\x01\x02\x03\x04\x05\x06\x07\x08\x0b\x0c\x0e\x0f"
                                                "\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c"
                                                "\x1d\x1e\x1f \x7f")


def url_problem(tag: str, attrs: dict[str, str | None], attr: str, value: str,
                base_url: str | None = None) -> str | None:
    """Why this URL may not be in ``<tag attr=value>``, or None when it may."""
    urls = [part.strip().split(" ")[0] for part in value.split(",")] if attr.endswith("srcset") else [value]
    for raw in urls:
        url = _clean_url(raw)
        where = f"<{tag} {attr}>"
        scheme = _SCHEME.match(url)
        if scheme:
            name = scheme.group(1).lower()
            if name in _UNSAFE_SCHEMES:
                link = tag in ("a", "area") and attr in ("href", "xlink:href")
                fix = "link to a page of the site or to an https:// address" if link \
                    else "the site loads only its own files"
                return f"a {name}: URL in {where} ({quote(raw)}): {fix}"
            if tag == "a" and attr == "href" and name in _ANCHOR_SCHEMES:
                continue
            if (tag == "link" and attr == "href" and base_url and url.startswith(base_url)
                    and (attrs.get("rel") or "").lower() in ("canonical", "alternate")):
                continue
            if tag == "a" and attr == "href" and name == "http":
                return f"an http:// link in <a href> ({quote(raw)}): link with https://"
            if name not in ("http", "https"):
                return f"a {name}: URL in {where}"
        elif not url.replace("\\", "/").startswith("//"):
            continue
        if tag == "a" and attr == "href":
            return f"a protocol-relative link in <a href> ({quote(raw)}): link with https://"
        return f"an external resource in {where} ({quote(raw)}): the site loads only its own files"
    return None


@dataclass
class _Csp:
    line: int
    content: str
    in_head: bool
    after_resource: bool


@dataclass
class Scan:
    """What one output contains: ids and links (for the link check) and problems (for the guard)."""

    ids: set[str] = field(default_factory=set)
    links: list[tuple[int, str, str, str]] = field(default_factory=list)
    """(line, tag, attribute, URL) of every URL attribute."""
    problems: list[Problem] = field(default_factory=list)


_TOKEN = re.compile(
    r"<!--(?P<comment>.*?)(?:--!?>|\Z)"
    r"|<!(?P<decl>[^>]*)(?:>|\Z)"
    r"|<\?(?P<pi>[^>]*)>"
    r"|</(?P<end>[a-zA-Z][^\t\n\r\f />]*)[^>]*>"
    r"|<(?P<start>[a-zA-Z][^\t\n\r\f />\x00]*+)(?P<attrs>(?:[^>\"']++|\"[^\"]*+\"|'[^']*+')*)>",
    re.DOTALL)
"""One token of HTML, the way :mod:`html.parser` splits them (tests check both agree).

Possessive quantifiers (``*+``) stand only after a single character class: a repeated *group*
is plain (``*``, ``+``). An early Python 3.11 (Debian 12's python3, 3.11.2; 3.11.7 does not)
mishandles a possessive repeat of a group with alternatives: there the guard read ``\n<meta …>``
as text, found no Content-Security-Policy and stopped every build.
The plain repeats match the same: each repetition starts with a character its neighbours cannot
end on, so nothing is ever given back."""

_QUIET_ELEMENTS = (
    "a|abbr|article|aside|b|bdi|blockquote|br|caption|cite|code|col|colgroup|dd|del|details|dfn|div|dl|dt|"
    "em|figcaption|figure|footer|h[1-6]|header|hr|i|ins|kbd|li|main|mark|nav|ol|p|pre|q|s|section|small|"
    "span|strong|sub|summary|sup|table|tbody|td|tfoot|th|thead|time|tr|u|ul|var|wbr")
_QUIET_ATTRIBUTES = ("class|lang|dir|role|title|alt|hreflang|tabindex|scope|colspan|rowspan|datetime|"
                     "aria-[a-z]++")
_PAGE_TOKEN = re.compile(
    r"(?P<run>(?:[^<]++"
    r"|</(?![hH][eE][aA][dD][\t\n\r\f />])[a-zA-Z][^\t\n\r\f />]*+[^>]*+>"
    rf"|<(?:{_QUIET_ELEMENTS})(?: (?:{_QUIET_ATTRIBUTES})=\"[^\"<>]*+\")*>)+)"
    r"|<a href=\"(?P<href>[A-Za-z0-9._#?%~-][^:\x00-\x20\"<>&]*+)\""
    rf"(?: (?:{_QUIET_ATTRIBUTES})=\"[^\"<>]*+\")*>|"
    + _TOKEN.pattern, re.DOTALL)
""":data:`_TOKEN`, and first a run of what matters to nothing the guard checks in a page: text
without a ``<``, end tags other than ``</head>``, and start tags of harmless elements whose
attributes (each written `` name="value"``) are neither ids nor URLs nor handlers. A run is one
token instead of many. Then a link to a relative path (``<a href="…">``, harmless attributes
after it): only its URL matters."""

_ATTRIBUTE: re.Pattern[str] = attrfind_tolerant
"""html.parser's own attribute pattern (its groups: name, ``=value``, value)."""

_RAW_TEXT = {"script": re.compile(r"</script", re.IGNORECASE), "style": re.compile(r"</style", re.IGNORECASE)}


@functools.lru_cache(maxsize=1 << 16)
def _attributes(text: str) -> tuple[tuple[str, str | None], ...]:
    """The attributes of a start tag as html.parser reads them (a page repeats most of its tags,
    so each distinct text is read once)."""
    if not text or text.isspace():
        return ()
    attrs: list[tuple[str, str | None]] = []
    for name, rest, value in _ATTRIBUTE.findall(" " + text):
        if not rest:
            attrs.append((name.lower(), None))
            continue
        if value[:1] == value[-1:] and value[:1] in ("'", '"'):
            value = value[1:-1]
        attrs.append((name.lower(), html.unescape(value) if "&" in value else value))
    return tuple(attrs)


_Plain = tuple[tuple[str, ...], tuple[tuple[str, str, str], ...]]


@functools.lru_cache(maxsize=1 << 16)
def _plain_start_tag(tag: str, attributes: str) -> _Plain | None:
    """The ids and the (tag, attribute, URL) links of a start tag of a page that raises no problem
    wherever it stands, or None when it needs the full reading (the checks of
    :meth:`_Parser.handle_starttag`, judged once per distinct tag)."""
    if tag in _SPECIAL_ELEMENTS:
        return None
    ids, links = [], []
    for name, value in _attributes(attributes):
        if name[:2] == "on" or name in _FORBIDDEN_ATTRIBUTES:
            return None
        if name in URL_ATTRIBUTES and value is not None:
            if not _PLAIN_PATH.match(value):
                return None
            links.append((tag, name, value))
        elif name == "id" and value:
            ids.append(value)
    return tuple(ids), tuple(links)


class _Parser(HTMLParser):
    """One pass over an output; ``kind`` is ``page``, ``fragment`` (raw HTML in Markdown) or ``svg``.

    :meth:`feed` splits the text with one regular expression into the tokens :mod:`html.parser`
    finds (start and end tags with their attributes, comments, declarations, processing
    instructions, text, the raw text of ``<style>`` and ``<script>``), ten times faster than its
    character-by-character reader; the handlers are the same.
    """

    every_text = False
    """Whether :meth:`handle_data` sees every run of text; the guard only needs the runs holding
    a ``<`` (escaped text has none), and skipping the others halves its time."""

    def __init__(self, kind: str, base_url: str | None, allowed: Iterable[str]) -> None:
        super().__init__(convert_charrefs=False)
        self._data = ""
        self._position = 0
        self._counted = (0, 1)
        self._tag_text = ""
        self.kind = kind
        self.base_url = base_url
        self.allowed = frozenset(allowed)
        self.scan = Scan()
        self.in_head = False
        self.head_done = False
        self.seen_resource = False
        self.csp: list[_Csp] = []

    def feed(self, data: str) -> None:
        """Read a whole output (one call per output).

        A page read without :attr:`every_text` reads each run of harmless markup (text, end tags,
        plain start tags) and each plain link as one token (:data:`_PAGE_TOKEN`), and any other
        start tag that raises no problem wherever it stands is judged once per distinct text.
        """
        self._data, self._counted = data, (0, 1)
        position, length = 0, len(data)
        fast = self.kind == "page" and not self.every_text
        tokens = _PAGE_TOKEN if fast else _TOKEN
        ids, links = self.scan.ids, self.scan.links
        while position < length:
            for match in tokens.finditer(data, position):
                start = match.start()
                if start > position and (self.every_text or data.find("<", position, start) >= 0):
                    self._position = position
                    self.handle_data(data[position:start])
                self._position = start
                position = match.end()
                kind = match.lastgroup
                if kind == "run":
                    continue
                if kind == "href":
                    links.append((self.getpos()[0], "a", "href", match.group("href")))
                    continue
                if kind != "attrs":
                    self._other(match)
                    continue
                text = match.group(0)
                tag = match.group("start").lower()
                if fast:
                    plain = _plain_start_tag(tag, match.group("attrs"))
                    if plain is not None:
                        if plain[0]:
                            ids.update(plain[0])
                        if plain[1]:
                            line = self.getpos()[0]
                            links.extend((line, *link) for link in plain[1])
                        continue
                self._tag_text = text
                attrs = _attributes(match.group("attrs"))
                if text.endswith("/>"):
                    self.handle_startendtag(tag, attrs)
                elif tag in _RAW_TEXT:
                    self.handle_starttag(tag, attrs)
                    end = _RAW_TEXT[tag].search(data, position)
                    stop = end.start() if end else length
                    self.cdata_elem = tag
                    self._position = position
                    self.handle_data(data[position:stop])
                    self.cdata_elem = None
                    position = stop
                    break  # go on after the raw text: the tokens found inside it do not count
                else:
                    self.handle_starttag(tag, attrs)
            else:
                if position < length and (self.every_text or data.find("<", position) >= 0):
                    self._position = position
                    self.handle_data(data[position:])
                return

    def _other(self, match: re.Match[str]) -> None:
        """An end tag, a comment, a declaration or a processing instruction."""
        kind = match.lastgroup
        if kind == "end":
            self.handle_endtag(match.group("end").lower())
        elif kind == "comment":
            self.handle_comment(match.group("comment"))
        elif kind == "decl":  # as html.parser: a doctype, a marked section, else a bogus comment
            decl = match.group("decl")
            if not match.group(0).endswith(">"):  # cut off by the end of the text: read as text
                self.handle_data(match.group(0))
            elif decl[:7].lower() == "doctype":
                self.handle_decl(decl)
            elif decl.startswith("["):
                self.unknown_decl(decl[1:].removesuffix("]").removesuffix("]"))
            else:
                self.handle_comment(decl)
        else:
            self.handle_pi(match.group("pi"))

    def getpos(self) -> tuple[int, int]:
        """The line of the token being handled (and column 0), counted only when asked for."""
        offset, line = self._counted
        if self._position > offset:
            line += self._data.count("\n", offset, self._position)
            self._counted = (self._position, line)
        return line, 0

    def get_starttag_text(self) -> str | None:
        """The start tag being handled, as written."""
        return self._tag_text

    def close(self) -> None:
        """Nothing is buffered: :meth:`feed` reads the whole text."""

    def problem(self, message: str, *needles: str) -> None:
        self.scan.problems.append(Problem(self.getpos()[0], message, tuple(n for n in needles if n)))

    def raw(self) -> str:
        """The first line of the start tag being read, as written (to find it in the sources)."""
        return (self.get_starttag_text() or "").split("\n")[0]

    def handle_starttag(self, tag: str, attrs: Sequence[tuple[str, str | None]]) -> None:
        if self.kind == "fragment":
            if tag not in self.allowed or attrs:
                self.problem(self._fragment_message(tag, attrs), self.raw())
            return
        if self.kind == "svg":
            self._svg_names(tag, attrs)
        if tag in _SPECIAL_ELEMENTS:
            self._special(tag, attrs)
        for name, value in attrs:
            if name[:2] == "on":
                message = f"an event-handler attribute {name} on <{tag}>: the site runs no scripts; remove it"
                self.problem(message, self.raw(), name)
            elif name in _FORBIDDEN_ATTRIBUTES and not (self.kind == "svg" and name == "style"):
                self.problem(f"{_FORBIDDEN_ATTRIBUTES[name]} on <{tag}>", self.raw(), f"{name}=")
            elif name in URL_ATTRIBUTES and value is not None:
                self._url(tag, attrs, name, value)
            elif name == "id" and value:
                self.scan.ids.add(value)

    def _special(self, tag: str, attrs: Sequence[tuple[str, str | None]]) -> None:
        if tag == "head" and not self.head_done:  # a second <head> is ignored by browsers
            self.in_head = True
        elif tag == "body":
            self.in_head, self.head_done = False, True
        elif tag in FORBIDDEN_ELEMENTS:
            article = "an" if tag[0] in "aeiou" else "a"
            self.problem(f"{article} <{tag}> element: the site runs no scripts and embeds nothing; remove it",
                         self.raw(), f"<{tag}")
        elif tag in _TEXT_ELEMENTS:
            self.problem(f"a <{tag}> element: browsers read what it holds as text, which this check "
                         "cannot follow; remove it", self.raw(), f"<{tag}")
        elif tag == "style":
            self.problem("a <style> element: the pages' Content-Security-Policy lets only the site's own "
                         "stylesheets style them; move its rules to a stylesheet in site_src/static/",
                         self.raw(), "<style")
        elif tag == "title" and self.kind == "page":
            start = self._position + len(self._tag_text)
            end = _TITLE_END.search(self._data, start)
            if "<" in self._data[start:end.start() if end else len(self._data)]:
                self.problem("markup inside <title>: browsers read a title as text up to </title>; "
                             "write its text escaped", self.raw(), "<title")
        elif tag == "meta" and dict(attrs).get("http-equiv") is not None:
            self._meta({name: value for name, value in reversed(attrs)}, self.raw())
        if tag in ("link", "style", "img"):
            self.seen_resource = True

    def _svg_names(self, tag: str, attrs: Sequence[tuple[str, str | None]]) -> None:
        """An image is XML: a prefix can name any element (``<x:script xmlns:x=…>`` is a script),
        and ``url()`` in any attribute loads a resource. So: no prefixed element, no namespace but
        SVG's and XLink's, no prefix but ``xlink:`` and ``xml:``, and no ``url()`` out of the image."""
        if ":" in tag:
            self.problem(f"a prefixed element <{tag}> in an image: write SVG elements without a prefix",
                         self.raw(), f"<{tag}")
        for name, value in attrs:
            prefix, colon, local = name.partition(":")
            if name == "xmlns" or prefix == "xmlns":
                wanted = _XLINK if local == "xlink" else _SVG if local in ("", "svg") else None
                if value is None or value.strip() != wanted:
                    message = (f"a namespace {name}={quote(value or '')} in an image: only SVG's (xmlns, "
                               "xmlns:svg) and XLink's (xmlns:xlink) may be declared (save it as plain SVG)")
                    self.problem(message, self.raw(), name)
            elif colon and prefix not in ("xlink", "xml"):
                self.problem(f"a prefixed attribute {name} on <{tag}> in an image: only xlink: and xml: "
                             "may be used", self.raw(), name)
            elif value and "(" in value:
                for problem in check_css(value):
                    where = f"(<{tag} {name}> in an image)"
                    self.problem(f"{problem.message} {where}", self.raw(), *problem.needles)

    def _fragment_message(self, tag: str, attrs: Sequence[tuple[str, str | None]]) -> str:
        allowed = " ".join(f"<{name}>" for name in sorted(self.allowed))
        what = f"raw HTML <{tag}> with attributes" if tag in self.allowed else f"raw HTML <{tag}>"
        return f"{what}: only these tags may be written, without attributes: {allowed}"

    def _url(self, tag: str, attrs: Sequence[tuple[str, str | None]], name: str, value: str) -> None:
        if self.kind == "svg":
            if not value.startswith("#"):
                self.problem(f"a link out of the image in <{tag} {name}> ({quote(value)})", self.raw(), value)
            return
        if not _PLAIN_PATH.match(value):  # the common case, a relative path, needs no closer look
            problem = url_problem(tag, {key: val for key, val in reversed(attrs)}, name, value, self.base_url)
            if problem:
                # Last, what follows the scheme: found in a source that hid the scheme behind
                # character references ("jav&#x09;ascript:…"), which the value no longer has.
                rest = value.partition(":")[2].strip()
                self.problem(problem, value, self.raw(), rest if len(rest) >= 6 else "")
                return
        self.scan.links.append((self.getpos()[0], tag, name, value))

    def _meta(self, values: dict[str, str | None], raw: str) -> None:
        equiv = (values.get("http-equiv") or "").strip().lower()
        if equiv != _CSP:
            self.problem(f'a <meta http-equiv="{equiv}">: only the Content-Security-Policy may be set '
                         "this way", raw, "http-equiv")
            return
        self.csp.append(_Csp(self.getpos()[0], values.get("content") or "", self.in_head, self.seen_resource))

    def handle_startendtag(self, tag: str, attrs: Sequence[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if self.kind == "fragment" and tag not in self.allowed:
            self.problem(self._fragment_message(tag, []), f"</{tag}")
        if tag == "head":
            self.in_head, self.head_done = False, True

    def handle_data(self, data: str) -> None:
        if self.cdata_elem is None and "<" in data:  # escaped text is &lt;: this is broken markup
            self._position += data.index("<")  # the line of the '<' itself
            self.problem("a '<' that does not start a tag (markup that could not be read)")

    def handle_comment(self, data: str) -> None:
        if self.kind != "svg":
            self.problem("an HTML comment", "<!--")

    def handle_decl(self, decl: str) -> None:
        if self.kind == "svg":
            self.problem(f"a declaration <!{(decl.split() or [''])[0]} …> in an image: delete it (an image "
                         "needs none, and one can load entities from outside it)", f"<!{decl[:20]}")
        elif decl.lower().split() != ["doctype", "html"]:
            self.problem(f"a declaration <!{(decl.split() or [''])[0]} …>: the only one a page may hold is "
                         "<!DOCTYPE html>", f"<!{decl[:20]}")

    def handle_pi(self, data: str) -> None:
        if self.kind != "svg" or not data.startswith("xml "):
            self.problem("a processing instruction <?…>", "<?")

    def unknown_decl(self, data: str) -> None:
        self.problem("a CDATA section or unknown declaration", "<![")

    def finish(self) -> Scan:
        self.close()
        if self.kind == "page":
            self._check_csp()
        return self.scan

    def _check_csp(self) -> None:
        if not self.csp:
            self.scan.problems.append(Problem(1, "no Content-Security-Policy <meta> in <head>", ("<head",)))
            return
        first = self.csp[0]
        needles = ("Content-Security-Policy",)
        if len(self.csp) > 1:
            problem = Problem(self.csp[1].line, "a second Content-Security-Policy <meta>", needles)
        elif not first.in_head or first.after_resource:
            problem = Problem(first.line, "the Content-Security-Policy <meta> must come first in <head>, "
                              "before any stylesheet", needles)
        elif not _forbids_scripts(first.content):
            problem = Problem(first.line, "the Content-Security-Policy must forbid scripts: script-src "
                              "(or default-src) 'none'", needles)
        else:
            return
        self.scan.problems.append(problem)


def _forbids_scripts(policy: str) -> bool:
    """True when ``policy`` lets no script run.

    >>> _forbids_scripts("default-src 'none'; style-src 'self'"), _forbids_scripts("script-src 'self'")
    (True, False)
    """
    directives: dict[str, list[str]] = {}
    for part in policy.split(";"):
        words = part.split()
        if words:
            directives.setdefault(words[0].lower(), [word.lower() for word in words[1:]])
    if "script-src" not in directives and "default-src" not in directives:
        return False
    script = directives.get("script-src", directives.get("default-src"))
    others = [directives[name] for name in ("script-src-elem", "script-src-attr") if name in directives]
    return all(value == ["'none'"] for value in (script, *others))


def scan_page(html: str, base_url: str | None = None) -> Scan:
    """The ids, links and problems of one HTML page."""
    parser = _Parser("page", base_url, ())
    parser.feed(html)
    return parser.finish()


def scan_fragment(html: str, allowed: Iterable[str]) -> list[Problem]:
    """The problems of raw HTML written in a Markdown source: only ``allowed`` tags, no attributes."""
    parser = _Parser("fragment", None, allowed)
    parser.feed(html)
    return parser.finish().problems


def scan_svg(svg: str) -> list[Problem]:
    """The problems of an SVG image: no script, handler, foreign content, style, or link out of it."""
    parser = _Parser("svg", None, ())
    parser.feed(svg)
    return parser.finish().problems


_CSS_SCRIPTING = frozenset({"expression", "-moz-binding", "behavior"})
"""Old browsers' ways of running code from a stylesheet (a function, a property, a property)."""


def check_css(css: str) -> list[Problem]:
    """The problems of a stylesheet: ``@import``, script-like values, and ``url()`` out of the site.

    The sheet is read as browsers read it (tinycss2, CSS Syntax Level 3): comments, strings, escapes
    and line continuations hide nothing. A URL is a ``url()`` or ``src()``, or a string of
    ``image-set()``; it may be a ``data:image/`` URL or a path of the site, nothing else.

    >>> [p.message for p in check_css("a{}\\n/* x */ b { background: url('https://x.org/i.png') }")]
    ["an external resource in url() ('https://x.org/i.png'): the site loads only its own files"]
    """
    problems: list[Problem] = []
    _css_walk(tinycss2.parse_component_value_list(css, skip_comments=True), problems, in_image_set=False)
    return sorted(problems, key=lambda problem: problem.line)


def _css_walk(tokens: Iterable[Any], problems: list[Problem], *, in_image_set: bool) -> None:
    for token in tokens:
        kind = token.type
        if kind == "at-keyword" and token.lower_value == "import":
            problems.append(Problem(token.source_line, "@import in a stylesheet: write the rules into this "
                                    "stylesheet", ("@import",)))
        elif kind == "ident" and token.lower_value in _CSS_SCRIPTING:
            problems.append(_css_scripting(token.value, token.source_line))
        elif kind == "error" and token.kind == "bad-url":
            problems.append(Problem(token.source_line, "a url() browsers cannot read (a space, quote or "
                                    "parenthesis in an unquoted URL): quote it", ("url(",)))
        elif kind == "url" or kind == "string" and in_image_set:
            _css_url(token.value, token.source_line, problems)
        elif kind == "function":
            name = token.lower_name
            if name in _CSS_SCRIPTING:
                problems.append(_css_scripting(f"{token.name}(", token.source_line))
            elif name in ("url", "src"):
                strings = [part for part in token.arguments if part.type == "string"]
                if strings:
                    _css_url(strings[0].value, token.source_line, problems)
            _css_walk(token.arguments, problems, in_image_set=in_image_set or name.endswith("image-set"))
        elif kind in ("() block", "[] block", "{} block"):
            _css_walk(token.content, problems, in_image_set=in_image_set)


def _css_scripting(word: str, line: int) -> Problem:
    return Problem(line, f"{word} in a stylesheet: a stylesheet holds no scripts: remove it", (word,))


def _css_url(url: str, line: int, problems: list[Problem]) -> None:
    clean = _clean_url(url)
    scheme = _SCHEME.match(clean)
    if scheme and scheme.group(1).lower() == "data" and clean[5:].lower().startswith("image/"):
        return
    if scheme or clean.replace("\\", "/").startswith("//"):
        message = f"an external resource in url() ({quote(url)}): the site loads only its own files"
        problems.append(Problem(line, message, (url.split("\n")[0],)))
