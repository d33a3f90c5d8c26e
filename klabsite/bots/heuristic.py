"""The ``heuristic`` bot: a club player's rules of thumb for both games, from the seat's view only.

It dispatches on the view: :class:`~klabsite.engine.klaberjass.KlaberjassView` to
:mod:`klabsite.bots.heuristic_klaberjass`, :class:`~klabsite.engine.klaverjas.KlaverjasView` to
:mod:`klabsite.bots.heuristic_klaverjas`, where the rules are described. It is deterministic:
the same view and legal actions give the same choice, whatever the generator.

>>> import random
>>> from klabsite.engine.cards import DECK
>>> from klabsite.engine.klaverjas import KlaverjasDeal, KlaverjasRules
>>> from klabsite.engine.seats import Seat
>>> deal = KlaverjasDeal(KlaverjasRules(), Seat.W, DECK)
>>> bot = HeuristicBot()
>>> while not deal.is_over:
...     seat = deal.to_act
...     _ = deal.apply(bot.choose(deal.view_for(seat), deal.legal_actions(), random.Random(0)))
>>> deal.result.result in ("made", "nat")
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from klabsite.bots.heuristic_klaberjass import KlaberjassHeuristic
from klabsite.bots.heuristic_klaverjas import KlaverjasHeuristic
from klabsite.engine.actions import Action
from klabsite.engine.klaberjass import KlaberjassView

__all__ = ["HeuristicBot"]


class HeuristicBot:
    """Plays either game by rules of thumb; sees only the view, the legal actions and the rng."""

    name = "heuristic"

    def __init__(self) -> None:
        self._klaberjass = KlaberjassHeuristic()
        self._klaverjas = KlaverjasHeuristic()

    def choose(self, view: Any, legal: Sequence[Action], rng: random.Random) -> Action:
        """One of ``legal`` for the seat whose ``view`` this is."""
        if not legal:
            raise ValueError("the heuristic player was asked to act with no legal action")
        if isinstance(view, KlaberjassView):
            return self._klaberjass.choose(view, legal, rng)
        return self._klaverjas.choose(view, legal, rng)
