"""Rules-page pictures drawn from the engine: the card order as rows of cards, the table seen from
above, a trick round the table, the Klaverjas ways of choosing trump, a whole deal told in full.

Each directive computes a frozen picture value (no markup); the macros of
``templates/macros/pictures.html`` draw it (HTML and CSS, the site's ``card`` component, no image
to download). Every picture is a ``<figure>`` with a ``<figcaption>`` and real text, so it has an
accessible name in the page's language.

Right to left: a run of cards is a left-to-right fragment everywhere (K Q J reads the same in
every language, highest first on the left), and the table is a compass, not text: North at the
top and East on the right on every page, the direction of play clockwise.

Directives (``[[klab:NAME …]]``):

- ``card-rows``: the trump order, the plain order (highest first, with points) and the sequence
  order, as rows of cards (:func:`card_rows`);
- ``seating game=klaberjass|klaverjas [dealer=S]``: the seats, partners, the dealer, the direction
  of play and who leads first (:func:`seating`);
- ``trick-picture game=… cards="JH 9H AH TH" leader=N trump=H``: a trick round the table, its
  winner found by the engine's :func:`~klabsite.engine.tricks.trick_winner_index` (:func:`trick_picture`);
- ``trump-choice``: the three Klaverjas ways, free, forced and turned, as small flows, each step
  read from the engine's legal actions (:func:`trump_choice`);
- ``worked-deal game=klaberjass|klaverjas``: one shipped deal in full (:func:`worked_deal`).

>>> from klabsite.site.i18n import Localizer
>>> picture = trick_picture(Localizer.untranslated("en"),
...                         {"cards": "JH 9H AH TH", "leader": "N", "trump": "S"})
>>> [play.seat.value for play in picture.plays], picture.winner.value
(['N', 'E', 'S', 'W'], 'S')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from klabsite.engine.actions import ActionKind
from klabsite.engine.cards import (
    DECK,
    PLAIN_ORDER,
    PLAIN_POINTS,
    TRUMP_ORDER,
    TRUMP_POINTS,
    Card,
    Rank,
    Suit,
    parse_cards,
)
from klabsite.engine.klaberjass import SEATS as KLABERJASS_SEATS
from klabsite.engine.klaberjass import KlaberjassDeal
from klabsite.engine.klaverjas import SEATS as KLAVERJAS_SEATS
from klabsite.engine.klaverjas import KlaverjasDeal
from klabsite.engine.options import KlaberjassRules, KlaverjasRules
from klabsite.engine.seats import Seat
from klabsite.engine.tricks import trick_winner_index
from klabsite.site.replays import DealView
from klabsite.site.views import CardView, Cell, Code, Number, Run, phrase

__all__ = ["CardRow", "CardRows", "SeatView", "Seating", "Play", "TrickPicture", "Flow", "TrumpChoice",
           "WorkedDeal", "card_rows", "seating", "trick_picture", "trump_choice", "worked_deal",
           "worked_example", "SEQUENCE_ORDER", "PICTURES"]

SEQUENCE_ORDER: tuple[Rank, ...] = (Rank.SEVEN, Rank.EIGHT, Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN,
                                    Rank.KING, Rank.ACE)
"""The order of sequences (Klaberjass) and roem (Klaverjas): 7 8 9 10 J Q K A, the same in every suit."""

WORKED_TAG = "worked-example"
"""The tag word that picks a shipped deal for ``[[klab:worked-deal]]``."""


# ---------------------------------------------------------------------------------------------
# Values the macros draw


@dataclass(frozen=True, slots=True)
class CardRow:
    """One row of cards, highest first (or in sequence order), with each card's points (or None)."""

    label: Cell
    cards: tuple[CardView, ...]
    points: tuple[Number, ...] | None
    spoken: tuple[str, ...] = ()
    """Each card's points as screen readers say them ("2 points"; the Arabic dual has no digit)."""


@dataclass(frozen=True, slots=True)
class CardRows:
    """The ``card-rows`` picture: rows of cards under a caption."""

    kind: ClassVar[str] = "card_rows"
    caption: Cell
    rows: tuple[CardRow, ...]


@dataclass(frozen=True, slots=True)
class SeatView:
    """A seat at the table: its name and what the picture says about it."""

    seat: Seat
    name: str
    side: str
    """``ns`` or ``ew`` (the partners share a colour)."""
    notes: tuple[str, ...]
    """``dealer``, ``leads first``… (translated words)."""


@dataclass(frozen=True, slots=True)
class Seating:
    """The ``seating`` picture: the table seen from above."""

    kind: ClassVar[str] = "seating"
    caption: Cell
    seats: tuple[SeatView, ...]
    direction: Cell
    """The direction of play, in words ("Play goes clockwise: …")."""
    facts: tuple[Cell, ...]
    """Sentences under the picture (partners, dealer, who leads)."""


