"""Gettext catalogs: CLDR plural headers, loading ``.po`` files, checking translations, statistics.

Two domains per language, ``messages`` (templates and Python: the interface) and ``content``
(the rules prose, one message per Markdown block), in ``locales/<lang>/LC_MESSAGES/<domain>.po``.
Catalogs are compiled in memory at build time, so a stale ``.mo`` can never be used; a missing
catalog is an error (``Translations.load`` would silently fall back to English).

>>> PLURAL_FORMS["hr"]
'nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);'
>>> [plural_index("ar", n) for n in (0, 1, 2, 3, 11, 100, 102)]
[0, 1, 2, 3, 4, 5, 5]
"""

from __future__ import annotations

import copy
import gettext
import io
import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.pofile import PoFileError, read_po
from babel.support import NullTranslations, Translations

from klabsite.files import write_atomically
from klabsite.site.errors import BuildError
from klabsite.site.po_syntax import check_po_syntax
from klabsite.site.sources import decode

__all__ = [
    "DOMAINS",
    "PLURAL_FORMS",
    "plural_index",
    "catalog_path",
    "read_catalog",
    "compile_catalog",
    "MissedMessages",
    "MessageKey",
    "holds",
    "check_message",
    "check_catalog",
    "CatalogStats",
    "catalog_stats",
    "finished_translations",
    "fix_plural_header",
    "MARKUP_TAG",
    "reference_labels",
    "markup_tags",
    "short_msgid",
]

DOMAINS = ("messages", "content")
"""The interface strings, then the rules prose."""

PLURAL_FORMS: dict[str, str] = {
    "en": "nplurals=2; plural=(n != 1);",
    "fr": "nplurals=2; plural=(n > 1);",
    "es": "nplurals=2; plural=(n != 1);",
    "hr": "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : "
          "n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
    "ar": "nplurals=6; plural=(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : "
          "n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5);",
}
"""Gettext ``Plural-Forms`` whose form order is CLDR's (zero one two few many other, as present).

Babel writes a different Arabic rule (python-babel/babel#816: forms 4 and 5 swapped), so
``klabsite i18n update`` rewrites every catalog's header to these.
"""


def plural_index(lang: str, n: int) -> int:
    """Which plural form (msgstr[i]) gettext uses for ``n`` in ``lang``, by :data:`PLURAL_FORMS`."""
    expression = PLURAL_FORMS[lang].split("plural=", 1)[1].rstrip(";")
    return int(gettext.c2py(expression)(n))


def catalog_path(locales_dir: Path, lang: str, domain: str) -> Path:
    """``locales/<lang>/LC_MESSAGES/<domain>.po``."""
    return locales_dir / lang / "LC_MESSAGES" / f"{domain}.po"


def read_catalog(path: Path, lang: str, display: str, *, plural_header: bool = True) -> Catalog:
    """Read one ``.po`` file; a missing, unreadable or malformed catalog is a :class:`BuildError`.

    ``display`` is the path as printed in messages (relative to the project). The file must be
    UTF-8 and pass :func:`~klabsite.site.po_syntax.check_po_syntax` before Babel reads it. With
    ``plural_header`` (the default) its ``Plural-Forms`` header must be the one :data:`PLURAL_FORMS`
    gives.
    """
    if path.exists() and not path.is_file():
        raise BuildError(f"not a file: the catalog for {lang!r} must be a .po file; move this away", display)
    if not path.is_file():
        raise BuildError(f"missing catalog for {lang!r} (create it with: klabsite i18n update)", display)
    data = path.read_bytes()
    forms = re.search(r"nplurals=(\d+)", PLURAL_FORMS.get(lang, ""))
    text = decode(data, display)
    check_po_syntax(text, display, int(forms.group(1)) if forms else None)
    data = _checked_header(text, lang, display, plural_header).encode("utf-8")
    try:
        catalog = read_po(io.BytesIO(data), locale=lang, abort_invalid=True)
    except PoFileError as error:
        line = int(match.group(1)) + 1 if (match := re.search(r" on (\d+)", str(error))) else 0
        raise BuildError(f"cannot read catalog: {error}", display, line) from None
    except (ValueError, LookupError) as error:  # LookupError: an encoding Python does not know
        raise BuildError(f"cannot read catalog: {error}", display) from None
    expected = PLURAL_FORMS.get(lang)
    if plural_header and expected and catalog.plural_forms != expected:
        raise BuildError(f"Plural-Forms header must be {expected!r} (run: klabsite i18n update)", display)
    return catalog


