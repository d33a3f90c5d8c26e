"""The replays' content: every shipped deal and match as plain values the templates draw.

Load reads every ``.klab`` record under ``site_src/deals/`` and replays it through the rules
engine (a bad record stops the build with ``klabsite check``'s own ``FILE:LINE: message``).
:func:`deal_views` then turns each played deal into a :class:`DealView` — its steps
(:mod:`klabsite.records.steps`), tricks, score and tags — and :func:`match_views` each match
into a :class:`MatchView`. Nothing here depends on the language: the templates put the words.

Addresses (docs/record-format.md, "Canonical form and identity"): a deal at
``<lang>/deals/<deal id>/``, each step at ``<lang>/deals/<deal id>/<step>.html``, a match at
``<lang>/matches/<match id>/index.html``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from klabsite.engine.actions import ActionKind
from klabsite.engine.cards import Card, Suit
from klabsite.engine.events import TrickWon
from klabsite.engine.games import GAMES
from klabsite.engine.klaberjass import BELLA, BellaDecided
from klabsite.engine.klaverjas import DEAL_POINTS, KlaverjasDeal
from klabsite.engine.melds import Declared, MeldsCompared, MeldsShown
from klabsite.engine.options import GameRules
from klabsite.engine.roem import PIT_BONUS
from klabsite.engine.seats import Seat
from klabsite.engine.text import quote
from klabsite.engine.tricks import LAST_TRICK_BONUS, trick_winner_index
from klabsite.records.annotations import dd_order
from klabsite.records.klab import Record, RecordError, read_record
from klabsite.records.replay import DealReplay, MatchReplay, legal_cards, positions, replay
from klabsite.records.steps import Step, Table, deal_steps
from klabsite.records.tags import BLUNDER_COST, TAG_WORDS, deal_tags
from klabsite.site.config import SiteConfig
from klabsite.site.errors import BuildError
from klabsite.site.sources import decode
from klabsite.solver import takes_every_trick
from klabsite.solver.deals import klaverjas_position

__all__ = ["LoadedRecord", "DealView", "StepView", "MatchView", "MatchRow", "load_records",
           "deal_views", "match_views", "TAG_ORDER"]

TAG_ORDER = ("pit", "roem-200", "roem-100", "nat", "capot", "sequence-duel", "dix", "schmeiss",
             "bella", "bella-declined", "maker-failed", "tie", "hanging-points", "last-trick-decides",
             "blunder", "thrown-in")
"""The gallery's order of the tag words klabsite computes (the most striking first)."""


@dataclass(frozen=True)
class LoadedRecord:
    """One ``.klab`` file of ``site_src/deals/``: where it is, what it holds, and its replay."""

    path: str
    """As shown in messages (relative to the project)."""
    record: Record
    match: MatchReplay
    text: str = ""
    """The file's text (what a deal's pages are keyed by when the build reuses them)."""


def _record_files(config: SiteConfig) -> list[tuple[str, str]]:
    """(name shown in messages, text) of every record to show: ``config.deal_files`` as given
    (``klabsite replay``), else every ``.klab`` file under ``site_src/deals/``, sorted."""
    if config.deal_files is not None:
        files = []
        for path in config.deal_files:
            shown = str(path)  # as given on the command line, as check shows it
            try:
                files.append((shown, decode(path.read_bytes(), shown)))
            except OSError as error:
                raise BuildError(f"cannot read the record: {error.strerror or error}", shown) from None
        return files
    folder = config.src_dir / "deals"
    if not folder.is_dir():
        return []
    return [(config.relative(path), config.sources.read_text(path))
            for path in sorted(config.sources.files(folder)) if path.suffix == ".klab"]


