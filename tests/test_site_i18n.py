"""Catalogs and the Localizer: plural headers, plural forms, unsafe translations, missing catalogs."""

from __future__ import annotations

import io
import re
import shutil
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from babel.plural import to_python
from markupsafe import Markup

from klabsite.cli import main
from klabsite.engine.cards import Card
from klabsite.engine.seats import Seat
from klabsite.files import locked
from klabsite.site import i18n_tools
from klabsite.site.catalogs import (
    DOMAINS,
    PLURAL_FORMS,
    catalog_stats,
    check_catalog,
    compile_catalog,
    fix_plural_header,
    plural_index,
    read_catalog,
)
from klabsite.site.config import load_config
from klabsite.site.directives import DIRECTIVES
from klabsite.site.errors import BuildError
from klabsite.site.i18n import Localizer
from klabsite.site.views import blocks, phrase

REPO = Path(__file__).resolve().parents[1]
TARGETS = ("fr", "es", "hr", "ar")


def _cldr_index(lang: str, n: int) -> int:
    """The position of n's CLDR plural category among the categories gettext has for lang."""
    locale = Locale.parse(lang)
    category = to_python(locale.plural_form)(n)
    order = [tag for tag in ("zero", "one", "two", "few", "many", "other") if tag in locale.plural_form.tags
             or tag == "other"]
    return order.index(category)


@pytest.mark.parametrize("lang", ["hr", "ar"])
def test_plural_forms_follow_cldr_order(lang):
    assert [plural_index(lang, n) for n in range(250)] == [_cldr_index(lang, n) for n in range(250)]


@pytest.mark.parametrize(("lang", "domain"), [(lang, domain) for lang in TARGETS for domain in DOMAINS])
def test_committed_catalogs_have_the_cldr_plural_header(lang, domain):
    path = REPO / "locales" / lang / "LC_MESSAGES" / f"{domain}.po"
    catalog = read_catalog(path, lang, str(path))
    assert catalog.plural_forms == PLURAL_FORMS[lang]
    check_catalog(catalog, str(path))


def test_arabic_header_is_the_standard_one():
    assert PLURAL_FORMS["ar"] == ("nplurals=6; plural=(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : "
                                  "n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5);")


def _po(lang: str, entries: list[tuple[object, object]], flags: dict[object, set[str]] | None = None) -> str:
    header = PLURAL_FORMS[lang]
    lines = ['msgid ""', 'msgstr ""', '"Content-Type: text/plain; charset=UTF-8\\n"',
             f'"Language: {lang}\\n"', f'"Plural-Forms: {header}\\n"', ""]
    for msgid, msgstr in entries:
        if flags and msgid in flags:
            lines.append("#, " + ", ".join(sorted(flags[msgid])))
        if isinstance(msgid, tuple):
            lines += [f'msgid "{msgid[0]}"', f'msgid_plural "{msgid[1]}"']
            lines += [f'msgstr[{i}] "{form}"' for i, form in enumerate(msgstr)]  # type: ignore[arg-type]
        else:
            lines += [f'msgid "{msgid}"', f'msgstr "{msgstr}"']
        lines.append("")
    return "\n".join(lines)


def _localizer(lang: str, entries) -> Localizer:
    catalog = read_po(io.StringIO(_po(lang, entries)), locale=lang)
    return Localizer(lang, compile_catalog(catalog, "messages"))


def test_croatian_has_three_plural_forms():
    forms = ("%(num)s bod", "%(num)s boda", "%(num)s bodova")
    loc = _localizer("hr", [(("%(num)s point", "%(num)s points"), forms)])
    words = {n: loc.ngettext("%(num)s point", "%(num)s points", n) for n in (1, 2, 5, 11, 21, 22, 25, 101)}
    assert words == {1: "1 bod", 2: "2 boda", 5: "5 bodova", 11: "11 bodova", 21: "21 bod", 22: "22 boda",
                     25: "25 bodova", 101: "101 bod"}


