"""Render stage: the list of pages, and every page (and asset) rendered to bytes in memory.

A page is ``(kind, lang, path, template, context)``; each kind of page comes from one function in
:data:`PAGE_KINDS` that yields the pages of that kind. Adding a kind of page (deal overview,
replay step, gallery) is adding a function there and a template.

Every internal link is relative and explicit (``../fr/index.html``), so the site works from
``file://`` and under any sub-path. Only ``404.html``, which hosts serve at any depth, links from
the site root (``/`` or the path of ``--base-url``).

Before anything is written, every page and asset passes the output guard
(:mod:`klabsite.site.guard`) and the link check; a problem is reported at the source that
produced it (:meth:`Renderer.blame`): the template line, the catalog entry whose translation
holds the text, or the Markdown line.
"""

from __future__ import annotations

import datetime
import functools
import hashlib
import re
import traceback
import xml.sax.saxutils as saxutils
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import urlsplit

import jinja2
import jinja2.meta
from babel.dates import format_date

from klabsite.engine.cards import Card, Suit
from klabsite.engine.seats import Seat, Side
from klabsite.site.assets import shipped
from klabsite.site.cache import Manifest, page_key
from klabsite.site.catalogs import MessageKey, short_msgid
from klabsite.site.checks import double_stop, repeats_pager, summary_problem
from klabsite.site.components import Components, install_filters, template_options
from klabsite.site.config import Language
from klabsite.site.deal_links import see_deal
from klabsite.site.directives import DIRECTIVES
from klabsite.site.errors import BuildError, warn
from klabsite.site.glossary import GLOSSARY_SLUG
from klabsite.site.guard import Problem, Scan, check_css, scan_svg
from klabsite.site.i18n import TEXT_DIRECTIONS, HtmlTranslations, Localizer
from klabsite.site.linkcheck import broken_links, link_problem
from klabsite.site.loader import LanguageData, RulesSource, Site
from klabsite.site.markdown_ext import Directive, DocumentContext, RenderedDocument, convert, plain_text
from klabsite.site.pages import Page
from klabsite.site.pagework import render_pages
from klabsite.site.pictures import worked_deal
from klabsite.site.replay_pages import deal_pages, gallery_pages, match_pages
from klabsite.site.replay_parts import install_replay_parts
from klabsite.site.replays import deal_views, match_views
from klabsite.site.sources import SourceTree, decode
from klabsite.site.template_messages import absent_messages
from klabsite.site.titles import by_title, titles

__all__ = ["Page", "PAGE_KINDS", "Renderer", "render_site"]

MissedKeys = dict[str, set[MessageKey]]
"""Language code → the interface messages its catalog did not translate (:class:`MissedMessages`)."""

HERO_CARDS = tuple(Card.parse(text) for text in ("JH", "9H", "AS", "TD"))
"""The jack and nine of trumps, then the ace and ten: the cards that decide most deals."""


class TemplateLoader(jinja2.BaseLoader):
    """Templates from one folder, read through the :class:`SourceTree` (no link out, UTF-8 at its line)."""

    def __init__(self, directory: Path, tree: SourceTree) -> None:
        self.directory = directory
        self.tree = tree

    def get_source(self, environment: jinja2.Environment, template: str
                   ) -> tuple[str, str, Callable[[], bool]]:
        path = self.directory.joinpath(*jinja2.loaders.split_template_path(template))
        if not path.is_file():
            raise jinja2.TemplateNotFound(template)
        source = self.tree.read_text(path)
        mtime = path.stat().st_mtime
        return source, str(path), lambda: path.stat().st_mtime == mtime


class _CompiledTemplates(jinja2.BytecodeCache):
    """Compiled templates kept in memory and shared by the languages' environments (configured alike),
    so each template is compiled once per build instead of once per language."""

    def __init__(self) -> None:
        self.compiled: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if bucket.key in self.compiled:
            bucket.bytecode_from_string(self.compiled[bucket.key])

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.compiled[bucket.key] = bucket.bytecode_to_string()