def load_records(config: SiteConfig) -> tuple[LoadedRecord, ...]:
    """Read and replay every record to show (:func:`_record_files`).

    The first error of a record is a :class:`BuildError` at its file and line, worded as
    ``klabsite check`` words it; so is a deal that two files hold (or one file twice).
    """
    loaded: list[LoadedRecord] = []
    seen: dict[str, str] = {}
    for display, text in _record_files(config):
        try:
            record = read_record(text)
        except RecordError as error:
            raise BuildError(error.message, display, error.line or 1) from None
        match = replay(record)
        if match.errors:
            first = match.errors[0]
            raise BuildError(first.message, display, first.line or 1)
        for done in match.deals:
            _check_tags(done, match.game.name, display)
            if done.id in seen:
                raise BuildError(f"deal {done.number} is deal {done.id}, which {seen[done.id]} holds too: "
                                 "a deal is shipped once", display, done.record.line)
            seen[done.id] = f"{display}:{done.record.line}"
        loaded.append(LoadedRecord(display, record, match, text))
    return tuple(loaded)


def _check_tags(done: DealReplay, game: str, display: str) -> None:
    """Refuse a word of the deal's ``Tags`` that klabsite knows and that is not true of the deal
    (the gallery shows it as a fact); a person's own words are kept as they are, and so are the
    words of a deal recorded only in part (what the players said of its end cannot be checked),
    and ``blunder`` on a deal without ``dd`` annotations (a card's cost takes the analysis)."""
    words = done.record.tags.get("Tags", "").split()
    known = [word for word in words if word in TAG_WORDS]
    line = done.record.tag_lines.get("Tags", done.record.line)
    other = next((word for word in known if game not in TAG_WORDS[word]), None)
    if other is not None:
        games = " and ".join(name.capitalize() for name in TAG_WORDS[other])
        raise BuildError(f"[Tags] {quote(other)} is a {games} word, and this is a {game.capitalize()} deal: "
                         "remove it", display, line)
    if not known or done.record.unfinished:
        return
    true = set(deal_tags(done, game))
    if all(values is None for values in done.record.dd_values()):
        true.add("blunder")  # not analysed: whether a card cost 20 points or more cannot be told
    false = next((word for word in known if word not in true), None)
    if false is not None:
        raise BuildError(f"[Tags] {quote(false)} is not true of this deal (the record format says when each "
                         "word is): remove it", display, line)


