"""``klabsite i18n extract|update|compile|status``: the gettext workflow, through Babel's own commands.

Each step runs ``pybabel`` (``babel.messages.frontend.CommandLineInterface``) with the project's
mapping files, so ``klabsite i18n X`` and the equivalent ``pybabel`` command line do the same:

* ``babel.cfg`` → ``locales/messages.pot`` (templates and ``klabsite/site/*.py``: the interface)
* ``babel-content.cfg`` → ``locales/content.pot`` (``site_src/rules/*.md``, one message per block,
  and the titles of ``site_src/deals/*.klab``)

On top of pybabel: ``update`` rewrites the ``Plural-Forms`` headers to the CLDR order
(:data:`klabsite.site.catalogs.PLURAL_FORMS`), ``compile`` first refuses unsafe translations, and
``status`` counts plural entries correctly. Outside a project (no ``locales/``, no mapping
files) each action says so in one line and returns 1, changing nothing.
"""

from __future__ import annotations

import contextlib
import logging
import re
import sys
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TextIO

from babel.messages.frontend import BaseError, CommandLineInterface
from babel.messages.pofile import read_po, write_po

from klabsite.files import locked, remove_stale_temporaries, scratch_beside, write_atomically
from klabsite.site.catalogs import (
    DOMAINS,
    catalog_path,
    catalog_stats,
    check_catalog,
    fix_plural_header,
    read_catalog,
    read_template,
)
from klabsite.site.config import SiteConfig
from klabsite.site.errors import BuildError
from klabsite.site.loader import defined_labels
from klabsite.site.project import bundled_root

__all__ = ["MAPPING_FILES", "pybabel", "extract", "update", "compile_catalogs", "status"]

MAPPING_FILES = {"messages": "babel.cfg", "content": "babel-content.cfg"}
"""The Babel mapping file of each domain."""


def pybabel(*args: str, names: Mapping[str, str] | None = None) -> int:
    """Run one ``pybabel`` command in-process; returns its exit code. ``names``: how its messages
    should name files (a scratch file by the file it stands for)."""

    def shown(text: str) -> str:
        for scratch, name in (names or {}).items():
            text = text.replace(scratch, name)
        return text

    try:
        result = CommandLineInterface().run(["pybabel", "-q", *args])
    except BaseError as error:
        print(shown(f"pybabel {args[0]}: {error}"), file=sys.stderr)
        return 1
    except Exception as error:  # e.g. a template that does not parse (silent = false)
        line = getattr(error, "lineno", None)
        where = f" (line {line})" if line else ""
        print(shown(f"pybabel {args[0]}: {type(error).__name__}: {error}{where}"), file=sys.stderr)
        return 1
    finally:
        logging.getLogger("babel").handlers.clear()
    return int(bool(result))


def _not_a_project(config: SiteConfig, *, sources: bool = False) -> bool:
    """True (after one line on stderr) when ``config.root`` has no catalogs (with ``sources``: no
    ``site_src/`` to extract from)."""
    advice = "run klabsite i18n in the project folder (the one holding site_src/ and locales/)"
    if sources and not config.src_dir.is_dir():
        print(f"{config.relative(config.src_dir)}/: no sources here; {advice}", file=sys.stderr)
        return True
    if not sources and not config.locales_dir.is_dir():
        print(f"{config.relative(config.locales_dir)}/: no catalogs here; {advice}", file=sys.stderr)
        return True
    return False


@contextlib.contextmanager
def _changing(config: SiteConfig) -> Iterator[None]:
    """Hold the lock of the catalogs' folder while ``extract`` or ``update`` change files in it,
    after removing what a killed run left there: klabsite's scratch files beside the templates
    (``.messages.pot.XXXXXXXX.tmp``) and Babel's beside the catalogs (``tmpmessages.po``, which
    its next update would overwrite anyway)."""
    with locked(config.locales_dir):
        for domain in DOMAINS:
            remove_stale_temporaries(config.locales_dir / f"{domain}.pot")
            for lang in config.targets:
                path = catalog_path(config.locales_dir, lang, domain)
                scratch = path.with_name(tempfile.gettempprefix() + path.name)
                if scratch.is_file() and not scratch.is_symlink():
                    scratch.unlink()
        yield


_CREATION = re.compile(r'^"POT-Creation-Date: [^"]*"$', re.MULTILINE)


