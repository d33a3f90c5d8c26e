"""Replays in a real browser with JavaScript off: walking a deal from its overview by rel=next to
its end, deep links, Back, the language switcher on a step, Arabic, a phone, print."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from klabsite.records.klab import read_record
from klabsite.records.replay import replay
from klabsite.site.replay_pages import next_deals
from klabsite.site.replays import LoadedRecord, deal_views

GAMES = ("klaberjass", "klaverjas")


@pytest.fixture(scope="session")
def shipped(site_dir):
    """Every shipped deal's view, by id (computed from the records, not from the pages)."""
    from tests.browser.conftest import REPO

    views = {}
    for path in sorted((REPO / "site_src" / "deals").glob("*.klab")):
        record = read_record(path.read_text(encoding="utf-8"))
        for view in deal_views([LoadedRecord(str(path), record, replay(record))]):
            views[view.id] = view
    return views


def _figures(page: Page) -> dict[str, str]:
    """The scoreboard's card points by column heading."""
    heads = page.locator(".scoreboard thead th").all_inner_texts()
    points = page.locator(".scoreboard tbody tr").first.locator("td").all_inner_texts()
    return dict(zip(heads, points, strict=True))


@pytest.mark.parametrize("game", GAMES)
def test_walking_rel_next_from_the_overview_reaches_the_end_showing_each_card_and_the_points(
        page: Page, base_url, sample_deals, shipped, game):
    deal = shipped[sample_deals[game]]
    page.goto(f"{base_url}en/deals/{deal.id}/index.html")
    seen: list[str] = []
    while not seen or seen[-1] != "end":
        page.locator('a[rel="next"]').first.click()
        name = page.url.rsplit("/", 1)[-1].removesuffix(".html")
        seen.append(name)
        step = deal.step(name)
        if step.kind == "card":
            card = step.step.action.card
            what = page.locator(".what").inner_text()
            assert f"{card.rank.letter if card.rank.letter != 'T' else '10'}{card.suit.symbol}" in what, name
            shown = [int(value) for value in _figures(page).values()]
            last = page.locator(".scoreboard tbody tr").filter(has=page.locator("th", has_text="Last trick"))
            if last.count():   # the last trick's 10, in a row of its own as on the overview
                shown = [points + int(bonus) for points, bonus in zip(shown, last.locator("td").all_inner_texts(),
                                                                      strict=True)]
            assert shown == list(step.table.points.values()), name
    assert seen == [step.name for step in deal.steps]
    following = next_deals(list(shipped.values())).get(deal.id)
    after = page.locator('a[rel="next"]')
    assert after.count() == (1 if following else 0), "Next from a deal's score leads to its match's next deal"
    if following:
        after.click()
        assert page.url.endswith(f"/en/deals/{following.id}/index.html")


def test_a_deep_link_opens_that_step_and_back_returns_to_the_previous_one(page: Page, base_url, sample_deals, shipped):
    deal = shipped[sample_deals["klaverjas"]]
    page.goto(f"{base_url}en/deals/{deal.id}/t3-2.html")
    expect(page.locator("h1")).to_contain_text("Trick 3, card 2")
    expect(page.locator('.step-list a[aria-current="step"]')).to_have_attribute("href", "t3-2.html")
    page.locator('.step-nav a[rel="next"]').click()
    assert page.url.endswith("/t3-3.html")
    page.go_back()
    assert page.url.endswith("/t3-2.html")
    expect(page.locator("h1")).to_contain_text("Trick 3, card 2")


def test_on_a_phone_previous_and_next_follow_the_table_and_on_a_wide_screen_only_precede_it(
        page: Page, base_url, sample_deals, shipped):
    deal = shipped[sample_deals["klaverjas"]]
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{base_url}en/deals/{deal.id}/t3-2.html")
    below = page.locator(".step-nav-below")
    table, buttons = page.locator(".card-table").bounding_box(), below.bounding_box()
    assert buttons["y"] >= table["y"] + table["height"], "right under the table"
    expect(below.locator("a")).to_have_text(["Previous", "Next"])
    below.get_by_role("link", name="Next").click()
    assert page.url.endswith("/t3-3.html")
    below.get_by_role("link", name="Previous").click()
    assert page.url.endswith("/t3-2.html")
    page.set_viewport_size({"width": 1000, "height": 900})
    expect(below).to_be_hidden()


