"""Rules-page directives: tables and worked examples computed by the rules engine.

A directive is a Markdown line of its own, ``[[klab:NAME key=value …]]``. The site pipeline
replaces it by the tables that ``DIRECTIVES[NAME](localizer, args)`` computes, so the numbers on
the rules pages always come from the same code that checks records: the card tables from
:mod:`klabsite.engine.cards`, sequences from :mod:`klabsite.engine.melds`, roem from
:mod:`klabsite.engine.roem`, deal scores from each engine's ``scored_result`` and the
Amsterdam/Rotterdam table from the Klaverjas engine's
:func:`~klabsite.engine.klaverjas.play_rule` (what ``legal_actions()`` uses).

A directive computes and writes no markup: it returns plain values (:mod:`klabsite.site.views`:
a :class:`~klabsite.site.views.Table` of cells that are text, numbers already formatted, cards,
options…), and the macros of ``templates/macros/tables.html`` draw them, escaping every text
(semantic tables with ``<caption>`` and ``<th scope>``, in a focusable scroll region; no inline
styles, no scripts). Every text is a literal ``loc.gettext(…)`` call, so Babel extracts it into
the ``messages`` catalog.

>>> from klabsite.site.i18n import Localizer
>>> parse_directive("[[klab:klaberjass-score maker=N totals=N:84,S:60]]")
('klaberjass-score', {'maker': 'N', 'totals': 'N:84,S:60'})
>>> html = render_directive(Localizer.untranslated("en"), "klaberjass-score",
...                        {"maker": "N", "totals": "N:84,S:60"})
>>> "<caption>" in html and "Made" in html
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from klabsite.engine import klaberjass, klaverjas
from klabsite.engine.cards import (
    PLAIN_ORDER,
    PLAIN_POINTS,
    TRUMP_ORDER,
    TRUMP_POINTS,
    Card,
    Rank,
    Suit,
    parse_cards,
)
from klabsite.engine.match import MatchScore
from klabsite.engine.melds import compare, meld_value
from klabsite.engine.options import KlaberjassRules, KlaverjasRules
from klabsite.engine.roem import PIT_BONUS, roem_parts, trick_roem
from klabsite.engine.seats import Seat, Side
from klabsite.engine.tricks import LAST_TRICK_BONUS, trick_winner_index
from klabsite.site.markdown_ext import DIRECTIVE_RE, directive_arguments
from klabsite.site.pictures import PICTURES
from klabsite.site.views import (
    Cards,
    CardView,
    Cell,
    Code,
    HeadGroup,
    Link,
    Note,
    Number,
    Run,
    SideName,
    Strong,
    Table,
    Trick,
    View,
    phrase,
)

__all__ = ["DIRECTIVES", "OPTION_PAGES", "DirectiveError", "Localizer", "parse_directive", "render_directive"]


class DirectiveError(ValueError):
    """A directive line that cannot be rendered: unknown name, unknown or bad argument."""


class Localizer(Protocol):
    """What a directive needs from :class:`klabsite.site.i18n.Localizer`."""

    lang: str
    dir: str

    def gettext(self, message: str, **variables: Any) -> str: ...
    def pgettext(self, context: str, message: str, **variables: Any) -> str: ...
    def number(self, n: float) -> str: ...
    def card_view(self, card: Card) -> CardView: ...
    def list_parts(self, items: list[Any], style: Literal["standard", "or"] = "standard") -> list[Any]: ...
    def separator(self) -> str: ...
    def suit_name(self, suit: Suit) -> str: ...
    def rank_name(self, rank: Rank) -> str: ...
    def seat_name(self, seat: Seat) -> str: ...
    def side_name(self, side: Side) -> str: ...
    @property
    def components(self) -> Any: ...


Directive = Callable[[Localizer, dict[str, str]], object]
"""A directive: the view it returns (a :data:`~klabsite.site.views.View` or a picture) is drawn by the
component macro of its ``kind``."""



def parse_directive(line: str) -> tuple[str, dict[str, str]] | None:
    """``(name, args)`` when ``line`` is a directive line, else ``None``.

    >>> parse_directive("[[klab:options game=klaverjas]]")
    ('options', {'game': 'klaverjas'})
    >>> parse_directive('[[klab:trick-picture cards="9H JH" trump=H]]')
    ('trick-picture', {'cards': '9H JH', 'trump': 'H'})
    >>> parse_directive("Some prose.") is None
    True
    """
    match = DIRECTIVE_RE.match(line.strip())
    if not match:
        return None
    try:
        return match.group(1), directive_arguments(match.group(2))
    except ValueError as error:
        raise DirectiveError(f"klab:{match.group(1)}: {error}") from None


def render_directive(loc: Localizer, name: str, args: Mapping[str, str]) -> str:
    """The HTML of directive ``name`` with ``args``, drawn by ``loc``'s components; a
    :class:`DirectiveError` names what is wrong."""
    if name not in DIRECTIVES:
        raise DirectiveError(f"unknown directive klab:{name}: known ones are {', '.join(sorted(DIRECTIVES))}")
    return str(loc.components.render(DIRECTIVES[name](loc, dict(args))))


# ---------------------------------------------------------------------------------------------
# Cells (plain values: the macros of templates/macros/tables.html draw and escape them)


def _code(loc: Localizer, text: str) -> Code:
    """An option as code, English (``lang="en"`` on other pages), isolated as left to right on a
    right-to-left page; breaks only after ``=`` (never on a right-to-left page)."""
    return Code.option(text, isolate=loc.dir == "rtl", lang=None if loc.lang == "en" else "en")


def _n(loc: Localizer, value: float) -> Number:
    """A number written the language's way, aligned to the end of its table cell."""
    return Number(loc.number(value))