PROJECT_MAPPINGS = {
    "messages": "[jinja2: site_src/templates/**.html]\nextensions = jinja2.ext.i18n\ntrimmed = true\n"
                "trim_blocks = true\nlstrip_blocks = true\nsilent = false\n",
    "content": "[extractors]\nklab_markdown = klabsite.site.blocks:extract_markdown\n"
               "klab_titles = klabsite.site.titles:extract_titles\n\n"
               "[klab_markdown: site_src/rules/**.md]\n\n[klab_markdown: docs/**.md]\n\n"
               "[klab_titles: site_src/deals/**.klab]\n",
}
"""The mappings of a project made by ``klabsite init``, which has no mapping files of its own:
its templates and rules pages. Its interface strings from klabsite's own code come from the
default site's ``messages.pot``."""


def _extract_to(config: SiteConfig, domain: str, pot: Path, shown: str | None = None) -> int:
    """``pybabel extract`` of ``domain`` into ``pot`` (a scratch file; ``shown``: the template it
    stands for, as messages name it)."""
    mapping = config.root / MAPPING_FILES[domain]
    with contextlib.ExitStack() as stack:
        if not mapping.is_file():
            mapping = stack.enter_context(scratch_beside(pot))
            mapping.write_text(PROJECT_MAPPINGS[domain], encoding="utf-8")
        stack.enter_context(contextlib.chdir(config.root))  # locations like site_src/rules/01-cards.md:3
        code = pybabel("extract", "-F", str(mapping), "-o", str(pot),
                       "--sort-by-file", "-c", "TRANSLATORS:", "--project", "klabsite",
                       "--copyright-holder", "klabsite contributors", ".",
                       names={str(pot): shown} if shown else None)
    if code == 0 and domain == "messages" and not (config.root / "klabsite").is_dir():
        _add_package_messages(pot)
    return code


def _add_package_messages(pot: Path) -> None:
    """Add to ``pot`` the messages of klabsite's own code (locations ``klabsite/…``), taken from
    the default site's template: a project made by ``klabsite init`` translates them too."""
    with (bundled_root() / "locales" / "messages.pot").open("rb") as handle:
        package = read_po(handle)
    with pot.open("rb") as handle:
        catalog = read_po(handle)
    for message in package:
        ours = message.id and all(path.startswith("klabsite/") for path, _ in message.locations)
        if ours and catalog.get(message.id, context=message.context) is None:  # `in` ignores the context
            catalog[message.id] = message
    with pot.open("wb") as handle:  # a scratch file: extract replaces the template with it
        write_po(handle, catalog, sort_by_file=True, width=76)


def _message_keys(pot: Path) -> set[tuple[str | None, str]]:
    with pot.open("rb") as handle:
        catalog = read_po(handle)
    return {(message.context, str(message.id)) for message in catalog if message.id}


def extract(config: SiteConfig, *, check: bool = False) -> int:
    """Extract both domains into ``locales/<domain>.pot`` (keeping the old date if nothing else changed).

    With ``check``, change nothing and return 1 when a template lacks a message of the sources
    or keeps one they no longer have (the CI gate for interface strings and rules prose alike).
    """
    if _not_a_project(config, sources=True):
        return 1
    if check:
        return _check_templates(config)
    if config.locales_dir.exists() and not config.locales_dir.is_dir():
        print(f"{config.relative(config.locales_dir)}: not a folder; the catalogs live in a folder of that "
              "name (move the file away)", file=sys.stderr)
        return 1
    config.locales_dir.mkdir(parents=True, exist_ok=True)
    with _changing(config):
        return _extract_templates(config)


def _extract_templates(config: SiteConfig) -> int:
    for domain in DOMAINS:  # each template is extracted beside itself, then replaced whole or not at all
        pot = config.locales_dir / f"{domain}.pot"
        try:
            with scratch_beside(pot) as fresh:
                if code := _extract_to(config, domain, fresh, config.relative(pot)):
                    return code
                new = fresh.read_text(encoding="utf-8")
        except OSError as error:  # name the template, not its scratch file
            raise OSError(error.errno, error.strerror or str(error), str(pot)) from None
        old = pot.read_bytes().decode("utf-8", "replace") if pot.exists() else None
        if old is None or _CREATION.sub("", old) != _CREATION.sub("", new):
            write_atomically(pot, new.encode("utf-8"))
        print(f"{config.relative(pot)}: {new.count(chr(10) + 'msgid ') - 1} messages")
    return 0


def _check_templates(config: SiteConfig, *, say_done: bool = True) -> int:
    failed = 0
    with tempfile.TemporaryDirectory() as scratch:
        for domain in DOMAINS:
            pot = config.locales_dir / f"{domain}.pot"
            fresh = Path(scratch) / f"{domain}.pot"
            if code := _extract_to(config, domain, fresh):
                return code
            current = _message_keys(pot) if pot.exists() else set()
            wanted = _message_keys(fresh)
            if current != wanted:
                added, gone = len(wanted - current), len(current - wanted)
                print(f"{config.relative(pot)}: out of date ({added} new, {gone} no longer used messages; "
                      "run: klabsite i18n extract && klabsite i18n update)", file=sys.stderr)
                failed = 1
    if not failed and say_done:
        print("all templates are up to date")
    return failed


