"""The ``search`` bot: sampled worlds solved double-dummy, from the seat's view only.

Card play (both games) is perfect-information Monte Carlo (:mod:`klabsite.bots.search_play`):
worlds consistent with everything the seat has seen, every legal card solved exactly in each,
the best mean played. Decisions the search does not (yet) cover are the heuristic's.

It is deterministic for a seed: all randomness comes from the generator given, and the work per
decision is counted in worlds and solver nodes, never in seconds.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from klabsite.bots.heuristic import HeuristicBot
from klabsite.bots.search_play import klaberjass_card, klaberjass_declaration, klaverjas_card
from klabsite.bots.search_worlds import Budget
from klabsite.engine.actions import Action, ActionKind
from klabsite.engine.klaberjass import KlaberjassView
from klabsite.engine.klaberjass import Phase as KlaberjassPhase
from klabsite.engine.klaverjas import KlaverjasPhase

__all__ = ["SearchBot", "SearchBudget"]


@dataclass(frozen=True)
class SearchBudget:
    """The search per decision, by game and kind of decision (the defaults meet 0.2 s per move)."""

    klaberjass_play: Budget = field(default_factory=lambda: Budget(worlds=60, min_worlds=16, nodes=400_000))
    klaverjas_play: Budget = field(default_factory=lambda: Budget(worlds=40, min_worlds=8, nodes=4_000_000))


class SearchBot:
    """Plays both games by sampling worlds and solving them (see the module docstring)."""

    name = "search"

    def __init__(self, budget: SearchBudget | None = None) -> None:
        self.budget = budget or SearchBudget()
        self._heuristic = HeuristicBot()

    def choose(self, view: Any, legal: Sequence[Action], rng: random.Random) -> Action:
        """One of ``legal`` for the seat whose ``view`` this is."""
        if not legal:
            raise ValueError("the search player was asked to act with no legal action")
        if len(legal) == 1:
            return legal[0]
        if isinstance(view, KlaberjassView):
            return self._klaberjass(view, legal, rng)
        if view.phase is KlaverjasPhase.PLAY:
            return klaverjas_card(view, legal, rng, self.budget.klaverjas_play)
        return self._heuristic.choose(view, legal, rng)

    def _klaberjass(self, view: KlaberjassView, legal: Sequence[Action], rng: random.Random) -> Action:
        if view.phase is KlaberjassPhase.PLAY:
            if any(action.kind is ActionKind.NOMELD for action in legal):
                return klaberjass_declaration(view, legal, rng, self.budget.klaberjass_play)
            return klaberjass_card(view, legal, rng, self.budget.klaberjass_play)
        return self._heuristic.choose(view, legal, rng)
