"""Variants of the search bot, measured like the registered bots by ``strength.py``.

    python benchmarks/search_variants.py --games klaverjas --pair search-play,heuristic \
        --pair search-w40,heuristic --deals 200 --max-deals 200 --jobs 2

Every option of ``strength.py`` works; the pairs may also name these variants of the default
search bot (each changes one thing, unless it says two):

* ``search-play``: the heuristic's Klaverjas trump choice (the card play searched, the bidding
  not), to tell the two gains apart;
* ``search-bold``: the heuristic's Klaverjas trump choice with a lower bar (46 instead of 56);
* ``search-w40``: 40 worlds for each Klaverjas card instead of 64;
* ``search-w96``: 96 worlds; ``search-w128``: 128 worlds;
* ``search-early``: at least 32 worlds (and up to 12.8 M solver nodes) for each card of the second
  and third tricks, instead of 12 (6.4 M); ``search-early0``: at least 32 worlds (27 M nodes) for
  the first trick's cards;
* ``search-nofit``: Klaverjas card-play worlds not weighed by the opponents' cards;
* ``search-sharp``: a card that does not fit costs a world a factor 0.1 instead of 0.3;
* ``search-soft``: the same with 0.5;
* ``search-tie5``: the heuristic's card when it is within 5 points of the best, not 0.5;
* ``search-partner``: the partner's cards weigh the worlds too, a factor 0.5 for each card the
  heuristic would not have played (the partner is a search bot, so the model fits him less);
* ``search-partner-late3``, ``search-partner-late5``: the same, only for the decisions from the
  fourth (sixth) trick on;
* ``search-resample``: a world drawn when the rejection sampler accepts none of its 40 tries is
  one of the tried worlds in proportion to its weight, not the best-fitting one;
  ``search-partner-resample``: that, with the partner's cards weighed as in ``search-partner``;
* ``search-bids``: a bid the heuristic would not have made costs a world a factor 0.05, not 0.2;
* ``search-trump48``: 48 worlds (at least 18) for the Klaverjas trump choice instead of 16;
* ``search-confident``: the heuristic's card unless the best mean beats it by one standard
  error, world by world (instead of the 0.5-point tie-break); ``search-confident2``: two;
* ``search-confident-partner``, ``search-tie10-partner``, ``search-tie5-partner7``: the search
  made more like the heuristic (one standard error; a 10 or 5 point tie-break) with the partner's
  cards weighed by the heuristic (factor 0.5 or 0.7), so that the model fits the partner better;
* ``search-dd``: the partner's cards from the third trick on weigh the worlds by whether each
  was among his best double dummy there, a factor 0.5 for each that was not
  (:mod:`klabsite.bots.search_partner`);
* ``search-first``: the first default (40 worlds, no weighing by the opponents' cards);
* ``search-seeing``: not a player but a yardstick. It cheats: its Klaverjas card play solves the
  one true world, the hidden hands as dealt (its trump choice is the search bot's). What it
  gains over ``search`` is what the hidden information costs the honest bot;
* ``search-knows-partner``: a yardstick too: the search bot whose card-play worlds all give the
  partner his true hand (the opponents' cards are drawn and weighed as usual): what the
  partner's hand alone is worth.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import strength  # noqa: E402

from klabsite.bots import BOTS  # noqa: E402
from klabsite.bots.heuristic_klaverjas import KlaverjasHeuristic, KlaverjasStyle  # noqa: E402
from klabsite.bots.inference import Knowledge, infer_klaverjas  # noqa: E402
from klabsite.bots.sampling import Sampler  # noqa: E402
from klabsite.bots.search import SearchBot, SearchStyle  # noqa: E402
from klabsite.bots.search_play import Layouts, klaverjas_card  # noqa: E402
from klabsite.bots.search_trump import TrumpSearch  # noqa: E402
from klabsite.bots.search_worlds import Budget  # noqa: E402
from klabsite.engine.actions import Action  # noqa: E402
from klabsite.engine.cards import mask_of  # noqa: E402
from klabsite.engine.klaverjas import KlaverjasPhase, deal_hands  # noqa: E402

_PLAY = strength.play
_PLAYING: list[Any] = []
"""The deck being played (``search-seeing`` reads the hidden hands from it)."""


def _bold() -> SearchBot:
    bot = SearchBot(SearchStyle(klaverjas_trump=None))
    bot._heuristic._klaverjas = KlaverjasHeuristic(KlaverjasStyle(name_at=46))
    return bot


def _worlds(worlds: int) -> Budget:
    return Budget(worlds=worlds, min_worlds=worlds // 5, nodes=100_000 * worlds)


class _Seeing(SearchBot):
    """The search bot with the true hidden hands as its only Klaverjas card-play world."""

    def _klaverjas(self, view: Any, legal: Sequence[Action], rng: random.Random) -> Action:
        if view.phase is not KlaverjasPhase.PLAY:
            return super()._klaverjas(view, legal, rng)
        dealt = deal_hands(view.dealer, _PLAYING[0])
        knowledge = infer_klaverjas(view)
        truth = {place: mask_of(dealt[place]) & ~knowledge.played[place] for place in knowledge.places}
        return klaverjas_card(view, legal, rng, Budget(1, 1, 0), lambda: truth, self.style.tie_break)


class _KnowsPartner(SearchBot):
    """The search bot whose Klaverjas card-play worlds all give the partner his true hand (the
    opponents' cards drawn and weighed as usual)."""

    def _klaverjas_worlds(self, view: Any, knowledge: Knowledge, rng: random.Random,
                          sampler: Sampler | None = None) -> Layouts:
        partner = view.seat.partner
        truth = mask_of(deal_hands(view.dealer, _PLAYING[0])[partner]) & ~knowledge.played[partner]
        possible = [truth if place is partner else mask & ~truth
                    for place, mask in zip(knowledge.places, knowledge.possible, strict=True)]
        sampler = Sampler(knowledge.places, knowledge.sizes, possible, knowledge.claims)
        return super()._klaverjas_worlds(view, knowledge, rng, sampler)


def _play_seen(game: Any, rules: Any, dealer: Any, deck: Any, *rest: Any) -> dict[str, int]:
    """``strength.play``, keeping the deck where ``search-seeing`` finds it."""
    _PLAYING[:] = [deck]
    return _PLAY(game, rules, dealer, deck, *rest)


VARIANTS = {
    "search-play": lambda: SearchBot(SearchStyle(klaverjas_trump=None)),
    "search-bold": _bold,
    "search-w40": lambda: SearchBot(SearchStyle(klaverjas_play=_worlds(40))),
    "search-w96": lambda: SearchBot(SearchStyle(klaverjas_play=_worlds(96))),
    "search-w128": lambda: SearchBot(SearchStyle(klaverjas_play=_worlds(128))),
    "search-nofit": lambda: SearchBot(SearchStyle(fit_plays=0)),
    "search-sharp": lambda: SearchBot(SearchStyle(play_misfit=0.1)),
    "search-soft": lambda: SearchBot(SearchStyle(play_misfit=0.5)),
    "search-tie5": lambda: SearchBot(SearchStyle(tie_break=5.0)),
    "search-partner": lambda: SearchBot(SearchStyle(partner_misfit=0.5)),
    "search-bids": lambda: SearchBot(SearchStyle(bid_misfit=0.05)),
    "search-trump48": lambda: SearchBot(SearchStyle(klaverjas_trump=TrumpSearch(
        budget=Budget(worlds=48, min_worlds=18, nodes=30_000_000)))),
    "search-confident": lambda: SearchBot(SearchStyle(confidence=1.0)),
    "search-confident2": lambda: SearchBot(SearchStyle(confidence=2.0)),
    "search-confident-partner": lambda: SearchBot(SearchStyle(confidence=1.0, partner_misfit=0.5)),
    "search-tie10-partner": lambda: SearchBot(SearchStyle(tie_break=10.0, partner_misfit=0.5)),
    "search-tie5-partner7": lambda: SearchBot(SearchStyle(tie_break=5.0, partner_misfit=0.7)),
    "search-partner-late3": lambda: SearchBot(SearchStyle(partner_misfit=0.5, partner_from=3)),
    "search-partner-late5": lambda: SearchBot(SearchStyle(partner_misfit=0.5, partner_from=5)),
    "search-resample": lambda: SearchBot(SearchStyle(resample=True)),
    "search-partner-resample": lambda: SearchBot(SearchStyle(partner_misfit=0.5, resample=True)),
    "search-early": lambda: SearchBot(SearchStyle(klaverjas_early=(
        SearchStyle().klaverjas_play, Budget(64, 32, 12_800_000), Budget(64, 32, 12_800_000)))),
    "search-early0": lambda: SearchBot(SearchStyle(klaverjas_early=(Budget(64, 32, 27_000_000),))),
    "search-dd": lambda: SearchBot(SearchStyle(partner_best=0.5)),
    "search-first": lambda: SearchBot(SearchStyle(klaverjas_play=_worlds(40), fit_plays=0)),
    "search-seeing": _Seeing,
    "search-knows-partner": _KnowsPartner,
}
"""The variants by name, beside the registry's bots (for this script only)."""

if __name__ == "__main__":
    BOTS.update(VARIANTS)
    strength.play = _play_seen
    strength.main(sys.argv[1:])
