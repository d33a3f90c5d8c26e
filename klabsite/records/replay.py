"""Replaying a record: every deal through its rules engine, and the match around them.

:func:`replay` never raises for a bad record: each deal's first problem becomes a
:class:`~klabsite.records.klab.RecordError` with a line number on its :class:`DealReplay`. What it
checks, beyond the reading checks of :mod:`klabsite.records.klab`:

- the dealer rotation (deal 1 may be dealt by anyone; then ``next_dealer`` of the engine);
- every action, applied in order (out of turn, illegal cards with the legal ones, melds not
  held … the engine's message, at the action's line), and no action after the deal is over;
- every ``dd`` annotation names exactly the cards that were legal at that point, in order
  (:func:`klabsite.records.annotations.check_dd`; its values are the solver's business);
- a deal that stops early is an error unless it carries ``[Termination "unfinished"]``;
- score-sheet deals through the engine's ``scored_result``;
- the ``Result`` tag against the computed score;
- Klaberjass hanging points carried from deal to deal, and the match totals (no deal may
  follow the end of the match).

After a deal with an error the next deal's dealer is not checked (the rotation is unknown) and
no points are carried; the match totals then only serve to report further errors.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from klabsite.engine import klaberjass, klaverjas
from klabsite.engine.actions import Action, ActionKind
from klabsite.engine.cards import Card, Suit
from klabsite.engine.events import Event
from klabsite.engine.games import Game
from klabsite.engine.klaverjas import DEAL_POINTS
from klabsite.engine.match import MatchScore
from klabsite.engine.options import GameRules, KlaberjassRules
from klabsite.engine.seats import Seat, Side
from klabsite.engine.text import quote
from klabsite.records.annotations import AnnotationError, check_dd
from klabsite.records.klab import DealRecord, Record, RecordError, format_scores, parse_scores

__all__ = ["DealReplay", "MatchReplay", "replay", "describe_deal", "positions", "legal_cards"]

_NO_MATCH_KEYS = ("thrown-in", "redeal", "unfinished")
"""Outcomes whose JSON has only ``deal``, ``id``, ``dealer`` and ``outcome`` (docs/record-format.md)."""


@dataclass
class DealReplay:
    """One deal as replayed: the engine's deal (played deals), its result, the match after it."""

    record: DealRecord
    id: str
    number: int
    dealer: Seat | None = None
    deal: Any = None
    """The engine's deal object (``KlaberjassDeal``/``KlaverjasDeal``); its ``events`` are the replay."""
    result: Any = None
    """The engine's result (``None`` for an unfinished deal or one with an error)."""
    match: dict[str, int] | None = None
    """The match totals after this deal."""
    error: RecordError | None = None
    opening: tuple[Event, ...] = ()
    """The events of setting the deal up (the cards dealt), before any action."""
    applied: list[tuple[Action, tuple[Event, ...]]] = field(default_factory=list)
    """Each action applied, in order, with the events it produced: what replay pages step through."""
    fresh: Callable[[], Any] | None = None
    """Makes the engine's deal again as it was before its first action (played deals): see
    :func:`positions`."""

    @property
    def outcome(self) -> str:
        """``played``, ``thrown-in``, ``redeal``, ``scored``, or ``unfinished``."""
        return self.result.outcome if self.result is not None else "unfinished"

    @property
    def hanging(self) -> int:
        """Klaberjass points waiting for the next deal's winner after this deal
        (``equal-score=next-deal-winner``): its result's, or for an unfinished deal those it was
        dealt with."""
        if self.result is not None:
            return int(getattr(self.result, "hanging", 0) or 0)
        return int(getattr(self.deal, "hanging", 0) or 0)

    def to_json(self) -> dict[str, Any]:
        """``docs/record-format.md``'s object for this deal (``unfinished`` deals: outcome only)."""
        data: dict[str, Any] = {"deal": self.number, "id": self.id}
        if self.result is None:
            data.update(dealer=str(self.dealer), outcome="unfinished")
            return data
        data.update(self.result.to_json())
        if self.outcome not in _NO_MATCH_KEYS:
            data["match"] = dict(self.match or {})
        return data


