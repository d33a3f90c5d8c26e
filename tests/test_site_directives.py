"""The rules pages and their directives: the HTML is valid and escaped, and every number is the engine's."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.support import NullTranslations

from klabsite.engine import klaberjass, klaverjas
from klabsite.engine.actions import Action, ActionKind
from klabsite.engine.cards import PLAIN_POINTS, TRUMP_POINTS, Card, Suit, parse_cards
from klabsite.engine.options import KlaberjassRules, KlaverjasRules
from klabsite.engine.roem import trick_roem
from klabsite.engine.seats import Seat, Side
from klabsite.site.directives import (
    DIRECTIVES,
    OPTION_PAGES,
    TRICK_RULE_COLUMNS,
    DirectiveError,
    parse_directive,
    render_directive,
    trick_rules_answers,
)
from klabsite.site.i18n import Localizer
from klabsite.site.markdown_ext import slugify
from klabsite.site.pictures import PICTURES

RULES_DIR = Path(__file__).resolve().parents[1] / "site_src" / "rules"
PAGES = sorted(RULES_DIR.glob("[0-9][0-9]-*.md"))

# One call of every directive, with every optional argument exercised somewhere.
CALLS: list[tuple[str, dict[str, str]]] = [
    ("card-order", {}),
    ("card-points", {}),
    ("sequence-values", {}),
    ("meld-comparison", {}),
    ("klaberjass-score", {"maker": "N", "totals": "N:84,S:60"}),
    ("klaberjass-score", {"maker": "S", "totals": "N:75,S:75", "equal-score": "next-deal-winner",
                          "hanging": "40", "dealer": "S"}),
    ("klaberjass-score", {"maker": "S", "cards": "N:40,S:70", "last": "S", "bella": "S"}),
    ("roem", {}),
    ("roem", {"trump": "S", "tricks": "KS-QS-JS-7C/AC-AD-AH-AS"}),
    ("klaverjas-score", {"playing": "NS", "points": "NS:92", "roem": "NS:20,EW:0"}),
    ("klaverjas-score", {"playing": "EW", "points": "NS:0,EW:162", "roem": "EW:40", "pit": "yes"}),
    ("klaverjas-sheet", {}),
    ("trick-rules", {}),
    ("options", {"game": "klaberjass"}),
    ("options", {"game": "klaverjas"}),
    ("card-rows", {}),
    ("seating", {"game": "klaverjas"}),
    ("seating", {"game": "klaberjass", "dealer": "S"}),
    ("trick-picture", {"game": "klaverjas", "cards": "KH AH 7S AD", "leader": "N", "trump": "S"}),
    ("trump-choice", {}),
]


class _Hostile(NullTranslations):
    """A "translation" that adds markup to every message, to prove that directives escape it."""

    def gettext(self, message: str) -> str:
        return message + " <b>&"

    def pgettext(self, context: str, message: str) -> str:
        return message + " <b>&"


class _Marked(Localizer):
    """English, with every number marked so a test can see it went through ``loc.number``."""

    def number(self, n: float) -> str:
        return f"#{n}#"


@pytest.fixture(scope="module")
def en() -> Localizer:
    return Localizer.untranslated("en")


class _Checker(HTMLParser):
    """Checks that tags nest and close, and collects tag names and attributes."""

    VOID = {"br", "img", "hr", "wbr"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.errors: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
        else:
            self.stack.pop()


def _check_html(html: str) -> _Checker:
    checker = _Checker()
    checker.feed(html)
    checker.close()
    assert not checker.errors, checker.errors
    assert not checker.stack, f"unclosed tags {checker.stack}"
    return checker


def _plain_code(html: str) -> str:
    """``<code>`` spans with their inner markup (the break point after ``=``) removed."""
    return re.sub(r"<code([^>]*)>(.*?)</code>",
                  lambda match: f"<code{match.group(1)}>{re.sub(r'<[^>]+>', '', match.group(2))}</code>", html)


def _text_of(html: str) -> str:
    """The visible text, tags removed and entities decoded."""
    html = _plain_code(html)
    parts: list[str] = []

    class Text(HTMLParser):
        def handle_data(self, data: str) -> None:
            parts.append(data)

    Text(convert_charrefs=True).feed(html)
    return " ".join(" ".join(parts).split())


def _cells(html: str) -> list[list[str]]:
    """The text of every table row's cells (header cells included)."""
    rows = re.findall(r"<tr>(.*?)</tr>", html)
    return [[_text_of(cell) for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row)] for row in rows]