def test_arabic_has_six_plural_forms_in_cldr_order():
    forms = ("zero %(num)s", "one", "two", "few %(num)s", "many %(num)s", "other %(num)s")
    loc = _localizer("ar", [(("%(num)s trick", "%(num)s tricks"), forms)])
    numbers = (0, 1, 2, 3, 10, 11, 99, 100, 102, 103)
    got = {n: loc.ngettext("%(num)s trick", "%(num)s tricks", n) for n in numbers}
    assert got == {0: "zero 0", 1: "one", 2: "two", 3: "few 3", 10: "few 10", 11: "many 11", 99: "many 99",
                   100: "other 100", 102: "other 102", 103: "few 103"}


def test_numbers_are_formatted_per_language():
    assert [Localizer.untranslated(lang).number(1234.5) for lang in ("en", "fr", "es", "hr", "ar")] == [
        "1,234.5", "1\u202f234,5", "1234,5", "1.234,5", "1,234.5"]  # Spanish groups from five digits


def test_card_names_and_letters_are_localized():
    catalog = Catalog(locale="fr")
    catalog.add("queen", "dame", context="rank")
    catalog.add("hearts", "cœur", context="suit")
    catalog.add("%(rank)s of %(suit)s", "%(rank)s de %(suit)s", context="card name, e.g. queen of hearts")
    catalog.add("North", "Nord", context="seat")
    loc = Localizer("fr", compile_catalog(catalog, "messages"))
    assert loc.card_name(Card.parse("QH")) == "dame de cœur"
    assert str(loc.card(Card.parse("QH"))) == (
        '<span class="card card-h" role="img" aria-label="dame de cœur">D♥</span>')
    assert loc.seat_name(Seat.N) == "Nord"
    assert str(Localizer.untranslated("ar").card(Card.parse("TS"))) == (
        '<span class="card card-s" role="img" aria-label="ten of spades" dir="ltr">10♠</span>')


def _write(tmp_path: Path, lang: str, text: str) -> Path:
    path = tmp_path / "locales" / lang / "LC_MESSAGES" / "messages.po"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(("msgid", "msgstr", "problem"), [
    ("%(num)s points", "%(n)s points", "placeholders differ"),
    ("Built on {date}.", "Construit le.", "placeholders differ"),
    ("Hello %s", "Bonjour", "placeholders differ"),
    ("Built on %(date)s.", "Construit {x} le %(date)s.", "translation has %(date)s, {x} (msgid"),
    ("the **jack**", "le <b>valet</b>", "adds markup the source does not have: <b>"),
    ("see [x](a.md)", "voir [x](https://example.com)", "adds markup"),
    ("Matches", "Parties 100%", "write %% for a percent sign"),
    ("%(points)s points", "%(points)s points à 100%.", "write %% for a percent sign"),
    ("The trick.", "Le pli.\\n'Le pli.'", "a line break the source does not have"),
    ("Total", "To\u202etal", "the invisible control character U+202E: remove it"),
    ("Total", "Tot\\ral", "the invisible control character U+000D: remove it"),
    ("Trumps: %(cards)s", "Atouts\u2066 : %(cards)s", "an isolate (U+2066 to U+2068) not closed by U+2069"),
    ("Trumps: %(cards)s", "Atouts\u2069 : \u2066%(cards)s", "an isolate (U+2066 to U+2068) not closed by U+2069"),
])
def test_unsafe_translation_fails_at_its_po_line(tmp_path, msgid, msgstr, problem):
    path = _write(tmp_path, "fr", _po("fr", [("Fine", "Bien"), (msgid, msgstr)]))
    with pytest.raises(BuildError) as error:
        display = "locales/fr/LC_MESSAGES/messages.po"
        check_catalog(read_catalog(path, "fr", display), display)
    assert str(error.value).startswith("locales/fr/LC_MESSAGES/messages.po:10: ")
    assert problem in str(error.value)


def test_paired_isolates_and_direction_marks_are_kept_in_a_right_to_left_translation(tmp_path):
    path = _write(tmp_path, "ar", _po("ar", [("Fine", "حسن"), ("Trumps: %(cards)s", "الحكم: \u2066%(cards)s\u2069\u200f")]))
    display = "locales/ar/LC_MESSAGES/messages.po"
    check_catalog(read_catalog(path, "ar", display), display)


