"""Markdown → translatable blocks, and the directive mechanism (klabsite.site.markdown_ext, .blocks)."""

from __future__ import annotations

import io
import re

import pytest
from babel.messages.extract import extract

from klabsite.engine.cards import Card
from klabsite.site.blocks import extract_blocks
from klabsite.site.errors import BuildError
from klabsite.site.i18n import Localizer
from klabsite.site.markdown_ext import TEMPLATE_IDS, DocumentContext, convert
from tests.site_helpers import REPO

SOURCE = """# The deal

The dealer gives **six** cards
to each player: see [bidding](02-bidding.md#first-round).

<!-- TRANSLATORS: keep the card letters -->
- the *upcard*
- the stock
    - nested item

| Card | Points |
|------|--------|
| `J` of trumps | 20 |

Term
:   Its definition.

```
[[klab:inside-code]]
```

    indented code

## Who deals?

[[klab:hand cards=JH]]

123
"""


def test_each_paragraph_item_heading_and_cell_is_one_message():
    blocks = extract_blocks(SOURCE)
    assert [(block.line, block.msgid) for block in blocks] == [
        (1, "The deal"),
        (3, "The dealer gives **six** cards to each player: see [bidding](02-bidding.md#first-round)."),
        (7, "the *upcard*"),
        (8, "the stock"),
        (9, "nested item"),
        (11, "Card"),
        (11, "Points"),
        (13, "`J` of trumps"),
        (15, "Term"),
        (16, "Its definition."),
        (24, "Who deals?"),
    ]


def test_translator_comments_are_attached_to_the_next_block():
    blocks = {block.msgid: block.comments for block in extract_blocks(SOURCE)}
    assert blocks["the *upcard*"] == ("keep the card letters",)
    assert blocks["the stock"] == ()


def test_babel_extractor_yields_the_same_blocks():
    messages = list(extract("klabsite.site.blocks:extract_markdown", io.BytesIO(SOURCE.encode())))
    assert [(line, message) for line, message, _comments, _context in messages] == [
        (block.line, block.msgid) for block in extract_blocks(SOURCE)]


def _hand(loc, args):
    return f"<p>{loc.card(Card.parse(args['cards']))}</p>"


def _context(**kwargs):
    defaults = {"path": "site_src/rules/01-deal.md", "page_links": {"02-bidding.md": "bidding.html"},
                "directives": {"hand": _hand}, "localizer": Localizer.untranslated("fr")}
    defaults.update(kwargs)
    return DocumentContext(**defaults)


def test_translation_replaces_the_block_and_keeps_inline_markdown():
    source = "The dealer gives **six** cards to each player: see [bidding](02-bidding.md#first-round)."
    translations = {"the *upcard*": "la *retourne*", "Who deals?": "Qui donne ?",
                    source: "Le donneur distribue **six** cartes : "
                            "voir [les enchères](02-bidding.md#first-round)."}
    document = convert(SOURCE, _context(lang="fr", translate=translations.get))
    assert ('<p>Le donneur distribue <strong>six</strong> cartes : voir '
            '<a href="bidding.html#first-round">les enchères</a>.</p>') in document.html
    assert "<li>la <em>retourne</em></li>" in document.html
    assert '<li lang="en">the stock' in document.html
    assert '<h2 id="who-deals">Qui donne ?</h2>' in document.html
    assert document.title == "The deal"
    assert (document.translated, document.total) == (3, 11)


def test_a_translated_block_inside_an_english_one_gets_its_language_back():
    document = convert(SOURCE, _context(lang="fr", translate={"nested item": "sous-élément"}.get))
    assert '<li lang="fr">sous-élément</li>' in document.html


def test_directive_html_is_inserted_unescaped_in_its_own_block():
    document = convert(SOURCE, _context(lang="fr"))
    assert ('<div class="klab klab-hand"><p><span class="card card-h" role="img" '
            'aria-label="jack of hearts">V♥</span></p></div>') in document.html
    assert "[[klab:inside-code]]" in document.html


def test_unknown_directive_is_an_error_with_file_and_line():
    with pytest.raises(BuildError) as error:
        convert(SOURCE, _context(directives={}))
    assert str(error.value).startswith("site_src/rules/01-deal.md:26: unknown directive 'hand'")


