"""Write stage: the one function that touches the output directory.

The whole site is written into a fresh temporary directory next to the output, and swapped in
only when every file is written: the old output is renamed aside, the new one renamed into its
place, the old one deleted. If anything fails before the swap, the temporary directory is removed
and the previous output is left exactly as it was.

The writer only ever replaces a directory a build made: every output holds the marker file
:data:`MARKER`, and an existing directory without it (unless empty) is refused, as are a file, a
symbolic link and a read-only directory, before anything is written (:func:`output_problem`; the
build asks it before rendering too). Leftovers of a build killed while writing
(``_site.new-*``, ``_site.old-*``, which hold :data:`UNFINISHED` as well) are removed by the next
build; a finished output never holds that file, so a copy of a site or another build's output
named like a leftover is left alone. Two builds into the same directory take turns (a lock on the
parent directory).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path, PurePosixPath

from klabsite.site.errors import BuildError

try:
    import fcntl
except ImportError:  # pragma: no cover (not POSIX: no lock, the rest works)
    fcntl = None  # type: ignore[assignment]

__all__ = ["write_site", "output_problem", "built_site_around", "MARKER", "UNFINISHED"]

MARKER = ".klabsite-build"
"""The file that says "a klabsite build made this directory; the next build may replace it"."""

_MARKER_TEXT = b"Made by klabsite build; the next build replaces this whole directory.\n"

UNFINISHED = ".klabsite-unfinished"
"""The file that says "a build was writing this directory or deleting it": only a directory
holding it is removed as a leftover of a build that was killed."""

_UNFINISHED_TEXT = b"Left by a klabsite build that did not finish; the next build deletes this directory.\n"


def _safe(path: str) -> PurePosixPath:
    relative = PurePosixPath(path)
    if relative.is_absolute() or ".." in relative.parts or not relative.parts or path in (MARKER, UNFINISHED):
        raise ValueError(f"refusing to write outside the site: {path!r}")
    return relative


def _writable(path: Path) -> bool:
    """Writable by us, and not marked read-only (root may write anywhere, but should not here)."""
    return os.access(path, os.W_OK | os.X_OK) and bool(path.stat().st_mode & stat.S_IWUSR)


def _overlaps(out_dir: Path, folder: Path) -> str | None:
    if out_dir == folder:
        return "is"
    if out_dir.is_relative_to(folder):
        return "is inside"
    if folder.is_relative_to(out_dir):
        return "contains"
    return None


def built_site_around(path: Path) -> Path | None:
    """The folder above ``path`` that a klabsite build made (marked :data:`MARKER`), if any: the
    next build into it replaces it whole, and whatever was put inside with it."""
    real = path.resolve()
    return next((folder for folder in real.parents if (folder / MARKER).is_file()), None)


def output_problem(out_dir: Path, name: str, *, project: Path | None = None, sources: Iterable[Path] = (),
                   inputs: Iterable[Path] = (), option: str = "--out") -> str | None:
    """Why a build may not replace ``out_dir`` (shown as ``name``, set by ``option``), or None when it may.

    It may not be or contain the ``project`` folder, nor be, contain or be inside one of the
    ``sources`` folders, nor be inside a site a build made, nor hold one of the ``inputs`` files
    (symbolic links resolved first);
    it must be a directory a build made (or empty, or not there yet), not a link, and writable,
    as must the folder it is in.
    """
    real = out_dir.resolve()
    advice = f"; choose another {option} (for example _site)"
    if project is not None:
        root = project.resolve()
        if real == root or root.is_relative_to(real):
            return f"{name} {'is' if real == root else 'contains'} the project folder{advice}"
    for folder in sources:
        folder = folder.resolve()
        if how := _overlaps(real, folder):
            shown = folder.relative_to(project.resolve()).as_posix() if project and folder.is_relative_to(
                project.resolve()) else str(folder)
            return f"{name} {how} the project's {shown} folder{advice}"
    if out_dir.is_file() and not out_dir.is_symlink():
        return f"{name} is a file, not a folder{advice}"
    if (around := built_site_around(out_dir)) is not None:
        return (f"{name} is inside {around}, a site that the next build there replaces whole; "
                f"choose an {option} outside it")
    for path in inputs:
        if path.resolve().is_relative_to(real):
            return f"{name} holds {path}, which the build reads and would delete{advice}"
    if out_dir.is_symlink():
        return f"{name} is a symbolic link; give the folder it points to as {option}"
    if out_dir.exists():
        if not out_dir.is_dir():
            return f"{name} is a file, not a folder{advice}"
        if not (out_dir / MARKER).is_file() and any(out_dir.iterdir()):
            return f"{name} was not made by klabsite build; remove it or choose another {option}"
        for folder in _folders(out_dir):
            if not _writable(folder):
                shown = name if folder == out_dir else f"{name}/{folder.relative_to(out_dir).as_posix()}"
                return f"{shown} is read-only; make it writable (chmod -R u+w) or choose another {option}"
    parent = out_dir.absolute().parent
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir():
        return f"{name} cannot be made: {parent} is a file, not a folder"
    if not _writable(parent):
        return f"{name} cannot be written: its folder {parent} is read-only"
    return None


def _folders(directory: Path) -> Iterator[Path]:
    yield directory
    for top, dirs, _files in os.walk(directory):
        for name in dirs:
            yield Path(top) / name


@contextlib.contextmanager
def _locked(directory: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``directory`` (so two builds into it take turns)."""
    if fcntl is None:
        yield
        return
    handle = os.open(directory, os.O_RDONLY)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        os.close(handle)