def test_a_percent_sign_is_doubled_in_formatted_messages_but_not_in_rules_prose(tmp_path):
    text = _po("fr", [("Matches", "Parties à 100 %%"), ("all points", "100 % des points"),
                      ("%(n)s points", "%(n)s points, 100%")])
    catalog = read_po(io.StringIO(text), locale="fr")
    with pytest.raises(BuildError, match=r"^messages\.po:\d+: placeholders differ .* write %% for a percent sign"):
        check_catalog(catalog, "messages.po")
    check_catalog(catalog, "content.po", formatted=False)


def test_a_doubled_percent_sign_shows_once_in_the_tables_the_program_draws():
    catalog = Catalog(locale="fr")
    catalog.add("Order", "Rang (100 %%)")
    catalog.add("Total", "Total (100 %%)")
    catalog.add("%(points)s with %(option)s", "%(points)s avec %(option)s (100 %%)")
    loc = Localizer("fr", compile_catalog(catalog, "messages"))
    assert loc.gettext("Order") == "Rang (100 %)"
    assert loc.gettext("%(points)s with %(option)s", points="90", option="x") == "90 avec x (100 %)"
    assert phrase(loc.gettext("%(points)s with %(option)s"), points="90", option="x").parts == (
        "90", " avec ", "x", " (100 %)")
    table = blocks(DIRECTIVES["card-order"](loc, {}))[0]
    assert "Rang (100 %)" in table.head and [row[0] for row in table.foot] == ["Total (100 %)"]


@pytest.mark.parametrize("msgstr", [
    "Voir [Wikipédia][britannica].", "Voir la [britannica].", "Voir [Wikipédia][wikipedia] et [Britannica][].",
    "[Wikipédia][wikipedia] [britannica]", "[A][britannica][wikipedia].", "[B][wikipedia]: voir [B][britannica].",
    "\\\\[britannica] [Wikipédia][wikipedia].", "\\`[D][britannica]\\` [Wikipédia][wikipedia].",
])
def test_a_translation_may_not_add_or_change_a_reference_link_of_the_rules_prose(msgstr):
    catalog = Catalog(locale="fr")
    catalog.add("See [Wikipedia][wikipedia].", msgstr, lineno=3)
    with pytest.raises(BuildError, match=r"^content\.po:3: translation adds markup the source does not have: "
                       r"reference link \[britannica\]"):
        check_catalog(catalog, "content.po", formatted=False, labels=frozenset({"wikipedia", "britannica"}))


def test_a_reference_link_before_a_colon_counts_and_a_word_in_brackets_no_page_defines_is_text():
    catalog = Catalog(locale="fr")
    catalog.add("[Klaberjass on Wikipedia][wikipedia]: the English article.",
                "[Klaberjass sur Wikipédia][wikipedia]\u00a0: l’article en anglais.", lineno=3)
    catalog.add("Use the [optional] rule.", "Utilisez la règle [facultative].", lineno=9)
    check_catalog(catalog, "content.po", formatted=False, labels=frozenset({"wikipedia", "britannica"}))
    with pytest.raises(BuildError, match=r"reference link \[facultative\]"):
        check_catalog(catalog, "content.po", formatted=False)  # without the pages' labels, every [word] counts


def test_a_translation_keeps_the_reference_links_of_the_rules_prose_and_may_write_brackets_in_code():
    catalog = Catalog(locale="fr")
    catalog.add("See [Wikipedia][wikipedia].", "Voir [Wikipédia] [Wikipedia] (`[Title]`) \\[sic\\].", lineno=3)
    check_catalog(catalog, "content.po", formatted=False)
    catalog.add("Tags such as [Title].", "Des balises comme [Titre].", lineno=9)  # a label no page defines
    check_catalog(catalog, "messages.po")  # the interface is not Markdown


def test_rules_prose_that_babel_takes_for_a_format_may_be_translated_with_a_percent_sign():
    catalog = Catalog(locale="fr")
    catalog.add("The maker needs 100% of his bid.", "Le preneur doit faire 100 % de son enchère.",
                flags=["python-format"], lineno=7)
    check_catalog(catalog, "content.po", formatted=False)
    with pytest.raises(BuildError):
        check_catalog(catalog, "messages.po")


