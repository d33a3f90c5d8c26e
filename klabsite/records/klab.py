"""The ``.klab`` deal record: reading (lenient, with line numbers), canonical writing, ids.

``docs/record-format.md`` is the contract. A record is a :class:`Record`: the match tags (in the
order read, unknown tags kept) and a list of :class:`DealRecord`, each with its tags and its
actions. Reading normalises every value klabsite understands (cards ``TH``, seats, the ``Rules``
tag rewritten through the game's options class, score pairs in seat or side order), so writing
is simply printing the canonical form; reading then writing is idempotent.

Reading checks the syntax and everything that can be told without playing: header and version,
tag syntax, required tags, the deck (32 different cards), deal numbers, seats of the game.
Playing the deals through the engines is :mod:`klabsite.records.replay`.

>>> record = read_record('''%klab 1
... [Rules "target=500"]     ; a default: dropped
... [Game "klaberjass"]
... [Deal "1"]
... [Dealer "s"]
... [Deck "jh 10h 9H KS QS JS 7D AC 8C KH 9D 8S AH QC 7S TD AD JC 8H 7C 9C TC KC 8D JD QD KD 7H QH 9S TS AS"]
... n  take   ; hearts
... ''')
>>> print(record.to_text(), end="")
%klab 1
[Game "klaberjass"]
<BLANKLINE>
[Deal "1"]
[Dealer "S"]
[Deck "JH TH 9H KS QS JS 7D AC 8C KH 9D 8S AH QC 7S TD AD JC 8H 7C 9C TC KC 8D JD QD KD 7H QH 9S TS AS"]
N take
>>> record.deals[0].action_lines, record.deal_id(record.deals[0]) == read_record(record.to_text()).deal_id(0)
([7], True)
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from io import BytesIO
from pathlib import Path
from typing import BinaryIO, NamedTuple

from klabsite.engine.actions import Action, ActionKind
from klabsite.engine.cards import DECK, Card, Suit, parse_cards
from klabsite.engine.games import Game, get_game
from klabsite.engine.options import GameRules
from klabsite.engine.seats import Seat, Side
from klabsite.engine.text import LARGEST_NUMBER, quote, shorten, whole_number
from klabsite.records.annotations import (
    DD,
    Annotation,
    AnnotationError,
    DdValues,
    dd_annotation,
    read_dd,
    split_annotations,
)

__all__ = [
    "HEADER",
    "VERSION",
    "MAX_LINE",
    "MAX_DEALS",
    "MAX_ACTIONS",
    "MATCH_TAGS",
    "DEAL_TAGS",
    "PLAY_TAGS",
    "SCORE_SHEET_TAGS",
    "RecordError",
    "DealRecord",
    "Record",
    "parse_record",
    "read_record",
    "load_record",
    "format_record",
    "format_deal",
    "normalize_tag",
    "parse_scores",
    "format_scores",
    "escape_value",
    "text_id",
]

VERSION = 1
"""The major version of the format this module reads and writes."""

HEADER = f"%klab {VERSION}"
"""The first line of every record klabsite writes."""

_HIDDEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
"""Characters no tag value may hold: control characters (a tab is a blank) and the bidirectional
embeddings, overrides and isolates, which would turn the text around them on a page (the marks
U+200E, U+200F and U+061C, which a right-to-left name may need, are allowed)."""

_TAG_WORD = re.compile(r"[a-z0-9-]+")
"""A word of ``Tags``: the simulator's (``pit``, ``roem-100``) or a person's own."""

MAX_LINE = 64 * 1024
"""The longest line (in bytes, its line end excluded) a record may have: a longer one is refused
unread, so a huge or endless file (``/dev/zero``) costs no more memory than this."""

MAX_DEALS = 10_000
"""The most deals a record may hold: ten times what any match needs (the simulator gives up on a
match after 1000 deals), so that a record's memory stays bounded."""

MAX_ACTIONS = 200
"""More actions than any deal can have (a deal has at most about 45: bidding, dix, two
declarations and 32 cards); actions beyond this are not kept, and the deal is refused."""

MATCH_TAGS: tuple[str, ...] = ("Game", "Rules", "Players", "Source", "Title")
"""Match tags in canonical order (unknown match tags follow, sorted by name)."""

DEAL_TAGS: tuple[str, ...] = (
    "Deal", "Dealer", "Deck", "Proposed", "Playing", "Points", "Roem", "Pit",
    "Maker", "Totals", "Tags", "Result", "Note", "Termination",
)
"""Deal tags in canonical order (unknown deal tags follow, sorted by name)."""