# ---------------------------------------------------------------------------------------------
# HTML


DEAL_DIRECTIVES = {"see-deal", "worked-deal"}
"""The directives that need the shipped deals (tests/test_deal_links.py, tests/test_site_pictures.py)."""
TABLE_CALLS = [(name, args) for name, args in CALLS if name not in PICTURES]
PICTURE_CALLS = [(name, args) for name, args in CALLS if name in PICTURES]


@pytest.mark.parametrize(("name", "args"), PICTURE_CALLS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(PICTURE_CALLS)])
def test_picture_renders_a_figure_with_a_caption(en: Localizer, name: str, args: dict[str, str]) -> None:
    html = render_directive(en, name, args)
    checker = _check_html(html)
    assert "<script" not in html.lower() and "style=" not in html.lower()
    tags = [tag for tag, _ in checker.tags]
    assert tags[0] == "figure" and "figcaption" in tags


@pytest.mark.parametrize(("name", "args"), TABLE_CALLS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(TABLE_CALLS)])
def test_directive_renders_valid_semantic_html(en: Localizer, name: str, args: dict[str, str]) -> None:
    html = render_directive(en, name, args)
    checker = _check_html(html)
    assert "<script" not in html.lower() and "style=" not in html.lower()
    tags = [tag for tag, _ in checker.tags]
    assert tags[:3] == ["div", "table", "caption"], "a table wrapped for scrolling, with a caption"
    wrapper = checker.tags[0][1]
    assert "table-scroll" in (wrapper.get("class") or "").split()
    assert wrapper.get("tabindex") == "0" and wrapper.get("role") == "region" and wrapper.get("aria-label")
    assert "<" not in (wrapper.get("aria-label") or ""), "the label is the caption's plain text"
    scopes = {attrs.get("scope") for tag, attrs in checker.tags if tag == "th"}
    assert scopes <= {"col", "row"} and "col" in scopes and "row" in scopes


def test_options_break_only_after_the_equals_sign_and_stay_whole_and_english_in_arabic() -> None:
    code = "<code><span>undertrump=</span><wbr><span>required</span></code>"
    options = {"game": "klaverjas"}
    assert code in render_directive(Localizer.untranslated("en"), "options", options)
    assert code.replace("<code>", '<code lang="en">') in render_directive(Localizer.untranslated("fr"),
                                                                          "options", options)
    arabic = render_directive(Localizer.untranslated("ar"), "options", options)
    assert '<code lang="en" dir="ltr"><span>undertrump=required</span></code>' in arabic
    assert "<wbr>" not in arabic  # a break inside the isolate would swap its halves (review bug 4)


def test_every_directive_is_exercised() -> None:
    assert {name for name, _ in CALLS} == set(DIRECTIVES)


@pytest.mark.parametrize(("name", "args"), CALLS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(CALLS)])
def test_directive_escapes_translated_text(name: str, args: dict[str, str]) -> None:
    hostile = Localizer("en", _Hostile())
    html = render_directive(hostile, name, args)
    assert "<b>" not in html and "&lt;b&gt;" in html
    _check_html(html)


@pytest.mark.parametrize("lang", ["fr", "ar"])
def test_directives_render_in_other_languages(lang: str) -> None:
    loc = Localizer.untranslated(lang)
    for name, args in CALLS:
        _check_html(render_directive(loc, name, args))


