"""The one error type of the site build: a message tied to a file and a line.

>>> str(BuildError("unknown directive 'foo'", "site_src/rules/01-cards.md", 12))
"site_src/rules/01-cards.md:12: unknown directive 'foo'"

A problem that is not in a file (a command-line option, an environment variable) names it
instead, without a line:

>>> str(BuildError("unknown language 'xx'", "--lang", None))
"--lang: unknown language 'xx'"
"""

from __future__ import annotations

from klabsite.engine.text import printable

__all__ = ["BuildError", "quote", "warn"]


class BuildError(ValueError):
    """The site could not be built; ``str()`` is one line ``file:line: message``.

    ``line`` 0 means the file as a whole (printed as line 1); ``None`` means ``path`` is not a
    file but an option or a variable (``--out: …``).
    """

    def __init__(self, message: str, path: str = "", line: int | None = 0) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line

    def __str__(self) -> str:
        if not self.path:
            return printable(self.message)
        if self.line is None:
            return printable(f"{self.path}: {self.message}")
        return printable(f"{self.path}:{self.line or 1}: {self.message}")


def quote(text: object, limit: int = 40) -> str:
    """``repr`` of a value from the input, cut to ``limit`` characters (error lines stay short).

    >>> quote("abc"), quote("x" * 50, 10)
    ("'abc'", "'xxxxxxxxx…'")
    """
    text = str(text)
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


def warn(warnings: list[str], message: str, path: str, line: int = 1, *, strict: bool,
         refusal: str = "") -> None:
    """Add the warning ``path:line: warning: message`` to ``warnings``; with ``strict`` (``--strict``)
    raise it as a :class:`BuildError` instead, ``refusal`` added to its message.

    >>> notes: list[str] = []
    >>> warn(notes, "2 fuzzy", "fr.po", 7, strict=False)
    >>> notes
    ['fr.po:7: warning: 2 fuzzy']
    >>> warn(notes, "2 fuzzy", "fr.po", 7, strict=True, refusal="; --strict refuses them")
    Traceback (most recent call last):
    klabsite.site.errors.BuildError: fr.po:7: 2 fuzzy; --strict refuses them
    """
    if strict:
        raise BuildError(message + refusal, path, line)
    warnings.append(f"{path}:{line}: warning: {message}")