@dataclass
class MatchReplay:
    """A whole record replayed."""

    record: Record
    game: Game
    rules: GameRules
    score: MatchScore
    deals: list[DealReplay] = field(default_factory=list)

    @property
    def errors(self) -> list[RecordError]:
        """The first error of each deal that has one, in deal order."""
        return [deal.error for deal in self.deals if deal.error is not None]

    @property
    def valid(self) -> bool:
        """Whether every deal replayed without error."""
        return not self.errors

    def to_json(self) -> dict[str, Any]:
        """``docs/record-format.md``'s ``klabsite check --json`` object."""
        return {
            "game": self.game.name,
            "id": self.record.match_id(),
            "winner": self.score.winner if self.score.over else None,
            "final": dict(self.score.totals),
            "deals": [deal.to_json() for deal in self.deals],
        }


@dataclass
class _Context:
    """What one deal hands to the next."""

    expected_dealer: Seat | None = None
    previous: DealReplay | None = None
    hanging: int = 0


def replay(record: Record) -> MatchReplay:
    """Replay every deal of ``record``; errors are collected per deal, never raised."""
    game = record.game
    rules = record.rules
    match = MatchReplay(record, game, rules, MatchScore(rules, game.score_keys))
    context = _Context()
    for deal_record in record.deals:
        done = DealReplay(deal_record, record.deal_id(deal_record), deal_record.number)
        match.deals.append(done)
        limit = deal_record.error.line if deal_record.error is not None else None
        try:
            if limit is None or limit > max([deal_record.line, *deal_record.tag_lines.values()]):
                # A reading error among the actions: what comes before it is still checked.
                _replay_deal(match, context, done, limit)
        except RecordError as error:
            done.error = error
        except ValueError as error:  # a value the reader already reported, or an engine message
            done.error = RecordError(str(error), deal_record.line)
        if deal_record.error is not None and (done.error is None or (done.error.line or 0) >= (limit or 0)):
            done.error = deal_record.error
        if done.error is not None:
            done.result = None
            context = _Context()
            continue
        context = _Context(previous=done, hanging=getattr(done.result, "hanging", 0) or 0)
        if done.result is not None:
            context.expected_dealer = game.next_dealer(rules, done.dealer, done.result.outcome)
            match.score.add(done.result.score, counted=done.result.counted)
        elif done.dealer is not None:
            context.expected_dealer = _dealer_after_unfinished(match, done.dealer, done.record)
        done.match = dict(match.score.totals)
    return match


def _replay_deal(match: MatchReplay, context: _Context, done: DealReplay, limit: int | None) -> None:
    """Play or score one deal into ``done``; raise :class:`RecordError` at its first problem.

    With ``limit`` (the line of a reading error) only what comes before that line is checked.
    """
    record, game = done.record, match.game
    if limit is not None and _lacks_a_tag(match, record):
        return  # the line that could not be read may be that very tag: its error stands
    if "Dealer" not in record.tags:
        raise RecordError("missing [Dealer] tag", record.line)
    dealer = Seat(record.tags["Dealer"]) if record.tags["Dealer"] in game.seats else None
    if dealer is None:
        raise RecordError(f"unreadable dealer {quote(record.tags['Dealer'])}", record.line_of("Dealer"))
    done.dealer = dealer
    if context.expected_dealer is not None and dealer is not context.expected_dealer:
        raise RecordError(_wrong_dealer(match, context, done), record.line_of("Dealer"))
    if match.score.over:
        ending = f"{match.score.winner} won" if match.score.winner else "drawn"
        raise RecordError(f"the match is over after deal {done.number - 1} ({ending}, "
                          f"{format_scores(match.score.totals, game.score_keys)}): no further deal",
                          record.line)
    if record.is_score_sheet:
        if limit is None:
            done.result = _score_sheet_result(match, context, record, dealer)
    else:
        _play(match, context, done, dealer, limit)
    if limit is None and done.result is not None and "Result" in record.tags:
        _check_result(match, done)


def _lacks_a_tag(match: MatchReplay, record: DealRecord) -> bool:
    """Whether the deal lacks a tag its replay needs (``Dealer``; ``Deck`` or ``Proposed`` to play).

    A deal with a reading error is still replayed up to that error, but a missing tag is then
    not reported: the unreadable line (``[Deck …`` without its closing quote, say) may be it.
    """
    if "Dealer" not in record.tags:
        return True
    if record.is_score_sheet:
        return False
    turned = getattr(match.rules, "trump_choice", None) == "turned"
    return "Deck" not in record.tags or (turned and "Proposed" not in record.tags)