def _cards(loc: Localizer, cards: Iterable[Card]) -> Cards:
    return Cards(tuple(loc.card_view(card) for card in cards))


def _join(loc: Localizer, items: Sequence[Cell], style: Literal["standard", "or"] = "standard") -> Run:
    """Cells joined the language's way (``a, b or c``)."""
    return Run(tuple(loc.list_parts(list(items), style)))


def _table(caption: Cell, head: Sequence[Cell | HeadGroup], rows: Sequence[Sequence[Cell]],
           foot: Sequence[Sequence[Cell]] = (), css: str = "") -> Table:
    return Table(caption, tuple(head), tuple(map(tuple, rows)), tuple(map(tuple, foot)), css)


# ---------------------------------------------------------------------------------------------
# Arguments


@dataclass(frozen=True)
class _Args:
    """The arguments of one directive call, checked against what the directive takes."""

    name: str
    values: dict[str, str]

    def get(self, key: str, default: str | None = None) -> str:
        value = self.values.get(key, default)
        if value is None:
            raise DirectiveError(f"klab:{self.name} needs the argument {key}=…")
        return value

    def choice(self, key: str, choices: Sequence[str], default: str | None = None) -> str:
        value = self.get(key, default)
        if value not in choices:
            raise DirectiveError(f"klab:{self.name}: {key} takes {' or '.join(choices)}, not {value!r}")
        return value

    def number(self, key: str, default: int) -> int:
        value = self.values.get(key)
        if value is None:
            return default
        if not value.isdigit():
            raise DirectiveError(f"klab:{self.name}: {key} takes a whole number, not {value!r}")
        return int(value)


def _args(name: str, args: dict[str, str], allowed: Sequence[str] = ()) -> _Args:
    """Check that ``args`` holds only ``allowed`` keys (a clear :class:`DirectiveError` if not)."""
    unknown = sorted(set(args) - set(allowed))
    if unknown:
        takes = f"it takes {', '.join(allowed)}" if allowed else "it takes no arguments"
        raise DirectiveError(f"klab:{name}: unknown argument {unknown[0]!r}: {takes}")
    return _Args(name, args)


def _pairs(args: _Args, key: str, parse: Callable[[str], Any], default: str | None = None) -> dict[Any, int]:
    """Read ``N:84,S:60`` (keys read by ``parse``) into a dict of whole numbers."""
    result: dict[Any, int] = {}
    for item in args.get(key, default).split(","):
        who, sep, value = item.partition(":")
        if not sep or not value.isdigit():
            raise DirectiveError(f"klab:{args.name}: cannot read {key} item {item!r}: write e.g. N:84")
        try:
            result[parse(who)] = int(value)
        except ValueError as error:
            raise DirectiveError(f"klab:{args.name}: {key}: {error}") from None
    return result


def _seat(args: _Args, key: str, seats: Sequence[Seat]) -> Seat:
    value = args.get(key)
    for seat in seats:
        if value.strip().upper() == seat.value:
            return seat
    raise DirectiveError(f"klab:{args.name}: {key} takes {' or '.join(map(str, seats))}, not {value!r}")


def _side(text: str) -> Side:
    return Side.parse(text)


# ---------------------------------------------------------------------------------------------
# Cards: order, points


def card_order(loc: Localizer, raw: dict[str, str]) -> View:
    """Trump and plain order side by side, highest first, with each card's points."""
    _args("card-order", raw)
    rows: list[list[Cell]] = [
        [_n(loc, i + 1), loc.rank_name(trump), _n(loc, TRUMP_POINTS[trump]),
         loc.rank_name(plain), _n(loc, PLAIN_POINTS[plain])]
        for i, (trump, plain) in enumerate(zip(TRUMP_ORDER, PLAIN_ORDER, strict=True))
    ]
    foot: list[list[Cell]] = [[loc.gettext("Total"), "", _n(loc, sum(TRUMP_POINTS.values())),
             "", _n(loc, sum(PLAIN_POINTS.values()))]]
    # TRANSLATORS: column of the card-order table: 1 = highest card, 8 = lowest.
    head = [loc.gettext("Order"), loc.gettext("Trump suit"), loc.gettext("Points"),
            loc.gettext("Plain suits"), loc.gettext("Points")]
    caption = loc.gettext("The order of the cards, highest first, and their points")
    return _table(caption, head, rows, foot, css="card-order")


