"""Safe file writes, a folder lock, and the one-line report of a bug: what the ``klabsite`` commands
and the translation tools share. It sits beside the layers (any of them but the pure engine may
use it) and imports only :mod:`klabsite.engine.text`.

- :func:`write_atomically` replaces one file: a temporary file in the same folder, fsync,
  ``os.replace``; on any failure the file is left as it was.
- :func:`replace_together` replaces several files all or none (a score sheet and its undo
  history): every new version is written to a temporary file first, then they are renamed in
  order, and a failure renames the old versions back.
- :func:`locked` holds an ``fcntl.flock`` lock on a folder while its files are changed, so that
  two commands never interleave their reads and writes.
- Temporary files are named ``.NAME.XXXXXXXX.tmp``; one left by a process that was killed is
  removed by :func:`remove_stale_temporaries` on the next run.

>>> internal_error("game.klab", KeyError("x"))
"game.klab: internal error (KeyError: 'x'); this is a klabsite bug, please report it with the file"
"""

from __future__ import annotations

import base64
import contextlib
import errno
import fcntl
import os
import re
import stat
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from klabsite.engine.text import printable, shorten

__all__ = [
    "write_atomically",
    "write_standard_output",
    "scratch_beside",
    "output_target",
    "refuse_read_only",
    "replace_together",
    "locked",
    "remove_stale_temporaries",
    "internal_error",
    "EXIT_BUG",
    "LOCK_TIMEOUT",
]

EXIT_BUG = 3
"""The exit status of every command after an internal error (a klabsite bug)."""

LOCK_TIMEOUT = 30.0
"""Seconds :func:`locked` waits for another command to finish before giving up."""


def _new_file_mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def _mode_of(path: Path) -> int:
    """The permissions ``path`` has (a new file gets the usual ones)."""
    try:
        return path.stat().st_mode & 0o7777
    except FileNotFoundError:
        return _new_file_mode()


def _temporary(path: Path, data: bytes, mode: int) -> Path:
    """A new temporary file beside ``path`` holding ``data`` (fsynced, with ``mode``)."""
    try:
        handle, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as error:  # name the folder, not the temporary file that was never made
        raise OSError(error.errno, error.strerror, str(path.parent)) from None
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(name, mode)
    except BaseException as error:
        with contextlib.suppress(OSError):
            os.unlink(name)
        if isinstance(error, OSError):
            raise _naming(error, path) from None
        raise
    return Path(name)


def _naming(error: OSError, path: Path | str) -> OSError:
    """``error`` told of ``path``, the file the user asked for, not of a temporary file or of where
    its links lead (a full disk or a failed rename names the file as given)."""
    return OSError(error.errno, error.strerror or str(error), os.fspath(path))


@contextlib.contextmanager
def scratch_beside(path: Path) -> Iterator[Path]:
    """An empty scratch file in ``path``'s folder, named as the temporary files here are, removed
    afterwards: work for ``path`` needs no room elsewhere."""
    handle, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(handle)
    try:
        yield Path(name)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(name)


def _sync_folder(folder: Path) -> None:
    """Make renames in ``folder`` durable where the system allows."""
    with contextlib.suppress(OSError):
        handle = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(handle)
        finally:
            os.close(handle)


def write_atomically(path: Path | str, data: bytes) -> None:
    """Replace ``path`` by ``data``: a temporary file in the same folder, fsync, ``os.replace``.

    The file keeps its permissions (a new file gets the usual ones); on any failure the
    temporary file is removed and ``path`` is left as it was. A symbolic link is followed (its
    target is replaced, the link kept); a device or pipe (``/dev/stdout``) is written to, not
    replaced; a folder, a path that names none (``.``, ``dir/``), a folder that does not exist,
    a read-only file and a folder that cannot be written are each an :class:`OSError`.
    """
    if _is_device(path):
        with open(path, "wb") as file:
            file.write(data)
        return
    try:
        replace_together([(_writable_target(path), data)])
    except OSError as error:
        if error.filename is None or os.path.realpath(error.filename) != os.path.realpath(path):
            raise
        raise _naming(error, path) from None


def write_standard_output(text: str) -> None:
    """Write ``text`` to standard output and flush it; an :class:`OSError` that names "standard
    output" when it cannot be written (closed, a full disk behind a redirection)."""
    stream = sys.stdout
    if stream is None:
        raise OSError(errno.EBADF, "it is closed", "standard output")
    try:
        stream.write(text)
        stream.flush()
    except BrokenPipeError:
        raise  # a reader that stopped early (klabsite … | head) is not an error
    except (OSError, ValueError) as error:  # ValueError: a stream closed under us
        number = getattr(error, "errno", None) or errno.EBADF
        raise OSError(number, getattr(error, "strerror", None) or str(error), "standard output") from None


def check_writable(path: Path | str) -> None:
    """Raise the :class:`OSError` that :func:`write_atomically` would meet at ``path``, so that a
    command can stop before its work."""
    if not _is_device(path):
        _writable_target(path)


def _is_device(path: Path | str) -> bool:
    """Whether ``path`` is a device or a pipe (``/dev/stdout``): written to as it is, not replaced."""
    try:
        return not stat.S_ISREG(os.stat(path).st_mode) and not os.path.isdir(path)
    except FileNotFoundError:
        return False