_TEMPLATE_ERRORS = (ArithmeticError, LookupError, TypeError, ValueError, AttributeError, RecursionError)
"""What evaluating a template expression can raise (``{{ 1/0 }}``, ``{{ x + "a" }}``, an include loop)."""


class Renderer:
    """Holds what rendering shares: the site, one Jinja environment and localizer per language,
    the converted rules documents and the hashed asset names."""

    def __init__(self, site: Site) -> None:
        self.site = site
        self.config = site.config
        self.deals = deal_views(site.records)
        self.matches = match_views(site.records)
        own_words = site.config.deal_files is None  # `klabsite replay` shows other records
        self.directives: dict[str, Directive] = {**DIRECTIVES,
                           "see-deal": functools.partial(see_deal, deals=self.deals, own_words=own_words),
                           "worked-deal": functools.partial(worked_deal, deals=self.deals)}
        self.loader = TemplateLoader(site.templates_dir, site.config.sources)
        self.compiled = _CompiledTemplates()
        self.environments: dict[str, jinja2.Environment] = {}
        self.localizers: dict[str, Localizer] = {}
        for language in site.languages:
            self._language(language)
        self.shipped = {name: shipped(name, data) for name, data in site.static.items()}
        self.assets = {name: _hashed_name(name, data) for name, data in self.shipped.items()}
        self.stale: dict[str, set[str]] = {}
        self._documents: dict[tuple[str, str], RenderedDocument] = {}
        self.glossary = next((source for source in site.rules if source.slug == GLOSSARY_SLUG), None)
        self.page_links = {}
        for source in site.rules:
            self.page_links[source.filename] = f"{source.slug}.html"
            self.page_links[f"{source.slug}.md"] = f"{source.slug}.html"

    # Languages -------------------------------------------------------------------------------

    @property
    def languages(self) -> tuple[Language, ...]:
        """The site's languages, in order."""
        return self.config.languages

    def _language(self, language: LanguageData) -> None:
        """One language's Jinja environment, with its translations installed (new style), and its
        localizer, whose cards (and the directives' tables) that environment's macros draw."""
        # A build reads each template once: no checking on every page whether its file changed.
        env = jinja2.Environment(loader=self.loader, bytecode_cache=self.compiled, auto_reload=False,
                                 **template_options())
        env.policies["ext.i18n.trimmed"] = True
        translations = HtmlTranslations(language.messages)
        env.install_gettext_translations(translations, newstyle=True)  # type: ignore[attr-defined]
        env.globals.update(translations.template_globals())
        localizer = Localizer(language.code, language.messages, language.dir,
                              Components(env, self._template_path))
        install_filters(env)
        env.filters["number"] = functools.lru_cache(maxsize=4096)(localizer.number)
        env.filters["seat"] = Seat
        env.filters["side"] = Side
        env.filters["suit"] = Suit
        env.filters["record_title"] = titles(language.titles)
        env.filters["by_title"] = by_title(env.filters["record_title"], language.code)
        env.globals["loc"] = localizer
        install_replay_parts(env)
        self.environments[language.code] = env
        self.localizers[language.code] = localizer

    def missed_messages(self) -> MissedKeys:
        """Per language, the interface messages its catalog did not translate, as the pages
        rendered in this process asked for them (the build's workers send theirs back)."""
        return {language.code: set(language.missed.keys) for language in self.site.languages
                if language.missed.keys}

    def note_missed(self, missed: MissedKeys) -> None:
        """Add the messages a worker found untranslated (:meth:`missed_messages`)."""
        for language in self.site.languages:
            language.missed.keys.update(missed.get(language.code, ()))

    def environment(self, lang: str) -> jinja2.Environment:
        """The Jinja environment of one language."""
        return self.environments[lang]

    # Rules documents -------------------------------------------------------------------------

    def document(self, source: RulesSource, lang: str) -> RenderedDocument:
        """A rules page converted for one language (cached)."""
        key = (source.slug, lang)
        if key not in self._documents:
            language = self.site.lang(lang)
            localizer = self.localizers[lang]
            known = self._content_ids(language)

            def translate(msgid: str) -> str | None:
                if known is not None and msgid not in known:
                    self.stale.setdefault(lang, set()).add(msgid)
                return language.content.get(msgid)

            glossary = self.glossary
            is_glossary = glossary is not None and source.slug == glossary.slug
            terms = self.document(glossary, lang).terms if glossary is not None and not is_glossary else ()
            context = DocumentContext(
                path=source.path, source_lang=self.config.source_lang, lang=lang, dir=language.dir,
                translate=translate, localizer=localizer, directives=self.directives,
                components=localizer.components,
                page_links=self.page_links, table_label=localizer.gettext("Table (scrolls sideways)"),
                # TRANSLATORS: the accessible name of the "§" link after each heading of a rules page.
                anchor_label=localizer.gettext("Link to this section"),
                glossary=is_glossary, terms=terms,
                glossary_href=f"{glossary.slug}.html" if glossary is not None else "")
            self._documents[key] = convert(source.text, context)
        return self._documents[key]

    def _content_ids(self, language: LanguageData) -> set[str] | None:
        if "content" not in language.catalogs:
            return None
        catalog = language.catalogs["content"][1]
        return {message.id for message in catalog if isinstance(message.id, str)}

    # Rendering -------------------------------------------------------------------------------

    def pages(self) -> list[Page]:
        """Every page of the site, in a stable order."""
        pages: list[Page] = []
        for kind in PAGE_KINDS:
            pages.extend(kind(self))
        paths = [page.path for page in pages]
        if len(set(paths)) != len(paths):
            duplicate = next(path for path in paths if paths.count(path) > 1)
            raise BuildError(f"two pages would be written to {duplicate}")
        return pages

    def render(self, page: Page, alternates: dict[str, Page]) -> str:
        """One page's HTML."""
        lang = page.lang or self.config.source_lang
        env = self.environment(lang)
        language = self.config.language(lang)
        root = self.site_path if page.kind == "notfound" else page.root
        context = {
            "page": page,
            "lang": lang,
            "dir": language.dir,
            "language": language,
            "root": root,
            "css": root + self.assets["style.css"],
            "favicon": root + self.assets["favicon.svg"],
            "switcher": self._switcher(page, alternates, root),
            "hreflang": self._hreflang(page, alternates, root),
            "canonical": self._absolute(page.path) if self.config.base_url else None,
            "build_date": _long_date(self.config.build_date, lang) if self.config.build_date else None,
            "build_date_iso": self.config.build_date.isoformat() if self.config.build_date else None,
            "languages": self.languages,
            "home_href": root + (f"{page.lang}/index.html" if page.lang else "index.html"),
            "hero_cards": HERO_CARDS,
            "permalink": self._absolute(page.path) if self.config.base_url else page.path,
            "og_image": self._og_image(page),
            "has_deals": bool(self.deals or self.matches),
            **page.context,
        }
        try:
            return env.get_template(page.template).render(context)
        except jinja2.TemplateSyntaxError as error:
            message = _unknown_name_help(error.message or str(error), env)
            raise BuildError(message, self._template_path(error.filename), error.lineno) from None
        except BuildError:
            raise
        except jinja2.TemplateError as error:
            path, line = self._template_frame(error)
            message = _unknown_name_help(f"{type(error).__name__}: {error}", env)
            raise BuildError(f"{message} (rendering {page.path})", path, line) from None
        except _TEMPLATE_ERRORS as error:
            if isinstance(error, RecursionError):
                raise self._loop_error(error) from None
            path, line = self._template_frame(error)
            raise BuildError(f"{type(error).__name__}: {error} (rendering {page.path})", path, line) from None

    def _og_image(self, page: Page) -> str | None:
        """The shared preview picture of a deal's pages (one per game), with ``--base-url`` only:
        a preview needs an absolute address."""
        game = getattr(page.context.get("deal"), "game", None)
        name = f"og-{game}.png"
        if not self.config.base_url or name not in self.assets:
            return None
        return self._absolute(self.assets[name])

    @property
    def site_path(self) -> str:
        """The path of the site root on its host: ``/``, or the path of ``--base-url``."""
        return urlsplit(self.config.base_url).path if self.config.base_url else "/"

    def _absolute(self, path: str) -> str:
        assert self.config.base_url
        return self.config.base_url + ("" if path == "index.html" else path)

    def _switcher(self, page: Page, alternates: dict[str, Page], root: str) -> list[SwitcherEntry]:
        return [SwitcherEntry(language.code, language.name, language.dir,
                              root + alternates[language.code].path, language.code == page.lang)
                for language in self.languages if language.code in alternates]

    def _hreflang(self, page: Page, alternates: dict[str, Page], root: str) -> list[tuple[str, str]]:
        links = [(code, self._link(other.path, root)) for code, other in alternates.items()]
        if links:
            links.append(("x-default", self._link("index.html", root)))
        return links

    def _link(self, path: str, root: str) -> str:
        return self._absolute(path) if self.config.base_url else root + path

    def _template_path(self, filename: str | None) -> str:
        return self.config.relative(self.site.templates_dir / filename) if filename else "site_src/templates"

    def _template_frames(self, error: BaseException) -> list[tuple[Path, int]]:
        """The template files and lines of ``error``'s traceback, outermost first."""
        templates = str(self.site.templates_dir)
        frames = traceback.extract_tb(error.__traceback__)
        return [(Path(frame.filename), frame.lineno or 1)
                for frame in frames if frame.filename.startswith(templates)]

    def _template_frame(self, error: BaseException) -> tuple[str, int]:
        """The template (as messages show it) and line ``error`` was raised at: the innermost."""
        frames = self._template_frames(error)
        if not frames:
            return self.config.relative(self.site.templates_dir), 1
        path, line = frames[-1]
        return self.config.relative(path), line

    def _loop_error(self, error: RecursionError) -> BuildError:
        """Templates that include or extend each other without end: the error is at the include
        that closes the loop (not wherever the recursion happened to overflow), and names the loop,
        whose lines are those the traceback passes through most often."""
        frames = self._template_frames(error)
        if not frames:
            return BuildError("templates include or extend each other in a loop",
                              self.config.relative(self.site.templates_dir), 1)
        counts = Counter(frames)
        most = max(counts.values())
        loop = list(dict.fromkeys(frame for frame in frames if counts[frame] >= most - 1))

        def source(frame: tuple[Path, int]) -> str:
            lines = frame[0].read_text(encoding="utf-8", errors="replace").splitlines()
            return lines[frame[1] - 1] if frame[1] <= len(lines) else ""
        at = next((frame for frame in loop if "include" in source(frame)), loop[0])
        first = loop.index(at)
        chain = " → ".join(f"{path.name}:{line}" for path, line in [*loop[first:], *loop[:first], at])
        return BuildError(f"templates include or extend each other in a loop ({chain}): break the loop",
                          self.config.relative(at[0]), at[1])

    # Where a problem in an output comes from ---------------------------------------------------

    def templates_of(self, name: str) -> dict[str, str]:
        """``name`` and every template it extends, includes or imports (statically named), in that
        order: template path (as shown in messages) → its source."""
        env = self.environment(self.config.source_lang)
        order, sources = [name], {}
        for current in order:
            try:
                source = self.loader.get_source(env, current)[0]
                references = jinja2.meta.find_referenced_templates(env.parse(source))
            except (jinja2.TemplateError, BuildError):
                continue
            sources[self._template_path(current)] = source
            order += [ref for ref in references if ref and ref not in order]
        return sources

    def blame(self, page: Page, problem: Problem) -> BuildError:
        """The error for ``problem`` found in ``page``, at the source that wrote the offending text.

        Each of the problem's needles is looked for in the page's templates, then in the
        translations of its language, then in its Markdown source; without a match the error
        names the page's source (or template) and the place in the output.
        """
        templates = self.templates_of(page.template)
        for needle in (needle.lower() for needle in problem.needles):
            for display, text in templates.items():
                if needle in text.lower():
                    return BuildError(problem.message, display, _line_of(text.lower(), needle))
            if page.lang and page.lang != self.config.source_lang:
                for display, catalog in self.site.lang(page.lang).catalogs.values():
                    for message in catalog:
                        strings = message.string if isinstance(message.string, tuple | list) \
                            else (message.string,)
                        if message.id and any(needle in (text or "").lower() for text in strings):
                            return BuildError(f"{problem.message} (translation of {short_msgid(message.id)})",
                                              display, message.lineno or 0)
            source = next((rules for rules in self.site.rules if rules.path == page.source), None)
            if source and needle in source.text.lower():
                return BuildError(problem.message, source.path, _line_of(source.text.lower(), needle))
        where = page.source or self._template_path(page.template)
        return BuildError(f"{problem.message} (in the output {page.path}, line {problem.line})", where)

    def check_static(self) -> None:
        """The guard over the stylesheets and images: raise at the first problem's file and line."""
        for name, data in self.site.static.items():
            display = self.config.relative(self.config.src_dir / "static" / name)
            check = {"css": check_css, "svg": scan_svg}.get(name.rsplit(".", 1)[-1].lower())
            if check is not None:
                problems = check(decode(data, display))
                if problems:
                    raise BuildError(problems[0].message, display, problems[0].line)