def card_points(loc: Localizer, raw: dict[str, str]) -> View:
    """What the cards of a deal are worth: trump suit, plain suits, last trick, 162 in all."""
    _args("card-points", raw)
    trump, plain = sum(TRUMP_POINTS.values()), sum(PLAIN_POINTS.values())
    cards = trump + 3 * plain
    rows: list[list[Cell]] = [
        [loc.gettext("The trump suit"), _n(loc, trump)],
        [loc.gettext("Each plain suit"), _n(loc, plain)],
        [loc.gettext("The three plain suits"), _n(loc, 3 * plain)],
        [loc.gettext("All 32 cards"), _n(loc, cards)],
        [loc.gettext("The last trick"), _n(loc, LAST_TRICK_BONUS)],
    ]
    foot: list[list[Cell]] = [[loc.gettext("A deal in all"), _n(loc, cards + LAST_TRICK_BONUS)]]
    # TRANSLATORS: heading of the first column of "Points in the cards" (the trump suit, the last trick…).
    head = [loc.gettext("What counts"), loc.gettext("Points")]
    return _table(loc.gettext("Points in the cards"), head, rows, foot)


# ---------------------------------------------------------------------------------------------
# Klaberjass: sequences


LONG_SEQUENCE_VALUES = (50, 100)
"""The values ``long-sequence`` takes (the rules page "Klaberjass: sequences, play and bella")."""


def sequence_values(loc: Localizer, raw: dict[str, str]) -> View:
    """What a Klaberjass sequence is worth, by length: a long one at the default value, and at the
    other value in the variant the page describes next (players read no option codes here)."""
    _args("sequence-values", raw)
    run = parse_cards("AS KS QS JS TS")
    default = KlaberjassRules().long_sequence
    rows: list[list[Cell]] = [
        [loc.gettext("Three cards"), _n(loc, meld_value(run[:3], default))],
        [loc.gettext("Four cards"), _n(loc, meld_value(run[:4], default))],
    ]
    other = next(value for value in LONG_SEQUENCE_VALUES if value != default)
    # TRANSLATORS: the worth of a sequence of five or more cards; the variant box comes next.
    five = phrase(loc.gettext("%(points)s, or %(other)s in the variant below"),
                  points=_n(loc, meld_value(run, default)), other=_n(loc, meld_value(run, other)))
    rows.append([loc.gettext("Five or more cards"), five])
    head = [loc.gettext("Sequence"), loc.gettext("Points")]
    return _table(loc.gettext("What a sequence is worth"), head, rows)


@dataclass(frozen=True)
class _MeldExample:
    elder: str
    dealer: str
    trump: Suit
    long_sequence: int = 50
    equal_meld: str = "neither"


_MELD_EXAMPLES = (
    _MeldExample("9C-8C-7C", "KD-QD-JD-TD", Suit.HEARTS),
    _MeldExample("QH-JH-TH", "KC-QC-JC", Suit.SPADES),
    _MeldExample("AS-KS-QS", "AD-KD-QD", Suit.SPADES),
    _MeldExample("TD-9D-8D", "TC-9C-8C", Suit.HEARTS),
    _MeldExample("TD-9D-8D", "TC-9C-8C", Suit.HEARTS, equal_meld="elder"),
    _MeldExample("QS-JS-TS-9S-8S", "AD-KD-QD-JD", Suit.HEARTS),
    _MeldExample("QS-JS-TS-9S-8S", "AD-KD-QD-JD", Suit.HEARTS, long_sequence=100),
)


def meld_comparison(loc: Localizer, raw: dict[str, str]) -> View:
    """Worked comparisons of two declarations: who scores for sequences, and why."""
    _args("meld-comparison", raw)
    reasons = {
        "value": loc.gettext("the higher value"),
        "top-card": loc.gettext("the higher top card"),
        "trump": loc.gettext("the sequence in trumps"),
        "equal": loc.gettext("still equal"),
        "only": loc.gettext("the only sequence"),
        "none": loc.gettext("no sequences"),
    }
    rows: list[list[Cell]] = []
    standard = KlaberjassRules()
    for example in _MELD_EXAMPLES:
        elder, dealer = Seat.N, Seat.S
        elder_melds = (tuple(parse_cards(example.elder)),)
        dealer_melds = (tuple(parse_cards(example.dealer)),)
        result = compare(elder, elder_melds, dealer, dealer_melds, example.trump,
                         example.long_sequence, example.equal_meld)
        variants = [name for changed, name in (
            (example.long_sequence != standard.long_sequence, loc.gettext("100 for a long sequence")),
            (example.equal_meld != standard.equal_meld, loc.gettext("The non-dealer wins equal sequences")),
        ) if changed]
        if result.best is None:
            who = loc.gettext("Nobody")
        elif result.best is elder:
            who = loc.gettext("The non-dealer")
        else:
            who = loc.gettext("The dealer")
        rows.append([
            _cards(loc, elder_melds[0]), _cards(loc, dealer_melds[0]), loc.suit_name(example.trump),
            _join(loc, variants) if variants else "—", who, reasons[result.reason], _n(loc, result.points),
        ])
    head = [loc.gettext("Non-dealer's sequence"), loc.gettext("Dealer's sequence"), loc.gettext("Trumps"),
            loc.gettext("Variant"), loc.gettext("Who scores"), loc.gettext("Decided by"),
            loc.gettext("Points")]
    return _table(loc.gettext("Whose sequence is best"), head, rows, css="meld-comparison")