@dataclass(frozen=True, eq=False)
class StepView:
    """One step of a deal as its page draws it."""

    step: Step
    index: int
    dd: tuple[tuple[Card, int, int], ...] | None = None
    """For a card play with a ``dd`` annotation: each legal card, its value and its cost."""
    forced: bool = False
    """For a card play: whether it was the only card the rules allowed."""
    rule: str | None = None
    """For a card play: the word of the rule that decided which cards were allowed (``follow``,
    ``trump``, ``partner-wins`` …: the engine's ``play_rule()``)."""
    partner_winning: bool = False
    """For a Klaverjas card play: whether the player's partner was winning the trick before it."""
    swing: str | None = None
    """For an analysed card play that decides the deal with perfect play from it on (all hands in
    view): ``"sinks"`` when the player's own side chose trump and made the deal with the best
    card but not with the card played; ``"lets-through"`` when the other side chose trump and the
    best card beat them but the card played lets them make it (:func:`_swing`). Otherwise, in
    Klaverjas, ``"pit-slips"`` when the player's side chose trump and would have taken every
    trick with the best card but not now; ``"pit-through"`` when the other side chose trump and
    the best card stopped their pit but the card played lets them take every trick
    (:func:`_pit_swing`)."""
    must_name: str | None = None
    """For a Klaverjas bid naming trump where the engine offered no pass, why, by ``trump-choice``:
    ``"forced"``, ``"all-passed"`` (free: all four passed) or ``"all-passed-turned"`` (not the
    suit proposed)."""
    to_name: Seat | None = None
    """For a refused schmeiss after which trump is still to be named: who must name it (the
    engine's player to act)."""
    bid_round: int | None = None
    """For a Klaberjass pass or schmeiss: its bidding round, 1 (about the upcard's suit) or 2
    (where the maker names trump)."""

    @property
    def name(self) -> str:
        """The step's address name (``b2``, ``t3-2``, ``end`` …)."""
        return self.step.name

    @property
    def kind(self) -> str:
        """``deal``, ``bid``, ``extra``, ``dix``, ``meld``, ``card`` or ``end``."""
        name = self.step.name
        if name in ("deal", "end", "dix"):
            return name
        return {"b": "bid", "x": "extra", "m": "meld", "t": "card"}[name[0]]

    @property
    def table(self) -> Table:
        """The table after this step."""
        return self.step.table

    @property
    def trick(self) -> int | None:
        """The trick of a card step."""
        return self.step.trick

    @property
    def card_number(self) -> int | None:
        """The card's place in its trick (1–4) for a card step."""
        return int(self.name.split("-")[1]) if self.kind == "card" else None

    @property
    def best_cards(self) -> tuple[Card, ...]:
        """For an analysed card play, the cards that cost nothing, in the order the player's hand
        shows them (empty without analysis)."""
        if not self.dd or self.step.seat is None:
            return ()
        best = {card for card, _, cost in self.dd if cost == 0}
        return tuple(slot.card for slot in self.table.hands[self.step.seat] if slot.card in best)

    @property
    def comparison(self) -> MeldsCompared | None:
        """Klaberjass: the comparison of both declarations, on the step that makes it."""
        return next((event for event in self.step.events if isinstance(event, MeldsCompared)), None)

    def melded(self, who: Seat) -> frozenset[Card]:
        """Klaberjass: the cards of the sequences ``who`` declares, holds or shows in this step
        (his hand marks them)."""
        return frozenset(card for event in self.step.events
                         if isinstance(event, Declared | MeldsShown) and event.seat == who
                         for meld in event.melds for card in meld)

    @property
    def outdone(self) -> frozenset[Seat]:
        """Klaberjass: the players whose sequences lose in this step's comparison (they concede with
        "Good." or "Not good." and hold their sequences rather than declare them to score)."""
        compared = self.comparison
        if compared is None or compared.best is None:
            return frozenset()
        return frozenset(seat for seat in self.table.hands if seat != compared.best)

    @property
    def trumps_before(self) -> int:
        """For a card play: how many trumps the trick held before it."""
        trump = self.table.trump
        return sum(card.suit is trump for _, card in self.table.trick[:-1])

    @property
    def last_trick(self) -> dict[str, int]:
        """Once the last trick is won: its winner's score key (seat or side) → the points for the
        last trick, which his points in tricks include; empty before."""
        tricks = self.table.tricks
        if not tricks or not tricks[-1].last:
            return {}
        winner = tricks[-1].winner
        return {winner.value if winner.value in self.table.points else winner.side.value: LAST_TRICK_BONUS}

    @property
    def cost(self) -> int | None:
        """For an analysed card play, what the card played cost against the best card (None
        without analysis)."""
        action = self.step.action
        if not self.dd or action is None:
            return None
        return next((cost for card, _value, cost in self.dd if card == action.card), None)

    @property
    def costly(self) -> bool:
        """Whether the card played cost :data:`~klabsite.records.tags.BLUNDER_COST` points or more:
        one of the cards that make the deal a ``blunder``."""
        return (self.cost or 0) >= BLUNDER_COST

    @property
    def hand_size(self) -> int:
        """For a card play: how many cards the player held before it (0 for other steps)."""
        seat = self.step.seat
        if self.kind != "card" or seat is None:
            return 0
        return sum(slot.state == "held" for slot in self.table.hands[seat]) + 1

    @property
    def all_equal(self) -> bool:
        """Whether every legal card of an analysed card play is worth the same."""
        return self.dd is not None and bool(self.dd) and all(cost == 0 for _, _, cost in self.dd)