_LANGUAGE = re.compile(r"[A-Za-z]{2,3}(?:[_-][A-Za-z0-9]{2,8})*")
_NPLURALS = re.compile(r"\s*nplurals\s*=\s*([1-6])\s*;")


def _header_fields(text: str) -> dict[str, tuple[int, int, str]]:
    """The fields of a ``.po`` file's header entry (its first ``msgid ""``): name → (first line,
    last line, value), lines counted from 0; a value may be wrapped over several lines."""
    lines = text.split("\n")
    fields: dict[str, tuple[int, int, str]] = {}
    start = next((index for index, line in enumerate(lines) if line.startswith("msgstr")), None)
    if start is None or lines[start - 1] != 'msgid ""':
        return fields
    index = start + 1
    while index < len(lines) and lines[index].startswith('"'):
        first, value = index, lines[index][1:-1]
        while not value.endswith("\\n") and index + 1 < len(lines) and lines[index + 1].startswith('"'):
            index += 1
            value += lines[index][1:-1]
        name, _, field = value.removesuffix("\\n").partition(":")
        fields[name.strip()] = (first, index, field.strip())
        index += 1
    return fields


def _with_plural_header(text: str, expected: str) -> str:
    """``text`` with the ``Plural-Forms`` header ``expected``, on one line: in place of the one it
    has (which may be wrapped), or after ``Content-Transfer-Encoding`` when it has none."""
    lines = text.split("\n")
    wanted = f'"Plural-Forms: {expected}\\n"'
    fields = _header_fields(text)
    if "Plural-Forms" in fields:
        first, last, _value = fields["Plural-Forms"]
        lines[first:last + 1] = [wanted]
    else:
        at = next(i for i, line in enumerate(lines) if line.startswith('"Content-Transfer-Encoding:'))
        lines.insert(at + 1, wanted)
    return "\n".join(lines)


def _checked_header(text: str, lang: str, display: str, plural_header: bool) -> str:
    """The catalog's text, its header checked before Babel reads it (Babel reads an unchecked
    header with a cryptic error, or runs out of memory on a huge ``nplurals``). Without
    ``plural_header`` (``klabsite i18n update``, which rewrites the header) a wrong ``Plural-Forms``
    is replaced in the text read instead of refused."""
    fields = _header_fields(text)
    if "Language" in fields and not _LANGUAGE.fullmatch(fields["Language"][2]):
        raise BuildError("the Language header must name the catalog's language: "
                         f'write "Language: {lang}\\n"', display, fields["Language"][0] + 1)
    if "Plural-Forms" not in fields:
        return text
    first, _last, value = fields["Plural-Forms"]
    expected = PLURAL_FORMS.get(lang)
    if expected is not None and value != expected:
        if plural_header:
            raise BuildError(f"Plural-Forms header must be {expected!r} (run: klabsite i18n update)", display,
                             first + 1)
        return _with_plural_header(text, expected)
    if expected is None and not _NPLURALS.match(value):
        raise BuildError("Plural-Forms header must start 'nplurals=N;' with N from 1 to 6, as gettext "
                         "gives for the language", display, first + 1)
    return text


def compile_catalog(catalog: Catalog, domain: str) -> Translations:
    """The catalog as runtime translations, compiled in memory; fuzzy entries are left out."""
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return Translations(fp=buffer, domain=domain)


MessageKey = tuple[str | None, str, bool]
"""A message as the pages ask for it: (context, msgid, whether it is plural), the singular msgid
for a plural message."""


