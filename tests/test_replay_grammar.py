"""Names said in the form their place in a sentence needs, from the shipped catalogs.

- The Croatian narration names the card a player plays, keeps, exchanges or declares in the
  accusative ("Jug igra dečka karo"), while a hand names each card on its own ("dečko karo").
- The Arabic card-order picture says a card's points with the dual ("نقطتان"), not "2 نقطة", and
  hides the bare number from screen readers.
- The label under a card of a Klaverjas trick's roem has a message of its own: the Arabic label is
  short, while the score table keeps the full name.
- The game words every language borrows (roem, nat, dix …) say their language in the narration.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from klabsite.site.build import run_build

REPO = Path(__file__).resolve().parents[1]
DEALS = REPO / "site_src" / "deals"
LABEL = re.compile(r'role="img" aria-label="([^"]*)"')


def _catalog(lang: str) -> dict[tuple[str | None, str], str | tuple[str, ...]]:
    with open(REPO / "locales" / lang / "LC_MESSAGES" / "messages.po", "rb") as po:
        return {(m.context, m.id if isinstance(m.id, str) else m.id[0]): m.string for m in read_po(po)}


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("grammar") / "site"
    deals = [DEALS / "klaberjass-dix.klab", DEALS / "klaverjas-roem-200.klab"]
    assert run_build(REPO, out=str(out), langs=["hr", "ar"], deals=deals) == 0
    return out


def _pages(site: Path, lang: str) -> list[str]:
    return [page.read_text(encoding="utf-8") for page in sorted((site / lang / "deals").glob("*/*.html"))]


def test_croatian_narration_names_the_card_played_in_the_accusative(site):
    catalog = _catalog("hr")
    nominative = {catalog["rank", rank] for rank in ("seven", "queen", "jack", "ten")}
    accusative = {catalog["rank, as an object", rank] for rank in ("seven", "queen", "jack", "ten")}
    assert not nominative & accusative, "the feminine ranks and the jack change in the accusative"
    said = held = 0
    for page in _pages(site, "hr"):
        for sentence in re.findall(r'<div class="what">(.*?)</div>', page, re.S):
            for verb, labels in re.findall(r"(igra|zadržava|mijenja|zove|pokazuje) ((?:<span [^>]*>[^<]*</span>[ ,i]*)+)",
                                           sentence):
                for label in LABEL.findall(labels):
                    said += 1
                    rank = label.split()[0]
                    assert rank not in nominative, f"{verb} {label}"
        for hand in re.findall(r'<ul class="hand">(.*?)</ul>', page, re.S):
            for label in LABEL.findall(hand):
                held += 1
                assert label.split()[0] not in accusative, label
    assert said > 50 and held > 500


def test_arabic_card_points_are_said_with_the_dual_and_the_number_is_hidden(site):
    page = (site / "ar" / "cards.html").read_text(encoding="utf-8")
    points = re.findall(r'<span class="card-points"><span aria-hidden="true">(\d+)</span>'
                        r'<span class="visually-hidden"> \(([^<]*)\)</span></span>', page)
    assert len(points) == 16, "eight trumps and eight plain cards, each with its points"
    said = dict(points)
    assert said["2"] == "نقطتان" and said["0"] == "لا نقاط" and said["11"] == "11 نقطة"
    assert not any(re.match(r"2 ", spoken) for spoken in said.values())


def test_the_label_under_a_roem_card_is_a_message_of_its_own(site):
    catalog = _catalog("ar")
    label = catalog["label under a card of the trick's roem", "Roem"]
    header = catalog[None, "Roem"]
    assert label and header and label != header
    marks = set()
    rows = set()
    for page in _pages(site, "ar"):
        marks |= set(re.findall(r'<span class="roem-mark">([^<]*)</span>', page))
        rows |= {html.unescape(row) for row in re.findall(r'<th scope="row">([^<]*)</th>', page)}
    assert marks == {label}
    assert header in rows


def test_the_borrowed_game_words_of_a_replay_say_their_language(site):
    """roem, stuk, pit and nat are Dutch, schmeiss German, dix French: in the narration and on the
    overview each says so (a screen reader says it as that language's word); never in an attribute
    or a title, and never in an inflected form."""
    marked = set()
    for page in _pages(site, "hr") + _pages(site, "ar"):
        marked |= set(re.findall(r'<span lang="(nl|de|fr)">([^<]*)</span>', page))
        head = page[:page.index("</head>")]
        assert "<span" not in head, "the title and the share previews stay plain text"
        assert not re.search(r'="[^"]*<span', page), "no mark inside an attribute"
    assert {("nl", "Roem"), ("fr", "dix")} <= marked
    assert all(word.casefold() in {"roem", "stuk", "pit", "nat", "schmeiss", "dix", "capot"} for _, word in marked)