def test_directive_must_be_a_paragraph_of_its_own():
    with pytest.raises(BuildError, match=r"^x\.md:2: a directive must be a paragraph of its own"):
        convert("Text\n[[klab:hand cards=JH]]\n", _context(path="x.md"))


def test_a_directive_quoted_in_inline_code_is_text_not_a_directive():
    """Documentation may show the syntax; a directive beside the quote is still refused."""
    document = convert("Write `[[klab:see-deal tag=pit]]` on a line of its own.\n", _context(path="x.md"))
    assert "<code>[[klab:see-deal tag=pit]]</code>" in document.html
    with pytest.raises(BuildError, match=r"^x\.md:1: a directive must be a paragraph of its own"):
        convert("Write `[[klab:x]]` so: [[klab:hand cards=JH]]\n", _context(path="x.md"))


def test_directive_failure_is_reported_at_its_line():
    def broken(loc, args):
        raise ValueError("no such deal")

    with pytest.raises(BuildError, match=r"^x\.md:3: directive 'hand' failed: no such deal"):
        convert("Intro\n\n[[klab:hand]]\n", _context(path="x.md", directives={"hand": broken}))


def test_directive_arguments_are_key_value_pairs_with_quotes():
    seen = {}
    convert('[[klab:hand cards=JH title="two words"]]\n',
            _context(directives={"hand": lambda loc, args: seen.update(args) or "<p></p>"}))
    assert seen == {"cards": "JH", "title": "two words"}


def test_a_heading_never_takes_an_id_the_page_template_gives_its_own_elements():
    """"## Main" beside the skip link's target <main id="main"> would make the skip link jump to
    the heading, and two elements share an id."""
    document = convert("## Main\n\n## Toc heading\n\n## Page list heading\n\n## Rules\n", _context())
    assert [ident for _level, ident, _text in document.headings] == [
        "main-2", "toc-heading-2", "page-list-heading-2", "rules"]


def test_every_fixed_id_of_the_bundled_templates_is_kept_from_headings():
    templates = REPO / "site_src" / "templates"
    fixed = {ident for path in templates.rglob("*.html")
             for ident in re.findall(r'\bid="([^"{}]+)"', path.read_text(encoding="utf-8"))}
    assert fixed and fixed <= TEMPLATE_IDS, fixed - TEMPLATE_IDS


def test_explicit_and_duplicate_heading_ids():
    document = convert("## Play {#play}\n\n## Tricks\n\n## Tricks\n", _context())
    assert [ident for _level, ident, _text in document.headings] == ["play", "tricks", "tricks-2"]
    assert extract_blocks("## Play {#play}\n")[0].msgid == "Play"


def test_the_title_contents_and_ids_show_a_headings_words_as_its_body_does():
    doc = convert("# Scores `a<b` &lt; 6 &amp; <kbd>K</kbd> c\\*d\n\n## Sub &amp; <sub>2</sub> &lt;x&gt;\n\n"
                  "A &lt;b&gt; lead.\n", DocumentContext("x.md"))
    assert doc.title == "Scores a<b < 6 & K c*d"
    assert doc.headings == [(2, "sub-2-x", "Sub & 2 <x>")]
    assert doc.lead == "A <b> lead."
    assert '<h2 id="sub-2-x">Sub &amp; <sub>2</sub> &lt;x&gt;</h2>' in doc.html


def test_inline_code_in_a_right_to_left_title_and_contents_stays_left_to_right():
    source = "# سجلّ: صيغة `.klab`\n\n## ملف `game.klab`\n\nنص.\n"
    rtl = convert(source, DocumentContext("x.md", lang="ar", dir="rtl"))
    assert rtl.title == "سجلّ: صيغة \u2066.klab\u2069"
    assert rtl.headings == [(2, "gameklab", "ملف \u2066game.klab\u2069")]
    assert convert(source, DocumentContext("x.md")).title == "سجلّ: صيغة .klab", "only on a right-to-left page"


def test_link_to_an_unknown_page_is_an_error_at_its_line():
    with pytest.raises(BuildError, match=r"^x\.md:3: link to 'other\.md': no such rules page"):
        convert("Intro\n\nSee [x](other.md).\n", _context(path="x.md"))