def _line_of(text: str, needle: str) -> int:
    return text.count("\n", 0, text.index(needle)) + 1


@functools.lru_cache(maxsize=64)
def _long_date(day: datetime.date, lang: str) -> str:
    """A date as the language writes it in full (the build date, every page says it; the day a
    rules page last changed). French writes the first of a month as an ordinal, which CLDR's
    pattern does not:

    >>> _long_date(datetime.date(2026, 12, 1), "fr"), _long_date(datetime.date(2026, 12, 11), "fr")
    ('1er décembre 2026', '11 décembre 2026')
    """
    text = format_date(day, "long", locale=lang)
    return re.sub(r"^1(?=\s)", "1er", text) if lang == "fr" and day.day == 1 else text


class SwitcherEntry(NamedTuple):
    """One language of the language switcher: this page in that language."""

    code: str
    name: str
    dir: str
    href: str
    current: bool


def _hashed_name(name: str, data: bytes) -> str:
    """``assets/style.3fa9c2e1.css``: the content hash in the name, so caches never serve a stale file.

    >>> _hashed_name("style.css", b"body{}")
    'assets/style.7c98040a.css'
    """
    stem, dot, ext = name.rpartition(".")
    digest = hashlib.sha256(data).hexdigest()[:8]
    return f"assets/{stem}.{digest}.{ext}" if dot else f"assets/{name}.{digest}"