# ---------------------------------------------------------------------------------------------
# Klaberjass: deal score


def _result_word(loc: Localizer, result: str) -> str:
    return {
        "made": loc.gettext("Made"),
        "failed": loc.gettext("Failed"),
        "tie": loc.gettext("Tie"),
        "nat": loc.gettext("Nat"),
    }[result]


def _klaberjass_parts(args: _Args, seats: Sequence[Seat]) -> dict[str, dict[Seat, int]] | None:
    """The parts of each player's total (cards won, last trick, sequences, bella) when ``cards`` is
    given, else None."""
    if "cards" not in args.values:
        for key in ("last", "sequences", "bella"):
            if key in args.values:
                raise DirectiveError(f"klab:{args.name}: {key}=… needs cards=… (the card points of both)")
        return None
    cards = _pairs(args, "cards", Seat.parse)
    if set(cards) != set(seats):
        raise DirectiveError(f"klab:{args.name}: cards must give both players, e.g. N:64,S:50")
    last = _seat(args, "last", seats)
    sequences = dict.fromkeys(seats, 0) | _pairs(args, "sequences", Seat.parse, "N:0,S:0")
    bella_seat = args.get("bella", "none")
    bella = {seat: klaberjass.BELLA if bella_seat.upper() == seat.value else 0 for seat in seats}
    if bella_seat != "none" and not any(bella.values()):
        raise DirectiveError(f"klab:{args.name}: bella takes N, S or none, not {bella_seat!r}")
    return {"cards": cards, "last": {seat: LAST_TRICK_BONUS if seat is last else 0 for seat in seats},
            "sequences": sequences, "bella": bella}


def klaberjass_score(loc: Localizer, raw: dict[str, str]) -> View:
    """A Klaberjass deal scored from the maker and both totals (``klaberjass.scored_result``).

    Arguments: ``maker=N|S``, ``totals=N:84,S:60``; optional ``equal-score=…`` (default the rule
    book's), ``hanging=75`` (points waiting from earlier ties), ``dealer=N|S`` (default the maker's
    opponent). With the breakdown, ``cards=N:64,S:50 last=N`` and optional ``sequences=N:20,S:0``
    and ``bella=N|S|none``, the table shows each part and ``totals`` may be left out (if given,
    it must add up).
    """
    args = _args("klaberjass-score", raw, ("maker", "totals", "equal-score", "hanging", "dealer",
                                            "cards", "last", "sequences", "bella"))
    seats = klaberjass.SEATS
    maker = _seat(args, "maker", seats)
    other = next(seat for seat in seats if seat is not maker)
    dealer = _seat(args, "dealer", seats) if "dealer" in args.values else other
    parts = _klaberjass_parts(args, seats)
    if parts is not None:
        computed = {seat: sum(values[seat] for values in parts.values()) for seat in seats}
        if "totals" in raw and _pairs(args, "totals", Seat.parse) != computed:
            raise DirectiveError(f"klab:{args.name}: totals do not add up: cards, last trick, sequences "
                                 "and bella make " + ",".join(f"{seat}:{computed[seat]}" for seat in seats))
        totals = computed
    else:
        totals = _pairs(args, "totals", Seat.parse)
    if set(totals) != set(seats):
        raise DirectiveError(f"klab:{args.name}: totals must give both players, e.g. N:84,S:60")
    equal_score = args.choice("equal-score", KlaberjassRules.CHOICES["equal-score"],
                              KlaberjassRules().equal_score)
    hanging = args.number("hanging", 0)
    rules = KlaberjassRules(equal_score=equal_score)
    problem = klaberjass.totals_problem(rules, totals)
    if problem is not None:  # as `klabsite score add` refuses them
        raise DirectiveError(f"klab:{args.name}: {problem}")
    try:
        result = klaberjass.scored_result(rules, dealer, maker, totals, hanging)
    except ValueError as error:
        raise DirectiveError(f"klab:{args.name}: {error}") from None
    score = result.score
    rows: list[list[Cell]] = []
    for seat in seats:
        role = loc.gettext("maker") if seat is maker else loc.gettext("opponent")
        # TRANSLATORS: a player and his role in the deal, e.g. "North (maker)".
        rows.append([phrase(loc.gettext("%(seat)s (%(role)s)"), seat=loc.seat_name(seat), role=role),
                     *(_n(loc, values[seat]) for values in (parts or {}).values()),
                     _n(loc, totals[seat]), _n(loc, score[str(seat)])])
    notes: list[Cell] = []
    if hanging:
        notes.append(phrase(loc.gettext("Hanging points from earlier deals: %(points)s."),
                            points=_n(loc, hanging)))
    if result.hanging:
        notes.append(phrase(loc.gettext("Hanging points after this deal: %(points)s."),
                            points=_n(loc, result.hanging)))
    word = _result_word(loc, result.result or "")
    if "equal-score" in raw:
        caption = phrase(loc.gettext("%(seat)s is the maker, with %(option)s: %(result)s"),
                         seat=loc.seat_name(maker), option=_code(loc, f"equal-score={equal_score}"),
                         result=word)
    else:
        caption = phrase(loc.gettext("%(seat)s is the maker: %(result)s"), seat=loc.seat_name(maker),
                         result=word)
    breakdown = [loc.gettext("Cards won"), loc.gettext("Last trick"), loc.gettext("Sequences"),
                 loc.gettext("Bella")] if parts is not None else []
    head = [loc.gettext("Player"), *breakdown, loc.gettext("Total"), loc.gettext("Score")]
    table = _table(caption, head, rows, css="deal-score")
    return (table, Note(tuple(notes))) if notes else table