PLAY_TAGS: tuple[str, ...] = (
    "Deal", "Dealer", "Deck", "Proposed", "Playing", "Points", "Roem", "Pit", "Maker", "Totals",
    "Termination",
)
"""The deal tags that say what was played, and so go into the ids; the others (``Tags``,
``Result``, ``Note``, unknown tags) say something about the deal and do not."""

SCORE_SHEET_TAGS: dict[str, tuple[str, ...]] = {
    "klaverjas": ("Playing", "Points", "Roem", "Pit"),
    "klaberjass": ("Maker", "Totals"),
}
"""The score-sheet tags of each game (a deal with these has no ``Deck`` and no actions)."""

_GAME_ONLY_TAGS: dict[str, str] = {
    "Proposed": "klaverjas", "Playing": "klaverjas", "Points": "klaverjas", "Roem": "klaverjas",
    "Pit": "klaverjas", "Maker": "klaberjass", "Totals": "klaberjass",
}
_KNOWN_TAGS = {name.lower(): name for name in MATCH_TAGS + DEAL_TAGS}
_TAG_LINE = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_]*)\s*"([^"\\]*(?:\\.[^"\\]*)*)"\s*\]\s*(?:;.*)?')
_HEADER_LINE = re.compile(r"%klab\s+([0-9]+)(?:\.([0-9]+))?\s*(?:;.*)?")


class RecordError(ValueError):
    """A record that cannot be read or does not follow the rules; ``line`` is 1-based (or None).

    ``str(error)`` is ``line N: message``; :meth:`located` gives ``FILE:N: message``.
    """

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line

    def at(self, line: int | None) -> RecordError:
        """This error placed at ``line`` (unless it already has a line)."""
        return self if self.line is not None else RecordError(self.message, line)

    def located(self, path: str) -> str:
        """``path:LINE: message``, the form ``klabsite check`` prints."""
        return f"{path}:{self.line or 1}: {self.message}"

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}" if self.line is not None else self.message


# --------------------------------------------------------------------------- tag values


def escape_value(value: str) -> str:
    r"""A tag value with ``\`` and ``"`` escaped, ready to go between the quotes."""
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _unescape(text: str) -> str:
    r"""Undo :func:`escape_value`; a backslash before any other character is kept as is."""
    return re.sub(r'\\(["\\])', r"\1", text)


def parse_scores(value: str, keys: Iterable[str], *, what: str = "score") -> dict[str, int]:
    """Read ``"N 0 S 97"`` / ``"NS 92"``: pairs of a key (seat or side) and a whole number.

    ``keys`` are the keys allowed (``N S`` or ``NS EW``); a key may be given once.

    >>> parse_scores("s 97 n 0", ("N", "S"))
    {'S': 97, 'N': 0}
    """
    allowed = tuple(keys)
    words = value.split()
    if not words or len(words) % 2:
        example = " ".join(f"{key} {n}" for key, n in zip(allowed, (0, 97), strict=False))
        raise RecordError(f"cannot read {what} {quote(value)}: write pairs of {'/'.join(allowed)} and "
                          f"points, e.g. {example}")
    scores: dict[str, int] = {}
    for key_word, number in zip(words[::2], words[1::2], strict=True):
        key = _read_key(key_word, allowed, what)
        if key in scores:
            raise RecordError(f"{what} gives {key} twice")
        points = whole_number(number)
        if points is None:
            raise RecordError(f"{what}: {key} needs a whole number of points, not {quote(number)}")
        if points > LARGEST_NUMBER:
            raise RecordError(f"{what}: {key} {shorten(number)} is beyond any real score")
        scores[key] = points
    return scores


def _read_key(word: str, allowed: tuple[str, ...], what: str) -> str:
    key = Side.parse(word).value if len(allowed[0]) == 2 else Seat.parse(word).value
    if key not in allowed:
        raise RecordError(f"{what}: {key} does not play here; use {' or '.join(allowed)}")
    return key


def format_scores(scores: Mapping[str, int], keys: Iterable[str]) -> str:
    """``{"S": 97, "N": 0}`` → ``"N 0 S 97"``: the given keys in ``keys`` order.

    >>> format_scores({"S": 97, "N": 0}, ("N", "S"))
    'N 0 S 97'
    """
    return " ".join(f"{key} {scores[key]}" for key in keys if key in scores)


