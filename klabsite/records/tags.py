"""The tag words of a deal: what makes it interesting, computed from its replay. Pure.

Each word is true of a deal exactly when docs/record-format.md ("Tag words") says so; the
simulator writes them into ``[Tags "…"]`` and the site's gallery groups deals by them.
:func:`deal_tags` needs the replayed deal (its events and result) and, for ``blunder``, the
double-dummy values of its card plays, which it reads from the record's ``dd`` annotations.

Readings of the definitions (stated in docs/record-format.md too):

- ``bella`` in Klaverjas is *stuk*, the K and Q of trumps in one trick, as the engine counts it
  (:func:`klabsite.engine.roem.roem_parts`); two tricks holding one each are not stuk.
- ``last-trick-decides``: the deal's result (``made``, ``failed``, ``tie``, ``nat``) would be
  another one if the last trick scored no 10, everything else the same (in both games the
  player or side that scores more changes only with the result).
- ``hanging-points``: a played or score-sheet deal after which points wait for a later deal (a
  tie under ``equal-score=next-deal-winner``); a thrown-in deal only passes them on.
- The words of a deal's result (``maker-failed``, ``tie``, ``hanging-points``, ``nat``,
  ``pit``) are given to score-sheet deals too; the others need the cards.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from klabsite.engine import klaberjass, klaverjas
from klabsite.engine.actions import ActionKind
from klabsite.engine.cards import Rank, Suit
from klabsite.engine.events import BidMade, CardPlayed, Event, ThrownIn, TrickWon, TrumpChosen
from klabsite.engine.klaberjass import BellaDecided, DixDecided, scored_result
from klabsite.engine.melds import Declared
from klabsite.engine.roem import roem_parts
from klabsite.engine.seats import Seat, Side
from klabsite.engine.tricks import LAST_TRICK_BONUS
from klabsite.records.annotations import dd_cost
from klabsite.records.replay import DealReplay

__all__ = ["TAG_WORDS", "BLUNDER_COST", "deal_tags", "holds_stuk", "last_trick_decides", "dd_costs",
           "ruled_out"]

TAG_WORDS: dict[str, tuple[str, ...]] = {
    "schmeiss": ("klaberjass",),
    "dix": ("klaberjass",),
    "bella": ("klaberjass", "klaverjas"),
    "bella-declined": ("klaberjass",),
    "sequence-duel": ("klaberjass",),
    "maker-failed": ("klaberjass",),
    "tie": ("klaberjass",),
    "hanging-points": ("klaberjass",),
    "nat": ("klaverjas",),
    "pit": ("klaverjas",),
    "capot": ("klaberjass",),
    "roem-100": ("klaverjas",),
    "roem-200": ("klaverjas",),
    "last-trick-decides": ("klaberjass", "klaverjas"),
    "blunder": ("klaberjass", "klaverjas"),
    "thrown-in": ("klaberjass", "klaverjas"),
}
"""Every word klabsite computes, in the order it writes them, with the games it applies to."""

BLUNDER_COST = 20
"""A card that costs this many points or more (double dummy) makes the deal a ``blunder``."""


def dd_costs(done: DealReplay) -> list[int]:
    """The cost of each card played that has a ``dd`` annotation (best value minus its value)."""
    plays = [action.card for action in done.record.actions if action.kind is ActionKind.PLAY]
    return [dd_cost(values, card) for card, values in zip(plays, done.record.dd_values(), strict=True)
            if values is not None and card is not None]


def last_trick_decides(done: DealReplay) -> bool:
    """Whether the played deal ``done`` would have another result (made, failed, tie, nat)
    without the last trick's 10: the engine's scoring of the same deal, the 10 left out."""
    result = done.result
    if done.outcome != "played" or result is None:
        return False
    if isinstance(result, klaverjas.KlaverjasResult):
        assert result.card_points is not None
        without = {Side(key): value for key, value in result.card_points.items()}
        roem = {Side(key): value for key, value in result.roem.items()}
        other: str | None = klaverjas.award(result.playing, without, roem, result.pit)[1]
    else:
        assert result.maker is not None and result.last_trick is not None
        totals = {Seat(key): value for key, value in result.totals.items()}
        totals[result.last_trick] -= LAST_TRICK_BONUS
        other = scored_result(done.deal.rules, result.dealer, result.maker, totals, done.deal.hanging).result
    return other != result.result


def _klaberjass_words(done: DealReplay, found: set[str]) -> None:
    events = [event for _, events in done.applied for event in events]
    if any(action.kind is ActionKind.SCHMEISS for action, _ in done.applied):
        found.add("schmeiss")
    if any(isinstance(event, DixDecided) and event.exchanged for event in events):
        found.add("dix")
    if any(isinstance(event, CardPlayed) and event.bella for event in events):
        found.add("bella")
    if any(isinstance(event, BellaDecided) and not event.claimed for event in events):
        found.add("bella-declined")
    if {event.seat for event in events if isinstance(event, Declared) and event.melds} == {Seat.N, Seat.S}:
        found.add("sequence-duel")
    tricks = [event for event in events if isinstance(event, TrickWon)]
    if len(tricks) == klaberjass.TRICKS and len({trick.winner for trick in tricks}) == 1:
        found.add("capot")


def holds_stuk(trick: TrickWon, trump: Suit | None) -> bool:
    """Whether a Klaverjas trick holds stuk (the king and queen of trumps), which tags a deal
    ``bella``; roem of 20 from a sequence does not."""
    return trump is not None and any(kind == "stuk" for kind, _ in
                                     roem_parts([card for _, card in trick.cards], trump))


def _klaverjas_words(done: DealReplay, found: set[str]) -> None:
    events = [event for _, events in done.applied for event in events]
    trump = next((event.trump for event in events if isinstance(event, TrumpChosen)), None)
    tricks = [event for event in events if isinstance(event, TrickWon)]
    if any(holds_stuk(trick, trump) for trick in tricks):
        found.add("bella")
    best = max((trick.roem for trick in tricks), default=0)
    if best >= 100:
        found.add("roem-100")
    if best >= 200:
        found.add("roem-200")


def _result_words(done: DealReplay, found: set[str]) -> None:
    result = done.result
    if done.outcome in ("thrown-in", "redeal"):
        found.add("thrown-in")
    if done.outcome not in ("played", "scored") or result is None:
        return
    word = {"failed": "maker-failed", "tie": "tie", "nat": "nat"}.get(result.result)
    if word:
        found.add(word)
    if result.result == "tie" and result.hanging:
        found.add("hanging-points")
    if getattr(result, "pit", False):
        found.add("pit")
    if last_trick_decides(done):
        found.add("last-trick-decides")


def deal_tags(done: DealReplay, game: str, costs: Iterable[int] | None = None) -> list[str]:
    """The tag words true of the replayed deal ``done`` of ``game``, in :data:`TAG_WORDS` order.

    ``costs``: the cost of each card played, where known; by default :func:`dd_costs`, from
    the record's ``dd`` annotations (a deal without them is never a ``blunder``).
    """
    found: set[str] = set()
    (_klaberjass_words if game == "klaberjass" else _klaverjas_words)(done, found)
    _result_words(done, found)
    if any(cost >= BLUNDER_COST for cost in (dd_costs(done) if costs is None else costs)):
        found.add("blunder")
    return [word for word in TAG_WORDS if word in found]


_FOUR_OF_A_KIND = (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK)
"""The ranks whose four cards in one trick are roem of 100 or more (the jacks 200)."""


def _split(rank: Rank, tricks: Sequence[TrickWon]) -> bool:
    """Whether the four cards of ``rank`` can no longer meet in one trick."""
    return any(0 < sum(card.rank is rank for _, card in trick.cards) < 4 for trick in tricks)


def ruled_out(word: str, game: str, events: Sequence[Event]) -> bool:
    """Whether a deal of ``game`` whose events so far are ``events`` can no longer have tag
    ``word``, whatever is played next (``False`` whenever it cannot be told yet): lets ``simulate
    --find`` give up on a deal early. Never true of a word the finished deal has (the tests play
    it out)."""
    chosen = next((event for event in events if isinstance(event, TrumpChosen)), None)
    tricks = [event for event in events if isinstance(event, TrickWon)]
    over = chosen is not None or any(isinstance(event, ThrownIn) for event in events)
    if word == "thrown-in":
        return chosen is not None
    if word == "schmeiss":
        return over and not any(isinstance(event, BidMade) and event.word == "schmeiss" for event in events)
    if word == "dix":
        played = chosen is not None and any(isinstance(event, CardPlayed) for event in events)
        return played and not any(isinstance(event, DixDecided) and event.exchanged for event in events)
    if word == "sequence-duel":
        return bool(tricks) and {event.seat for event in events
                                 if isinstance(event, Declared) and event.melds} != {Seat.N, Seat.S}
    if word == "capot":
        return len({trick.winner for trick in tricks}) > 1
    if word == "pit":
        return chosen is not None and any(trick.winner.side is not chosen.maker.side for trick in tricks)
    if word == "roem-200":
        return _split(Rank.JACK, tricks)
    if word == "roem-100":
        return all(_split(rank, tricks) for rank in _FOUR_OF_A_KIND)
    if word == "bella" and game == "klaverjas" and chosen is not None:
        stuk = {(Rank.KING, chosen.trump), (Rank.QUEEN, chosen.trump)}
        return any(len(stuk & {(card.rank, card.suit) for _, card in trick.cards}) == 1 for trick in tricks)
    return False