@dataclass(frozen=True, slots=True)
class Play:
    """One card of a trick: who played it, in which order, and whether it wins."""

    seat: Seat
    name: str
    order: Number
    card: CardView
    wins: bool


@dataclass(frozen=True, slots=True)
class TrickPicture:
    """The ``trick-picture`` picture: a trick round the table, its winner marked."""

    kind: ClassVar[str] = "trick_picture"
    caption: Cell
    seats: int
    """2 (Klaberjass) or 4 (Klaverjas)."""
    plays: tuple[Play, ...]
    winner: Seat
    winner_label: str


@dataclass(frozen=True, slots=True)
class Flow:
    """One way of choosing trump: its option and its steps in order."""

    option: Code
    name: str
    steps: tuple[Cell, ...]


@dataclass(frozen=True, slots=True)
class TrumpChoice:
    """The ``trump-choice`` picture: three small flows side by side."""

    kind: ClassVar[str] = "trump_choice"
    caption: Cell
    flows: tuple[Flow, ...]
    default_label: str
    default: str


@dataclass(frozen=True, slots=True)
class WorkedDeal:
    """The ``worked-deal`` picture: a shipped deal told in full by the replay macros.

    ``prefix`` is the folder of the deal's replay pages, relative from a rules page
    (``deals/<id>/``); ``hands`` the step that shows its hands (:attr:`DealView.hands_step`);
    ``first`` says who deals and who speaks and leads first, as the seating picture does: the
    deal's dealer need not be the picture's.
    """

    kind: ClassVar[str] = "worked_deal"
    deal: DealView
    hands: Any
    prefix: str
    first: Cell


# ---------------------------------------------------------------------------------------------
# Arguments


def _check(name: str, raw: dict[str, str], allowed: Sequence[str]) -> None:
    unknown = sorted(set(raw) - set(allowed))
    if unknown:
        takes = f"it takes {', '.join(allowed)}" if allowed else "it takes no arguments"
        raise ValueError(f"klab:{name}: unknown argument {unknown[0]!r}: {takes}")


def _game(name: str, raw: dict[str, str], default: str | None = None) -> str:
    game = raw.get("game", default)
    if game not in ("klaberjass", "klaverjas"):
        raise ValueError(f"klab:{name}: game takes klaberjass or klaverjas, not {game!r}")
    return game


def _seat(name: str, raw: dict[str, str], key: str, seats: Sequence[Seat], default: str) -> Seat:
    value = raw.get(key, default).strip().upper()
    for seat in seats:
        if seat.value == value:
            return seat
    raise ValueError(f"klab:{name}: {key} takes {' or '.join(seat.value for seat in seats)}, not {value!r}")


def _seats(game: str) -> tuple[Seat, ...]:
    return KLAVERJAS_SEATS if game == "klaverjas" else KLABERJASS_SEATS


def _next(seat: Seat, seats: Sequence[Seat]) -> Seat:
    """The next seat clockwise among ``seats``."""
    return seats[(seats.index(seat) + 1) % len(seats)]


def first_to_lead(game: str, dealer: Seat) -> Seat:
    """Who leads to the first trick, asked of the engine: Klaberjass's non-dealer, Klaverjas's
    player left of the dealer (the first to speak)."""
    if game == "klaberjass":
        return KlaberjassDeal(KlaberjassRules(), dealer, DECK).elder
    first = KlaverjasDeal(KlaverjasRules(), dealer, DECK).to_act
    assert first is not None
    return first


# ---------------------------------------------------------------------------------------------
# card-rows


def card_rows(loc: Any, raw: dict[str, str]) -> CardRows:
    """The card order as rows of cards, each highest first: trumps and plain suits with points, then
    the sequence order (hearts as trumps, spades as a plain suit, clubs for the sequence)."""
    _check("card-rows", raw, ())
    trump, plain, run = Suit.HEARTS, Suit.SPADES, Suit.CLUBS

    def row(label: Cell, suit: Suit, ranks: Sequence[Rank], points: dict[Rank, int] | None) -> CardRow:
        cards = tuple(loc.card_view(Card(rank, suit)) for rank in ranks)
        if points is None:
            return CardRow(label, cards, None)
        spoken = tuple(
            # TRANSLATORS: a card's points in the card-order picture, as screen readers say them
            # (the picture shows the number alone).
            loc.ngettext("%(num)s point", "%(num)s points", points[rank])
            for rank in ranks)
        return CardRow(label, cards, tuple(Number(loc.number(points[rank])) for rank in ranks), spoken)

    rows = (
        # TRANSLATORS: a row of the card-order picture; %(suit)s is the suit shown, e.g. "hearts".
        row(phrase(loc.gettext("Trumps (here %(suit)s), highest first"), suit=loc.suit_name(trump)),
            trump, TRUMP_ORDER, TRUMP_POINTS),
        row(phrase(loc.gettext("Plain suits (here %(suit)s), highest first"), suit=loc.suit_name(plain)),
            plain, PLAIN_ORDER, PLAIN_POINTS),
        row(loc.gettext("Sequence order, the same in every suit, highest first"), run, SEQUENCE_ORDER[::-1],
            None),
    )
    return CardRows(loc.gettext("The order of the cards"), rows)


