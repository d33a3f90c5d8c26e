"""The one error type of the site build: a message tied to a file and a line.

>>> str(BuildError("unknown directive 'foo'", "site_src/rules/01-cards.md", 12))
"site_src/rules/01-cards.md:12: unknown directive 'foo'"
"""

from __future__ import annotations

__all__ = ["BuildError"]


class BuildError(ValueError):
    """The site could not be built; ``str()`` is one line ``file:line: message``."""

    def __init__(self, message: str, path: str = "", line: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line

    def __str__(self) -> str:
        if not self.path:
            return self.message
        return f"{self.path}:{self.line or 1}: {self.message}"
