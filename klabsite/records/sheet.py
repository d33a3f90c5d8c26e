"""Score sheets: a match kept as each deal's counted result, as a ``.klab`` record.

"Keeping score" on the site's rules pages: per deal the playing side, one side's card points and each
side's roem (Klaverjas), or the maker and both totals (Klaberjass); everything else is derived
by the engines (``scored_result``) through :func:`klabsite.replay.replay`, the code path of
``klabsite check``. A :class:`Sheet` is a :class:`~klabsite.records.klab.Record` plus its replay.
Every change (:meth:`Sheet.add`, :meth:`Sheet.edit`, :meth:`Sheet.delete`) returns a new sheet
built from its canonical text read back and replayed, or raises :class:`SheetError` with a
one-line message a player understands; the sheet it was called on is never changed.

Decisions (also in the ``score`` command's help):

- The first dealer is kept in the match tag ``[FirstDealer "N"]`` (an unknown tag to
  ``docs/record-format.md``, which readers keep), so that a sheet without deals, or whose every deal was
  deleted, still knows it; when the sheet has deals, deal 1's ``Dealer`` tag is authoritative.
  Every later dealer is derived with the engine's ``next_dealer`` and rewritten on each change.
- ``Points`` keeps the side it was given for (``--points "EW 70"`` stays ``EW 70``), as the app
  keeps what was written down; a bare number is the playing side's points.
- ``Result`` tags, where a sheet has them, are kept in step with the derived score.
- The undo history is a sidecar file: :class:`klabsite.records.undo.History`.

>>> sheet = Sheet.new("klaverjas", players="N:Ana E:Ivo S:Maja W:Luka")
>>> sheet = sheet.add(DealOptions(playing="NS", points="92", roem="NS 20"))
>>> sheet = sheet.add(DealOptions(playing="EW", points="EW 81"))
>>> [(row.dealer, row.marks, row.score, row.match) for row in sheet.rows()]
[('N', '', ('112', '70'), ('112', '70')), ('E', 'nat', ('162', '0'), ('274', '70'))]
>>> sheet.next_dealer
<Seat.S: 'S'>
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from klabsite.engine import klaverjas
from klabsite.engine.games import Game, get_game
from klabsite.engine.klaberjass import totals_problem
from klabsite.engine.options import GameRules, KlaberjassRules
from klabsite.engine.seats import Seat, SeatError, Side
from klabsite.engine.text import LARGEST_NUMBER, printable, quote, shorten, whole_number
from klabsite.engine.tricks import LAST_TRICK_BONUS
from klabsite.records.klab import (
    DealRecord,
    Record,
    RecordError,
    format_record,
    format_scores,
    normalize_tag,
    parse_record,
)
from klabsite.records.replay import DealReplay, MatchReplay, replay

__all__ = [
    "FIRST_DEALER_TAG",
    "DEAL_POINTS",
    "SheetError",
    "DealOptions",
    "Sheet",
    "Row",
    "format_table",
]

FIRST_DEALER_TAG = "FirstDealer"
"""The match tag keeping the sheet's first dealer (unknown to docs/record-format.md, kept by readers)."""

DEAL_POINTS = klaverjas.DEAL_POINTS
"""The card points of a Klaverjas deal, last trick included."""

TOTALS_EXAMPLE = '"N 84 S 60"'
"""An example of ``--totals`` in messages: a pair one deal can make."""

_OPTIONS_OF = {
    "klaverjas": ("--playing, --points, --roem and --pit", ("maker", "totals")),
    "klaberjass": ("--maker and --totals", ("playing", "points", "roem", "pit")),
}


