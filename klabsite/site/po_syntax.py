"""A strict reader of the ``.po`` grammar, run before Babel reads a catalog.

Babel's reader is lenient: an unterminated ``msgstr "…`` loses its last character, ``\\q`` is
kept as two characters, a line it cannot read is skipped or reported at the wrong line, and of
two entries with the same msgid the first silently wins. This checker tokenizes the file the
way GNU gettext defines it and stops at the first problem, at its line:

* comments: ``#``, ``#.``, ``#:``, ``#,``, ``#|`` (before an entry, never inside one), but not
  ``#~|``, which Babel cannot read;
* an entry: ``[msgctxt S] msgid S (msgstr S | msgid_plural S msgstr[0] S msgstr[1] S …)``,
  obsolete entries the same after ``#~``; a string ``S`` is one or more ``"…"`` parts, one a
  line, with the escapes Babel decodes (``\\\\ \\" \\n \\t \\r``) and no raw control characters;
* no two entries with the same msgctxt and msgid, obsolete ones included (GNU ``msgfmt``, which
  Poedit and Lokalize run, refuses a ``#~`` entry beside the same message);
* no more plural forms than the language has (when told how many);
* the header's ``Content-Type`` says ``charset=UTF-8`` (the file is read as UTF-8).

>>> check_po_syntax('msgid "a"\\nmsgstr "b\\\\q"\\n', "fr.po")
Traceback (most recent call last):
...
klabsite.site.errors.BuildError: fr.po:2: unknown escape \\q in a string (write \\\\ for a backslash)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from klabsite.site.errors import BuildError, quote

__all__ = ["check_po_syntax"]

_KEYWORD = re.compile(r"(msgctxt|msgid_plural|msgid|msgstr)(?:\[(\d+)\])?(?=[\s\"])\s*(.*)$")
_ESCAPES = {"\\": "\\", '"': '"', "n": "\n", "t": "\t", "r": "\r"}
_CHARSET = re.compile(r"charset\s*=\s*([^\s;]*)", re.IGNORECASE)


_VALID = re.compile(r'"((?:[^"\\\x00-\x08\x0a-\x1f\x7f]|\\[\\"ntr])*)"\s*')
_ESCAPE = re.compile(r"\\(.)")


def _string(text: str, display: str, line: int) -> str:
    """The value of one quoted string part (``"…"`` and nothing after it but spaces)."""
    if valid := _VALID.fullmatch(text):
        content = valid.group(1)
        return _ESCAPE.sub(lambda match: _ESCAPES[match.group(1)], content) if "\\" in content else content
    if not text.startswith('"'):
        raise BuildError(f"expected a quoted string, found {quote(text)}", display, line)
    out: list[str] = []
    index = 1
    while index < len(text):
        char = text[index]
        if char == '"':
            if text[index + 1:].strip():
                raise BuildError(f"text after the closing quote: {quote(text[index + 1:].strip())}",
                                 display, line)
            return "".join(out)
        if char == "\\":
            escape = text[index + 1:index + 2]
            if escape not in _ESCAPES:
                shown = f"\\{escape}" if escape else "\\ at the end of the line"
                raise BuildError(f"unknown escape {shown} in a string (write \\\\ for a backslash)",
                                 display, line)
            out.append(_ESCAPES[escape])
            index += 2
            continue
        if ord(char) < 32 and char != "\t" or char == "\x7f":
            raise BuildError(f"control character U+{ord(char):04X} in a string", display, line)
        out.append(char)
        index += 1
    raise BuildError('unterminated string: the closing " is missing', display, line)


@dataclass
class _Entry:
    """The entry being read: which keywords it has had, and its msgctxt and msgid."""

    line: int = 0
    obsolete: bool = False
    context: str | None = None
    msgid: str | None = None
    msgid_line: int = 0
    plural: bool = False
    forms: int = 0
    translated: bool = False
    current: str = ""
    """The keyword whose string a continuation line extends."""
    parts: dict[str, list[str]] = field(default_factory=dict)
    part_lines: dict[str, list[int]] = field(default_factory=dict)

    @property
    def empty(self) -> bool:
        return not self.current


class _Reader:
    def __init__(self, display: str, plurals: int | None = None) -> None:
        self.display = display
        self.plurals = plurals
        self.entry = _Entry()
        self.seen: dict[tuple[str | None, str], int] = {}
        self.seen_obsolete: dict[tuple[str | None, str], int] = {}

    def error(self, message: str, line: int) -> BuildError:
        return BuildError(message, self.display, line)

    def finish(self) -> None:
        entry = self.entry
        if entry.empty:
            return
        if entry.msgid is None:
            raise self.error("msgctxt without a msgid after it", entry.line)
        if not entry.translated:
            what = "msgid_plural without msgstr[0]" if entry.plural else "msgid without a msgstr"
            raise self.error(what, entry.msgid_line)
        msgid = "".join(entry.parts["msgid"])
        context = "".join(entry.parts["msgctxt"]) if "msgctxt" in entry.parts else None
        key = (context, msgid)
        same = f"the same msgid{' and msgctxt' if context is not None else ''}"
        if entry.obsolete:
            if key in self.seen or key in self.seen_obsolete:
                first = self.seen.get(key) or self.seen_obsolete[key]
                raise self.error(f"an obsolete (#~) entry with {same} as the entry at line {first}: "
                                 f"{quote(msgid)}; delete the #~ entry", entry.msgid_line)
            self.seen_obsolete[key] = entry.msgid_line
        else:
            if key in self.seen:
                raise self.error(f"{same} as the entry at line {self.seen[key]}: {quote(msgid)}",
                                 entry.msgid_line)
            if key in self.seen_obsolete:
                raise self.error(f"{same} as the obsolete (#~) entry at line {self.seen_obsolete[key]}: "
                                 f"{quote(msgid)}; delete the #~ entry", entry.msgid_line)
            self.seen[key] = entry.msgid_line
            if key == (None, "") and "msgstr" in entry.parts:
                self.header(entry)
        self.entry = _Entry()

    def header(self, entry: _Entry) -> None:
        for part, line in zip(entry.parts["msgstr"], entry.part_lines["msgstr"], strict=True):
            match = _CHARSET.search(part)
            if match and match.group(1).lower() not in ("utf-8", "utf8"):
                raise self.error(f"the header must say charset=UTF-8 (the file is read as UTF-8), "
                                 f"not {quote(match.group(1))}", line)

    def keyword(self, name: str, index: str | None, rest: str, line: int, obsolete: bool) -> None:
        entry = self.entry
        if name in ("msgctxt", "msgid") and entry.translated:
            self.finish()
            entry = self.entry
        if entry.empty:
            entry.line, entry.obsolete = line, obsolete
        elif entry.obsolete != obsolete:
            raise self.error("an entry mixes obsolete (#~) and current lines", line)
        if name == "msgctxt":
            if not entry.empty:
                raise self.error("msgctxt must come first in an entry, before msgid", line)
        elif name == "msgid":
            if entry.msgid is not None:
                raise self.error(f"a second msgid before the msgstr of the one at line {entry.msgid_line}",
                                 line)
            entry.msgid, entry.msgid_line = "", line
        elif entry.msgid is None:
            raise self.error(f"{name} without a msgid before it", line)
        elif name == "msgid_plural":
            if entry.plural or entry.translated:
                raise self.error("msgid_plural must follow the msgid, once", line)
            entry.plural = True
        elif index is None:
            if entry.plural:
                raise self.error("a message with msgid_plural needs msgstr[0], msgstr[1], …", line)
            if entry.translated:
                raise self.error("a second msgstr in the same entry", line)
            entry.translated = True
        else:
            if not entry.plural:
                raise self.error(f"msgstr[{index}] without a msgid_plural (write msgstr)", line)
            if int(index) != entry.forms:
                raise self.error(f"expected msgstr[{entry.forms}], found msgstr[{index}]", line)
            if self.plurals is not None and entry.forms >= self.plurals:
                raise self.error(f"msgstr[{index}]: the language has {self.plurals} plural forms, msgstr[0] "
                                 f"to msgstr[{self.plurals - 1}]; remove this one", line)
            entry.forms += 1
            entry.translated = True
        if index is not None and name != "msgstr":
            raise self.error(f"{name} takes no [index]", line)
        key = f"{name}[{index}]" if index is not None else name
        entry.current = key
        entry.parts[key] = [_string(rest.strip(), self.display, line)]
        entry.part_lines[key] = [line]

    def continuation(self, text: str, line: int) -> None:
        if self.entry.empty:
            raise self.error("a string without msgid or msgstr before it", line)
        self.entry.parts[self.entry.current].append(_string(text, self.display, line))
        self.entry.part_lines[self.entry.current].append(line)


def check_po_syntax(text: str, display: str, plurals: int | None = None) -> None:
    """Raise :class:`BuildError` (``display:LINE: …``) at the first line that breaks the ``.po`` grammar
    (a plural message of a language with ``plurals`` forms may have no more)."""
    if text.startswith("\ufeff"):
        raise BuildError("the file starts with a byte order mark (BOM): save it as UTF-8 without one",
                         display, 1)
    reader = _Reader(display, plurals)
    for number, line in enumerate(text.replace("\r\n", "\n").split("\n"), 1):
        first = line[:1]
        obsolete = False
        if first == "#":
            if line.startswith("#~|"):
                raise reader.error("a #~| line (the former msgid of an obsolete entry), which Babel cannot "
                                   "read: delete it", number)
            if not line.startswith("#~"):
                if reader.entry.translated:
                    reader.finish()
                elif not reader.entry.empty:
                    raise reader.error("a comment inside an entry: comments go before msgctxt and msgid",
                                       number)
                continue
            obsolete, line = True, line[2:]
        stripped = line.strip()
        if not stripped:
            if not obsolete:
                reader.finish()
        elif stripped[0] == '"':
            reader.continuation(stripped, number)
        elif match := _KEYWORD.match(stripped):
            reader.keyword(match.group(1), match.group(2), match.group(3), number, obsolete)
        else:
            raise reader.error(f"cannot read this line (expected msgid, msgstr, a quoted string or a "
                               f"# comment): {quote(stripped)}", number)
    reader.finish()
