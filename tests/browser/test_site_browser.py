"""The built site in a real browser (JavaScript off): every page, every link, the language
switcher, right-to-left Arabic, no horizontal scrolling at 360 px, and an axe-core scan."""

from __future__ import annotations

import re
from urllib.parse import urldefrag, urljoin

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.helpers import replay_folder

LANGUAGES = {"en": "ltr", "fr": "ltr", "es": "ltr", "hr": "ltr", "ar": "rtl"}
NAMES = {"en": "English", "fr": "Français", "es": "Español", "hr": "Hrvatski", "ar": "العربية"}


def _pages_of(site_pages: list[str], lang: str) -> list[str]:
    return [path for path in site_pages if path.startswith(f"{lang}/")]


def _first_rules_page(site_pages: list[str], lang: str) -> str:
    pages = [path for path in _pages_of(site_pages, lang) if not path.endswith("/index.html")]
    return pages[0] if pages else f"{lang}/index.html"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_page_loads_with_its_language_and_direction(page: Page, base_url, site_pages, lang):
    problems: list[str] = []
    page.on("console", lambda message: problems.append(message.text))
    pages = _pages_of(site_pages, lang)
    assert pages, f"no pages for {lang}"
    for path in pages:
        response = page.goto(base_url + path)
        assert response is not None and response.status == 200, path
        html = page.locator("html")
        expect(html).to_have_attribute("lang", lang)
        expect(html).to_have_attribute("dir", LANGUAGES[lang])
        assert page.locator("h1").count() == 1, path
        assert page.locator("header").count() >= 1 and page.locator("main").count() == 1, path
    assert not problems, problems  # no CSP violation, no failed load


def test_language_chooser_and_404(page: Page, base_url):
    response = page.goto(base_url + "index.html")
    assert response is not None and response.status == 200
    for lang, name in NAMES.items():
        link = page.locator(f'.language-list a[hreflang="{lang}"]')
        expect(link).to_contain_text(name)
    response = page.goto(base_url + "404.html")
    assert response is not None and response.status == 200
    expect(page.locator('link[rel="stylesheet"]')).to_have_count(1)
    assert page.evaluate("getComputedStyle(document.body).display") == "flex"  # stylesheet applied


def test_crawling_every_internal_link_finds_no_404(page: Page, base_url, replay_sample):
    seen: set[str] = set()
    queue = [base_url + "index.html"]
    checked_assets: set[str] = set()
    while queue:
        url = queue.pop()
        if url in seen:
            continue
        seen.add(url)
        response = page.goto(url)
        assert response is not None and response.status == 200, url
        hrefs = page.locator("a[href], link[href]").evaluate_all(
            "els => els.map(e => [e.tagName, e.getAttribute('href'), e.href])")
        for tag, written, href in hrefs:
            target = urldefrag(urljoin(url, href))[0]
            if not target.startswith(base_url):  # further reading: a link out is not a request
                assert tag == "A" and written.startswith("https://"), f"{url} links outside the site: {href}"
                continue
            if target.endswith(".html"):
                folder = replay_folder(target[len(base_url):])
                if folder is not None and folder not in replay_sample:
                    if target not in checked_assets:  # a replay outside the sample: only that it is there
                        checked_assets.add(target)
                        assert page.request.head(target).status == 200, f"{url} → {target}"
                elif target not in seen:
                    queue.append(target)
            elif target not in checked_assets:
                checked_assets.add(target)
                assert page.request.get(target).status == 200, f"{url} → {target}"
    assert len(seen) >= 1 + 2 * len(LANGUAGES)


def test_switcher_keeps_the_page(page: Page, base_url, site_pages):
    path = _first_rules_page(site_pages, "fr")
    name = path.split("/", 1)[1]
    page.goto(base_url + path)
    for lang, language in NAMES.items():
        link = page.locator(".switcher a", has_text=language)
        expect(link).to_have_attribute("href", f"../{lang}/{name}")
    page.locator(".switcher a", has_text="Hrvatski").click()
    expect(page).to_have_url(base_url + f"hr/{name}")
    expect(page.locator('.switcher a[aria-current="page"]')).to_have_text("Hrvatski")