def _writable_target(path: Path | str) -> Path:
    """The file :func:`write_atomically` replaces at ``path``, or the :class:`OSError` it would meet."""
    target = output_target(path)
    refuse_read_only(target)
    if not target.parent.is_dir():  # a symbolic link into a folder that is not there
        raise FileNotFoundError(errno.ENOENT, "no such folder", str(target.parent))
    if not os.access(target.parent, os.W_OK | os.X_OK):
        raise PermissionError(errno.EACCES, "the folder is not writable", str(target.parent))
    return target


def output_target(path: Path | str) -> Path:
    """The file a command writing to ``path`` changes: symbolic links followed.

    Raises :class:`IsADirectoryError` for a folder or a path that names no file in its folder
    (``.``, ``..``, ``/``, ``dir/``), and :class:`FileNotFoundError` for an empty path.
    """
    text = os.fspath(path)
    if not text:
        raise FileNotFoundError(errno.ENOENT, "an output file needs a name", text)
    folder, name = os.path.split(text)
    target = Path(os.path.realpath(text))
    if name in ("", ".", "..") or target.is_dir() or not target.name:
        raise IsADirectoryError(errno.EISDIR, "is a folder: name a file to write", text)
    if folder and not os.path.isdir(folder):
        raise FileNotFoundError(errno.ENOENT, "no such folder", folder)
    return target


def refuse_read_only(path: Path) -> None:
    """Raise :class:`PermissionError` if the file at ``path`` exists and is marked read-only
    (root could write it anyway; a command should not)."""
    writable = stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH
    with contextlib.suppress(FileNotFoundError):
        if not path.stat().st_mode & writable or not os.access(path, os.W_OK):
            raise PermissionError(errno.EACCES, "the file is read-only; make it writable first (chmod u+w)",
                                  str(path))


@dataclass
class _Staged:
    """One file of :func:`replace_together`: its new version and a second name for the old one."""

    path: Path
    new: Path
    old: Path | None


def _keep_old(path: Path) -> Path | None:
    """A second name for the file at ``path`` as it is now (``None`` if there is none).

    A hard link costs no space; where links are not allowed, a copy is made.
    """
    if not path.exists():
        return None
    while True:
        suffix = base64.b32encode(os.urandom(5)).decode("ascii").lower()
        name = path.with_name(f".{path.name}.{suffix}.tmp")
        try:
            os.link(path, name)
            return name
        except FileExistsError:
            continue
        except OSError as error:
            if error.errno not in (errno.EPERM, errno.EXDEV, errno.ENOTSUP, errno.EMLINK, errno.EOPNOTSUPP):
                raise
            return _temporary(path, path.read_bytes(), _mode_of(path))


def replace_together(files: Sequence[tuple[Path, bytes]]) -> None:
    """Replace each ``(path, data)`` in order, all or none.

    Every new version is written and fsynced to a temporary file beside its path before any
    path is touched; then they are renamed into place in order. If a rename fails, the paths
    already replaced get their old files back (renamed, byte for byte) and the error is raised.
    No temporary file is left behind. Each file keeps its permissions.
    """
    staged: list[_Staged] = []
    try:
        for path, data in files:
            new = _temporary(path, data, _mode_of(path))
            staged.append(_Staged(path, new, None))
            staged[-1].old = _keep_old(path)
        done: list[_Staged] = []
        try:
            for item in staged:
                os.replace(item.new, item.path)
                done.append(item)
        except BaseException as error:
            for put in reversed(done):
                _put_back(put)
            if isinstance(error, OSError):
                raise _naming(error, item.path) from None
            raise
    finally:
        for item in staged:
            for name in (item.new, item.old):
                if name is not None:
                    with contextlib.suppress(FileNotFoundError):
                        os.unlink(name)
    for folder in dict.fromkeys(path.parent for path, _ in files):
        _sync_folder(folder)


def _put_back(item: _Staged) -> None:
    """Undo one rename of :func:`replace_together`: the old file back, or no file if there was none."""
    if item.old is None:
        os.unlink(item.path)
    else:
        os.replace(item.old, item.path)


@contextlib.contextmanager
def locked(folder: Path, timeout: float = LOCK_TIMEOUT) -> Iterator[None]:
    """Hold an exclusive ``fcntl.flock`` lock on ``folder`` (waiting up to ``timeout`` seconds).

    The lock is on the folder itself, not on a file in it: files there are replaced by renames
    (which a lock on a file would not survive), and no lock file is left behind. It is released
    when the block ends or the process dies.
    """
    handle = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise TimeoutError(errno.EAGAIN, "another klabsite command is changing files there; "
                                       "try again", str(folder)) from None
                time.sleep(0.005)
        yield
    finally:
        os.close(handle)


def remove_stale_temporaries(path: Path) -> list[Path]:
    """Remove the temporary files of ``path`` (``.NAME.XXXXXXXX.tmp``) left by a killed process.

    Call it only while holding :func:`locked` on the folder, so that no running command owns
    them. Returns the files removed.
    """
    pattern = re.compile(rf"\.{re.escape(path.name)}\.[a-z0-9_]{{8}}\.tmp")
    removed = []
    with contextlib.suppress(OSError):
        for entry in os.scandir(path.parent):
            if pattern.fullmatch(entry.name) and entry.is_file(follow_symlinks=False):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(entry.path)
                    removed.append(Path(entry.path))
    return removed


def internal_error(path: str, bug: BaseException) -> str:
    """The line a command prints instead of a traceback when klabsite itself fails on ``path``."""
    detail = shorten(str(bug), 200)
    return (f"{printable(path)}: internal error ({type(bug).__name__}: {detail}); this is a klabsite bug, "
            "please report it with the file")