def test_the_second_skip_link_of_a_step_takes_the_keyboard_to_previous_and_next(page: Page, base_url, sample_deals):
    page.goto(f"{base_url}en/deals/{sample_deals['klaverjas']}/t3-2.html")
    page.keyboard.press("Tab")
    expect(page.locator(":focus")).to_have_text("Skip to the content")
    page.keyboard.press("Tab")
    expect(page.locator(":focus")).to_have_text("Skip to the Previous and Next links")
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    expect(page.locator(":focus")).to_have_text("First")
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    expect(page.locator(":focus")).to_have_text("Next")
    page.keyboard.press("Enter")
    page.wait_for_url("**/t3-3.html")


def test_switching_language_on_a_step_keeps_the_step(page: Page, base_url, sample_deals):
    deal = sample_deals["klaberjass"]
    page.goto(f"{base_url}en/deals/{deal}/t2-1.html")
    page.locator('.switcher a[hreflang="hr"]').click()
    assert page.url.endswith(f"/hr/deals/{deal}/t2-1.html")
    expect(page.locator("html")).to_have_attribute("lang", "hr")


def test_an_arabic_step_is_right_to_left_with_the_table_drawn_as_a_compass(page: Page, base_url, sample_deals):
    page.goto(f"{base_url}ar/deals/{sample_deals['klaverjas']}/t1-3.html")
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    north = page.locator(".seat-n").bounding_box()
    east = page.locator(".seat-e").bounding_box()
    west = page.locator(".seat-w").bounding_box()
    assert north and east and west and west["x"] < east["x"], "West on the left, East on the right"
    crumbs = [item.bounding_box() for item in page.locator(".breadcrumb li").all()]
    assert len(crumbs) == 2 and crumbs[0]["x"] > crumbs[1]["x"], "the breadcrumb reads from the right"
    assert "›" not in page.content(), "the separator is drawn by the style sheet, turned for right to left"


@pytest.mark.parametrize("width", [1100, 360])
def test_each_card_of_an_unfinished_trick_lies_on_its_players_side_of_the_trick(page: Page, base_url, sample_deals,
                                                                                 width):
    """A trick of one, two or three cards is drawn on the same compass as a full one: West's card left
    of the middle, North's above it, and the trick keeps its size from card to card."""
    page.set_viewport_size({"width": width, "height": 900})
    sizes = []
    for card in range(1, 5):
        page.goto(f"{base_url}en/deals/{sample_deals['klaverjas']}/t2-{card}.html")
        trick = page.locator(".middle .trick").bounding_box()
        assert trick
        sizes.append((trick["width"], trick["height"]))
        middle_x, middle_y = trick["x"] + trick["width"] / 2, trick["y"] + trick["height"] / 2
        played = page.locator(".middle .played").all()
        assert len(played) == card
        for item in played:
            seat = re.search(r"played-([nesw])", item.get_attribute("class") or "")
            box = item.bounding_box()
            assert seat and box
            x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
            side = {"n": y < middle_y - 5, "s": y > middle_y + 5, "w": x < middle_x - 5, "e": x > middle_x + 5}
            assert side[seat.group(1)], f"t2-{card}: {seat.group(1)} at ({x:.0f}, {y:.0f}), middle ({middle_x:.0f}, {middle_y:.0f})"
    widths, heights = zip(*sizes, strict=True)
    assert max(widths) - min(widths) < 2 and max(heights) - min(heights) < 2, sizes


