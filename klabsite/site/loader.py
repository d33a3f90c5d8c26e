"""Load stage: read everything a build needs into memory (rules sources, catalogs, static files).

Nothing is written here; every problem is a :class:`BuildError` naming the file and line. Every
file is read through :class:`~klabsite.site.sources.SourceTree` (no link out of the sources).
"""

from __future__ import annotations

import gettext
import re
from dataclasses import dataclass, field
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.support import NullTranslations

from klabsite.records.klab import RecordError, read_record
from klabsite.records.replay import replay
from klabsite.site.catalogs import (
    DOMAINS,
    MessageKey,
    MissedMessages,
    catalog_path,
    catalog_stats,
    check_catalog,
    compile_catalog,
    finished_translations,
    is_translated,
    read_catalog,
    read_template,
    reference_labels,
)
from klabsite.site.config import SiteConfig
from klabsite.site.errors import BuildError, warn
from klabsite.site.replays import LoadedRecord, load_records
from klabsite.site.template_messages import absent_messages, template_messages
from klabsite.site.titles import TITLE_CONTEXT, missing_titles

__all__ = ["RulesSource", "LanguageData", "Site", "load_site", "RULES_NAME", "STATIC_TYPES"]

RULES_NAME = re.compile(r"^(\d+)-([a-z0-9][a-z0-9-]*)\.md$")
"""``NN-slug.md``: NN orders the pages, the slug names the output file."""

STATIC_TYPES = frozenset({".css", ".svg", ".png", ".jpg", ".jpeg", ".gif", ".webp", ".avif", ".ico",
                          ".woff", ".woff2"})
"""What ``site_src/static/`` may hold: stylesheets, images and fonts (no scripts, no pages)."""


@dataclass(frozen=True, slots=True)
class RulesSource:
    """One rules page's English Markdown."""

    path: str
    """As shown in messages (relative to the project)."""
    order: int
    slug: str
    text: str

    @property
    def filename(self) -> str:
        """``NN-slug.md``."""
        return self.path.rsplit("/", 1)[-1]


@dataclass(frozen=True)
class LanguageData:
    """One language's translations: the interface (for Jinja) and the prose (msgid → msgstr)."""

    code: str
    name: str
    dir: str
    messages: gettext.NullTranslations
    content: dict[str, str]
    catalogs: dict[str, tuple[str, Catalog]] = field(default_factory=dict)
    """domain → (display path, catalog); empty for the source language."""
    titles: dict[str, str] = field(default_factory=dict)
    """The shipped records' titles: title → translation (:mod:`klabsite.site.titles`)."""
    missed: MissedMessages = field(default_factory=MissedMessages)
    """The interface messages ``messages`` answered in English, as the pages asked for them."""


@dataclass(frozen=True)
class Site:
    """Everything loaded: the inputs of the render stage."""

    config: SiteConfig
    rules: tuple[RulesSource, ...]
    languages: tuple[LanguageData, ...]
    static: dict[str, bytes]
    templates_dir: Path
    warnings: tuple[str, ...] = ()
    records: tuple[LoadedRecord, ...] = ()
    """The deal records of ``site_src/deals/``, replayed."""
    template_messages: frozenset[MessageKey] = frozenset()
    """The interface messages the templates hold (each catalog's lack of them is already warned of)."""

    def lang(self, code: str) -> LanguageData:
        """The loaded language with this code."""
        return next(language for language in self.languages if language.code == code)


def defined_labels(config: SiteConfig, rules: tuple[RulesSource, ...] | None = None) -> frozenset[str]:
    """The reference-link labels the rules pages (``rules``, else read here) define: what a
    translation of their prose may not add or change (:func:`~klabsite.site.catalogs.check_message`)."""
    return reference_labels(source.text for source in (_read_rules(config) if rules is None else rules))


def _read_rules(config: SiteConfig) -> tuple[RulesSource, ...]:
    rules_dir = config.src_dir / "rules"
    if not rules_dir.is_dir():
        return ()
    sources = []
    slugs: dict[str, str] = {}
    for path in sorted(rules_dir.iterdir()):
        if path.suffix != ".md":
            continue
        display = config.relative(path)
        match = RULES_NAME.match(path.name)
        if not match:
            raise BuildError("a rules page must be named NN-slug.md (e.g. 01-cards.md)", display)
        slug = match.group(2)
        if slug in slugs:
            raise BuildError(f"two rules pages have the slug {slug!r} (also {slugs[slug]})", display)
        slugs[slug] = display
        text = config.sources.read_text(path)
        sources.append(RulesSource(display, int(match.group(1)), slug, text))
    record_format = config.docs_dir / "record-format.md"
    if record_format.is_file():  # the record format's reference: a page of the site after the rules
        text = config.sources.read_text(record_format)
        check_examples(text, config.relative(record_format))
        display = config.relative(record_format)
        sources.append(RulesSource(display, RECORD_FORMAT_ORDER, "record-format", text))
    return tuple(sorted(sources, key=lambda source: (source.order, source.slug)))


RECORD_FORMAT_ORDER = 99
"""Where the record format's page comes among the rules pages: last."""

