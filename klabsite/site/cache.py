"""Rebuilding only what changed: a digest of everything a build reads, kept with its output.

Every build writes :data:`MANIFEST` into its output: the digest of its inputs (klabsite's own
code, the configuration, every file of ``site_src/``, ``locales/`` and ``docs/``, the records
shown) and, per replay page, the key it was drawn from. The next build compares:

* the same digest, and every file the manifest lists still there: nothing changed, nothing is
  rendered or written ("up to date");
* otherwise a replay page (a deal's overview or step) whose key is unchanged is taken from the
  previous output as it is, and only the others are rendered. The key of such a page is the digest
  of everything but the records (the code, templates, stylesheet, catalogs, rules pages,
  configuration) with the text of the page's own record and the deal's number: a deal's pages
  depend on nothing else (its links go to its own steps, to the gallery, the match and the rules
  pages, which are drawn anew every time). The new output is still written whole and swapped in.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from klabsite import __version__
from klabsite.site.config import SiteConfig

__all__ = ["MANIFEST", "Manifest", "code_digest", "inputs_digest", "read_manifest"]

MANIFEST = ".klabsite-manifest.json"
"""The output file holding the digest of a build's inputs and the keys of its replay pages."""

_FORMAT = "klabsite-manifest 1"
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


def code_digest() -> str:
    """The digest of klabsite's own code: the build's output depends on it too."""
    parts = [__version__.encode()]
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
            parts += [str(path.relative_to(folder.parent)).encode(), path.read_bytes()]
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


@dataclass
class Manifest:
    """What a build left in its output: its inputs' digest and each replay page's key."""

    inputs: str = ""
    files: list[str] = field(default_factory=list)
    pages: dict[str, str] = field(default_factory=dict)

    def to_bytes(self) -> bytes:
        """The manifest as written in the output (sorted, so builds stay byte-identical)."""
        data = {"format": _FORMAT, "inputs": self.inputs, "files": sorted(self.files),
                "pages": dict(sorted(self.pages.items()))}
        return (json.dumps(data, indent=0, ensure_ascii=True) + "\n").encode()

    def intact(self, out_dir: Path) -> bool:
        """Whether every file the manifest lists is still in ``out_dir``."""
        return all((out_dir / name).is_file() for name in self.files)


def read_manifest(out_dir: Path) -> Manifest | None:
    """The manifest of the build in ``out_dir``, or None (no build there, or not one we can read)."""
    try:
        data = json.loads((out_dir / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != _FORMAT:
        return None
    pages = data.get("pages") or {}
    files = data.get("files") or []
    if not isinstance(pages, Mapping) or not isinstance(files, list):
        return None
    return Manifest(str(data.get("inputs", "")), [str(name) for name in files],
                    {str(key): str(value) for key, value in pages.items()})