def test_arabic_lays_out_right_to_left(page: Page, base_url, site_pages):
    page.set_viewport_size({"width": 1200, "height": 800})
    boxes = {}
    for lang in ("en", "ar"):
        page.goto(base_url + _first_rules_page(site_pages, lang))
        boxes[lang] = (page.locator(".brand").bounding_box(), page.locator(".switcher").bounding_box(),
                       page.locator("h1").bounding_box())
        direction = page.locator("h1").evaluate("e => getComputedStyle(e).direction")
        assert direction == LANGUAGES[lang]
    (en_brand, en_switcher, _), (ar_brand, ar_switcher, ar_h1) = boxes["en"], boxes["ar"]
    assert en_brand["x"] < en_switcher["x"]  # English: name on the left, languages on the right
    assert ar_brand["x"] > ar_switcher["x"]  # Arabic: mirrored
    main = page.locator("main").bounding_box()
    assert abs((ar_h1["x"] + ar_h1["width"]) - (main["x"] + main["width"])) < 40  # heading hugs the right


def test_no_horizontal_scroll_at_360_px(page: Page, base_url, site_pages):
    page.set_viewport_size({"width": 360, "height": 740})
    wide = []
    for path in site_pages:
        page.goto(base_url + path)
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > 360:
            wide.append((path, width))
    assert not wide, wide


def test_page_source_has_no_script_and_no_external_url(page: Page, base_url, site_pages):
    for path in site_pages:
        source = page.request.get(base_url + path).text()
        assert "<script" not in source.lower(), path
        inside = re.sub(r'<a href="https://[^"<>\s]+"', "", source)  # further reading: links, not requests
        assert "http://" not in inside and "https://" not in inside, path
        assert " style=" not in source and "<style" not in source, path


def test_works_from_file_urls(page: Page, site_dir):
    page.goto((site_dir / "ar" / "index.html").as_uri())
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    assert page.evaluate("getComputedStyle(document.body).display") == "flex"  # stylesheet loaded
    page.locator(".switcher a", has_text="English").click()
    expect(page).to_have_url((site_dir / "en" / "index.html").as_uri())


AXE_OPTIONS = {"resultTypes": ["violations"]}
"""Every axe rule (WCAG A/AA and best practices), none disabled."""


def test_axe_finds_no_violations(browser: Browser, base_url, site_pages):
    """Every page of every language (about 0.7 s a page)."""
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()
    context = browser.new_context(java_script_enabled=True)  # axe hangs with JavaScript off
    try:
        page = context.new_page()
        reports = []
        for path in site_pages:
            page.goto(base_url + path)
            results = axe.run(page, options=AXE_OPTIONS)
            if results.violations_count:
                reports.append(f"{path}:\n{results.generate_report()}")
        assert not reports, "\n".join(reports)
    finally:
        context.close()


def test_french_headings_never_break_at_the_no_break_space_on_a_phone(page: Page, base_url, site_pages):
    """ "Klaberjass : la marque" keeps its no-break space, and the colon never starts a line at 360 px."""
    page.set_viewport_size({"width": 360, "height": 740})
    broken, checked = [], 0
    for path in _pages_of(site_pages, "fr"):
        page.goto(base_url + path)
        tops = page.locator("h1").evaluate("""h => {
            const text = h.firstChild, out = [];
            for (let i = text.data.indexOf('\\u00a0'); i >= 0; i = text.data.indexOf('\\u00a0', i + 1)) {
                const range = document.createRange();
                range.setStart(text, i - 1); range.setEnd(text, i);
                const before = range.getClientRects()[0].top;
                range.setStart(text, i + 1); range.setEnd(text, i + 2);
                out.push([before, range.getClientRects()[0].top]);
            }
            return out; }""")
        checked += len(tops)
        broken += [path for before, after in tops if abs(before - after) > 2]
    assert checked >= 4, "the titles \"Klaberjass\u00a0: …\" keep their no-break space"
    assert not broken, broken