# ---------------------------------------------------------------------------------------------
# Klaverjas: roem


_ROEM_EXAMPLES = (
    "9C 8C 7C KD", "JC TC 9C 8C", "KH QH 7S 8D", "KH QH JH 7C", "KH QH JH TH",
    "KS QS 7H 8D", "AC AD AH AS", "JC JD JH JS", "9C 9D 9H 9S",
)


def roem(loc: Localizer, raw: dict[str, str]) -> View:
    """Roem in example tricks, computed by :mod:`klabsite.engine.roem`.

    Arguments (optional): ``trump=H`` (the trump suit, hearts by default) and
    ``tricks=KH-QH-JH-7C/AC-AD-AH-AS`` (tricks of four cards; a built-in set by default).
    """
    args = _args("roem", raw, ("trump", "tricks"))
    try:
        trump = Suit.parse(args.get("trump", "H"))
        tricks = [parse_cards(trick) for trick in args.values["tricks"].split("/")] if "tricks" in raw \
            else [parse_cards(trick) for trick in _ROEM_EXAMPLES]
    except ValueError as error:
        raise DirectiveError(f"klab:{args.name}: {error}") from None
    for trick in tricks:
        if len(trick) != 4 or len(set(trick)) != 4:
            raise DirectiveError(f"klab:{args.name}: a trick holds four different cards, not {trick}")
    names = {
        "sequence-3": loc.gettext("three in sequence"),
        "sequence-4": loc.gettext("four in sequence"),
        # TRANSLATORS: the Dutch word stuk (K and Q of trumps in one trick), kept as in the rules text.
        "stuk": loc.gettext("stuk"),
        "four-jacks": loc.gettext("four jacks"),
        "four-of-a-kind": loc.gettext("four of a kind"),
    }
    rows: list[list[Cell]] = []
    for trick in tricks:
        parts = roem_parts(trick, trump)
        described: Cell
        if parts:
            described = _join(loc, [
                # TRANSLATORS: one kind of roem and its points, e.g. "stuk 20".
                phrase(loc.gettext("%(kind)s %(points)s"), kind=names[kind], points=_n(loc, value))
                for kind, value in parts])
        elif len({card.rank for card in trick}) == 1:
            described = loc.gettext("four of a kind, worth nothing")
        else:
            described = loc.gettext("no roem")
        rows.append([_cards(loc, trick), described, _n(loc, trick_roem(trick, trump))])
    caption = phrase(loc.gettext("Roem in one trick, with %(suit)s as trumps"), suit=loc.suit_name(trump))
    head = [loc.gettext("Trick"), loc.gettext("Roem"), loc.gettext("Points")]
    return _table(caption, head, rows, css="roem")


# ---------------------------------------------------------------------------------------------
# Klaverjas: deal score and score sheet


def _klaverjas_result(args: _Args, dealer: Seat) -> tuple[klaverjas.KlaverjasResult, Side]:
    playing = args.choice("playing", ("NS", "EW"))
    side = Side.parse(playing)
    given = _pairs(args, "points", _side)
    if len(given) == 1:
        (known, value), = given.items()
        points = {known: value, known.other: klaverjas.DEAL_POINTS - value}
    else:
        points = given
    roem_by_side = {side_: 0 for side_ in Side} | _pairs(args, "roem", _side, "NS:0,EW:0")
    pit = args.choice("pit", ("no", "yes"), "no") == "yes"
    try:
        result = klaverjas.scored_result(KlaverjasRules(), dealer, side, points, roem_by_side, pit)
    except ValueError as error:
        raise DirectiveError(f"klab:{args.name}: {error}") from None
    return result, side