def test_before_play_the_phone_shows_no_empty_table_between_the_hands(page: Page, base_url, sample_deals, shipped):
    """Nothing lies on the table during the bidding: South's hand follows West's and East's."""
    page.set_viewport_size({"width": 360, "height": 740})
    deal = shipped[sample_deals["klaverjas"]]
    bids = [step.name for step in deal.steps if step.kind == "bid"]
    assert bids
    page.goto(f"{base_url}en/deals/{deal.id}/{bids[0]}.html")
    expect(page.locator(".middle")).to_have_count(0)
    sides = [page.locator(f".seat-{seat}").bounding_box() for seat in "we"]
    above = max(box["y"] + box["height"] for box in sides if box)
    south = page.locator(".seat-s").bounding_box()["y"]
    assert south - above < 30, f"{south - above:.0f} px of empty table above South"


@pytest.mark.parametrize("game", GAMES)
def test_step_pages_do_not_scroll_sideways_on_a_phone(page: Page, base_url, sample_deals, shipped, game):
    page.set_viewport_size({"width": 360, "height": 740})
    deal = shipped[sample_deals[game]]
    for lang in ("en", "ar"):
        for step in deal.steps[:: max(1, len(deal.steps) // 6)]:
            page.goto(f"{base_url}{lang}/deals/{deal.id}/{step.name}.html")
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 360, f"{lang} {step.name}: {width}px wide"


@pytest.mark.parametrize(("width", "langs"), [(390, ("en", "fr", "es", "hr", "ar")),
                                             (360, ("en", "fr", "es", "hr"))])  # Arabic, a size larger
def test_a_deals_table_of_tricks_fits_a_phone(page: Page, base_url, sample_deals, shipped, width, langs):
    """Trick, cards, winner, points and roem (or bella) are all in view without scrolling sideways."""
    page.set_viewport_size({"width": width, "height": 844})
    for game in ("klaverjas", "klaberjass"):
        deal = shipped[sample_deals[game]]
        for lang in langs:
            page.goto(f"{base_url}{lang}/deals/{deal.id}/index.html")
            wide, room = page.locator("table.tricks").evaluate("t => [t.scrollWidth, t.parentElement.clientWidth]")
            assert wide <= room, f"{game}, {lang}: the tricks need {wide} px and have {room}"


def test_the_overview_prints_every_trick(page: Page, base_url, sample_deals, shipped):
    deal = shipped[sample_deals["klaverjas"]]
    page.goto(f"{base_url}en/deals/{deal.id}/index.html")
    page.emulate_media(media="print")
    rows = page.locator("table.tricks tbody tr")
    expect(rows).to_have_count(len(deal.tricks))
    for row in rows.all():
        assert row.is_visible()
    assert not page.locator(".step-nav").first.is_visible()
    pdf = page.pdf(format="A4")
    assert pdf.startswith(b"%PDF") and len(re.findall(rb"/Type\s*/Page[^s]", pdf)) <= 3


@pytest.mark.parametrize("touch", [False, True])
def test_every_step_in_the_step_list_is_a_target_a_finger_can_hit(browser, base_url, sample_deals, touch):
    """WCAG's minimum target, 24 × 24 px; on a touch screen the 44 × 44 px a finger needs."""
    context = browser.new_context(java_script_enabled=False, viewport={"width": 360, "height": 740},
                                  has_touch=touch, is_mobile=touch)
    page = context.new_page()
    page.goto(f"{base_url}en/deals/{sample_deals['klaverjas']}/t3-2.html")
    least = 44 if touch else 24
    links = page.locator(".step-list a").all()
    assert len(links) > 10
    for link in links:
        box = link.bounding_box()
        assert box and box["width"] >= least and box["height"] >= least, (link.inner_text(), box)
    context.close()


_TEXT_EDGES = ("cell => { const range = document.createRange(); range.selectNodeContents(cell);"
               " const box = range.getBoundingClientRect(); return [box.left, box.right]; }")


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_score_tables_column_headings_line_up_with_their_numbers(page: Page, base_url, sample_deals, lang):
    """Each side's heading ends where its numbers end (on the right in English, on the left in Arabic):
    the breakdown on the score step, the running scoreboard on the last card's step."""
    edge = 1 if lang == "en" else 0
    for step, table in (("end", ".breakdown"), ("t8-4", ".scoreboard")):
        page.goto(f"{base_url}{lang}/deals/{sample_deals['klaverjas']}/{step}.html")
        headings = page.locator(f"{table} thead th").all()
        numbers = page.locator(f"{table} tbody tr").first.locator("td").all()
        assert len(headings) == len(numbers) == 2
        for heading, number in zip(headings, numbers, strict=True):
            head, cell = heading.evaluate(_TEXT_EDGES), number.evaluate(_TEXT_EDGES)
            assert abs(head[edge] - cell[edge]) < 2, (table, heading.inner_text(), head, cell)


@pytest.mark.parametrize("game", GAMES)
def test_stepping_through_a_deal_on_a_wide_screen_never_moves_the_table(page: Page, base_url, sample_deals, shipped,
                                                                         game):
    """On a screen that shows the whole step, the table lies right under Previous and Next, where
    every step draws it: what happened, whose length varies, follows it."""
    page.set_viewport_size({"width": 1280, "height": 900})
    deal = shipped[sample_deals[game]]
    tops = {}
    for step in deal.steps:
        page.goto(f"{base_url}en/deals/{deal.id}/{step.name}.html")
        table, what = page.locator(".card-table").bounding_box(), page.locator(".what").bounding_box()
        assert table and what and what["y"] > table["y"] + table["height"], step.name
        tops[step.name] = round(table["y"])
    assert len(set(tops.values())) == 1, tops


_HAND_ROWS = """() => [...document.querySelectorAll('.card-table .seat')].map(seat => {
  const edge = seat.getBoundingClientRect(), rows = new Map();
  let outside = 0;
  for (const slot of seat.querySelectorAll('.slot')) {
    const top = Math.round(slot.getBoundingClientRect().top), card = slot.firstElementChild;
    const suit = (card.className.match(/card-([shcd])\\b/) || [null, '?'])[1];
    rows.set(top, (rows.get(top) || '') + suit);
    const box = card.getBoundingClientRect();
    outside = Math.max(outside, edge.left - box.left, box.right - edge.right);
  }
  return [seat.className.match(/seat-(\\w)/)[1], [...rows.values()], outside];
})"""


@pytest.mark.parametrize(("lang", "width"), [("en", 360), ("ar", 360), ("en", 320), ("en", 1280)])
@pytest.mark.parametrize("game", GAMES)
def test_a_hand_lies_in_even_rows_or_a_suit_a_row_inside_its_seat_on_every_step(page: Page, base_url, sample_deals,
                                                                              shipped, game, lang, width):
    """North and South: never one card alone on a row (eight cards wrapping seven and one). West
    and East, as in a bridge diagram: each suit starts a row, and a suit takes a second row only
    when it fills the first. No card over the edge of its seat, and the same rows on every step:
    a played card keeps its place."""
    page.set_viewport_size({"width": width, "height": 740})
    deal = shipped[sample_deals[game]]
    rows_seen: dict[str, set[tuple[int, ...]]] = {}
    for step in deal.steps:
        page.goto(f"{base_url}{lang}/deals/{deal.id}/{step.name}.html")
        for seat, rows, outside in page.evaluate(_HAND_ROWS):
            assert outside <= 1, f"{step.name}: a card of {seat} lies {outside:.0f} px outside its seat"
            sizes = [len(row) for row in rows]
            if seat in "ew":
                suits = [row[0] for row in rows]
                assert all(len(set(row)) == 1 for row in rows), f"{step.name}: {seat} mixes suits in a row: {rows}"
                assert all(len(row) == max(sizes) for row, suit in zip(rows, suits[1:], strict=False)
                           if row[0] == suit), f"{step.name}: {seat} splits a suit that fits a row: {rows}"
            else:
                assert len(rows) == 1 or min(sizes) > 1 and max(sizes) - min(sizes) <= 2, f"{step.name}: {seat} {rows}"
            rows_seen.setdefault(seat, set()).add(tuple(sizes))
    changing = {seat: rows for seat, rows in rows_seen.items() if len({len(row) for row in rows}) > 1}
    assert not changing, f"the number of rows changes from step to step: {changing}"


@pytest.mark.parametrize("game", GAMES)
def test_a_phone_shows_who_won_each_trick_and_its_points_without_scrolling(page: Page, base_url, sample_deals,
                                                                            shipped, game):
    """The overview's tricks on a phone: a play a line, so that the winner and the points stay in the box."""
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"{base_url}en/deals/{sample_deals[game]}/index.html")
    box = page.locator(".table-wrap:has(> table.tricks)").bounding_box()
    assert box
    for row in page.locator("table.tricks tbody tr").all():
        for cell in row.locator("td").all()[:3]:  # the cards, the winner, the points
            edge = cell.bounding_box()
            assert edge and edge["x"] + edge["width"] <= box["x"] + box["width"] + 1, cell.inner_text()
        plays = [play.bounding_box()["y"] for play in row.locator(".trick-play").all()]
        assert len(set(plays)) == len(plays) == len(shipped[sample_deals[game]].seats), plays


def test_the_steps_of_the_trick_in_play_are_set_apart(page: Page, base_url, sample_deals):
    """Two step links on one line never read as one run of words ("Bidding, turn 1: South Bidding, turn 2: North")."""
    page.goto(f"{base_url}en/deals/{sample_deals['klaberjass']}/deal.html")
    links = page.locator(".step-list .is-current li a").all()
    assert len(links) > 2
    boxes = [link.bounding_box() for link in links]
    gaps = [right["x"] - (left["x"] + left["width"]) for left, right in zip(boxes, boxes[1:], strict=False)
            if left and right and abs(left["y"] - right["y"]) < 2]
    assert gaps and min(gaps) >= 10, gaps


def test_a_printed_step_names_its_deal_and_marks_the_trick_winner_in_black(page: Page, base_url, sample_deals, shipped):
    deal = shipped[sample_deals["klaverjas"]]
    won = next(step for step in deal.steps if step.kind == "card" and step.table.won_by)
    page.goto(f"{base_url}en/deals/{deal.id}/{won.name}.html")
    page.emulate_media(media="print")
    expect(page.locator(".breadcrumb")).to_be_visible()
    expect(page.locator(".breadcrumb")).to_contain_text("Klaverjas")
    outline = page.locator(".played.is-winner .card").evaluate("e => getComputedStyle(e).outlineColor")
    assert outline == "rgb(0, 0, 0)", outline
    page.goto(f"{base_url}en/deals/{deal.id}/index.html")
    page.emulate_media(media="print")
    expect(page.locator("a[download]")).to_be_hidden()
    expect(page.locator(".step-go").first).to_be_hidden()


def test_the_player_to_act_stands_out_by_more_than_an_underline(page: Page, base_url, shipped):
    """A reader looks for whose turn it is: the acting seat's name sits on a ground of its own."""
    deal = next(deal for deal in shipped.values() if deal.game == "klaverjas")
    step = next(step for step in deal.steps if step.kind == "card")
    page.goto(f"{base_url}en/deals/{deal.id}/{step.name}.html")
    grounds = [seat.evaluate("e => getComputedStyle(e).backgroundColor")
               for seat in page.locator(".card-table .seat-who").all()]
    acting = page.locator(".card-table .is-acting .seat-who").evaluate("e => getComputedStyle(e).backgroundColor")
    assert grounds.count(acting) == 1 and acting != "rgba(0, 0, 0, 0)", grounds


@pytest.mark.parametrize("media", ["screen", "print"])
def test_the_cards_of_a_declared_sequence_stand_above_the_rest_of_the_hand_and_are_ringed(page: Page, base_url, shipped,
                                                                                         media):
    deal, step = next((deal, step) for deal in shipped.values() for step in deal.steps
                      if any(type(event).__name__ == "Declared" and event.melds for event in step.step.events))
    page.goto(f"{base_url}en/deals/{deal.id}/{step.name}.html")
    page.emulate_media(media=media)
    hand = page.locator(".seat.is-acting .hand")
    melded, others = hand.locator(".is-melded .card").all(), hand.locator(".slot:not(.is-melded) .card").all()
    assert len(melded) >= 3 and others
    tops = {card.bounding_box()["y"] for card in melded}
    rest = [card.bounding_box()["y"] for card in others]
    assert max(tops) + 2 < min(top for top in rest if abs(top - min(tops)) < 20), (tops, rest)
    style = melded[0].evaluate("e => [getComputedStyle(e).outlineStyle, getComputedStyle(e).outlineColor]")
    assert style[0] == "dashed" and (style[1] == "rgb(0, 0, 0)") == (media == "print"), style


@pytest.mark.parametrize(("media", "forced"), [("screen", "none"), ("print", "none"), ("screen", "active")])
def test_a_sequences_frame_and_the_trick_winners_frame_differ_without_their_colours(page: Page, base_url, shipped,
                                                                                      media, forced):
    """The legend tells the two frames apart by more than colour: in print and in forced colours
    both are black, so a sequence's is dashed and the winner's solid."""
    frames = {}
    for mark, seen in ((".slot.is-melded .card", lambda deal, step: any(map(step.melded, deal.seats))),
                       (".played.is-winner .card", lambda deal, step: step.table.won_by)):
        deal, step = next((deal, step) for deal in shipped.values() for step in deal.steps if seen(deal, step))
        page.goto(f"{base_url}en/deals/{deal.id}/{step.name}.html")
        page.emulate_media(media=media, forced_colors=forced)
        frames[mark] = page.locator(mark).first.evaluate("e => getComputedStyle(e).outlineStyle")
    assert frames == {".slot.is-melded .card": "dashed", ".played.is-winner .card": "solid"}, frames


def test_before_the_extra_cards_no_klaberjass_hand_leaves_a_card_alone_on_a_narrow_phone(page: Page, base_url,
                                                                                            shipped):
    """Six cards at 280 px (a folding phone's outer screen) lie 3 + 3, on every shipped deal."""
    page.set_viewport_size({"width": 280, "height": 740})
    deals = [deal for deal in shipped.values() if deal.game == "klaberjass"]
    assert deals
    for deal in deals:
        page.goto(f"{base_url}en/deals/{deal.id}/{deal.steps[0].name}.html")
        for seat, rows, outside in page.evaluate(_HAND_ROWS):
            assert outside <= 1 and (len(rows) == 1 or min(map(len, rows)) > 1), f"{deal.id}: {seat} {rows}"


def test_the_extra_cards_step_shows_which_three_cards_each_player_got(page: Page, base_url, shipped):
    """The "+" marks of the overview show on the extra-cards step too (and only there among the
    steps): three in each hand, the cards the record's stock gave."""
    deal = next(deal for deal in shipped.values() if deal.game == "klaberjass"
                and any(step.kind == "extra" for step in deal.steps))
    for step in deal.steps[:6]:
        page.goto(f"{base_url}en/deals/{deal.id}/{step.name}.html")
        marks = page.locator(".seat .extra-mark")
        visible = [index for index in range(marks.count()) if marks.nth(index).is_visible()]
        if step.kind != "extra":
            assert not visible, step.name
            continue
        assert len(visible) == 6, step.name
        for seat in page.locator(".seat").all():
            marked = seat.locator(".slot:has(.extra-mark)")
            assert marked.count() == 3
        expect(page.locator(".what")).to_contain_text("The cards marked + came with the extra cards")


_CONTRAST = """e => { const rgb = s => s.match(/[\\d.]+/g).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const style = getComputedStyle(e); const ink = rgb(style.color), ground = rgb(style.backgroundColor);
  const [a, b] = [lum(ink), lum(ground)].sort((x, y) => y - x);
  return [ground.length === 4 ? ground[3] : 1, (a + 0.05) / (b + 0.05)]; }"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_player_to_acts_name_reads_at_4_5_to_1_on_its_own_solid_ground(browser, base_url, shipped, scheme):
    """WCAG AA for text: a translucent ground over the felt's gradient fell to 3.9 : 1 in light mode."""
    context = browser.new_context(java_script_enabled=False, color_scheme=scheme)
    page = context.new_page()
    deal = next(deal for deal in shipped.values() if deal.game == "klaverjas")
    step = next(step for step in deal.steps if step.kind == "card")
    page.goto(f"{base_url}en/deals/{deal.id}/{step.name}.html")
    alpha, ratio = page.locator(".card-table .is-acting .seat-who").evaluate(_CONTRAST)
    assert alpha == 1 and ratio >= 4.5, (alpha, ratio)
    context.close()


def test_an_acting_name_that_wraps_keeps_its_ground_whole_on_each_line(page: Page, base_url, shipped):
    deal = next(deal for deal in shipped.values() if deal.game == "klaverjas")
    step = next(step for step in deal.steps if step.kind == "card")
    page.goto(f"{base_url}ar/deals/{deal.id}/{step.name}.html")
    breaking = page.locator(".card-table .is-acting .seat-who").evaluate(
        "e => getComputedStyle(e).boxDecorationBreak || getComputedStyle(e).webkitBoxDecorationBreak")
    assert breaking == "clone"


@pytest.mark.parametrize("width", [360, 390])
def test_a_skip_link_is_wholly_out_of_sight_until_it_has_the_focus(page: Page, base_url, sample_deals, width):
    """Croatian's second skip link wraps to three lines: a fixed offset left its foot on the page."""
    page.set_viewport_size({"width": width, "height": 740})
    for lang in ("en", "fr", "es", "hr", "ar"):
        page.goto(f"{base_url}{lang}/deals/{sample_deals['klaverjas']}/t1-4.html")
        links = page.locator(".skip-link").all()
        assert len(links) == 2
        for link in links:
            box = link.bounding_box()
            assert box and box["y"] + box["height"] <= 0, (lang, link.inner_text(), box)
        page.keyboard.press("Tab")
        box = links[0].bounding_box()
        assert box and box["y"] >= 0, "focused, it comes into view"


@pytest.mark.parametrize("lang", ["en", "fr", "es", "hr", "ar"])
def test_the_card_order_table_fits_a_390_px_phone(page: Page, base_url, lang):
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{base_url}{lang}/cards.html")
    wide, room = page.locator("table.card-order").evaluate("t => [t.scrollWidth, t.parentElement.clientWidth]")
    assert wide <= room, f"the card order needs {wide} px and has {room}"



@pytest.mark.parametrize("lang", ["en", "fr", "es", "hr", "ar"])
def test_the_worked_klaverjas_scores_fit_a_360_px_phone(page: Page, base_url, lang):
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"{base_url}{lang}/klaverjas-scoring.html")
    sizes = page.locator("table.deal-score").evaluate_all(
        "tables => tables.map(t => [t.scrollWidth, t.parentElement.clientWidth])")
    assert len(sizes) == 4
    assert all(wide <= room for wide, room in sizes), sizes