class SheetError(ValueError):
    """A change the sheet refuses, or a file that is not a valid sheet; ``line`` when known."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line

    def located(self, path: str) -> str:
        """``path:LINE: message`` (or ``path: message`` without a line)."""
        return f"{path}:{self.line}: {self.message}" if self.line else f"{path}: {self.message}"


# --------------------------------------------------------------------------- reading options


@dataclass(frozen=True)
class DealOptions:
    """What ``add``/``edit`` were given, as typed (``None``: not given, keep or default).

    Klaverjas: ``playing`` (NS/EW), ``points`` (``92`` for the playing side, or ``"EW 70"``,
    or both sides), ``roem`` (``"NS 20 EW 0"``; sides not named: 0 on add, kept on edit),
    ``pit``. Klaberjass: ``maker`` (N/S) and ``totals`` (``"N 102 S 60"``). Both: ``note``
    (free text; empty removes it).
    """

    playing: str | None = None
    points: str | None = None
    roem: str | None = None
    pit: bool | None = None
    maker: str | None = None
    totals: str | None = None
    note: str | None = None

    def given(self) -> list[str]:
        """The names of the options given."""
        return [name for name, value in vars(self).items() if value is not None]


def _side(text: str, what: str) -> Side:
    try:
        return Side.parse(text)
    except SeatError:
        raise SheetError(f"{what}: unknown side {quote(text.strip())}: use NS or EW") from None


def _seat(text: str, game: Game, what: str) -> Seat:
    try:
        seat = Seat.parse(text)
    except SeatError:
        seat = None
    if seat is None or seat.value not in game.seats:
        raise SheetError(f"{what}: unknown seat {quote(text.strip())}: {game.name} is played by "
                         f"{' and '.join(game.seats) if len(game.seats) == 2 else ' '.join(game.seats)}")
    return seat


def _number(word: str, what: str, key: str) -> int:
    value = whole_number(word.removeprefix("+"))
    if value is None and word.startswith("-") and whole_number(word[1:]) is not None:
        raise SheetError(f"{what}: {key} {shorten(word)}: points cannot be negative")
    if value is None:
        raise SheetError(f"{what}: {key} needs a whole number, not {quote(word)}")
    if value > LARGEST_NUMBER:
        raise SheetError(f"{what}: {key} {shorten(word)} is beyond any real score")
    return value


def _pairs(text: str, what: str, read_key: Any, example: str) -> dict[str, int]:
    """``"NS 20 EW 0"`` → ``{"NS": 20, "EW": 0}`` with player-readable refusals."""
    words = text.split()
    if not words or len(words) % 2:
        raise SheetError(f"{what}: cannot read {quote(text)}: write pairs of a side or seat and points, "
                         f"e.g. {example}")
    values: dict[str, int] = {}
    for key_word, word in zip(words[::2], words[1::2], strict=True):
        key = read_key(key_word)
        if key in values:
            raise SheetError(f"{what}: {key} is given twice")
        values[key] = _number(word, what, key)
    return values


def _read_points(text: str, playing: Side) -> dict[str, int]:
    words = text.split()
    if len(words) == 1:
        points = {playing.value: _number(words[0], "--points", playing.value)}
    else:
        points = _pairs(text, "--points", lambda word: _side(word, "--points").value, '"NS 92" or "EW 70"')
    for key, value in points.items():
        if value > DEAL_POINTS:
            raise SheetError(f"--points: {key} {value} is more than the {DEAL_POINTS} card points of a deal "
                             "(last trick included)")
    if len(points) == 2 and sum(points.values()) != DEAL_POINTS:
        raise SheetError(f"--points: {format_scores(points, ('NS', 'EW'))} add up to {sum(points.values())}; "
                         f"the card points of a deal add up to {DEAL_POINTS} (give one side, the other "
                         "follows)")
    return points


def _check_points(points: Mapping[str, int]) -> None:
    """Refuse card points no side can take (1, and so 161 for the other side), the side given first."""
    problem = klaverjas.points_problem(points)
    if problem is not None:
        raise SheetError(f"--points: {problem}")


def _read_roem(text: str) -> dict[str, int]:
    return _pairs(text, "--roem", lambda word: _side(word, "--roem").value, '"NS 20 EW 0"')


def _check_roem(roem: Mapping[str, int]) -> None:
    """Refuse roem no deal holds: a side's, or both sides' together."""
    problem = klaverjas.roem_problem(roem)
    if problem is not None:
        raise SheetError(f"--roem: {problem}")


def _read_totals(text: str, game: Game, rules: GameRules) -> dict[str, int]:
    totals = _pairs(text, "--totals", lambda word: _seat(word, game, "--totals").value, TOTALS_EXAMPLE)
    if len(totals) != 2:
        raise SheetError(f"--totals needs both players' totals, N and S, e.g. {TOTALS_EXAMPLE} "
                         f"(got {quote(text)})")
    assert isinstance(rules, KlaberjassRules)
    problem = totals_problem(rules, {Seat(key): value for key, value in totals.items()})
    if problem is not None:
        raise SheetError(f"--totals: {problem}")
    return totals


def _side_points(points: Mapping[str, int], side: Side) -> int:
    if side.value in points:
        return points[side.value]
    return DEAL_POINTS - points[side.other.value]


def _klaverjas_tags(tags: Mapping[str, str], options: DealOptions) -> dict[str, str]:
    new = dict(tags)
    if options.playing is not None:
        new["Playing"] = _side(options.playing, "--playing").value
    if "Playing" not in new:
        raise SheetError("a Klaverjas deal needs --playing (the side that chose trump: NS or EW)")
    playing = Side(new["Playing"])
    if options.points is not None:
        new["Points"] = format_scores(_read_points(options.points, playing), ("NS", "EW"))
    if "Points" not in new:
        raise SheetError("a Klaverjas deal needs --points (one side's card points, last trick included, "
                         "e.g. 92 for the playing side or \"EW 70\")")
    roem = _pairs(new.get("Roem", "NS 0 EW 0"), "Roem", lambda word: _side(word, "Roem").value, "")
    if options.roem is not None:
        roem.update(_read_roem(options.roem))
        _check_roem(roem)
    new["Roem"] = format_scores({side: roem.get(side, 0) for side in ("NS", "EW")}, ("NS", "EW"))
    pit = options.pit if options.pit is not None else "Pit" in new
    new.pop("Pit", None)
    if pit:
        points = _pairs(new["Points"], "Points", lambda word: _side(word, "Points").value, "")
        mine = _side_points(points, playing)
        if mine != DEAL_POINTS:
            raise SheetError(f"--pit: pit means {playing} took every trick, so {playing} has all "
                             f"{DEAL_POINTS} card points, not {mine}")
        if roem.get(playing.other.value, 0):
            raise SheetError(f"--pit: pit means {playing} took every trick, so {playing.other} cannot "
                             f"have roem ({playing.other} {roem[playing.other.value]})")
        new["Pit"] = playing.value
    elif options.points is not None:
        _check_points(_pairs(new["Points"], "Points", lambda word: _side(word, "Points").value, ""))
    return new


def _klaberjass_tags(tags: Mapping[str, str], options: DealOptions, game: Game,
                     rules: GameRules) -> dict[str, str]:
    new = dict(tags)
    if options.maker is not None:
        new["Maker"] = _seat(options.maker, game, "--maker").value
    if options.totals is not None:
        new["Totals"] = format_scores(_read_totals(options.totals, game, rules), game.seats)
    if "Maker" not in new:
        raise SheetError("a Klaberjass deal needs --maker (the player who chose trump: N or S)")
    if "Totals" not in new:
        raise SheetError("a Klaberjass deal needs --totals (both players' totals: cards, last trick, "
                         f"sequences, bella), e.g. {TOTALS_EXAMPLE}")
    return new


def deal_tags(game: Game, tags: Mapping[str, str], options: DealOptions,
              rules: GameRules | None = None) -> dict[str, str]:
    """The score-sheet tags of a deal: ``tags`` (empty for a new deal) changed by ``options``.

    ``rules`` (default: the game's defaults) decide what Klaberjass totals a deal can have.

    >>> deal_tags(get_game("klaverjas"), {}, DealOptions(playing="ew", points="EW 162", pit=True))
    {'Playing': 'EW', 'Points': 'EW 162', 'Roem': 'NS 0 EW 0', 'Pit': 'EW'}
    """
    wanted, foreign = _OPTIONS_OF[game.name]
    wrong = [name for name in options.given() if name in foreign]
    if wrong:
        other = "Klaberjass" if game.name == "klaverjas" else "Klaverjas"
        listed = " and ".join(", ".join(f"--{name}" for name in wrong).rsplit(", ", 1))
        kind = f"is a {other} option" if len(wrong) == 1 else f"are {other} options"
        raise SheetError(f"{listed} {kind}; this sheet is {game.name}: use {wanted}")
    if game.name == "klaverjas":
        new = _klaverjas_tags(tags, options)
    else:
        new = _klaberjass_tags(tags, options, game, rules if rules is not None else game.parse_rules(""))
    if options.note is not None:
        note = " ".join(options.note.split())
        if note:
            new["Note"] = one_line(note, "--note")
        else:
            new.pop("Note", None)
    return new


def one_line(text: str, what: str) -> str:
    """``text`` if it is one line of printable text, else :class:`SheetError` naming option ``what``.

    >>> one_line("Club night", "--title")
    'Club night'
    """
    if printable(text) != text:
        raise SheetError(f"{what}: write one line of text without control characters, not {quote(text)}")
    return text


# --------------------------------------------------------------------------- the sheet


@dataclass(frozen=True)
class Row:
    """One line of the ``show`` table: every figure already as text (pairs in key order)."""

    deal: int
    dealer: str
    who: str
    points: tuple[str, str]
    roem: tuple[str, str]
    marks: str
    score: tuple[str, str]
    match: tuple[str, str]


@dataclass
class Sheet:
    """A valid record kept as a score sheet, and its replay (never changed in place)."""

    record: Record
    replayed: MatchReplay

    # ------------------------------------------------------------------ building and reading

    @classmethod
    def new(cls, game: str, rules: str = "", players: str = "", first_dealer: str = "N",
            **tags: str) -> Sheet:
        """An empty sheet (raises :class:`SheetError` for an unknown game, option, seat …)."""
        try:
            found = get_game(game)
        except ValueError as error:
            raise SheetError(f"--game: {error}") from None
        try:
            record = Record.new(found.name, found.parse_rules(rules))
        except ValueError as error:
            raise SheetError(f"--rules: {_message(error)}") from None
        for name, value in {"Players": players, **tags}.items():
            if value:
                one_line(value, f"--{name.lower()}")
                try:
                    record.tags[name] = normalize_tag(found, name, value)
                except ValueError as error:
                    raise SheetError(f"--{name.lower()}: {_message(error)}") from None
        record.tags[FIRST_DEALER_TAG] = _seat(first_dealer, found, "--dealer").value
        return cls._from_record(record)

    @classmethod
    def read(cls, data: str | bytes) -> Sheet:
        """A sheet from a record's text; :class:`SheetError` (with its line) if it is not valid."""
        try:
            record = parse_record(data)
        except RecordError as error:
            raise SheetError(error.message, error.line or 1) from None
        replayed = replay(record)
        if replayed.errors:
            first = replayed.errors[0]
            raise SheetError(first.message, first.line or 1)
        value = record.tags.get(FIRST_DEALER_TAG)
        if value is not None and not record.deals and value.strip().upper() not in record.game.seats:
            raise SheetError(f"[{FIRST_DEALER_TAG}] {quote(value)}: name the first dealer's seat, one of "
                             f"{' '.join(record.game.seats)}", record.tag_lines.get(FIRST_DEALER_TAG))
        return cls(record, replayed)

    @classmethod
    def _from_record(cls, record: Record) -> Sheet:
        """Derive dealers and Result tags, write, read back and replay (the ``check`` path)."""
        record = copy.deepcopy(record)
        if record.deals and "Dealer" in record.deals[0].tags:
            record.tags[FIRST_DEALER_TAG] = record.deals[0].tags["Dealer"]
        first = Seat(record.tags.get(FIRST_DEALER_TAG, "N").strip().upper())
        record.tags[FIRST_DEALER_TAG] = first.value
        _derive_dealers(record, first)
        _sync_results(record)
        text = format_record(record)
        reread = parse_record(text)
        replayed = replay(reread)
        if replayed.errors:
            error = replayed.errors[0]
            raise SheetError(_deal_message(reread, error))
        assert format_record(reread) == text, "a sheet's canonical text must read back unchanged"
        return cls(reread, replayed)

    def to_text(self) -> str:
        """The canonical text of the sheet."""
        return format_record(self.record)

    # ------------------------------------------------------------------ properties

    @property
    def game(self) -> Game:
        """The sheet's game."""
        return self.record.game

    @property
    def first_dealer(self) -> Seat:
        """Who deals the first deal."""
        if self.record.deals:
            return Seat(self.record.deals[0].tags["Dealer"])
        return Seat(self.record.tags.get(FIRST_DEALER_TAG, "N").strip().upper())

    @property
    def over(self) -> bool:
        """Whether the match is over."""
        return self.replayed.score.over

    @property
    def winner(self) -> str | None:
        """The winning player or side once the match is over (``None`` for a draw or while on)."""
        return self.replayed.score.winner if self.over else None

    @property
    def totals(self) -> dict[str, int]:
        """The match totals after the last deal."""
        return dict(self.replayed.score.totals)

    @property
    def hanging(self) -> int:
        """Klaberjass points waiting for the next deal's winner (``equal-score=next-deal-winner``)."""
        return self.replayed.deals[-1].hanging if self.replayed.deals else 0

    @property
    def next_dealer(self) -> Seat:
        """Who deals the next deal."""
        if not self.replayed.deals:
            return self.first_dealer
        last = self.replayed.deals[-1]
        assert last.dealer is not None
        outcome = last.result.outcome if last.result is not None else "played"
        return self.game.next_dealer(self.record.rules, last.dealer, outcome)

    def result_text(self) -> str:
        """``NS wins, NS 1520 EW 1380`` / ``drawn, …`` / ``NS 300 EW 200`` while the match goes on."""
        totals = format_scores(self.totals, self.game.score_keys)
        if not self.over:
            return totals
        return f"{self.winner} wins, {totals}" if self.winner else f"drawn, {totals}"

    # ------------------------------------------------------------------ changes

    def _deal_index(self, number: int | str) -> int:
        count = len(self.record.deals)
        text = str(number).strip()
        value = whole_number(text)
        if value is None:
            raise SheetError(f"deal number {quote(text)}: give the deal's number, 1 to {count}"
                             if count else f"deal number {quote(text)}: the sheet has no deals yet")
        if not 0 < value <= count:
            having = f"the sheet has deals 1 to {count}" if count > 1 else (
                "the sheet has deal 1 only" if count else "the sheet has no deals yet")
            raise SheetError(f"there is no deal {shorten(text.lstrip('0') or '0')}: {having}")
        return value - 1

    def add(self, options: DealOptions) -> Sheet:
        """The sheet with one more score-sheet deal (refused once the match is over)."""
        if self.over:
            raise SheetError(f"the match is over after deal {len(self.record.deals)} ({self.result_text()}): "
                             "no further deal can be added")
        tags = deal_tags(self.game, {}, options, self.record.rules)
        record = copy.deepcopy(self.record)
        deal = DealRecord()
        deal.tags = {"Deal": str(len(record.deals) + 1), "Dealer": self.next_dealer.value, **tags}
        record.deals.append(deal)
        return Sheet._from_record(record)

    def edit(self, number: int | str, options: DealOptions) -> Sheet:
        """The sheet with deal ``number`` changed by ``options`` (unchanged values kept)."""
        index = self._deal_index(number)
        record = copy.deepcopy(self.record)
        deal = record.deals[index]
        if not deal.is_score_sheet:
            raise SheetError(f"deal {index + 1} is recorded card by card: only score-sheet deals "
                             "can be edited")
        if not options.given():
            raise SheetError(f"edit {index + 1}: give what to change (same options as add)")
        deal.tags = deal_tags(self.game, deal.tags, options, self.record.rules)
        return Sheet._from_record(record)

    def delete(self, number: int | str) -> Sheet:
        """The sheet without deal ``number``: later deals renumber, dealers are derived again."""
        index = self._deal_index(number)
        record = copy.deepcopy(self.record)
        first = self.first_dealer
        del record.deals[index]
        record.tags[FIRST_DEALER_TAG] = first.value
        for position, deal in enumerate(record.deals, start=1):
            deal.tags["Deal"] = str(position)
        if index == 0 and record.deals and record.deals[0].is_score_sheet:
            record.deals[0].tags["Dealer"] = first.value
        return Sheet._from_record(record)

    # ------------------------------------------------------------------ the table

    def rows(self) -> list[Row]:
        """One :class:`Row` per deal, for the ``show`` table."""
        keys = self.game.score_keys
        return [_row(deal, keys) for deal in self.replayed.deals]

    def table(self) -> str:
        """The ``show`` text: players, the aligned table, totals, the winner or the next dealer."""
        game, keys = self.game, self.game.score_keys
        rules = self.record.rules
        lines = [_heading(self.record)]
        players = _players_line(self.record)
        if players:
            lines.append(players)
        lines.append("")
        lines.extend(format_table(self.rows(), game.name))
        if not self.record.deals:
            lines.append("(no deals yet)")
        notes = _notes(self.record)
        if notes:
            lines += ["", "Notes:", *notes]
        lines.append("")
        counted = self.replayed.score.counted
        goal = f"{counted} of {rules.deals} deals" if rules.deals is not None else f"target {rules.target}"
        lines.append(f"Match: {format_scores(self.totals, keys)} ({goal})")
        if self.hanging and self.over:
            lines.append(f"Hanging: {self.hanging} points go to nobody, the match being over")
        elif self.hanging:
            lines.append(f"Hanging: {self.hanging} points wait for the winner of the next deal")
        if self.over:
            lines.append(f"Winner: {self.winner}, match over" if self.winner else "Drawn, match over")
        else:
            lines.append(f"Next dealer: {self.next_dealer}")
        return "\n".join(lines) + "\n"

    def summary(self, number: int) -> str:
        """One line on deal ``number`` and the match after it, for the command's output."""
        deal = self.replayed.deals[number - 1]
        row = _row(deal, self.game.score_keys)
        keys = self.game.score_keys
        marks = f" {row.marks}" if row.marks else ""
        return (f"deal {number}, dealer {row.dealer}: {row.who}{marks}, "
                f"{keys[0]} {row.score[0]} {keys[1]} {row.score[1]}; "
                f"match {keys[0]} {row.match[0]} {keys[1]} {row.match[1]}")

    def status(self, totals: bool = True) -> str:
        """The state of the match in a few words: the winner, or (the totals and) the next dealer."""
        if self.over:
            return f"match over: {self.result_text()}"
        head = f"match {self.result_text()}; " if totals else ""
        hanging = f"; {self.hanging} points hanging" if self.hanging else ""
        return f"{head}next dealer {self.next_dealer}{hanging}"


def _message(error: Exception) -> str:
    text = error.message if isinstance(error, RecordError) else str(error)
    return re.sub(r"^\[[A-Za-z]+\]: ", "", text)


def _isolated_outcome(record: Record, deal: DealRecord) -> str | None:
    """The outcome of a played deal replayed on its own (``None`` if it does not replay)."""
    alone = Record(tags=dict(record.tags), deals=[replace(copy.deepcopy(deal), error=None)])
    alone.deals[0].tags["Deal"] = "1"
    done = replay(alone).deals[0]
    return done.result.outcome if done.result is not None else None


def _derive_dealers(record: Record, first: Seat) -> None:
    """Set every score-sheet deal's ``Dealer`` from ``first`` and the engine's rotation."""
    game, rules = record.game, record.rules
    dealer = first
    for deal in record.deals:
        if deal.is_score_sheet:
            deal.tags["Dealer"] = dealer.value
            outcome: str | None = "scored"
        else:
            dealer = Seat(deal.tags.get("Dealer", dealer.value))
            outcome = _isolated_outcome(record, deal)
        if outcome is None:
            return
        dealer = game.next_dealer(rules, dealer, outcome)


def _sync_results(record: Record) -> None:
    """Rewrite the ``Result`` tags a sheet has to the derived scores (when the sheet replays)."""
    having = [deal for deal in record.deals if "Result" in deal.tags]
    if not having:
        return
    bare = copy.deepcopy(record)
    for deal in bare.deals:
        deal.tags.pop("Result", None)
    replayed = replay(bare)
    if replayed.errors:
        return
    keys = record.game.score_keys
    for deal, done in zip(record.deals, replayed.deals, strict=True):
        if "Result" in deal.tags and done.result is not None:
            deal.tags["Result"] = format_scores(done.result.score, keys)


def _deal_message(record: Record, error: RecordError) -> str:
    """A replay error of a changed sheet, named by deal (its lines are not the file's)."""
    line = error.line or 0
    for deal in record.deals:
        if deal.line <= line <= deal.last_line:
            ended = re.match(r"the match is over after deal (\d+) \((.*)\): no further deal$", error.message)
            if ended:
                later = len(record.deals) - int(ended.group(1))
                follow = ("1 later deal follows: delete it" if later == 1
                          else f"{later} later deals follow: delete them")
                return (f"this change ends the match after deal {ended.group(1)} ({ended.group(2)}), but "
                        f"{follow} first")
            return f"deal {deal.number}: {error.message}"
    return error.message


def _pair(values: Mapping[str, int] | None, keys: tuple[str, ...]) -> tuple[str, str]:
    if values is None:
        return ("", "")
    return (str(values.get(keys[0], 0)), str(values.get(keys[1], 0)))


def _row(deal: DealReplay, keys: tuple[str, ...]) -> Row:
    match = _pair(deal.match, keys)
    result = deal.result
    dealer = str(deal.dealer or "")
    if result is None:
        return Row(deal.number, dealer, "", ("", ""), ("", ""), "unfinished", ("", ""), match)
    data = result.to_json()
    if data["outcome"] in ("thrown-in", "redeal"):
        ending = "thrown in" if data["outcome"] == "thrown-in" else "schmeiss, redealt"
        return Row(deal.number, dealer, "", ("", ""), ("", ""), ending, ("", ""), match)
    marks: list[str] = []
    if data["outcome"] == "played":
        marks.append("played")
    if "playing" in data:
        who = data["playing"]
        points = data.get("points")
        if points is None:
            points = {key: data["card_points"][key] + (LAST_TRICK_BONUS if data["last_trick"] == key else 0)
                      for key in keys}
        if data["result"] == "nat":
            marks.append("nat")
        if data["pit"]:
            marks.append("pit")
        return Row(deal.number, dealer, who, _pair(points, keys), _pair(data["roem"], keys),
                   " ".join(marks), _pair(data["score"], keys), match)
    who = data["maker"]
    if data["result"] != "made":
        marks.append(data["result"])
    if data["result"] == "tie" and deal.hanging:
        marks.append(f"{deal.hanging} hanging")
    elif data["result"] != "tie":
        collected = _collected(data, keys)
        if collected:
            marks.append(f"+{collected} hanging")
    return Row(deal.number, dealer, who, _pair(data["totals"], keys), ("", ""), " ".join(marks),
               _pair(data["score"], keys), match)


def _collected(data: Mapping[str, Any], keys: tuple[str, ...]) -> int:
    """Hanging points a Klaberjass deal paid out: awarded beyond what the maker rule gives."""
    totals, score = data["totals"], data["score"]
    return sum(score.values()) - sum(totals[key] for key in keys)


def _heading(record: Record) -> str:
    rules = record.rules.format()
    title = record.title
    head = f"{record.game.name} score sheet" + (f": {printable(title)}" if title else "")
    return head + (f" (rules: {rules})" if rules else "")


def _notes(record: Record) -> list[str]:
    """``  deal 2: misdeal?`` for every deal with a ``Note`` (control characters escaped)."""
    return [f"  deal {deal.number}: {printable(deal.tags['Note'])}" for deal in record.deals
            if deal.tags.get("Note")]


def _players_line(record: Record) -> str:
    names = {seat: printable(name.replace("_", " ")) for seat, name in  # "_" stands for a space
             (word.split(":", 1) for word in record.tags.get("Players", "").split())}
    if not names:
        return ""
    if record.game.keys_are_sides:
        parts = []
        for side in Side:
            who = [names.get(seat.value, seat.value) for seat in side.seats]
            parts.append(f"{side}: {who[0]} & {who[1]}")
        return "Players: " + ", ".join(parts)
    return "Players: " + ", ".join(f"{seat}: {names.get(seat, seat)}" for seat in record.game.seats)


def format_table(rows: Iterable[Row], game: str) -> list[str]:
    """The aligned table (two header lines, one line per row; numbers right-aligned).

    >>> rows = [Row(1, "S", "N", ("84", "60"), ("", ""), "", ("84", "60"), ("84", "60"))]
    >>> print("\\n".join(format_table(rows, "klaberjass")))
    Deal  Dealer  Maker  Totals  Marks  Score   Match
                          N   S          N   S   N   S
       1  S       N      84  60         84  60  84  60
    """
    by_side = get_game(game).keys_are_sides  # Klaverjas: sides, the playing side, points and roem
    keys = get_game(game).score_keys
    who, points = ("Playing", "Points") if by_side else ("Maker", "Totals")
    columns: list[tuple[str, str, str]] = [("Deal", "", ">"), ("Dealer", "", "<"), (who, "", "<"),
                                           (points, keys[0], ">"), ("", keys[1], ">")]
    if by_side:
        columns += [("Roem", keys[0], ">"), ("", keys[1], ">")]
    columns += [("Marks", "", "<"), ("Score", keys[0], ">"), ("", keys[1], ">"),
                ("Match", keys[0], ">"), ("", keys[1], ">")]
    cells = []
    for row in rows:
        line = [str(row.deal), row.dealer, row.who, *row.points]
        if by_side:
            line += list(row.roem)
        line += [row.marks, *row.score, *row.match]
        cells.append(line)
    widths = [max([len(sub), *(len(line[i]) for line in cells)]) for i, (_, sub, _) in enumerate(columns)]
    starts = [i for i, (label, _, _) in enumerate(columns) if label]
    groups = list(zip(starts, [*starts[1:], len(columns)], strict=True))
    for start, end in groups:  # a group label (Points, Score …) spans its columns
        span = sum(widths[start:end]) + 2 * (end - start - 1)
        widths[end - 1] += max(0, len(columns[start][0]) - span)
    aligns = [align for _, _, align in columns]

    def render(values: list[str]) -> str:
        parts = [f"{value:{align}{width}}"
                 for value, align, width in zip(values, aligns, widths, strict=True)]
        return "  ".join(parts).rstrip()

    spans = [sum(widths[start:end]) + 2 * (end - start - 1) for start, end in groups]
    head = "  ".join(columns[start][0].ljust(span) for (start, _), span in zip(groups, spans, strict=True))
    lines = [head.rstrip(), render([sub for _, sub, _ in columns])]
    lines += [render(line) for line in cells]
    return lines