# Page kinds ----------------------------------------------------------------------------------


GAMES = ("klaberjass", "klaverjas")
"""The games, as the first word of their rules pages' slugs (``klaverjas-play``)."""


def page_game(slug: str) -> str | None:
    """The game a rules page is about, from its slug (``klaberjass-scoring``), or None for a page
    about both (``cards``, ``glossary``).

    >>> page_game("klaverjas-play"), page_game("klaverjas"), page_game("cards")
    ('klaverjas', 'klaverjas', None)
    """
    return next((game for game in GAMES if slug == game or slug.startswith(game + "-")), None)


def rules_pages(renderer: Renderer) -> Iterator[Page]:
    """``<lang>/<slug>.html`` for every rules page, with its table of contents and neighbours, its
    place among the pages (the breadcrumb's "page 3 of 9") and the list of every page."""
    rules = renderer.site.rules
    for language in renderer.languages:
        listing = [{"href": f"{other.slug}.html", "title": renderer.document(other, language.code).title
                    or other.slug, "game": page_game(other.slug)} for other in rules]
        for index, source in enumerate(rules):
            document = renderer.document(source, language.code)
            neighbours = {}
            for name, other in (("previous", rules[index - 1] if index else None),
                                ("next", rules[index + 1] if index + 1 < len(rules) else None)):
                if other is not None:
                    neighbours[name] = {"href": f"{other.slug}.html",
                                        "title": renderer.document(other, language.code).title}
            game = page_game(source.slug)
            game_start = next((entry["href"] for entry in listing if entry["game"] == game), None)
            yield Page("rules", language.code, f"{language.code}/{source.slug}.html", "rules.html", {
                "title": document.title or source.slug,
                "document": document,
                "body": document.html,
                "toc": _toc(document.headings),
                "description": _describe(document),
                "progress": (document.translated, document.total),
                "updated": _long_date(document.updated, language.code) if document.updated else None,
                "updated_iso": document.updated.isoformat() if document.updated else None,
                "position": (index + 1, len(rules)),
                "game": game,
                "game_start": game_start,
                "pages": [{**entry, "current": number == index} for number, entry in enumerate(listing)],
                **neighbours,
            }, source=source.path)


