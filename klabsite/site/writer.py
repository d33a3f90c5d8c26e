"""Write stage: the one function that touches the output directory.

The whole site is written into a fresh temporary directory next to the output, and swapped in
only when every file is written: the old output is renamed aside, the new one renamed into its
place, the old one deleted. If anything fails before the swap, the temporary directory is removed
and the previous output is left exactly as it was.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path, PurePosixPath

__all__ = ["write_site"]


def _safe(path: str) -> PurePosixPath:
    relative = PurePosixPath(path)
    if relative.is_absolute() or ".." in relative.parts or not relative.parts:
        raise ValueError(f"refusing to write outside the site: {path!r}")
    return relative


def write_site(outputs: Mapping[str, bytes], out_dir: Path) -> None:
    """Replace ``out_dir`` by a directory holding exactly ``outputs`` (path → bytes), atomically."""
    out_dir = out_dir.absolute()
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f"{out_dir.name}.new-", dir=out_dir.parent))
    try:
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


def _swap(staging: Path, out_dir: Path) -> None:
    """Move ``staging`` to ``out_dir``; the old output is moved aside first, then deleted."""
    if not out_dir.exists() and not out_dir.is_symlink():
        os.replace(staging, out_dir)
        return
    old = Path(tempfile.mkdtemp(prefix=f"{out_dir.name}.old-", dir=out_dir.parent))
    os.rmdir(old)
    os.replace(out_dir, old)
    try:
        os.replace(staging, out_dir)
    except BaseException:
        os.replace(old, out_dir)
        raise
    shutil.rmtree(old, ignore_errors=True)
