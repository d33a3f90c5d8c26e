"""The random player: any legal action, chosen with the caller's seeded generator.

>>> import random
>>> from klabsite.engine.actions import Action
>>> from klabsite.engine.seats import Seat
>>> legal = [Action.parse(Seat.N, "take"), Action.parse(Seat.N, "pass")]
>>> RandomBot().choose(None, legal, random.Random(1)) in legal
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from klabsite.engine.actions import Action

__all__ = ["RandomBot"]


class RandomBot:
    """Chooses uniformly among the legal actions; uses only the ``rng`` it is given."""

    name = "random"

    def choose(self, view: Any, legal: Sequence[Action], rng: random.Random) -> Action:
        """A uniformly random element of ``legal`` (which must not be empty)."""
        if not legal:
            raise ValueError("the random player was asked to act with no legal action")
        return legal[rng.randrange(len(legal))]