@dataclass(frozen=True, eq=False)
class DealView:
    """One played deal of a shipped record, ready for its overview and step pages."""

    id: str
    game: str
    source: str
    """The record file and the deal's line (for error messages)."""
    number: int
    match_id: str
    rules: GameRules
    options: tuple[tuple[str, str], ...]
    """The options that differ from the standard game, as (name, value)."""
    seats: tuple[Seat, ...]
    players: dict[Seat, str]
    dealer: Seat
    title: str | None
    note: str | None
    tags: tuple[str, ...]
    steps: tuple[StepView, ...]
    result: dict[str, Any] | None
    """The deal's JSON (docs/record-format.md): totals, score, result …; None when unfinished."""
    outcome: str
    match_before: dict[str, int]
    match_after: dict[str, int] | None
    hanging_before: int = 0
    """Points left hanging by the ties before this deal (``equal-score=next-deal-winner``)."""
    hanging_after: int = 0
    """Points still hanging after this deal."""
    ends_match: bool = False
    """Whether the match is over after this deal."""
    match_winner: str | None = None
    """On the deal that ends the match, the score key of its winner (None if it is drawn)."""
    match_deals: int = 1
    """How many deals its record holds."""
    proposed: Suit | None = None
    tricks: tuple[TrickWon, ...] = field(default=())
    record_text: str = ""
    """The text of the record file the deal is in."""

    @property
    def by_side(self) -> bool:
        """Whether scores are kept per side (Klaverjas)."""
        return self.game == "klaverjas"

    @property
    def next_dealer(self) -> Seat | None:
        """Who deals the next deal, by the engine's rotation (None while the deal is unfinished)."""
        if self.result is None:
            return None
        return GAMES[self.game].next_dealer(self.rules, self.dealer, self.outcome)

    @property
    def last_trick_points(self) -> dict[str, int]:
        """The points for the last trick, under its winner's score key (seat or side), as its
        last step counts them (:attr:`StepView.last_trick`); empty when the deal was not played out."""
        return self.steps[-1].last_trick if self.steps else {}

    @property
    def pit_points(self) -> dict[str, int]:
        """Klaverjas: the pit bonus under the playing side, when it took every trick; else empty."""
        if not self.result or not self.result.get("pit"):
            return {}
        return {self.result["playing"]: PIT_BONUS}

    @property
    def bella_tricks(self) -> dict[int, tuple[Seat, int]]:
        """Klaberjass: the trick in which bella was claimed (its number) → who claimed it and its
        points; empty when nobody did."""
        return {step.trick: (event.seat, BELLA) for step in self.steps if step.trick is not None
                for event in step.step.events if isinstance(event, BellaDecided) and event.claimed}

    @property
    def before_play(self) -> tuple[StepView, ...]:
        """The steps told before the tricks: the bids, the extra cards, the dix and the
        declarations, and in Klaberjass the first card, after which the dealer declares (so that
        the story keeps the order of the deal)."""
        told = ("bid", "extra", "dix", "meld")
        last = max((step.index for step in self.steps if step.kind == "meld"), default=-1)
        return tuple(step for step in self.steps
                     if step.kind in told or (step.kind == "card" and step.index < last))

    @property
    def named_options(self) -> tuple[tuple[str, str], ...]:
        """The options the overview names, in the rule book's order: those that differ from the
        standard game, the match's length (its target, or its number of deals) and, in Klaverjas,
        always the trick rules and how trump is chosen (the first things a player asks)."""
        given = dict(self.options)
        always = ("trump-choice", "trick-rules") if self.game == "klaverjas" else ()
        length = "deals" if "deals" in given else "target"
        return tuple((name, given.get(name) or str(getattr(self.rules, name.replace("-", "_"))))
                     for name in type(self.rules).option_names()
                     if name in given or name in always or name == length)

    @property
    def standard(self) -> bool:
        """Whether the deal is played by the standard rules, whatever the match's length."""
        return all(name in ("target", "deals") for name, _value in self.options)

    @property
    def perfect_play(self) -> tuple[Seat, int] | None:
        """For an analysed deal: who chose trump, and how far his side would end ahead of the other
        (its deal score minus theirs) with every hand seen and perfect play from the first card; 0
        or less when it would not make it. The first card's ``dd`` tells: its best value is the
        leader's side's (docs/record-format.md, "Annotations"). None when it has no analysis."""
        first = next((step for step in self.steps if step.kind == "card"), None)
        if first is None or not first.dd or first.table.maker is None or first.step.seat is None:
            return None
        maker, leader, value = first.table.maker, first.step.seat, first.dd[0][1]
        ours = leader.side == maker.side if self.by_side else leader == maker
        return maker, value if ours else -value

    @property
    def hands_step(self) -> StepView:
        """The step whose table shows the deal's hands, on its overview and in a rules page's worked
        deal: the last before the declarations and the play. Trump is known (the trumps stand in
        trump order), the Klaberjass extra cards are in, and a dix is done (the 7 of trumps struck
        through, the upcard in the hand that took it)."""
        later = next((index for index, step in enumerate(self.steps) if step.kind in ("meld", "card", "end")),
                     len(self.steps))
        return self.steps[max(later - 1, 0)]

    def step(self, name: str) -> StepView:
        """The step called ``name``."""
        return next(step for step in self.steps if step.name == name)

    @property
    def voided_sequences(self) -> Seat | None:
        """Klaberjass, ``no-trick-melds=void``: the player who won the comparison of sequences but
        took no trick, so that his sequences score nothing (None when nobody lost them so)."""
        compared = next((step.comparison for step in self.steps if step.comparison), None)
        if self.by_side or self.result is None or compared is None or compared.best is None:
            return None
        lost = compared.points and self.result.get("melds", {}).get(compared.best.value) == 0
        return compared.best if lost else None


