"""The one error type of the site build: a message tied to a file and a line.

>>> str(BuildError("unknown directive 'foo'", "site_src/rules/01-cards.md", 12))
"site_src/rules/01-cards.md:12: unknown directive 'foo'"

A problem that is not in a file (a command-line option, an environment variable) names it
instead, without a line:

>>> str(BuildError("unknown language 'xx'", "--lang", None))
"--lang: unknown language 'xx'"
"""

from __future__ import annotations

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
            return self.message
        path = printable(self.path)
        if self.line is None:
            return f"{path}: {self.message}"
        return f"{path}:{self.line or 1}: {self.message}"


def printable(name: str) -> str:
    r"""A file name as an error line shows it: a control character or a byte that is not UTF-8
    written as an escape (a name never moves the terminal's cursor or changes its colours).

    >>> printable("deals/ok\x1b[31m.klab"), printable("x\udcff.svg")
    ('deals/ok\\x1b[31m.klab', 'x\\xff.svg')
    """
    if name.isprintable():
        return name
    shown = []
    for char in name:
        code = ord(char)
        if 0xDC80 <= code <= 0xDCFF:  # a byte the file system gave that is not UTF-8
            shown.append(f"\\x{code - 0xDC00:02x}")
        elif not char.isprintable():
            shown.append(char.encode("unicode_escape").decode("ascii"))
        else:
            shown.append(char)
    return "".join(shown)


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
