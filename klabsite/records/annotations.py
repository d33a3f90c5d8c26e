"""Annotations: the ``{NAME ARG …}`` remarks at the end of an action line, and the ``dd`` one.

docs/record-format.md, "Annotations". An annotation says something about an action without
changing what happened: the reader keeps every annotation (those it does not know too) in the
order read, and the writer puts them back after the action's words, one space before each.
They are not part of any id. The one klabsite knows is ``dd``, the double-dummy analysis of a
card play: every legal card with its value, best first, then deck order.

>>> words, annotations = split_annotations("7S  {dd 7h:-6 KS:-12 AS:-12 7S:-40}{seen-by W}")
>>> words, [str(annotation) for annotation in annotations]
('7S', ['{dd 7h:-6 KS:-12 AS:-12 7S:-40}', '{seen-by W}'])
>>> values = read_dd(annotations[0], played=Card.parse("7S"))
>>> str(dd_annotation(dict(values))), dd_cost(values, Card.parse("7S"))
('{dd 7H:-6 KS:-12 AS:-12 7S:-40}', 34)

What this module checks is what can be told from the line alone (the syntax, a card named twice,
the card played among those listed); that the cards are exactly the legal ones and come in
order is checked while replaying (:func:`check_dd`, called by :mod:`klabsite.records.replay`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from klabsite.engine.cards import Card, CardError
from klabsite.engine.text import LARGEST_NUMBER, quote, whole_number

__all__ = [
    "DD",
    "DdValues",
    "Annotation",
    "AnnotationError",
    "split_annotations",
    "read_dd",
    "dd_order",
    "dd_annotation",
    "dd_cost",
    "check_dd",
]

DD = "dd"
"""The name of the double-dummy annotation."""

DdValues = tuple[tuple[Card, int], ...]
"""A ``dd`` annotation read: each legal card with its value, in the annotation's order."""

_NAME = re.compile(r"[a-z0-9-]+")
_VALUE = re.compile(r"-?[0-9]+")


class AnnotationError(ValueError):
    """An annotation that cannot be read, or a ``dd`` that does not fit the position."""


@dataclass(frozen=True, slots=True)
class Annotation:
    """One ``{NAME ARG …}``: ``name`` is lower-case letters, digits and ``-``; each argument is a
    token without blanks, braces or ``;``. ``str()`` is its canonical text.

    >>> Annotation("dd", ("JH:12", "7C:0"))
    Annotation(name='dd', args=('JH:12', '7C:0'))
    >>> print(Annotation("seen"))
    {seen}
    """

    name: str
    args: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not _NAME.fullmatch(self.name):
            raise AnnotationError(f"annotation name {quote(self.name)}: use lower-case letters, digits and -")
        for arg in self.args:
            if not arg or any(char in arg for char in "{}; \t"):
                raise AnnotationError(f"annotation argument {quote(arg)}: a word without blanks, braces or ;")

    def __str__(self) -> str:
        return "{" + " ".join((self.name, *self.args)) + "}"


def split_annotations(text: str) -> tuple[str, tuple[Annotation, ...]]:
    """An action line's content (comment removed) as its words and its annotations, in order.

    Raises :class:`AnnotationError` for an unclosed ``{``, a stray ``}``, an empty ``{}``, a bad
    name, or words after the annotations.
    """
    start = text.find("{")
    if start < 0:
        if "}" in text:
            raise AnnotationError(f"a }} without its {{ in {quote(text)}: annotations are written "
                                  "{NAME ARG …}")
        return text.strip(), ()
    words, rest = text[:start].strip(), text[start:]
    annotations: list[Annotation] = []
    while rest:
        if not rest.startswith("{"):
            raise AnnotationError(f"{quote(rest)} after the annotations: annotations come last on the line, "
                                  "each as {NAME ARG …}")
        end = rest.find("}")
        if end < 0:
            raise AnnotationError(f"the annotation {quote(rest)} has no closing }}")
        inside = rest[1:end]
        if "{" in inside:
            raise AnnotationError(f"the annotation {quote(rest[:end + 1])} holds a {{: annotations do not "
                                  "nest")
        tokens = inside.split()
        if not tokens:
            raise AnnotationError("an empty annotation {}: write {NAME ARG …}")
        annotations.append(Annotation(tokens[0], tuple(tokens[1:])))
        rest = rest[end + 1:].lstrip()
    return words, tuple(annotations)


