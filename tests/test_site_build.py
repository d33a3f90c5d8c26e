"""The site build: load → render → write, on a small fixture project (tests/fixtures/site).

Covers: pages for every language, the shell (lang/dir, CSP, hashed stylesheet, switcher,
hreflang, sitemap), directives, reproducibility, the atomic writer and the one-line errors.
"""

from __future__ import annotations

import io
import os
import re
import shutil
from pathlib import Path

import pytest
import tinycss2

from klabsite.site import pagework
from klabsite.site.build import ProgressBar, build, render, run_build
from klabsite.site.config import load_config
from klabsite.site.errors import BuildError
from klabsite.site.writer import MARKER, write_site
from tests.site_helpers import REPO, tree

CSP = ("default-src 'none'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'")


def test_every_rules_page_is_built_in_every_language(project):
    report = build(load_config(project))
    files = tree(project / "_site")
    for lang in ("en", "fr", "es", "hr", "ar"):
        for name in ("index.html", "basics.html", "play.html"):
            assert f"{lang}/{name}" in files
    assert "index.html" in files and "404.html" in files and ".nojekyll" in files
    assert report.pages == 5 * 3 + 2


def test_pages_declare_language_and_direction(project):
    outputs, _ = render(load_config(project))
    assert '<html lang="ar" dir="rtl">' in outputs["ar/basics.html"].decode()
    assert '<html lang="fr" dir="ltr">' in outputs["fr/basics.html"].decode()


def test_every_page_has_the_csp_and_no_script_or_inline_style(project):
    outputs, _ = render(load_config(project))
    for path, data in outputs.items():
        if not path.endswith(".html"):
            continue
        html = data.decode()
        assert html.count('http-equiv="Content-Security-Policy"') == 1, path
        assert f'content="{CSP}"' in html, path
        assert html.index("Content-Security-Policy") < html.index("<link"), path
        assert "<script" not in html and "<style" not in html and " style=" not in html, path
        assert "http://" not in html and "https://" not in html, path
        assert html.count("<h1") == 1, path


def test_stylesheet_name_carries_its_content_hash(project):
    outputs, _ = render(load_config(project))
    css = [path for path in outputs if path.endswith(".css")]
    assert len(css) == 1 and re.fullmatch(r"assets/style\.[0-9a-f]{8}\.css", css[0])
    assert f'href="../{css[0]}"' in outputs["fr/play.html"].decode()


def test_the_stylesheet_ships_without_its_comments_and_with_the_same_rules(project):
    source = (project / "site_src" / "static" / "style.css").read_text(encoding="utf-8")
    outputs, _ = render(load_config(project))
    shipped = next(data for path, data in outputs.items() if path.endswith(".css")).decode()
    assert "/*" in source and "/*" not in shipped and len(shipped) < len(source)
    def rules(css: str) -> list[str]:
        return [tinycss2.serialize([rule]) for rule in tinycss2.parse_stylesheet(css, True, True)]
    assert rules(shipped) == rules(source) and len(rules(source)) > 100


def test_translated_blocks_keep_their_markdown_and_links(project):
    outputs, _ = render(load_config(project))
    html = outputs["fr/basics.html"].decode()
    assert "<h1>Les bases</h1>" in html
    assert ('Le klaberjass se joue avec <strong>32 cartes</strong> : '
            'voir <a href="play.html#leading">le jeu</a>') in html
    assert "<li>trèfle et <em>pique</em></li>" in html
    assert '<li lang="en">hearts and diamonds</li>' in html


def test_heading_ids_come_from_the_english_heading(project):
    outputs, _ = render(load_config(project))
    assert '<h2 id="card-order"><a class="heading-anchor" href="#card-order" title="Link to this section">Card order</a>' in outputs["en/basics.html"].decode()
    assert re.search(r'<h2 id="card-order"><a class="heading-anchor" href="#card-order" title="[^"]+">'
                     r'Ordre des cartes</a></h2>', outputs["fr/basics.html"].decode())
    assert '<h2 id="card-order-2">' in outputs["fr/basics.html"].decode()
    assert '<h2 id="leading"' in outputs["hr/play.html"].decode()


