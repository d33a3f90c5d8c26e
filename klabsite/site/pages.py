"""One output page of the site: what it is, its language, its path and how to render it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["Page"]


@dataclass(frozen=True)
class Page:
    """One output page: what it is, its language, where it goes, and how to render it."""

    kind: str
    lang: str | None
    """None for pages that are in every language at once (the language chooser, 404)."""
    path: str
    """Output path, ``/``-separated, relative to the site root (``fr/cards.html``)."""
    template: str
    context: dict[str, Any] = field(default_factory=dict)
    source: str = ""
    """The file the page comes from, for error messages."""

    @property
    def key(self) -> str:
        """The page's path without its language prefix: the same page in every language shares it."""
        if self.lang and self.path.startswith(self.lang + "/"):
            return self.path[len(self.lang) + 1:]
        return self.path

    @property
    def root(self) -> str:
        """The relative path from this page to the site root (``../`` for ``fr/cards.html``)."""
        return "../" * self.path.count("/")
