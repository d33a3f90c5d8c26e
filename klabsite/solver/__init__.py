"""The double-dummy solver: exact values of card-play positions of both games, all cards visible.

The value of a position for the side to act is the deal's final score for that side minus the
other side's, everybody playing perfectly from here (record-format.md, "Annotations", ``dd``).

- :func:`solve` and :func:`card_values` take an engine deal in its card play; a
  :class:`Solver` does the same and keeps its transposition tables between calls (for the
  positions of one deal) and counts ``nodes``.
- For bots that solve thousands of sampled deals without engine objects:
  :class:`~klabsite.solver.klaberjass.KlaberjassSolver` and
  :class:`~klabsite.solver.klaverjas.KlaverjasSolver` on bitmask positions
  (:class:`~klabsite.solver.klaberjass.KlaberjassPosition`,
  :class:`~klabsite.solver.klaverjas.KlaverjasPosition`); :mod:`klabsite.solver.deals` builds
  them from engine deals.
"""

from klabsite.solver.api import Solver, card_values, solve
from klabsite.solver.klaberjass import KlaberjassPosition, KlaberjassSolver
from klabsite.solver.klaverjas import KlaverjasPosition, KlaverjasSolver

__all__ = [
    "solve",
    "card_values",
    "Solver",
    "KlaberjassPosition",
    "KlaberjassSolver",
    "KlaverjasPosition",
    "KlaverjasSolver",
]
