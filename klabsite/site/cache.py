"""Rebuilding only what changed: a digest of everything a build reads, kept with its output.

Every build writes :data:`MANIFEST` into its output: the digest of its inputs (klabsite's own
code and the versions of Python and the libraries it builds with, the configuration, every file
of ``site_src/``, ``locales/`` and ``docs/``, the records shown) and, per replay page, the key it
was drawn from. The next build compares:

* the same digest, and the output exactly as the manifest lists it (every file there with the
  bytes it was written with, no other file, no link): nothing changed, nothing is rendered or
  written ("up to date");
* otherwise a replay page (a deal's overview or step) whose key is unchanged is taken from the
  previous output as it is, and only the others are rendered. The key of such a page is the digest
  of everything but the records (the code, templates, stylesheet, catalogs, rules pages,
  configuration) with the text of the page's own record and the deal's number: a deal's pages
  depend on nothing else (its links go to its own steps, to the gallery, the match and the rules
  pages, which are drawn anew every time). The new output is still written whole and swapped in.

A build trusts only an output it wrote itself: a manifest counts only when this machine's cache
(``$XDG_CACHE_HOME/klabsite``, else ``~/.cache/klabsite``) remembers writing it, and a page is
taken over only when its bytes are the ones the manifest lists. An output folder built elsewhere
(committed to a repository) or edited by hand is rendered anew, whatever its manifest says. Where
the cache cannot be written, every build renders everything.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import stat
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

from klabsite import __version__
from klabsite.site.config import SiteConfig

__all__ = ["MANIFEST", "Manifest", "code_digest", "file_digest", "inputs_digest", "read_manifest", "remember"]

MANIFEST = ".klabsite-manifest.json"
"""The output file holding the digest of a build's inputs and the keys of its replay pages."""

_FORMAT = "klabsite-manifest 2"
_REMEMBERED = 64
"""How many manifests the cache remembers (the newest): one per output folder built recently."""
_PACKAGE = Path(__file__).resolve().parent.parent


def _digest(parts: Iterable[bytes]) -> str:
    sha = hashlib.sha256()
    for part in parts:
        sha.update(len(part).to_bytes(8, "big"))
        sha.update(part)
    return sha.hexdigest()