def home_pages(renderer: Renderer) -> Iterator[Page]:
    """``<lang>/index.html``: the welcome page of each language, listing the rules pages."""
    for language in renderer.languages:
        entries = []
        for source in renderer.site.rules:
            document = renderer.document(source, language.code)
            summary_lang = document.summary_lang if document.summary else language.code
            entries.append({"href": f"{source.slug}.html", "title": document.title or source.slug,
                            "lead": _describe(document),
                            "lead_lang": summary_lang if summary_lang != language.code else None,
                            "lead_dir": TEXT_DIRECTIONS.get(summary_lang, "ltr"),
                            "sections": len(document.headings)})
        yield Page("home", language.code, f"{language.code}/index.html", "home.html", {"entries": entries})


def chooser_page(renderer: Renderer) -> Iterator[Page]:
    """The root ``index.html``: choose a language (no redirect, no script)."""
    choices = []
    for language in renderer.languages:
        loc = renderer.localizers[language.code]
        choices.append({"code": language.code, "name": language.name, "dir": language.dir,
                        "href": f"{language.code}/index.html",
                        "tagline": loc.gettext("The rules of Klaberjass and Klaverjas"),
                        "choose": loc.gettext("Choose your language.")})
    yield Page("chooser", None, "index.html", "chooser.html", {"choices": choices})