class MissedMessages(NullTranslations):
    """The fallback of a language's interface translations: it answers each message the catalog
    does not translate in English, as gettext does, and remembers it.

    The build then names the messages a catalog does not hold at all, or not as the pages ask
    for them (a plural message held as a singular one), such as the words of a template changed
    since the last ``klabsite i18n extract``: they show in English.

    >>> missed = MissedMessages()
    >>> translations = NullTranslations()
    >>> translations.add_fallback(missed)
    >>> translations.pgettext("seat", "North"), sorted(missed.keys)
    ('North', [('seat', 'North', False)])
    """

    def __init__(self) -> None:
        super().__init__()
        self.keys: set[MessageKey] = set()

    def gettext(self, message: str) -> str:
        self.keys.add((None, message, False))
        return message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        self.keys.add((None, singular, True))
        return singular if n == 1 else plural

    def pgettext(self, context: str, message: str) -> str:
        self.keys.add((context, message, False))
        return message

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        self.keys.add((context, singular, True))
        return singular if n == 1 else plural


_HIDDEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e]")
"""Characters no translation may hold: control characters (a carriage return among them) and the
bidirectional embeddings and overrides, which turn the text around them. The marks U+200E, U+200F
and U+061C are allowed, and so are the isolates U+2066 to U+2069 in pairs (Arabic keeps a
left-to-right run of cards or code the right way round with them)."""


def _unpaired_isolate(text: str) -> bool:
    """Whether an isolate (U+2066, U+2067, U+2068) is left open or a U+2069 closes none."""
    depth = 0
    for char in text:
        if char in "\u2066\u2067\u2068":
            depth += 1
        elif char == "\u2069":
            depth -= 1
            if depth < 0:
                return True
    return depth != 0


# Placeholders: %(name)s, %s / %d, {name} / {0}; markup: HTML tags and Markdown link targets.
_PERCENT = re.compile(r"%(?:\((\w+)\))?[-#0 +]*\d*(?:\.\d+)?[sdifrx%]")
_BRACES = re.compile(r"(?<!\{)\{(\w*)\}(?!\})")
MARKUP_TAG = re.compile(r"<(?![A-Za-z][A-Za-z0-9+.-]*:)/?[A-Za-z][^<>]*>")
"""A whole HTML tag, attributes and all (not a Markdown autolink such as ``<https://…>``)."""
_MARKUP_START = re.compile(r"<[A-Za-z/!?]")
_LINK_TARGET = re.compile(r"\]\(\s*<?([^)\s>]*)")
_AUTOLINK = re.compile(r"<((?:https?|mailto|ftp|javascript|data):[^>\s]*)>", re.IGNORECASE)
_ESCAPED = re.compile(r"\\.", re.DOTALL)
_CODE_SPAN = re.compile(r"(`+).+?\1", re.DOTALL)
_REFERENCE = re.compile(r"\[((?:[^\[\]]|\[[^\[\]]*\])*)\](?:[ \t\n]?\[([^\[\]]*)\])?(?!\()")
"""A Markdown reference link or image, ``[text][label]``, ``[label][]`` or ``[label]`` alone (a
link when the page defines ``label``); not an inline link ``[text](…)``."""
_DEFINITION = re.compile(r"^ {0,3}\[([^\]]+)\]:[ \t]*\S", re.MULTILINE)


def reference_labels(pages: Iterable[str]) -> frozenset[str]:
    r"""The labels the Markdown ``pages`` define for reference links (``[label]: https://…``).

    >>> sorted(reference_labels(["Text.\n\n[Wiki]: https://w.example\n  [b  c]: x.md\n"]))
    ['b c', 'wiki']
    """
    return frozenset(_label(match.group(1)) for page in pages for match in _DEFINITION.finditer(page))


def _label(text: str) -> str:
    """A reference label as Markdown matches it: case and spacing ignored."""
    return " ".join(text.lower().split())