def test_numbers_go_through_the_localizer() -> None:
    html = render_directive(_Marked("en", NullTranslations()), "card-points", {})
    assert "#162#" in html and "#152#" in html and ">162<" not in html


# ---------------------------------------------------------------------------------------------
# Arguments


@pytest.mark.parametrize("name", sorted(DIRECTIVES))
def test_unknown_argument_is_a_clear_value_error(en: Localizer, name: str) -> None:
    args = dict(next(args for n, args in CALLS if n == name))
    args["colour"] = "blue"
    with pytest.raises(ValueError, match=rf"klab:{name}: unknown argument 'colour'"):
        render_directive(en, name, args)


@pytest.mark.parametrize(("name", "args", "message"), [
    ("klaberjass-score", {"totals": "N:1,S:2"}, "needs the argument maker"),
    ("klaberjass-score", {"maker": "E", "totals": "N:1,S:2"}, "maker takes N or S"),
    ("klaberjass-score", {"maker": "N", "totals": "N:1"}, "both players"),
    ("klaberjass-score", {"maker": "N", "totals": "N:x,S:2"}, "cannot read totals"),
    ("klaberjass-score", {"maker": "N", "totals": "N:1,S:2", "equal-score": "maybe"}, "equal-score takes"),
    ("klaberjass-score", {"maker": "N", "totals": "N:999999999999,S:60"},
     "the totals N 999999999999 S 60 add up to 1000000000059, which no deal can make"),
    ("klaberjass-score", {"maker": "N", "totals": "N:1,S:2"}, "add up to 3, which no deal can make"),
    ("klaverjas-score", {"playing": "NS", "points": "NS:200"}, "negative points"),
    ("klaverjas-score", {"playing": "NW", "points": "NS:80"}, "playing takes NS or EW"),
    ("roem", {"tricks": "KH-QH-JH"}, "four different cards"),
    ("roem", {"trump": "X"}, "unknown suit"),
    ("options", {}, "needs the argument game"),
    ("options", {"game": "bridge"}, "game takes klaberjass or klaverjas"),
])
def test_bad_argument_is_a_clear_value_error(
    en: Localizer, name: str, args: dict[str, str], message: str
) -> None:
    with pytest.raises(DirectiveError, match=message):
        render_directive(en, name, args)


def test_unknown_directive_is_refused(en: Localizer) -> None:
    with pytest.raises(ValueError, match="unknown directive klab:nonsense"):
        render_directive(en, "nonsense", {})


def test_directive_lines_parse() -> None:
    assert parse_directive("[[klab:options game=klaverjas]]") == ("options", {"game": "klaverjas"})
    assert parse_directive("  [[klab:card-order]]  ") == ("card-order", {})
    assert parse_directive("Text with [[klab:card-order]] inside.") is None
    with pytest.raises(DirectiveError, match="write key=value"):
        parse_directive("[[klab:roem hearts]]")
    with pytest.raises(DirectiveError, match="given twice"):
        parse_directive("[[klab:roem trump=H trump=S]]")


# ---------------------------------------------------------------------------------------------
# The numbers are the engine's


def test_card_points_add_up_to_the_deal_value(en: Localizer) -> None:
    rows = _cells(render_directive(en, "card-points", {}))
    values = {row[0]: int(row[1]) for row in rows[1:]}
    assert values["The trump suit"] == sum(TRUMP_POINTS.values()) == 62
    assert values["Each plain suit"] == sum(PLAIN_POINTS.values()) == 30
    assert values["All 32 cards"] == 152
    assert values["A deal in all"] == klaverjas.DEAL_POINTS == 162