def not_found_page(renderer: Renderer) -> Iterator[Page]:
    """``404.html``: "page not found" in every language, links from the site root."""
    notes = []
    for language in renderer.languages:
        loc = renderer.localizers[language.code]
        notes.append({"code": language.code, "name": language.name, "dir": language.dir,
                      "href": f"{language.code}/index.html",
                      "title": loc.gettext("Page not found"),
                      "text": loc.gettext("This page does not exist. The rules start here:")})
    yield Page("notfound", None, "404.html", "404.html", {"notes": notes})


PAGE_KINDS: tuple[Callable[[Renderer], Iterable[Page]], ...] = (
    chooser_page,
    home_pages,
    rules_pages,
    gallery_pages,
    deal_pages,
    match_pages,
    not_found_page,
)
"""Every kind of page, in output order. Add a function here to add a kind of page."""


def _toc(headings: list[tuple[int, str, str]]) -> list[dict[str, Any]]:
    """Headings as a two-level tree: ``h2`` entries with their ``h3`` children."""
    toc: list[dict[str, Any]] = []
    for level, ident, text in headings:
        entry = {"id": ident, "text": text, "children": []}
        if level == 3 and toc:
            toc[-1]["children"].append(entry)
        else:
            toc.append(entry)
    return toc


def _describe(document: RenderedDocument) -> str:
    """A page's description (home page, ``<meta name=description>``): its summary, else its lead
    paragraph, whole: a translator's text is never cut (its length is checked instead,
    :func:`text_findings`)."""
    return document.summary or document.lead


# The whole site -------------------------------------------------------------------------------


def _sitemap(renderer: Renderer, pages: list[Page], groups: dict[str, dict[str, Page]]) -> str:
    config = renderer.config
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
             'xmlns:xhtml="http://www.w3.org/1999/xhtml">']
    for page in pages:
        if page.kind == "notfound":
            continue
        lines.append(f"  <url><loc>{saxutils.escape(renderer._absolute(page.path))}</loc>")
        if config.build_date:
            lines.append(f"    <lastmod>{config.build_date.isoformat()}</lastmod>")
        alternates = groups.get(page.key, {}) if page.lang else {}
        for code, other in alternates.items():
            href = saxutils.quoteattr(renderer._absolute(other.path))
            lines.append(f'    <xhtml:link rel="alternate" hreflang="{code}" href={href}/>')
        if alternates:
            href = saxutils.quoteattr(renderer._absolute("index.html"))
            lines.append(f'    <xhtml:link rel="alternate" hreflang="x-default" href={href}/>')
        lines.append("  </url>")
    lines.append("</urlset>")
    return "\n".join(lines) + "\n"