# --------------------------------------------------------------------------- dd


def dd_order(values: Mapping[Card, int] | Iterable[tuple[Card, int]]) -> DdValues:
    """The values in the ``dd`` order: highest value first, then deck order (C D H S, 7 … A).

    >>> [f"{card}:{value}" for card, value in dd_order({Card.parse("AS"): -12, Card.parse("KS"): -12,
    ...                                                  Card.parse("7H"): -6})]
    ['7H:-6', 'KS:-12', 'AS:-12']
    """
    items = values.items() if isinstance(values, Mapping) else values
    return tuple(sorted(items, key=lambda item: (-item[1], item[0].index)))


def dd_annotation(values: Mapping[Card, int]) -> Annotation:
    """The canonical ``dd`` annotation of each legal card's value."""
    return Annotation(DD, tuple(f"{card}:{value}" for card, value in dd_order(values)))


def dd_cost(values: DdValues, card: Card) -> int:
    """What playing ``card`` cost: the best value minus its value (0 for a best card)."""
    return max(value for _, value in values) - dict(values)[card]


def _dd_value(arg: str) -> tuple[Card, int]:
    card_text, colon, number = arg.rpartition(":")
    if not colon or not _VALUE.fullmatch(number):
        raise AnnotationError("dd takes CARD:VALUE pairs with whole-number values, e.g. {dd 7H:-6 KS:-12}, "
                              f"not {quote(arg)}")
    magnitude = whole_number(number.removeprefix("-"))
    assert magnitude is not None, "the pattern admits digits only"
    if magnitude > LARGEST_NUMBER:
        raise AnnotationError(f"dd value {quote(arg)} is beyond any real score")
    try:
        card = Card.parse(card_text)
    except CardError as error:
        raise AnnotationError(f"dd: {error}") from None
    return card, -magnitude if number.startswith("-") else magnitude


def read_dd(annotation: Annotation, played: Card | None = None) -> DdValues:
    """The cards and values of a ``dd`` annotation, in its order (raises :class:`AnnotationError`).

    ``played`` is the card of the action it annotates (``None`` if the action is not a card play,
    which carries no ``dd``); it must be among the cards listed.
    """
    if played is None:
        raise AnnotationError("only a card play carries a dd annotation")
    if not annotation.args:
        raise AnnotationError(f"an empty dd annotation: list every legal card with its value, e.g. "
                              f"{{dd {played}:0}}")
    values = tuple(_dd_value(arg) for arg in annotation.args)
    seen: set[Card] = set()
    for card, _ in values:
        if card in seen:
            raise AnnotationError(f"dd names {card} twice")
        seen.add(card)
    if played not in seen:
        raise AnnotationError(f"dd does not list the card played, {played}")
    return values


def check_dd(values: DdValues, legal: Iterable[Card], who: str, largest: int | None = None) -> None:
    """Raise :class:`AnnotationError` unless ``values`` name exactly the ``legal`` cards, in order,
    each value within ``largest`` either way (what a deal of the game can be worth, if given).

    ``who`` names the action in the message (``W 7S``).
    """
    if largest is not None:
        beyond = next(((card, value) for card, value in values if abs(value) > largest), None)
        if beyond is not None:
            raise AnnotationError(f"dd of {who} gives {beyond[0]} the value {beyond[1]}, but no deal can end "
                                  f"more than {largest} points apart: run klabsite analyse again")
    legal_cards = sorted(set(legal), key=lambda card: card.index)
    listed = [card for card, _ in values]
    allowed = ", ".join(map(str, legal_cards))
    missing = [card for card in legal_cards if card not in listed]
    if missing:
        lacking = ", ".join(map(str, missing))
        raise AnnotationError(f"dd of {who} lacks the legal card{'s' if len(missing) > 1 else ''} {lacking}: "
                              f"it lists every card that could be played, here {allowed}")
    extra = [card for card in listed if card not in legal_cards]
    if extra:
        named = ", ".join(map(str, extra))
        raise AnnotationError(f"dd of {who} names {named}, which could not be played here: it lists the "
                              f"legal cards {allowed}")
    ordered = dd_order(values)
    if ordered != values:
        expected = dd_annotation(dict(values))
        raise AnnotationError(f"dd of {who} is out of order: highest value first, then deck order "
                              f"(C D H S, each 7 to A); expected {expected}")
