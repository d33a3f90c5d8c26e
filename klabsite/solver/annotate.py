"""A record's ``dd`` annotations: the solver's value of every card a player could have played.

Every card play with more than one legal card gets ``{dd CARD:VALUE …}``: each legal card with
its double-dummy value for the player to move, best first, then deck order
(docs/record-format.md, "Annotations"), from :meth:`klabsite.solver.Solver.card_values` with one
solver per deal. ``klabsite analyse`` writes them (:func:`analyse_record`), ``klabsite check
--dd`` checks them (:func:`verify_dd`), and ``klabsite simulate --analyse`` / ``--find`` analyse
the deals they write.
"""

from __future__ import annotations

from collections.abc import Container, Iterator

from klabsite.engine.actions import ActionKind
from klabsite.engine.cards import Card
from klabsite.records.annotations import DD, dd_annotation
from klabsite.records.klab import Record, RecordError
from klabsite.records.replay import DealReplay, MatchReplay, legal_cards, positions, replay
from klabsite.solver.api import Solver

__all__ = ["deal_values", "analyse_record", "verify_dd", "annotated_plays"]


def deal_values(done: DealReplay,
                only: Container[int] | None = None) -> Iterator[tuple[int, dict[Card, int]]]:
    """For each card play of the replayed deal ``done`` with more than one legal card (with
    ``only``: each card play whose action index is in it, a forced one too): its action index and
    each legal card's value (one :class:`~klabsite.solver.Solver` for the deal)."""
    solver = Solver()
    for index, action, deal in positions(done):
        if action.kind is not ActionKind.PLAY or (only is not None and index not in only):
            continue
        legal = legal_cards(deal)
        if len(legal) > 1 or only is not None:
            values = solver.card_values(deal)
            assert sorted(values, key=lambda card: card.index) == legal, "the solver values the legal cards"
            yield index, values


def _take_dd(record: Record) -> list[dict[int, int]]:
    """Remove every ``dd`` annotation of ``record``; for each deal, the place each one had among
    its action's annotations, by action index (a new one goes back there)."""
    places = []
    for deal in record.deals:
        had = {}
        for index in range(len(deal.actions)):
            names = [annotation.name for annotation in deal.annotations_of(index)]
            if DD in names:
                had[index] = names.index(DD)
                deal.set_dd(index, None)
        places.append(had)
    return places


def analyse_record(record: Record) -> tuple[MatchReplay, list[RecordError]]:
    """Give every card play of ``record`` with a choice of cards its ``dd`` annotation, in place,
    replacing those it had (which are not checked first: a stale one is simply replaced).

    Returns the replay and its errors; a record with errors is left without ``dd`` annotations.
    """
    places = _take_dd(record)
    replayed = replay(record)
    if replayed.errors:
        return replayed, replayed.errors
    for done, had in zip(replayed.deals, places, strict=True):
        for index, values in deal_values(done):
            done.record.set_dd(index, values, at=had.get(index))
    return replayed, []


def verify_dd(replayed: MatchReplay) -> list[RecordError]:
    """The first ``dd`` annotation of each deal whose values are not the solver's, as an error at
    its line naming the annotation expected (``klabsite check``, unless ``--no-dd``)."""
    errors = []
    for done in replayed.deals:
        record = done.record
        annotated = {index for index in range(len(record.actions)) if record.dd_of(index) is not None}
        if not annotated:
            continue
        for index, values in deal_values(done, only=annotated):  # a forced card's dd too, if it has one
            given = record.dd_of(index)
            if given is not None and dict(given) != values:
                expected = dd_annotation(values)
                errors.append(RecordError(f"dd of {record.actions[index]} disagrees with the solver: "
                                          f"expected {expected}", record.action_line(index)))
                break
    return errors


def annotated_plays(record: Record) -> int:
    """How many card plays of ``record`` carry a ``dd`` annotation."""
    return sum(1 for deal in record.deals for index in range(len(deal.actions))
               if any(annotation.name == DD for annotation in deal.annotations_of(index)))