def record_path(match_id: str) -> str:
    """Where a shipped record is published, to download: ``records/<match id>.klab``, as its file
    reads (the id is the record's own hash: no name from the input)."""
    return f"records/{match_id}.klab"


def render_site(site: Site, progress: Callable[[int, int], None] | None = None, *,
                previous: Manifest | None = None, common: str = ""
                ) -> tuple[dict[str, bytes], list[str], dict[str, str], int]:
    """Render every page and asset; returns (output path → bytes, warnings, the keys of the replay
    pages, how many were reused).

    With the ``previous`` build's manifest and ``common`` (the digest of the inputs but the
    records, :mod:`klabsite.site.cache`), a deal's page whose key is unchanged is taken from the
    previous output instead of being drawn again.
    """
    renderer = Renderer(site)
    pages = renderer.pages()
    groups: dict[str, dict[str, Page]] = {}
    for page in pages:
        if page.lang:
            groups.setdefault(page.key, {})[page.lang] = page
    by_path = {page.path: page for page in pages}
    records = {record_path(loaded.record.match_id()): loaded.text.encode("utf-8") for loaded in site.records}
    extras = [renderer.assets[name] for name in site.static] + [".nojekyll", *records]
    if site.config.base_url:
        extras.append("sitemap.xml")
    keys = {page.path: page_key(common, page.context["deal"].record_text, page.context["deal"].number)
            for page in pages if page.kind in ("deal", "step")} if common else {}
    kept = _reusable(site.config.out_dir, previous, keys)
    fresh = [page for page in pages if page.path not in kept]
    rendered = render_pages(renderer, fresh, lambda page: groups.get(page.key, {}) if page.lang else {},
                            [*by_path, *extras], progress=progress)
    outputs: dict[str, bytes] = dict(kept)
    scans: dict[str, Scan] = {path: Scan() for path in kept}
    for result in rendered:
        if result.scan.problems:
            raise renderer.blame(by_path[result.path], result.scan.problems[0])
        outputs[result.path] = result.data
        scans[result.path] = result.scan
    for name, data in renderer.shipped.items():
        outputs[renderer.assets[name]] = data
    outputs[".nojekyll"] = b""
    outputs.update(records)
    if site.config.base_url:
        outputs["sitemap.xml"] = _sitemap(renderer, pages, groups).encode("utf-8")
    renderer.check_static()
    _check_links(renderer, outputs, scans, by_path)
    outputs = {page.path: outputs[page.path] for page in pages} | {
        path: data for path, data in outputs.items() if path not in by_path}  # in page order
    return outputs, _warnings(site, renderer), keys, len(kept)


def _warnings(site: Site, renderer: Renderer) -> list[str]:
    """What the build warns about (each an error with ``--strict``): the loader's warnings, what
    the checks find in the rules pages' words, interface messages the code asked for that a catalog
    lacks, and rules paragraphs missing from a catalog."""
    warnings = list(site.warnings)
    strict = site.config.strict
    for message, path, line in text_findings(renderer):
        warn(warnings, message, path, line, strict=strict)
    for language in site.languages:  # what the code asked for; the templates' words are checked already
        if "messages" in language.catalogs:
            display, catalog = language.catalogs["messages"]
            asked = {key: (display, 1) for key in language.missed.keys if key not in site.template_messages}
            if absent := absent_messages(asked, catalog, display):
                warn(warnings, absent[1], display, strict=strict)
    for lang, missing in sorted(renderer.stale.items()):
        display = site.lang(lang).catalogs["content"][0]
        message = (f"{len(missing)} rules paragraphs are not in the catalog yet "
                   "(run: klabsite i18n extract && klabsite i18n update)")
        warn(warnings, message, display, strict=strict)
    return warnings