def _read_seat(value: str, game: Game, what: str) -> str:
    seat = Seat.parse(value).value
    if seat not in game.seats:
        raise RecordError(f"{what} {seat}: {game.name} is played by {' '.join(game.seats)} only")
    return seat


def _read_deck(value: str) -> str:
    cards = parse_cards(value)
    counts = Counter(cards)
    twice = [card for card, count in counts.items() if count > 1]  # each named once, however often given
    missing = [card for card in DECK if card not in counts]
    if twice or missing or len(cards) != 32:
        problems = []
        if twice:
            problems.append("lists " + ", ".join(str(card) for card in twice) + " twice")
        if missing:
            problems.append("lacks " + ", ".join(str(card) for card in missing))
        detail = " and ".join(problems) or "does not have 32 cards"
        raise RecordError(f"the Deck has {len(cards)} cards, not 32 different ones: it {detail}")
    return " ".join(str(card) for card in cards)


def _read_players(value: str, game: Game) -> str:
    entries = []
    seats: set[str] = set()
    for word in value.split():
        seat_text, colon, name = word.partition(":")
        if not colon or not name:
            raise RecordError(f"cannot read player {quote(word)}: write SEAT:Name, e.g. N:Anna "
                              "(no spaces in names: N:Anna_Maria for Anna Maria)")
        seat = _read_seat(seat_text, game, "Players: seat")
        if seat in seats:
            raise RecordError(f"Players names seat {seat} twice")
        seats.add(seat)
        entries.append(f"{seat}:{name}")
    return " ".join(entries)


def normalize_tag(game: Game | None, name: str, value: str) -> str:
    """The canonical value of tag ``name`` (raises :class:`RecordError` if it cannot be read).

    ``game`` is needed for every tag but ``Game`` itself; unknown and free-text tags
    (``Source``, ``Title``, ``Note`` and tags klabsite does not know) are kept exactly.

    >>> from klabsite.engine.games import get_game
    >>> normalize_tag(get_game("klaverjas"), "Roem", "ew 20 ns 0")
    'NS 0 EW 20'
    """
    if "\n" in value:
        raise RecordError(f"[{name}] {quote(value)}: a tag value is one line of text")
    hidden = _HIDDEN.search(value)
    if hidden is not None:
        code = ord(hidden.group())
        raise RecordError(f"[{name}] holds the invisible control character U+{code:04X}: a tag value is "
                          "plain text; remove it")
    try:
        return _normalize_tag(game, name, value)
    except RecordError:
        raise
    except ValueError as error:  # cards, seats, sides, options
        raise RecordError(f"[{name}]: {error}") from None


def _normalize_tag(game: Game | None, name: str, value: str) -> str:
    if name == "Game":
        return get_game(value).name
    if name in ("Source", "Title", "Note") or name not in _KNOWN_TAGS.values():
        return value
    assert game is not None, "normalising a tag needs the game"
    only = _GAME_ONLY_TAGS.get(name)
    if only is not None and only != game.name:
        raise RecordError(f"[{name}] is a {only} tag; this record is {game.name}")
    if name == "Rules":
        return game.parse_rules(value).format()
    if name == "Players":
        return _read_players(value, game)
    if name == "Deal":
        number = whole_number(value.strip())
        if number is None or not 1 <= number <= LARGEST_NUMBER:
            raise RecordError(f"[Deal] takes the deal's number 1, 2, 3 …, not {quote(value)}")
        return str(number)
    if name in ("Dealer", "Maker"):
        return _read_seat(value, game, name)
    if name == "Deck":
        return _read_deck(value)
    if name == "Proposed":
        return Suit.parse(value).letter
    if name in ("Playing", "Pit"):
        return Side.parse(value).value
    if name in ("Points", "Roem", "Totals", "Result"):
        keys = game.score_keys if name != "Totals" else game.seats
        return format_scores(parse_scores(value, keys, what=name), keys)
    if name == "Tags":
        words = value.split()
        wrong = next((word for word in words if not _TAG_WORD.fullmatch(word)), None)
        if wrong is not None:
            raise RecordError(f"[Tags] {quote(wrong)}: a tag word is lower-case letters a to z, digits and "
                              "-, e.g. pit or my-favourite")
        return " ".join(words)
    if name == "Termination":
        if value.strip().lower() != "unfinished":
            raise RecordError(f'[Termination] takes "unfinished", not {quote(value)}')
        return "unfinished"
    raise AssertionError(f"no rule for tag {name}")  # pragma: no cover


