"""Variants of the search bot, measured like the registered bots by ``strength.py``.

    python benchmarks/search_variants.py --games klaverjas --pair search-play,heuristic \
        --pair search-w40,heuristic --deals 200 --max-deals 200 --jobs 2

Every option of ``strength.py`` works; the pairs may also name these variants of the default
search bot (each changes one thing):

* ``search-play``: the heuristic's Klaverjas trump choice (the card play searched, the bidding
  not), to tell the two gains apart;
* ``search-bold``: the heuristic's Klaverjas trump choice with a lower bar (46 instead of 56);
* ``search-w40``: 40 worlds for each Klaverjas card instead of 64;
* ``search-w96``: 96 worlds;
* ``search-nofit``: Klaverjas card-play worlds not weighed by the opponents' cards;
* ``search-sharp``: a card that does not fit costs a world a factor 0.1 instead of 0.3;
* ``search-tie5``: the heuristic's card when it is within 5 points of the best, not 0.5;
* ``search-first``: the first default (40 worlds, no weighing by the opponents' cards);
* ``search-seeing``: not a player but a yardstick. It cheats: its Klaverjas card play solves the
  one true world, the hidden hands as dealt (its trump choice is the search bot's). What it
  gains over ``search`` is what the hidden information costs the honest bot.
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
from klabsite.bots.inference import infer_klaverjas  # noqa: E402
from klabsite.bots.search import SearchBot, SearchStyle  # noqa: E402
from klabsite.bots.search_play import klaverjas_card  # noqa: E402
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


def _play_seen(game: Any, rules: Any, dealer: Any, deck: Any, *rest: Any) -> dict[str, int]:
    """``strength.play``, keeping the deck where ``search-seeing`` finds it."""
    _PLAYING[:] = [deck]
    return _PLAY(game, rules, dealer, deck, *rest)


VARIANTS = {
    "search-play": lambda: SearchBot(SearchStyle(klaverjas_trump=None)),
    "search-bold": _bold,
    "search-w40": lambda: SearchBot(SearchStyle(klaverjas_play=_worlds(40))),
    "search-w96": lambda: SearchBot(SearchStyle(klaverjas_play=_worlds(96))),
    "search-nofit": lambda: SearchBot(SearchStyle(fit_plays=0)),
    "search-sharp": lambda: SearchBot(SearchStyle(play_misfit=0.1)),
    "search-tie5": lambda: SearchBot(SearchStyle(tie_break=5.0)),
    "search-first": lambda: SearchBot(SearchStyle(klaverjas_play=_worlds(40), fit_plays=0)),
    "search-seeing": _Seeing,
}
"""The variants by name, beside the registry's bots (for this script only)."""

if __name__ == "__main__":
    BOTS.update(VARIANTS)
    strength.play = _play_seen
    strength.main(sys.argv[1:])