def klaverjas_score(loc: Localizer, raw: dict[str, str]) -> View:
    """A Klaverjas deal scored from the score-sheet entries (``klaverjas.scored_result``).

    Arguments: ``playing=NS|EW``, ``points=NS:92`` (one side's card points, last trick included;
    the other side has 162 minus that), optional ``roem=NS:20,EW:0`` and ``pit=yes|no``.
    """
    args = _args("klaverjas-score", raw, ("playing", "points", "roem", "pit"))
    result, playing = _klaverjas_result(args, Seat.W)
    sides = tuple(Side)
    # One column a side, one row a part of the score: three columns fit a phone in every language.
    head: list[Cell] = [""]
    for side in sides:
        role = loc.gettext("playing side") if side is playing else loc.gettext("opponents")
        # TRANSLATORS: a side and its role, e.g. "North–South (playing side)".
        head.append(phrase(loc.gettext("%(side)s (%(role)s)"), side=SideName(loc.side_name(side)), role=role))
    pit = {side.value: PIT_BONUS if result.pit and side is playing else 0 for side in sides}
    parts = (
        # TRANSLATORS: a row of the sides' card points counted with the last trick's 10.
        (loc.gettext("Points with the last trick"), result.points or {}),
        (loc.gettext("Roem"), result.roem),
        (loc.gettext("Pit"), pit),
        (loc.gettext("Total"), result.totals),
        (loc.gettext("Score"), result.score),
    )
    rows: list[list[Cell]] = [[label, *(_n(loc, values[side.value]) for side in sides)]
                              for label, values in parts]
    # TRANSLATORS: caption of a worked Klaverjas deal, e.g. "Playing side North–South, 112 to 70: Made";
    # %(points)s and %(other)s are the totals of the playing side and of the opponents.
    totals = result.totals
    caption = phrase(loc.gettext("Playing side %(side)s, %(points)s to %(other)s: %(result)s"),
                     side=loc.side_name(playing), points=_n(loc, totals[playing.value]),
                     other=_n(loc, totals[playing.other.value]), result=_result_word(loc, result.result))
    return _table(caption, head, rows, css="deal-score")


_SHEET = (  # playing side, one side's points, roem NS/EW, pit
    ("EW", "EW:95", "NS:0,EW:20", "no"),
    ("NS", "NS:70", "NS:0,EW:50", "no"),
    ("NS", "NS:162", "NS:20,EW:0", "yes"),
    ("EW", "EW:81", "NS:0,EW:0", "no"),
)


def klaverjas_sheet(loc: Localizer, raw: dict[str, str]) -> View:
    """An example score sheet of four deals: what is written down, and what follows from it."""
    _args("klaverjas-sheet", raw)
    rules = KlaverjasRules()
    match = MatchScore(rules, keys=("NS", "EW"))
    dealer = Seat.N
    rows: list[list[Cell]] = []
    for number, (playing, points, roem_text, pit) in enumerate(_SHEET, start=1):
        args = _Args("klaverjas-sheet", {"playing": playing, "points": points, "roem": roem_text, "pit": pit})
        result, side = _klaverjas_result(args, dealer)
        match.add(result.score, result.counted)
        points_ = result.points or {}
        rows.append([
            _n(loc, number), loc.seat_name(dealer), SideName(loc.side_name(side)),
            _n(loc, points_["NS"]), _n(loc, points_["EW"]),
            _n(loc, result.roem["NS"]), _n(loc, result.roem["EW"]),
            _result_word(loc, result.result) + (" + " + loc.gettext("pit") if result.pit else ""),
            _n(loc, result.score["NS"]), _n(loc, result.score["EW"]),
            _n(loc, match.totals["NS"]), _n(loc, match.totals["EW"]),
        ])
        dealer = klaverjas.next_dealer(rules, dealer, result.outcome)
    foot: list[list[Cell]] = []
    sides = (SideName(loc.side_name(Side.NS)), SideName(loc.side_name(Side.EW)))
    head: list[Cell | HeadGroup] = [
        loc.gettext("Deal"), loc.gettext("Dealer"), loc.gettext("Playing side"),
        # TRANSLATORS: score-sheet headings, each over two columns, one per side: the card points
        # the side took (with the last trick's 10), its roem, its score for the deal, and its
        # running total after the deal.
        HeadGroup(loc.pgettext("score sheet", "Points"), sides),
        HeadGroup(loc.pgettext("score sheet", "Roem"), sides),
        loc.gettext("Result"),
        HeadGroup(loc.pgettext("score sheet", "Score"), sides),
        HeadGroup(loc.pgettext("score sheet", "Running total"), sides),
    ]
    return _table(loc.gettext("An example score sheet"), head, rows, foot, css="score-sheet")


# ---------------------------------------------------------------------------------------------
# Klaverjas: Amsterdam and Rotterdam side by side


@dataclass(frozen=True)
class _Position:
    """A trick so far (led first) and the hand of the player to play; hearts are trumps."""

    trick: str
    hand: str