def test_untranslated_blocks_in_arabic_are_marked_english_left_to_right(project):
    outputs, _ = render(load_config(project))
    assert '<p dir="ltr" lang="en">The non-dealer leads.' in outputs["ar/play.html"].decode()
    assert '<title>The play · ' in outputs["fr/play.html"].decode()  # fuzzy: not used


def test_switcher_links_to_the_same_page_in_every_language(project):
    outputs, _ = render(load_config(project))
    html = outputs["hr/play.html"].decode()
    for lang, name in (("en", "English"), ("fr", "Français"), ("es", "Español"), ("ar", "العربية")):
        assert f'<a href="../{lang}/play.html" hreflang="{lang}" lang="{lang}"' in html
        assert name in html
    assert 'aria-current="page">Hrvatski</a>' in html


def test_hreflang_is_relative_without_base_url_and_absolute_with_it(project):
    outputs, _ = render(load_config(project))
    html = outputs["es/play.html"].decode()
    assert '<link rel="alternate" hreflang="x-default" href="../index.html">' in html
    assert "sitemap.xml" not in outputs
    outputs, _ = render(load_config(project, base_url="https://example.org/klab"))
    html = outputs["es/play.html"].decode()
    assert '<link rel="alternate" hreflang="fr" href="https://example.org/klab/fr/play.html">' in html
    assert '<link rel="canonical" href="https://example.org/klab/es/play.html">' in html
    sitemap = outputs["sitemap.xml"].decode()
    assert "<loc>https://example.org/klab/ar/basics.html</loc>" in sitemap
    assert 'hreflang="x-default" href="https://example.org/klab/"' in sitemap


def test_404_links_from_the_site_root(project):
    outputs, _ = render(load_config(project, base_url="https://example.org/klab/"))
    html = outputs["404.html"].decode()
    assert 'href="/klab/fr/index.html"' in html and 'href="/klab/assets/style.' in html


def test_home_lists_the_rules_pages_in_order_with_previous_and_next(project):
    outputs, _ = render(load_config(project))
    home = outputs["fr/index.html"].decode()
    assert home.index('href="basics.html"') < home.index('href="play.html"')
    play = outputs["fr/play.html"].decode()
    assert 'rel="prev" href="basics.html"' in play and 'rel="next"' not in play


def test_home_and_description_use_the_page_summary(project):
    page = project / "site_src" / "rules" / "02-play.md"
    page.write_text("---\nsummary: Who leads, and what follows.\n---\n\n" + page.read_text(), encoding="utf-8")
    catalog = project / "locales" / "fr" / "LC_MESSAGES" / "content.po"
    catalog.write_text(catalog.read_text(encoding="utf-8")
                       + '\nmsgid "Who leads, and what follows."\nmsgstr "Qui entame, et la suite."\n',
                       encoding="utf-8")
    outputs, _ = render(load_config(project))
    home = outputs["fr/index.html"].decode()
    assert '<span class="entry-lead">Qui entame, et la suite.</span>' in home
    assert '<meta name="description" content="Qui entame, et la suite.">' in outputs["fr/play.html"].decode()
    assert ('<span class="entry-lead" lang="en" dir="ltr">Who leads, and what follows.</span>'
            in outputs["ar/index.html"].decode())
    assert '<span class="entry-lead">Le klaberjass se joue avec' in home  # no summary: the first paragraph


def test_directive_output_is_inserted_as_html(project):
    outputs, _ = render(load_config(project))
    html = outputs["fr/basics.html"].decode()
    assert '<div class="klab klab-fixture-hand"><p><span class="card card-h"' in html
    assert "V♥" in html  # the French jack
    assert "[[klab:not-a-directive]]" in html  # inside a code block: left alone


