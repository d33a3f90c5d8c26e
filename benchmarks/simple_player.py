"""``simple``: a Klaverjas player of the plain rule-based kind, an opponent for calibration.

The published figures that the project's strength target was drawn from (an information-set
search scoring +46 to +53 a deal) were measured against a rule-based player far simpler than
``heuristic``: about +23 a deal over a random player, where ``heuristic`` scores +112. This
player follows the same few rules, so that the search bot can be measured against an opponent
of that strength too. It bids like ``heuristic`` (the published player did not bid: trump came
from real deals); in the play it knows only which cards are *masters* (no card still out is
higher in their suit):

* leading, a master if it holds one (the one worth most points), else its card worth fewest
  points;
* second to play, the master of the led suit if it holds it, else its cheapest card;
* third, the most points on a trick its partner led with a master; else the master of the led
  suit if it holds it; else its cheapest card;
* last, the most points when its partner wins the trick; else the cheapest card that takes the
  trick; else its cheapest card.

Among equals, the lowest card index. ``simple-low`` differs in one rule, as the published player's
code does (whatever its comments meant): third to play and able to follow suit, it plays its
cheapest card. It counts no trumps, keeps nothing guarded and infers
nothing from the others' play.

``random-cards`` bids like ``heuristic`` too and plays any legal card: the published figures'
random player, which played with the trump of a real deal, not with a random bid.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from klabsite.bots.heuristic import HeuristicBot  # noqa: E402
from klabsite.bots.inference import infer_klaverjas  # noqa: E402
from klabsite.bots.tactics import POINTS, STRENGTH, SUIT_OF, best_of_trick, bits, is_master  # noqa: E402
from klabsite.engine.actions import Action  # noqa: E402
from klabsite.engine.cards import mask_of  # noqa: E402
from klabsite.engine.klaverjas import KlaverjasPhase, KlaverjasView  # noqa: E402

__all__ = ["SimpleBot", "RandomCardsBot", "simple_card"]


def simple_card(view: KlaverjasView, legal: int, third_follows_low: bool = False) -> int:
    """The card (index) the simple player plays from the ``legal`` mask; with
    ``third_follows_low``, third to play and able to follow suit, its cheapest card."""
    assert view.trump is not None
    trump = view.trump.index
    points = POINTS[trump]
    outstanding = infer_klaverjas(view).unseen
    cards = bits(legal)

    def cheapest(among: list[int]) -> int:
        return min(among, key=lambda card: (points[card], card))

    def dearest(among: list[int]) -> int:
        return min(among, key=lambda card: (-points[card], card))
    trick = [card.index for _, card in view.trick]
    masters = [card for card in cards if is_master(card, trump, outstanding)]
    if not trick:
        return dearest(masters) if masters else cheapest(cards)
    led = SUIT_OF[trick[0]]
    led_masters = [card for card in masters if SUIT_OF[card] == led]
    if len(trick) == 1:
        return led_masters[0] if led_masters else cheapest(cards)
    if len(trick) == 2:
        if third_follows_low and any(SUIT_OF[card] == led for card in cards):
            return cheapest(cards)
        if best_of_trick(trick, trump) == 0 and is_master(trick[0], trump, outstanding | legal):
            return dearest(cards)
        return led_masters[0] if led_masters else cheapest(cards)
    winner = best_of_trick(trick, trump)
    if winner == 1:                                     # the partner played second
        return dearest(cards)
    power = STRENGTH[trump]
    taking = [card for card in cards if SUIT_OF[card] in (led, trump) and power[card] > power[trick[winner]]
              and (SUIT_OF[card] == SUIT_OF[trick[winner]] or SUIT_OF[card] == trump)]
    return cheapest(taking) if taking else cheapest(cards)


class SimpleBot:
    """Bids like ``heuristic``; plays Klaverjas cards by :func:`simple_card`. Deterministic."""

    name = "simple"

    def __init__(self, third_follows_low: bool = False) -> None:
        self._heuristic = HeuristicBot()
        self.third_follows_low = third_follows_low

    def choose(self, view: Any, legal: Sequence[Action], rng: random.Random) -> Action:
        """One of ``legal`` for the seat whose ``view`` this is (Klaverjas only)."""
        if not isinstance(view, KlaverjasView):
            raise ValueError("the simple player plays Klaverjas only")
        if view.phase is not KlaverjasPhase.PLAY:
            return self._heuristic.choose(view, legal, rng)
        plays = {action.card.index: action for action in legal if action.card is not None}
        legal_cards = mask_of(action.card for action in legal if action.card is not None)
        return plays[simple_card(view, legal_cards, self.third_follows_low)]


class RandomCardsBot(SimpleBot):
    """Bids like ``heuristic``; plays any legal Klaverjas card, chosen with the generator."""

    name = "random-cards"

    def choose(self, view: Any, legal: Sequence[Action], rng: random.Random) -> Action:
        """One of ``legal``: the heuristic's bid, or a uniformly random card."""
        if isinstance(view, KlaverjasView) and view.phase is KlaverjasPhase.PLAY:
            return legal[rng.randrange(len(legal))]
        return super().choose(view, legal, rng)
