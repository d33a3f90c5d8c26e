"""What every message shares: quoting what a person typed, and reading whole numbers safely.

An error message quotes the offending text so the reader can find it, but never more than
:data:`QUOTE_LIMIT` characters of it, and never a raw control character (a terminal escape in a
player's name must not reach the terminal). Numbers are read from ASCII digits only
(``str.isdigit`` also accepts ``²`` and ``٣``) and never converted when they have more digits
than any score needs (Python refuses to convert more than 4300 digits).

>>> quote("N take")
"'N take'"
>>> quote("x" * 100)
"'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…'"
>>> quote("\\x1b[31mred")
"'\\\\x1b[31mred'"
>>> printable("Ana\\x1b[2J")
'Ana\\\\x1b[2J'
>>> whole_number("92"), whole_number("²"), whole_number("-5"), whole_number("9" * 5000)
(92, None, None, 1000000000)
"""

from __future__ import annotations

import re

__all__ = ["QUOTE_LIMIT", "LARGEST_NUMBER", "ascii_lower", "ascii_upper", "quote", "printable", "shorten",
           "whole_number"]

QUOTE_LIMIT = 60
"""The most characters of offending text an error message quotes (an ellipsis marks the cut)."""

LARGEST_NUMBER = 999_999_999
"""The largest number klabsite reads anywhere (deal numbers, points, targets): beyond any real score."""

_DIGITS = re.compile(r"[0-9]+")


def ascii_upper(text: str) -> str:
    """``text`` in upper case if it is all ASCII, else unchanged: a reader lenient about case
    changes only ASCII letters, so that ``ſ`` (long s) never reads as ``S``.

    >>> ascii_upper("jh"), ascii_upper("\u017f")
    ('JH', 'ſ')
    """
    return text.upper() if text.isascii() else text


def ascii_lower(text: str) -> str:
    """``text`` in lower case if it is all ASCII, else unchanged (the Kelvin sign is not ``k``).

    >>> ascii_lower("TAKE"), ascii_lower("ta\u212ae")
    ('take', 'ta\u212ae')
    """
    return text.lower() if text.isascii() else text


def _escaped(char: str) -> str:
    """One character as it is shown: itself if printable, else its Python escape (``\\x1b``)."""
    return char if char.isprintable() else repr(char)[1:-1]


def shorten(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` with control characters escaped, cut to about ``limit`` characters with ``…``.

    >>> shorten("a\\tb" * 30, 10)
    'a\\\\tba\\\\tba…'
    """
    shown: list[str] = []
    length = 0
    for index, char in enumerate(text):
        piece = _escaped(char)
        if length + len(piece) > limit and index < len(text):
            shown.append("…")
            break
        shown.append(piece)
        length += len(piece)
    return "".join(shown)


def quote(text: str, limit: int = QUOTE_LIMIT) -> str:
    """The offending ``text`` in quotes for a message: escaped, at most ``limit`` characters."""
    shown = shorten(text, limit)
    return f'"{shown}"' if "'" in shown and '"' not in shown else f"'{shown}'"


def printable(text: str) -> str:
    """``text`` with every non-printable character escaped, for showing names, titles and notes."""
    return "".join(_escaped(char) for char in text)


def whole_number(word: str) -> int | None:
    """``word`` as a whole number written in ASCII digits, or ``None`` if it is not one.

    No sign, no blanks. A number above :data:`LARGEST_NUMBER` reads as ``LARGEST_NUMBER + 1``
    (its digits are never all converted), so a caller's range check refuses it.
    """
    if not _DIGITS.fullmatch(word):
        return None
    significant = word.lstrip("0")
    if len(significant) > len(str(LARGEST_NUMBER)):
        return LARGEST_NUMBER + 1
    return min(int(significant or "0"), LARGEST_NUMBER + 1)