_KLAB_BLOCK = re.compile(r"^```klab\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def check_examples(text: str, display: str) -> None:
    """Every ```klab example of a page must be a valid record: else a :class:`BuildError` at the
    example's line, as ``klabsite check`` words the problem."""
    for match in _KLAB_BLOCK.finditer(text):
        first = text.count("\n", 0, match.start(1)) + 1
        try:
            record = read_record(match.group(1))
            errors = replay(record).errors
        except RecordError as error:
            errors = [error]
        if errors:
            raise BuildError(f"the example record is wrong: {errors[0].message}", display,
                             first + (errors[0].line or 1) - 1)


def _read_static(config: SiteConfig) -> dict[str, bytes]:
    static_dir = config.src_dir / "static"
    if not static_dir.is_dir():
        raise BuildError("missing site_src/static/ (the stylesheet lives there)", config.relative(static_dir))
    tree = config.sources
    static = {}
    for path in tree.files(static_dir):
        if path.suffix.lower() not in STATIC_TYPES:
            kinds = " ".join(sorted(STATIC_TYPES))
            raise BuildError(f"static files are stylesheets, images and fonts ({kinds}), "
                             f"not {path.suffix or 'files without an extension'}", config.relative(path))
        static[path.relative_to(static_dir).as_posix()] = tree.read_bytes(path)
    return static


def _first_unfinished(catalog: Catalog) -> int:
    for message in catalog:
        if message.id and not is_translated(message):
            return message.lineno or 1
    return 1


def _load_language(config: SiteConfig, code: str, warnings: list[str],
                   labels: frozenset[str]) -> LanguageData:
    language = config.language(code)
    if code == config.source_lang:
        return LanguageData(code, language.name, language.dir, NullTranslations(), {})
    catalogs: dict[str, tuple[str, Catalog]] = {}
    for domain in DOMAINS:
        path = catalog_path(config.locales_dir, code, domain)
        display = config.relative(path)
        config.sources.check(path)
        catalog = read_catalog(path, code, display)
        check_catalog(catalog, display, formatted=domain == "messages", labels=labels)
        template_path = config.locales_dir / f"{domain}.pot"
        stats = catalog_stats(catalog, read_template(template_path, config.relative(template_path)))
        if stats.fuzzy or stats.untranslated:
            line = _first_unfinished(catalog)
            summary = (f"{stats.untranslated} untranslated, {stats.fuzzy} fuzzy of {stats.total} messages "
                       f"({stats.percent:.0f}% translated)")
            if stats.missing:
                summary += (f"; {stats.missing} of them not in the catalog at all "
                            "(run: klabsite i18n update)")
            warn(warnings, summary, display, line, strict=config.strict,
                 refusal="; --strict needs complete translations")
        catalogs[domain] = (display, catalog)
    messages = compile_catalog(catalogs["messages"][1], "messages")
    missed = MissedMessages()
    messages.add_fallback(missed)
    content = catalogs["content"][1]
    return LanguageData(code, language.name, language.dir, messages, finished_translations(content), catalogs,
                        finished_translations(content, TITLE_CONTEXT), missed)


def _check_titles(config: SiteConfig, languages: tuple[LanguageData, ...], records: tuple[LoadedRecord, ...],
                  warnings: list[str]) -> None:
    """A warning (with ``strict``, an error) for each catalog that lacks a shipped record's title;
    the records of ``klabsite replay`` are the user's own, in no catalog."""
    if config.deal_files is not None:
        return
    shown = [loaded.record.title for loaded in records]
    for language in languages:
        if "content" not in language.catalogs:
            continue
        display, catalog = language.catalogs["content"]
        missing = missing_titles(catalog, shown)
        if missing:
            first = missing[0][:40]
            which = f"{len(missing)} deal titles are" if len(missing) > 1 else f"deal title {first!r} is"
            message = f"{which} not in the catalog yet (run: klabsite i18n extract && klabsite i18n update)"
            warn(warnings, message, display, strict=config.strict)


def _check_template_messages(config: SiteConfig, templates_dir: Path, languages: tuple[LanguageData, ...],
                             warnings: list[str]) -> frozenset[MessageKey]:
    """A warning (with ``strict``, an error) at the first template line whose words a catalog lacks."""
    messages = template_messages(templates_dir.rglob("*.html"), config.sources.read_text, config.relative)
    for language in languages:
        if "messages" in language.catalogs:
            display, catalog = language.catalogs["messages"]
            if absent := absent_messages(messages, catalog, display):
                (template, line), message = absent
                warn(warnings, message, template, line, strict=config.strict)
    return frozenset(messages)


def load_site(config: SiteConfig) -> Site:
    """Read the rules sources, static files and every language's catalogs."""
    warnings: list[str] = []
    templates_dir = config.src_dir / "templates"
    if not templates_dir.is_dir():
        raise BuildError("missing templates directory", config.relative(templates_dir))
    rules, static = _read_rules(config), _read_static(config)
    labels = defined_labels(config, rules)
    languages = tuple(_load_language(config, code, warnings, labels) for code in config.codes)
    records = load_records(config)
    _check_titles(config, languages, records, warnings)
    messages = _check_template_messages(config, templates_dir, languages, warnings)
    return Site(config=config, rules=rules, languages=languages, static=static, templates_dir=templates_dir,
                warnings=tuple(warnings), records=records, template_messages=messages)
