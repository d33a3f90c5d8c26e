"""The replay pages' repeated parts: macros drawn once per set of arguments, and the filters the
replay templates use.

A step page redraws little: most steps change one hand, the trick or the score. The parts that
did not change (a seat's hand, the middle of the table, a row of the step list) are drawn by the
macros of ``macros/replay.html`` once and reused, remembered by the values their markup depends on.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from typing import Any

import jinja2
from markupsafe import Markup

from klabsite.engine.cards import Suit
from klabsite.engine.events import TrickWon
from klabsite.engine.roem import roem_cards, roem_parts
from klabsite.records.tags import BLUNDER_COST

__all__ = ["ReplayParts", "install_replay_parts"]


def install_replay_parts(env: jinja2.Environment) -> None:
    """Give a language's environment the replay templates' ``memo``, their filters and
    ``costly_cost``, the cost from which a card is listed among a deal's costly cards."""
    env.filters["kind"] = _kind
    env.filters["roem_parts"] = _trick_roem_parts
    env.filters["roem_cards"] = _roem_cards
    env.globals["memo"] = ReplayParts(env)
    env.globals["costly_cost"] = BLUNDER_COST


class ReplayParts:
    """The replay macros that draw the same thing many times, remembered by their arguments.

    A deal's slot (a card in a hand, with its state) or step link is drawn on every step page of
    the deal; the macro of ``macros/replay.html`` draws it once per language and the markup is
    reused. The arguments are frozen values, so equal arguments draw equal markup.
    """

    def __init__(self, env: jinja2.Environment) -> None:
        self._env = env
        self._macros: Any = None
        self._drawn: dict[tuple[Any, ...], Markup] = {}

    @property
    def macros(self) -> Any:
        """The template module of ``macros/replay.html`` (loaded on first use)."""
        if self._macros is None:
            self._macros = self._env.get_template("macros/replay.html").module
        return self._macros

    def _remember(self, key: tuple[Any, ...], draw: Callable[[], str]) -> Markup:
        """What ``draw`` makes, drawn once per ``key`` (the values the markup depends on)."""
        drawn = self._drawn.get(key)
        if drawn is None:
            drawn = self._drawn[key] = Markup(draw())
        return drawn

    @functools.cache  # noqa: B019 (one object per language environment, kept for the whole build)
    def slot(self, item: Any, cost: int | None, melded: bool = False, numbered: bool = False,
             new_suit: bool = False) -> Markup:
        """One card place in a hand; ``melded`` marks a card of a sequence declared in the step,
        ``numbered`` shows under a played card the trick it went to, ``new_suit`` marks the first
        card of a suit after another suit."""
        return Markup(self.macros.slot(item, cost, melded, numbered, new_suit))

    def hand(self, deal: Any, step: Any, who: Any, heading: str = "h2") -> Markup:
        """A seat's hand on a step page: drawn again only when something in it changed (most
        steps change one hand). The acting seat's cards carry their costs, unless every card the
        rules allow is worth the same (a ✓ on each would read as "allowed", not "best"). On the
        score step each played card shows the number of its trick."""
        table = step.table
        acting = step.step.seat == who
        marked = step.dd and acting and not step.all_equal
        costs = tuple((card, cost) for card, _value, cost in step.dd) if marked else ()
        melded = step.melded(who)
        numbered = step.kind == "end"
        key = ("hand", id(deal), who, table.hands[who], costs, melded, acting, table.won_by == who,
               table.maker == who, heading, numbered)
        return self._remember(key, lambda: self.macros.hand(
            deal, step, who, heading, self._slots(table.hands[who], dict(costs), melded, numbered)))

    def _slots(self, items: Any, costs: dict[Any, int], melded: frozenset[Any], numbered: bool) -> Markup:
        """The card places of a hand, with the acting seat's costs, the step's sequences on its
        cards and, if ``numbered``, the trick of each played card. Where a suit follows another,
        the card is marked, so that West's and East's hands can start a row with each suit; a card
        still to come is not, as its place must not tell its suit."""
        shown = [item for item in items if item.state != "coming"]
        new_suits = {later.card for earlier, later in itertools.pairwise(shown)
                     if later.card.suit != earlier.card.suit}
        return Markup("".join([self.slot(item, costs.get(item.card), item.card in melded, numbered,
                                         item.card in new_suits)
                               for item in items]))

    def hands(self, deal: Any, step: Any, heading: str = "h2") -> Markup:
        """Every seat's hand, in the deal's order of seats."""
        return Markup("".join([self.hand(deal, step, who, heading) for who in deal.seats]))

    def middle(self, deal: Any, step: Any, box: str = "section") -> Markup:
        """The middle of the table (the trick, the upcard, the stock): drawn again only when it
        changed."""
        table = step.table
        key = ("middle", box, deal.game, table.trump, table.trick, table.trick_number, table.won_by,
               table.upcard, table.dix, table.proposed, table.stock, table.bottom, table.tricks[-2:])
        return self._remember(key, lambda: self.macros.middle(deal, step, box))

    def figures(self, deal: Any, step: Any, option_links: Any = None) -> Markup:
        """Trump, maker, dealer and the scoreboard (not on the score step, whose breakdown
        replaces it), and the deal's rules where they are not the standard ones (``option_links``:
        where each option is explained): drawn again only when a figure changed (at most once a
        trick)."""
        table = step.table
        key = ("figures", id(deal), step.kind == "end", table.trump, table.maker, tuple(table.points.items()),
               tuple(step.last_trick.items()), tuple(table.roem.items()), tuple(table.bella.items()),
               tuple(table.melds.items()))
        return self._remember(key, lambda: self.macros.figures(deal, step, option_links or {}))

    @functools.cache  # noqa: B019
    def deal_name(self, deal: Any) -> Markup:
        """A deal's name (``Klaverjas · deal 3``)."""
        return Markup(self.macros.deal_name(deal))

    @functools.cache  # noqa: B019
    def step_name(self, deal: Any, step: Any) -> Markup:
        """A step's name (``Trick 3, card 2: North``)."""
        return Markup(self.macros.step_name(deal, step))

    @functools.cache  # noqa: B019
    def seat(self, deal: Any, who: Any) -> Markup:
        """A seat's name with its player's."""
        return Markup(self.macros.seat(deal, who))

    @functools.cache  # noqa: B019
    def key_name(self, deal: Any, key: str) -> Markup:
        """The name of a score's player or side."""
        return Markup(self.macros.key_name(deal, key))

    @functools.cache  # noqa: B019
    def score(self, deal: Any) -> Markup:
        """The deal's score explained in a sentence."""
        return Markup(self.macros.score(deal))

    def share(self, deal: Any, title: str, image: str | None) -> Markup:
        """The preview a shared link shows (its title is the page's own: nothing to remember)."""
        return Markup(self.macros.share(deal, title, image))

    @functools.cache  # noqa: B019
    def share_description(self, deal: Any) -> Markup:
        """What a shared link of the deal says, on every page of the deal."""
        return Markup(self.macros.share_description(deal))

    def step_group(self, deal: Any, group: Any, at: int | None) -> Markup:
        """A row of a deal's step list; a closed row (the page's step is elsewhere) is drawn once."""
        if at is not None:
            return Markup(self.macros.step_group(deal, group, at))
        return self._remember(("group", id(deal), group.kind, group.trick),
                              lambda: self.macros.step_group(deal, group))

    def step_groups(self, deal: Any, groups: Any, current: Any) -> Markup:
        """Every row of a deal's step list; the row holding the ``current`` step (if any) open."""
        rows = [self.step_group(deal, group, current.index if current and current in group.steps else None)
                for group in groups]
        return Markup("".join(rows))

    @functools.cache  # noqa: B019
    def group_label(self, group: Any) -> Markup:
        """The name of a row of the step list (``Trick 3``)."""
        return Markup(self.macros.group_link(group, None))

    @functools.cache  # noqa: B019
    def step_link(self, deal: Any, item: Any, state: str) -> Markup:
        """One entry of a deal's step list: ``current``, ``earlier`` or ``later`` than the page's step."""
        return Markup(self.macros.step_link(deal, item, state))


def _kind(event: object) -> str:
    """An event's kind, its class name (``CardPlayed``), for the replay templates."""
    return type(event).__name__


def _roem_cards(table: Any, game: str) -> frozenset[Any]:
    """The cards of a Klaverjas trick that make its roem, once the trick is won (none before, and
    none in Klaberjass, which has no roem)."""
    if game != "klaverjas" or table.won_by is None or table.trump is None:
        return frozenset()
    return roem_cards([card for _, card in table.trick], table.trump)


def _trick_roem_parts(trick: TrickWon, trump: Suit | None) -> tuple[tuple[str, int], ...]:
    """The kinds of roem a won trick holds, with their points (the replays name them)."""
    return roem_parts([card for _, card in trick.cards], trump) if trump is not None else ()