# --------------------------------------------------------------------------- the data model


@dataclass
class DealRecord:
    """One deal: its tags (name → canonical value, in the order read) and its actions.

    ``annotations`` holds each action's annotations (in the order read, ``()`` for none), beside
    ``actions``; read them with :meth:`annotations_of` and the ``dd`` values with :meth:`dd_of`
    or :meth:`dd_values`. ``tag_lines`` and ``action_lines`` give the 1-based lines they were
    read from (0 or absent for a deal built in code); ``error`` is the first problem found while
    reading it.
    """

    tags: dict[str, str] = field(default_factory=dict)
    actions: list[Action] = field(default_factory=list)
    tag_lines: dict[str, int] = field(default_factory=dict)
    action_lines: list[int] = field(default_factory=list)
    error: RecordError | None = None
    annotations: list[tuple[Annotation, ...]] = field(default_factory=list)

    @property
    def number(self) -> int:
        """The deal's number (its ``Deal`` tag), 0 if missing or unreadable."""
        number = whole_number(self.tags.get("Deal", ""))
        return number if number is not None and number <= LARGEST_NUMBER else 0

    @property
    def line(self) -> int:
        """The line of the ``Deal`` tag (0 for a deal built in code)."""
        return self.tag_lines.get("Deal", 0)

    @property
    def last_line(self) -> int:
        """The last line of the deal as read."""
        return max([self.line, *self.tag_lines.values(), *self.action_lines])

    def line_of(self, tag: str) -> int:
        """The line of ``tag``, or of the ``Deal`` tag if it is missing."""
        return self.tag_lines.get(tag, self.line)

    def action_line(self, index: int) -> int:
        """The line of action ``index`` (the ``Deal`` line if unknown)."""
        return self.action_lines[index] if index < len(self.action_lines) else self.line

    @property
    def is_score_sheet(self) -> bool:
        """A deal kept as a score sheet: no ``Deck`` and no actions."""
        return "Deck" not in self.tags and not self.actions

    @property
    def unfinished(self) -> bool:
        """Whether the deal carries ``[Termination "unfinished"]``."""
        return self.tags.get("Termination") == "unfinished"

    @property
    def deck(self) -> tuple[Card, ...]:
        """The ``Deck`` tag's cards, top first (empty for a score-sheet deal)."""
        return tuple(parse_cards(self.tags.get("Deck", "")))

    def set_tag(self, game: Game, name: str, value: str) -> None:
        """Set tag ``name`` to the canonical form of ``value`` (raises :class:`RecordError`)."""
        name = _KNOWN_TAGS.get(name.lower(), name)
        self.tags[name] = normalize_tag(game, name, value)

    def add_action(self, action: Action, line: int = 0, annotations: Iterable[Annotation] = ()) -> None:
        """Append an action (with the line it came from, 0 if none, and its annotations)."""
        self.actions.append(action)
        self.action_lines.append(line)
        self.set_annotations(len(self.actions) - 1, annotations)

    def annotations_of(self, index: int) -> tuple[Annotation, ...]:
        """The annotations of action ``index``, in order (``()`` if it has none)."""
        return self.annotations[index] if index < len(self.annotations) else ()

    def set_annotations(self, index: int, annotations: Iterable[Annotation]) -> None:
        """Replace the annotations of action ``index``."""
        while len(self.annotations) <= index:
            self.annotations.append(())
        self.annotations[index] = tuple(annotations)

    def dd_of(self, index: int) -> DdValues | None:
        """The ``dd`` values of action ``index`` (each legal card and its value, best first), or
        ``None`` if it has no ``dd`` annotation (raises :class:`RecordError` if it is malformed)."""
        action = self.actions[index]
        for annotation in self.annotations_of(index):
            if annotation.name == DD:
                try:
                    return read_dd(annotation, action.card if action.kind is ActionKind.PLAY else None)
                except AnnotationError as error:
                    raise RecordError(str(error), self.action_line(index)) from None
        return None

    def set_dd(self, index: int, values: Mapping[Card, int] | None, at: int | None = None) -> None:
        """Give action ``index`` the ``dd`` annotation of ``values`` (in the canonical order), in
        place of the one it has, or else at place ``at`` among its other annotations (by default
        after them); ``None`` removes it."""
        kept = list(self.annotations_of(index))
        at = next((i for i, annotation in enumerate(kept) if annotation.name == DD),
                  len(kept) if at is None else min(at, len(kept)))
        kept = [annotation for annotation in kept if annotation.name != DD]
        if values is not None:
            kept.insert(at, dd_annotation(values))
        self.set_annotations(index, kept)

    def dd_values(self) -> list[DdValues | None]:
        """The ``dd`` values of each card play, in the order played (the k-th card of the deal is
        item k): ``[(card, value), …]`` best first, or ``None`` where the play has no ``dd``."""
        return [self.dd_of(index) for index, action in enumerate(self.actions)
                if action.kind is ActionKind.PLAY]


