"""The tag words of a deal: what makes it interesting, computed from its events. Pure.

Each word is true of a deal exactly when docs/record-format.md ("Tag words") says so; the
simulator writes them into ``[Tags "…"]`` and the site's gallery groups deals by them.
:func:`deal_tags` needs the replayed deal (its events) and, for ``blunder``, the double-dummy
costs of its card plays when the record carries them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from klabsite.actions import ActionKind
from klabsite.cards import Card, Rank, Suit
from klabsite.events import CardPlayed, TrickWon, TrumpChosen
from klabsite.klaberjass import BellaDecided, DixDecided
from klabsite.melds import Declared
from klabsite.replay import DealReplay
from klabsite.seats import Seat

__all__ = ["TAG_WORDS", "BLUNDER_COST", "deal_tags", "last_trick_decides"]

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


def _stuk(cards: Iterable[Card], trump: Suit) -> bool:
    held = {(card.rank, card.suit) for card in cards}
    return (Rank.KING, trump) in held and (Rank.QUEEN, trump) in held


def last_trick_decides(game: str, result: Mapping[str, object], tricks: list[TrickWon]) -> bool:
    """Whether the deal would have ended otherwise without the last trick's 10: made instead of
    failed, tied or nat (or the other way), or the other player or side ahead in the score."""
    if not tricks or not tricks[-1].last:
        return False
    winner = tricks[-1].winner
    totals = dict(result["totals"])  # type: ignore[call-overload]
    key = winner.side.value if game == "klaverjas" else winner.value
    totals[key] -= 10
    chooser = str(result["playing"] if game == "klaverjas" else result["maker"])
    other = next(name for name in totals if name != chooser)
    if game == "klaverjas":
        made = totals[chooser] > totals[other]
        outcome = "made" if made else "nat"
        everything = sum(totals.values()) - (100 if result.get("pit") else 0)
        score = totals if made else {chooser: 0, other: everything}
    else:
        mine, theirs = totals[chooser], totals[other]
        outcome = "made" if mine > theirs else "failed" if mine < theirs else "tie"
        score = ({chooser: mine, other: theirs} if outcome == "made"
                 else {chooser: 0, other: mine + theirs if outcome == "failed" else theirs})
    actual = dict(result["score"])  # type: ignore[call-overload]
    if outcome != result["result"]:
        return True
    return _ahead(score) != _ahead(actual)


def _ahead(score: Mapping[str, int]) -> str | None:
    ranked = sorted(score.items(), key=lambda item: -item[1])
    return ranked[0][0] if ranked[0][1] != ranked[1][1] else None


def deal_tags(done: DealReplay, game: str, dd_costs: Iterable[int] = ()) -> list[str]:
    """The tag words true of the replayed deal ``done``, in :data:`TAG_WORDS` order.

    ``dd_costs``: the cost of each card actually played, where a ``dd`` annotation gives it.
    """
    found: set[str] = set()
    if done.outcome in ("thrown-in", "redeal"):
        found.add("thrown-in")
    events = [event for _, events in done.applied for event in events]
    kinds = {action.kind for action, _ in done.applied}
    trump = next((event.trump for event in events if isinstance(event, TrumpChosen)), None)
    tricks = [event for event in events if isinstance(event, TrickWon)]
    if game == "klaberjass":
        if ActionKind.SCHMEISS in kinds:
            found.add("schmeiss")
        if any(isinstance(event, DixDecided) and event.exchanged for event in events):
            found.add("dix")
        if any(isinstance(event, CardPlayed) and event.bella for event in events):
            found.add("bella")
        if any(isinstance(event, BellaDecided) and not event.claimed for event in events):
            found.add("bella-declined")
        declaring = {event.seat for event in events if isinstance(event, Declared) and event.melds}
        if declaring == {Seat.N, Seat.S}:
            found.add("sequence-duel")
        if len(tricks) == 9 and len({trick.winner for trick in tricks}) == 1:
            found.add("capot")
    else:
        if trump is not None and any(_stuk((card for _, card in trick.cards), trump) for trick in tricks):
            found.add("bella")
        best = max((trick.roem for trick in tricks), default=0)
        if best >= 100:
            found.add("roem-100")
        if best >= 200:
            found.add("roem-200")
    if done.outcome == "played" and done.result is not None:
        data = done.result.to_json()
        outcome = data["result"]
        if outcome == "failed":
            found.add("maker-failed")
        elif outcome == "tie":
            found.add("tie")
        elif outcome == "nat":
            found.add("nat")
        if data.get("pit"):
            found.add("pit")
        if getattr(done.result, "hanging", 0) and outcome == "tie":
            found.add("hanging-points")
        if last_trick_decides(game, data, tricks):
            found.add("last-trick-decides")
    if any(cost >= BLUNDER_COST for cost in dd_costs):
        found.add("blunder")
    return [word for word in TAG_WORDS if word in found]