def _dd(done: DealReplay, index: int) -> tuple[tuple[Card, int, int], ...] | None:
    """The ``dd`` analysis of action ``index`` as (card, value, cost), best first; None if absent."""
    values = done.record.dd_of(index)
    if not values:
        return None
    best = max(value for _, value in values)
    return tuple((card, value, best - value) for card, value in dd_order(values))


def _swing(step: Step, dd: tuple[tuple[Card, int, int], ...] | None, by_side: bool) -> str | None:
    """Whether the card played at ``step`` turns the deal (:attr:`StepView.swing`).

    A value is the mover's side's score minus the other's, and the side that chose trump makes the
    deal exactly when its value is above 0 (nat, a failed maker and a tie all leave it at 0 or
    below: docs/record-format.md, "Annotations"). So the values alone tell: no solving here.
    """
    seat, maker = step.seat, step.table.maker
    if not dd or seat is None or maker is None or step.action is None:
        return None
    best = dd[0][1]
    played = next(value for card, value, _ in dd if card == step.action.card)
    if (seat.side == maker.side) if by_side else seat == maker:
        return "sinks" if best > 0 >= played else None
    return "lets-through" if best >= 0 > played else None


def _pit_swing(deal: Any, card: Card, dd: tuple[tuple[Card, int, int], ...] | None) -> str | None:
    """Whether ``card``, played in the Klaverjas ``deal``, decides the pit with perfect play from
    it on (:attr:`StepView.swing`), by :func:`~klabsite.solver.takes_every_trick`.

    The values tell which cards need that search. A pit is worth at least 162 + 100 to the
    playing side, so a pit in reach shows as a value that high, and the card that decides it
    costs at least the pit's 100.
    """
    if not isinstance(deal, KlaverjasDeal) or not dd or deal.playing is None or deal.to_act is None:
        return None
    played, cost = next((value, cost) for each, value, cost in dd if each == card)
    mine = deal.to_act.side == deal.playing
    pit_value = DEAL_POINTS + PIT_BONUS
    if cost < PIT_BONUS or (dd[0][1] if mine else -played) < pit_value:
        return None
    position = klaverjas_position(deal)
    after = takes_every_trick(position.play(card.index))
    if mine:   # the pit slipped if it is gone now and was there
        return "pit-slips" if not after and takes_every_trick(position) else None
    return "pit-through" if after and not takes_every_trick(position) else None


@dataclass(frozen=True)
class _Play:
    """What the rules allowed at one card play, its analysis, and whether it decided the pit."""

    forced: bool
    rule: str
    partner_winning: bool
    dd: tuple[tuple[Card, int, int], ...] | None
    pit: str | None