@dataclass
class Record:
    """A whole ``.klab`` record: match tags and deals."""

    tags: dict[str, str] = field(default_factory=dict)
    deals: list[DealRecord] = field(default_factory=list)
    tag_lines: dict[str, int] = field(default_factory=dict)
    header_line: int = 1

    @classmethod
    def new(cls, game: str, rules: GameRules | str = "", **tags: str) -> Record:
        """An empty record of ``game`` with ``rules`` and further match tags (``Players=…``)."""
        record = cls()
        record.tags["Game"] = get_game(game).name
        record.tags["Rules"] = normalize_tag(record.game, "Rules", str(rules))
        for name, value in tags.items():
            record.tags[name] = normalize_tag(record.game, name, value)
        return record

    @property
    def game(self) -> Game:
        """The game of the ``Game`` tag."""
        return get_game(self.tags["Game"])

    @property
    def rules(self) -> GameRules:
        """The options of the ``Rules`` tag (defaults if absent)."""
        return self.game.parse_rules(self.tags.get("Rules", ""))

    @property
    def title(self) -> str | None:
        """The ``Title`` tag, or None when it is absent or blank (a page shows no empty title)."""
        return self.tags.get("Title", "").strip() or None

    @property
    def errors(self) -> list[RecordError]:
        """The first reading error of each deal that has one."""
        return [deal.error for deal in self.deals if deal.error is not None]

    def new_deal(self, dealer: Seat | str, **tags: str) -> DealRecord:
        """Append and return a deal numbered after the last one, with canonical tags."""
        deal = DealRecord()
        deal.set_tag(self.game, "Deal", str(len(self.deals) + 1))
        deal.set_tag(self.game, "Dealer", str(dealer))
        for name, value in tags.items():
            deal.set_tag(self.game, name, value)
        self.deals.append(deal)
        return deal

    def renumber(self) -> None:
        """Number the deals 1, 2, 3 … in list order (after deleting or inserting a deal)."""
        for number, deal in enumerate(self.deals, start=1):
            deal.tags["Deal"] = str(number)

    def to_text(self) -> str:
        """The canonical text of the record."""
        return format_record(self)

    def deal_id(self, deal: DealRecord | int) -> str:
        """The deal's id: over its canonical ``Game`` and ``Rules`` lines and its play lines
        (:data:`PLAY_TAGS` and the actions without annotations), so that tagging, annotating or
        analysing a deal never changes it."""
        if isinstance(deal, int):
            deal = self.deals[deal]
        return text_id("".join(line + "\n" for line in [*self._id_head(), *_play_lines(deal)]))

    def match_id(self) -> str:
        """The match's id: over the ``Game`` and ``Rules`` lines and the play lines of every deal."""
        lines = [*self._id_head(), *(line for deal in self.deals for line in _play_lines(deal))]
        return text_id("".join(line + "\n" for line in lines))

    def _id_head(self) -> list[str]:
        return [line for line in _match_tag_lines(self.tags) if line.startswith(("[Game ", "[Rules "))]


def text_id(text: str) -> str:
    """The first 10 characters of the lower-case base32 SHA-256 of ``text`` (UTF-8).

    >>> text_id("")
    '4oymiquy7q'
    """
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return base64.b32encode(digest).decode("ascii").lower()[:10]


# --------------------------------------------------------------------------- writing


def _ordered(tags: Mapping[str, str], known: tuple[str, ...]) -> Iterator[tuple[str, str]]:
    for name in known:
        if name in tags:
            yield name, tags[name]
    for name in sorted(name for name in tags if name not in known):
        yield name, tags[name]


def _tag_line(name: str, value: str) -> str:
    return f'[{name} "{escape_value(value)}"]'


def _match_tag_lines(tags: Mapping[str, str]) -> list[str]:
    return [_tag_line(name, value) for name, value in _ordered(tags, MATCH_TAGS)
            if not (name == "Rules" and value == "")]