def _dealer_after_unfinished(match: MatchReplay, dealer: Seat, record: DealRecord) -> Seat | None:
    """Who deals after a deal recorded only in part: the rotation goes on as after a played deal
    (an unfinished deal was not thrown in), unless the record stops on a schmeiss not yet answered
    while an accepted one keeps the dealer (``schmeiss-redeal=same-dealer``): then either may."""
    game, rules = match.game, match.rules
    pending = bool(record.actions) and record.actions[-1].kind is ActionKind.SCHMEISS
    if pending and game.next_dealer(rules, dealer, "redeal") is not game.next_dealer(rules, dealer, "played"):
        return None
    return game.next_dealer(rules, dealer, "played")


def _wrong_dealer(match: MatchReplay, context: _Context, done: DealReplay) -> str:
    previous = context.previous
    assert previous is not None and previous.dealer is not None and context.expected_dealer is not None
    if match.game.name == "klaverjas":
        why = "the dealer moves one seat clockwise every deal"
    elif previous.dealer is context.expected_dealer:
        why = "a schmeiss redeal keeps the dealer (schmeiss-redeal=same-dealer)"
    else:
        why = "the dealer alternates every deal"
    return (f"wrong dealer: deal {done.number} is dealt by {context.expected_dealer}, not {done.dealer} "
            f"(deal {previous.number} was dealt by {previous.dealer}; {why})")


def _play(match: MatchReplay, context: _Context, done: DealReplay, dealer: Seat, limit: int | None) -> None:
    record, game, rules = done.record, match.game, match.rules
    extra: dict[str, Any] = {}
    if game.name == "klaberjass":
        extra["hanging"] = context.hanging
    elif getattr(rules, "trump_choice", None) == "turned":
        if "Proposed" not in record.tags:
            raise RecordError('trump-choice=turned needs the deal\'s [Proposed] tag (the proposed suit, '
                              'e.g. [Proposed "H"])', record.line)
        extra["proposed"] = Suit(record.tags["Proposed"])
    elif "Proposed" in record.tags:
        raise RecordError(f"[Proposed] is used only with trump-choice=turned, not trump-choice="
                          f"{getattr(rules, 'trump_choice', '?')}", record.line_of("Proposed"))
    fresh = partial(game.deal_class, rules, dealer, record.deck, **extra)
    try:
        deal = fresh()
    except ValueError as error:
        raise RecordError(str(error), record.line) from None
    done.deal, done.fresh = deal, fresh
    done.opening = tuple(deal.events)
    for index, action in enumerate(record.actions):
        line = record.action_line(index)
        if limit is not None and line >= limit:
            return
        if deal.is_over:
            raise RecordError(f"{action} comes after the end of the deal ({_ending(deal)}); "
                              "nothing more can be played", line)
        dd = record.dd_of(index)
        legal = legal_cards(deal) if dd is not None else []
        try:
            done.applied.append((action, deal.apply(action)))
        except ValueError as error:  # an illegal action: that, not its dd, is what is wrong
            raise RecordError(str(error), line) from None
        if dd is not None:
            try:
                check_dd(dd, legal, str(action), game.max_deal_value)
            except AnnotationError as error:
                raise RecordError(str(error), line) from None
    if limit is not None:
        return
    if deal.is_over:
        done.result = deal.result
    elif not record.unfinished:
        raise RecordError(f"the deal stops before its end ({deal.to_act} is to act, e.g. "
                          f"{deal.legal_actions()[0]}): finish it, or mark a partial record "
                          '[Termination "unfinished"]', record.last_line)


def legal_cards(deal: Any) -> list[Card]:
    """The cards the engine ``deal``'s player to act may play now, in deck order (none outside
    the card play; ``CARD`` and ``CARD nobella`` are one card)."""
    cards = {action.card for action in deal.legal_actions() if action.kind is ActionKind.PLAY}
    return sorted((card for card in cards if card is not None), key=lambda card: card.index)


