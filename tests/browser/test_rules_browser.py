"""The rules pages in a real browser (JavaScript off): tables on a phone keep their first column and
header in view, option names never break, the pictures are named and a compass in Arabic, the
language pills fit one row, one start edge, Arabic at 1.1×, and print: no heading ends a sheet."""

from __future__ import annotations

import dataclasses
import functools
import http.server
import re
import shutil
import threading
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from klabsite.site.build import build
from klabsite.site.config import LANGUAGES as LANGUAGE_LIST
from klabsite.site.config import load_config
from tests.browser.conftest import REPO, _QuietHandler
from tests.pdf_text import sheets

LANGUAGES = ("en", "fr", "es", "hr", "ar")
PHONE = {"width": 360, "height": 740}

PICTURES_PAGE = """---
summary: Every picture of the rules pages.
---

# Pictures

## The cards

[[klab:card-rows]]

## The table

[[klab:seating game=klaverjas]]

[[klab:seating game=klaberjass]]

## A trick

[[klab:trick-picture game=klaverjas cards="7C AC QH 8C" leader=E trump=H]]

## Choosing trump

[[klab:trump-choice]]

## A deal in full

[[klab:worked-deal game=klaverjas]]

[[klab:worked-deal game=klaberjass]]
"""
"""A rules page with every picture directive (the writer places them in the real pages)."""


def _rules_pages(site_dir: Path, lang: str) -> list[str]:
    return sorted(f"{lang}/{path.name}" for path in (site_dir / lang).glob("*.html") if path.name != "index.html")