def _deal_lines(deal: DealRecord) -> list[str]:
    lines = [_tag_line(name, value) for name, value in _ordered(deal.tags, DEAL_TAGS)]
    return lines + ["".join((str(action), *(f" {annotation}" for annotation in deal.annotations_of(index))))
                    for index, action in enumerate(deal.actions)]


def _play_lines(deal: DealRecord) -> list[str]:
    """The lines of a deal that go into the ids: its play tags and its actions, no annotations."""
    lines = [_tag_line(name, deal.tags[name]) for name in PLAY_TAGS if name in deal.tags]
    return lines + [str(action) for action in deal.actions]


def format_deal(deal: DealRecord) -> str:
    """The canonical deal block: tags in the table's order, then one action per line with its
    annotations."""
    return "".join(line + "\n" for line in _deal_lines(deal))


def format_record(record: Record) -> str:
    """The canonical form: header, match tags, and each deal after one blank line; final LF."""
    lines = [HEADER, *_match_tag_lines(record.tags)]
    for deal in record.deals:
        lines.append("")
        lines.extend(_deal_lines(deal))
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- reading


class _Token(NamedTuple):
    line: int
    kind: str  # "header", "tag", "action", "error"
    name: str = ""
    value: str = ""


def _lines(source: str | bytes | BinaryIO) -> Iterator[tuple[int, str]]:
    """Each line of ``source`` with its number, decoded, read one at a time.

    A line longer than :data:`MAX_LINE` bytes or not UTF-8 makes the whole file unreadable:
    :class:`RecordError` at that line, before the rest of the line is read.
    """
    if isinstance(source, str):
        for number, line in enumerate(source.split("\n"), start=1):
            body = line.removesuffix("\r")   # bytes, as a file is read: up to 4 a character
            if len(body) * 4 > MAX_LINE and len(body.encode("utf-8")) > MAX_LINE:
                raise _too_long(number)
            yield number, line.removeprefix("\ufeff") if number == 1 else line
        return
    stream = BytesIO(source) if isinstance(source, bytes) else source
    number = 0
    while raw := stream.readline(MAX_LINE + 2):
        number += 1
        raw = raw.removesuffix(b"\n")
        if len(raw.removesuffix(b"\r")) > MAX_LINE:
            raise _too_long(number)
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise RecordError("the file is not UTF-8 text (a .klab record is UTF-8)", number) from None
        yield number, line.removeprefix("\ufeff") if number == 1 else line


def _too_long(number: int) -> RecordError:
    return RecordError(f"this line is longer than {MAX_LINE // 1024} KiB: a .klab line holds one tag or "
                       "one action (is this a .klab record?)", number)


def _lex(lines: Iterable[tuple[int, str]]) -> Iterator[_Token]:
    for number, raw in lines:
        stripped = raw.strip()
        if not stripped or stripped.startswith(";"):
            continue
        if stripped.startswith("["):
            match = _TAG_LINE.fullmatch(stripped)
            if match:
                yield _Token(number, "tag", match.group(1), _unescape(match.group(2)))
            else:
                yield _Token(number, "error", value=f"cannot read tag line {quote(stripped)}: "
                                                    'write [Name "value"], the value in double quotes')
        elif stripped.startswith("%"):
            yield _Token(number, "header", value=stripped)
        else:
            content = stripped.split(";", 1)[0].strip()
            if content:
                yield _Token(number, "action", value=content)


def _read_header(token: _Token | None) -> None:
    if token is None:
        raise RecordError(f"empty record: a .klab file starts with the line {HEADER}", 1)
    match = _HEADER_LINE.fullmatch(token.value) if token.kind == "header" else None
    if not match:
        found = quote(f'[{token.name} "{token.value}"]' if token.kind == "tag" else token.value or token.name)
        raise RecordError(f"a .klab file starts with the line {HEADER}, not {found}", token.line)
    major = whole_number(match.group(1))
    assert major is not None, "the header's pattern admits digits only"
    if major > VERSION:
        found = shorten(match.group(1).lstrip("0"))
        raise RecordError(f"this record is .klab version {found}; this klabsite reads version {VERSION} "
                          "only (a newer klabsite may read it)", token.line)
    if major < VERSION:
        raise RecordError(f"unknown .klab version {major}: this klabsite reads version {VERSION}", token.line)