def test_short_links_in_tables_and_facts_are_24_px_targets_on_a_touch_screen(browser, base_url, sample_deals):
    """A trick's number, a deal's number on a score sheet, a tag word: WCAG's 24 × 24 px."""
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 844},
                                  has_touch=True, is_mobile=True)
    page = context.new_page()
    for path, selector in ((f"deals/{sample_deals['klaverjas']}/index.html", "table.tricks th[scope=row] > a"),
                           (f"deals/{sample_deals['klaverjas']}/index.html", "dl.facts dd a"),
                           ("deals/index.html", ".toc-tags a")):
        page.goto(f"{base_url}en/{path}")
        links = page.locator(selector).all()
        assert links, selector
        for link in links:
            box = link.bounding_box()
            assert box and box["width"] >= 24 and box["height"] >= 24, (selector, link.inner_text(), box)
    context.close()


def test_on_paper_code_wraps_and_the_marks_help_link_is_left_out(page: Page, base_url, sample_deals):
    page.emulate_media(media="print")
    page.set_viewport_size({"width": 688, "height": 1000})  # an A4 sheet's text width
    for lang in ("en", "ar"):
        page.goto(f"{base_url}{lang}/record-format.html")
        clipped = page.locator("pre").evaluate_all("all => all.filter(e => e.scrollWidth > e.clientWidth + 1).length")
        assert clipped == 0
    page.goto(f"{base_url}en/deals/{sample_deals['klaverjas']}/t1-4.html")
    assert page.locator(".marks-help").count() and not page.locator(".marks-help").first.is_visible()
