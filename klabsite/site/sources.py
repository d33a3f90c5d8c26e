"""Reading the build's sources: files inside the source tree only, decoded as UTF-8, errors at ``file:line``.

The source tree is the site folder (``site_src/``) and the catalogs folder (``locales/``). A
symbolic link in them may point anywhere inside them; a link that leads out of them
(``site_src/static/host -> /etc/hostname``) is refused with one line naming it, so a build never
publishes a file from elsewhere on the machine. (Refused rather than skipped: a skipped file
would be a page or a stylesheet silently missing from the site.)

>>> decode(b"one\\ntwo \\xff\\n", "a.md")
Traceback (most recent call last):
...
klabsite.site.errors.BuildError: a.md:2: not UTF-8: the byte 0xff cannot be decoded (save the file as UTF-8)
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path

from klabsite.site.errors import BuildError, quote

__all__ = ["SourceTree", "decode"]


def decode(data: bytes, display: str) -> str:
    """``data`` as UTF-8 text; otherwise a :class:`BuildError` at the line of the first bad byte."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise BuildError(f"not UTF-8: the byte {data[error.start]:#04x} cannot be decoded "
                         "(save the file as UTF-8)", display, line) from None


class SourceTree:
    """The folders a build may read, and the only way the build reads them.

    ``relative(path)`` gives the path as printed in messages (relative to the project).
    """

    def __init__(self, roots: Iterable[Path], relative: Callable[[Path], str], project: Path | None = None
                 ) -> None:
        roots = tuple(roots)
        self.roots = tuple(dict.fromkeys(root.resolve() for root in roots))
        self.relative = relative
        inside = project.resolve() if project is not None else None
        self.linked_out = tuple(root for root in roots if inside is not None
                                and not root.resolve().is_relative_to(inside))
        """The source folders that a link (the folder itself or one above it) takes out of the project:
        reading from them is refused."""

    def check_roots(self) -> None:
        """Refuse a source folder that a symbolic link takes out of the project."""
        for root in self.linked_out:
            self.check(root)

    def check(self, path: Path) -> None:
        """Refuse ``path`` when it is a link that leads out of the source tree, or a broken link, or
        when it lies in a source folder that is itself a link out of the project."""
        try:
            str(path).encode("utf-8")
        except UnicodeEncodeError:
            raise BuildError("a file name that is not UTF-8: rename it (the site's addresses are UTF-8)",
                             self.relative(path)) from None
        for root in self.linked_out:
            if path.is_relative_to(root):
                message = (f"a symbolic link to {quote(root.resolve(), 60)}, outside the project; the build "
                           "reads only folders inside it (copy the folder in)")
                raise BuildError(message, self.relative(root))
        real = path.resolve()
        if not any(real.is_relative_to(root) for root in self.roots):
            inside = " and ".join(f"{self.relative(root)}/" for root in self.roots)
            raise BuildError(f"a symbolic link to {quote(real, 60)}, outside {inside}; "
                             "the build reads only files inside them", self.relative(path))
        if path.is_symlink() and not path.exists():
            raise BuildError("a symbolic link to a missing file", self.relative(path))

    def read_bytes(self, path: Path) -> bytes:
        """The bytes of a source file (after :meth:`check`)."""
        self.check(path)
        return path.read_bytes()

    def read_text(self, path: Path) -> str:
        """The text of a source file (after :meth:`check`), which must be UTF-8."""
        return decode(self.read_bytes(path), self.relative(path))

    def files(self, directory: Path) -> list[Path]:
        """Every file under ``directory`` (links checked, linked folders inside the tree followed), sorted."""
        found: list[Path] = []
        seen: set[Path] = set()

        def visit(folder: Path) -> None:
            real = folder.resolve()
            if real in seen:
                return
            seen.add(real)
            with os.scandir(folder) as entries:
                for entry in entries:
                    path = Path(entry.path)
                    if entry.is_symlink():
                        self.check(path)
                    if entry.is_dir():
                        visit(path)
                    elif entry.is_file():
                        found.append(path)

        visit(directory)
        return sorted(found)
