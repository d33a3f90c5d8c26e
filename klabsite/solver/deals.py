"""Solver positions from engine deals: everything the value of a card-play position depends on.

Only this module (and :mod:`klabsite.solver.api`) reads engine deals; the searches work on the
bitmask positions built here. Klaberjass players are 0 (``N``) and 1 (``S``); Klaverjas seats
0–3 (``N E S W``) and sides 0 (``NS``) and 1 (``EW``).

>>> from klabsite.engine.cards import DECK
>>> from klabsite.engine.klaberjass import KlaberjassDeal, KlaberjassRules, Seat
>>> deal = KlaberjassDeal(KlaberjassRules(), Seat.S, DECK)
>>> klaberjass_position(deal)
Traceback (most recent call last):
...
klabsite.solver.deals.NotInPlay: the solver needs a deal in its card play; this one is in bidding-1
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from klabsite.engine.actions import Meld
from klabsite.engine.cards import Rank, Suit, mask_of
from klabsite.engine.events import TrickWon
from klabsite.engine.fast.klaverjas import side_tally
from klabsite.engine.klaberjass import BELLA, SEATS, BellaDecided, KlaberjassDeal, Phase
from klabsite.engine.klaverjas import KlaverjasDeal, KlaverjasPhase
from klabsite.engine.melds import compare, meld_sets
from klabsite.engine.options import KlaberjassRules
from klabsite.engine.seats import Seat
from klabsite.solver.klaberjass import NO_MELDS, KlaberjassPosition, MeldOutcome
from klabsite.solver.klaverjas import KlaverjasPosition

__all__ = ["NotInPlay", "klaberjass_position", "klaverjas_position", "meld_matrix", "PLAYERS"]

PLAYERS: tuple[Seat, Seat] = SEATS
"""Klaberjass players by the solver's index: the engine's seats, in their order."""


class NotInPlay(ValueError):
    """The deal is not in its card play (trump still to choose, or already over)."""


def _require_play(deal: Any, phase: Any) -> None:
    if deal.phase is not phase or deal.to_act is None:
        raise NotInPlay(f"the solver needs a deal in its card play; this one is in {deal.phase.value}")


def _meld_matrix(deal: KlaberjassDeal) -> tuple[tuple[MeldOutcome, ...], ...]:
    """The comparison outcome for each declaration the non-dealer (rows) and the dealer (columns)
    may still make; a player who has declared has his declaration only. Repeats are dropped."""
    assert deal.trump is not None
    declared = deal.declared
    hands = deal.hands

    def choices(seat: Seat) -> list[tuple[Meld, ...]]:
        if seat in declared:
            return [declared[seat]]
        return [(), *meld_sets(hands[seat])]

    return meld_matrix(deal.elder, choices(deal.elder), deal.dealer, choices(deal.dealer), deal.trump,
                       deal.rules)


def meld_matrix(elder: Seat, elder_choices: Sequence[tuple[Meld, ...]], dealer: Seat,
                dealer_choices: Sequence[tuple[Meld, ...]], trump: Suit, rules: KlaberjassRules
                ) -> tuple[tuple[MeldOutcome, ...], ...]:
    """The solver's matrix of comparison outcomes: a row per declaration of the non-dealer, a
    column per declaration of the dealer (repeated rows and columns dropped).

    >>> from klabsite.engine.cards import parse_cards
    >>> run = tuple(parse_cards("KS QS JS"))
    >>> meld_matrix(Seat.N, [(run,)], Seat.S, [(), (tuple(parse_cards("AD KD QD")),)], Suit.HEARTS,
    ...             KlaberjassRules())
    (((0, 20), (1, 20)),)
    """
    rows = []
    for elder_melds in elder_choices:
        row = []
        for dealer_melds in dealer_choices:
            comparison = compare(elder, elder_melds, dealer, dealer_melds, trump, rules.long_sequence,
                                 rules.equal_meld)
            best = comparison.best
            row.append(NO_MELDS if best is None else (PLAYERS.index(best), comparison.points))
        rows.append(tuple(row))
    matrix = list(dict.fromkeys(rows))
    columns = list(dict.fromkeys(tuple(row[c] for row in matrix) for c in range(len(matrix[0]))))
    return tuple(dict.fromkeys(tuple(column[r] for column in columns) for r in range(len(matrix))))


def klaberjass_position(deal: KlaberjassDeal) -> KlaberjassPosition:
    """The solver's position of a Klaberjass deal in its card play (any point of it)."""
    _require_play(deal, Phase.PLAY)
    trump = deal.trump
    assert trump is not None and deal.maker is not None and deal.to_act is not None
    hands = deal.hands
    trick = deal.trick
    leader = PLAYERS.index(trick[0][0] if trick else deal.to_act)
    points, tricks, bella = [0, 0], [0, 0], [0, 0]
    decided: set[Seat] = set()
    for event in deal.events:
        if isinstance(event, TrickWon):
            winner = PLAYERS.index(event.winner)
            points[winner] += event.points
            tricks[winner] += 1
        elif isinstance(event, BellaDecided):
            decided.add(event.seat)
            if event.claimed:
                bella[PLAYERS.index(event.seat)] += BELLA
    holder = None
    for seat in PLAYERS:
        held = {card.rank for card in hands[seat] if card.suit is trump}
        played = {card.rank for who, card in deal.played if who is seat and card.suit is trump}
        king_queen = {Rank.KING, Rank.QUEEN}
        if seat not in decided and king_queen <= held | played and held & king_queen:
            holder = PLAYERS.index(seat)  # holds both, or one after playing the other
    return KlaberjassPosition(
        hands=(mask_of(hands[Seat.N]), mask_of(hands[Seat.S])),
        trump=trump.index,
        maker=PLAYERS.index(deal.maker),
        leader=leader,
        led=trick[0][1].index if trick else -1,
        points=(points[0], points[1]),
        tricks=(tricks[0], tricks[1]),
        melds=_meld_matrix(deal),
        elder=PLAYERS.index(deal.elder),
        bella=(bella[0], bella[1]),
        bella_holder=holder,
        any_lead=deal.rules.must_beat == "any-lead",
        void=deal.rules.no_trick_melds == "void",
    )


def klaverjas_position(deal: KlaverjasDeal) -> KlaverjasPosition:
    """The solver's position of a Klaverjas deal in its card play (any point of it)."""
    _require_play(deal, KlaverjasPhase.PLAY)
    trump = deal.trump
    assert trump is not None and deal.playing is not None
    hands = deal.hands
    points, roem, tricks = side_tally(deal.tricks)
    return KlaverjasPosition(
        hands=tuple(mask_of(hands[seat]) for seat in sorted(hands, key=lambda s: s.index)),
        trump=trump.index,
        playing=0 if deal.playing.value == "NS" else 1,
        leader=deal.leader.index,
        trick=tuple(card.index for _, card in deal.trick),
        points=(points[0], points[1]),
        roem=(roem[0], roem[1]),
        tricks=(tricks[0], tricks[1]),
        rotterdam=deal.rules.trick_rules == "rotterdam",
        undertrump=deal.rules.undertrump == "required",
    )