# ---------------------------------------------------------------------------------------------
# seating


def seating(loc: Any, raw: dict[str, str]) -> Seating:
    """The table seen from above: seats, partners, the dealer, clockwise play, who leads first."""
    _check("seating", raw, ("game", "dealer"))
    game = _game("seating", raw)
    seats = _seats(game)
    dealer = _seat("seating", raw, "dealer", seats, "S")
    leader = first_to_lead(game, dealer)
    views = []
    for seat in seats:
        notes = []
        if seat is dealer:
            notes.append(loc.gettext("dealer"))
        if seat is leader:
            notes.append(loc.gettext("leads first"))
        side = "ns" if seat in (Seat.N, Seat.S) else "ew"
        views.append(SeatView(seat, loc.seat_name(seat), side if game == "klaverjas" else seat.value.lower(),
                              tuple(notes)))
    order = [leader]
    while len(order) < len(seats):
        order.append(_next(order[-1], seats))
    names = Run(tuple(loc.list_parts([loc.seat_name(seat) for seat in order])))
    if game == "klaverjas":
        # TRANSLATORS: under the seating picture; %(order)s lists the seats in playing order.
        direction = phrase(loc.gettext("Play goes clockwise: %(order)s."), order=names)
    else:
        # TRANSLATORS: under the Klaberjass seating picture; %(order)s: "North and South".
        direction = phrase(loc.gettext("The two players face each other and play in turn: %(order)s."),
                           order=names)
    facts: list[Cell] = []
    if game == "klaverjas":
        facts.append(loc.gettext("North and South are partners against East and West; partners sit "
                                 "opposite each other."))
        caption = loc.gettext("The Klaverjas table seen from above")
    else:
        caption = loc.gettext("The Klaberjass table seen from above")
    facts.append(_first(loc, game, dealer))
    return Seating(caption, tuple(views), direction, tuple(facts))


def _first(loc: Any, game: str, dealer: Seat) -> Cell:
    """Who deals, and who speaks first and leads to the first trick."""
    first = loc.gettext("%(dealer)s deals; %(leader)s speaks first and leads to the first trick.")
    return phrase(first, dealer=loc.seat_name(dealer), leader=loc.seat_name(first_to_lead(game, dealer)))


# ---------------------------------------------------------------------------------------------
# trick-picture


def trick_picture(loc: Any, raw: dict[str, str]) -> TrickPicture:
    """A trick round the table: the cards in play order from ``leader``, clockwise; the winner is
    the engine's (:func:`~klabsite.engine.tricks.trick_winner_index`), never given."""
    _check("trick-picture", raw, ("game", "cards", "leader", "trump"))
    if "cards" not in raw:
        raise ValueError('klab:trick-picture needs the argument cards="JH 9H AH TH"')
    cards = parse_cards(raw["cards"].replace(",", " "))
    game = _game("trick-picture", raw, "klaverjas" if len(cards) == 4 else "klaberjass")
    seats = _seats(game)
    if len(cards) != len(seats) or len(set(cards)) != len(cards):
        raise ValueError(f"klab:trick-picture: a {game} trick holds {len(seats)} different cards, "
                         f"not {raw['cards']!r}")
    leader = _seat("trick-picture", raw, "leader", seats, "N")
    try:
        trump = Suit.parse(raw.get("trump", "H"))
    except ValueError as error:
        raise ValueError(f"klab:trick-picture: trump: {error}") from None
    winner_index = trick_winner_index(cards, trump)
    plays = []
    seat = leader
    for index, card in enumerate(cards):
        plays.append(Play(seat, loc.seat_name(seat), Number(loc.number(index + 1)), loc.card_view(card),
                          index == winner_index))
        seat = _next(seat, seats)
    winner = plays[winner_index]
    # TRANSLATORS: caption of a trick picture, e.g. "Hearts are trumps. North leads; South wins the trick
    # with J♥." %(card)s is a card glyph.
    caption = phrase(loc.gettext("%(suit)s are trumps. %(leader)s leads; %(winner)s wins the trick "
                                 "with %(card)s."),
                     suit=_capital(loc.suit_name(trump)), leader=loc.seat_name(leader),
                     winner=winner.name, card=winner.card)
    return TrickPicture(caption, len(seats), tuple(plays), winner.seat, loc.gettext("wins"))


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