def test_two_builds_are_byte_identical(project, tmp_path):
    config = load_config(project)
    build(config)
    first = tree(config.out_dir)
    shutil.rmtree(config.out_dir)
    build(load_config(project))
    assert tree(config.out_dir) == first


def test_build_date_comes_from_source_date_epoch(project, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    outputs, _ = render(load_config(project))
    assert "14 novembre 2023" in outputs["fr/index.html"].decode()


def _break(project: Path) -> None:
    page = project / "site_src" / "rules" / "02-play.md"
    page.write_text(page.read_text() + "\n[[klab:no-such-directive]]\n", encoding="utf-8")


def test_unknown_directive_is_an_error_at_its_line(project):
    _break(project)
    with pytest.raises(BuildError) as error:
        render(load_config(project))
    assert str(error.value).startswith("site_src/rules/02-play.md:7: unknown directive 'no-such-directive'")


def test_a_failing_build_leaves_the_previous_site_untouched(project):
    assert run_build(project, stdout=io.StringIO(), stderr=io.StringIO()) == 0
    before = tree(project / "_site")
    _break(project)
    stderr = io.StringIO()
    assert run_build(project, stdout=io.StringIO(), stderr=stderr) == 1
    assert stderr.getvalue().count("\n") == 1
    assert stderr.getvalue().startswith("site_src/rules/02-play.md:7: ")
    assert tree(project / "_site") == before
    assert sorted(path.name for path in project.iterdir()) == ["_site", "locales", "site_src"]


def test_writer_swaps_the_new_site_in_and_cleans_up(tmp_path):
    out = tmp_path / "_site"
    write_site({"a.html": b"1", "old.html": b"x"}, out)
    write_site({"a.html": b"2", "sub/b.html": b"3"}, out)
    assert tree(out) == {"a.html": b"2", "sub/b.html": b"3"}
    assert (out / MARKER).is_file()
    assert [path.name for path in tmp_path.iterdir()] == ["_site"]


def test_writer_failure_keeps_the_old_output(tmp_path):
    out = tmp_path / "_site"
    write_site({"a.html": b"1"}, out)
    with pytest.raises(ValueError):
        write_site({"b.html": b"2", "../escape.html": b"3"}, out)
    assert tree(out) == {"a.html": b"1"}
    assert [path.name for path in tmp_path.iterdir()] == ["_site"]


def test_broken_anchor_is_an_error_at_the_link(project):
    page = project / "site_src" / "rules" / "02-play.md"
    page.write_text(page.read_text().replace("basics.md#card-order", "basics.md#nowhere"), encoding="utf-8")
    with pytest.raises(BuildError, match=r"^site_src/rules/02-play\.md:5: link to 'basics\.html#nowhere'"):
        render(load_config(project))


def test_link_to_a_missing_page_is_an_error(project):
    page = project / "site_src" / "rules" / "02-play.md"
    page.write_text(page.read_text().replace("basics.md", "nothing.md"), encoding="utf-8")
    with pytest.raises(BuildError, match=r"^site_src/rules/02-play\.md:5: link to 'nothing\.md'"):
        render(load_config(project))


def test_untranslated_messages_are_warnings_and_errors_when_strict(project):
    _, warnings = render(load_config(project))
    assert any(w.startswith("locales/fr/LC_MESSAGES/content.po:") and "untranslated" in w for w in warnings)
    fr = [w for w in warnings if w.startswith("locales/fr/LC_MESSAGES/content.po:")]
    assert "1 untranslated, 1 fuzzy of 6 messages" in fr[0]
    with pytest.raises(BuildError, match=r"^locales/fr/LC_MESSAGES/content\.po:\d+: .*--strict"):
        render(load_config(project, strict=True))


@pytest.fixture
def shipped_words(tmp_path):
    """A project with the shipped rules pages, templates and catalogs (every message translated), no deals."""
    root = tmp_path / "shipped"
    for folder in ("rules", "templates", "static"):
        shutil.copytree(REPO / "site_src" / folder, root / "site_src" / folder)
    shutil.copytree(REPO / "locales", root / "locales")
    return root


def _insert(template, words: str) -> int:
    """Put ``words`` after the skip link of the base template; returns their line."""
    text = template.read_text(encoding="utf-8")
    assert text.count('{{ _("Skip to the content") }}') == 1
    template.write_text(text.replace('{{ _("Skip to the content") }}', '{{ _("Skip to the content") }} ' + words),
                        encoding="utf-8")
    return text[:text.index('{{ _("Skip to the content") }}')].count("\n") + 1


def test_a_template_message_missing_from_the_catalogs_is_a_warning_at_its_line_and_an_error_when_strict(
        shipped_words):
    assert render(load_config(shipped_words, languages=["fr", "ar"], strict=True))[1] == []
    base = shipped_words / "site_src" / "templates" / "base.html"
    line = _insert(base, '{% if false %}{{ _("A brand new notice") }}{% endif %}')  # on no page: still found
    _, warnings = render(load_config(shipped_words, languages=["fr", "ar"]))
    assert warnings == [f"site_src/templates/base.html:{line}: warning: the interface message 'A brand new notice' "
                        f"is not in locales/{lang}/LC_MESSAGES/messages.po yet: it shows in English "
                        "(run: klabsite i18n extract && klabsite i18n update)" for lang in ("fr", "ar")]
    with pytest.raises(BuildError, match=rf"^site_src/templates/base\.html:{line}: the interface message "
                       "'A brand new notice' is not in locales/fr/LC_MESSAGES/messages.po yet"):
        render(load_config(shipped_words, languages=["fr"], strict=True))


def test_a_plural_message_the_catalog_holds_as_a_singular_one_is_missing(shipped_words):
    base = shipped_words / "site_src" / "templates" / "base.html"
    line = _insert(base, "{% trans count=2 %}Skip to the content{% pluralize %}Skip to the contents{% endtrans %}")
    _, warnings = render(load_config(shipped_words, languages=["fr"]))
    assert warnings == [f"site_src/templates/base.html:{line}: warning: the interface message 'Skip to the content' "
                        "is not in locales/fr/LC_MESSAGES/messages.po yet: it shows in English "
                        "(run: klabsite i18n extract && klabsite i18n update)"]


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_message_the_code_asks_for_and_no_catalog_holds_is_a_warning_also_from_the_workers(
        shipped_words, monkeypatch, jobs):
    monkeypatch.setattr(pagework, "PARALLEL_FROM", 1)  # on two processes, the workers find it
    monkeypatch.setattr(pagework, "default_jobs", lambda: jobs)
    _insert(shipped_words / "site_src" / "templates" / "base.html", '{{ loc.gettext("A word the code asks for") }}')
    outputs, warnings = render(load_config(shipped_words, languages=["fr", "ar"]))
    assert "A word the code asks for" in outputs["fr/index.html"].decode()
    assert warnings == [f"locales/{lang}/LC_MESSAGES/messages.po:1: warning: the interface message "
                        f"'A word the code asks for' is not in locales/{lang}/LC_MESSAGES/messages.po yet: it "
                        "shows in English (run: klabsite i18n extract && klabsite i18n update)"
                        for lang in ("fr", "ar")]
    with pytest.raises(BuildError, match=r"^locales/fr/LC_MESSAGES/messages\.po:1: the interface message "
                       "'A word the code asks for' is not in"):
        render(load_config(shipped_words, languages=["fr"], strict=True))


def test_only_some_languages(project):
    outputs, _ = render(load_config(project, languages=["fr"]))
    assert {path.split("/")[0] for path in outputs if "/" in path} == {"en", "fr", "assets"}


def test_progress_bar_draws_only_on_a_terminal():
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    quiet, loud = io.StringIO(), Terminal()
    for stream in (quiet, loud):
        bar = ProgressBar(stream)
        bar(1, 2)
        bar(2, 2)
        bar.close()
    assert quiet.getvalue() == ""
    assert "2/2 pages" in loud.getvalue()


@pytest.fixture(scope="module")
def real_site() -> dict[str, str]:
    """The real site (site_src/ and locales/), rendered once: output path → HTML."""
    outputs, _ = render(load_config(REPO))
    return {path: data.decode() for path, data in outputs.items() if path.endswith(".html")}


def test_the_real_site_renders(real_site):
    assert "en/index.html" in real_site and "ar/index.html" in real_site


def test_real_site_regions_have_unique_labels_and_no_empty_header_cell(real_site):
    for path, html in real_site.items():
        labels = re.findall(r'role="region" aria-label="([^"]*)"', html)
        assert len(labels) == len(set(labels)), f"{path}: two scrolling regions share a label"
        assert not re.search(r"<th[^>]*>\s*</th>", html), f"{path}: an empty header cell"


def test_real_site_says_the_language_of_the_dutch_words_it_quotes(real_site):
    for lang in ("en", "fr", "es", "hr", "ar"):
        html = real_site[f"{lang}/klaverjas-scoring.html"]
        assert '<em lang="nl">verzaakt</em>' in html and "<em>verzaakt</em>" not in html
        table_words = real_site[f"{lang}/klaverjas.html"]
        for word in ("troef", "maat", "bekennen", "introeven", "overtroeven", "ondertroeven", "schoppen"):
            assert f'<em lang="nl">{word}</em>' in table_words and f"<em>{word}</em>" not in table_words, word
    assert '<em lang="hr">štiglja</em>' in real_site["en/klaberjass-scoring.html"]
    assert '<em lang="hr">' not in real_site["hr/klaberjass-scoring.html"]  # a Croatian page's own word


def test_real_site_says_the_language_of_the_game_words_a_translation_quotes(real_site):
    """roem, stuk, pit and nat are Dutch, schmeiss German, dix and capot French: quoted in italics
    by a translation, they say so; on a page of their own language, or inflected, they do not."""
    quoted = {lang: "".join(html for path, html in real_site.items() if path.startswith(f"{lang}/")
                            and path.count("/") == 1) for lang in ("en", "fr", "es", "hr", "ar")}
    for lang, words in (("hr", ("roem", "stuk", "pit", "nat")), ("es", ("roem", "schmeiss", "dix")),
                        ("ar", ("roem", "stuk", "pit", "nat", "schmeiss", "dix", "capot"))):
        for word in words:
            lang_of_word = {"schmeiss": "de", "dix": "fr", "capot": "fr"}.get(word, "nl")
            assert f'<em lang="{lang_of_word}">{word}</em>' in quoted[lang], (lang, word)
            assert f"<em>{word}</em>" not in quoted[lang], (lang, word)
    assert "<em>roema</em>" in quoted["hr"]  # a Croatian case ending: not a Dutch word
    assert '<em lang="fr">' not in quoted["fr"]


def test_real_site_names_every_table_and_code_block_a_keyboard_reaches(real_site):
    for path, html in real_site.items():
        for table in re.findall(r"<table\b.*?</table>", html, re.S):
            assert "<caption" in table, f"{path}: a table without a caption"
        for pre in re.findall(r"<pre\b[^>]*>", html):
            assert 'role="region" aria-label="' in pre, f"{path}: {pre}"


def test_real_site_joins_lists_the_languages_way(real_site):
    def trick_table(path: str) -> str:
        return real_site[path].split('class="klab klab-trick-rules"')[1].split("</table>")[0]

    fr, ar = trick_table("fr/klaverjas-play.html"), trick_table("ar/klaverjas-play.html")
    assert "\u202f; " in fr and "; " not in fr.replace("\u202f; ", "")  # French: a narrow no-break space
    assert "؛ " in ar and ";" not in ar
    assert " ou <code" in real_site["fr/klaberjass-scoring.html"]  # option values: "a ou b"
    assert " أو <" in real_site["ar/klaberjass-scoring.html"]


def test_real_site_home_pages_show_translated_summaries(real_site):
    for lang in ("fr", "es", "hr", "ar"):
        home = real_site[f"{lang}/index.html"]
        entries = re.findall(r'<ol class="rules-list">(.*?)</ol>', home, re.DOTALL)[0]
        summaries = re.findall(r'<span class="entry-lead"([^>]*)>(.*?)</span>', entries, re.DOTALL)
        assert len(summaries) == 9 and all(attrs == "" for attrs, _ in summaries), lang
        assert not any(text.endswith(":") for _, text in summaries), lang


def test_unsafe_translation_stops_the_build_at_its_po_line(project):
    assert run_build(project, stdout=io.StringIO(), stderr=io.StringIO()) == 0
    before = tree(project / "_site")
    catalog = project / "locales" / "fr" / "LC_MESSAGES" / "content.po"
    text = catalog.read_text(encoding="utf-8")
    unsafe = text.replace('msgstr "trèfle et *pique*"', 'msgstr "trèfle et <script>pique</script>"')
    catalog.write_text(unsafe, encoding="utf-8")
    line = text.split("\n").index('msgid "clubs and *spades*"') + 1
    stderr = io.StringIO()
    assert run_build(project, stdout=io.StringIO(), stderr=stderr) == 1
    assert stderr.getvalue().startswith(f"locales/fr/LC_MESSAGES/content.po:{line}: translation adds markup")
    assert tree(project / "_site") == before


def test_klabsite_command_has_build_serve_and_i18n():
    from klabsite.cli import build_parser

    parser = build_parser()
    for argv in (["build", "--strict", "--lang", "fr,ar"], ["serve", "--port", "9000"], ["i18n", "status"]):
        assert callable(parser.parse_args(argv).func)


def test_a_fuzzy_translation_is_not_published(project):
    """A fuzzy entry is a guess of `i18n update`, not checked: pages show the English words, both
    for the rules prose and for the interface (whose catalog is compiled)."""
    content = (project / "locales" / "fr" / "LC_MESSAGES" / "content.po").read_text(encoding="utf-8")
    assert '#, fuzzy\nmsgid "The play"\nmsgstr "Le jeu"' in content
    messages = project / "locales" / "fr" / "LC_MESSAGES" / "messages.po"
    text = messages.read_text(encoding="utf-8")
    old = 'msgid "Skip to the content"\nmsgstr "Aller au contenu"'
    assert old in text
    messages.write_text(text.replace(old, '#, fuzzy\nmsgid "Skip to the content"\nmsgstr "Sauter au texte"'),
                        encoding="utf-8")
    outputs, _ = render(load_config(project, languages=["fr"]))
    page = outputs["fr/play.html"].decode()
    assert "The play" in page and "Le jeu" not in page
    assert "Skip to the content" in page and "Sauter au texte" not in page


def test_a_rules_paragraph_changed_since_the_catalogs_is_a_warning_and_an_error_when_strict(shipped_words):
    page = shipped_words / "site_src" / "rules" / "03-klaberjass-play.md"
    old = "The suit can be trumps or a plain suit."
    text = page.read_text(encoding="utf-8")
    assert old in text
    page.write_text(text.replace(old, "The suit may be trumps or a plain suit."), encoding="utf-8")
    _, warnings = render(load_config(shipped_words, languages=["fr"]))
    assert [warning for warning in warnings if "rules paragraphs" in warning] == [
        "locales/fr/LC_MESSAGES/content.po:1: warning: 1 rules paragraphs are not in the catalog yet "
        "(run: klabsite i18n extract && klabsite i18n update)"]
    with pytest.raises(BuildError, match="rules paragraphs are not in the catalog yet"):
        render(load_config(shipped_words, languages=["fr"], strict=True))


def test_a_deal_title_missing_from_a_catalog_is_an_error_when_strict(shipped_words):
    deals = shipped_words / "site_src" / "deals"
    deals.mkdir()
    record = (REPO / "tests" / "fixtures" / "replays" / "kv.klab").read_text(encoding="utf-8")
    (deals / "quiet.klab").write_text(record.replace('[Game "klaverjas"]', '[Game "klaverjas"]\n[Title "A quiet deal"]',
                                                     1), encoding="utf-8")
    with pytest.raises(BuildError, match="deal title 'A quiet deal' is not in the catalog yet"):
        render(load_config(shipped_words, languages=["fr"], strict=True))


def test_the_writer_puts_the_old_output_back_when_the_new_one_cannot_take_its_place(tmp_path, monkeypatch):
    out = tmp_path / "_site"
    write_site({"a.html": b"1"}, out)
    real = os.replace
    calls = []

    def replace_then_fail(source, target):
        calls.append(target)
        if len(calls) == 2:  # the new output into place
            raise OSError("disk error")
        real(source, target)

    monkeypatch.setattr(os, "replace", replace_then_fail)
    with pytest.raises(OSError):
        write_site({"b.html": b"2"}, out)
    monkeypatch.setattr(os, "replace", real)
    assert tree(out) == {"a.html": b"1"}
    assert [path.name for path in tmp_path.iterdir()] == ["_site"]


def test_a_built_site_can_be_served_by_any_user(tmp_path):
    """Folders 755 and files 644, whatever the temporary folder's own mode (a web server runs as
    another user)."""
    out = tmp_path / "_site"
    write_site({"a.html": b"1", "en/b.html": b"2"}, out)
    modes = {path.relative_to(out).as_posix(): path.stat().st_mode & 0o777 for path in [out, *out.rglob("*")]}
    assert modes == {".": 0o755, "a.html": 0o644, "en": 0o755, "en/b.html": 0o644, MARKER: 0o644}


def test_a_link_from_the_site_root_is_an_error_at_the_link(project):
    """``/en/index.html`` breaks under file:// and under a sub-path: links are relative."""
    page = project / "site_src" / "rules" / "02-play.md"
    page.write_text(page.read_text().replace("basics.md#card-order", "/en/index.html"), encoding="utf-8")
    with pytest.raises(BuildError, match=r"^site_src/rules/02-play\.md:5: .*link from the site root"):
        render(load_config(project))


def test_the_gallery_points_a_newcomer_to_each_games_worked_example(real_site):
    gallery = real_site["en/deals/index.html"]
    start = re.search(r'<p class="start-here">(.*?)</p>', gallery, re.S)
    assert start and start.group(1).startswith("New to the games?")
    links = re.findall(r'<a href="(\w+)/index.html">[^<]*</a> \((Klaberjass|Klaverjas)\)', start.group(1))
    assert [game for _, game in links] == ["Klaberjass", "Klaverjas"]
    for deal_id, _ in links:
        assert "#tag-" in real_site[f"en/deals/{deal_id}/index.html"]
        assert "worked example" in real_site[f"en/deals/{deal_id}/index.html"]
    assert '<p class="start-here">' in real_site["ar/deals/index.html"]


def test_a_gallery_line_tells_the_rules_from_what_happens(real_site):
    """An option ("no sequences for a player who takes no trick") reads like an event unless it is labelled."""
    lines = re.findall(r"<li><a href=\"\w+/index.html\">.*?</li>", real_site["en/deals/index.html"])
    assert lines
    for line in lines:
        options = re.search(r'<span class="deal-options">([^<]*)', line)
        tags = re.search(r'<span class="deal-tags">([^<]*)', line)
        assert options is None or options.group(1).startswith("rules: "), line
        assert options is None or not re.search(r"a match of|to \d+ points", options.group(1)), line
        assert tags is None or tags.group(1).startswith("what happens: "), line
    assert any('<span class="deal-options">rules: ' in line for line in lines)


_SLOT = re.compile(r'<li class="slot is-(\w+)[^"]*"[^>]*>(?:<span class="card[^"]*" role="img" aria-label="([^"]+)")?')


@pytest.mark.parametrize("game", ["klaberjass", "klaverjas"])
def test_a_worked_deal_shows_the_same_hands_as_its_overview_with_a_dix_done(real_site, game):
    """The rules page's worked deal and the deal's overview draw one table of hands: trumps in
    trump order, the extra cards in and, after a dix, the 7 of trumps struck through and the
    upcard in the hand."""
    rules = real_site[f"en/{game}-scoring.html"]
    worked = rules[rules.index('class="worked-deal"'):]
    deal = re.search(r'href="deals/(\w+)/', worked).group(1)
    overview = real_site[f"en/deals/{deal}/index.html"]
    drawn = _SLOT.findall(worked[:worked.index('class="worked-part"', worked.index("card-table"))])
    shown = _SLOT.findall(overview[overview.index("card-table"):overview.index("<h2>Bidding")])
    assert drawn and drawn == shown
    if game == "klaberjass":
        dix = re.search(r"exchanges .*?aria-label=\"([^\"]+)\".*?the upcard .*?aria-label=\"([^\"]+)\"", overview)
        assert dix, "the shipped worked example of Klaberjass has a dix"
        assert ("gone", dix.group(1)) in shown and ("held", dix.group(2)) in shown


@pytest.mark.parametrize(("game", "after"), [("klaberjass", {"N": "S", "S": "N"}),
                                             ("klaverjas", {"N": "E", "E": "S", "S": "W", "W": "N"})])
def test_a_worked_deal_says_who_deals_and_who_leads_first(real_site, game, after):
    """The seating picture's dealer is South; the worked deal's may be another, so it says its own."""
    names = {"N": "North", "E": "East", "S": "South", "W": "West"}
    rules = real_site[f"en/{game}-scoring.html"]
    worked = rules[rules.index('class="worked-deal"'):]
    dealer = re.search(r'<span class="seat-who">(\w+) (?:<span class="player">[^<]*</span>)?</span> '
                       r'<span class="badge">dealer<', worked)
    assert dealer, "the table of hands marks the dealer"
    seat = next(key for key, name in names.items() if name == dealer.group(1))
    assert f"<p>{names[seat]} deals; {names[after[seat]]} speaks first and leads to the first trick.</p>" in worked


@pytest.mark.parametrize("lang", ["en", "fr", "es", "hr", "ar"])
def test_the_gallery_lists_each_games_deals_a_to_z_by_their_titles_in_the_pages_language(real_site, lang):
    """The deals of one record stay together, in the order they were played; a leading article
    counts for nothing ("The dix" under D)."""
    from klabsite.site.titles import title_key as sort_key

    gallery = real_site[f"{lang}/deals/index.html"]
    lists = re.findall(r'<section aria-labelledby="game-\w+">\s*<h2[^>]*>.*?</h2>\s*<ul class="deal-list">(.*?)</ul>',
                       gallery, re.S)
    assert len(lists) == 2   # Klaberjass, Klaverjas
    for listed in lists:
        names = [re.sub(r"<[^>]+>", "", name) for name in re.findall(r'<li><a href="\w+/index.html">(.*?)</a>', listed)]
        titled = [(name.split(" · ")[0], name.rsplit(" ", 1)[-1]) for name in names]
        assert len(titled) > 10
        keys = [sort_key(title, lang) for title, _ in titled]
        assert keys == sorted(keys), names
        if lang == "en" and "The dix" in dict(titled):
            order = list(dict.fromkeys(title for title, _ in titled))
            assert order.index("Costly cards") < order.index("The dix") < order.index("Equal totals"), order
        for (title, number), (after, later) in zip(titled, titled[1:], strict=False):
            if title == after and number.isdigit() and later.isdigit():
                assert int(later) == int(number) + 1, names
