"""``[[klab:see-deal …]]``: a rule's link to the step of a shipped deal where it happens.

``[[klab:see-deal tag=pit]]`` links to the first shipped deal (in the order of
``site_src/deals/``) with the tag word ``pit``, at the step that shows it; ``game=klaverjas``
narrows the choice. Which step shows each tag word: :func:`step_of`. Where no shipped deal has
the tag, the directive draws nothing (a project without deals builds all the same); a word
klabsite does not know that no shipped deal carries either is a typing mistake, and an error.

>>> step_of("thrown-in", None) is None
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from klabsite.engine.actions import ActionKind
from klabsite.engine.events import CardPlayed, TrickWon
from klabsite.engine.games import GAMES
from klabsite.engine.klaberjass import BellaDecided, DixDecided
from klabsite.engine.melds import Declared
from klabsite.records.tags import BLUNDER_COST, TAG_WORDS, holds_stuk
from klabsite.site.pictures import WORKED_TAG
from klabsite.site.replays import DealView, StepView
from klabsite.site.views import Link, Note, phrase

__all__ = ["see_deal", "step_of", "find_step", "KNOWN_WORDS"]


def _events(step: StepView) -> tuple[Any, ...]:
    return step.step.events


def _card_step(deal: DealView, test: Any) -> StepView | None:
    return next((step for step in deal.steps if step.kind == "card" and any(map(test, _events(step)))), None)


def step_of(tag: str, deal: DealView | None) -> StepView | None:
    """The step of ``deal`` that shows the tag word ``tag`` happening (None if it has none)."""
    if deal is None:
        return None
    steps = deal.steps
    if tag == "dix":
        return next((step for step in steps if any(isinstance(event, DixDecided) and event.exchanged
                                                   for event in _events(step))), None)
    if tag == "schmeiss":
        return next((step for step in steps if step.step.action is not None
                     and step.step.action.kind is ActionKind.SCHMEISS), None)
    if tag == "sequence-duel":
        declared = [step for step in steps if any(isinstance(event, Declared) and event.melds
                                                  for event in _events(step))]
        return declared[-1] if len(declared) > 1 else None
    if tag == "bella-declined":
        return _card_step(deal, lambda event: isinstance(event, BellaDecided) and not event.claimed)
    if tag == "bella" and not deal.by_side:
        return _card_step(deal, lambda event: isinstance(event, CardPlayed) and event.bella)
    if tag == "bella":  # Klaverjas: the trick with stuk in it, not the first roem of 20
        return next((step for step in steps if step.kind == "card" and any(
            isinstance(event, TrickWon) and holds_stuk(event, step.table.trump)
            for event in _events(step))), None)
    if tag in ("roem-100", "roem-200"):
        least = {"roem-100": 100, "roem-200": 200}[tag]
        return _card_step(deal, lambda event: isinstance(event, TrickWon) and event.roem >= least)
    if tag == "blunder":
        return next((step for step in steps if step.dd and step.step.action is not None and any(
            card == step.step.action.card and cost >= BLUNDER_COST for card, _value, cost in step.dd)), None)
    if tag == "last-trick-decides":
        return _card_step(deal, lambda event: isinstance(event, TrickWon) and event.last)
    return steps[-1] if steps and steps[-1].kind == "end" and tag in deal.tags else None


def find_step(deals: Sequence[DealView], tag: str, game: str | None = None
              ) -> tuple[DealView, StepView] | None:
    """The first deal of ``deals`` (of ``game``) tagged ``tag``, and its step that shows it."""
    for deal in deals:
        if tag in deal.tags and (game is None or deal.game == game):
            step = step_of(tag, deal)
            if step is not None:
                return deal, step
    return None


KNOWN_WORDS = (*TAG_WORDS, WORKED_TAG)
"""The tag words klabsite knows: those the simulator computes and the worked examples' word."""


def _checked(raw: dict[str, str], deals: Sequence[DealView], own_words: bool) -> tuple[str, str | None]:
    """The directive's tag word and game, or a ValueError that says what to write instead.

    ``own_words``: a word klabsite does not know must be one a deal of ``deals`` carries (not so
    for ``klabsite replay``, which shows other records than the project's own)."""
    usage = "write [[klab:see-deal tag=WORD game=klaberjass|klaverjas]]"
    unknown = sorted(set(raw) - {"tag", "game"})
    if unknown:
        raise ValueError(f"klab:see-deal: no option {', '.join(unknown)}: {usage}")
    if "tag" not in raw:
        raise ValueError(f"klab:see-deal: needs a tag word: {usage}")
    tag, game = raw["tag"], raw.get("game")
    if game is not None and game not in GAMES:
        raise ValueError(f"klab:see-deal: game={game}: the games are {' and '.join(GAMES)}")
    if tag in KNOWN_WORDS:
        if tag in TAG_WORDS and game is not None and game not in TAG_WORDS[tag]:
            games = " or ".join(TAG_WORDS[tag])
            raise ValueError(f"klab:see-deal: tag={tag} never happens in {game}: write game={games} or none")
    elif own_words and not any(tag in deal.tags for deal in deals):
        words = ", ".join(KNOWN_WORDS)
        raise ValueError(f"klab:see-deal: tag={tag}: no shipped deal has this word; klabsite's are {words}")
    return tag, game


def see_deal(loc: Any, raw: dict[str, str], deals: Sequence[DealView] = (), own_words: bool = True
             ) -> tuple[Note, ...]:
    """The directive: one line with a link to the step. A tag word of klabsite's own that no
    shipped deal has draws nothing; with ``own_words`` any other word must be one a shipped deal
    carries."""
    tag, game = _checked(raw, deals, own_words)
    found = find_step(deals, tag, game)
    if found is None:
        return ()
    deal, step = found
    what = loc.tag_label(tag, deal.game) or tag
    # TRANSLATORS: a link under a rule to the replay of a deal where it happens; %(what)s is the
    # short name of what happens ("pit", "the maker fails"), as the gallery lists it.
    text = phrase(loc.gettext("See it happen in a deal, step by step: %(what)s"), what=what)
    return (Note((Link(f"deals/{deal.id}/{step.name}.html", text),)),)