def parse_record(source: str | bytes | BinaryIO) -> Record:
    """Read a record leniently: problems inside a deal go to that deal's ``error`` (first only).

    ``source`` is the text, its bytes, or a binary file read line by line (never whole).
    Problems that make the whole file unreadable (header, version, match tags, ``Rules``, a line
    that is too long or not UTF-8) raise :class:`RecordError` at once.
    """
    tokens = _lex(_lines(source))
    first = next(tokens, None)
    _read_header(first)
    assert first is not None
    record = Record(header_line=first.line)
    token = next(tokens, None)
    while token is not None and not _starts_deal(token):
        _read_match_token(record, token)
        token = next(tokens, None)
    _finish_match_tags(record)
    game = record.game
    deal: DealRecord | None = None
    while token is not None:
        if _starts_deal(token):
            if deal is not None:
                _finish_deal(deal, game)
            if len(record.deals) == MAX_DEALS:
                raise RecordError(f"a record holds at most {MAX_DEALS} deals; this one goes on (split the "
                                  "match into several records)", token.line)
            deal = DealRecord()
            record.deals.append(deal)
            _read_deal_number(deal, token, expected=len(record.deals), game=game)
        else:
            assert deal is not None
            _read_deal_token(deal, token, game)
        token = next(tokens, None)
    if deal is not None:
        _finish_deal(deal, game)
    return record


def read_record(source: str | bytes | BinaryIO) -> Record:
    """Read a record strictly: the first problem anywhere raises :class:`RecordError`."""
    record = parse_record(source)
    if record.errors:
        raise record.errors[0]
    return record


def load_record(path: str | Path) -> Record:
    """Read the record stored at ``path`` strictly, line by line (``OSError`` if it cannot be opened)."""
    with Path(path).open("rb") as file:
        return read_record(file)


def _starts_deal(token: _Token) -> bool:
    return token.kind == "tag" and _KNOWN_TAGS.get(token.name.lower()) == "Deal"


def _read_match_token(record: Record, token: _Token) -> None:
    if token.kind == "error":
        raise RecordError(token.value, token.line)
    if token.kind == "header":
        raise RecordError(f"a second header {quote(token.value)}: a record has one, on its first line",
                          token.line)
    if token.kind == "action":
        raise RecordError(f"an action line {quote(token.value)} before the first deal: "
                          'start the deal with [Deal "1"]', token.line)
    name = _KNOWN_TAGS.get(token.name.lower(), token.name)
    if name in DEAL_TAGS:
        raise RecordError(f'[{name}] belongs to a deal: put it after the deal\'s [Deal "n"] tag', token.line)
    if name in record.tags:
        raise RecordError(f"[{name}] is given twice (first on line {record.tag_lines[name]})", token.line)
    record.tags[name] = token.value
    record.tag_lines[name] = token.line


def _finish_match_tags(record: Record) -> None:
    if "Game" not in record.tags:
        raise RecordError('missing [Game] tag: write [Game "klaberjass"] or [Game "klaverjas"] '
                          "after the header", record.header_line)
    try:
        record.tags["Game"] = normalize_tag(None, "Game", record.tags["Game"])
    except RecordError as error:
        raise error.at(record.tag_lines["Game"]) from None
    game = record.game
    for name in list(record.tags):
        if name != "Game":
            try:
                record.tags[name] = normalize_tag(game, name, record.tags[name])
            except RecordError as error:
                raise error.at(record.tag_lines[name]) from None


def _fail(deal: DealRecord, message: str | RecordError, line: int) -> None:
    if deal.error is None:
        deal.error = message.at(line) if isinstance(message, RecordError) else RecordError(message, line)


def _read_deal_number(deal: DealRecord, token: _Token, expected: int, game: Game) -> None:
    deal.tag_lines["Deal"] = token.line
    try:
        deal.tags["Deal"] = normalize_tag(game, "Deal", token.value)
    except RecordError as error:
        deal.tags["Deal"] = token.value
        _fail(deal, error, token.line)
        return
    if deal.number != expected:
        _fail(deal, f'deal numbers must run 1, 2, 3 … in order: expected [Deal "{expected}"] here, '
                    f'found [Deal "{deal.number}"]', token.line)