def _plays(done: DealReplay) -> dict[int, _Play]:
    """Each card play of ``done`` by action index: whether it was the only card the rules allowed,
    the rule that decided the cards allowed, whether the partner was winning the trick, its
    ``dd`` analysis (:func:`_dd`), and whether it let the pit slip or through (:func:`_pit_swing`)."""
    plays = {}
    for index, action, deal in positions(done):
        if action.kind is not ActionKind.PLAY or action.card is None:
            continue
        trick = [card for _, card in deal.trick]
        partner = len(deal.hands) == 4 and len(trick) >= 2
        partner = partner and trick_winner_index(trick, deal.trump) == len(trick) - 2
        dd = _dd(done, index)
        plays[index] = _Play(len(legal_cards(deal)) == 1, deal.play_rule()[1], partner, dd,
                             _pit_swing(deal, action.card, dd))
    return plays


_MUST_NAME = {"forced": "forced", "turned": "all-passed-turned"}
"""Why a Klaverjas player had to name trump, by ``trump-choice`` (else ``"all-passed"``)."""


class _BidNote(NamedTuple):
    """What the rules decided about a bid (the :class:`StepView` fields of the same names)."""

    must_name: str | None = None
    to_name: Seat | None = None
    bid_round: int | None = None


def _bids(done: DealReplay) -> dict[int, _BidNote]:
    """The bids of ``done`` (by action index) that the replay tells more of, as the engine's legal
    actions tell: where the rules, not the player, decided what comes next (a Klaverjas trump
    named with no pass allowed, :attr:`StepView.must_name`; a refused schmeiss after which trump
    is still to be named, by the player then to act, :attr:`StepView.to_name`), and the round of a
    Klaberjass pass or schmeiss: the second round is the one where a suit may be named
    (:attr:`StepView.bid_round`)."""
    found: dict[int, _BidNote] = {}
    refused = after = None
    for index, action, deal in positions(done):
        if refused is not None and deal.trump is None:
            found[refused] = _BidNote(to_name=deal.to_act)
        refused, after = (index if action.kind is ActionKind.REFUSE else None), deal
        if (action.kind is ActionKind.NAME and isinstance(deal, KlaverjasDeal)
                and all(legal.kind is not ActionKind.PASS for legal in deal.legal_actions())):
            found[index] = _BidNote(must_name=_MUST_NAME.get(deal.rules.trump_choice, "all-passed"))
        if action.kind is ActionKind.SCHMEISS or (action.kind is ActionKind.PASS
                                                  and not isinstance(deal, KlaverjasDeal)):
            naming = any(legal.kind is ActionKind.NAME for legal in deal.legal_actions())
            found[index] = _BidNote(bid_round=2 if naming else 1)
    if refused is not None and after is not None and after.trump is None:  # the record stops there
        found[refused] = _BidNote(to_name=after.to_act)
    return found


def _step_views(done: DealReplay, steps: Sequence[Step], by_side: bool) -> tuple[StepView, ...]:
    """The views of a played deal's steps: a card play with its analysis, what the rules allowed
    and whether it turned the deal; a bid the rules decided."""
    action_index = {id(action): index for index, (action, _) in enumerate(done.applied)}
    plays, bids = _plays(done), _bids(done)
    views = []
    for position, step in enumerate(steps):
        if step.action is None or not step.name.startswith("t"):
            note = _BidNote()
            if step.action is not None and step.name.startswith("b"):
                note = bids.get(action_index[id(step.action)], note)
            views.append(StepView(step, position, must_name=note.must_name, to_name=note.to_name,
                                  bid_round=note.bid_round))
            continue
        play = plays[action_index[id(step.action)]]
        views.append(StepView(step, position, play.dd, play.forced, play.rule, play.partner_winning,
                              _swing(step, play.dd, by_side) or play.pit))
    return tuple(views)


