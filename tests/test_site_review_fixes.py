"""The build bugs of the translation review, each fixed and kept fixed: summaries shown whole and
checked, no-break spaces in attributes, English code marked, no break inside an RTL isolate, card
runs left to right, card names without the suit symbol, the chooser and 404 in every language,
double full stops and "Next:" lines reported."""

from __future__ import annotations

import dataclasses
import re
from gettext import NullTranslations

import pytest

from klabsite.site.build import render
from klabsite.site.checks import double_stop
from klabsite.site.config import load_config
from klabsite.site.directives import render_directive
from klabsite.site.errors import BuildError
from klabsite.site.i18n import Localizer
from klabsite.site.loader import load_site
from klabsite.site.render import render_site
from tests.site_helpers import append_entry

LONG_EN = ("A summary that goes on and on about the cards, the tricks, the trumps, the points, the sequences, "
           "the bella, the last trick and everything else there is to say here.")
LONG_FR = ("Un résumé qui ne finit pas : les cartes, les plis, les atouts, les points, les suites, la belote, "
           "le dernier pli et tout le reste, sans oublier la fin de la partie et toutes les options.")


def _with_summary(project, summary: str):
    page = project / "site_src" / "rules" / "02-play.md"
    page.write_text(f"---\nsummary: {summary}\n---\n\n" + page.read_text(encoding="utf-8"), encoding="utf-8")
    return page


def test_a_summary_is_never_cut(project):
    _with_summary(project, "Short.")
    catalog = project / "locales" / "fr" / "LC_MESSAGES" / "content.po"
    append_entry(catalog, "Short.", LONG_FR)
    outputs, warnings = render(load_config(project))
    assert f'<meta name="description" content="{LONG_FR}">' in outputs["fr/play.html"].decode()
    assert f'<span class="entry-lead">{LONG_FR}</span>' in outputs["fr/index.html"].decode()
    assert any(f"the summary is {len(LONG_FR)} characters long" in warning for warning in warnings)


@pytest.mark.parametrize("lang", ["fr", "es", "hr", "ar"])
def test_a_summary_too_long_in_a_translation_fails_a_strict_build_at_its_po_line(project, lang):
    _with_summary(project, "Short.")
    catalog = project / "locales" / lang / "LC_MESSAGES" / "content.po"
    line = append_entry(catalog, "Short.", LONG_FR)
    site = load_site(load_config(project))  # the fixture's catalogs are incomplete: load, then be strict
    strict = dataclasses.replace(site, config=dataclasses.replace(site.config, strict=True))
    with pytest.raises(BuildError) as raised:
        render_site(strict)
    assert str(raised.value).startswith(f"locales/{lang}/LC_MESSAGES/content.po:{line}: the summary is "
                                        f"{len(LONG_FR)} characters long")


def test_a_summary_too_long_in_english_is_reported_at_its_markdown_line(project):
    _with_summary(project, LONG_EN)
    outputs, warnings = render(load_config(project))
    assert f"site_src/rules/02-play.md:2: warning: the summary is {len(LONG_EN)} characters long: at most " \
           "160, as it is shown whole (home page, search engines)" in warnings
    assert LONG_EN in outputs["en/play.html"].decode()


def test_no_break_spaces_stay_in_attributes():
    class French(Localizer):
        def gettext(self, message, **variables):
            if message == "Points in the cards":
                return "Points des cartes\u00a0: total"
            return super().gettext(message, **variables)

    html = render_directive(French("fr", Localizer.untranslated("fr").translations), "card-points", {})
    assert 'aria-label="Points des cartes\u00a0: total"' in html


def test_the_real_french_pages_keep_their_no_break_spaces_in_aria_labels(project):
    outputs, _ = render(load_config(project))
    for path, data in outputs.items():
        if path.startswith("fr/") and path.endswith(".html"):
            for label in re.findall(r'aria-label="([^"]*)"', data.decode()):
                assert " :" not in label, (path, label)


def test_code_is_marked_english_on_other_pages(project):
    page = project / "site_src" / "rules" / "02-play.md"
    page.write_text(page.read_text(encoding="utf-8") + "\nSay `nobella` and `N`.\n", encoding="utf-8")
    outputs, _ = render(load_config(project))
    assert '<code lang="en"><span>nobella</span></code>' in outputs["fr/play.html"].decode()
    assert '<code><span>nobella</span></code>' in outputs["en/play.html"].decode()
    assert '<code dir="ltr" lang="en"><span>nobella</span></code>' in outputs["ar/play.html"].decode()


