"""The replay page kinds: per language, every deal's overview and steps, the gallery, the matches.

Each function yields :class:`~klabsite.site.pages.Page` values for :data:`PAGE_KINDS` of
:mod:`klabsite.site.render`; the templates (``deal.html``, ``step.html``, ``deals.html``,
``match.html``) draw them from the plain values of :mod:`klabsite.site.replays`.

Links stay relative: a step page ``<lang>/deals/<id>/t3-2.html`` links its neighbours as
``t3-4.html``, its overview as ``index.html`` and the gallery as ``../index.html``.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from klabsite.engine.cards import Card
from klabsite.engine.options import KlaverjasRules
from klabsite.records.steps import Slot
from klabsite.site.directives import OPTION_PAGES
from klabsite.site.pages import Page
from klabsite.site.replays import TAG_ORDER, DealView, StepView

if TYPE_CHECKING:
    from klabsite.site.render import Renderer

__all__ = ["deal_pages", "gallery_pages", "match_pages", "StepGroup", "step_groups", "neighbours"]


@dataclass(frozen=True, eq=False)
class StepGroup:
    """A row of the step list: the steps before play, one trick, or the end."""

    kind: str
    """``start``, ``trick`` or ``end``."""
    trick: int
    steps: tuple[StepView, ...]


def step_groups(deal: DealView) -> list[StepGroup]:
    """The deal's steps by row: everything before the first card, each trick, the end.

    A declaration made during the first trick (the dealer's) stays in that trick's row.
    """
    rows: dict[tuple[str, int], list[StepView]] = {}
    trick = 0
    for step in deal.steps:
        trick = step.trick or trick
        key = ("end", 0) if step.kind == "end" else ("trick", trick) if trick else ("start", 0)
        rows.setdefault(key, []).append(step)
    return [StepGroup(kind, number, tuple(steps)) for (kind, number), steps in rows.items()]


def neighbours(deal: DealView, index: int) -> dict[str, str | None]:
    """The names of the steps a step page links to: first, previous, next, last, and the
    first card of the previous and next tricks (None where there is none).

    A step belongs to the trick of the last card played at or before it (a Klaberjass dealer's
    declaration, made after the first card, to the first trick); the score comes after the last
    trick. So "previous trick" always leads back to a trick before the step's own, and "next
    trick" always forward: from the last trick, to the score.
    """
    steps = deal.steps
    step = steps[index]
    played = [other.trick for other in steps[:index + 1] if other.trick is not None]
    current = (played[-1] if played else 0) + (1 if step.kind == "end" else 0)
    starts = {other.trick: other.name for other in steps if other.card_number == 1}
    return {
        "first": steps[0].name if index else None,
        "prev": steps[index - 1].name if index else None,
        "next": steps[index + 1].name if index + 1 < len(steps) else None,
        "last": steps[-1].name if index + 1 < len(steps) else None,
        "prev_trick": starts.get(current - 1),
        "next_trick": starts.get(current + 1) or (steps[-1].name if current and steps[-1].kind == "end"
                                                  and index + 1 < len(steps) else None),
    }


def _option_links(game: str, slugs: Collection[str]) -> dict[str, str]:
    """Where each option of ``game`` is explained, from a deal's folder; none where the site has no
    such page (``slugs``: its rules pages)."""
    return {name: f"../../{page}" for name, page in OPTION_PAGES[game].items()
            if page.partition(".html")[0] in slugs}


_BOTH_AGREE = "klaverjas-play.html#the-rules-both-agree-on"
"""Klaverjas: the rules Amsterdam and Rotterdam share (following suit, trumps led)."""
_TRADITION_RULES = ("trump", "overtrump", "undertrump", "no-undertrump", "only-lower-trumps", "partner-wins",
                    "partner-no-undertrump")
"""Klaverjas: the rule words of a player who cannot follow a plain suit, where the traditions differ."""


def _rule_links(deal: DealView, slugs: Collection[str]) -> dict[str, str]:
    """Where each rule word of a card play (``StepView.rule``) is explained, from a deal's folder:
    the play page's section of the deal's trick rules, or the rules both traditions share. None
    when the site has no such page (``slugs``: its rules pages; a project may leave them out).
    ``any-plain`` is ``any`` when a plain suit was led (in Klaverjas, each tradition says it)."""
    if deal.game == "klaberjass":
        words = ("follow", "higher-trump", "lower-trump", "beat", "trump", "any", "any-plain")
        links = dict.fromkeys(words, "klaberjass-play.html#play")
    else:
        assert isinstance(deal.rules, KlaverjasRules)
        links = dict.fromkeys(("follow", "higher-trump", "lower-trump", "any"), _BOTH_AGREE)
        tradition = f"klaverjas-play.html#{deal.rules.trick_rules}-rules"
        links.update(dict.fromkeys((*_TRADITION_RULES, "any-plain"), tradition))
    return {word: f"../../{link}" for word, link in links.items() if link.partition(".html")[0] in slugs}


def _deal_path(lang: str, deal: DealView, name: str = "index") -> str:
    return f"{lang}/deals/{deal.id}/{name}.html"


def deal_pages(renderer: Renderer) -> Iterator[Page]:
    """``<lang>/deals/<id>/index.html`` and one page per step, for every shipped deal."""
    following = next_deals(renderer.deals)
    slugs = {source.slug for source in renderer.site.rules}
    for language in renderer.languages:
        lang = language.code
        for deal in renderer.deals:
            groups, rule_links = step_groups(deal), _rule_links(deal, slugs)
            hands, option_links = deal.hands_step, _option_links(deal.game, slugs)
            yield Page("deal", lang, _deal_path(lang, deal), "deal.html",
                       {"deal": deal, "groups": groups, "first_step": deal.steps[0].name, "hands_step": hands,
                        "option_links": option_links},
                       source=deal.source)
            next_deal = following.get(deal.id)
            after = f"../{next_deal.id}/index.html" if next_deal else None  # "Next" from the last step
            for index, step in enumerate(deal.steps):
                around = neighbours(deal, index)
                yield Page("step", lang, _deal_path(lang, deal, step.name), "step.html",
                           {"deal": deal, "step": step, "groups": groups, "next_deal": next_deal,
                            "rule_links": rule_links, "option_links": option_links,
                            "after": None if around["next"] else after, **around},
                           source=deal.source)


def next_deals(deals: Sequence[DealView]) -> dict[str, DealView]:
    """Each replayed deal's id and the next replayed deal of its match (for the score page's link)."""
    following = {}
    for deal, after in zip(deals, deals[1:], strict=False):
        if after.match_id == deal.match_id:
            following[deal.id] = after
    return following


def _gallery(deals: Sequence[DealView]) -> list[dict[str, Any]]:
    """The gallery's sections: per game, its deals, the deal a newcomer starts with (the first the
    rules pages tell in full, tagged ``worked-example``, or None), and per tag word, the deals that
    have it."""
    sections = []
    for game in ("klaberjass", "klaverjas"):
        mine = [deal for deal in deals if deal.game == game]
        if not mine:
            continue
        known = [tag for tag in TAG_ORDER if any(tag in deal.tags for deal in mine)]
        other = sorted({tag for deal in mine for tag in deal.tags} - set(TAG_ORDER))
        tags = [(tag, [deal for deal in mine if tag in deal.tags]) for tag in known + other]
        start = next((deal for deal in mine if "worked-example" in deal.tags), None)
        sections.append({"game": game, "deals": mine, "start": start, "tags": tags})
    return sections


class MarkSample(NamedTuple):
    """A card drawn with one of the marks the replays put on cards, for the gallery's legend."""

    slot: Slot
    cost: int | None = None
    melded: bool = False
    numbered: bool = False


