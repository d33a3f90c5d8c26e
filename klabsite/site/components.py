"""The site's macros called from Python: the card component and the tables of the rules pages.

Markup lives in templates: ``templates/macros/cards.html`` draws a card, ``macros/tables.html`` a
directive's tables; Python hands them the plain values of :mod:`klabsite.site.views`. A
:class:`Components` wraps one language's Jinja environment (the :class:`~klabsite.site.render.Renderer`
makes one per language, so a project's own templates draw its pages), and is what the
:class:`~klabsite.site.i18n.Localizer` and the Markdown pipeline render through.

Outside a build (a directive called in a test, a doctest) :func:`bundled_components` draws with
the default site's templates.

>>> from klabsite.site.views import CardView, Code, Table
>>> components = bundled_components()
>>> html = str(components.card(CardView("h", "Q", "♥", "queen of hearts"), "is-played"))
>>> html[:html.index(" role")], html[html.index(">"):]
('<span class="card card-h is-played"', '>Q♥</span>')
>>> html = str(components.render(Table("Options & <values>", ("Option",), ((Code.option("deals"),),))))
>>> html[html.index("<caption>"):html.index("<tbody>")]
'<caption>Options &amp; &lt;values&gt;</caption><thead><tr><th scope="col">Option</th></tr></thead>'
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Callable, Iterable
from typing import Any

import jinja2
from markupsafe import Markup, escape

from klabsite.site.errors import BuildError
from klabsite.site.project import bundled_root
from klabsite.site.views import CardView, View, blocks

__all__ = ["Components", "CARDS_TEMPLATE", "TABLES_TEMPLATE", "PICTURES_TEMPLATE", "bundled_components",
           "template_options", "install_filters", "plain", "spoken"]

CARDS_TEMPLATE = "macros/cards.html"
"""The card component: the macros ``card(card, class="")`` and ``cards(cards, class="")``."""

TABLES_TEMPLATE = "macros/tables.html"
"""The directives' tables: the macro ``blocks(blocks)`` and the pieces it draws with."""

PICTURES_TEMPLATE = "macros/pictures.html"
"""The rules pages' pictures (card rows, the seating, a trick round the table, a worked deal)."""

_TAG = re.compile(r"<!--.*?-->|<[^>]*>", re.DOTALL)
_ASCII_SPACES = re.compile(r"[ \t\n\r\f\v]+")


def plain(value: object) -> Markup:
    """HTML as plain text for an attribute (``aria-label="{{ caption|plain }}"``): tags removed,
    runs of ASCII whitespace made one space. Unlike Jinja's ``striptags``, no-break spaces stay
    (French writes one before a colon, and a label read aloud must not lose it).

    >>> plain(Markup("Points <b>Nord–Sud</b>\\u00a0: <i>a</i>\\n b"))
    Markup('Points Nord–Sud\\xa0: a b')
    """
    text = _TAG.sub("", str(value))
    return Markup(escape(html.unescape(_ASCII_SPACES.sub(" ", text).strip())))


_LONE_SYMBOL = re.compile("[ \u00a0]+[\u2660-\u2667][\ufe0e\ufe0f]?(?=[\\s.,;:!?،؛)»”]|$)")


def spoken(value: object) -> Markup:
    """HTML as a name for a screen reader (``aria-label="{{ caption|spoken }}"``): as :func:`plain`,
    but a suit symbol standing alone after a suit's name (the Arabic «الكبّة ♥») is dropped, so
    that the label does not say the suit twice; a card's symbol (``K♥``) stays.

    >>> spoken(Markup("والحكم الكبّة ♥، K♥"))
    Markup('والحكم الكبّة، K♥')
    """
    return plain(Markup(_LONE_SYMBOL.sub("", str(value))))


def install_filters(environment: jinja2.Environment) -> None:
    """The filters every environment of the site has (the components' templates use them)."""
    environment.filters["plain"] = plain
    environment.filters["spoken"] = spoken


def template_options() -> dict[str, Any]:
    """How every Jinja environment of the site is configured (babel.cfg extracts with the same)."""
    return {"extensions": ["jinja2.ext.i18n"], "autoescape": True, "undefined": jinja2.StrictUndefined,
            "trim_blocks": True, "lstrip_blocks": True, "keep_trailing_newline": True}


class Components:
    """The macros of one Jinja environment, as Python callables returning :class:`~markupsafe.Markup`.

    ``display(filename)`` gives a template's path as error messages print it; a template that is
    missing or does not parse is a :class:`BuildError` at that template's line.
    """

    def __init__(self, environment: jinja2.Environment,
                 display: Callable[[str | None], str] = lambda filename: filename or "templates") -> None:
        self.environment = environment
        self.display = display

    @functools.cached_property
    def _cards(self) -> Any:
        return self._module(CARDS_TEMPLATE)

    @functools.cached_property
    def _tables(self) -> Any:
        return self._module(TABLES_TEMPLATE)

    def _module(self, name: str) -> Any:
        try:
            return self.environment.get_template(name).module
        except jinja2.TemplateNotFound as error:
            raise BuildError("this template is missing: the site's cards and rules tables are drawn by "
                             "its macros (copy it from a project that `klabsite init` makes)",
                             self.display(error.name if isinstance(error.name, str) else name)) from None
        except jinja2.TemplateSyntaxError as error:
            where = self.display(error.filename)
            raise BuildError(error.message or str(error), where, error.lineno) from None

    def card(self, card: CardView, class_: str = "") -> Markup:
        """One card glyph (the ``card`` macro), with the extra CSS classes ``class_``."""
        return Markup(self._cards.card(card, class_))

    def cards(self, cards: Iterable[CardView], class_: str = "") -> Markup:
        """Card glyphs separated by spaces (the ``cards`` macro)."""
        return Markup(self._cards.cards(tuple(cards), class_))

    def render(self, view: View) -> Markup:
        """A directive's tables and notes, as HTML (the ``blocks`` macro)."""
        return Markup(self._tables.blocks(blocks(view)))

    def directive(self, name: str, result: View | str) -> Markup:
        """A directive's place on a rules page (the ``directive`` macro): what directive ``name``
        returned, views or a string of HTML (trusted: written by the directive's code)."""
        content = Markup(result) if isinstance(result, str) else blocks(result)
        return Markup(self._tables.directive(name, content))


@functools.cache
def bundled_components() -> Components:
    """The default site's macros, for a localizer or a directive used outside a build."""
    templates = bundled_root() / "site_src" / "templates"
    environment = jinja2.Environment(loader=jinja2.FileSystemLoader(templates), **template_options())
    environment.install_null_translations(newstyle=True)  # type: ignore[attr-defined]
    install_filters(environment)
    return Components(environment, lambda filename: filename or str(templates))