def test_arabic_code_has_no_break_inside_its_isolate(project):
    page = project / "site_src" / "rules" / "02-play.md"
    page.write_text(page.read_text(encoding="utf-8") + "\nThe rules (`trick-rules=amsterdam`).\n", encoding="utf-8")
    outputs, _ = render(load_config(project))
    english, arabic = outputs["en/play.html"].decode(), outputs["ar/play.html"].decode()
    assert "(<code><span>trick-rules=</span><wbr><span>amsterdam</span></code>)" in english
    assert '(<code dir="ltr" lang="en"><span>trick-rules=amsterdam</span></code>)' in arabic


@pytest.mark.parametrize("name", ["meld-comparison", "trick-rules", "roem"])
def test_a_run_of_cards_is_left_to_right_in_arabic(name):
    html = render_directive(Localizer.untranslated("ar"), name, {})
    runs = re.findall(r'<span class="card-run" dir="ltr">', html)
    assert runs, "several cards are one left-to-right fragment"
    english = render_directive(Localizer.untranslated("en"), name, {})
    assert "card-run" not in english


def test_card_names_do_not_repeat_the_suit_symbol(project):
    outputs, _ = render(load_config(project))
    labels = set()
    for path, data in outputs.items():
        if path.startswith("ar/") and path.endswith(".html"):
            labels |= set(re.findall(r'class="card [^"]*" role="img" aria-label="([^"]*)"', data.decode()))
    assert labels and not any(symbol in label for label in labels for symbol in "♣♦♥♠")


class _ArabicSuits(NullTranslations):
    """English words, but the Arabic suit names, which carry the suit's symbol."""

    def pgettext(self, context: str, message: str) -> str:
        return {"hearts": "الكبّة ♥", "spades": "البستوني ♠"}.get(message, message) if context == "suit" else message


@pytest.mark.parametrize("name", ["roem", "trick-rules"])
def test_region_names_do_not_repeat_the_suit_symbol(name):
    html = render_directive(Localizer("ar", _ArabicSuits()), name, {})
    caption = re.search(r"<caption>(.*?)</caption>", html, re.DOTALL)
    region = re.search(r'role="region" aria-label="([^"]*)"', html)
    assert caption and region
    assert re.search(r"الكبّة ♥|البستوني ♠", caption.group(1)), "the caption shows the suit with its symbol"
    assert re.search(r"الكبّة|البستوني", region.group(1))
    assert not re.search(r"[♣♦♥♠]", region.group(1)), "the region's name says the suit once"


def test_chooser_and_404_show_each_languages_line_in_that_language(project):
    append_entry(project / "locales" / "fr" / "LC_MESSAGES" / "messages.po", "Choose your language.",
                 "Choisissez votre langue.")
    outputs, _ = render(load_config(project))
    chooser = outputs["index.html"].decode()
    lines = re.findall(r'<li lang="([a-z]+)" dir="(ltr|rtl)">([^<]+)</li>', chooser)
    assert [lang for lang, _, _ in lines] == ["en", "fr", "es", "hr", "ar"]
    assert dict((lang, direction) for lang, direction, _ in lines)["ar"] == "rtl"
    assert len({text for _, _, text in lines}) > 1, "each line in its own language"
    notfound = outputs["404.html"].decode()
    title = re.search(r"<h1>(.*?)</h1>", notfound).group(1)
    assert re.findall(r'<span lang="([a-z]+)" dir="(?:ltr|rtl)">', title) == ["en", "fr", "es", "hr", "ar"]
    assert ". Cette" not in notfound and "introuvable." not in notfound, "no stop added after a title"


def test_double_stops_and_next_lines_are_reported_at_their_line(project):
    page = project / "site_src" / "rules" / "01-basics.md"
    page.write_text(page.read_text(encoding="utf-8") + '\nHe says "Good.".\n\nNext: [the play](02-play.md).\n',
                    encoding="utf-8")
    lines = page.read_text(encoding="utf-8").split("\n")
    _, warnings = render(load_config(project))
    stop = lines.index('He says "Good.".') + 1
    pager = lines.index("Next: [the play](02-play.md).") + 1
    assert f"site_src/rules/01-basics.md:{stop}: warning: a quoted phrase that ends with a stop takes no " \
           "second one: 'Good.\".'" in warnings
    assert any(warning.startswith(f"site_src/rules/01-basics.md:{pager}: warning: this paragraph repeats the "
                                  "pager") for warning in warnings)


@pytest.mark.parametrize(("text", "found"), [
    ('He says "Good.". Then', 'Good.".'),
    ("Elle dit « Bon. ». Puis", None),
    ("She said ‘Pass.’.", "‘Pass.’."),
    ("x “Go.”**. y", "Go.”**."),
    ("a" * 200_000 + ".", None),  # a long word: read once, not once a letter (a stalled build before)
    ("a" * 200_000 + '."."', "a" * 200_000 + '."' + "."),
])
def test_a_double_stop_is_found_with_the_word_before_it(text, found):
    assert double_stop(text) == found