def test_plural_form_may_drop_but_not_invent_placeholders(tmp_path):
    msgid = ("%(num)s trick", "%(num)s tricks")
    ok = _po("ar", [(msgid, ("zero", "one", "two", "%(num)s", "%(num)s", "%(num)s"))])
    check_catalog(read_po(io.StringIO(ok), locale="ar"), "ar.po")
    bad = _po("ar", [(msgid, ("zero", "one", "two", "%(n)s", "%(num)s", "%(num)s"))])
    with pytest.raises(BuildError, match="placeholders differ"):
        check_catalog(read_po(io.StringIO(bad), locale="ar"), "ar.po")


def test_missing_catalog_is_an_error(tmp_path):
    with pytest.raises(BuildError, match=r"^locales/hr/LC_MESSAGES/messages\.po:1: missing catalog for 'hr'"):
        read_catalog(tmp_path / "nothing.po", "hr", "locales/hr/LC_MESSAGES/messages.po")


def test_wrong_plural_header_is_an_error(tmp_path):
    text = _po("ar", [("a", "b")]).replace(PLURAL_FORMS["ar"], "nplurals=2; plural=(n != 1);")
    path = _write(tmp_path, "ar", text)
    with pytest.raises(BuildError, match="Plural-Forms header must be"):
        read_catalog(path, "ar", "ar.po")


def _with_header(lang: str, header: str, value: str) -> tuple[str, int]:
    """A one-message catalog of ``lang`` whose header field ``header`` reads ``value``, and that
    field's line."""
    lines = _po(lang if lang in PLURAL_FORMS else "es", [("a", "b")]).split("\n")
    index = next(index for index, line in enumerate(lines) if line.startswith(f'"{header}:'))
    lines[index] = f'"{header}: {value}\\n"'
    return "\n".join(lines), index + 1


@pytest.mark.parametrize(("lang", "header", "value", "fix"), [
    ("ar", "Plural-Forms", "nplurals=99999999999999999999; plural=0;", "klabsite i18n update"),  # Babel: no memory
    ("fr", "Plural-Forms", "nplurals=x; plural=(;", "klabsite i18n update"),
    ("ar", "Plural-Forms", "", "klabsite i18n update"),
    ("fr", "Language", "<x>", 'write "Language: fr'),
    ("de", "Plural-Forms", "nplurals=100000000; plural=0;", "nplurals=N;' with N from 1 to 6"),  # no header known
])
def test_a_broken_catalog_header_is_one_line_naming_its_line_and_the_fix(tmp_path, lang, header, value, fix):
    text, line = _with_header(lang, header, value)
    with pytest.raises(BuildError) as raised:
        read_catalog(_write(tmp_path, lang, text), lang, "x.po")
    message = str(raised.value)
    assert message.startswith(f"x.po:{line}: ") and "\n" not in message and fix in message, message


def test_update_reads_a_catalog_whose_plural_header_it_will_rewrite(tmp_path):
    text = _po("ar", [("a", "b")]).replace(PLURAL_FORMS["ar"], "nplurals=99999999999999999999; plural=0;")
    catalog = read_catalog(_write(tmp_path, "ar", text), "ar", "ar.po", plural_header=False)
    assert catalog.num_plurals == 6


def test_status_counts_empty_plural_entries_as_untranslated():
    text = _po("hr", [("a", "b"), ("c", ""), (("x", "xs"), ("", "", "")), (("y", "ys"), ("y1", "y2", "y3")),
                      ("f", "g")], flags={"f": {"fuzzy"}})
    stats = catalog_stats(read_po(io.StringIO(text), locale="hr"))
    assert (stats.translated, stats.fuzzy, stats.untranslated) == (2, 1, 2)
    assert stats.percent == 40.0


def test_a_catalog_missing_one_message_of_many_is_not_shown_as_100_percent():
    text = _po("fr", [(f"m{number}", f"t{number}") for number in range(395)])
    template = read_po(io.StringIO(text + '\nmsgid "new"\nmsgstr ""\n'))
    stats = catalog_stats(read_po(io.StringIO(text), locale="fr"), template)
    assert (stats.translated, stats.untranslated, stats.missing, stats.percent) == (395, 1, 1, 99.0)


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    shutil.copytree(REPO / "tests" / "fixtures" / "site" / "rules", root / "site_src" / "rules")
    shutil.copytree(REPO / "site_src" / "templates", root / "site_src" / "templates")
    for name in ("babel.cfg", "babel-content.cfg"):
        shutil.copy(REPO / name, root / name)
    (root / "klabsite" / "site").mkdir(parents=True)
    (root / "klabsite" / "site" / "strings.py").write_text('loc.gettext("From Python")\n', encoding="utf-8")
    return root


