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
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from klabsite.site.errors import BuildError, quote
from klabsite.site.sources import SourceTree

__all__ = ["Language", "LANGUAGES", "SiteConfig", "load_config", "build_date_from_env", "check_base_url",
           "PROTECTED_FOLDERS", "OPTION_NAMES"]


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

PROTECTED_FOLDERS = ("site_src", "locales", "klabsite", "tests", ".git")
"""The project's own folders, which no build output may be, contain or be inside."""

OPTION_NAMES = {"out_dir": "--out", "languages": "--lang", "base_url": "--base-url", "strict": "--strict"}
"""The command-line option behind each setting (named in the errors about it)."""

Origin = tuple[str, int | None]
"""Where a setting was given: (file, line), or (option, None)."""


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
    origins: Mapping[str, Origin] = field(default_factory=dict, compare=False, hash=False)
    """Where each setting that is not a default came from (for error messages)."""
    deal_files: tuple[Path, ...] | None = None
    """``klabsite replay``: the records to show instead of ``site_src/deals/`` (read as given)."""

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

    @property
    def docs_dir(self) -> Path:
        """``docs/`` beside ``site_src/``: the record format's reference, a page of the site too."""
        return self.src_dir.parent / "docs"

    @property
    def sources(self) -> SourceTree:
        """The folders the build reads (``site_src/``, ``locales/`` and ``docs/``)."""
        return SourceTree((self.src_dir, self.locales_dir, self.docs_dir), self.relative, self.root)

    @property
    def source_dirs(self) -> tuple[Path, ...]:
        """The folders a build output must stay out of: :data:`PROTECTED_FOLDERS` and the sources."""
        return (*(self.root / name for name in PROTECTED_FOLDERS), self.src_dir, self.locales_dir,
                self.docs_dir)

    def origin(self, name: str) -> Origin:
        """Where setting ``name`` came from: its file and line, or its option (also for a default)."""
        return self.origins.get(name, (OPTION_NAMES.get(name, name), None))


def build_date_from_env(environ: Mapping[str, str] | None = None) -> dt.date | None:
    """The build date from ``SOURCE_DATE_EPOCH`` (UTC), or None when it is not set.

    >>> build_date_from_env({"SOURCE_DATE_EPOCH": "1700000000"})
    datetime.date(2023, 11, 14)
    >>> build_date_from_env({"SOURCE_DATE_EPOCH": "1e20"})
    Traceback (most recent call last):
    ...
    klabsite.site.errors.BuildError: SOURCE_DATE_EPOCH: must be a whole number of seconds since ...
    """
    environ = os.environ if environ is None else environ
    value = environ.get("SOURCE_DATE_EPOCH", "").strip()
    if not value:
        return None
    if not re.fullmatch(r"-?[0-9]{1,18}", value):
        raise BuildError(f"must be a whole number of seconds since 1970-01-01 UTC, not {quote(value)}",
                         "SOURCE_DATE_EPOCH", None)
    try:
        return dt.datetime.fromtimestamp(int(value), tz=dt.UTC).date()
    except (OverflowError, OSError, ValueError):
        raise BuildError(f"{value} seconds is not a date between the years 1 and 9999",
                         "SOURCE_DATE_EPOCH", None) from None


def check_base_url(url: str) -> str | None:
    """Why ``url`` cannot be the site's public URL, or None.

    >>> check_base_url("https://example.org/klab/"), check_base_url("example.org")
    (None, 'write an absolute URL such as https://example.org/')
    >>> check_base_url("https://example.org:99999/"), check_base_url("https://example.org/a/../")
    ('the port 99999 is not a port number (1 to 65535)', "the URL's path cannot have . or .. parts")
    """
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc or any(c.isspace() or not c.isprintable()
                                                                         for c in url):
        return "write an absolute URL such as https://example.org/"
    if parts.query or parts.fragment or "?" in url or "#" in url:
        return "the site's URL cannot have a ?query or a #fragment"
    if "@" in parts.netloc:
        return "the site's URL cannot hold a user name or password (every page would show it)"
    wrong = _NOT_IN_URL.search(url)
    if wrong is not None:
        return f"the character {wrong.group()!r} cannot be in a URL: write it %-encoded (a % sign as %25)"
    port = parts.netloc.rpartition(":")[2] if ":" in parts.netloc.rpartition("]")[2] else ""
    if port and not (port.isdigit() and 0 < int(port) < 65536):
        return f"the port {port} is not a port number (1 to 65535)"
    if any(part in (".", "..") for part in parts.path.split("/")):
        return "the URL's path cannot have . or .. parts"
    return None


_NOT_IN_URL = re.compile(r'[^A-Za-z0-9\-._~:/\[\]@!$&\'()*+,;=%]|%(?![0-9A-Fa-f]{2})')
"""A character a URL may not hold as it is, or a % sign that starts no %-escape."""


_KEY = r"""(?:([A-Za-z0-9_-]+)|"((?:[^"\\]|\\.)*)"|'([^']*)')"""
"""A TOML key: bare, "quoted" or 'literal'."""
_TOP_KEY = re.compile(rf"\s*{_KEY}\s*[=.]")
_TABLE = re.compile(rf"\s*\[\[?\s*{_KEY}")