def test_card_order_lists_trump_and_plain_order_with_points(en: Localizer) -> None:
    rows = _cells(render_directive(en, "card-order", {}))
    assert [row[1] for row in rows[1:9]] == ["jack", "nine", "ace", "ten", "king", "queen", "eight", "seven"]
    assert [row[3] for row in rows[1:9]] == ["ace", "ten", "king", "queen", "jack", "nine", "eight", "seven"]
    assert rows[1][2] == "20" and rows[2][2] == "14" and rows[5][4] == "2"


def test_sequence_values_follow_long_sequence(en: Localizer) -> None:
    text = _text_of(render_directive(en, "sequence-values", {}))
    assert "Three cards 20" in text and "Four cards 50" in text
    assert "Five or more cards 50, or 100 in the variant below" in text


def test_meld_comparison_rows(en: Localizer) -> None:
    rows = _cells(render_directive(en, "meld-comparison", {}))[1:]
    assert [row[3] for row in rows] == ["—"] * 4 + ["The non-dealer wins equal sequences", "—",
                                                   "100 for a long sequence"], \
        "only the variants that differ from the standard rules, named as the rules page names them"
    decided = [(row[4], row[5], row[6]) for row in rows]
    assert decided == [
        ("The dealer", "the higher value", "50"),
        ("The dealer", "the higher top card", "20"),
        ("The non-dealer", "the sequence in trumps", "20"),
        ("Nobody", "still equal", "0"),
        ("The non-dealer", "still equal", "20"),
        ("The dealer", "the higher top card", "50"),
        ("The non-dealer", "the higher value", "100"),
    ]


@pytest.mark.parametrize(("args", "expected"), [
    ({"maker": "N", "totals": "N:84,S:60"}, {"N": 84, "S": 60}),
    ({"maker": "N", "totals": "N:52,S:120"}, {"N": 0, "S": 172}),
    ({"maker": "N", "totals": "N:75,S:75"}, {"N": 0, "S": 75}),
    ({"maker": "S", "totals": "N:90,S:70", "equal-score": "next-deal-winner", "hanging": "75"},
     {"N": 235, "S": 0}),
])
def test_klaberjass_score_is_the_engines(
    en: Localizer, args: dict[str, str], expected: dict[str, int]
) -> None:
    rows = _cells(render_directive(en, "klaberjass-score", args))[1:]
    shown = {row[0].split()[0][0]: int(row[2]) for row in rows}
    maker = Seat.parse(args["maker"])
    totals = {Seat.N: int(args["totals"][2:].split(",")[0]), Seat.S: int(args["totals"].split("S:")[1])}
    rules = KlaberjassRules(equal_score=args.get("equal-score", "maker-scores-nothing"))
    engine = klaberjass.scored_result(rules, maker.partner, maker, totals, int(args.get("hanging", "0")))
    assert shown == engine.score == expected


def test_klaberjass_tie_with_hanging_points_says_how_many_wait(en: Localizer) -> None:
    html = render_directive(en, "klaberjass-score",
                            {"maker": "N", "totals": "N:75,S:75", "equal-score": "next-deal-winner"})
    assert "Hanging points after this deal: 75." in _text_of(html)
    assert "Tie" in _text_of(html)


@pytest.mark.parametrize(("args", "result", "score"), [
    ({"playing": "NS", "points": "NS:92", "roem": "NS:20,EW:0"}, "Made", {"NS": 112, "EW": 70}),
    ({"playing": "NS", "points": "NS:90", "roem": "NS:0,EW:20"}, "Nat", {"NS": 0, "EW": 182}),
    ({"playing": "EW", "points": "EW:81", "roem": "NS:20,EW:20"}, "Nat", {"NS": 202, "EW": 0}),
    ({"playing": "NS", "points": "NS:162", "roem": "NS:40,EW:0", "pit": "yes"}, "Made", {"NS": 302, "EW": 0}),
])
def test_klaverjas_score_is_the_engines(en: Localizer, args: dict[str, str], result: str,
                                        score: dict[str, int]) -> None:
    html = render_directive(en, "klaverjas-score", args)
    head, *rows = _cells(html)
    assert head[1].startswith("North–South") and head[2].startswith("East–West")
    by_part = {row[0]: [int(value) for value in row[1:]] for row in rows}
    # the points written down count the last trick's 10: the row says so (they are not card points)
    assert sum(by_part["Points with the last trick"]) == 162
    shown = dict(zip(("NS", "EW"), by_part["Score"], strict=True))
    playing = Side.parse(args["playing"])
    points = {Side.parse(args["points"][:2]): int(args["points"][3:])}
    (side, value), = points.items()
    points[side.other] = 162 - value
    roem = {Side.parse(item[:2]): int(item[3:]) for item in args["roem"].split(",")}
    pit = args.get("pit") == "yes"
    engine = klaverjas.scored_result(KlaverjasRules(), Seat.W, playing, points, roem, pit)
    assert shown == engine.score == score
    assert result in _text_of(html.split("</caption>")[0])