def _remove_leftovers(out_dir: Path) -> None:
    """Delete the ``<out>.new-*`` and ``<out>.old-*`` directories that a killed build left: those
    holding :data:`UNFINISHED`, never a finished output or a copy of one."""
    for prefix in (f"{out_dir.name}.new-", f"{out_dir.name}.old-"):
        for path in out_dir.parent.glob(f"{prefix}*"):
            if path.is_dir() and not path.is_symlink() and (path / UNFINISHED).is_file():
                shutil.rmtree(path, ignore_errors=True)


def write_site(outputs: Mapping[str, bytes], out_dir: Path) -> None:
    """Replace ``out_dir`` by a directory holding exactly ``outputs`` (path → bytes) and the marker."""
    out_dir = out_dir.absolute()
    problem = output_problem(out_dir, str(out_dir))
    if problem:
        raise BuildError(problem)
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    with _locked(out_dir.parent):
        _remove_leftovers(out_dir)
        staging = Path(tempfile.mkdtemp(prefix=f"{out_dir.name}.new-", dir=out_dir.parent))
        try:
            (staging / UNFINISHED).write_bytes(_UNFINISHED_TEXT)
            (staging / MARKER).write_bytes(_MARKER_TEXT)
            for path in sorted(outputs):
                target = staging.joinpath(*_safe(path).parts)
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(outputs[path])
            for directory, _dirs, files in os.walk(staging):
                os.chmod(directory, 0o755)
                for name in files:
                    os.chmod(os.path.join(directory, name), 0o644)
            _swap(staging, out_dir)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
        (out_dir / UNFINISHED).unlink()


def _swap(staging: Path, out_dir: Path) -> None:
    """Move ``staging`` to ``out_dir``; the old output is moved aside first, then deleted."""
    if not out_dir.exists() and not out_dir.is_symlink():
        os.replace(staging, out_dir)
        return
    old = Path(tempfile.mkdtemp(prefix=f"{out_dir.name}.old-", dir=out_dir.parent))
    os.rmdir(old)
    moved = False
    try:  # Ctrl-C between the two moves puts the old output back
        os.replace(out_dir, old)
        moved = True
        os.replace(staging, out_dir)
    except BaseException:
        if moved:
            os.replace(old, out_dir)
        raise
    (old / UNFINISHED).write_bytes(_UNFINISHED_TEXT)  # if deleting it is cut short, the next build ends it
    shutil.rmtree(old, ignore_errors=True)