def test_extract_update_check_and_status_round_trip(tmp_path, capsys):
    root = _project(tmp_path)
    config = load_config(root)
    assert i18n_tools.extract(config) == 0
    messages = (root / "locales" / "messages.pot").read_text(encoding="utf-8")
    assert 'msgid "From Python"' in messages and "#: site_src/templates/base.html:" in messages
    content = (root / "locales" / "content.pot").read_text(encoding="utf-8")
    assert "#: site_src/rules/01-basics.md:3" in content and 'msgid "clubs and *spades*"' in content
    assert "#. a list of the suits" in content
    assert i18n_tools.update(config) == 0
    for lang in TARGETS:
        catalog = read_catalog(root / "locales" / lang / "LC_MESSAGES" / "content.po", lang, lang)
        assert catalog.plural_forms == PLURAL_FORMS[lang]
    assert i18n_tools.update(config, check=True) == 0
    page = root / "site_src" / "rules" / "02-play.md"
    page.write_text(page.read_text(encoding="utf-8") + "\nA new paragraph.\n", encoding="utf-8")
    capsys.readouterr()
    assert i18n_tools.update(config, check=True) == 1, "the sources are newer than the templates"
    assert "content.pot: out of date (1 new, 0 no longer used" in capsys.readouterr().err
    assert i18n_tools.extract(config) == 0
    assert i18n_tools.update(config, check=True) == 1
    capsys.readouterr()
    assert i18n_tools.status(config) == 0
    out = capsys.readouterr().out
    assert "fr    content" in out and "0%" in out


def test_update_drops_a_message_gone_from_the_sources_even_when_it_comes_back(tmp_path):
    root = _project(tmp_path)
    config = load_config(root)
    strings = root / "klabsite" / "site" / "strings.py"
    catalog = root / "locales" / "fr" / "LC_MESSAGES" / "messages.po"
    for source in ('loc.gettext("From Python")\nloc.gettext("Gone")\n', 'loc.gettext("From Python")\n',
                   'loc.gettext("From Python")\nloc.gettext("Gone")\n'):
        strings.write_text(source, encoding="utf-8")
        assert i18n_tools.extract(config) == 0 and i18n_tools.update(config) == 0
        text = catalog.read_text(encoding="utf-8")
        assert "#~" not in text and text.count('msgid "Gone"') == source.count("Gone")


@pytest.mark.parametrize(("broken", "says"), [
    ('msgstr "unterminated\n', "fr/LC_MESSAGES/messages.po:"),
    ("msgstr Depuis Python\n", "fr/LC_MESSAGES/messages.po:"),
    ("\n", "fr/LC_MESSAGES/messages.po:"),  # the msgstr line gone
])
def test_update_refuses_a_malformed_catalog_and_changes_nothing(tmp_path, capsys, broken, says):
    root = _project(tmp_path)
    config = load_config(root)
    assert i18n_tools.extract(config) == 0 and i18n_tools.update(config) == 0
    catalog = root / "locales" / "fr" / "LC_MESSAGES" / "messages.po"
    text = catalog.read_text(encoding="utf-8")
    start = text.index('msgid "From Python"\n') + len('msgid "From Python"\n')
    end = text.index("\n", start) + 1
    catalog.write_text(text[:start] + broken + text[end:], encoding="utf-8")
    before = {path: path.read_bytes() for path in (root / "locales").rglob("*.po")}
    capsys.readouterr()
    assert i18n_tools.update(config) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and says in err and err.endswith("(nothing was updated)"), err
    assert re.search(r"messages\.po:\d+:", err), err
    assert {path: path.read_bytes() for path in before} == before


def test_the_shipped_catalogs_hold_no_obsolete_entry():
    for catalog in sorted((REPO / "locales").glob("*/LC_MESSAGES/*.po")):
        assert "\n#~ " not in catalog.read_text(encoding="utf-8"), catalog