def test_tables_scroll_in_their_own_labelled_region():
    document = convert("| a | b |\n|---|---|\n| 1 | 2 |\n", _context(table_label="Tableau"))
    assert document.html.startswith('<div aria-label="Tableau" class="table-wrap" role="region" tabindex="0">'
                                    "\n<table>")


FRONT = """---
summary: Who deals,
  and how many cards.
---

# The deal

The dealer gives six cards. Who deals?
"""


def test_front_matter_summary_is_a_message_with_a_note_for_translators():
    blocks = extract_blocks(FRONT)
    assert [(block.line, block.msgid) for block in blocks] == [
        (2, "Who deals, and how many cards."), (6, "The deal"), (8, "The dealer gives six cards. Who deals?")]
    assert "summary" in blocks[0].comments[0] and blocks[1].comments == ()


def test_front_matter_summary_is_translated_or_left_in_english():
    translations = {"Who deals, and how many cards.": "Qui donne, et *combien* de cartes."}
    document = convert(FRONT, _context(lang="fr", translate=translations.get))
    assert (document.summary, document.summary_lang) == ("Qui donne, et combien de cartes.", "fr")
    assert "summary" not in document.html and "<hr" not in document.html
    assert (document.translated, document.total) == (1, 3)
    english = convert(FRONT, _context(lang="fr"))
    assert (english.summary, english.summary_lang) == ("Who deals, and how many cards.", "en")
    assert convert(SOURCE, _context()).summary == ""


@pytest.mark.parametrize(("source", "message"), [
    ("---\nsummary: x\n\n# Title\n", "1: the front matter that starts here has no closing --- line"),
    ("---\ntitle: x\n---\n", "2: front matter: cannot read 'title: x'"),
    ("---\nsummary: x\nsummary: y\n---\n", "3: front matter: 'summary' is given twice"),
    ("---\nsummary:\n---\n", "2: front matter: the summary is empty"),
])
def test_bad_front_matter_is_an_error_at_its_line(source, message):
    with pytest.raises(BuildError, match=f"01-deal.md:{message}"):
        convert(source, _context())


def test_front_matter_keeps_the_line_numbers_of_later_blocks():
    source = "---\nsummary: Links.\n---\n\nSee [x](nowhere.md).\n"
    with pytest.raises(BuildError, match="01-deal.md:5: link to 'nowhere.md'"):
        convert(source, _context())


def test_code_spans_are_english_isolated_left_to_right_and_unbroken_on_right_to_left_pages():
    source = "With `deals=N`, `target=500`.\n"
    arabic = convert(source, _context(lang="ar", dir="rtl", translate={source.strip(): "مع `deals=N`، `target=500`."}.get))
    assert arabic.html == ('<p>مع <code dir="ltr" lang="en"><span>deals=N</span></code>، '
                           '<code dir="ltr" lang="en"><span>target=500</span></code>.</p>')


def test_inline_options_break_only_after_the_equals_sign():
    source = "Set `equal-meld=neither` or `long-sequence`; `a < b` and fenced code stay as they are.\n"
    html = convert(source + "\n```\nx=1\n```\n", _context(lang="fr")).html
    assert '<code lang="en"><span>equal-meld=</span><wbr><span>neither</span></code>' in html
    assert '<code lang="en"><span>long-sequence</span></code>' in html
    assert '<code lang="en">a &lt; b</code>' in html and '<pre tabindex="0" lang="en"><code>x=1' in html


def test_a_code_block_under_a_heading_is_a_region_named_after_it():
    source = "## Worked *example*\n\n```\nx=1\n```\n\n```\ny=2\n```\n\n## Next\n\n```\nz=3\n```\n"
    html = convert(source, _context()).html
    assert re.findall(r'<pre tabindex="0" role="region" aria-label="([^"]*)">', html) == [
        "Worked example", "Worked example (2)", "Next"]


def test_a_code_block_is_english_and_left_to_right_on_every_other_page():
    source = "```sh\nklabsite check match.klab   # one line per deal\n```\n"
    assert convert(source, _context()).html.startswith('<pre tabindex="0"><code class="language-sh">')
    assert convert(source, _context(lang="fr")).html.startswith('<pre tabindex="0" lang="en"><code')
    assert convert(source, _context(lang="ar", dir="rtl")).html.startswith('<pre tabindex="0" lang="en" dir="ltr">')