def _files(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(path for path in folder.rglob("*") if path.is_file() and "__pycache__" not in path.parts
                  and path.suffix not in (".mo", ".pyc"))


_LIBRARIES = ("Jinja2", "MarkupSafe", "Babel", "Markdown", "tinycss2")
"""The libraries whose versions shape the output (templates, escaping, catalogs and numbers,
Markdown, the stylesheet's checks)."""


def _versions() -> bytes:
    """Python's version and each library's, as installed (an upgrade may change the output)."""
    found = []
    for name in _LIBRARIES:
        try:
            found.append(f"{name}={metadata.version(name)}")
        except metadata.PackageNotFoundError:
            found.append(f"{name}=none")
    return " ".join([f"Python={platform.python_version()}", *found]).encode()


def code_digest() -> str:
    """The digest of klabsite's own code and of the versions of Python and the libraries it
    builds with: the build's output depends on them too."""
    parts = [__version__.encode(), _versions()]
    for path in _files(_PACKAGE):
        if path.suffix in (".py", ".c") and "_default" not in path.parts:
            parts += [str(path.relative_to(_PACKAGE)).encode(), path.read_bytes()]
    return _digest(parts)


def _config_bytes(config: SiteConfig) -> bytes:
    fields = ("languages", "source_lang", "base_url", "strict", "build_date")
    return repr(tuple((name, getattr(config, name)) for name in fields)).encode()


def _tree(config: SiteConfig, *, records: bool) -> list[bytes]:
    """Every file the build reads, by name and bytes; the records only when ``records``."""
    parts: list[bytes] = []
    deals = config.src_dir / "deals"
    for folder in (config.src_dir, config.locales_dir, config.docs_dir):
        for path in _files(folder):
            if path.is_relative_to(deals) and not records:
                continue
            parts += [os.fsencode(path.relative_to(folder.parent)), path.read_bytes()]
    if records and config.deal_files is not None:  # by place and bytes: not where they are read from
        for number, path in enumerate(config.deal_files):
            parts += [str(number).encode(), path.read_bytes() if path.is_file() else b""]
    return parts


def inputs_digest(config: SiteConfig, *, records: bool = True, code: str | None = None) -> str:
    """The digest of everything the build reads (without the records: ``records=False``)."""
    return _digest([(code or code_digest()).encode(), _config_bytes(config), *_tree(config, records=records)])


def page_key(common: str, record_text: str, deal_number: int) -> str:
    """The key a deal's pages are drawn from: ``common`` (the inputs but the records), the record's
    text and the deal's number in it."""
    return _digest([common.encode(), record_text.encode(), str(deal_number).encode()])[:32]


def file_digest(data: bytes) -> str:
    """The digest of one output file's bytes, as the manifest lists it."""
    return hashlib.sha256(data).hexdigest()


@dataclass
class Manifest:
    """What a build left in its output: its inputs' digest, the digest of every file it wrote and
    each replay page's key."""

    inputs: str = ""
    files: dict[str, str] = field(default_factory=dict)
    """Output path → :func:`file_digest` of its bytes (the manifest itself and the marker aside)."""
    pages: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, inputs: str, outputs: Mapping[str, bytes], pages: Mapping[str, str]) -> Manifest:
        """The manifest of a build that writes ``outputs``."""
        return cls(inputs, {path: file_digest(data) for path, data in outputs.items()}, dict(pages))

    def to_bytes(self) -> bytes:
        """The manifest as written in the output (sorted, so builds stay byte-identical)."""
        data = {"format": _FORMAT, "inputs": self.inputs, "files": dict(sorted(self.files.items())),
                "pages": dict(sorted(self.pages.items()))}
        return (json.dumps(data, indent=0, ensure_ascii=True) + "\n").encode()

    def read(self, out_dir: Path, path: str) -> bytes | None:
        """The bytes of ``path`` in ``out_dir`` when they are the ones this manifest lists, else None."""
        try:
            data = (out_dir / path).read_bytes()
        except OSError:
            return None
        return data if self.files.get(path) == file_digest(data) else None

    def intact(self, out_dir: Path, extra: Iterable[str] = ()) -> bool:
        """Whether ``out_dir`` is as a build leaves it: exactly the files listed (and ``extra``), each
        with the bytes it was written with, no other folder, no symbolic link, and the modes the
        writer gives (folders 755, files 644)."""
        found: set[str] = set()
        folders_found: set[str] = set()
        for top, folders, names in os.walk(out_dir):
            here = Path(top)
            for name in (*folders, *names):
                path = here / name
                mode = path.lstat().st_mode
                if stat.S_ISLNK(mode) or stat.S_IMODE(mode) != (0o755 if name in folders else 0o644):
                    return False
            found.update((here / name).relative_to(out_dir).as_posix() for name in names)
            folders_found.update((here / name).relative_to(out_dir).as_posix() for name in folders)
        listed = set(self.files) | set(extra)
        parents = {parent.as_posix() for path in listed for parent in Path(path).parents} - {"."}
        if found != listed or folders_found != parents:
            return False
        return all(self.read(out_dir, path) is not None for path in self.files)


def _cache_folder() -> Path | None:
    """Where this machine's builds are remembered: ``$XDG_CACHE_HOME/klabsite/manifests`` (an
    absolute XDG_CACHE_HOME only, as the XDG spec says), else ``~/.cache/…``; None without a home."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):
        home = os.environ["HOME"] if "HOME" in os.environ else os.path.expanduser("~")
        if not os.path.isabs(home):  # an empty HOME would make it "/" (the root's .cache)
            return None
        base = os.path.join(home, ".cache")
    return Path(base) / "klabsite" / "manifests"


def _age(path: Path) -> float:
    try:
        return path.lstat().st_mtime
    except OSError:
        return 0.0


def remember(manifest: bytes) -> None:
    """Note in this machine's cache that a build wrote ``manifest`` (the newest ones are kept);
    nothing happens where the cache cannot be written."""
    folder = _cache_folder()
    if folder is None:
        return
    try:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / file_digest(manifest)).touch()
        known = sorted(folder.iterdir(), key=_age, reverse=True)
        for stale in known[_REMEMBERED:]:
            stale.unlink(missing_ok=True)
    except OSError:
        return


def read_manifest(out_dir: Path) -> Manifest | None:
    """The manifest of the build in ``out_dir``, or None: no build there, not one we can read, or
    not one this machine remembers writing."""
    try:
        raw = (out_dir / MANIFEST).read_bytes()
        data = json.loads(raw.decode("utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != _FORMAT:
        return None
    folder = _cache_folder()
    if folder is None or not (folder / file_digest(raw)).is_file():
        return None
    pages = data.get("pages") or {}
    files = data.get("files") or {}
    if not isinstance(pages, Mapping) or not isinstance(files, Mapping):
        return None
    return Manifest(str(data.get("inputs", "")), {str(key): str(value) for key, value in files.items()},
                    {str(key): str(value) for key, value in pages.items()})
