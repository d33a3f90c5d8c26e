"""The :class:`Localizer`: one language's translations, numbers and card names, for templates and directives.

Every string here is written as a literal ``gettext``/``pgettext`` call so that ``pybabel extract``
(and ``klabsite i18n extract``) finds it and puts it in the ``messages`` catalog.

>>> from klabsite.engine.cards import Card
>>> en = Localizer.untranslated("en")
>>> en.card_name(Card.parse("QH")), en.number(1234), en.ngettext("%(num)s point", "%(num)s points", 2)
('queen of hearts', '1,234', '2 points')
>>> en.card_view(Card.parse("QH"))
CardView(suit='h', rank='Q', symbol='♥', name='queen of hearts', isolate=False)
>>> fr = Localizer.untranslated("fr")
>>> fr.card_view(Card.parse("JS")).rank, fr.card(Card.parse("JS")).striptags(), fr.number(1234.5)
('V', 'V♠', '1\\u202f234,5')
"""

from __future__ import annotations

import gettext as _gettext
import re
from collections.abc import Callable
from typing import Any, Literal

from babel.lists import format_list
from babel.numbers import format_decimal, format_percent
from babel.support import NullTranslations
from markupsafe import Markup, escape

from klabsite.engine.cards import Card, Rank, Suit
from klabsite.engine.seats import Seat, Side
from klabsite.site.catalogs import MARKUP_TAG, markup_tags
from klabsite.site.components import Components, bundled_components
from klabsite.site.config import LANGUAGES
from klabsite.site.views import CardView

__all__ = ["Localizer", "HtmlTranslations", "as_html", "RANK_LETTERS", "TEXT_DIRECTIONS", "GAME_WORDS"]

TEXT_DIRECTIONS = {language.code: language.dir for language in LANGUAGES if language.dir != "ltr"}
"""The site's languages written right to left (Arabic); every other language is ``ltr``."""

RANK_LETTERS: dict[str, dict[Rank, str]] = {
    "en": {Rank.JACK: "J", Rank.QUEEN: "Q", Rank.KING: "K", Rank.ACE: "A"},
    "fr": {Rank.JACK: "V", Rank.QUEEN: "D", Rank.KING: "R", Rank.ACE: "A"},
}
"""The rank letters players write (glossary §3): French writes V D R; es, hr and ar use J Q K."""

MINIMUM_GROUPING = {"es": 2}
"""CLDR's ``minimumGroupingDigits`` where it is not 1 (Babel does not apply it): Spanish puts no
separator in a four-digit number (``1504``, ``12.345``)."""

ListStyle = Literal["standard", "or"]
"""The CLDR list patterns the site uses: ``a, b and c`` and ``a, b or c``."""

_SUIT_SYMBOLS = re.compile("[\u2660-\u2667\ufe0e\ufe0f]")
"""The suit symbols (black and white: ♠ ♡ ♢ ♣ ♤ ♥ ♦ ♧) and the variation selectors after them."""
_SPACES = re.compile(r"[ \t\n]+")

GAME_WORDS: dict[str, str] = {"roem": "nl", "stuk": "nl", "pit": "nl", "nat": "nl", "schmeiss": "de",
                              "dix": "fr", "capot": "fr"}
"""The game's words every language borrows, each with the language it comes from."""

_GAME_WORD = re.compile(r"(?<![\w-])(" + "|".join(GAME_WORDS) + r")(?![\w-])", re.IGNORECASE)
_TAG = re.compile(r"(<[^>]*>)")
_NUMBER_LETTERS = {Rank.SEVEN: "7", Rank.EIGHT: "8", Rank.NINE: "9", Rank.TEN: "10"}
_HTML_SPECIAL = frozenset("<>&\"'")


def as_html(text: str, *sources: str) -> Markup:
    """``text`` (a translation) as HTML: escaped, except the tags that its ``sources`` (msgids) have.

    The catalog check lets a translation repeat its msgid's tags and nothing else; this keeps
    exactly those and escapes every other ``<``, ``&`` and quote, so the text is safe in an
    element and in a quoted attribute alike.

    >>> as_html('Langue" onmouseover="alert(1)', "Language")
    Markup('Langue&#34; onmouseover=&#34;alert(1)')
    >>> as_html("appuyez sur <kbd>Entrée</kbd> & <b>", "press <kbd>Enter</kbd>")
    Markup('appuyez sur <kbd>Entrée</kbd> &amp; &lt;b&gt;')
    """
    if _HTML_SPECIAL.isdisjoint(text):
        return Markup(text)
    allowed = {tag for source in sources for tag in markup_tags(source)}
    parts: list[str] = []
    start = 0
    for match in MARKUP_TAG.finditer(text):
        if " ".join(match.group(0).split()) in allowed:
            parts += [escape(text[start:match.start()]), match.group(0)]
            start = match.end()
    parts.append(escape(text[start:]))
    return Markup("".join(parts))


