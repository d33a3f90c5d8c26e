"""What the build checks in the words of the rules pages (the writer's and the translators'),
reported as warnings at their Markdown or ``.po`` line (errors under ``--strict``).

- A page's summary is shown whole (the home page, ``<meta name=description>``), never cut: it
  must be at most :data:`SUMMARY_LIMIT` characters in every language.
- A quoted phrase that ends with its own full stop takes no second one after the closing quote
  (``"Good.".``, «Sto.».). A question or exclamation mark inside the quotes may be followed by
  the sentence's stop, as Spanish and French write it («¿A qué carta?».).
- A paragraph that only says "Next: [the next page](…)" repeats the pager under every page.

>>> summary_problem("x" * 160) is None, summary_problem("x" * 161)
(True, 'the summary is 161 characters long: at most 160, as it is shown whole (home page, search engines)')
>>> double_stop('He says "Good.".'), double_stop("«Sto.».") , double_stop('He says "Good."')
('Good.".', 'Sto.».', None)
>>> double_stop("Pregunta «¿A qué carta?».") is None
True
>>> repeats_pager("Next: [playing the cards](klaverjas-play.md).", ("klaverjas-play.md",))
True
>>> repeats_pager("See [playing the cards](klaverjas-play.md) for the tricks.", ("klaverjas-play.md",))
False
"""

from __future__ import annotations

import re

__all__ = ["SUMMARY_LIMIT", "summary_problem", "double_stop", "repeats_pager"]

SUMMARY_LIMIT = 160
"""The longest summary, in characters: what search engines show of ``<meta name=description>``."""

_CLOSING_QUOTES = "\"”“»«’'"
_DOUBLE_STOP = re.compile(rf"[.…][{_CLOSING_QUOTES}]\*{{0,2}}\.")
"""A stop, a closing quote (perhaps emphasis) and another stop; the word before it is found by
walking back (a pattern starting with the word would take quadratic time on a long word)."""
_PAGER_LINE = re.compile(r"^[^\[\]()]{1,30}:\s*\[[^\]]+\]\(([^)#\s]+\.md)(?:#[^)]*)?\)\s*\.?\s*$")


def summary_problem(text: str) -> str | None:
    """Why a summary cannot be shown whole, or None."""
    if len(text) <= SUMMARY_LIMIT:
        return None
    return (f"the summary is {len(text)} characters long: at most {SUMMARY_LIMIT}, as it is shown "
            "whole (home page, search engines)")


def double_stop(text: str) -> str | None:
    """The first quoted phrase that ends with a stop and is followed by another one, or None."""
    match = _DOUBLE_STOP.search(text)
    if not match:
        return None
    start = match.start()
    while start > 0 and not text[start - 1].isspace() and text[start - 1] not in _CLOSING_QUOTES:
        start -= 1
    return text[start:match.end()]


def repeats_pager(msgid: str, next_page: tuple[str, ...]) -> bool:
    """Whether a paragraph is only a label and a link to the next page (its names ``next_page``:
    what the pager under every page shows)."""
    match = _PAGER_LINE.match(msgid)
    return bool(match and match.group(1).rsplit("/", 1)[-1] in next_page)