def test_extract_check_finds_a_template_older_than_its_sources(tmp_path, capsys):
    root = _project(tmp_path)
    config = load_config(root)
    assert i18n_tools.extract(config) == 0
    before = (root / "locales" / "messages.pot").read_bytes()
    assert i18n_tools.extract(config, check=True) == 0
    base = root / "site_src" / "templates" / "base.html"
    base.write_text(base.read_text(encoding="utf-8") + "{{ _('A new interface string') }}\n", encoding="utf-8")
    capsys.readouterr()
    assert i18n_tools.extract(config, check=True) == 1
    assert "messages.pot: out of date (1 new, 0 no longer used" in capsys.readouterr().err
    assert (root / "locales" / "messages.pot").read_bytes() == before, "--check changes nothing"


def test_extraction_fails_on_a_broken_template(tmp_path):
    root = _project(tmp_path)
    (root / "site_src" / "templates" / "broken.html").write_text("{% trans %}unclosed", encoding="utf-8")
    assert i18n_tools.extract(load_config(root)) != 0


def test_lists_are_joined_with_the_languages_words_and_stay_escaped():
    items = [Markup("<code>a</code>"), "<b>", "c"]
    assert Localizer.untranslated("en").join(items) == "<code>a</code>, &lt;b&gt;, and c"
    assert Localizer.untranslated("fr").join(items, "or") == "<code>a</code>, &lt;b&gt; ou c"
    assert Localizer.untranslated("hr").join(items[:2]) == "<code>a</code> i &lt;b&gt;"
    assert Localizer.untranslated("es").join([]) == ""


def test_spanish_writes_a_four_digit_number_whole_and_groups_from_five_digits():
    import gettext

    from klabsite.site.i18n import Localizer
    es = Localizer("es", gettext.NullTranslations())
    assert [es.number(n) for n in (162, 1504, 9999, 12345, 1234567)] == ["162", "1504", "9999", "12.345", "1.234.567"]
    fr = Localizer("fr", gettext.NullTranslations())
    assert fr.number(1504) == "1\u202f504"  # French groups from four digits


def test_extract_and_the_plural_header_fix_replace_a_file_whole_or_not_at_all(tmp_path, monkeypatch, capsys):
    root = _project(tmp_path)
    config = load_config(root)
    assert i18n_tools.extract(config) == 0 and i18n_tools.update(config) == 0
    strings = root / "klabsite" / "site" / "strings.py"
    strings.write_text('loc.gettext("From Python")\nloc.gettext("New")\n', encoding="utf-8")
    catalog = root / "locales" / "hr" / "LC_MESSAGES" / "messages.po"
    catalog.write_text(catalog.read_text(encoding="utf-8").replace(PLURAL_FORMS["hr"], "nplurals=2; plural=(n != 1);"),
                       encoding="utf-8")
    before = {path: path.read_bytes() for path in (root / "locales").rglob("*") if path.is_file()}

    def interrupted(source, target):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("os.replace", interrupted)
    with pytest.raises(OSError):
        i18n_tools.extract(config)
    with pytest.raises(OSError):
        fix_plural_header(catalog, "hr")
    capsys.readouterr()
    assert main(["i18n", "extract", "--root", str(root)]) == 1
    assert capsys.readouterr().err == "klabsite i18n extract: locales/messages.pot: No space left on device\n"
    after = {path: path.read_bytes() for path in (root / "locales").rglob("*") if path.is_file()}
    assert after == before
    monkeypatch.undo()
    assert i18n_tools.extract(config) == 0 and fix_plural_header(catalog, "hr")
    assert 'msgid "New"' in (root / "locales" / "messages.pot").read_text(encoding="utf-8")
    assert PLURAL_FORMS["hr"] in catalog.read_text(encoding="utf-8")


def test_extract_works_beside_the_templates_and_needs_no_temporary_folder(tmp_path, monkeypatch, capsys):
    root = _project(tmp_path)
    shutil.rmtree(root / "klabsite")  # as in a project of klabsite init: klabsite's own messages are added
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path / "no-such-temporary-folder"))
    assert i18n_tools.extract(load_config(root)) == 0
    messages = (root / "locales" / "messages.pot").read_text(encoding="utf-8")
    assert "#: klabsite/" in messages and "#: site_src/templates/base.html:" in messages
    assert sorted(path.name for path in (root / "locales").iterdir()) == ["content.pot", "messages.pot"]