def _formatted(message: str, text: str, variables: dict[str, Any]) -> str:
    """``text`` (the translation of ``message``) formatted with ``variables``; without them, only
    when ``message`` has no placeholders (the catalog check gives its translation none either)."""
    if variables:
        return text % variables
    return text if "%(" in message or "%%" not in text else text.replace("%%", "%")


class HtmlTranslations:
    """One language's interface translations as the templates receive them: HTML, never raw text.

    Jinja's i18n extension marks whatever ``gettext`` returns as safe HTML (``Markup``) when
    autoescaping, so a ``"`` in a msgstr would end ``aria-label="{{ _('Language') }}"`` and start
    an attribute of the translator's. Installed in place of the translations themselves, this
    escapes every string (msgid or msgstr) with :func:`as_html`. Variables (``%(date)s``) are
    then escaped by Jinja as usual. A template writes characters, not entities: ``&nbsp;`` in a
    msgid would show as typed.
    """

    def __init__(self, translations: _gettext.NullTranslations) -> None:
        self.translations = translations
        self._done: dict[str, Markup] = {}
        self._done_in: dict[tuple[str, str], Markup] = {}
        self._formatted: dict[str, Markup] = {}
        self._formatted_in: dict[tuple[str, str], Markup] = {}

    def template_globals(self) -> dict[str, Callable[..., Markup]]:
        """``_``, ``gettext`` and ``pgettext`` for a Jinja environment these translations are
        installed in (new style): the same results as the i18n extension's own, which call through
        the template context three times and format the words again on every use; words without
        variables are formatted once."""
        return {"_": self.formatted, "gettext": self.formatted, "pgettext": self.formatted_in}

    def formatted(self, message: str, /, **variables: Any) -> Markup:
        """New-style ``gettext`` in a template: the translation, formatted with ``variables``
        (always formatted, so ``%%`` is ``%``)."""
        if variables:
            return self.gettext(message) % variables
        done = self._formatted.get(message)
        if done is None:
            done = self._formatted[message] = self.gettext(message) % {}
        return done

    def formatted_in(self, context: str, message: str, /, **variables: Any) -> Markup:
        """New-style ``pgettext`` in a template (``context`` is also a variable, as in Jinja's)."""
        if variables:
            variables.setdefault("context", context)
            return self.pgettext(context, message) % variables
        done = self._formatted_in.get((context, message))
        if done is None:
            done = self.pgettext(context, message) % {"context": context}
            self._formatted_in[context, message] = done
        return done

    def gettext(self, message: str) -> Markup:
        """The translation of ``message``, as HTML (remembered: pages ask for the same words often)."""
        done = self._done.get(message)
        if done is None:
            done = self._done[message] = as_html(self.translations.gettext(message), message)
        return done

    def ngettext(self, singular: str, plural: str, n: int) -> Markup:
        """The plural form for ``n``, as HTML."""
        return as_html(self.translations.ngettext(singular, plural, n), singular, plural)

    def pgettext(self, context: str, message: str) -> Markup:
        """The translation of ``message`` in ``context``, as HTML (remembered)."""
        done = self._done_in.get((context, message))
        if done is None:
            done = as_html(self.translations.pgettext(context, message), message)
            self._done_in[context, message] = done
        return done

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> Markup:
        """:meth:`ngettext` with a context."""
        return as_html(self.translations.npgettext(context, singular, plural, n), singular, plural)