def markup_tags(text: str) -> list[str]:
    """The HTML tags of ``text``, whitespace inside each tag normalised.

    >>> markup_tags('a <kbd>b</kbd> <b  onclick="x">')
    ['<kbd>', '</kbd>', '<b onclick="x">']
    """
    return [" ".join(tag.split()) for tag in MARKUP_TAG.findall(text)]


def _placeholders(text: str, formatted: bool = True) -> Counter[str]:
    """The placeholders of ``text``; in a text not ``%`` formatted only the named ``%(name)s`` ones
    (there ``100 % des points`` holds none)."""
    found: Counter[str] = Counter()
    for match in _PERCENT.finditer(text):
        if match.group(0) != "%%" and (formatted or match.group(1)):
            found[match.group(0)] += 1
    for match in _BRACES.finditer(text):
        found["{" + match.group(1) + "}"] += 1
    return found


def holds(catalog: Catalog, key: MessageKey) -> bool:
    """Whether ``catalog`` holds the message ``key`` (translated or not), plural as asked.

    >>> catalog = Catalog(locale="fr")
    >>> catalog.add(("%(n)s deal", "%(n)s deals"), ("", ""))
    <Message ...>
    >>> holds(catalog, (None, "%(n)s deal", True)), holds(catalog, (None, "%(n)s deal", False))
    (True, False)
    """
    context, msgid, plural = key
    message = catalog.get(msgid, context=context)
    return message is not None and isinstance(message.id, tuple | list) == plural


def _references(text: str, labels: frozenset[str] | None = None) -> list[str]:
    r"""The labels of the Markdown reference links of ``text`` (outside code; escaped brackets are
    text), those of ``labels`` only when given (a ``[word]`` that no page defines is no link).

    >>> _references("[Pagat][pagat-bela][Wiki]: and [see  This]; `[code]`, \\[x], \\\\[y], [z](a.md)")
    ['pagat-bela', 'wiki', 'see this', 'y']
    >>> _references("[Pagat][pagat-bela] or [optional]", frozenset({"pagat-bela"}))
    ['pagat-bela']
    >>> _references("[wiki] [Wikipedia][wiki]", frozenset({"wiki"}))
    ['wiki', 'wiki']
    """
    text = _CODE_SPAN.sub("", _ESCAPED.sub("  ", text))
    found: list[str] = []
    position = 0
    while match := _REFERENCE.search(text, position):
        position = match.end()
        label = _label(match.group(2) or match.group(1))
        if labels is None or label in labels:
            found.append(label)
        elif match.group(2) is not None:  # [text][label] with no such label: [text] alone may link
            position = match.end(1) + 1
            if _label(match.group(1)) in labels:
                found.append(_label(match.group(1)))
    return found


def _markup(text: str, markdown: bool = False, labels: frozenset[str] | None = None) -> Counter[str]:
    found: Counter[str] = Counter(markup_tags(text))
    found.update(f"link to {target}" for target in _LINK_TARGET.findall(text))
    found.update(f"link to {target}" for target in _AUTOLINK.findall(text))
    if markdown:
        found.update(f"reference link [{label}]" for label in _references(text, labels))
    rest = _AUTOLINK.sub("", MARKUP_TAG.sub("", text))
    found.update(f"{match.group(0)}…" for match in _MARKUP_START.finditer(rest))
    return found


