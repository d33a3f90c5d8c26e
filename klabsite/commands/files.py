"""What the ``klabsite`` commands share: atomic file writes and the one-line report of a bug.

>>> internal_error("game.klab", KeyError("x"))
"game.klab: internal error (KeyError: 'x'); this is a klabsite bug, please report it with the file"
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

__all__ = ["write_atomically", "internal_error", "EXIT_BUG"]

EXIT_BUG = 3
"""The exit status of every command after an internal error (a klabsite bug)."""


def _new_file_mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def write_atomically(path: Path, data: bytes) -> None:
    """Replace ``path`` by ``data``: a temporary file in the same folder, fsync, ``os.replace``.

    The file keeps its permissions (a new file gets the usual ones); on any failure the
    temporary file is removed and ``path`` is left as it was.
    """
    try:
        mode = path.stat().st_mode & 0o7777
    except FileNotFoundError:
        mode = _new_file_mode()
    try:
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as error:  # name the folder, not the temporary file that was never made
        raise OSError(error.errno, error.strerror, str(path.parent)) from None
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    with contextlib.suppress(OSError):  # make the rename itself durable where the system allows
        folder = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)


def internal_error(path: str, bug: BaseException) -> str:
    """The line a command prints instead of a traceback when klabsite itself fails on ``path``."""
    return (f"{path}: internal error ({type(bug).__name__}: {bug}); this is a klabsite bug, "
            "please report it with the file")
