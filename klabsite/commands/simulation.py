"""Simulated records: deals played by bots from a seed, with their results, tags and analysis.

What ``klabsite simulate`` (:mod:`klabsite.commands.simulate`) writes, and what ``--find``
(:mod:`klabsite.commands.find`) plays its candidate deals with. Everything random comes from the
seed string: one ``random.Random`` derived from it chooses the first dealer, every bot decision
and (Klaverjas ``trump-choice=turned``) each proposed suit; each deck is
:func:`klabsite.records.decks.deck_from_seed` of the seed and the deal number. The same seed,
game, rules and options give a byte-identical record.

``deals=N`` plays N deals, stopping early (with a note) if the match ends first, since a record
may not go on after the end of its match; ``deals=None`` plays until the match is over (its
target, or ``deals=N`` from the rules).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Sequence
from typing import Any

from klabsite.bots import Bot, get_bot
from klabsite.engine.actions import Action
from klabsite.engine.cards import SUITS, Card
from klabsite.engine.games import Game, get_game
from klabsite.engine.match import MatchScore
from klabsite.engine.seats import Seat
from klabsite.records.decks import deck_from_seed
from klabsite.records.klab import Record, format_scores
from klabsite.records.replay import MatchReplay, replay
from klabsite.records.tags import deal_tags
from klabsite.solver.annotate import analyse_record

__all__ = [
    "simulate", "seeded_rng", "play_deal", "record_deal", "describe", "bots_for", "bot_names_of",
    "first_dealer", "SimulationError", "MAX_DEALS",
]

MAX_DEALS = 1000
"""A match that has not ended after this many deals (more under ``deals=N``) is abandoned (it
cannot happen in practice)."""


class SimulationError(ValueError):
    """The simulation cannot be run as asked."""


MAX_SEED = 40
"""The longest seed, in characters: a ``--find`` record's ``Source`` line names the seed of each
of its deals, up to 1,000 of them, and a line holds at most 64 KiB."""


def check_seed(seed: str) -> None:
    """Raise :class:`SimulationError` unless ``seed`` can be written into a record's ``Source``
    and read back from it: 1 to :data:`MAX_SEED` characters, no blanks, commas or control
    characters (``Source`` lists ``--find``'s seeds comma separated)."""
    if not 1 <= len(seed) <= MAX_SEED or any(char.isspace() or char == "," or not char.isprintable()
                                              for char in seed):
        raise SimulationError(f"--seed: a seed is 1 to {MAX_SEED} characters without blanks, commas or "
                              "control characters, e.g. club-night")


def seeded_rng(seed: str) -> random.Random:
    """The generator of a simulation, derived from the seed string alone.

    >>> seeded_rng("demo").random() == seeded_rng("demo").random()
    True
    """
    digest = hashlib.sha256(f"klabsite simulate:{seed}".encode()).digest()
    return random.Random(int.from_bytes(digest, "big"))


def play_deal(game: Game, rules: Any, dealer: Seat, deck: Sequence[Card], extra: dict[str, Any],
              bots: dict[Seat, Bot], rng: random.Random,
              stop: Callable[[Any], bool] | None = None) -> tuple[Any, list[Action]]:
    """Play one deal with ``bots``: the engine's deal and the actions taken. ``stop``, asked
    after every action, may end the play early (the deal is then not over)."""
    deal = game.deal_class(rules, dealer, deck, **extra)
    actions: list[Action] = []
    while not deal.is_over:
        seat = deal.to_act
        legal = deal.legal_actions()
        action = bots[seat].choose(deal.view_for(seat), legal, rng)
        deal.apply(action)
        actions.append(action)
        if stop is not None and stop(deal):
            break
    return deal, actions


def record_deal(record: Record, seed: str, number: int, dealer: Seat, hanging: int, bots: dict[Seat, Bot],
                rng: random.Random, stop: Callable[[Any], bool] | None = None) -> Any:
    """Play deal ``number`` of ``seed`` (its deck :func:`deck_from_seed`) and append it to
    ``record`` with its ``Deck`` (and ``Proposed``) tags and actions; the engine's deal.

    ``rng`` draws the proposed suit (Klaverjas ``trump-choice=turned``) and every bot decision.
    """
    game, rules = record.game, record.rules
    deck = deck_from_seed(seed, number)
    extra: dict[str, Any] = {}
    tags: dict[str, str] = {"Deck": " ".join(str(card) for card in deck)}
    if game.name == "klaberjass":
        extra["hanging"] = hanging
    elif getattr(rules, "trump_choice", None) == "turned":
        extra["proposed"] = SUITS[rng.randrange(len(SUITS))]
        tags["Proposed"] = str(extra["proposed"])
    deal, actions = play_deal(game, rules, dealer, deck, extra, bots, rng, stop)
    deal_record = record.new_deal(dealer, **tags)
    for action in actions:
        deal_record.add_action(action)
    return deal


def describe(record: Record, analyse: bool = False) -> MatchReplay:
    """Write each deal's ``Result`` and ``Tags`` (:func:`klabsite.records.tags.deal_tags`), after
    the solver's ``dd`` annotations if ``analyse`` (without them no deal is a ``blunder``)."""
    replayed, errors = analyse_record(record) if analyse else (replay(record), [])
    errors = errors or replayed.errors
    assert not errors, f"a simulated record replays: {errors[0]}"
    game = record.game
    for done in replayed.deals:
        words = deal_tags(done, game.name)
        if words:
            done.record.set_tag(game, "Tags", " ".join(words))
        else:
            done.record.tags.pop("Tags", None)
        assert done.result is not None
        done.record.set_tag(game, "Result", format_scores(done.result.score, game.score_keys))
    return replayed


def bots_for(game: Game, names: Sequence[str]) -> dict[Seat, Bot]:
    """New bots, one per seat in seat order."""
    return {seat: get_bot(name) for seat, name in zip(game.seat_list, names, strict=True)}


def bot_names_of(game: Game, names: Sequence[str]) -> list[str]:
    """The bot of each seat: one name per seat, or one name for every seat (default: ``random``
    everywhere); :class:`SimulationError` for another count."""
    chosen = list(names) or ["random"]
    if len(chosen) == 1:
        chosen *= len(game.seats)
    if len(chosen) != len(game.seats):
        raise SimulationError(f"{game.name} needs one bot for all seats or {len(game.seats)}, one per seat, "
                              f"not {len(chosen)}")
    return chosen


def simulate(
    game_name: str,
    seed: str,
    *,
    deals: int | None = None,
    rules: str = "",
    players: str = "",
    bot_names: Sequence[str] = (),
    notes: list[str] | None = None,
    played: list[Any] | None = None,
    analyse: bool = False,
) -> Record:
    """A record of ``deals`` deals (or, with ``deals=None``, a whole match) played by bots.

    ``bot_names`` gives one bot per seat in seat order (default: ``random`` everywhere);
    ``notes`` collects remarks for the user (a match that ended before ``deals``); ``played``,
    if given, receives the engine's deal objects (their events are the replay); ``analyse``
    writes the solver's ``dd`` annotations (and so the ``blunder`` tag).
    """
    check_seed(seed)
    game = get_game(game_name)
    names = bot_names_of(game, bot_names)
    tags = {"Source": f"simulated seed={seed} bots={','.join(names)}"}
    if players:
        tags["Players"] = players
    record = Record.new(game.name, rules, **tags)
    rules_value = record.rules
    rng = seeded_rng(seed)
    bots = bots_for(game, names)
    match = MatchScore(rules_value, game.score_keys)
    dealer = first_dealer(game, rng)
    hanging = 0
    counted = getattr(rules_value, "deals", None) or 0  # deals=N: N deals that count, and the thrown-in ones
    limit = deals if deals is not None else MAX_DEALS + counted
    while len(record.deals) < limit:
        deal = record_deal(record, seed, len(record.deals) + 1, dealer, hanging, bots, rng)
        if played is not None:
            played.append(deal)
        result = deal.result
        match.add(result.score, counted=result.counted)
        hanging = result.hanging
        dealer = game.next_dealer(rules_value, dealer, result.outcome)
        if match.over:
            if deals is not None and len(record.deals) < deals and notes is not None:
                notes.append(f"the match ended after deal {len(record.deals)} "
                             f"({match.winner or 'drawn'}); a record stops at the end of its match")
            break
    else:
        if deals is None:
            raise SimulationError(f"the match did not end within {limit} deals")
    describe(record, analyse)
    return record


def first_dealer(game: Game, rng: random.Random) -> Seat:
    """The first dealer of a simulation: the generator's first draw."""
    seats = game.seat_list
    return seats[rng.randrange(len(seats))]