def test_roem_table_is_the_engines(en: Localizer) -> None:
    tricks = "KH-QH-JH-7C/TH-JH-QH-KH/JC-JD-JH-JS"
    rows = _cells(render_directive(en, "roem", {"trump": "H", "tricks": tricks}))
    assert [int(row[2]) for row in rows[1:]] == [
        trick_roem(parse_cards(t), Suit.HEARTS) for t in ("KH QH JH 7C", "TH JH QH KH", "JC JD JH JS")
    ] == [40, 70, 200]
    assert rows[3][1] == "four jacks 200"  # the replays name them so too
    default = _cells(render_directive(en, "roem", {}))
    assert "four of a kind, worth nothing" in [row[1] for row in default]


def test_score_sheet_running_totals_follow_from_the_deals(en: Localizer) -> None:
    html = render_directive(en, "klaverjas-sheet", {})
    rows = _cells(html)
    groups, sides, deals = rows[0], rows[1], rows[2:]
    assert groups == ["Deal", "Dealer", "Playing side", "Points", "Roem", "Result", "Score", "Running total"]
    assert sides == ["North–South", "East–West"] * 4
    assert [row[1] for row in deals] == ["North", "East", "South", "West"], "the dealer moves clockwise"
    running = [0, 0]
    for row in deals:
        assert int(row[3]) + int(row[4]) == 162
        running = [running[0] + int(row[-4]), running[1] + int(row[-3])]
        assert [int(row[-2]), int(row[-1])] == running
    assert '<td class="number">' in html


def test_klaberjass_score_shows_the_breakdown_and_checks_the_totals(en: Localizer) -> None:
    args = {"maker": "N", "cards": "N:54,S:60", "last": "N", "sequences": "N:20,S:0", "bella": "N"}
    rows = _cells(render_directive(en, "klaberjass-score", args))
    assert rows[0] == ["Player", "Cards won", "Last trick", "Sequences", "Bella", "Total", "Score"]
    assert rows[1] == ["North (maker)", "54", "10", "20", "20", "104", "104"]
    assert rows[2] == ["South (opponent)", "60", "0", "0", "0", "60", "60"]
    with pytest.raises(ValueError, match="do not add up"):
        render_directive(en, "klaberjass-score", {**args, "totals": "N:100,S:60"})
    with pytest.raises(ValueError, match="needs cards"):
        render_directive(en, "klaberjass-score", {"maker": "N", "totals": "N:1,S:2", "last": "N"})


def test_options_table_lists_every_option_with_its_default_in_bold(en: Localizer) -> None:
    for game, rules in (("klaberjass", KlaberjassRules()), ("klaverjas", KlaverjasRules())):
        html = render_directive(en, "options", {"game": game})
        rows = _cells(html)[1:]
        assert [row[0] for row in rows] == type(rules).option_names()
        bold = re.findall(r"<strong><code>([^<]*)</code></strong>", _plain_code(html))
        defaults = [f"{name}={getattr(rules, name.replace('-', '_'))}" for name in type(rules).option_names()
                    if name != "deals"]
        assert bold == defaults