def _players(record: Record, seats: Sequence[Seat]) -> dict[Seat, str]:
    """The ``Players`` tag's names by seat (``_`` stands for a space)."""
    names = dict(word.split(":", 1) for word in record.tags.get("Players", "").split() if ":" in word)
    return {seat: names[seat.value].replace("_", " ") for seat in seats if names.get(seat.value)}


def _options(rules: GameRules) -> tuple[tuple[str, str], ...]:
    text = rules.format()
    return tuple(tuple(word.split("=", 1)) for word in text.split()) if text else ()  # type: ignore[misc]


def deal_views(records: Iterable[LoadedRecord]) -> list[DealView]:
    """Every played deal of ``records`` (score-sheet deals have no replay), in record order."""
    views = []
    for loaded in records:
        match = loaded.match
        seats = match.game.seat_list
        before = dict.fromkeys(match.game.score_keys, 0)
        hanging = 0
        for done in match.deals:
            after = dict(done.match) if done.match is not None else None
            if done.deal is not None:
                steps = deal_steps(done)
                step_views = _step_views(done, steps, by_side=match.game.name == "klaverjas")
                tricks = tuple(step.table.tricks[-1] for step in steps
                               if step.table.won_by is not None and step.name.startswith("t"))
                tags = tuple(done.record.tags.get("Tags", "").split())
                ends_match = match.score.over and done is match.deals[-1]
                views.append(DealView(
                    id=done.id, game=match.game.name, source=f"{loaded.path}:{done.record.line}",
                    number=done.number, match_id=loaded.record.match_id(), rules=match.rules,
                    options=_options(match.rules), seats=seats, players=_players(loaded.record, seats),
                    dealer=done.dealer or seats[0], title=loaded.record.title,
                    note=done.record.tags.get("Note"), tags=tags, steps=step_views,
                    result=done.result.to_json() if done.result is not None else None,
                    outcome=done.outcome, match_before=dict(before), match_after=after,
                    hanging_before=hanging, hanging_after=done.hanging,
                    ends_match=ends_match, match_deals=len(match.deals),
                    match_winner=match.score.winner if ends_match else None,
                    proposed=getattr(done.deal, "proposed", None), tricks=tricks,
                    record_text=loaded.text))
            if after is not None:
                before = after
            hanging = done.hanging
    return views


@dataclass(frozen=True)
class MatchRow:
    """One deal of a match's score sheet."""

    number: int
    deal_id: str | None
    """The deal's replay id, or None for a score-sheet deal (no replay to link to)."""
    dealer: Seat | None
    outcome: str
    maker: str | None
    """The maker (Klaberjass) or playing side (Klaverjas)."""
    result: str | None
    score: dict[str, int]
    totals: dict[str, int]


@dataclass(frozen=True)
class MatchView:
    """One record as a match: its score sheet and winner."""

    id: str
    game: str
    source: str
    title: str | None
    players: dict[Seat, str]
    keys: tuple[str, ...]
    rows: tuple[MatchRow, ...]
    final: dict[str, int]
    winner: str | None
    over: bool
    rules: GameRules
    hanging: int = 0
    """Points still hanging after the record's last deal (lost when the match is over)."""


def match_views(records: Iterable[LoadedRecord]) -> list[MatchView]:
    """Every shipped record as a match (a record of one deal is a match of one deal too)."""
    views = []
    for loaded in records:
        match = loaded.match
        rows = []
        for done in match.deals:
            data = done.to_json()
            rows.append(MatchRow(
                number=done.number, deal_id=done.id if done.deal is not None else None,
                dealer=done.dealer, outcome=done.outcome,
                maker=data.get("maker") or data.get("playing"), result=data.get("result"),
                score=dict(data.get("score", {})), totals=dict(done.match or {})))
        data = match.to_json()
        views.append(MatchView(
            id=loaded.record.match_id(), game=match.game.name, source=loaded.path,
            title=loaded.record.title, players=_players(loaded.record, match.game.seat_list),
            keys=match.game.score_keys, rows=tuple(rows), final=dict(data["final"]), winner=data["winner"],
            over=match.score.over, rules=match.rules,
            hanging=match.deals[-1].hanging if match.deals else 0))
    return views