class Localizer:
    """Translations and formatting for one language.

    ``gettext``, ``ngettext``, ``pgettext`` and ``npgettext`` work like Jinja's new-style gettext:
    keyword arguments are substituted into ``%(name)s`` placeholders, and the plural functions
    also provide ``num`` (the count, formatted for the language).

    ``components`` are the macros that draw cards (the language's Jinja environment's, given by
    the :class:`~klabsite.site.render.Renderer`); by default, those of the default site's templates.
    """

    def __init__(self, lang: str, translations: _gettext.NullTranslations, dir: str | None = None,
                 components: Components | None = None) -> None:
        self.lang = lang
        self.dir = dir or TEXT_DIRECTIONS.get(lang, "ltr")
        self.translations = translations
        self._components = components
        self._names: dict[str, dict[Any, str]] | None = None
        self._glyphs: dict[tuple[Card, str, bool], Markup] = {}

    @property
    def components(self) -> Components:
        """The macros that draw this language's cards and tables."""
        if self._components is None:
            self._components = bundled_components()
        return self._components

    @classmethod
    def untranslated(cls, lang: str) -> Localizer:
        """A localizer that formats for ``lang`` but leaves every string in English (tests, English)."""
        return cls(lang, NullTranslations())

    def __repr__(self) -> str:
        return f"Localizer({self.lang!r})"

    # Messages -----------------------------------------------------------------------------

    def gettext(self, message: str, **variables: Any) -> str:
        """The translation of ``message``, with ``variables`` substituted when given.

        Without variables, a message that has no placeholders is formatted all the same (its
        ``%%`` is a ``%``), and one that has them is returned as written, a template for
        :func:`~klabsite.site.views.phrase`.

        >>> class Fr(NullTranslations):
        ...     def gettext(self, message):
        ...         return {"Score": "Marque (100 %%)", "%(n)s left": "%(n)s (100 %%)"}[message]
        >>> fr = Localizer("fr", Fr())
        >>> fr.gettext("Score"), fr.gettext("%(n)s left"), fr.gettext("%(n)s left", n=2)
        ('Marque (100 %)', '%(n)s (100 %%)', '2 (100 %)')
        """
        return _formatted(message, self.translations.gettext(message), variables)

    def ngettext(self, singular: str, plural: str, n: int, **variables: Any) -> str:
        """The plural form for ``n``; ``%(num)s`` is ``n`` formatted for the language."""
        text = self.translations.ngettext(singular, plural, n)
        return text % {"num": self.number(n), **variables}

    def pgettext(self, context: str, message: str, **variables: Any) -> str:
        """The translation of ``message`` in ``context`` (e.g. ``pgettext("rank", "queen")``)."""
        return _formatted(message, self.translations.pgettext(context, message), variables)

    def npgettext(self, context: str, singular: str, plural: str, n: int, **variables: Any) -> str:
        """:meth:`ngettext` with a context."""
        text = self.translations.npgettext(context, singular, plural, n)
        return text % {"num": self.number(n), **variables}

    # Numbers ------------------------------------------------------------------------------

    def number(self, n: float) -> str:
        """``n`` written the language's way (``1 234,5`` in French); Western digits throughout.

        A language whose CLDR data groups digits only from five on (:data:`MINIMUM_GROUPING`)
        writes a four-digit number whole: ``1504`` in Spanish, but ``12.345``.
        """
        grouped = abs(n) >= 10 ** (2 + MINIMUM_GROUPING.get(self.lang, 1))
        return format_decimal(n, locale=self.lang, group_separator=grouped)

    def percent(self, fraction: float) -> str:
        """``fraction`` (0–1) as a percentage written the language's way."""
        return format_percent(fraction, locale=self.lang)

    # Lists --------------------------------------------------------------------------------

    def join(self, items: list[Any] | tuple[Any, ...], style: ListStyle = "standard") -> Markup:
        """Items joined the language's way (Babel's CLDR list patterns), as HTML.

        ``style`` is ``"standard"`` (``a, b and c``) or ``"or"`` (``a, b or c``); items may be
        :class:`~markupsafe.Markup` (kept as HTML) or plain text (escaped).

        >>> fr = Localizer.untranslated("fr")
        >>> str(fr.join(["<a>", Markup("<b>x</b>"), "c"]))
        '&lt;a&gt;, <b>x</b> et c'
        >>> str(Localizer.untranslated("ar").join(["1", "2"], "or"))
        '1 أو 2'
        """
        return Markup("").join(escape(part) for part in self.list_parts(items, style))

    def list_parts(self, items: list[Any] | tuple[Any, ...], style: ListStyle = "standard") -> list[Any]:
        """The items with the language's words and commas between them (plain strings), in order.

        >>> Localizer.untranslated("en").list_parts([1, 2, 3], "or")
        [1, ', ', 2, ', or ', 3]
        """
        if not items:
            return []
        marks = [f"\x00{index}\x00" for index in range(len(items))]
        parts = re.split("\x00(\\d+)\x00", format_list(marks, style=style, locale=self.lang))
        return [items[int(part)] if index % 2 else part
                for index, part in enumerate(parts) if index % 2 or part]

    def separator(self) -> str:
        """The separator of items that may themselves contain commas (``;`` in English)."""
        # TRANSLATORS: separates items that contain commas, e.g. "K♥ partner, winning; 8♥ opponent".
        # Keep the spaces; French writes a narrow no-break space before the semicolon, Arabic "؛ ".
        return self.pgettext("list separator", "; ")

    # Cards and seats ------------------------------------------------------------------------

    def _table(self, name: str) -> dict[Any, str]:
        if self._names is None:
            self._names = {
                "rank": {
                    Rank.SEVEN: self.pgettext("rank", "seven"),
                    Rank.EIGHT: self.pgettext("rank", "eight"),
                    Rank.NINE: self.pgettext("rank", "nine"),
                    Rank.TEN: self.pgettext("rank", "ten"),
                    Rank.JACK: self.pgettext("rank", "jack"),
                    Rank.QUEEN: self.pgettext("rank", "queen"),
                    Rank.KING: self.pgettext("rank", "king"),
                    Rank.ACE: self.pgettext("rank", "ace"),
                },
                "rank object": {
                    # TRANSLATORS: (every "rank, as an object" message) the rank's name where the
                    # card is what a player plays, declares, shows, keeps or holds ("South plays
                    # the jack of hearts"): the accusative in a language with cases (Croatian
                    # "dečka"), else the same word as the rank's name.
                    Rank.SEVEN: self.pgettext("rank, as an object", "seven"),
                    Rank.EIGHT: self.pgettext("rank, as an object", "eight"),
                    Rank.NINE: self.pgettext("rank, as an object", "nine"),
                    Rank.TEN: self.pgettext("rank, as an object", "ten"),
                    Rank.JACK: self.pgettext("rank, as an object", "jack"),
                    Rank.QUEEN: self.pgettext("rank, as an object", "queen"),
                    Rank.KING: self.pgettext("rank, as an object", "king"),
                    Rank.ACE: self.pgettext("rank, as an object", "ace"),
                },
                "suit": {
                    Suit.CLUBS: self.pgettext("suit", "clubs"),
                    Suit.DIAMONDS: self.pgettext("suit", "diamonds"),
                    Suit.HEARTS: self.pgettext("suit", "hearts"),
                    Suit.SPADES: self.pgettext("suit", "spades"),
                },
                "seat": {
                    Seat.N: self.pgettext("seat", "North"),
                    Seat.E: self.pgettext("seat", "East"),
                    Seat.S: self.pgettext("seat", "South"),
                    Seat.W: self.pgettext("seat", "West"),
                },
                "side": {
                    Side.NS: self.pgettext("side", "North–South"),
                    Side.EW: self.pgettext("side", "East–West"),
                },
            }
        return self._names[name]

    def rank_name(self, rank: Rank) -> str:
        """The rank's name in running text (``dame``, ``dečko``)."""
        return self._table("rank")[rank]

    def suit_name(self, suit: Suit) -> str:
        """The suit's name in running text (``cœur``, ``herc``)."""
        return self._table("suit")[suit]

    def seat_name(self, seat: Seat) -> str:
        """The seat's name (``Nord``)."""
        return self._table("seat")[seat]

    def side_name(self, side: Side) -> str:
        """The Klaverjas side's name (``Nord–Sud``)."""
        return self._table("side")[side]

    def tag_label(self, tag: str, game: str) -> str | None:
        """A tag word of record-format.md as readers see it, a short name in the language (``pit``
        is ``pit``, ``bella`` in Klaverjas is ``stuk``); None for a word a record's author added."""
        if tag == "bella":
            # TRANSLATORS: (every "tag" message) a short name of something that happens in a deal,
            # listed after each deal in the gallery ("schmeiss, dix and the maker fails"), on its
            # overview and in a rule's link to a deal ("See it happen in a deal, step by step: pit").
            stuk, bella = self.pgettext("tag", "stuk"), self.pgettext("tag", "bella")
            return stuk if game == "klaverjas" else bella
        labels = {
            "schmeiss": self.pgettext("tag", "schmeiss"),
            "dix": self.pgettext("tag", "dix"),
            "bella-declined": self.pgettext("tag", "bella kept quiet"),
            "sequence-duel": self.pgettext("tag", "sequences on both sides"),
            "maker-failed": self.pgettext("tag", "the maker fails"),
            "tie": self.pgettext("tag", "tie"),
            "hanging-points": self.pgettext("tag", "hanging points"),
            "nat": self.pgettext("tag", "nat"),
            "pit": self.pgettext("tag", "pit"),
            "capot": self.pgettext("tag", "capot"),
            "roem-100": self.pgettext("tag", "100 roem"),
            "roem-200": self.pgettext("tag", "200 roem"),
            "last-trick-decides": self.pgettext("tag", "the last trick decides"),
            "blunder": self.pgettext("tag", "a costly card"),
            "thrown-in": self.pgettext("tag", "thrown in"),
            "worked-example": self.pgettext("tag", "worked example"),
        }
        return labels.get(tag)

    def rank_letter(self, rank: Rank) -> str:
        """The letter (or number) printed for the rank: ``V`` for the French jack, ``10`` for a ten."""
        if rank in _NUMBER_LETTERS:
            return _NUMBER_LETTERS[rank]
        return RANK_LETTERS.get(self.lang, RANK_LETTERS["en"])[rank]

    def card_name(self, card: Card, as_object: bool = False) -> str:
        """The card's full name (``dame de cœur``); ``as_object``: as the object of a verb, in
        the case a language gives it there (the Croatian ``Jug igra dečka karo``)."""
        rank = self._table("rank object" if as_object else "rank")[card.rank]
        return self.pgettext("card name, e.g. queen of hearts", "%(rank)s of %(suit)s",
                             rank=rank, suit=self.suit_name(card.suit))

    def card_view(self, card: Card, as_object: bool = False) -> CardView:
        """The card as the ``card`` macro draws it: its letters in this language and its name.

        The name is what a screen reader says for the glyph (its ``aria-label``): the suit's
        symbol is left out of it even where a language's suit names carry one (the Arabic
        «الكبّة ♥»), as the glyph already shows it and the name must not say the suit twice.

        >>> class Ar(NullTranslations):
        ...     def pgettext(self, context, message):
        ...         names = {"hearts": "الكبّة ♥", "%(rank)s of %(suit)s": "%(rank)s %(suit)s"}
        ...         return names.get(message, message)
        >>> Localizer("ar", Ar()).card_view(Card.parse("JH")).name
        'jack الكبّة'
        """
        name = _SPACES.sub(" ", _SUIT_SYMBOLS.sub("", self.card_name(card, as_object))).strip()
        return CardView(card.suit.letter.lower(), self.rank_letter(card.rank), card.suit.symbol,
                        name, self.dir == "rtl")

    def card_views(self, cards: list[Card] | tuple[Card, ...],
                   as_object: bool = False) -> tuple[CardView, ...]:
        """:meth:`card_view` of each card."""
        return tuple(self.card_view(card, as_object) for card in cards)

    def card(self, card: Card, class_: str = "", as_object: bool = False) -> Markup:
        """The card as a small styled glyph, named for screen readers (the ``card`` macro);
        ``as_object`` names it as the object of a verb (see :meth:`card_name`).

        In a right-to-left language the glyph is isolated as left to right (``dir="ltr"``). Each
        glyph is drawn once (a deal's pages show the same 32 cards again and again).
        """
        key = (card, class_, as_object)
        glyph = self._glyphs.get(key)
        if glyph is None:
            glyph = self._glyphs[key] = self.components.card(self.card_view(card, as_object), class_)
        return glyph

    def cards(self, cards: list[Card] | tuple[Card, ...], as_object: bool = False) -> Markup:
        """Several card glyphs separated by spaces (the ``cards`` macro)."""
        return self.components.cards(self.card_views(cards, as_object))

    def mark_borrowed(self, html: Markup | str) -> Markup:
        """``html`` with each borrowed game word of its text (:data:`GAME_WORDS`) marked with its
        language, so that a screen reader says it as a word of that language: ``pali su
        (<span lang="nl">nat</span>)``. Tags and attributes are left alone, and so is a word on a
        page of its own language (*dix* in French) or with an ending (the Croatian *roema*).

        >>> Localizer.untranslated("hr").mark_borrowed(Markup('Roem: <b title="pit">pit</b>, roema'))
        Markup('<span lang="nl">Roem</span>: <b title="pit"><span lang="nl">pit</span></b>, roema')
        >>> Localizer.untranslated("fr").mark_borrowed("dix, nat")
        Markup('dix, <span lang="nl">nat</span>')
        """
        def mark(match: re.Match[str]) -> str:
            lang = GAME_WORDS[match.group(1).casefold()]
            return match.group(0) if lang == self.lang else f'<span lang="{lang}">{match.group(0)}</span>'

        parts = _TAG.split(str(escape(html)))
        parts[::2] = [_GAME_WORD.sub(mark, text) for text in parts[::2]]
        return Markup("".join(parts))

    def escape(self, text: str) -> Markup:
        """HTML-escape text (for directive authors building HTML by hand)."""
        return escape(text)