def test_trick_rules_table_shows_amsterdam_and_rotterdam_differences(en: Localizer) -> None:
    rows = _cells(render_directive(en, "trick-rules", {}))[1:]
    by_situation = {row[0]: row[3:] for row in rows}
    partner_plain = by_situation["You cannot follow suit; your partner is winning with a plain card."]
    assert partner_plain == ["K♥ 8♥ A♦ 9♠", "K♥ 8♥", "K♥ 8♥"]
    higher = by_situation["You cannot follow suit; an opponent has trumped higher than any trump you hold."]
    assert higher == ["A♦ 9♠", "K♥ 8♥", "A♦ 9♠"]


def test_trick_rules_table_agrees_with_a_real_deal() -> None:
    """The table asks ``legal_plays``; a full deal's ``legal_actions()`` gives the same answer.

    West leads 7C, North (partner) trumps with AH, East follows 8C; South holds KH 8H and plain
    cards only, so Amsterdam forbids undertrumping the partner and Rotterdam requires it.
    """
    hands = {
        Seat.W: parse_cards("7C 9C TC JC TH QH TS JS"),
        Seat.N: parse_cards("AH JH 9H 7D 8D 9D TD JD"),
        Seat.E: parse_cards("8C QC KC AC 7H QS KS AS"),
        Seat.S: parse_cards("KH 8H AD 9S KD QD 7S 8S"),
    }
    example = parse_cards("KH 8H AD 9S")
    answers = trick_rules_answers(parse_cards("7C AH 8C"), example)
    for rules, answer in zip(TRICK_RULE_COLUMNS, answers, strict=True):
        deal = klaverjas.KlaverjasDeal(rules, Seat.S, klaverjas.deck_from_hands(Seat.S, hands))
        deal.apply(Action.name(Seat.W, Suit.HEARTS))
        for seat, card in ((Seat.W, "7C"), (Seat.N, "AH"), (Seat.E, "8C")):
            deal.apply(Action.play(seat, Card.parse(card)))
        legal = {action.card for action in deal.legal_actions() if action.kind is ActionKind.PLAY}
        assert {card for card in example if card in legal} == set(answer)


# ---------------------------------------------------------------------------------------------
# The Markdown pages


def _anchors(page: Path) -> set[str]:
    lines = page.read_text().splitlines()
    return {slugify(line.lstrip("#").strip()) for line in lines if line.startswith("#")}


def _page_slug(page: Path) -> str:
    return page.stem[3:]


def _front_matter(page: Path) -> tuple[dict[str, str], list[str]]:
    """The page's ``---`` front matter (key → value) and the lines after it."""
    lines = page.read_text().splitlines()
    if not lines or lines[0] != "---":
        return {}, lines
    end = lines.index("---", 1)
    values = dict(line.split(": ", 1) for line in lines[1:end])
    return values, lines[end + 1:]


def test_pages_are_numbered_and_titled() -> None:
    assert len(PAGES) >= 6
    for page in PAGES:
        _, lines = _front_matter(page)
        lines = lines[1:] if lines and not lines[0] else lines
        assert lines[0].startswith("# "), f"{page.name} starts with its title (after its front matter)"
        assert sum(line.startswith("# ") for line in lines) == 1


def test_every_page_has_a_one_sentence_summary() -> None:
    """The home page lists each page with its summary: one sentence, not the first paragraph."""
    for page in PAGES:
        front, _ = _front_matter(page)
        summary = front.get("summary", "")
        assert set(front) == {"summary", "updated"}, f"{page.name}: front matter with a summary and a date"
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", front["updated"]), f"{page.name}: updated is YYYY-MM-DD"
        assert 40 <= len(summary) <= 160, f"{page.name}: summary of {len(summary)} characters"
        assert summary.endswith(".") and summary.count(". ") == 0, f"{page.name}: one sentence"