@pytest.mark.parametrize("failing", ["fsync", "replace"])
def test_a_failed_extract_names_the_template_as_the_project_writes_it(tmp_path, monkeypatch, capsys, failing):
    root = _project(tmp_path)
    assert main(["i18n", "extract", "--root", str(root)]) == 0
    strings = root / "klabsite" / "site" / "strings.py"
    strings.write_text('loc.gettext("From Python")\nloc.gettext("New")\n', encoding="utf-8")
    before = (root / "locales" / "messages.pot").read_bytes()
    capsys.readouterr()

    def full(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(f"os.{failing}", full)
    assert main(["i18n", "extract", "--root", str(root)]) == 1
    monkeypatch.undo()
    assert capsys.readouterr().err == "klabsite i18n extract: locales/messages.pot: No space left on device\n"
    assert (root / "locales" / "messages.pot").read_bytes() == before
    assert sorted(path.name for path in (root / "locales").iterdir() if path.is_file()) == [
        "content.pot", "messages.pot"]


@pytest.mark.parametrize("action", ["extract", "update"])
def test_extract_and_update_remove_what_a_killed_run_left_and_nothing_else(tmp_path, capsys, action):
    root = _project(tmp_path)
    assert main(["i18n", "extract", "--root", str(root)]) == 0
    assert main(["i18n", "update", "--root", str(root)]) == 0
    locales, catalogs = root / "locales", root / "locales" / "fr" / "LC_MESSAGES"
    left = [locales / ".messages.pot.k2x_9q0a.tmp", locales / ".content.pot.abcdefgh.tmp",
            catalogs / "tmpmessages.po", catalogs / "tmpcontent.po"]
    kept = [locales / "notes.tmp", locales / ".messages.pot.short.tmp", catalogs / "tmp.po"]
    for path in left + kept:
        path.write_text("half written", encoding="utf-8")
    before = {path: path.read_bytes() for path in [*locales.glob("*.pot"), catalogs / "messages.po", catalogs / "content.po"]}
    assert main(["i18n", action, "--root", str(root)]) == 0
    assert not any(path.exists() for path in left)
    assert all(path.read_text(encoding="utf-8") == "half written" for path in kept)
    assert {path: path.read_bytes() for path in before} == before


def test_extract_and_update_wait_for_another_run_on_the_same_catalogs(tmp_path, monkeypatch, capsys):
    root = _project(tmp_path)
    assert main(["i18n", "extract", "--root", str(root)]) == 0
    capsys.readouterr()
    monkeypatch.setattr(locked.__wrapped__, "__defaults__", (0.05,))  # not 30 s
    with locked(root / "locales"):
        for action in ("extract", "update"):
            assert main(["i18n", action, "--root", str(root)]) == 1
            assert capsys.readouterr().err == (f"klabsite i18n {action}: locales: another klabsite command is "
                                               "changing files there; try again\n")
    assert not (root / "locales" / "fr").exists()
    assert main(["i18n", "update", "--root", str(root)]) == 0


def test_extract_check_changes_nothing_not_even_a_locales_folder(tmp_path, capsys):
    root = _project(tmp_path)
    assert i18n_tools.extract(load_config(root), check=True) == 1
    assert not (root / "locales").exists()


def test_a_template_babel_cannot_write_is_named_as_the_project_writes_it(tmp_path, monkeypatch, capsys):
    root = _project(tmp_path)
    real_open = open

    def failing(file, mode="r", *args, **kwargs):
        if str(file).endswith(".tmp") and "w" in mode:
            raise OSError(5, "Input/output error", str(file))
        return real_open(file, mode, *args, **kwargs)

    monkeypatch.setattr("builtins.open", failing)
    assert main(["i18n", "extract", "--root", str(root)]) == 1
    monkeypatch.undo()
    err = capsys.readouterr().err
    assert "'locales/messages.pot'" in err and ".tmp" not in err, err
    assert sorted(path.name for path in (root / "locales").iterdir()) == []


def test_extract_says_when_locales_is_a_file(tmp_path, capsys):
    root = _project(tmp_path)
    (root / "locales").write_text("not a folder", encoding="utf-8")
    assert i18n_tools.extract(load_config(root)) == 1
    assert capsys.readouterr().err == ("locales: not a folder; the catalogs live in a folder of that name "
                                       "(move the file away)\n")
