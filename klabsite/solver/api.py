"""The solver's public API on engine deals: :func:`solve`, :func:`card_values` and :class:`Solver`.

>>> from klabsite.engine.cards import parse_cards
>>> from klabsite.engine.klaverjas import KlaverjasDeal, KlaverjasRules, deck_from_hands
>>> from klabsite.engine.actions import Action
>>> from klabsite.engine.cards import Suit
>>> from klabsite.engine.seats import Seat
>>> hands = {Seat.N: parse_cards("JH 9H AH TH KH QH 8H 7H"), Seat.E: parse_cards("7C 8C 9C TC JC QC KC AC"),
...          Seat.S: parse_cards("7D 8D 9D TD JD QD KD AD"), Seat.W: parse_cards("7S 8S 9S TS JS QS KS AS")}
>>> deal = KlaverjasDeal(KlaverjasRules(), Seat.W, deck_from_hands(Seat.W, hands))
>>> _ = deal.apply(Action.name(Seat.N, Suit.HEARTS))
>>> for _ in range(20):                           # five tricks of the lowest cards: 7s, 8s, 9s, 10s, jacks
...     _ = deal.apply(deal.legal_actions()[0])
>>> deal.tricks[3].roem, deal.tricks[4].roem      # four tens, four jacks
(100, 200)
>>> solve(deal)     # 162, pit 100, roem 300: E and W never match N's queen, king or ace
562
>>> {str(card): value for card, value in card_values(deal).items()}
{'QH': 562, 'KH': 562, 'AH': 562}
"""

from __future__ import annotations

from klabsite.engine.cards import Card
from klabsite.engine.klaberjass import KlaberjassDeal
from klabsite.engine.klaverjas import KlaverjasDeal
from klabsite.solver.deals import klaberjass_position, klaverjas_position
from klabsite.solver.klaberjass import KlaberjassPosition, KlaberjassSolver
from klabsite.solver.klaverjas import KlaverjasPosition, KlaverjasSolver

__all__ = ["Solver", "solve", "card_values", "solve_position", "position_card_values", "Position"]

AnyDeal = KlaberjassDeal | KlaverjasDeal
Position = KlaberjassPosition | KlaverjasPosition
"""A bitmask position of either game (:mod:`klabsite.solver.deals` builds them from deals)."""


class Solver:
    """Solves engine deals in their card play. Keep one to solve many positions of a deal: the
    searches and their transposition tables are kept between calls. ``nodes`` is the number of
    cards the last call's searches played. ``native``: the C search cores (``True``), the Python
    ones (``False``), or C when built (``None``, the default).
    """

    def __init__(self, native: bool | None = None) -> None:
        self.klaberjass = KlaberjassSolver(native)
        self.klaverjas = KlaverjasSolver(native)
        self.nodes = 0

    def solve(self, deal: AnyDeal) -> int:
        """The value of ``deal`` for the side to act: its final score minus the other side's,
        with everybody playing perfectly from here, all cards visible (docs/record-format.md,
        "Annotations", ``dd``)."""
        if isinstance(deal, KlaberjassDeal):
            value = self.klaberjass.value(klaberjass_position(deal))
            self.nodes = self.klaberjass.nodes
        else:
            value = self.klaverjas.value(klaverjas_position(deal))
            self.nodes = self.klaverjas.nodes
        return value

    def card_values(self, deal: AnyDeal) -> dict[Card, int]:
        """The value for the side to act of each legal card (a bella card: the better of claiming
        and not claiming; a card of a Klaberjass non-dealer still to declare: with his best
        declaration), in card order. The best of them is :meth:`solve`'s value."""
        if isinstance(deal, KlaberjassDeal):
            values = self.klaberjass.card_values(klaberjass_position(deal))
            self.nodes = self.klaberjass.nodes
        else:
            values = self.klaverjas.card_values(klaverjas_position(deal))
            self.nodes = self.klaverjas.nodes
        return values


    def solve_position(self, position: Position) -> int:
        """The value of a bitmask position for the side to act, without engine objects: the entry
        point for a search bot solving many sampled deals (keep the solver between calls).

        >>> from klabsite.engine.cards import mask_of, parse_cards
        >>> hands = (mask_of(parse_cards("JH 7C")), mask_of(parse_cards("9H AC")))
        >>> solver = Solver()
        >>> solver.solve_position(KlaberjassPosition(hands, trump=2, maker=0, leader=0)), solver.nodes > 0
        (33, True)
        """
        if isinstance(position, KlaberjassPosition):
            value = self.klaberjass.value(position)
            self.nodes = self.klaberjass.nodes
        else:
            value = self.klaverjas.value(position)
            self.nodes = self.klaverjas.nodes
        return value

    def position_card_values(self, position: Position) -> dict[Card, int]:
        """:meth:`card_values` of a bitmask position."""
        if isinstance(position, KlaberjassPosition):
            values = self.klaberjass.card_values(position)
            self.nodes = self.klaberjass.nodes
        else:
            values = self.klaverjas.card_values(position)
            self.nodes = self.klaverjas.nodes
        return values


def solve(deal: AnyDeal) -> int:
    """The value of ``deal`` for the side to act (a fresh :class:`Solver`)."""
    return Solver().solve(deal)


def card_values(deal: AnyDeal) -> dict[Card, int]:
    """The value of each legal card for the side to act (a fresh :class:`Solver`)."""
    return Solver().card_values(deal)


def solve_position(position: Position) -> int:
    """The value of a bitmask position for the side to act (a fresh :class:`Solver`; a bot that
    solves many positions should keep one and call :meth:`Solver.solve_position`)."""
    return Solver().solve_position(position)


def position_card_values(position: Position) -> dict[Card, int]:
    """The value of each legal card of a bitmask position for the side to act (a fresh solver)."""
    return Solver().position_card_values(position)
