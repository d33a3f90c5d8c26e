"""Variants of the search bot, measured like the registered bots by ``strength.py``.

    python benchmarks/search_variants.py --games klaverjas --pair search-play,heuristic \
        --pair search-w40,heuristic --deals 200 --max-deals 200 --jobs 2

Every option of ``strength.py`` works; the pairs may also name these variants of the default
search bot (each changes one thing, unless it says two). benchmarks/players.md gives what each
measured, with the ideas whose code has been removed since.

* ``search-play``: the heuristic's Klaverjas trump choice (the card play searched, the bidding
  not), to tell the two gains apart;
* ``search-bold``: the heuristic's Klaverjas trump choice with a lower bar (46 instead of 56);
* ``search-w40``: 40 worlds for each Klaverjas card instead of 64;
* ``search-w96``: 96 worlds; ``search-w128``: 128 worlds;
* ``search-nofit``: Klaverjas card-play worlds not weighed by the opponents' cards;
* ``search-sharp``: a card that does not fit costs a world a factor 0.1 instead of 0.3;
* ``search-soft``: the same with 0.5;
* ``search-tie5``: the heuristic's card when it is within 5 points of the best, not 0.5;
* ``search-bids``: a bid the heuristic would not have made costs a world a factor 0.05, not 0.2;
* ``search-first``: the first default (40 worlds, no weighing by the opponents' cards);
* the Klaverjas trump search (:class:`~klabsite.bots.search_trump.TrumpSearch`):
  ``search-trump48``: 48 worlds (at least 18) instead of 16; ``search-trump-conf075``: another
  bid than the heuristic's when it is better by 0.75 standard errors, not 1.5;
  ``search-trump-margin50``: searched when the best suit is within 50 points of the bar, not 30;
  ``search-trump-dd75``: a deal valued three quarters double dummy, a quarter by the heuristic's
  playout, not half and half; ``search-trump-bias15``: 15 points taken off the playing side's
  double-dummy value, not 30; ``search-trump-cand3``: three suits solved as our trump, not two;
  ``search-trump-w64-c0``: 64 worlds (at least 24) instead of 16, the best mean taken whatever
  its standard error (two changes);
* ``search-sharp-opp``: the opponents trusted more (a card that does not fit costs a factor 0.1,
  a bid 0.05; the partner's bid still 0.2), 100 rejection tries a world instead of 40;
  ``search-sharp-opp03``: 0.03 a card, 0.02 a bid, 200 tries.

Yardsticks, not players: each cheats, on purpose, to measure what a piece of hidden information
is worth to the search bot (except in ``search-trump-seeing``, its trump choice is the search bot's):

* ``search-seeing``: the Klaverjas card play solves the one true world, the hidden hands as dealt;
* ``search-knows-partner``: every card-play world gives the partner his true hand (the opponents'
  cards are drawn and weighed as usual);
* ``search-kp-plain``, ``search-kp-trumps``, ``search-kp-at``: the same for the partner's cards
  outside trumps only, his trumps only, his aces and tens only;
* ``search-kp-lengths``: the partner's number of cards in each plain suit, not which cards;
* ``search-trump-seeing``: the Klaverjas trump search solves the one true deal (every suit, at
  any value of the hand); the card play is the default's.

An opponent, not a search bot: ``heuristic-other`` is the heuristic with other Klaverjas knobs,
for measuring the bots against a player that the search bot does not model exactly; ``simple``
(``simple_player.py``) plays by a few plain rules, as weak as the rule-based player of the
published figures the Klaverjas target was drawn from, and ``random-cards`` bids like the
heuristic but plays any legal card. ``ismcts`` (``ismcts.py``) is the published search itself
(200 iterations of 5 random playouts; ``ismcts-500``, ``ismcts-2000``: 500, 2,000 iterations).

``search-fixed-bound``: the former default, whose card-play worlds keep the rejection bound at 1
(:func:`~klabsite.bots.search_models.fitting_layouts`): the default's bound falls to the best
weight seen once no try of a world fits.
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
from ismcts import IsmctsBot  # noqa: E402
from simple_player import RandomCardsBot, SimpleBot  # noqa: E402

from klabsite.bots import BOTS  # noqa: E402
from klabsite.bots.heuristic import HeuristicBot  # noqa: E402
from klabsite.bots.heuristic_klaverjas import KlaverjasHeuristic, KlaverjasStyle  # noqa: E402
from klabsite.bots.inference import Knowledge, infer_klaverjas  # noqa: E402
from klabsite.bots.sampling import Sampler  # noqa: E402
from klabsite.bots.search import SearchBot, SearchStyle  # noqa: E402
from klabsite.bots.search_models import fitting_layouts  # noqa: E402
from klabsite.bots.search_play import Layouts, klaverjas_card, layouts  # noqa: E402
from klabsite.bots.search_trump import TrumpSearch, klaverjas_trump  # noqa: E402
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


def _other_heuristic() -> HeuristicBot:
    bot = HeuristicBot()
    bot._klaverjas = KlaverjasHeuristic(KlaverjasStyle(
        name_at=50, follower_points=1.5, draw_trumps=2.0, return_trump=2.0, defender_trump=-6.0,
        menel_lead=-4.0, surprise=0.0))
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


class _KnowsPartly(SearchBot):
    """The search bot whose Klaverjas card-play worlds give the partner his true cards among those
    that ``cards(trump)`` (a mask) names, and draw the rest as usual (all of them:
    ``search-knows-partner``)."""

    def __init__(self, cards: Any) -> None:
        super().__init__()
        self.cards = cards

    def _klaverjas_worlds(self, view: Any, knowledge: Knowledge, rng: random.Random,
                          sampler: Sampler | None = None) -> Layouts:
        partner = view.seat.partner
        told = self.cards(view.trump.index)
        truth = mask_of(deal_hands(view.dealer, _PLAYING[0])[partner]) & ~knowledge.played[partner] & told
        possible = [(mask & ~told) | truth if place is partner else mask & ~truth
                    for place, mask in zip(knowledge.places, knowledge.possible, strict=True)]
        sampler = Sampler(knowledge.places, knowledge.sizes, possible, knowledge.claims)
        return super()._klaverjas_worlds(view, knowledge, rng, sampler)


class _TrumpSeeing(SearchBot):
    """The search bot whose Klaverjas trump search has the true deal as its only world, and solves
    every suit, whatever the hand is worth."""

    def _klaverjas(self, view: Any, legal: Sequence[Action], rng: random.Random) -> Action:
        if view.phase is KlaverjasPhase.PLAY:
            return super()._klaverjas(view, legal, rng)
        dealt = deal_hands(view.dealer, _PLAYING[0])
        truth = {place: mask_of(dealt[place]) for place in infer_klaverjas(view).places}
        search = TrumpSearch(budget=Budget(1, 1, 0), candidates=4, margin=1000.0)
        return klaverjas_trump(view, legal, rng, search, lambda: truth)


class _KnowsLengths(SearchBot):
    """The search bot whose Klaverjas card-play worlds give the partner as many cards of each
    plain suit as he really holds (which cards is drawn as usual): a world that does not loses a
    factor 0.01."""

    def _klaverjas_weight(self, view: Any, knowledge: Knowledge) -> Any:
        partner, trump = view.seat.partner, view.trump.index
        truth = mask_of(deal_hands(view.dealer, _PLAYING[0])[partner]) & ~knowledge.played[partner]
        plain = [suit for suit in range(4) if suit != trump]

        def lengths(hand: int) -> list[int]:
            return [(hand >> 8 * suit & 0xFF).bit_count() for suit in plain]
        weight, told = super()._klaverjas_weight(view, knowledge), lengths(truth)

        def fitted(layout: Any, floor: float = 0.0) -> float:
            return (1.0 if lengths(layout[partner]) == told else 0.01) * weight(layout, floor)
        return fitted


class _FixedBound(SearchBot):
    """The search bot whose card-play worlds keep the rejection bound at 1 (the former default)."""

    def _klaverjas_worlds(self, view: Any, knowledge: Knowledge, rng: random.Random,
                          sampler: Sampler | None = None) -> Layouts:
        return fitting_layouts(layouts(knowledge, rng, sampler), self._klaverjas_weight(view, knowledge), rng)


def _play_seen(game: Any, rules: Any, dealer: Any, deck: Any, *rest: Any) -> Any:
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
    "search-bids": lambda: SearchBot(SearchStyle(bid_misfit=0.05)),
    "search-trump48": lambda: SearchBot(SearchStyle(klaverjas_trump=TrumpSearch(
        budget=Budget(worlds=48, min_worlds=18, nodes=30_000_000)))),
    "search-first": lambda: SearchBot(SearchStyle(klaverjas_play=_worlds(40), fit_plays=0)),
    "search-trump-conf075": lambda: SearchBot(SearchStyle(klaverjas_trump=TrumpSearch(confidence=0.75))),
    "search-trump-margin50": lambda: SearchBot(SearchStyle(klaverjas_trump=TrumpSearch(margin=50.0))),
    "search-trump-dd75": lambda: SearchBot(SearchStyle(klaverjas_trump=TrumpSearch(dd_weight=0.75))),
    "search-trump-bias15": lambda: SearchBot(SearchStyle(klaverjas_trump=TrumpSearch(playing_bias=15.0))),
    "search-trump-cand3": lambda: SearchBot(SearchStyle(klaverjas_trump=TrumpSearch(candidates=3))),
    "search-kp-trumps": lambda: _KnowsPartly(lambda trump: 0xFF << 8 * trump),
    "search-kp-at": lambda: _KnowsPartly(lambda trump: sum(0b10001000 << 8 * suit for suit in range(4))),
    "search-kp-plain": lambda: _KnowsPartly(lambda trump: 0xFFFFFFFF & ~(0xFF << 8 * trump)),
    "search-kp-lengths": _KnowsLengths,
    "search-seeing": _Seeing,
    "search-knows-partner": lambda: _KnowsPartly(lambda trump: 0xFFFFFFFF),
    "heuristic-other": _other_heuristic,
    "simple": SimpleBot,
    "simple-low": lambda: SimpleBot(third_follows_low=True),
    "random-cards": RandomCardsBot,
    "ismcts": IsmctsBot,
    "ismcts-500": lambda: IsmctsBot(iterations=500),
    "ismcts-2000": lambda: IsmctsBot(iterations=2000),
    "search-fixed-bound": _FixedBound,
    "search-trump-seeing": _TrumpSeeing,
    "search-trump-w64-c0": lambda: SearchBot(SearchStyle(klaverjas_trump=TrumpSearch(
        budget=Budget(worlds=64, min_worlds=24, nodes=40_000_000), confidence=0.0))),
    "search-sharp-opp": lambda: SearchBot(SearchStyle(
        play_misfit=0.1, bid_misfit=0.05, partner_bid_misfit=0.2, world_tries=100)),
    "search-sharp-opp03": lambda: SearchBot(SearchStyle(
        play_misfit=0.03, bid_misfit=0.02, partner_bid_misfit=0.2, world_tries=200)),
}
"""The variants by name, beside the registry's bots (for this script only)."""

if __name__ == "__main__":
    BOTS.update(VARIANTS)
    strength.play = _play_seen
    strength.main(sys.argv[1:])