def update(config: SiteConfig, *, check: bool = False) -> int:
    """Merge the templates into every language's catalogs (creating missing ones); fix plural headers.

    With ``check``, change nothing and return 1 when a catalog is out of date (CI staleness gate):
    older than its template, or than the sources themselves when the template is (as
    ``extract --check`` finds it).
    """
    if _not_a_project(config):
        return 1
    if check:
        return _update_catalogs(config, check=True)
    with _changing(config):
        return _update_catalogs(config, check=False)


def _update_catalogs(config: SiteConfig, *, check: bool) -> int:
    # A catalog Babel cannot read exactly as written (a msgstr without quotes, an unterminated
    # string) would be rewritten without the broken part: stop first, with its file and line.
    try:
        for domain in DOMAINS:
            for lang in config.targets:
                path = catalog_path(config.locales_dir, lang, domain)
                if path.exists():
                    read_catalog(path, lang, config.relative(path), plural_header=False)
    except BuildError as error:
        print(f"{error} (nothing was updated)", file=sys.stderr)
        return 1
    failed = _check_templates(config, say_done=False) if check and config.src_dir.is_dir() else 0
    for domain in DOMAINS:
        pot = config.locales_dir / f"{domain}.pot"
        if not pot.exists():
            print(f"{config.relative(pot)}: missing; run klabsite i18n extract first", file=sys.stderr)
            return 1
        for lang in config.targets:
            # No --previous: Babel wraps a long previous msgid into "#|" lines it cannot read
            # back, which later merges turn into stray "# |" comments. --ignore-obsolete: a message
            # gone from the sources leaves the catalog (git keeps it); Babel would keep it as a "#~"
            # entry for ever, even beside the same message come back, which GNU msgfmt refuses.
            args = ["update", "-i", str(pot), "-d", str(config.locales_dir), "-D", domain, "-l", lang,
                    "--ignore-pot-creation-date", "--ignore-obsolete"]
            path = catalog_path(config.locales_dir, lang, domain)
            if check:
                if not path.exists():
                    print(f"{config.relative(path)}: missing", file=sys.stderr)
                    failed = 1
                    continue
                if pybabel(*args, "--check"):
                    print(f"{config.relative(path)}: out of date (run: klabsite i18n update)",
                          file=sys.stderr)
                    failed = 1
                continue
            if pybabel(*args, "--init-missing"):
                return 1
            if fix_plural_header(path, lang) and pybabel(*args):  # again, to wrap the header Babel's way
                return 1
    if check and not failed:
        print("all catalogs are up to date")
    return failed


def compile_catalogs(config: SiteConfig) -> int:
    """Check every catalog (placeholders, markup, plural header), then ``pybabel compile`` to ``.mo``."""
    if _not_a_project(config):
        return 1
    try:
        labels = defined_labels(config)
        for domain in DOMAINS:
            for lang in config.targets:
                path = catalog_path(config.locales_dir, lang, domain)
                check_catalog(read_catalog(path, lang, config.relative(path)), config.relative(path),
                              formatted=domain == "messages", labels=labels)
    except BuildError as error:
        print(error, file=sys.stderr)
        return 1
    for domain in DOMAINS:
        if pybabel("compile", "-d", str(config.locales_dir), "-D", domain):
            return 1
    return 0


def status(config: SiteConfig, out: TextIO | None = None) -> int:
    """Print translated / fuzzy / untranslated messages per language and domain (problems on stderr)."""
    if _not_a_project(config):
        return 1
    out = out or sys.stdout
    header = ("lang", "catalog", "translated", "fuzzy", "untranslated", "total", "done")
    print("{:<5} {:<9} {:>10} {:>6} {:>12} {:>6} {:>6}".format(*header), file=out)
    code = 0
    for lang in config.targets:
        for domain in DOMAINS:
            path = catalog_path(config.locales_dir, lang, domain)
            try:
                template = config.locales_dir / f"{domain}.pot"
                stats = catalog_stats(read_catalog(path, lang, config.relative(path)),
                                      read_template(template, config.relative(template)))
            except BuildError as error:
                print(error, file=sys.stderr)
                code = 1
                continue
            print(f"{lang:<5} {domain:<9} {stats.translated:>10} {stats.fuzzy:>6} {stats.untranslated:>12} "
                  f"{stats.total:>6} {stats.percent:>5.0f}%", file=out)
    return code
