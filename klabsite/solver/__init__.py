"""The double-dummy solver: exact values of card-play positions of both games, all cards visible.

The value of a position for the side to act is the deal's final score for that side minus the
other side's, everybody playing perfectly from here (docs/record-format.md, "Annotations", ``dd``).

- :func:`solve` and :func:`card_values` take an engine deal in its card play; a
  :class:`Solver` does the same and keeps its transposition tables between calls (for the
  positions of one deal) and counts ``nodes``.
- For bots that solve thousands of sampled deals without engine objects:
  :func:`solve_position` / :meth:`Solver.solve_position` (and :func:`position_card_values`) on
  bitmask positions (:class:`~klabsite.solver.klaberjass.KlaberjassPosition`,
  :class:`~klabsite.solver.klaverjas.KlaverjasPosition`): cards as bits of a 32-bit mask, seats
  as indices; :mod:`klabsite.solver.deals` builds them from engine deals. Keep one
  :class:`Solver`: its search cores are kept per trump and option, and a transposition table
  stays valid while the positions come from one deal (it is cleared when a card changes hands).
- :func:`takes_every_trick`: whether the Klaverjas playing side has a pit in reach.
- :mod:`klabsite.solver.annotate`: a record's ``dd`` annotations, written and checked.
- The search cores are in C when the optional extension was built (``pip install`` does it when
  a compiler is there), else in Python; both search the same tree (:mod:`klabsite.solver.native`).

>>> from klabsite.engine.cards import mask_of, parse_cards
>>> hands = tuple(mask_of(parse_cards(text)) for text in ("JH 7C", "9H AC", "KH 8C", "QH TC"))
>>> solve_position(KlaverjasPosition(hands, trump=2, playing=1, leader=0))   # N–S get 162 + roem 40
202
"""

from klabsite.solver.api import Solver, card_values, position_card_values, solve, solve_position
from klabsite.solver.klaberjass import KlaberjassPosition, KlaberjassSolver
from klabsite.solver.klaverjas import KlaverjasPosition, KlaverjasSolver, takes_every_trick

__all__ = [
    "solve",
    "card_values",
    "solve_position",
    "position_card_values",
    "Solver",
    "KlaberjassPosition",
    "KlaberjassSolver",
    "KlaverjasPosition",
    "KlaverjasSolver",
    "takes_every_trick",
]