def text_findings(renderer: Renderer) -> list[tuple[str, str, int]]:
    """(message, file, line) of what :mod:`klabsite.site.checks` finds in the rules pages' words,
    in every language: at the ``.po`` line of a translation, else at the Markdown line."""
    findings: list[tuple[str, str, int]] = []
    rules = renderer.site.rules
    for language in renderer.site.languages:
        catalog = language.catalogs.get("content")

        def where(source: RulesSource, line: int, msgid: str, translated: bool,
                  catalog: Any = catalog) -> tuple[str, int]:
            if translated and catalog is not None:
                message = catalog[1].get(msgid)
                if message is not None:
                    return catalog[0], message.lineno or 1
            return source.path, line

        for index, source in enumerate(rules):
            document = renderer.document(source, language.code)
            for line, msgid, text, translated in document.texts:
                stop = double_stop(text)
                if stop:
                    findings.append((f"a quoted phrase that ends with a stop takes no second one: {stop!r}",
                                     *where(source, line, msgid, translated)))
                if line == document.summary_line and msgid == document.summary_msgid:
                    problem = summary_problem(plain_text(text))
                    if problem:
                        findings.append((problem, *where(source, line, msgid, translated)))
                if language.code == renderer.config.source_lang and index + 1 < len(rules) \
                        and repeats_pager(msgid, (rules[index + 1].filename, f"{rules[index + 1].slug}.md")):
                    findings.append(("this paragraph repeats the pager's link to the next page under it: "
                                     "leave it out", source.path, line))
    return findings


def _reusable(out_dir: Path, previous: Manifest | None, keys: dict[str, str]) -> dict[str, bytes]:
    """The pages of the previous output whose key is unchanged, with their bytes: only those still
    as that build wrote them."""
    if previous is None:
        return {}
    kept = {}
    for path, key in keys.items():
        if previous.pages.get(path) == key and (data := previous.read(out_dir, path)) is not None:
            kept[path] = data
    return kept


def _check_links(renderer: Renderer, outputs: dict[str, bytes], scans: dict[str, Scan],
                 by_path: dict[str, Page]) -> None:
    """Every link of every page reaches its target; a broken one is reported at its source (a rules
    page's at its Markdown line)."""
    _check_rules_links(renderer, outputs, scans)
    for path, line, url, problem in broken_links(outputs, scans, renderer.site_path):
        raise renderer.blame(by_path[path], Problem(line, problem, (url,)))


def _check_rules_links(renderer: Renderer, outputs: dict[str, bytes], scans: dict[str, Scan]) -> None:
    """Every link of the rules prose must reach a page or file, and ``other.md#anchor`` a heading.

    Checked here, at the Markdown line, before the whole-site link check would report it in the
    generated page.
    """
    ids = {f"{source.slug}.html": renderer.document(source, renderer.config.source_lang).ids
           for source in renderer.site.rules}
    for source in renderer.site.rules:
        for lang in renderer.config.codes:
            for line, href in renderer.document(source, lang).links:
                target, _, fragment = href.partition("#")
                target = target or f"{source.slug}.html"
                if target in ids:
                    if fragment and fragment not in ids[target]:
                        raise BuildError(f"link to {href!r}: {target} has no heading with the id "
                                         f"{fragment!r}", source.path, line)
                    continue
                problem = link_problem(f"{lang}/{source.slug}.html", href, outputs, scans, renderer.site_path)
                if problem:
                    raise BuildError(problem, source.path, line)


def _unknown_name_help(message: str, env: jinja2.Environment) -> str:
    """``message``, and when it is Jinja's "No filter named …" (or test), the names klabsite adds."""
    match = re.search(r"No (filter|test) named '[^']*'( found)?\.?", message)
    if match is None:
        return message
    kind = match.group(1)
    names = env.filters if kind == "filter" else env.tests
    builtin = jinja2.filters.FILTERS if kind == "filter" else jinja2.tests.TESTS
    own = ", ".join(sorted(set(names) - set(builtin))) or "none"
    return f"{match.group(0).rstrip('.')}: use one of Jinja's or klabsite's own ({own})"
