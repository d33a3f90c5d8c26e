"""Every build error is one line naming its source (trust items 13 and 14).

A template, a setting, an environment variable, an option, a rules page or a catalog: the error
says which, at which line, in one line, and the build exits 1 (3 for a klabsite bug), without a
traceback. Broken ``.po`` syntax, which Babel's reader would let through, fails at its line.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from klabsite.site import build as build_module
from klabsite.site.errors import BuildError
from klabsite.site.po_syntax import check_po_syntax
from tests.site_helpers import ERROR_LINE, REPO, build_quietly


def _error(project: Path, **options) -> str:
    """The one line of a failed build (and no traceback)."""
    status, stdout, stderr = build_quietly(project, **options)
    assert (status, stdout) == (1, ""), stderr
    assert stderr.count("\n") == 1 and "Traceback" not in stderr, stderr
    return stderr.rstrip("\n")


def _edit(path: Path, old: str, new: str) -> int:
    """Replace ``old`` by ``new`` in ``path``; returns the line where ``old`` started."""
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return text[:text.index(old)].count("\n") + 1


# Item 13: templates ------------------------------------------------------------------------------


def test_template_division_by_zero_is_one_line_at_the_template(project):
    home = project / "site_src" / "templates" / "home.html"
    line = _edit(home, '<h2 id="rules-heading">', '{{ 1/0 }}<h2 id="rules-heading">')
    assert _error(project) == (f"site_src/templates/home.html:{line}: ZeroDivisionError: division by zero "
                               "(rendering en/index.html)")


def test_template_type_error_is_one_line_at_the_template(project):
    home = project / "site_src" / "templates" / "home.html"
    line = _edit(home, '<h2 id="rules-heading">', '{{ lang + 1 }}<h2 id="rules-heading">')
    assert _error(project).startswith(f"site_src/templates/home.html:{line}: TypeError: ")


def test_recursive_include_is_one_line_at_the_template(project):
    templates = project / "site_src" / "templates"
    (templates / "loop.html").write_text('x\n{% include "loop.html" %}\n', encoding="utf-8")
    _edit(templates / "home.html", '<h2 id="rules-heading">', '{% include "loop.html" %}<h2 id="rules-heading">')
    assert _error(project) == ("site_src/templates/loop.html:2: templates include or extend each other in a loop "
                               "(loop.html:2 → loop.html:2): break the loop")


@pytest.mark.parametrize("place", ["{% block main %}", '<h2 id="rules-heading">'])
def test_a_page_including_itself_is_blamed_on_the_include_not_where_the_loop_overflowed(project, place):
    home = project / "site_src" / "templates" / "home.html"
    line = _edit(home, place, place + '{% include "home.html" %}')
    base = (project / "site_src" / "templates" / "base.html").read_text(encoding="utf-8").split("\n")
    main = next(number for number, text in enumerate(base, 1) if "{% block main %}" in text)
    assert _error(project) == (f"site_src/templates/home.html:{line}: templates include or extend each other in "
                               f"a loop (home.html:{line} → home.html:1 → base.html:{main} → home.html:{line}): "
                               "break the loop")


def test_template_syntax_error_is_one_line_at_the_template(project):
    line = _edit(project / "site_src" / "templates" / "home.html", "{% endif %}", "{% endiff %}")
    assert _error(project).startswith(f"site_src/templates/home.html:{line}: ")


def test_non_utf8_template_is_reported_at_its_line(project):
    home = project / "site_src" / "templates" / "home.html"
    data = home.read_bytes()
    home.write_bytes(data + b"ok\n\xe9t\xe9\n")
    line = data.count(b"\n") + 2
    assert _error(project) == (f"site_src/templates/home.html:{line}: not UTF-8: the byte 0xe9 cannot be "
                               "decoded (save the file as UTF-8)")


def test_non_utf8_rules_page_is_reported_at_its_line(project):
    page = project / "site_src" / "rules" / "02-play.md"
    page.write_bytes(page.read_bytes().replace(b"The non-dealer", b"The non-dealer \xff"))
    assert _error(project).startswith("site_src/rules/02-play.md:5: not UTF-8")


# Item 13: settings, variables and options --------------------------------------------------------


@pytest.mark.parametrize(("setting", "message"), [
    ("languages = 5", 'languages: must be a list of language codes such as ["en", "fr"], not \'5\''),
    ('languages = ["fr", 3]', "languages: must be a list of language codes"),
    ('languages = ["xx"]', "languages: unknown language 'xx'; known: en, fr, es, hr, ar"),
    ('strict = "yes"', "strict: must be true or false, not 'yes'"),
    ("base_url = 3", "base_url: must be a URL such as"),
    ('base_url = "example.org"', "base_url: write an absolute URL such as https://example.org/"),
    ('build_date = "2026-13-01"', "build_date: must be a date such as 2026-12-01, not '2026-13-01'"),
    ("out_dir = 5", "out_dir: must be a folder name such as"),
    ('out_dir = ""', "out_dir: must be a folder name such as"),
    ('out_dir = "."', "out_dir: must be a folder name such as \"_site\", not the project folder ('.')"),
    ('out_dir = "./"', "out_dir: must be a folder name such as \"_site\", not the project folder ('./')"),
    ('locales_dir = "."', "locales_dir: must be a folder name such as \"locales\", not the project folder"),
    ('out_dir = "site_src"', "site_src is the project's site_src folder; choose another out_dir (for example _site)"),
    ('out_dir = "../public"', "out_dir: must be a folder name such as \"_site\", inside the project, not '../public'"),
    ('out_dir = "/tmp/www"', "out_dir: must be a folder name such as \"_site\", inside the project, not '/tmp/www'"),
    ('src_dir = "../other/site_src"', "src_dir: must be a folder name such as \"site_src\", inside the project"),
    ('locales_dir = "a/../../locales"', "locales_dir: must be a folder name such as \"locales\", inside the project"),
    ('out_dir = "a\\u0000b"', "out_dir: must be a folder name such as \"_site\", inside the project"),
    ('base_url = "https://exa\\u0000mple.org/"', "base_url: write an absolute URL such as https://example.org/"),
    ("colour = 1", "unknown setting 'colour'; known: "),
    ("colour.dark = 1", "unknown setting 'colour'; known: "),
    ("[site]\nstrict = true", "unknown setting 'site'; known: "),
    ('"out dir" = "x"', "unknown setting 'out dir'; known: "),
    ('["a.b"]', "unknown setting 'a.b'; known: "),
    ('source_lang = "fr"', "source_lang: the rules pages and templates are written in English: 'en', not 'fr'"),
    ("languages = [", ""),
    ("strict = tru", "Invalid value (at line 3, column 10): write one setting a line as name = value, text in "
                     "double quotes, true or false in lower case"),
    ('src_dir = "nope"', "src_dir: the project has no folder 'nope'; name the folder that holds the rules pages"),
    ('locales_dir = "nope"', "locales_dir: the project has no folder 'nope'; name the folder that holds the "
                             "translations"),
])
def test_site_toml_mistakes_are_reported_at_their_line(project, setting, message):
    (project / "site_src" / "site.toml").write_text(f"# the site\n\n{setting}\n", encoding="utf-8")
    error = _error(project)
    assert error.startswith("site_src/site.toml:3: " + message), error


@pytest.mark.parametrize(("setting", "hint"), [("out_dir", " (a build elsewhere: klabsite build --out DIR)"),
                                               ("src_dir", ""), ("locales_dir", "")])
def test_only_the_output_folder_outside_the_project_is_pointed_to_out(project, setting, hint):
    """``--out`` builds elsewhere; the sources and translations have no such way, so no hint."""
    (project / "site_src" / "site.toml").write_text(f'{setting} = "/etc"\n', encoding="utf-8")
    assert _error(project).endswith(f"inside the project, not '/etc'{hint}")


def test_site_toml_may_start_with_a_byte_order_mark(project):
    (project / "site_src" / "site.toml").write_text("\ufeffstrict = 5\n", encoding="utf-8")
    assert _error(project).startswith("site_src/site.toml:1: strict: must be true or false, not '5'")


@pytest.mark.parametrize(("value", "message"), [
    ("1e20", "must be a whole number of seconds since 1970-01-01 UTC, not '1e20'"),
    ("abc", "must be a whole number of seconds since 1970-01-01 UTC, not 'abc'"),
    ("9" * 5000, "must be a whole number of seconds since 1970-01-01 UTC, not '9999"),
    ("100000000000000000", "100000000000000000 seconds is not a date between the years 1 and 9999"),
])
def test_source_date_epoch_must_be_a_whole_number_of_seconds(project, monkeypatch, value, message):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", value)
    error = _error(project)
    assert error.startswith("SOURCE_DATE_EPOCH: " + message) and len(error) < 200, error


def test_unknown_lang_blames_the_argument_not_a_missing_site_toml(project):
    assert not (project / "site_src" / "site.toml").exists()
    assert _error(project, langs=["xx"]) == "--lang: unknown language 'xx'; known: en, fr, es, hr, ar"


def test_base_url_without_a_scheme_blames_the_argument(project):
    assert _error(project, base_url="example.org") == "--base-url: write an absolute URL such as https://example.org/"
    assert _error(project, base_url="ftp://example.org/").startswith("--base-url: write an absolute URL")


@pytest.mark.parametrize(("url", "message"), [
    ("https://example.org/\\x/", "the character '\\\\' cannot be in a URL: write it %-encoded (a % sign as %25)"),
    ("https://example.org/a%/", "the character '%' cannot be in a URL"),
    ('https://example.org/"><b>/', "the character '\"' cannot be in a URL"),
    ("https://example.org:99999/", "the port 99999 is not a port number (1 to 65535)"),
    ("https://example.org/a/../", "the URL's path cannot have . or .. parts"),
    ("https://user:pw@example.org/", "the site's URL cannot hold a user name or password"),
])
def test_a_base_url_no_browser_could_use_is_refused_naming_the_argument(project, url, message):
    """Before, a backslash was blamed on a template, and the others went into every page."""
    assert _error(project, base_url=url).startswith(f"--base-url: {message}")


def test_a_base_url_with_a_port_an_ipv6_host_or_escapes_is_accepted(project):
    for url in ("http://localhost:8000/", "https://[::1]:8443/klab/", "https://example.org/r%C3%A8gles/"):
        status, _, stderr = build_quietly(project, base_url=url, langs=["en"])
        assert status == 0, (url, stderr)


# Item 13: prose and catalogs ---------------------------------------------------------------------


def test_bad_link_in_prose_is_reported_at_the_markdown_line(project):
    page = project / "site_src" / "rules" / "02-play.md"
    page.write_text(page.read_text(encoding="utf-8") + "\nFirst line\nthen [home](nothing.html).\n", encoding="utf-8")
    assert _error(project) == "site_src/rules/02-play.md:8: broken link nothing.html: no file en/nothing.html"


def test_prose_link_to_another_language_page_is_checked_too(project):
    page = project / "site_src" / "rules" / "02-play.md"
    page.write_text(page.read_text(encoding="utf-8") + "\nIn [French](../fr/play.html#nowhere).\n",
                    encoding="utf-8")
    assert _error(project) == ("site_src/rules/02-play.md:7: broken link ../fr/play.html#nowhere: "
                               "fr/play.html has no id 'nowhere'")


def test_garbage_po_line_is_reported_at_its_line(project):
    catalog = project / "locales" / "fr" / "LC_MESSAGES" / "content.po"
    line = _edit(catalog, 'msgid "Card order"', 'garbage here\nmsgid "Card order"')
    assert _error(project) == ("locales/fr/LC_MESSAGES/content.po:"
                               f"{line}: cannot read this line (expected msgid, msgstr, a quoted string or a "
                               "# comment): 'garbage here'")


# Item 13: errors the build did not expect --------------------------------------------------------


def test_unexpected_error_is_one_line_naming_the_stage(project, monkeypatch):
    def broken(*args, **kwargs):
        raise KeyError("x")

    monkeypatch.setattr(build_module, "render_site", broken)
    status, _, stderr = build_quietly(project)
    assert status == 3
    assert stderr == ("build: internal error while rendering (KeyError: 'x'); this is a klabsite bug, "
                      "please report it\n")


def test_os_error_while_writing_is_one_line(project, monkeypatch):
    def full(outputs, out_dir):
        raise OSError(28, "No space left on device", str(out_dir / "en" / "index.html"))

    monkeypatch.setattr(build_module, "write_site", full)
    status, _, stderr = build_quietly(project)
    assert status == 1
    assert stderr == "_site/en/index.html: No space left on device (while writing)\n"


# Item 14: the .po grammar ------------------------------------------------------------------------


def _po_error(text: str) -> str:
    with pytest.raises(BuildError) as error:
        check_po_syntax(text, "fr.po")
    return str(error.value)


HEADER = 'msgid ""\nmsgstr ""\n"Language: fr\\n"\n\n'


def test_po_unterminated_msgstr_fails_at_its_line():
    assert _po_error(HEADER + 'msgid "a"\nmsgstr "b\n') == 'fr.po:6: unterminated string: the closing " is missing'


def test_po_unknown_escape_fails_at_its_line():
    assert _po_error(HEADER + 'msgid "a"\nmsgstr "b\\q"\n') == \
        "fr.po:6: unknown escape \\q in a string (write \\\\ for a backslash)"


def test_po_duplicate_msgid_fails_at_its_line():
    text = HEADER + 'msgid "a"\nmsgstr "b"\n\nmsgid "a"\nmsgstr "c"\n'
    assert _po_error(text) == "fr.po:8: the same msgid as the entry at line 5: 'a'"
    contexts = HEADER + 'msgctxt "x"\nmsgid "a"\nmsgstr "b"\n\nmsgctxt "x"\nmsgid "a"\nmsgstr "c"\n'
    assert _po_error(contexts) == "fr.po:10: the same msgid and msgctxt as the entry at line 6: 'a'"
    check_po_syntax(HEADER + 'msgctxt "x"\nmsgid "a"\nmsgstr "b"\n\nmsgid "a"\nmsgstr "c"\n', "fr.po")


def test_po_obsolete_entry_beside_the_same_live_message_fails_at_the_later_one():
    obsolete = '#~ msgid "a"\n#~ msgstr "old"\n'
    assert _po_error(HEADER + 'msgid "a"\nmsgstr "b"\n\n' + obsolete) == (
        "fr.po:8: an obsolete (#~) entry with the same msgid as the entry at line 5: 'a'; delete the #~ entry")
    assert _po_error(HEADER + obsolete + '\nmsgid "a"\nmsgstr "b"\n') == (
        "fr.po:8: the same msgid as the obsolete (#~) entry at line 5: 'a'; delete the #~ entry")
    check_po_syntax(HEADER + 'msgid "a"\nmsgstr "b"\n\n#~ msgid "gone"\n#~ msgstr "parti"\n', "fr.po")
    assert _po_error(HEADER + obsolete + "\n" + obsolete) == (
        "fr.po:8: an obsolete (#~) entry with the same msgid as the entry at line 5: 'a'; delete the #~ entry")
    assert _po_error(HEADER + '#~| msgid "b"\n' + obsolete) == (
        "fr.po:5: a #~| line (the former msgid of an obsolete entry), which Babel cannot read: delete it")


def test_po_plural_message_with_more_forms_than_the_language_has_fails_at_the_extra_one():
    forms = "".join(f'msgstr[{index}] "f{index}"\n' for index in range(7))
    text = HEADER + 'msgid "a"\nmsgid_plural "as"\n' + forms
    with pytest.raises(BuildError, match=r"^ar\.po:13: msgstr\[6\]: the language has 6 plural forms, msgstr\[0\] "
                       r"to msgstr\[5\]; remove this one$"):
        check_po_syntax(text, "ar.po", plurals=6)
    check_po_syntax(text, "ar.po")  # without the number of forms, only their order is checked


def test_po_byte_order_mark_is_refused_with_the_fix():
    assert _po_error("\ufeff" + HEADER) == "fr.po:1: the file starts with a byte order mark (BOM): save it as UTF-8 without one"


@pytest.mark.parametrize(("entry", "line", "message"), [
    ('msgid "a"\n', 5, "msgid without a msgstr"),
    ('msgstr "a"\n', 5, "msgstr without a msgid before it"),
    ('msgid "a"\nmsgid "b"\nmsgstr "c"\n', 6, "a second msgid before the msgstr of the one at line 5"),
    ('msgid "a"\nmsgstr "b"\nmsgstr "c"\n', 7, "a second msgstr in the same entry"),
    ('msgid "a"\nmsgid_plural "as"\nmsgstr "b"\n', 7, "a message with msgid_plural needs msgstr[0]"),
    ('msgid "a"\nmsgid_plural "as"\nmsgstr[1] "b"\n', 7, "expected msgstr[0], found msgstr[1]"),
    ('msgid "a"\nmsgstr[0] "b"\n', 6, "msgstr[0] without a msgid_plural"),
    ('msgid "a"\n# note\nmsgstr "b"\n', 6, "a comment inside an entry"),
    ('"loose"\n', 5, "a string without msgid or msgstr before it"),
    ('msgid "a" x\nmsgstr "b"\n', 5, "text after the closing quote: 'x'"),
    ('msgid a\nmsgstr "b"\n', 5, "expected a quoted string, found 'a'"),
    ('msgid "a"\nmsgstr "b\x00"\n', 6, "control character U+0000 in a string"),
    ('msgid "a"\nmsgstr "b"\nmsgid', 7, "cannot read this line"),
    ('msgctxt "x"\n\n', 5, "msgctxt without a msgid after it"),
])
def test_po_grammar_mistakes_fail_at_their_line(entry, line, message):
    assert _po_error(HEADER + entry).startswith(f"fr.po:{line}: {message}")


def test_po_header_must_say_utf8():
    header = 'msgid ""\nmsgstr ""\n"Language: fr\\n"\n"Content-Type: text/plain; charset=latin-1\\n"\n'
    assert _po_error(header) == ("fr.po:4: the header must say charset=UTF-8 (the file is read as UTF-8), "
                                 "not 'latin-1'")
    check_po_syntax(header.replace("latin-1", "UTF-8"), "fr.po")


def test_po_syntax_accepts_obsolete_entries_comments_and_continuations():
    check_po_syntax(HEADER + '# note\n#. extracted\n#: a.py:1\n#, fuzzy\n#| msgid "old"\nmsgid ""\n"a"\n'
                    'msgstr "b\\n\\t\\"\\\\"\n"c"\n\n#~ msgid "gone"\n#~ msgstr "parti"\n\n'
                    'msgid "x"\nmsgid_plural "xs"\nmsgstr[0] "y"\nmsgstr[1] "ys"\n', "fr.po")


def test_po_syntax_accepts_the_committed_catalogs():
    for path in sorted((REPO / "locales").rglob("*.po")) + sorted((REPO / "locales").glob("*.pot")):
        check_po_syntax(path.read_text(encoding="utf-8"), str(path))


@pytest.mark.parametrize(("old", "new", "message"), [
    ('msgstr "trèfle et *pique*"', 'msgstr "trèfle et *pique*', 'unterminated string'),
    ('msgstr "trèfle et *pique*"', 'msgstr "trèfle \\q *pique*"', "unknown escape \\q"),
    ('msgstr "Ordre des cartes"', 'msgstr "Ordre des cartes"\n\nmsgid "Card order"\nmsgstr "Encore"',
     "the same msgid as the entry at line"),
])
def test_broken_po_syntax_fails_the_build_at_its_line(project, old, new, message):
    catalog = project / "locales" / "fr" / "LC_MESSAGES" / "content.po"
    line = _edit(catalog, old, new) + (2 if "Encore" in new else 0)
    error = _error(project)
    match = ERROR_LINE.match(error + "\n")
    assert match and (match["path"], int(match["line"])) == ("locales/fr/LC_MESSAGES/content.po", line), error
    assert message in match["message"], error


def test_a_message_missing_from_a_catalog_is_untranslated_and_strict_refuses_it(project):
    catalog = project / "locales" / "fr" / "LC_MESSAGES" / "messages.po"
    text = catalog.read_text(encoding="utf-8")
    (project / "locales" / "messages.pot").write_text(text + '\nmsgid "Only in the template"\nmsgstr ""\n',
                                                      encoding="utf-8")
    error = _error(project, strict=True)
    assert error.startswith("locales/fr/LC_MESSAGES/messages.po:"), error
    assert "1 of them not in the catalog at all (run: klabsite i18n update)" in error, error
    status, _stdout, stderr = build_quietly(project)
    assert status == 0 and "warning: 1 untranslated" in stderr and "not in the catalog at all" in stderr, stderr


@pytest.mark.parametrize(("record", "tags", "message"), [
    ("klaberjass-capot.klab", '[Tags "capot"]',
     "[Tags] 'pit' is a Klaverjas word, and this is a Klaberjass deal: remove it"),
    ("klaverjas-pit.klab", '[Tags "bella pit blunder"]',
     "[Tags] 'nat' is not true of this deal (the record format says when each word is): remove it"),
])
def test_a_tag_word_the_gallery_would_show_falsely_is_refused_at_its_line(project, record, tags, message):
    """The gallery lists a deal under each word it knows as a fact ("pit: the playing side takes every
    trick"); a person's own words are kept."""
    wrong = {"klaberjass-capot.klab": '[Tags "capot my-best pit"]', "klaverjas-pit.klab": '[Tags "bella pit nat"]'}
    (project / "site_src" / "deals").mkdir()
    shutil.copy(REPO / "site_src" / "deals" / record, project / "site_src" / "deals")
    line = _edit(project / "site_src" / "deals" / record, tags, wrong[record])
    assert _error(project) == f"site_src/deals/{record}:{line}: {message}"


def test_a_persons_own_tag_words_are_kept_beside_the_true_ones(project):
    (project / "site_src" / "deals").mkdir()
    shutil.copy(REPO / "site_src" / "deals" / "klaberjass-capot.klab", project / "site_src" / "deals")
    _edit(project / "site_src" / "deals" / "klaberjass-capot.klab", '[Tags "capot"]', '[Tags "capot my-best"]')
    status, _, stderr = build_quietly(project, langs=["en"])
    assert status == 0, stderr


def test_blunder_is_kept_on_a_deal_without_analysis_and_refused_on_an_analysed_one(project):
    """record-format.md: blunder is a card whose dd cost is 20 or more: without dd annotations the
    cost is not known, so the word is the recorder's to give."""
    (project / "site_src" / "deals").mkdir()
    record = project / "site_src" / "deals" / "klaverjas-nat.klab"
    text = (REPO / "site_src" / "deals" / "klaverjas-nat.klab").read_text(encoding="utf-8")
    assert '[Tags "nat"]' in text and "{dd " in text, "deal 1 is analysed and no blunder"
    blunder = text.replace('[Tags "nat"]', '[Tags "nat blunder"]')
    record.write_text(re.sub(r" \{dd [^}]*\}", "", blunder), encoding="utf-8")
    status, _, stderr = build_quietly(project, langs=["en"])
    assert status == 0, stderr
    record.write_text(blunder, encoding="utf-8")
    assert "[Tags] 'blunder' is not true of this deal" in _error(project)


def test_a_source_folder_that_is_a_link_out_of_the_project_is_refused(project, tmp_path):
    """A ``docs/`` (or ``locales/``) replaced by a link to a folder elsewhere would publish that
    folder's files: the build reads only folders inside the project."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "record-format.md").write_text("# Private notes\n\nTOP SECRET\n", encoding="utf-8")
    docs = project / "docs"
    if docs.exists():
        shutil.rmtree(docs)
    docs.symlink_to(elsewhere, target_is_directory=True)
    error = _error(project)
    assert error.startswith("docs:1: a symbolic link to ") and "outside the project" in error, error


def test_a_file_name_that_is_not_utf8_is_one_line_naming_it(project):
    static = project / "site_src" / "static"
    static.mkdir(exist_ok=True)
    (static / os.fsdecode(b"icon\xff.svg")).write_text('<svg xmlns="http://www.w3.org/2000/svg"/>', encoding="utf-8")
    assert _error(project) == ("site_src/static/icon\\udcff.svg:1: a file name that is not UTF-8: rename it "
                               "(the site's addresses are UTF-8)")


def test_a_control_character_in_a_file_name_is_shown_escaped(project):
    deals = project / "site_src" / "deals"
    deals.mkdir(exist_ok=True)
    text = (REPO / "tests" / "fixtures" / "replays" / "kb.klab").read_text(encoding="utf-8")
    (deals / "ok\x1b[31mred.klab").write_text(text + "garbage\n", encoding="utf-8")
    error = _error(project)
    assert error.startswith("site_src/deals/ok\\x1b[31mred.klab:") and "\x1b" not in error, error


def test_a_control_character_anywhere_in_an_error_line_is_shown_escaped(project):
    """In the message too, not only in the leading file name (here: --out)."""
    error = _error(project, out="locales/\x1b[31mx")
    assert "locales/\\x1b[31mx" in error and "\x1b" not in error, error


def test_a_source_folder_under_a_link_out_of_the_project_is_refused(project, tmp_path):
    """The link may be a folder above it (``src_dir = "x/site_src"`` with ``x`` a link elsewhere)."""
    elsewhere = tmp_path / "elsewhere"
    shutil.copytree(project / "site_src", elsewhere / "site_src")
    (project / "x").symlink_to(elsewhere, target_is_directory=True)
    (project / "site_src" / "site.toml").write_text('src_dir = "x/site_src"\n', encoding="utf-8")
    error = _error(project)
    assert error.startswith("x/site_src:1: a symbolic link to ") and "outside the project" in error, error


def test_a_source_folder_linked_out_after_a_build_is_refused_even_when_nothing_else_changed(project, tmp_path):
    assert build_quietly(project, langs=["en"])[0] == 0
    moved = tmp_path / "moved-docs"
    docs = project / "docs"
    docs.mkdir(exist_ok=True)
    shutil.move(docs, moved)
    docs.symlink_to(moved, target_is_directory=True)
    error = _error(project, langs=["en"])
    assert error.startswith("docs:1: a symbolic link to "), error