def _positions(loc: Localizer) -> list[tuple[str, _Position]]:
    return [
        (loc.gettext("A plain suit is led and you can follow suit."),
         _Position("8C", "KC 7C 9H AS")),
        (loc.gettext("Trump is led, your partner is winning, and you can beat his trump."),
         _Position("KH 8H", "JH 7H AC")),
        (loc.gettext("Trump is led and you cannot beat the highest trump."),
         _Position("JH", "QH 7H AC")),
        (loc.gettext("You cannot follow suit; your partner is winning with a plain card."),
         _Position("AC 7C", "KH 8H AD 9S")),
        (loc.gettext("You cannot follow suit; an opponent is winning with a plain card."),
         _Position("7C AC", "KH 8H AD 9S")),
        (loc.gettext("You cannot follow suit; an opponent has trumped, and you can overtrump."),
         _Position("AC QH", "KH 8H AD 9S")),
        (loc.gettext("You cannot follow suit; an opponent has trumped higher than any trump you hold."),
         _Position("AC AH", "KH 8H AD 9S")),
        (loc.gettext("You cannot follow suit; your partner has trumped, and you can overtrump."),
         _Position("7C QH 8C", "KH 8H AD 9S")),
        (loc.gettext("You cannot follow suit; your partner has trumped higher than any trump you hold."),
         _Position("7C AH 8C", "KH 8H AD 9S")),
        (loc.gettext("You cannot follow suit and hold only lower trumps."),
         _Position("AC JH", "KH 8H")),
    ]


TRICK_RULES_TRUMP = Suit.HEARTS
"""The trump suit of every position in the ``trick-rules`` table."""

TRICK_RULE_COLUMNS: tuple[KlaverjasRules, ...] = (
    KlaverjasRules(trick_rules="amsterdam"),
    KlaverjasRules(trick_rules="rotterdam", undertrump="required"),
    KlaverjasRules(trick_rules="rotterdam", undertrump="forbidden"),
)
"""The rule sets compared, one column each."""


def trick_rules_answers(trick: Sequence[Card], hand: Sequence[Card]) -> list[tuple[Card, ...]]:
    """The cards each of :data:`TRICK_RULE_COLUMNS` allows, asked of the Klaverjas engine."""
    return [klaverjas.play_rule(hand, trick, TRICK_RULES_TRUMP, rules)[0] for rules in TRICK_RULE_COLUMNS]


def _trick_cell(loc: Localizer, trick: Sequence[Card]) -> Trick:
    """The cards so far, each marked partner or opponent (the player to act plays next)."""
    cells: list[Cell] = []
    winner = trick_winner_index(trick, TRICK_RULES_TRUMP)
    for i, card in enumerate(trick):
        partner = (len(trick) - i) % 2 == 0
        if partner and i == winner:
            # TRANSLATORS: a card already in the trick and who played it; %(card)s is the card, e.g. "A♣".
            template = loc.gettext("%(card)s partner, winning")
        elif partner:
            template = loc.gettext("%(card)s partner")
        elif i == winner:
            template = loc.gettext("%(card)s opponent, winning")
        else:
            template = loc.gettext("%(card)s opponent")
        cells.append(phrase(template, card=loc.card_view(card)))
    return Trick(tuple(cells), loc.separator())


def trick_rules(loc: Localizer, raw: dict[str, str]) -> View:
    """What Amsterdam and Rotterdam rules allow in example positions (the engine's own answer)."""
    _args("trick-rules", raw)
    rows: list[list[Cell]] = []
    for situation, position in _positions(loc):
        trick, hand = parse_cards(position.trick), parse_cards(position.hand)
        answers = trick_rules_answers(trick, hand)
        rows.append([situation, _trick_cell(loc, trick), _cards(loc, hand),
                     *(_cards(loc, cards) for cards in answers)])
    head: list[Cell] = [
        loc.gettext("Situation"), loc.gettext("Trick so far"), loc.gettext("Your hand"),
        loc.pgettext("table head", "Amsterdam rules"),
        loc.pgettext("table head", "Rotterdam rules, undertrumping required"),
        loc.pgettext("table head", "Rotterdam rules, undertrumping forbidden"),
    ]
    caption = phrase(loc.gettext("The cards you may play, with %(suit)s as trumps"),
                     suit=loc.suit_name(TRICK_RULES_TRUMP))
    return _table(caption, head, rows, css="trick-rules")


# ---------------------------------------------------------------------------------------------
# Options


def _option_texts(loc: Localizer, game: str) -> dict[str, str]:
    if game == "klaberjass":
        return {
            "schmeiss": loc.gettext("Whether a player may offer a schmeiss (a throw-in) in the bidding."),
            "schmeiss-refused": loc.gettext("Who becomes the maker when a schmeiss is refused: the player "
                                            "who offered it, or the one who refused it."),
            "schmeiss-redeal": loc.gettext("Who deals after an accepted schmeiss: the other player, or the "
                                           "same dealer again."),
            "schmeiss-round-2": loc.gettext("Whether a schmeiss is also allowed in the second round of "
                                            "bidding."),
            "long-sequence": loc.gettext("What a sequence of five or more cards is worth."),
            "equal-meld": loc.gettext("Who scores for sequences when the best sequences are exactly equal: "
                                      "nobody, or the non-dealer."),
            "no-trick-melds": loc.gettext("Whether a player who wins no trick still scores his sequences."),
            "must-beat": loc.gettext("When you must win the trick if you can: only when a trump is led, or "
                                     "whatever is led."),
            "equal-score": loc.gettext("What happens to the maker's total in a tie: it is lost, or it waits "
                                       "for the winner of the next played deal."),
            "target": loc.gettext("The score that ends the match."),
            "deals": loc.gettext("Play exactly this many deals instead of playing to the target."),
        }
    return {
        "trump-choice": loc.gettext("How trump is chosen: free bidding, forced on the player left of the "
                                    "dealer, or a proposed suit taken or passed."),
        "trick-rules": loc.gettext("Which rules of play are used when you cannot follow suit."),
        "undertrump": loc.gettext("Rotterdam rules only: whether you must play a lower trump when you "
                                  "cannot overtrump."),
        "target": loc.gettext("The score that ends the match."),
        "deals": loc.gettext("Play exactly this many deals instead of playing to the target."),
    }