def positions(done: DealReplay) -> Iterator[tuple[int, Action, Any]]:
    """Each action of a played deal with the engine's deal just before it: ``(index, action,
    deal)``, on a fresh copy of the deal (``done.deal`` is not touched). The deal object is the
    same one throughout, moved on after each step: use it before asking for the next."""
    if done.fresh is None:
        return
    deal = done.fresh()
    for index, (action, _) in enumerate(done.applied):
        yield index, action, deal
        deal.apply(action)


def _ending(deal: Any) -> str:
    result = deal.result
    if result is None:
        return "it is over"
    if result.outcome == "thrown-in":
        return "thrown in: everybody passed"
    if result.outcome == "redeal":
        return "thrown in: schmeiss accepted"
    return "all tricks are played"


def _score_sheet_result(match: MatchReplay, context: _Context, record: DealRecord, dealer: Seat) -> Any:
    game, rules = match.game, match.rules
    tags = record.tags
    if game.name == "klaberjass":
        maker = Seat(tags["Maker"])
        totals = parse_scores(tags["Totals"], game.seats, what="Totals")
        line = record.line_of("Totals")
        if len(totals) != len(game.seats):
            raise RecordError("[Totals] gives both players' totals, e.g. [Totals \"N 84 S 60\"]", line)
        by_seat = {Seat(key): value for key, value in totals.items()}
        assert isinstance(rules, KlaberjassRules)
        problem = klaberjass.totals_problem(rules, by_seat)
        if problem is not None:
            raise RecordError(f"[Totals] {problem}", line)
        args: tuple[Any, ...] = (rules, dealer, maker, by_seat, context.hanging)
    else:
        playing = Side(tags["Playing"])
        points = parse_scores(tags["Points"], game.score_keys, what="Points")
        line = record.line_of("Points")
        for side in Side:
            if side.value not in points:
                other = points.get(side.other.value, 0)
                if other > DEAL_POINTS:
                    raise RecordError(f"[Points] {side.other} {other}: a side has at most {DEAL_POINTS} card "
                                      "points", line)
                points[side.value] = DEAL_POINTS - other
        roem = parse_scores(tags.get("Roem", "NS 0"), game.score_keys, what="Roem")
        problems = {"Points": klaverjas.points_problem(points), "Roem": klaverjas.roem_problem(roem)}
        for tag, problem in problems.items():
            if problem is not None:
                raise RecordError(f"[{tag}] {problem}", record.line_of(tag))
        pit = "Pit" in tags
        if pit and tags["Pit"] != playing.value:
            raise RecordError(f"[Pit \"{tags['Pit']}\"]: only the playing side ({playing}) can make pit",
                              record.line_of("Pit"))
        args = (rules, dealer, playing, {side: points[side.value] for side in Side},
                {side: roem.get(side.value, 0) for side in Side}, pit)
    try:
        return game.scored_result(*args)
    except ValueError as error:
        raise RecordError(str(error), line) from None


def _check_result(match: MatchReplay, done: DealReplay) -> None:
    keys = match.game.score_keys
    given = parse_scores(done.record.tags["Result"], keys, what="Result")
    computed = {key: done.result.score.get(key, 0) for key in keys}
    if given != computed:
        raise RecordError(f"[Result \"{format_scores(given, keys)}\"] disagrees with the deal: it scores "
                          f"{format_scores(computed, keys)}", done.record.line_of("Result"))


def describe_deal(deal: DealReplay) -> str:
    """One line for ``klabsite check``: ``deal 1 (id): N made, N 97 S 65; match N 97 S 65``."""
    head = f"deal {deal.number} ({deal.id}), dealer {deal.dealer}"
    if deal.result is None:
        return f"{head}: unfinished"
    data = deal.result.to_json()
    if deal.outcome == "thrown-in":
        return f"{head}: thrown in (all passed)"
    if deal.outcome == "redeal":
        return f"{head}: thrown in (schmeiss accepted), redealt"
    keys = tuple(data["score"])
    who = data.get("maker") or data.get("playing")
    extra = " pit" if data.get("pit") else ""
    trump = f" (trump {data['trump']})" if "trump" in data else ""
    return (f"{head}: {who} {data['result']}{trump}{extra}, {format_scores(data['score'], keys)}; "
            f"match {format_scores(deal.match or {}, keys)}")