def check_message(msgid: str, msgstr: str, *, plural: bool = False, formatted: bool = True,
                  labels: frozenset[str] | None = None) -> str | None:
    """Why this translation is unsafe (placeholders differ, markup added, a line break added), or
    None when it is fine.

    A plural form may leave a placeholder out (Arabic says "one point" without the number) but
    never use one the source does not have. A ``formatted`` text (the templates' and the code's
    messages, which ``%`` formats) may hold no ``%`` sign on its own; the rules prose may. In the
    rules prose a reference link keeps its label: of ``labels`` (those the pages define) when given,
    else any ``[word]`` counts.

    >>> check_message("%(num)s points", "%(num)s points")
    >>> check_message("%(num)s points", "%(n)s points")
    'placeholders differ from the source: source has %(num)s, translation has %(n)s'
    >>> check_message("the **jack**", "le <b>valet</b>")
    'translation adds markup the source does not have: <b>, </b>'
    >>> check_message("press <kbd>Enter</kbd>", 'appuyez sur <kbd title="x">Entrée</kbd>')
    'translation adds markup the source does not have: <kbd title="x">'
    >>> check_message("see [x](a.md)", "voir [x](https://evil.example)")
    'translation adds markup the source does not have: link to https://evil.example'
    >>> check_message("[Wiki][wikipedia].", "[Wiki][britannica].", formatted=False)
    'translation adds markup the source does not have: reference link [britannica]'
    >>> check_message("Matches", "Parties 100%")
    'a % sign on its own: the text is formatted, so write %% for a percent sign (100 %%)'
    >>> check_message("the jack", "le valet<!-- caché -->")
    'translations may not contain HTML comments (<!--)'
    >>> check_message("Total", "To\\u202etal")
    'the invisible control character U+202E: remove it (U+200E, U+200F, U+061C and paired isolates may stay)'
    >>> check_message("Trumps: %(cards)s", "الحكم: \\u2066%(cards)s")
    'an isolate (U+2066 to U+2068) not closed by U+2069, or a U+2069 closing none'
    >>> check_message("The trick.", "Le pli.\\n'Le pli.'")
    'a line break the source does not have: what follows it would be printed too'
    """
    if not msgstr:
        return None
    if formatted and _PERCENT.sub("", msgstr).count("%") > _PERCENT.sub("", msgid).count("%"):
        return "a % sign on its own: the text is formatted, so write %% for a percent sign (100 %%)"
    source, target = _placeholders(msgid, formatted), _placeholders(msgstr, formatted)
    if (set(target) - set(source)) if plural else (source != target):
        show = lambda c: ", ".join(sorted(c.elements())) or "none"  # noqa: E731
        stray = [name for name in target - source if name.startswith("%") and "(" not in name]
        hint = "; write %% for a percent sign" if formatted and stray else ""
        return (f"placeholders differ from the source: source has {show(source)}, "
                f"translation has {show(target)}{hint}")
    if "<!--" in msgstr:
        return "translations may not contain HTML comments (<!--)"
    hidden = _HIDDEN.search(msgstr)
    if hidden is not None:
        return (f"the invisible control character U+{ord(hidden.group()):04X}: remove it (U+200E, U+200F, "
                "U+061C and paired isolates may stay)")
    if _unpaired_isolate(msgstr):
        return "an isolate (U+2066 to U+2068) not closed by U+2069, or a U+2069 closing none"
    if "\n" in msgstr and "\n" not in msgid:
        return "a line break the source does not have: what follows it would be printed too"
    added = _markup(msgstr, not formatted, labels) - _markup(msgid, not formatted, labels)
    if added:
        return "translation adds markup the source does not have: " + ", ".join(added)
    return None


def _strings(message: Message) -> list[tuple[str, str]]:
    """(source, translation) pairs of a message; plural forms are checked against both msgids."""
    if isinstance(message.id, tuple | list):
        strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
        both = " ".join(message.id)
        return [(both, s or "") for s in strings]
    return [(str(message.id), str(message.string or ""))]


def check_catalog(catalog: Catalog, display: str, *, formatted: bool = True,
                  labels: frozenset[str] | None = None) -> None:
    """Raise :class:`BuildError` at the first unsafe translation (``display:LINE: …``); a
    ``formatted`` catalog's texts are formatted with ``%``; ``labels`` are the reference labels
    the rules pages define (see :func:`check_message`).

    Babel's own checks (python-format, number of plural forms) run too. Fuzzy entries are not
    checked: they are not used (a build warns about them, ``--strict`` refuses them), and the
    guesses ``klabsite i18n update`` makes for a changed message often have the old message's
    placeholders; the check runs once a translator clears the flag.
    """
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        plural = isinstance(message.id, tuple | list)
        for source, translation in _strings(message):
            problem = check_message(source, translation, plural=plural, formatted=formatted, labels=labels)
            if problem:
                raise BuildError(f"{problem} (msgid {short_msgid(message.id)})", display, message.lineno or 1)
        if not formatted and message.python_format:  # Babel guessed "python-format" from a "100% of"
            message = copy.copy(message)
            message.flags = set(message.flags) - {"python-format"}
        for error in message.check(catalog):
            raise BuildError(f"{error} (msgid {short_msgid(message.id)})", display, message.lineno or 1)


