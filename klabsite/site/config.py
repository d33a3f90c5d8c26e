"""The site's configuration: frozen defaults, overlaid by ``site_src/site.toml``, then by the command line.

>>> config = SiteConfig(root=Path("/project"))
>>> config.src_dir, config.out_dir, config.codes
(PosixPath('/project/site_src'), PosixPath('/project/_site'), ('en', 'fr', 'es', 'hr', 'ar'))
>>> config.language("ar").dir, config.language("hr").name
('rtl', 'Hrvatski')
"""

from __future__ import annotations

import datetime as dt
import os
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from klabsite.site.errors import BuildError

__all__ = ["Language", "LANGUAGES", "SiteConfig", "load_config", "build_date_from_env"]


@dataclass(frozen=True, slots=True)
class Language:
    """A site language: its code, its name written in itself, and its writing direction."""

    code: str
    name: str
    dir: str = "ltr"


LANGUAGES: tuple[Language, ...] = (
    Language("en", "English"),
    Language("fr", "Français"),
    Language("es", "Español"),
    Language("hr", "Hrvatski"),
    Language("ar", "العربية", "rtl"),
)
"""Every language the site is written in, English (the source) first."""

_KNOWN = {language.code: language for language in LANGUAGES}


@dataclass(frozen=True, slots=True)
class SiteConfig:
    """Everything a build depends on besides the files it reads. Paths are absolute."""

    root: Path
    src_dir: Path = field(default=Path())
    locales_dir: Path = field(default=Path())
    out_dir: Path = field(default=Path())
    languages: tuple[Language, ...] = LANGUAGES
    source_lang: str = "en"
    base_url: str | None = None
    strict: bool = False
    build_date: dt.date | None = None

    def __post_init__(self) -> None:
        root = self.root.resolve() if not self.root.is_absolute() else self.root
        object.__setattr__(self, "root", root)
        for name, default in (("src_dir", "site_src"), ("locales_dir", "locales"), ("out_dir", "_site")):
            value = getattr(self, name)
            path = root / default if value == Path() else value
            object.__setattr__(self, name, path if path.is_absolute() else root / path)
        if self.base_url is not None and not self.base_url.endswith("/"):
            object.__setattr__(self, "base_url", self.base_url + "/")

    @property
    def codes(self) -> tuple[str, ...]:
        """The language codes, in site order."""
        return tuple(language.code for language in self.languages)

    @property
    def targets(self) -> tuple[str, ...]:
        """The languages that need translations (all but the source language)."""
        return tuple(code for code in self.codes if code != self.source_lang)

    def language(self, code: str) -> Language:
        """The language with this code."""
        for language in self.languages:
            if language.code == code:
                return language
        raise KeyError(code)

    def relative(self, path: Path) -> str:
        """``path`` relative to the project root when inside it (for messages), else as is."""
        try:
            return path.relative_to(self.root).as_posix()
        except ValueError:
            return str(path)


def build_date_from_env(environ: dict[str, str] | os._Environ[str] | None = None) -> dt.date | None:
    """The build date from ``SOURCE_DATE_EPOCH`` (UTC), or None when it is not set.

    >>> build_date_from_env({"SOURCE_DATE_EPOCH": "1700000000"})
    datetime.date(2023, 11, 14)
    """
    environ = os.environ if environ is None else environ
    value = environ.get("SOURCE_DATE_EPOCH", "").strip()
    if not value:
        return None
    try:
        return dt.datetime.fromtimestamp(int(value), tz=dt.UTC).date()
    except ValueError:
        raise BuildError(f"SOURCE_DATE_EPOCH must be a number of seconds, not {value!r}") from None


def load_config(root: Path, **overrides: Any) -> SiteConfig:
    """The defaults, overlaid by ``site_src/site.toml`` when present, then by ``overrides``.

    Overrides whose value is None are ignored (an option not given on the command line).
    The build date comes from ``SOURCE_DATE_EPOCH`` first, then from the file's ``build_date``.
    """
    config = SiteConfig(root=root)
    settings: dict[str, Any] = {}
    path = config.src_dir / "site.toml"
    if path.is_file():
        try:
            settings = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as error:
            raise BuildError(str(error), config.relative(path), getattr(error, "lineno", 1)) from None
    settings.update({key: value for key, value in overrides.items() if value is not None})
    if "languages" in settings:
        codes = settings.pop("languages")
        unknown = [code for code in codes if code not in _KNOWN]
        if unknown:
            raise BuildError(f"unknown language {unknown[0]!r}: use one of {', '.join(_KNOWN)}",
                             config.relative(path))
        if config.source_lang not in codes:
            codes = [config.source_lang, *codes]
        settings["languages"] = tuple(_KNOWN[code] for code in _KNOWN if code in codes)
    for name in ("src_dir", "locales_dir", "out_dir"):
        if name in settings:
            settings[name] = Path(settings[name])
    env_date = build_date_from_env()
    if env_date is not None:
        settings["build_date"] = env_date
    elif isinstance(settings.get("build_date"), str):
        settings["build_date"] = dt.date.fromisoformat(settings["build_date"])
    known = set(SiteConfig.__dataclass_fields__) - {"root"}
    unknown_keys = sorted(set(settings) - known)
    if unknown_keys:
        raise BuildError(f"unknown setting {unknown_keys[0]!r}", config.relative(path))
    return replace(config, **settings)