def _key_lines(text: str) -> dict[str, int]:
    """The line where each top-level name of a TOML file is first given (for messages): a
    ``key = …``, a dotted ``key.part = …``, or a table ``[key]`` (after which plain keys are the
    table's).

    >>> _key_lines('# c\\nstrict = true\\nfoo.bar = 1\\n"out dir" = 2\\n[site]\\nx = 1\\n[["a.b"]]\\n')
    {'strict': 2, 'foo': 3, 'out dir': 4, 'site': 5, 'a.b': 7}
    """
    lines: dict[str, int] = {}
    in_table = False
    for number, line in enumerate(text.split("\n"), 1):
        if match := _TABLE.match(line):
            in_table = True
        elif in_table or not (match := _TOP_KEY.match(line)):
            continue
        lines.setdefault(next(name for name in match.groups() if name is not None), number)
    return lines


def _languages(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list | tuple) or not all(isinstance(code, str) for code in value):
        raise ValueError(f'must be a list of language codes such as ["en", "fr"], not {quote(value)}')
    unknown = [code for code in value if code not in _KNOWN]
    if unknown:
        raise ValueError(f"unknown language {quote(unknown[0])}; known: {', '.join(_KNOWN)}")
    return tuple(value)


def _folder(example: str, elsewhere: str = "") -> Callable[[Any], Path]:
    """The reader of a folder setting whose usual value is ``example``; ``elsewhere`` is how to
    reach a folder outside the project instead, if there is a way."""
    def read(value: Any) -> Path:
        if isinstance(value, Path):
            return value
        wanted = f"must be a folder name such as \"{example}\""
        if not isinstance(value, str) or not value.strip():
            raise ValueError(f"{wanted}, not {quote(value)}")
        if Path(value) == Path():  # the project folder itself, which would read as "not given"
            raise ValueError(f"{wanted}, not the project folder ({quote(value)})")
        path = Path(value)
        if "\x00" in value or path.is_absolute() or ".." in path.parts:
            raise ValueError(f"{wanted}, inside the project, not {quote(value)}{elsewhere}")
        return path
    return read


def _date(value: Any) -> dt.date:
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str):
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            pass
    raise ValueError(f"must be a date such as 2026-12-01, not {quote(value)}")


def _url(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(f"must be a URL such as \"https://example.org/\", not {quote(value)}")
    problem = check_base_url(value)
    if problem:
        raise ValueError(problem)
    return value


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"must be true or false, not {quote(value)}")
    return value


def _source_lang(value: Any) -> str:
    if value != LANGUAGES[0].code:
        raise ValueError(f"the rules pages and templates are written in {LANGUAGES[0].name}: "
                         f"{LANGUAGES[0].code!r}, not {quote(value)}")
    return str(value)


_SETTINGS = {
    "src_dir": _folder("site_src"), "locales_dir": _folder("locales"),
    "out_dir": _folder("_site", " (a build elsewhere: klabsite build --out DIR)"),
    "languages": _languages, "source_lang": _source_lang, "base_url": _url, "strict": _flag,
    "build_date": _date,
}
"""Each setting's reader: the value as given (TOML or Python) → its value, or ValueError(why)."""


def load_config(root: Path, **overrides: Any) -> SiteConfig:
    """The defaults, overlaid by ``site_src/site.toml`` when present, then by ``overrides``.

    Overrides whose value is None are ignored (an option not given on the command line). The
    build date comes from ``SOURCE_DATE_EPOCH`` first, then from the file's ``build_date``. A
    wrong value is a :class:`BuildError` at its line of the file, or naming its option
    (``--lang: unknown language 'xx'; known: en, fr, es, hr, ar``).
    """
    config = SiteConfig(root=root)
    path = config.src_dir / "site.toml"
    display = config.relative(path)
    given: dict[str, tuple[Any, Origin]] = {}
    if path.is_file():
        text = config.sources.read_text(path).removeprefix("\ufeff")  # a byte order mark, as records allow
        try:
            settings = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            match = re.search(r"line (\d+)", str(error))
            line = int(match.group(1)) if match else text.rstrip("\n").count("\n") + 1  # at the end
            raise BuildError(f"{error}: write one setting a line as name = value, text in double quotes, "
                             "true or false in lower case", display, line) from None
        lines = _key_lines(text)
        given = {key: (value, (display, lines.get(key, 0))) for key, value in settings.items()}
    options = {key: (value, (OPTION_NAMES.get(key, key), None)) for key, value in overrides.items()
                  if value is not None}
    values: dict[str, Any] = {}
    for key, (value, where) in [*given.items(), *options.items()]:  # the file is checked, overridden or not
        if key not in _SETTINGS:
            table = "; settings are written name = value, not in a [table]" if isinstance(value, dict) else ""
            raise BuildError(f"unknown setting {quote(key)}; known: {', '.join(_SETTINGS)}{table}", *where)
        try:
            values[key] = _SETTINGS[key](value)
        except ValueError as error:
            prefix = f"{key}: " if where[1] is not None else ""
            raise BuildError(f"{prefix}{error}", *where) from None
    given.update(options)
    for key, holds in (("src_dir", "the rules pages and templates"), ("locales_dir", "the translations")):
        if key in values and not (config.root / values[key]).is_dir():
            folder = quote(values[key].as_posix())
            raise BuildError(f"{key}: the project has no folder {folder}; name the folder that holds {holds}",
                             *given[key][1])
    if "languages" in values:
        codes = values["languages"]
        source = values.get("source_lang", config.source_lang)
        if source not in codes:
            codes = (source, *codes)
        values["languages"] = tuple(_KNOWN[code] for code in _KNOWN if code in codes)
    env_date = build_date_from_env()
    if env_date is not None:
        values["build_date"] = env_date
        given["build_date"] = (env_date, ("SOURCE_DATE_EPOCH", None))
    return replace(config, **values, origins={key: where for key, (_value, where) in given.items()})
