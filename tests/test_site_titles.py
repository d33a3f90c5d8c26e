"""The titles of the shipped deal records are site text: extracted for translators under the
context "deal title", translated on every page of a language, and flagged when a catalog lacks
one."""

from __future__ import annotations

import io
import re

import pytest
from babel.messages.pofile import read_po

from klabsite.records.klab import RecordError, read_record
from klabsite.site.build import render
from klabsite.site.config import load_config
from klabsite.site.titles import TITLE_CONTEXT, extract_titles
from tests.site_helpers import REPO

LANGUAGES = ("fr", "es", "hr", "ar")


def _record(title_line: str) -> bytes:
    text = (REPO / "tests" / "fixtures" / "replays" / "kv.klab").read_text(encoding="utf-8")
    return text.replace('[Game "klaverjas"]', f'[Game "klaverjas"]\n{title_line}', 1).encode()


def test_a_record_title_is_extracted_unescaped_at_the_line_of_its_tag():
    found = list(extract_titles(io.BytesIO(_record(r'[Title "The \"quiet\" deal"]')), (), (), {}))
    assert [(line, function, message) for line, function, message, _ in found] == [
        (3, "pgettext", (TITLE_CONTEXT, 'The "quiet" deal'))]


def test_a_record_without_a_title_gives_no_message_and_a_broken_one_stops_the_extraction():
    assert list(extract_titles(io.BytesIO(_record("")), (), (), {})) == []
    with pytest.raises(RecordError):
        list(extract_titles(io.BytesIO(_record('[Title "unterminated]')), (), (), {}))


def _shipped_titles() -> set[str]:
    paths = sorted((REPO / "site_src" / "deals").glob("*.klab"))
    titles = {read_record(path.read_bytes()).tags.get("Title") for path in paths}
    return {title for title in titles if title}


def _catalog_titles(path) -> dict[str, str]:
    with path.open("rb") as handle:
        return {message.id: message.string for message in read_po(handle)
                if message.context == TITLE_CONTEXT and not message.fuzzy}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_shipped_deal_title_is_translated_in_every_language(lang):
    shipped = _shipped_titles()
    assert len(shipped) >= 20
    assert set(_catalog_titles(REPO / "locales" / "content.pot")) == shipped
    translated = _catalog_titles(REPO / "locales" / lang / "LC_MESSAGES" / "content.po")
    assert set(translated) == shipped
    assert sorted(title for title, text in translated.items() if not text) == []
    # A one-word title may be a loanword every language keeps (Nat, Pit, Stuk, Schmeiss); a phrase may not.
    assert sorted(title for title, text in translated.items() if " " in title and text == title) == []
    assert not [text for text in translated.values() if re.search(r"[<>*_`]", text)], "titles are plain text"


@pytest.fixture
def titled_project(project):
    (project / "site_src" / "deals").mkdir()
    (project / "site_src" / "deals" / "quiet.klab").write_bytes(_record('[Title "A quiet deal"]'))
    return project


def _add_title(project, lang: str, msgstr: str) -> None:
    catalog = project / "locales" / lang / "LC_MESSAGES" / "content.po"
    text = catalog.read_text(encoding="utf-8").rstrip("\n")
    catalog.write_text(f'{text}\n\nmsgctxt "{TITLE_CONTEXT}"\nmsgid "A quiet deal"\nmsgstr "{msgstr}"\n',
                       encoding="utf-8")


def test_a_translated_title_replaces_the_record_title_on_every_page_of_its_language(titled_project):
    _add_title(titled_project, "fr", "Une donne tranquille")
    outputs, warnings = render(load_config(titled_project, languages=["fr"]))
    pages = {path: data.decode() for path, data in outputs.items() if path.endswith(".html")}
    french = {path: html for path, html in pages.items() if path.startswith("fr/") and "deals" in path}
    english = {path: html for path, html in pages.items() if path.startswith("en/") and "deals" in path}
    assert len(french) > 30 and len(english) == len(french)
    shown = [path for path, html in french.items() if "Une donne tranquille" in html]
    assert "fr/deals/index.html" in shown and any(path.endswith("/index.html") and path != "fr/deals/index.html"
                                                  for path in shown)
    assert any(re.search(r"<title>Une donne tranquille · ", html) for html in french.values()), "the tab's title too"
    assert not [path for path, html in french.items() if "A quiet deal" in html]
    assert all("Une donne tranquille" not in html for html in english.values())
    assert any("A quiet deal" in html for html in english.values())
    assert not [warning for warning in warnings if "deal title" in warning]


def test_a_title_missing_from_a_catalog_is_shown_as_written_with_a_warning_that_names_the_fix(titled_project):
    outputs, warnings = render(load_config(titled_project, languages=["fr"]))
    assert "A quiet deal" in outputs["fr/deals/index.html"].decode()
    assert [warning for warning in warnings if "deal title" in warning] == [
        "locales/fr/LC_MESSAGES/content.po:1: warning: deal title 'A quiet deal' is not in the catalog yet "
        "(run: klabsite i18n extract && klabsite i18n update)"]


def test_a_site_without_the_play_pages_explains_the_rule_without_linking_to_it(titled_project):
    outputs, _ = render(load_config(titled_project, languages=["en"]))
    steps = [data.decode() for path, data in outputs.items() if path.startswith("en/deals/") and "/t" in path]
    assert any('<p class="play-rule">' in html for html in steps)
    assert not any('class="rule-link"' in html for html in steps)
