"""The glossary page (an anchor per term, sorted A–Z in each language) and the rules pages' links
to the first use of each term; the § link of every heading."""

from __future__ import annotations

import re

from klabsite.site.build import render
from klabsite.site.config import load_config
from klabsite.site.glossary import sort_key, term_pattern
from klabsite.site.markdown_ext import DocumentContext, convert

GLOSSARY = """# Glossary

- **Trump suit**: the suit chosen.
- **Dealer**: the player who deals.
- **A trump**: a card of the trump suit.
- **Trick**: one card from each player.
- **"Good."**: the answer.
"""

TRANSLATIONS = {
    "**Trump suit**: the suit chosen.": "**Couleur d’atout** : la couleur choisie.",
    "**Dealer**: the player who deals.": "**Donneur** : celui qui distribue.",
    "**A trump**: a card of the trump suit.": "**Atout** : une carte de la couleur d’atout.",
    "**Trick**: one card from each player.": "**Pli** : une carte de chaque joueur.",
}


def _glossary(lang: str = "en"):
    translate = TRANSLATIONS.get if lang != "en" else (lambda msgid: None)
    return convert(GLOSSARY, DocumentContext("08-glossary.md", lang=lang, translate=translate, glossary=True))


def test_every_glossary_entry_has_an_anchor_from_its_english_term():
    for lang in ("en", "fr"):
        html = _glossary(lang).html
        ids = re.findall(r'<li class="term" id="([^"]+)"', html)
        assert sorted(ids) == ["term-a-trump", "term-dealer", "term-good", "term-trick", "term-trump-suit"]


def test_glossary_entries_are_sorted_a_to_z_in_the_pages_language():
    english = [term for _, term in _glossary("en").terms]
    assert english == ["A trump", "Dealer", '"Good."', "Trick", "Trump suit"]
    french = [term for _, term in _glossary("fr").terms]
    assert french == ["Atout", "Couleur d’atout", "Donneur", '"Good."', "Pli"]
    html = _glossary("fr").html
    assert html.index('id="term-a-trump"') < html.index('id="term-trump-suit"') < html.index('id="term-dealer"')


def test_sorting_ignores_accents_case_quotes_and_the_arabic_article():
    assert sorted(["Élan", "ecart", "Eb"], key=lambda term: sort_key(term, "fr")) == ["Eb", "ecart", "Élan"]
    assert sort_key("«Bonne»", "fr")[0] == "bonne" and sort_key("الحكم", "ar")[0] == "حكم"


def test_a_list_that_is_not_all_terms_is_left_as_written():
    html = convert("# G\n\n- **B**: b\n- plain item\n- **A**: a\n", DocumentContext("g.md", glossary=True)).html
    assert 'class="term"' not in html and html.index("B</strong>") < html.index("A</strong>")


TERMS = [("term-trump", "Trump"), ("term-trump-suit", "Trump suit"), ("term-trick", "Trick"),
         ("term-dealer", "Dealer"), ("term-good", '"Good."'), ("term-ace", "Ace, king")]


def _page(source: str, lang: str = "en") -> str:
    return convert(source, DocumentContext("p.md", lang=lang, glossary_href="glossary.html", terms=TERMS)).html


def test_the_first_use_of_each_term_links_to_the_glossary_and_only_the_first():
    html = _page("# P\n\nThe dealer names the trump suit. The dealer wins a trick, then tricks.\n")
    links = re.findall(r'<a class="term-link" href="glossary.html#([^"]+)">([^<]+)</a>', html)
    assert links == [("term-dealer", "dealer"), ("term-trump-suit", "trump suit"), ("term-trick", "trick")]


def test_terms_are_never_linked_in_headings_links_code_or_table_headers():
    source = ("# P\n\n## The dealer\n\nSee [the dealer](p.md) and `trump`.\n\n"
              "| Trick | Points |\n|---|---|\n| dealer | 1 |\n\nA trump and a trick.\n")
    html = convert(source, DocumentContext("p.md", glossary_href="glossary.html", terms=TERMS,
                                           page_links={"p.md": "p.html"})).html
    assert "<h2" in html and 'term-link' not in html.split("<h2")[1].split("</h2>")[0]
    assert '<th>Trick</th>' in html, "not in a table header"
    assert '<td><a class="term-link" href="glossary.html#term-dealer">dealer</a></td>' in html, \
        "a table cell is prose: the first use there links"
    assert "<code><span>trump</span></code>" in html
    assert html.endswith('<p>A <a class="term-link" href="glossary.html#term-trump">trump</a> and a '
                         '<a class="term-link" href="glossary.html#term-trick">trick</a>.</p>')


def test_phrases_and_groups_are_not_looked_for():
    pattern, ids = term_pattern(TERMS, "en")
    assert "ace, king" not in ids and '"good."' not in ids and pattern is not None


def test_headings_get_a_section_link_with_an_accessible_name():
    html = convert("# T\n\n## Tricks\n\nText.\n", DocumentContext("t.md", anchor_label="Lien vers cette section")).html
    assert html.startswith('<h2 id="tricks">Tricks <a aria-label="Lien vers cette section" class="heading-anchor" '
                           'href="#tricks">§</a></h2>')


def test_the_built_glossary_and_pages_link_up(project):
    glossary = project / "site_src" / "rules" / "03-glossary.md"
    glossary.write_text("# Glossary\n\n- **Non-dealer**: the other player.\n- **Card**: one of 32.\n",
                        encoding="utf-8")
    outputs, _ = render(load_config(project))
    page = outputs["en/play.html"].decode()
    assert '<a class="term-link" href="glossary.html#term-non-dealer">non-dealer</a>' in page
    built = outputs["en/glossary.html"].decode()
    assert re.findall(r'<li class="term" id="([^"]+)">', built) == ["term-card", "term-non-dealer"]
    assert 'class="term-link"' not in built, "the glossary does not link to itself"


HEADED = """# Glossary

Intro.

## D

### Dealer

The player who deals.

## T

### Trick

One card from each player.

### Trump suit

The suit chosen.
"""

HEADED_FR = {"Dealer": "Donneur", "Trick": "Pli", "Trump suit": "Couleur d’atout",
             "The player who deals.": "Celui qui distribue.", "One card from each player.": "Une carte de chacun.",
             "The suit chosen.": "La couleur choisie."}


def test_a_glossary_of_headed_entries_is_sorted_under_letters_of_the_pages_language():
    french = convert(HEADED, DocumentContext("08-glossary.md", lang="fr", translate=HEADED_FR.get, glossary=True))
    assert [term for _, term in french.terms] == ["Couleur d’atout", "Donneur", "Pli"]
    letters = re.findall(r'<h2 class="letter" id="([^"]+)">([^<]+)</h2>', french.html)
    assert letters == [("letter-c", "C"), ("letter-d", "D"), ("letter-p", "P")]
    html = french.html
    assert html.index("Couleur d’atout") < html.index("La couleur choisie.") < html.index("Donneur")
    assert html.index("Intro.") < html.index('id="letter-c"'), "what comes before the first letter stays first"
    assert '<h3 class="term" id="trump-suit"' in html, "entries keep the id of their English heading"