# ---------------------------------------------------------------------------------------------
# trump-choice


def _choice_facts(choice: str) -> dict[str, Any]:
    """What the Klaverjas engine allows with ``trump-choice=choice``: the first seat's actions, and
    after four passes (where passing is allowed) who must name trump and whether the proposed suit
    may be named again."""
    rules = KlaverjasRules(trump_choice=choice)
    proposed = Suit.HEARTS if choice == "turned" else None
    deal = KlaverjasDeal(rules, Seat.S, DECK, proposed=proposed)
    first = deal.to_act
    kinds = {action.kind for action in deal.legal_actions()}
    facts: dict[str, Any] = {"first": first, "kinds": kinds, "after": None, "again": None}
    if ActionKind.PASS in kinds:
        for _ in range(4):
            deal.apply(next(action for action in deal.legal_actions() if action.kind is ActionKind.PASS))
        after = {action.kind for action in deal.legal_actions()}
        facts["after"] = deal.to_act if after == {ActionKind.NAME} else None
        named = {action.suit for action in deal.legal_actions() if action.kind is ActionKind.NAME}
        facts["again"] = proposed in named if proposed is not None else None
    return facts


def trump_choice(loc: Any, raw: dict[str, str]) -> TrumpChoice:
    """The three Klaverjas ways of choosing trump, each a flow of steps read from the engine."""
    _check("trump-choice", raw, ())
    isolate = loc.dir == "rtl"
    lang = None if loc.lang == "en" else "en"
    flows = []
    for choice in KlaverjasRules.CHOICES["trump-choice"]:
        facts = _choice_facts(choice)
        first = loc.seat_name(facts["first"])
        steps: list[Cell] = []
        kinds = facts["kinds"]
        if choice == "turned":
            steps.append(loc.gettext("A suit is proposed as trump."))
        if kinds == {ActionKind.NAME}:
            steps.append(phrase(loc.gettext("%(seat)s, left of the dealer, must name trump."), seat=first))
        elif ActionKind.TAKE in kinds:
            steps.append(phrase(loc.gettext("From %(seat)s, left of the dealer, each player takes the "
                                            "proposed suit or passes."), seat=first))
        else:
            steps.append(phrase(loc.gettext("From %(seat)s, left of the dealer, each player names a suit or "
                                            "passes."), seat=first))
        if ActionKind.PASS in kinds:
            steps.append(loc.gettext("The first to choose makes it trump; his side is the playing side."))
            if facts["after"] is not None:
                seat = loc.seat_name(facts["after"])
                if facts["again"] is False:
                    steps.append(phrase(loc.gettext("If all four pass, %(seat)s must name one of the other "
                                                    "three suits."), seat=seat))
                else:
                    must = loc.gettext("If all four pass, %(seat)s must name trump.")
                    steps.append(phrase(must, seat=seat))
        else:
            steps.append(loc.gettext("His side is the playing side."))
        names = {"free": loc.gettext("Free"), "forced": loc.gettext("Forced"),
                 "turned": loc.gettext("Turned")}
        flows.append(Flow(Code.option(f"trump-choice={choice}", isolate, lang), names[choice], tuple(steps)))
    return TrumpChoice(loc.gettext("Three ways to choose trump in Klaverjas (dealer: South)"), tuple(flows),
                       loc.gettext("the default"), KlaverjasRules().trump_choice)


# ---------------------------------------------------------------------------------------------
# worked-deal


def worked_example(deals: Sequence[DealView], game: str) -> DealView | None:
    """The deal ``[[klab:worked-deal game=…]]`` tells: the first shipped deal of ``game`` tagged
    ``worked-example``, else the first played one (scored, not thrown in); None without one."""
    played = [deal for deal in deals if deal.game == game and deal.result is not None
              and deal.outcome not in ("thrown-in", "redeal") and deal.steps and deal.steps[-1].kind == "end"]
    return next((deal for deal in played if WORKED_TAG in deal.tags), played[0] if played else None)


def worked_deal(loc: Any, raw: dict[str, str], deals: Sequence[DealView] = ()) -> WorkedDeal | tuple[()]:
    """One shipped deal in full: hands, bidding, each trick, the score; nothing without one."""
    _check("worked-deal", raw, ("game",))
    deal = worked_example(deals, _game("worked-deal", raw))
    if deal is None:
        return ()
    return WorkedDeal(deal, deal.hands_step, f"deals/{deal.id}/", _first(loc, deal.game, deal.dealer))


PICTURES = {
    "card-rows": card_rows,
    "seating": seating,
    "trick-picture": trick_picture,
    "trump-choice": trump_choice,
}
"""The picture directives that need nothing but the engine (``worked-deal`` needs the shipped deals)."""