MARK_SAMPLES = {
    "played": MarkSample(Slot(Card.parse("QS"), "played", trick=3), numbered=True),
    "gone": MarkSample(Slot(Card.parse("7D"), "gone")),
    "melded": MarkSample(Slot(Card.parse("KH"), "held"), melded=True),
    "extra": MarkSample(Slot(Card.parse("9C"), "held", extra=True)),
    "coming": MarkSample(Slot(Card.parse("AS"), "coming")),
    "best": MarkSample(Slot(Card.parse("JH"), "held"), cost=0),
    "cost": MarkSample(Slot(Card.parse("TS"), "held"), cost=16),
    "winner": MarkSample(Slot(Card.parse("AH"), "held")),
    "roem": MarkSample(Slot(Card.parse("KC"), "held")),
}
"""The legend's samples by mark, in the legend's order (``winner`` and ``roem``: a card in the trick,
drawn there)."""


def gallery_pages(renderer: Renderer) -> Iterator[Page]:
    """``<lang>/deals/index.html``: the shipped deals by game and by tag, and the matches."""
    if not renderer.deals and not renderer.matches:
        return
    sections = _gallery(renderer.deals)
    for language in renderer.languages:
        yield Page("gallery", language.code, f"{language.code}/deals/index.html", "deals.html",
                   {"sections": sections, "matches": renderer.matches, "marks": MARK_SAMPLES})


def match_pages(renderer: Renderer) -> Iterator[Page]:
    """``<lang>/matches/<match id>/index.html``: a match as its score sheet."""
    replayed = {deal.id for deal in renderer.deals}
    for language in renderer.languages:
        for match in renderer.matches:
            yield Page("match", language.code, f"{language.code}/matches/{match.id}/index.html", "match.html",
                       {"match": match, "replayed": replayed}, source=match.source)
