"""Markup lives in templates: the card component and the directives' tables are Jinja macros.

The card macro (``macros/cards.html``) is the one place a card glyph is written; the directives
hand plain values (:mod:`klabsite.site.views`) to ``macros/tables.html``, which escapes every
text; a project's own macros draw its pages; a missing or broken macro file is one error line.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import ClassVar

import jinja2
import pytest

from klabsite.engine.cards import Card, parse_cards
from klabsite.site import directives
from klabsite.site.build import render
from klabsite.site.components import bundled_components
from klabsite.site.config import load_config
from klabsite.site.errors import BuildError
from klabsite.site.i18n import Localizer
from klabsite.site.views import (
    Cards,
    CardView,
    Code,
    HeadGroup,
    Link,
    Note,
    Run,
    SideName,
    Strong,
    Table,
    Trick,
    phrase,
)
from tests.site_helpers import REPO

HOSTILE = 'a < b & "c" \'d\' <script>alert(1)</script>'
"""Text with every character that could end an element or an attribute."""

QUEEN_OF_HEARTS = CardView("h", "Q", "♥", "queen of hearts")


# The one card component -------------------------------------------------------------------------


def _source_files() -> list[Path]:
    """The package's Python files and every file of the default site's templates and static files."""
    return sorted([*(REPO / "klabsite").rglob("*.py"), *(REPO / "site_src" / "templates").rglob("*"),
                   *(REPO / "site_src" / "static").rglob("*")])


def test_the_card_macro_is_the_only_place_the_card_markup_is_written():
    writers = {path.relative_to(REPO).as_posix() for path in _source_files()
               if path.is_file() and path.suffix != ".png" and 'role="img"' in path.read_text(encoding="utf-8")}
    assert writers == {"site_src/templates/macros/cards.html"}


def test_directives_write_no_markup():
    """No string in directives.py (docstrings aside) holds a tag, and nothing there makes Markup."""
    tree = ast.parse(Path(directives.__file__).read_text(encoding="utf-8"))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef) and node.body
                  and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    tags = [node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)
            and isinstance(node.value, str) and id(node) not in docstrings and re.search(r"<[A-Za-z/]", node.value)]
    assert tags == []
    names = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import | ast.ImportFrom)
             for alias in node.names} | {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert not {"Markup", "escape", "markupsafe"} & names


def test_the_card_macro_draws_todays_markup():
    components = bundled_components()
    expected = '<span class="card card-h" role="img" aria-label="queen of hearts">Q♥</span>'
    assert str(components.card(QUEEN_OF_HEARTS)) == expected
    assert str(components.card(QUEEN_OF_HEARTS, "")) == expected
    assert str(components.card(QUEEN_OF_HEARTS, "is-played")) == expected.replace("card-h", "card-h is-played")
    assert str(Localizer.untranslated("en").card(Card.parse("QH"))) == expected


def test_the_card_macro_isolates_the_glyph_on_a_right_to_left_page():
    arabic = Localizer.untranslated("ar")
    assert arabic.card_view(Card.parse("TD")) == CardView("d", "10", "♦", "ten of diamonds", isolate=True)
    assert str(arabic.card(Card.parse("TD"))) == (
        '<span class="card card-d" role="img" aria-label="ten of diamonds" dir="ltr">10♦</span>')


def test_cards_are_separated_by_spaces_and_share_the_extra_class():
    french = Localizer.untranslated("fr")
    hand = parse_cards("JS AH")
    html = str(bundled_components().cards(french.card_views(hand), "is-held"))
    assert html == ('<span class="card card-s is-held" role="img" aria-label="jack of spades">V♠</span> '
                    '<span class="card card-h is-held" role="img" aria-label="ace of hearts">A♥</span>')
    assert str(french.cards(hand)) == html.replace(" is-held", "")


def test_templates_import_the_card_macro_with_its_documented_signature():
    env = bundled_components().environment
    template = env.from_string('{% from "macros/cards.html" import card %}{{ card(view, class="is-played") }}')
    assert template.render(view=QUEEN_OF_HEARTS) == str(bundled_components().card(QUEEN_OF_HEARTS, "is-played"))


# Escaping: no markup injection ------------------------------------------------------------------


class _Parsed(HTMLParser):
    """The tags, attributes and text of a fragment."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def test_table_texts_are_escaped_in_elements_and_attributes():
    table = Table(caption=Run((HOSTILE, SideName(HOSTILE))), head=(HOSTILE, Strong(HOSTILE)),
                  rows=((HOSTILE, Link(HOSTILE, HOSTILE)),), foot=((HOSTILE, Code((HOSTILE, HOSTILE))),),
                  css="options")
    html = str(bundled_components().render((table, Note((HOSTILE, HOSTILE)))))
    parsed = _Parsed(html)
    assert [tag for tag, _ in parsed.tags] == [
        "div", "table", "caption", "span", "thead", "tr", "th", "th", "strong", "tbody", "tr", "th", "td", "a",
        "tfoot", "tr", "th", "td", "code", "span", "wbr", "span", "p"]
    assert parsed.text == [HOSTILE] * 9 + [HOSTILE + " " + HOSTILE]
    attributes = dict(parsed.tags)
    assert attributes["div"]["aria-label"] == HOSTILE + HOSTILE  # the caption's text, tags and all escaped
    assert attributes["a"] == {"href": HOSTILE}
    assert "<script>" not in html and '"c"' not in html