@pytest.fixture(scope="session")
def pictures_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real site with one more rules page holding every picture, served: its base URL."""
    root = tmp_path_factory.mktemp("pictures") / "project"
    for folder in ("site_src", "locales", "docs"):
        shutil.copytree(REPO / folder, root / folder)
    (root / "site_src" / "rules" / "09-pictures.md").write_text(PICTURES_PAGE, encoding="utf-8")
    deals = tuple(REPO / "tests" / "fixtures" / "replays" / name for name in ("kb.klab", "kv.klab"))
    out = root / "_site"
    build(dataclasses.replace(load_config(root, out_dir=out), deal_files=deals))
    handler = functools.partial(_QuietHandler, directory=str(out))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


# ---------------------------------------------------------------------------------------------
# Tables on a phone

_SCROLLED = """wrap => {
    const rtl = getComputedStyle(wrap).direction === 'rtl';
    wrap.scrollLeft = rtl ? -wrap.scrollWidth : wrap.scrollWidth;
    const box = wrap.getBoundingClientRect();
    const inside = el => { const r = el.getBoundingClientRect();
        return r.left >= box.left - 1 && r.right <= box.right + 1 && r.width > 0; };
    const rows = [...wrap.querySelectorAll('table > tbody > tr, table > tfoot > tr')];
    const head = wrap.querySelector('table > thead > tr');
    const problems = [];
    for (const row of rows) if (!inside(row.firstElementChild)) problems.push('row ' + row.firstElementChild.innerText);
    if (head && !inside(head.firstElementChild)) problems.push('header ' + head.firstElementChild.innerText);
    if (head) { const h = head.getBoundingClientRect();
        if (h.top < box.top - 1 || h.bottom > box.bottom + 1) problems.push('header row out of the box'); }
    const cue = getComputedStyle(wrap).backgroundImage;
    if (!cue.includes('gradient')) problems.push('no shadow at the scrolling edge');
    return {wide: wrap.scrollWidth > wrap.clientWidth + 1, problems};
}"""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_scrolled_tables_keep_their_first_column_and_header_in_view_at_360_px(page: Page, base_url, site_dir, lang):
    page.set_viewport_size(PHONE)
    wide, problems = 0, []
    for path in _rules_pages(site_dir, lang):
        page.goto(base_url + path)
        for wrap in page.locator(".table-wrap").all():
            result = wrap.evaluate(_SCROLLED)
            wide += result["wide"]
            problems += [f"{path}: {problem}" for problem in result["problems"]]
    assert wide, "some table is wider than a phone (else this test proves nothing)"
    assert not problems, problems


_SPILLS = """() => {
    const within = (inner, outer) => { const i = inner.getBoundingClientRect(), o = outer.getBoundingClientRect();
        return i.left >= o.left - 1 && i.right <= o.right + 1 && i.top >= o.top - 1 && i.bottom <= o.bottom + 1; };
    const problems = [];
    for (const cell of document.querySelectorAll('.table-wrap tr > :first-child'))
        for (const card of cell.querySelectorAll(':scope > .card, :scope > .card-run > .card'))
            if (!within(card, cell)) problems.push('card ' + card.innerText + ' out of its cell ' + cell.innerText);
    for (const table of document.querySelectorAll('.picture-table'))
        for (const part of table.querySelectorAll('.pic-seat, .pic-seat .badge'))
            if (!within(part, table)) problems.push('seat ' + part.innerText + ' out of the picture');
    return problems;
}"""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_cards_in_a_tables_first_column_and_seats_in_a_picture_stay_inside_at_360_px(page: Page, base_url, site_dir,
                                                                                     lang):
    page.set_viewport_size(PHONE)
    problems, seen = [], 0
    for path in _rules_pages(site_dir, lang):
        page.goto(base_url + path)
        seen += page.locator(".picture-table .pic-seat, .table-wrap tr > :first-child .card").count()
        problems += [f"{path}: {problem}" for problem in page.evaluate(_SPILLS)]
    assert seen > 20, "the pages hold seats and cards to check (else this test proves nothing)"
    assert not problems, problems


@pytest.mark.parametrize("lang", LANGUAGES)
def test_option_names_never_break_and_stay_with_their_parenthesis_at_360_px(page: Page, base_url, site_dir, lang):
    page.set_viewport_size(PHONE)
    broken = []
    for path in _rules_pages(site_dir, lang):
        page.goto(base_url + path)
        broken += [f"{path}: {text}" for text in page.evaluate("""() => {
            const out = [];
            for (const span of document.querySelectorAll('main code > span'))
                if (span.getClientRects().length > 1) out.push(span.textContent);
            for (const code of document.querySelectorAll('main code')) {
                const before = code.previousSibling;
                if (!before || before.nodeType !== 3 || !before.data.endsWith('(')) continue;
                const range = document.createRange();
                range.setStart(before, before.data.length - 1); range.setEnd(before, before.data.length);
                const paren = range.getClientRects()[0], first = code.getClientRects()[0];
                if (paren && first && Math.abs(paren.top - first.top) > 4) out.push('(' + code.textContent);
            }
            return out; }""")]
    assert not broken, broken


def test_arabic_rules_pages_do_not_scroll_sideways_at_320_px(page: Page, base_url, site_dir):
    page.set_viewport_size({"width": 320, "height": 740})
    wide = []
    for path in _rules_pages(site_dir, "ar"):
        page.goto(base_url + path)
        if page.evaluate("document.documentElement.scrollWidth") > 320:
            wide.append(path)
    assert not wide, wide


@pytest.mark.parametrize("lang", LANGUAGES)
def test_language_pills_fit_one_row_at_360_px(page: Page, base_url, site_dir, lang):
    page.set_viewport_size(PHONE)
    page.goto(base_url + _rules_pages(site_dir, lang)[0])
    boxes = page.locator(".switcher a").evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.top, r.left, r.right]; })")
    assert len(boxes) == 5 and len({round(top) for top, _, _ in boxes}) == 1, boxes
    header = page.locator(".header-inner").evaluate(
        "e => { const r = e.getBoundingClientRect(), s = getComputedStyle(e);"
        " return [r.left + parseFloat(s.paddingLeft), r.right - parseFloat(s.paddingRight)]; }")
    assert all(left >= header[0] - 1 and right <= header[1] + 1 for _, left, right in boxes), (boxes, header)


@pytest.mark.parametrize("width", [360, 1280])
@pytest.mark.parametrize("lang", ["en", "ar"])
def test_header_text_and_wide_tables_share_one_start_edge(page: Page, base_url, lang, width):
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(base_url + f"{lang}/klaverjas-play.html")
    edge = "left" if lang == "en" else "right"
    brand, heading, table = (page.locator(selector).first.evaluate(f"e => e.getBoundingClientRect().{edge}")
                             for selector in (".brand", "h1", ".klab-trick-rules .table-wrap"))
    assert abs(brand - heading) <= 2 and abs(heading - table) <= 2, (brand, heading, table)


@pytest.mark.parametrize(("path", "caption"), [("klaverjas-play.html", "The cards you may play"),
                                              ("klaberjass-play.html", "Whose sequence is best"),
                                              ("klaverjas-scoring.html", "An example score sheet")])
def test_on_a_laptop_the_rules_tables_of_cards_show_every_column_without_scrolling(page: Page, base_url, path,
                                                                                     caption):
    """Their answers are their last columns (the score sheet's: the scores and running totals): a
    table that scrolls at 1280 px hides them."""
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(base_url + f"en/{path}")
    box = page.locator(".table-wrap").filter(has=page.locator("caption", has_text=caption))
    widths = box.evaluate("e => [e.clientWidth, e.scrollWidth]")
    assert widths[1] <= widths[0], widths


@pytest.mark.parametrize("lang", LANGUAGES)
def test_on_a_laptop_the_score_sheet_fits_in_every_language_under_headings_over_both_sides(page: Page, base_url,
                                                                                          lang):
    """Twelve columns: each figure's heading is a side's name under what it counts (Score over
    North–South and East–West), so that no language needs to scroll at 1280 px."""
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(base_url + f"{lang}/klaverjas-scoring.html")
    box = page.locator(".table-wrap").filter(has=page.locator("table.score-sheet"))
    widths = box.evaluate("e => [e.clientWidth, e.scrollWidth]")
    assert widths[1] <= widths[0], widths
    rows = box.locator("thead tr")
    assert rows.count() == 2
    groups = rows.nth(0).locator("th.group")
    assert groups.count() == 4 and all(group.get_attribute("colspan") == "2" for group in groups.all())
    assert rows.nth(0).locator("th[rowspan='2']").count() == 4
    assert rows.nth(1).locator("th").count() == 8
    # each group's columns line up with the figures under it
    for index, group in enumerate(groups.all()):
        span = group.bounding_box()
        sides = rows.nth(1).locator("th").nth(2 * index), rows.nth(1).locator("th").nth(2 * index + 1)
        covered = sorted(x for side in sides for x in (side.bounding_box()["x"], side.bounding_box()["x"]
                                                       + side.bounding_box()["width"]))
        assert abs(covered[0] - span["x"]) <= 1 and abs(covered[-1] - span["x"] - span["width"]) <= 1


def test_arabic_text_is_about_a_tenth_larger_than_latin(page: Page, base_url):
    sizes = {}
    for lang in ("en", "ar"):
        page.goto(base_url + f"{lang}/cards.html")
        sizes[lang] = page.locator(".prose p").first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    assert 1.05 <= sizes["ar"] / sizes["en"] <= 1.15, sizes


@pytest.mark.parametrize("lang", LANGUAGES)
def test_home_entries_are_one_link_each_holding_title_and_summary(page: Page, base_url, lang):
    page.goto(base_url + f"{lang}/index.html")
    entries = page.locator(".rules-list > li")
    assert entries.count() >= 8
    for entry in entries.all():
        assert entry.locator("a").count() == 1
        link = entry.locator("a")
        assert link.locator(".entry-title").count() == 1 and link.locator(".entry-lead").count() == 1


def test_rules_pages_have_a_breadcrumb_with_page_n_of_m_and_a_page_list_beside_on_wide_screens(page: Page, base_url):
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(base_url + "en/klaberjass-play.html")
    assert re.search(r"Klaberjass\s*›?\s*page 3 of \d+", page.locator(".breadcrumb").inner_text())
    text, pages = page.locator(".rules").bounding_box(), page.locator(".page-list").bounding_box()
    assert pages["x"] > text["x"] + text["width"] - 1 and pages["y"] < text["y"] + 200, (text, pages)
    assert page.locator('.page-list a[aria-current="page"]').count() == 1
    page.set_viewport_size(PHONE)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_every_heading_links_to_itself_and_is_named_by_its_words_alone(page: Page, base_url):
    page.goto(base_url + "fr/cards.html")
    headings = page.locator(".prose h2[id], .prose h3[id]").all()
    assert headings
    for heading in headings:
        anchor = heading.locator("a.heading-anchor")
        assert anchor.get_attribute("href") == "#" + heading.get_attribute("id")
        assert anchor.get_attribute("title") == "Lien vers cette section"
        words = heading.inner_text().strip()
        assert "§" in page.evaluate("(a) => getComputedStyle(a, '::after').content", anchor.element_handle())
        assert page.get_by_role("heading", name=words, exact=True).count() >= 1, words


# ---------------------------------------------------------------------------------------------
# Glossary


def test_every_glossary_term_has_an_anchor_and_the_first_use_on_each_rules_page_links_to_it(site_dir):
    english_ids = None
    for lang in LANGUAGES:
        glossary = (site_dir / lang / "glossary.html").read_text(encoding="utf-8")
        ids = re.findall(r'<h3 class="term" id="([^"]+)"', glossary)
        entries = re.findall(r"<h3[ >]", glossary.split('class="prose"')[1].split("</div>")[0])
        assert ids and len(ids) == len(entries), f"{lang}: every entry has an anchor"
        english_ids = english_ids or set(ids)
        assert set(ids) == english_ids, f"{lang}: the same anchors in every language"
        linked = 0
        for path in _rules_pages(site_dir, lang):
            if path.endswith("glossary.html"):
                continue
            html = (site_dir / path).read_text(encoding="utf-8")
            targets = re.findall(r'class="term-link" href="glossary.html#([^"]+)"', html)
            assert len(targets) == len(set(targets)), f"{path}: a term is linked once, at its first use"
            assert set(targets) <= set(ids), f"{path}: every link reaches an entry"
            linked += len(targets)
            for heading in re.findall(r"<h[1-6][^>]*>.*?</h[1-6]>", html, re.DOTALL):
                assert "term-link" not in heading, f"{path}: no term link in a heading"
        assert linked >= 20, f"{lang}: the rules pages link their terms"


# ---------------------------------------------------------------------------------------------
# Pictures


@pytest.mark.parametrize("lang", LANGUAGES)
def test_pictures_have_accessible_names_in_the_pages_language(page: Page, pictures_site, lang):
    page.goto(pictures_site + f"{lang}/pictures.html")
    figures = page.locator("figure.picture")
    assert figures.count() == 5
    for figure in figures.all():
        assert figure.locator("figcaption").inner_text().strip()
    labels = page.locator(".picture .card, .worked-deal .card").evaluate_all(
        "els => els.map(e => [e.getAttribute('role'), e.getAttribute('aria-label')])")
    assert labels and all(role == "img" and label for role, label in labels)
    assert page.locator(".worked-deal").count() == 2


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_pictures_are_a_compass_and_card_runs_left_to_right_in_every_direction(page: Page, pictures_site, lang):
    page.set_viewport_size(PHONE)
    page.goto(pictures_site + f"{lang}/pictures.html")

    def box(selector: str) -> dict[str, float]:
        found = page.locator(selector).first.bounding_box()
        assert found is not None, selector
        return found

    seating = ".seating .picture-table-4 "
    north, south = box(seating + ".pic-seat-n"), box(seating + ".pic-seat-s")
    east, west = box(seating + ".pic-seat-e"), box(seating + ".pic-seat-w")
    assert north["y"] < south["y"] and west["x"] < east["x"], "North at the top, East on the right"
    trick = ".trick-picture "
    assert box(trick + ".pic-seat-w")["x"] < box(trick + ".pic-seat-e")["x"]
    sides = [box(f"{trick}.pic-seat-{seat} .card") for seat in "we"]
    assert sides[0]["y"] == sides[1]["y"], "West's and East's cards level, whichever holds the winner's badge"
    first, last = box(".card-row-cards li:first-child .card"), box(".card-row-cards li:last-child .card")
    assert first["x"] < last["x"], "the highest card on the left in every language"
    mirrored = page.locator(".breadcrumb li").first.bounding_box()["x"] > 180
    assert mirrored == (lang == "ar"), "the text itself runs right to left in Arabic"
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_axe_finds_no_violations_on_the_pictures(browser: Browser, pictures_site):
    from axe_playwright_python.sync_playwright import Axe

    from tests.browser.test_site_browser import AXE_OPTIONS

    context = browser.new_context(java_script_enabled=True)
    try:
        page = context.new_page()
        reports = []
        for lang in ("en", "ar"):
            page.goto(pictures_site + f"{lang}/pictures.html")
            results = Axe().run(page, options=AXE_OPTIONS)
            if results.violations_count:
                reports.append(f"{lang}:\n{results.generate_report()}")
        assert not reports, "\n".join(reports)
    finally:
        context.close()


# ---------------------------------------------------------------------------------------------
# Print


def _compact(text: str) -> str:
    return re.sub(r"\s+", "", text.replace("§", ""))


def _is_address(line: str, path: str, lang: str) -> bool:
    """Whether a printed line is the page's address and language. Chromium's PDF holds Arabic as
    presentation forms in visual order: NFKC gives the letters back, reversed."""
    text = unicodedata.normalize("NFKC", _compact(line))
    name = _compact(next(language.name for language in LANGUAGE_LIST if language.code == lang))
    return path in text and (name in text or name[::-1] in text)


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_print_leaves_no_heading_at_the_foot_of_a_sheet_and_no_near_empty_last_sheet(page: Page, base_url,
                                                                                       site_dir, lang):
    problems = []
    for path in _rules_pages(site_dir, lang):
        page.goto(base_url + path)
        page.emulate_media(media="print")
        headings = {_compact(text) for text in page.locator("main h1, main h2, main h3, main h4").all_inner_texts()}
        address = _compact(page.locator(".print-address").inner_text())
        printed = sheets(page.pdf(format="A4"))
        for number, lines in enumerate(printed, 1):
            content = [line for line in map(_compact, lines) if line and line != address]
            if content and content[-1] in headings:
                problems.append(f"{path}: sheet {number} ends with the heading {content[-1]!r}")
        last = [line for line in printed[-1] if _compact(line) and _compact(line) != address]
        if len(printed) > 1 and len(last) < 3:
            problems.append(f"{path}: the last sheet holds only {last}")
        if not any(_is_address(line, path, lang) for line in printed[-1]):
            problems.append(f"{path}: no address and language at the foot")
        page.emulate_media(media="screen")
    assert not problems, problems


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_table_fits_the_width_of_an_a4_sheet_in_print(page: Page, base_url, site_dir, lang):
    """Paper does not scroll: at the text width of an A4 sheet (182 mm, 688 px) no table is wider
    than the page (the side-by-side trick rules in Arabic and the score sheet in Spanish were)."""
    page.set_viewport_size({"width": 688, "height": 1000})
    page.emulate_media(media="print")
    problems, tables = [], 0
    for path in _rules_pages(site_dir, lang):
        page.goto(base_url + path)
        for table in page.locator("main table").all():
            tables += 1
            wide, room = table.evaluate("table => [table.scrollWidth, table.parentElement.clientWidth]")
            if wide > room + 1:
                problems.append(f"{path}: {table.get_attribute('class')} is {wide} px wide in {room} px")
    assert tables > 10
    assert not problems, problems


# ---------------------------------------------------------------------------------------------
# Layout details a reader sees

@pytest.mark.parametrize("width", [360, 1280])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_quick_facts_give_each_fact_a_line_of_its_own(page: Page, base_url, lang, width):
    """"Players 2", then "Cards 32 …" below it: never one run of words ("Joueurs : 2 Cartes : 32")."""
    page.set_viewport_size({"width": width, "height": 900})
    for game in ("klaberjass", "klaverjas"):
        page.goto(f"{base_url}{lang}/{game}.html")
        names = page.locator(".admonition.facts dt").all()
        assert len(names) >= 5
        tops = [name.bounding_box()["y"] for name in names]
        values = [value.bounding_box() for value in page.locator(".admonition.facts dd").all()]
        for top, value in zip(tops[1:], values, strict=False):
            assert top >= value["y"] + value["height"] - 1, f"{game}: a fact starts on its previous fact's line"


@pytest.mark.parametrize("path", ["index.html", "404.html"])
def test_the_hero_is_centred_over_the_centred_list_on_a_wide_screen(page: Page, base_url, path):
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(base_url + path)

    def centre(selector: str) -> float:
        box = page.locator(selector).first.bounding_box()
        assert box, selector
        return box["x"] + box["width"] / 2

    assert abs(centre(".hero h1") - centre(".language-list")) < 2
    assert abs(centre(".hero-cards") - centre(".language-list")) < 2


_NAME_AND_BADGE = """seat => { const range = document.createRange();
    range.selectNodeContents(seat.querySelector('.pic-seat-name'));
    const name = range.getBoundingClientRect(), badge = seat.querySelector('.badge').getBoundingClientRect();
    return [name.left, name.right, badge.left, badge.right]; }"""


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_seat_in_a_picture_reads_its_name_before_its_badge(page: Page, pictures_site, lang):
    """Inside the compass (left to right in every language) a seat's label follows the page's
    direction: in Arabic the name on the right, its badge ("dealer") to its left."""
    page.goto(pictures_site + f"{lang}/pictures.html")
    seats = page.locator(".seating .pic-seat:has(.badge)").all()
    assert seats
    for seat in seats:
        name_left, name_right, badge_left, badge_right = seat.evaluate(_NAME_AND_BADGE)
        if lang == "ar":
            assert badge_right <= name_left + 1, seat.inner_text()
        else:
            assert badge_left >= name_right - 1, seat.inner_text()


def test_headings_print_without_their_section_mark(page: Page, base_url):
    page.goto(f"{base_url}en/klaverjas.html")
    page.emulate_media(media="print")
    marks = page.locator("h2 .heading-anchor").evaluate_all(
        "links => links.map(link => getComputedStyle(link, '::after').content)")
    assert marks and set(marks) <= {"none", "normal"}, set(marks)


def test_every_card_of_a_worked_deals_tricks_lies_on_its_table_at_any_width(page: Page, base_url):
    """A Klaverjas trick is three cards wide; however many boxes a row holds, no card sticks out of
    its patch of table (the Arabic cards are larger)."""
    outside = """() => Math.max(...[...document.querySelectorAll('.mini-trick .pic-trick')].map(trick => {
        const box = trick.getBoundingClientRect();
        return Math.max(...[...trick.querySelectorAll('.card')].map(card => {
            const r = card.getBoundingClientRect();
            return Math.max(box.left - r.left, r.right - box.right);
        }));
    }))"""
    for lang in ("en", "ar"):
        for width in range(340, 1100, 30):
            page.set_viewport_size({"width": width, "height": 800})
            page.goto(f"{base_url}{lang}/klaverjas-scoring.html")
            assert page.evaluate(outside) <= 0, f"{lang} at {width} px"