OPTION_PAGES = {
    "klaberjass": {
        "schmeiss": "klaberjass.html#schmeiss", "schmeiss-refused": "klaberjass.html#schmeiss",
        "schmeiss-redeal": "klaberjass.html#schmeiss", "schmeiss-round-2": "klaberjass.html#schmeiss",
        "long-sequence": "klaberjass-play.html#sequences",
        "equal-meld": "klaberjass-play.html#who-scores-for-sequences",
        "no-trick-melds": "klaberjass-play.html#who-scores-for-sequences",
        "must-beat": "klaberjass-play.html#play", "equal-score": "klaberjass-scoring.html#counting-a-deal",
        "target": "klaberjass-scoring.html#the-end-of-the-match",
        "deals": "klaberjass-scoring.html#the-end-of-the-match",
    },
    "klaverjas": {
        "trump-choice": "klaverjas.html#choosing-trump", "trick-rules": "klaverjas-play.html#side-by-side",
        "trick-rules=amsterdam": "klaverjas-play.html#amsterdam-rules",
        "trick-rules=rotterdam": "klaverjas-play.html#rotterdam-rules",
        "undertrump": "klaverjas-play.html#rotterdam-rules", "target": "klaverjas-scoring.html#the-match",
        "deals": "klaverjas-scoring.html#the-match",
    },
}
"""Where each option is explained (pages of the same language sit side by side); a ``name=value`` key
is where that value is, for a deal's rules line."""


def _option_values(loc: Localizer, rules: KlaberjassRules | KlaverjasRules, name: str) -> Cell:
    default = getattr(rules, name.replace("-", "_"))
    values: Sequence[object]
    if name in type(rules).CHOICES:
        values = type(rules).CHOICES[name]
    elif name == "long-sequence":
        values = LONG_SEQUENCE_VALUES
    elif name == "target":
        # TRANSLATORS: %(default)s is the default option, e.g. "target=500".
        return phrase(loc.gettext("%(default)s, or any other number"),
                      default=Strong(_code(loc, f"target={default}")))
    else:  # deals
        # TRANSLATORS: %(option)s is "deals=N"; the option is not set unless chosen.
        return phrase(loc.gettext("%(option)s: not set by default"), option=_code(loc, "deals=N"))
    marked = [Strong(_code(loc, f"{name}={value}")) if value == default
              else _code(loc, f"{name}={value}") for value in values]
    return _join(loc, marked, "or")


def options(loc: Localizer, raw: dict[str, str]) -> View:
    """Every option of a game (``game=klaberjass|klaverjas``): values, default in bold, meaning."""
    args = _args("options", raw, ("game",))
    game = args.choice("game", ("klaberjass", "klaverjas"))
    rules: KlaberjassRules | KlaverjasRules = KlaberjassRules() if game == "klaberjass" else KlaverjasRules()
    texts = _option_texts(loc, game)
    rows: list[list[Cell]] = []
    for name in type(rules).option_names():
        link = Link(OPTION_PAGES[game][name], _code(loc, name))
        rows.append([link, _option_values(loc, rules, name), texts[name]])
    head = [loc.gettext("Option"), loc.gettext("Values (default in bold)"), loc.gettext("What it sets")]
    caption = loc.gettext("Klaberjass options") if game == "klaberjass" else loc.gettext("Klaverjas options")
    return _table(caption, head, rows, css="options")


# ---------------------------------------------------------------------------------------------

DIRECTIVES: dict[str, Directive] = {
    "card-order": card_order,
    "card-points": card_points,
    "sequence-values": sequence_values,
    "meld-comparison": meld_comparison,
    "klaberjass-score": klaberjass_score,
    "roem": roem,
    "klaverjas-score": klaverjas_score,
    "klaverjas-sheet": klaverjas_sheet,
    "trick-rules": trick_rules,
    "options": options,
    **PICTURES,
}
"""Every directive by name: ``[[klab:NAME key=value …]]`` in the rules Markdown (the pictures of
:mod:`klabsite.site.pictures` among them; ``worked-deal`` and ``see-deal``, which need the shipped
deals, are added by the renderer)."""
