"""The ``search`` bot: sampled worlds solved double-dummy, from the seat's view only.

Card play (both games) is perfect-information Monte Carlo (:mod:`klabsite.bots.search_play`):
worlds consistent with everything the seat has seen, every legal card solved exactly in each,
the best mean played. In Klaverjas the worlds are drawn in proportion to how well they fit the
other players' bids and the opponents' cards, as the heuristic would have bid and played
(:mod:`klabsite.bots.search_models`). The Klaverjas trump choice solves each option in sampled deals
(:mod:`klabsite.bots.search_trump`). Decisions the search does not cover are the heuristic's.

It is deterministic for a seed: all randomness comes from the generator given, and the work per
decision is counted in worlds and solver nodes, never in seconds.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from klabsite.bots.heuristic import HeuristicBot
from klabsite.bots.inference import Knowledge, infer_klaverjas
from klabsite.bots.sampling import Sampler
from klabsite.bots.search_bidding import BiddingSearch, klaberjass_bid, klaberjass_dix
from klabsite.bots.search_models import (
    MISFIT,
    PLAY_MISFIT,
    Weight,
    fitting_layouts,
    klaverjas_fit,
    klaverjas_play_fit,
    product,
)
from klabsite.bots.search_play import (
    Layouts,
    klaberjass_card,
    klaberjass_declaration,
    klaverjas_card,
    layouts,
)
from klabsite.bots.search_trump import TrumpSearch, klaverjas_trump
from klabsite.bots.search_worlds import Budget
from klabsite.engine.actions import Action, ActionKind
from klabsite.engine.klaberjass import KlaberjassView
from klabsite.engine.klaberjass import Phase as KlaberjassPhase
from klabsite.engine.klaverjas import KlaverjasPhase, KlaverjasView

__all__ = ["SearchBot", "SearchStyle"]


@dataclass(frozen=True)
class SearchStyle:
    """The search bot's knobs (the defaults meet 0.2 s of CPU per move on average)."""

    klaberjass_play: Budget = field(default_factory=lambda: Budget(worlds=60, min_worlds=16, nodes=400_000))
    """Klaberjass card play and declarations."""
    klaverjas_play: Budget = field(default_factory=lambda: Budget(worlds=64, min_worlds=12, nodes=6_400_000))
    """Klaverjas card play."""
    klaverjas_trump: TrumpSearch | None = field(default_factory=TrumpSearch)
    """The Klaverjas trump choice (``None``: the heuristic's)."""
    klaberjass_bidding: BiddingSearch | None = field(default_factory=BiddingSearch)
    """The Klaberjass bidding, schmeiss answers and dix (``None``: the heuristic's)."""
    tie_break: float | None = 0.5
    """Card play: the heuristic's card when its mean value is within this many points of the best
    (``None``: the best mean, the first card among equals)."""
    fit_plays: int = 16
    """Klaverjas: weight the card-play worlds also by the opponents' last this many cards (16:
    all of them; 0: none), each card the heuristic would not have played in that world costing
    a factor :attr:`play_misfit`."""
    play_misfit: float = PLAY_MISFIT
    """The factor of :attr:`fit_plays` for each card the heuristic would not have played (not 0:
    players are not all the heuristic)."""
    bid_misfit: float = MISFIT
    """Klaverjas card play: the factor for each of the others' bids the heuristic would not have made."""
    partner_bid_misfit: float | None = None
    """The same for the partner's bids (``None``: :attr:`bid_misfit`)."""
    world_tries: int = 40
    """Klaverjas card play: how many worlds are tried, by rejection, for each world drawn
    (:func:`~klabsite.bots.search_models.fitting_layouts`)."""
    fit_bids: bool = True
    """Draw the card-play worlds in proportion to how well they fit the bids
    (:mod:`~klabsite.bots.search_models`)."""


class SearchBot:
    """Plays both games by sampling worlds and solving them (see the module docstring)."""

    name = "search"

    def __init__(self, style: SearchStyle | None = None) -> None:
        self.style = style or SearchStyle()
        self._heuristic = HeuristicBot()

    def choose(self, view: Any, legal: Sequence[Action], rng: random.Random) -> Action:
        """One of ``legal`` for the seat whose ``view`` this is."""
        if not legal:
            raise ValueError("the search player was asked to act with no legal action")
        if len(legal) == 1:
            return legal[0]
        if isinstance(view, KlaberjassView):
            return self._klaberjass(view, legal, rng)
        return self._klaverjas(view, legal, rng)

    def _klaverjas(self, view: KlaverjasView, legal: Sequence[Action], rng: random.Random) -> Action:
        style = self.style
        if view.phase is KlaverjasPhase.PLAY:
            draw = self._klaverjas_worlds(view, infer_klaverjas(view), rng) if style.fit_bids else None
            return klaverjas_card(view, legal, rng, style.klaverjas_play, draw, style.tie_break)
        if style.klaverjas_trump is not None:
            return klaverjas_trump(view, legal, rng, style.klaverjas_trump)
        return self._heuristic.choose(view, legal, rng)

    def _klaverjas_worlds(self, view: KlaverjasView, knowledge: Knowledge, rng: random.Random,
                          sampler: Sampler | None = None) -> Layouts:
        """The Klaverjas card-play worlds: drawn by ``sampler`` (uniform by default) in proportion
        to :meth:`_klaverjas_weight`, with the adaptive rejection bound of
        :func:`~klabsite.bots.search_models.fitting_layouts` (against players the heuristic does not
        model well, a fixed bound spends most of the time drawing worlds)."""
        return fitting_layouts(layouts(knowledge, rng, sampler), self._klaverjas_weight(view, knowledge), rng,
                               tries=self.style.world_tries, adaptive=True)

    def _klaverjas_weight(self, view: KlaverjasView, knowledge: Knowledge) -> Weight:
        """How well a Klaverjas world fits the bids and cards (:mod:`~klabsite.bots.search_models`)."""
        style = self.style
        weight = klaverjas_fit(view, knowledge, style.bid_misfit, style.partner_bid_misfit)
        if style.fit_plays:
            weight = product(weight, klaverjas_play_fit(view, knowledge, style.fit_plays, style.play_misfit))
        return weight

    def _klaberjass(self, view: KlaberjassView, legal: Sequence[Action], rng: random.Random) -> Action:
        if view.phase is KlaberjassPhase.PLAY:
            if any(action.kind is ActionKind.NOMELD for action in legal):
                return klaberjass_declaration(view, legal, rng, self.style.klaberjass_play)
            return klaberjass_card(view, legal, rng, self.style.klaberjass_play,
                                   tie_break=self.style.tie_break)
        bidding = self.style.klaberjass_bidding
        if bidding is None:
            return self._heuristic.choose(view, legal, rng)
        if view.phase is KlaberjassPhase.DIX:
            return klaberjass_dix(view, legal, rng, bidding)
        return klaberjass_bid(view, legal, rng, bidding)