def short_msgid(msgid: str | tuple[str, ...] | list[str]) -> str:
    """A msgid as quoted in messages: one line, at most 60 characters."""
    text = msgid if isinstance(msgid, str) else msgid[0]
    text = " ".join(text.split())
    return repr(text if len(text) <= 60 else text[:57] + "...")


@dataclass(frozen=True, slots=True)
class CatalogStats:
    """How much of one catalog is translated."""

    translated: int
    fuzzy: int
    untranslated: int
    """Messages with no translation, those missing from the catalog (``missing``) included."""
    missing: int = 0
    """Messages of the template (``.pot``) that the catalog does not hold at all."""

    @property
    def total(self) -> int:
        """All messages (obsolete ones excluded)."""
        return self.translated + self.fuzzy + self.untranslated

    @property
    def percent(self) -> float:
        """Translated messages as a percentage, rounded down to a whole number, so that only a
        complete catalog shows 100 (100 for an empty one)."""
        return float(math.floor(100 * self.translated / self.total)) if self.total else 100.0


def is_translated(message: Message) -> bool:
    """True when every form of the message has a translation and it is not fuzzy.

    (``pybabel compile --statistics`` counts an empty plural entry as translated; this does not.)
    """
    if message.fuzzy:
        return False
    if isinstance(message.string, tuple | list):
        return all(message.string)
    return bool(message.string)


def finished_translations(catalog: Catalog, context: str | None = None) -> dict[str, str]:
    """msgid → msgstr of the catalog's translated, not fuzzy, singular messages under ``context``
    (``None``: those without a context)."""
    return {message.id: message.string for message in catalog
            if isinstance(message.id, str) and message.id and message.context == context
            and isinstance(message.string, str) and is_translated(message)}


def catalog_stats(catalog: Catalog, template: Catalog | None = None) -> CatalogStats:
    """Translated, fuzzy and untranslated counts, plural entries counted correctly; a message of
    ``template`` (the domain's ``.pot``) that the catalog lacks counts as untranslated and missing."""
    missing = len(missing_messages(catalog, template)) if template is not None else 0
    translated = fuzzy = 0
    untranslated = missing
    for message in catalog:
        if not message.id:
            continue
        if message.fuzzy:
            fuzzy += 1
        elif is_translated(message):
            translated += 1
        else:
            untranslated += 1
    return CatalogStats(translated, fuzzy, untranslated, missing)


def missing_messages(catalog: Catalog, template: Catalog) -> list[Message]:
    """The messages of ``template`` that ``catalog`` does not hold (``klabsite i18n update`` adds them)."""
    return [message for message in template
            if message.id and catalog.get(message.id, message.context) is None]


def read_template(path: Path, display: str) -> Catalog | None:
    """The domain's ``.pot`` at ``path`` (``None`` if the project has none)."""
    if not path.is_file():
        return None
    try:
        with path.open("rb") as file:
            return read_po(file)
    except (ValueError, UnicodeDecodeError) as error:
        raise BuildError(f"cannot read the template: {error}", display) from None


def fix_plural_header(path: Path, lang: str) -> bool:
    """Rewrite the ``Plural-Forms`` header of a ``.po`` file to :data:`PLURAL_FORMS`; True if changed.

    The header may be wrapped over several lines (Babel wraps at 76 columns); it becomes one line.
    """
    expected = PLURAL_FORMS.get(lang)
    if expected is None:
        return False
    text = path.read_text(encoding="utf-8")
    fixed = _with_plural_header(text, expected)
    if fixed == text:
        return False
    write_atomically(path, fixed.encode("utf-8"))  # never a half-written catalog
    return True
