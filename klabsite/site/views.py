"""What the site's macros draw: plain, frozen values computed in Python, with no markup in them.

Python computes (the rules engine, the :class:`~klabsite.site.i18n.Localizer`'s translations and
numbers); the Jinja macros in ``templates/macros/`` turn these values into HTML
(:class:`~klabsite.site.components.Components` calls them from Python). Every text in a view is
plain text: the macros escape it.

A *cell* (of a table, a caption, a note) is one of:

- a ``str``: text, a number already formatted for the language, a translated word;
- a :class:`CardView` (one card glyph) or :class:`Cards` (a run of them);
- a :class:`Code` (an option as code), :class:`SideName` (a Klaverjas side's name);
- :class:`Strong` or :class:`Link` around another cell;
- a :class:`Run`: cells one after the other, e.g. a translated sentence with cards or options in
  it (:func:`phrase`) or a list joined the language's way;
- a :class:`Trick`: the plays of a trick so far.

A directive returns *blocks*: a :class:`Table` (whose head may hold a :class:`HeadGroup`), a
:class:`Note`, or a tuple of them.

Each view names its macro in ``kind`` (a class attribute, not a field).

>>> phrase("%(points)s with %(option)s (the default)", points="50", option=Code.option("long-sequence=50"))
Run(parts=('50', ' with ', Code(parts=('long-sequence=', '50'), isolate=False, lang=None), ' (the default)'))
>>> phrase("100%% of %(n)s", n="8").parts
('100% of ', '8')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar, TypeAlias

__all__ = ["CardView", "Cards", "Code", "Number", "SideName", "Strong", "Link", "Run", "Trick", "HeadGroup",
           "Table", "Note", "Cell", "Block", "View", "phrase", "blocks"]


@dataclass(frozen=True, slots=True)
class CardView:
    """One card as a page shows it: the values of the ``card`` macro (``macros/cards.html``).

    Built by :meth:`Localizer.card_view <klabsite.site.i18n.Localizer.card_view>`:

    - ``suit``: the suit's letter in lower case (``h``), which names the CSS class ``card-h``;
    - ``rank``: the rank as printed in the language (``Q``, the French ``D``, ``10``);
    - ``symbol``: the suit's symbol (``♥``);
    - ``name``: the card's accessible name in the language (``queen of hearts``);
    - ``isolate``: the page is right to left, so the glyph is isolated as left to right.
    """

    kind: ClassVar[str] = "card"
    suit: str
    rank: str
    symbol: str
    name: str
    isolate: bool = False


@dataclass(frozen=True, slots=True)
class Cards:
    """Several cards in a row (a hand, a trick, a sequence), separated by spaces."""

    kind: ClassVar[str] = "cards"
    cards: tuple[CardView, ...]


@dataclass(frozen=True, slots=True)
class Code:
    """An option as code: ``parts`` are the pieces between which the line may break.

    ``isolate``: the page is right to left, so the code is isolated as left to right, and does not
    break at all (a break inside an isolate scrambles it with the punctuation around it).
    ``lang``: the page's language is not English (``en``), so the code says it is English.
    """

    kind: ClassVar[str] = "code"
    parts: tuple[str, ...]
    isolate: bool = False
    lang: str | None = None

    @classmethod
    def option(cls, text: str, isolate: bool = False, lang: str | None = None) -> Code:
        """``name=value`` may break only after the ``=`` (never at a hyphen in a name or value).

        >>> Code.option("equal-meld=neither").parts, Code.option("deals").parts
        (('equal-meld=', 'neither'), ('deals',))
        """
        name, sep, value = text.partition("=")
        return cls((name + sep, value) if sep else (text,), isolate, lang)


@dataclass(frozen=True, slots=True)
class Number:
    """A number already written the language's way (``1 234``): in a table, its cell is aligned
    to the end (``class="number"``), so the digits line up."""

    kind: ClassVar[str] = "number"
    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class SideName:
    """A Klaverjas side's name (``East–West``), kept on one line."""

    kind: ClassVar[str] = "side"
    text: str


@dataclass(frozen=True, slots=True)
class Strong:
    """A cell in bold (the default value of an option)."""

    kind: ClassVar[str] = "strong"
    content: Cell


@dataclass(frozen=True, slots=True)
class Link:
    """A cell that links to ``href`` (a page of the same language, with its anchor)."""

    kind: ClassVar[str] = "link"
    href: str
    content: Cell


@dataclass(frozen=True, slots=True)
class Trick:
    """The plays of a trick so far (each a cell holding its card), between ``separator``s."""

    kind: ClassVar[str] = "trick"
    plays: tuple[Cell, ...]
    separator: str


@dataclass(frozen=True, slots=True)
class Run:
    """Cells one after the other, with nothing between them."""

    kind: ClassVar[str] = "run"
    parts: tuple[Cell, ...]


Cell: TypeAlias = "str | Number | CardView | Cards | Code | SideName | Strong | Link | Run | Trick"
"""What a table cell, a caption or a note holds (see the module docstring)."""


@dataclass(frozen=True, slots=True)
class HeadGroup:
    """A column heading over several columns, each with a heading of its own under it ("Score"
    over "North–South" and "East–West"): the table's head then takes two rows."""

    kind: ClassVar[str] = "group"
    label: Cell
    columns: tuple[Cell, ...]


@dataclass(frozen=True, slots=True)
class Table:
    """A table whose first column holds row headers, in a focusable, labelled scroll region.

    The region is labelled with the caption's text; ``css`` is an extra class of the ``<table>``.
    A :class:`HeadGroup` in ``head`` stands for its columns; an empty string is the blank corner
    above the row headers.
    """

    kind: ClassVar[str] = "table"
    caption: Cell
    head: tuple[Cell | HeadGroup, ...]
    rows: tuple[tuple[Cell, ...], ...]
    foot: tuple[tuple[Cell, ...], ...] = ()
    css: str = ""

    @property
    def grouped(self) -> bool:
        """Whether a heading stands over several columns (the head takes two rows)."""
        return any(isinstance(head, HeadGroup) for head in self.head)


@dataclass(frozen=True, slots=True)
class Note:
    """A paragraph under a table: its sentences, separated by spaces."""

    kind: ClassVar[str] = "note"
    sentences: tuple[Cell, ...]


Block: TypeAlias = "Table | Note"
View: TypeAlias = "Block | tuple[Block, ...]"
"""What a directive returns."""

_PLACEHOLDER = re.compile(r"%(?:\((\w+)\)s|(%))|%")


def phrase(template: str, **parts: Cell) -> Run:
    """A translated ``template`` with its ``%(name)s`` placeholders replaced by the cells ``parts``.

    ``%%`` is a ``%``; any other ``%`` is a :class:`ValueError` (as with ``template % parts``), and
    a placeholder without its part a :class:`KeyError`.
    """
    out: list[Cell] = []
    start = 0
    text = ""
    for match in _PLACEHOLDER.finditer(template):
        text += template[start:match.start()]
        start = match.end()
        name, percent = match.groups()
        if percent:
            text += "%"
            continue
        if name is None:
            raise ValueError(f"unsupported format character at index {match.start()} of {template!r}")
        if text:
            out.append(text)
        out.append(parts[name])
        text = ""
    text += template[start:]
    if text:
        out.append(text)
    return Run(tuple(out))


def blocks(view: View) -> tuple[Block, ...]:
    """A directive's view as a tuple of blocks.

    >>> blocks(Note(("x",)))
    (Note(sentences=('x',)),)
    """
    return view if isinstance(view, tuple) else (view,)
