"""The match: running totals over deals and the end-of-match rule, shared by both games.

A Klaberjass match ("Klaberjass: scoring and the match", The end of the match) and a Klaverjas match
("Klaverjas: roem and scoring", The match) end the same way.
With ``target=T``: after a deal in which someone has reached T, the higher total wins; if the
totals are equal, play goes on until a deal ends with them unequal. With ``deals=N``: the match
is exactly N counted deals (thrown-in and redealt deals do not count); the higher total wins and
equal totals are a draw (``winner`` is ``None``; the project's choice, stated on the rules pages).

>>> from klabsite.engine.options import KlaberjassRules
>>> match = MatchScore(KlaberjassRules(target=100), keys=("N", "S"))
>>> match.add({"N": 60, "S": 40}); match.over
False
>>> match.add({"N": 50, "S": 70}); match.over, match.totals
(False, {'N': 110, 'S': 110})
>>> match.add({"N": 0, "S": 25}); match.over, match.winner
(True, 'S')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from klabsite.engine.options import GameRules

__all__ = ["MatchScore", "MatchOverError"]


class MatchOverError(ValueError):
    """A deal was added to a match that is already over."""


@dataclass
class MatchScore:
    """Running totals per player or side (``keys``), the counted deals, and the winner."""

    rules: GameRules
    keys: tuple[str, ...]
    totals: dict[str, int] = field(default_factory=dict)
    counted: int = 0
    over: bool = False
    winner: str | None = None

    def __post_init__(self) -> None:
        self.totals = {key: self.totals.get(key, 0) for key in self.keys}

    def add(self, score: Mapping[str, int], counted: bool = True) -> None:
        """Add one deal's score; ``counted=False`` for a thrown-in or redealt deal."""
        if self.over:
            raise MatchOverError("the match is already over: no further deal can be added")
        for key in self.keys:
            self.totals[key] += score.get(key, 0)
        if counted:
            self.counted += 1
        self._decide()

    def _decide(self) -> None:
        best = max(self.totals.values())
        leaders = [key for key in self.keys if self.totals[key] == best]
        if self.rules.deals is not None:
            if self.counted >= self.rules.deals:
                self.over = True
                self.winner = leaders[0] if len(leaders) == 1 else None
        elif best >= self.rules.target and len(leaders) == 1:
            self.over = True
            self.winner = leaders[0]
