"""``ismcts``: the published Klaverjas search, rebuilt to measure our bots against its method.

The project's target for the search bot (+50 a deal over ``heuristic``) was drawn from
published figures for single-observer information-set Monte Carlo tree search: +46 to +47 a deal
at 200 iterations of 5 random playouts each, about 0.2 s a move, against a simple rule-based
player. This is that method, written for this project's engine, so that it can be measured
against our opponents:

* every iteration draws a fresh world, uniformly among those consistent with the seat's view
  (the voids and the higher trumps a player cannot hold: the same sampler as ``search``);
* one tree, its nodes the cards played from the decision on; a node's children are the cards
  played there in any world, and in each iteration only the ones legal in its world count;
* selection by UCB1 with availability counts: a child's mean reward for the side choosing there
  plus ``exploration × sqrt(ln(times it was available) / visits)``, rewards in points;
* an untried card legal in the world is added and valued by random playouts to the end of the
  deal, the reward the deal's score difference (nat and pit included);
* the card played is the root's child visited most.

It bids like ``heuristic`` (the published player did not bid: trump came from real deals).
Everything it does is counted in iterations, never in seconds, and it uses only the generator it
is given, so a seed gives the same choices on any machine.
"""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from klabsite.bots.heuristic import HeuristicBot  # noqa: E402
from klabsite.bots.inference import infer_klaverjas  # noqa: E402
from klabsite.bots.tactics import bits  # noqa: E402
from klabsite.bots.worlds import position_for  # noqa: E402
from klabsite.engine.actions import Action  # noqa: E402
from klabsite.engine.fast.klaverjas import Position, deal_score, random_playout  # noqa: E402
from klabsite.engine.klaverjas import KlaverjasPhase, KlaverjasView  # noqa: E402
from klabsite.engine.seats import Side  # noqa: E402

__all__ = ["IsmctsBot", "Node"]


class Node:
    """A card played at a point of the tree: its statistics for the side that chose it."""

    __slots__ = ("children", "visits", "available", "reward")

    def __init__(self) -> None:
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.available = 0
        self.reward = 0.0
        """Summed reward (points, the choosing side's score minus the other's)."""


class IsmctsBot:
    """Bids like ``heuristic``; plays Klaverjas cards by single-observer ISMCTS (module docstring)."""

    name = "ismcts"

    def __init__(self, iterations: int = 200, playouts: int = 5, exploration: float = 400.0) -> None:
        self.iterations = iterations
        self.playouts = playouts
        self.exploration = exploration
        self._heuristic = HeuristicBot()

    def choose(self, view: Any, legal: Sequence[Action], rng: random.Random) -> Action:
        """One of ``legal`` for the seat whose ``view`` this is (Klaverjas only)."""
        if not isinstance(view, KlaverjasView):
            raise ValueError("the ismcts player plays Klaverjas only")
        if view.phase is not KlaverjasPhase.PLAY:
            return self._heuristic.choose(view, legal, rng)
        plays = {action.card.index: action for action in legal if action.card is not None}
        if len(plays) == 1:
            return next(iter(plays.values()))
        assert view.playing is not None
        playing = 0 if view.playing is Side.NS else 1
        knowledge = infer_klaverjas(view)
        sampler = knowledge.sampler()
        root = Node()
        for _ in range(self.iterations):
            layout = dict(zip(knowledge.places, sampler.sample(rng), strict=True))
            self._iterate(root, position_for(view, knowledge, layout), playing, rng)
        return plays[max(sorted(root.children), key=lambda card: root.children[card].visits)]

    def _iterate(self, root: Node, position: Any, playing: int, rng: random.Random) -> None:
        """One iteration in one world: select, expand, play out, and back the reward up."""
        path: list[tuple[Node, int]] = []          # (node, side that chose it)
        node = root
        while not position.is_over:
            legal = bits(position.legal())
            side = position.to_act & 1
            for card in legal:
                child = node.children.get(card)
                if child is not None:
                    child.available += 1
            untried = [card for card in legal if card not in node.children]
            if untried:
                card = untried[rng.randrange(len(untried))]
                child = node.children[card] = Node()
                child.available = 1
                position.play(card)
                path.append((child, side))
                break
            card = max(legal, key=lambda c: self._ucb(node.children[c]))
            node = node.children[card]
            position.play(card)
            path.append((node, side))
        reward = self._playouts(position, playing, rng)            # for side 0 (N-S)
        for visited, side in path:
            visited.visits += 1
            visited.reward += reward if side == 0 else -reward

    def _ucb(self, child: Node) -> float:
        spread = math.sqrt(math.log(child.available) / child.visits)
        return child.reward / child.visits + self.exploration * spread

    def _playouts(self, position: Position, playing: int, rng: random.Random) -> float:
        """The mean score difference (N-S minus E-W) of random playouts from ``position``."""
        total = 0
        runs = self.playouts if not position.is_over else 1
        for _ in range(runs):
            score = deal_score(playing, random_playout(position, rng))
            total += score[0] - score[1]
        return total / runs