def test_every_directive_line_in_the_pages_renders(en: Localizer) -> None:
    seen = set()
    for page in PAGES:
        for line in page.read_text().splitlines():
            if "[[klab:" in line:
                parsed = parse_directive(line)
                assert parsed, f"{page.name}: a directive must be a line of its own: {line}"
                if parsed[0] not in DEAL_DIRECTIVES:
                    _check_html(render_directive(en, *parsed))
                seen.add(parsed[0])
    assert seen == set(DIRECTIVES) | DEAL_DIRECTIVES, "every directive is used on a page"


def test_links_between_pages_point_to_real_headings() -> None:
    anchors = {_page_slug(page): _anchors(page) for page in PAGES}
    for page in PAGES:
        for target in re.findall(r"\]\(([^)]+)\)", page.read_text()):
            slug, _, anchor = target.partition("#")
            if slug == "":
                slug = _page_slug(page)
            else:
                assert slug.endswith(".md"), f"{page.name}: link {target}"
                slug = slug[:-3]
            assert slug in anchors, f"{page.name}: no page {slug}"
            assert not anchor or anchor in anchors[slug], f"{page.name}: no heading #{anchor} in {slug}"


def test_option_links_in_the_options_table_point_to_real_headings(en: Localizer) -> None:
    anchors = {_page_slug(page): _anchors(page) for page in PAGES}
    for game in ("klaberjass", "klaverjas"):
        for href in re.findall(r'href="([^"]+)"', render_directive(en, "options", {"game": game})):
            slug, _, anchor = href.partition("#")
            assert anchor in anchors[slug.removesuffix(".html")], href



def test_every_option_page_a_rules_line_links_is_a_real_heading() -> None:
    """A deal's rules line links each option, or its value (``trick-rules=rotterdam``), to its heading."""
    anchors = {_page_slug(page): _anchors(page) for page in PAGES}
    for game, pages in OPTION_PAGES.items():
        for key, href in pages.items():
            slug, _, anchor = href.partition("#")
            assert anchor in anchors[slug.removesuffix(".html")], (game, key, href)
    assert OPTION_PAGES["klaverjas"]["trick-rules=rotterdam"].endswith("#rotterdam-rules")

def test_every_option_value_is_explained_in_the_pages() -> None:
    """Players reading a record's ``Rules`` tag find every ``name=value`` on the game's pages."""
    for game, rules_type in (("klaberjass", KlaberjassRules), ("klaverjas", KlaverjasRules)):
        text = "\n".join(page.read_text() for page in PAGES if game in page.name)
        for name, values in rules_type.CHOICES.items():
            for value in values:
                assert f"`{name}={value}`" in text, f"{game}: {name}={value}"
        default = rules_type()
        assert f"`target={default.target}`" in text and "`deals=" in text
    klaberjass_text = "\n".join(page.read_text() for page in PAGES if "klaberjass" in page.name)
    assert "`long-sequence=50`" in klaberjass_text and "`long-sequence=100`" in klaberjass_text


def test_pages_are_plain_markdown_one_line_per_paragraph() -> None:
    for page in PAGES:
        lines = page.read_text().splitlines()
        front = len(lines) - len(_front_matter(page)[1])
        for number, line in enumerate(lines, start=1):
            assert not re.search(r"</?[a-z][a-z0-9]*[ >/]", line), f"{page.name}:{number}: no HTML"
            assert line == line.rstrip(), f"{page.name}:{number}: trailing blanks"
        for number, (line, following) in enumerate(zip(lines, lines[1:], strict=False), start=1):
            if number < front or line.startswith("!!! "):
                continue
            line, following = line.removeprefix("    "), following.removeprefix("    ")  # a box's text
            starts_block = re.match(r"(#|- |\d+\. |\[\[klab:|:   )", following)
            assert not (line and following and not starts_block), \
                f"{page.name}:{number + 1}: a paragraph continues on a new line (hard wrap)"