def _read_deal_token(deal: DealRecord, token: _Token, game: Game) -> None:
    if token.kind == "error":
        _fail(deal, token.value, token.line)
    elif token.kind == "header":
        _fail(deal, f"a second header {quote(token.value)}: a record has one, on its first line", token.line)
    elif token.kind == "action":
        _read_action(deal, token, game)
    else:
        name = _KNOWN_TAGS.get(token.name.lower(), token.name)
        if name in MATCH_TAGS:
            _fail(deal, f"[{name}] is a match tag: put it before the first deal", token.line)
            return
        if name in deal.tags:
            _fail(deal, f"[{name}] is given twice in this deal (first on line {deal.tag_lines[name]})",
                  token.line)
            return
        deal.tag_lines[name] = token.line
        try:
            deal.tags[name] = normalize_tag(game, name, token.value)
        except RecordError as error:
            deal.tags[name] = token.value
            _fail(deal, error, token.line)


def _read_action(deal: DealRecord, token: _Token, game: Game) -> None:
    if len(deal.actions) >= MAX_ACTIONS:
        _fail(deal, f"a deal has at most {MAX_ACTIONS} actions, and this one goes on: is a [Deal] tag "
                    "missing?", token.line)
        return
    try:
        content, annotations = split_annotations(token.value)
    except AnnotationError as error:
        _fail(deal, str(error), token.line)
        return
    if not content:
        _fail(deal, f"an annotation without its action: {quote(token.value)}; annotations end an action "
                    "line, e.g. W 7S {dd 7S:0 KS:-12}", token.line)
        return
    seat_word, *rest = content.split(None, 1)
    words = rest[0] if rest else ""
    try:
        seat = _read_seat(seat_word, game, "seat")
        action = _canonical(Action.parse(Seat(seat), words))
    except RecordError as error:
        _fail(deal, error, token.line)
    except ValueError as error:
        detail = re.sub(r"^cannot read action '.*?': ", "", str(error))
        _fail(deal, f"cannot read action {quote(content, 40)}: {detail}", token.line)
    else:
        try:
            annotations = _known_annotations(action, annotations)
        except AnnotationError as error:
            _fail(deal, f"{action}: {error}", token.line)
        deal.add_action(action, token.line, annotations)


def _canonical(action: Action) -> Action:
    """``action`` as klabsite writes it: a declaration's sequences in the order of their top cards
    (highest card index first, as the engine lists them), so that the order they were written in
    changes neither the canonical text nor the deal's id."""
    if action.kind is not ActionKind.MELD:
        return action
    return Action.meld(action.seat, tuple(sorted(action.melds, key=lambda meld: -meld[0].index)))


def _known_annotations(action: Action, annotations: tuple[Annotation, ...]) -> tuple[Annotation, ...]:
    """The annotations with the known ones checked and written canonically (``dd``: its cards
    and values; it lists the played card, once; one ``dd`` per card play)."""
    dds = [annotation for annotation in annotations if annotation.name == DD]
    if len(dds) > 1:
        raise AnnotationError("a card play carries one dd annotation, not several")
    if not dds:
        return annotations
    values = read_dd(dds[0], action.card if action.kind is ActionKind.PLAY else None)
    canonical = Annotation(DD, tuple(f"{card}:{value}" for card, value in values))
    return tuple(canonical if annotation.name == DD else annotation for annotation in annotations)


def _finish_deal(deal: DealRecord, game: Game) -> None:
    line = deal.line
    if "Dealer" not in deal.tags:
        _fail(deal, 'missing [Dealer] tag: every deal names its dealer, e.g. [Dealer "N"]', line)
    sheet = [name for name in SCORE_SHEET_TAGS[game.name] if name in deal.tags]
    if "Deck" in deal.tags or deal.actions:
        if sheet:
            _fail(deal, f"[{sheet[0]}] is a score-sheet tag, but this deal is played card by card "
                        "(it has a Deck or actions)", deal.line_of(sheet[0]))
        if "Deck" not in deal.tags:
            _fail(deal, "missing [Deck] tag: a played deal lists its 32 cards, top of the pack first", line)
        return
    if not sheet:
        needed = " and ".join(f"[{name}]" for name in SCORE_SHEET_TAGS[game.name][:2])
        _fail(deal, f"missing [Deck] tag: a played deal lists its 32 cards, top of the pack first "
                    f"(a score-sheet deal gives {needed} instead)", line)
        return
    for name in SCORE_SHEET_TAGS[game.name][:2]:
        if name not in deal.tags:
            _fail(deal, f"missing [{name}] tag: a score-sheet deal gives "
                        f"{' and '.join(f'[{n}]' for n in SCORE_SHEET_TAGS[game.name][:2])}", line)