def test_a_heading_over_two_columns_spans_them_over_a_second_row_and_the_others_span_both_rows():
    table = Table(caption="t", head=(HOSTILE, HeadGroup(Strong(HOSTILE), (HOSTILE, SideName(HOSTILE))), "after"),
                  rows=(("1", "2", "3", "4"),))
    parsed = _Parsed(str(bundled_components().render(table)))
    head = parsed.tags[parsed.tags.index(("thead", {})) + 1:parsed.tags.index(("tbody", {}))]
    assert head == [("tr", {}), ("th", {"scope": "col", "rowspan": "2"}),
                    ("th", {"scope": "col", "colspan": "2", "class": "group"}), ("strong", {}),
                    ("th", {"scope": "col", "rowspan": "2"}),
                    ("tr", {}), ("th", {"scope": "col"}), ("th", {"scope": "col"}), ("span", {"class": "side"})]
    assert parsed.text[1:6] == [HOSTILE, HOSTILE, "after", HOSTILE, HOSTILE]


def test_card_values_and_the_extra_class_are_escaped():
    card = CardView('h" onclick="x', "<b>", "&", HOSTILE)
    html = str(bundled_components().card(card, '" onmouseover="y'))
    parsed = _Parsed(html)
    assert parsed.tags == [("span", {"class": 'card card-h" onclick="x " onmouseover="y', "role": "img",
                                     "aria-label": HOSTILE})]
    assert parsed.text == ["<b>&"]


def test_trick_plays_and_separator_are_escaped():
    trick = Trick((phrase("%(card)s <partner>", card=QUEEN_OF_HEARTS), "& opponent"), separator="<;> ")
    html = str(bundled_components().render(Table("t", ("h",), ((trick,),))))
    assert ('<th scope="row"><span class="trick-play"><span class="card card-h" role="img" '
            'aria-label="queen of hearts">Q♥</span> &lt;partner&gt;</span>&lt;;&gt; '
            '<span class="trick-play">&amp; opponent</span></th>') in html


def test_a_cell_the_macros_do_not_know_is_an_error_not_an_empty_cell():
    @dataclass(frozen=True)
    class Unknown:
        kind: ClassVar[str] = "nonsense"

    with pytest.raises(jinja2.UndefinedError):
        bundled_components().render(Table("t", ("h",), ((Unknown(),),)))


def test_cards_cell_draws_the_card_component():
    cell = Cards((QUEEN_OF_HEARTS, QUEEN_OF_HEARTS))
    html = str(bundled_components().render(Table("t", ("h",), ((cell,),))))
    assert f'<th scope="row">{bundled_components().cards(cell.cards)}</th>' in html


# Phrases: a translation with cells in it --------------------------------------------------------


def test_a_phrase_is_the_template_with_its_parts_in_place():
    assert phrase("%(a)s and %(b)s, 100%%", a="x", b=Code(("y",))) == Run(("x", " and ", Code(("y",)), ", 100%"))
    assert phrase("no parts") == Run(("no parts",))


def test_a_phrase_fails_like_string_formatting():
    with pytest.raises(KeyError):
        phrase("%(missing)s", other="x")
    with pytest.raises(ValueError):
        phrase("50 % off")


# A project's own macros ------------------------------------------------------------------------


def _with_directive_page(project: Path) -> None:
    (project / "site_src" / "rules" / "03-tables.md").write_text(
        "# Tables\n\n[[klab:trick-rules]]\n", encoding="utf-8")


def test_a_projects_own_card_macro_draws_its_pages_and_directives(project):
    _with_directive_page(project)
    cards = project / "site_src" / "templates" / "macros" / "cards.html"
    cards.write_text(cards.read_text(encoding="utf-8").replace('<span class="card card-', '<span class="card mine card-'),
                     encoding="utf-8")
    outputs, _ = render(load_config(project))
    for page in ("en/index.html", "fr/basics.html", "ar/tables.html", "index.html", "404.html"):
        html = outputs[page].decode()
        assert 'class="card mine card-' in html and 'class="card card-' not in html, page


def test_a_missing_macro_file_is_one_error_naming_it(project):
    _with_directive_page(project)
    (project / "site_src" / "templates" / "macros" / "tables.html").unlink()
    with pytest.raises(BuildError) as error:
        render(load_config(project))
    assert str(error.value).startswith("site_src/templates/macros/tables.html:1: this template is missing")


def test_a_syntax_error_in_a_macro_file_is_reported_at_its_line(project):
    _with_directive_page(project)
    tables = project / "site_src" / "templates" / "macros" / "tables.html"
    text = tables.read_text(encoding="utf-8")
    line = text[:text.index("{% macro note(note) %}")].count("\n") + 1
    tables.write_text(text.replace("{% macro note(note) %}", "{% macro note(note) %}{% endiff %}"), encoding="utf-8")
    with pytest.raises(BuildError) as error:
        render(load_config(project))
    assert str(error.value).startswith(f"site_src/templates/macros/tables.html:{line}: ")
