"""``klabsite simulate``: play seeded deals with bots and write them as a canonical ``.klab`` record.

Everything random comes from the seed string: one ``random.Random`` derived from it chooses the
first dealer, every bot decision and (Klaverjas ``trump-choice=turned``) each proposed suit; each
deck is :func:`klabsite.decks.deck_from_seed` of the seed and the deal number. The same seed,
game, rules and options give a byte-identical record.

``--deals N`` plays N deals, stopping early (with a note on standard error) if the match ends
first, since a record may not go on after the end of its match; ``--match`` plays until the
match is over (its target, or ``deals=N`` from the rules).
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from klabsite.actions import Action, ActionKind
from klabsite.bots import BOTS, Bot, get_bot
from klabsite.cards import SUITS
from klabsite.commands.files import write_atomically
from klabsite.commands.help import EXIT_USAGE, add_command, argument_error, examples
from klabsite.decks import deck_from_seed
from klabsite.events import CardPlayed, TrickWon
from klabsite.games import Game, get_game
from klabsite.match import MatchScore
from klabsite.records import MAX_DEALS as MAX_RECORD_DEALS
from klabsite.records import Record, format_scores
from klabsite.text import printable, shorten

__all__ = ["register", "run", "simulate", "seeded_rng", "deal_tags", "wrote_line", "SimulationError"]

MAX_DEALS = 1000
"""A match that has not ended after this many deals is abandoned (it cannot happen in practice)."""


class SimulationError(ValueError):
    """The simulation cannot be run as asked."""


def seeded_rng(seed: str) -> random.Random:
    """The generator of a simulation, derived from the seed string alone.

    >>> seeded_rng("demo").random() == seeded_rng("demo").random()
    True
    """
    digest = hashlib.sha256(f"klabsite simulate:{seed}".encode()).digest()
    return random.Random(int.from_bytes(digest, "big"))


def deal_tags(game: Game, deal: Any, actions: Sequence[Action]) -> list[str]:
    """What makes a finished deal interesting, for its ``Tags`` tag.

    Klaberjass: ``schmeiss dix bella hundred failed tie``; Klaverjas: ``pit nat hundred``
    (``hundred``: 100 or more in sequences, or roem of 100 or more in one trick).
    """
    result = deal.result
    data = result.to_json()
    tags: list[str] = []
    if game.name == "klaberjass":
        kinds = {action.kind for action in actions}
        if ActionKind.SCHMEISS in kinds:
            tags.append("schmeiss")
        if ActionKind.DIX in kinds:
            tags.append("dix")
        if any(isinstance(event, CardPlayed) and event.bella for event in deal.events):
            tags.append("bella")
        if any(value >= 100 for value in data.get("melds", {}).values()):
            tags.append("hundred")
        if data.get("result") in ("failed", "tie"):
            tags.append(data["result"])
    else:
        if data.get("pit"):
            tags.append("pit")
        if data.get("result") == "nat":
            tags.append("nat")
        if any(isinstance(event, TrickWon) and event.roem >= 100 for event in deal.events):
            tags.append("hundred")
    return tags


def _play_deal(game: Game, rules: Any, dealer: Any, deck: Any, extra: dict[str, Any],
               bots: dict[Any, Bot], rng: random.Random) -> tuple[Any, list[Action]]:
    deal = game.deal_class(rules, dealer, deck, **extra)
    actions: list[Action] = []
    while not deal.is_over:
        seat = deal.to_act
        legal = deal.legal_actions()
        action = bots[seat].choose(deal.view_for(seat), legal, rng)
        deal.apply(action)
        actions.append(action)
    return deal, actions


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
) -> Record:
    """A record of ``deals`` deals (or, with ``deals=None``, a whole match) played by bots.

    ``bot_names`` gives one bot per seat in seat order (default: ``random`` everywhere);
    ``notes`` collects remarks for the user (a match that ended before ``deals``); ``played``,
    if given, receives the engine's deal objects (their events are the replay).
    """
    game = get_game(game_name)
    names = list(bot_names) or ["random"] * len(game.seats)
    if len(names) != len(game.seats):
        raise SimulationError(f"{game.name} needs {len(game.seats)} bots, one per seat, not {len(names)}")
    tags = {"Source": f"simulated seed={seed} bots={','.join(names)}"}
    if players:
        tags["Players"] = players
    record = Record.new(game.name, rules, **tags)
    rules_value = record.rules
    rng = seeded_rng(seed)
    seats = game.seat_list
    bots = {seat: get_bot(name) for seat, name in zip(seats, names, strict=True)}
    match = MatchScore(rules_value, game.score_keys)
    dealer = seats[rng.randrange(len(seats))]
    hanging = 0
    limit = deals if deals is not None else MAX_DEALS
    while len(record.deals) < limit:
        number = len(record.deals) + 1
        deck = deck_from_seed(seed, number)
        extra: dict[str, Any] = {}
        deal_tags_values: dict[str, str] = {"Deck": " ".join(str(card) for card in deck)}
        if game.name == "klaberjass":
            extra["hanging"] = hanging
        elif getattr(rules_value, "trump_choice", None) == "turned":
            extra["proposed"] = SUITS[rng.randrange(len(SUITS))]
            deal_tags_values["Proposed"] = str(extra["proposed"])
        deal, actions = _play_deal(game, rules_value, dealer, deck, extra, bots, rng)
        if played is not None:
            played.append(deal)
        result = deal.result
        interesting = deal_tags(game, deal, actions)
        if interesting:
            deal_tags_values["Tags"] = " ".join(interesting)
        deal_tags_values["Result"] = format_scores(result.score, game.score_keys)
        deal_record = record.new_deal(dealer, **deal_tags_values)
        for action in actions:
            deal_record.add_action(action)
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
            raise SimulationError(f"the match did not end within {MAX_DEALS} deals")
    return record


def _bot_names() -> str:
    """The bots of the registry, for the help: ``random``, ``random, search`` …"""
    return ", ".join(sorted(BOTS))


DESCRIPTION = """\
Play deals with computer players (bots) and write them as a .klab record that
klabsite check, the site and people can read. Everything random comes from the
seed: the same seed, game, rules and bots give the same record, byte for byte.

--deals N plays N deals (fewer if the match ends first); --match plays until
the match is over."""


def _epilog() -> str:
    bot = sorted(BOTS)[0]
    return examples(
        "klabsite simulate --game klaberjass --seed 7 --deals 3",
        "klabsite simulate --game klaverjas --seed club-night --match --out night.klab",
        f"klabsite simulate --game klaverjas --seed 1 --match --bots {','.join([bot] * 4)}",
        'klabsite simulate --game klaverjas --seed 2 --deals 8 --rules "trick-rules=rotterdam"',
    )


def register(subparsers: Any) -> None:
    """Add the ``simulate`` sub-command."""
    parser = add_command(subparsers, "simulate", help="play seeded deals with bots and write a .klab record",
                         description=DESCRIPTION, epilog=_epilog())
    parser.add_argument("--game", required=True, choices=["klaberjass", "klaverjas"],
                        help="klaberjass (two players) or klaverjas (four players)")
    parser.add_argument("--seed", required=True, help="any text; the same seed gives the same record")
    amount = parser.add_mutually_exclusive_group(required=True)
    amount.add_argument("--deals", type=int, metavar="N", help=f"play N deals (1 to {MAX_RECORD_DEALS})")
    amount.add_argument("--match", action="store_true", help="play until the match is over")
    parser.add_argument("--rules", default="", help='rules that differ from the usual ones, e.g. '
                                                     '"trick-rules=rotterdam target=1000"')
    parser.add_argument("--players", default="", help='the players\' names, e.g. "N:Anna S:Ben"')
    parser.add_argument("--bots", default="", metavar="BOT,…",
                        help=f"one bot per seat, comma separated, in seat order; bots: {_bot_names()} "
                             "(default: random everywhere)")
    parser.add_argument("--out", metavar="FILE", help="write the record to FILE (default: standard output)")
    parser.set_defaults(func=run)


def _result_text(record: Record, played: Sequence[Any]) -> str:
    """``N wins 551–481`` (or ``drawn 500–500``) once the match is over, else ``""``."""
    keys = record.game.score_keys
    match = MatchScore(record.rules, keys)
    for deal in played:
        match.add(deal.result.score, counted=deal.result.counted)
    if not match.over:
        return ""
    totals = match.totals
    if match.winner is None:
        return f"drawn {totals[keys[0]]}–{totals[keys[1]]}"
    other = next(key for key in keys if key != match.winner)
    return f"{match.winner} wins {totals[match.winner]}–{totals[other]}"


def wrote_line(record: Record, played: Sequence[Any], out: str) -> str:
    """What ``--out`` says it wrote: ``wrote 14 deals to m.klab: N wins 551–481``.

    ``played`` are the engine's deals of the record (from :func:`simulate`).
    """
    count = len(record.deals)
    result = _result_text(record, played)
    line = f"wrote {count} deal{'s' if count != 1 else ''} to {printable(out)}"
    return f"{line}: {result}" if result else line


def run(args: argparse.Namespace) -> int:
    """Simulate and write the record; 0, or 2 for options that cannot be used or a file not writable."""
    wrong = argument_error("klabsite simulate", {"--seed": args.seed, "--rules": args.rules,
                                                 "--players": args.players, "--bots": args.bots},
                           {"--out": args.out})
    if wrong is not None:
        print(wrong, file=sys.stderr)
        return EXIT_USAGE
    if args.deals is not None and not 1 <= args.deals <= MAX_RECORD_DEALS:
        print(f"klabsite simulate: --deals takes a number from 1 to {MAX_RECORD_DEALS}", file=sys.stderr)
        return EXIT_USAGE
    notes: list[str] = []
    played: list[Any] = []
    try:
        record = simulate(args.game, args.seed, deals=None if args.match else args.deals, rules=args.rules,
                          players=args.players, bot_names=[n for n in args.bots.split(",") if n],
                          notes=notes, played=played)
    except ValueError as error:
        print(f"klabsite simulate: {shorten(str(error), 200)}", file=sys.stderr)
        return EXIT_USAGE
    for note in notes:
        print(f"klabsite simulate: note: {note}", file=sys.stderr)
    text = record.to_text()
    if args.out:
        try:
            write_atomically(Path(args.out), text.encode("utf-8"))
        except OSError as error:
            print(f"{printable(args.out)}: cannot write the record: {error.strerror or error}",
                  file=sys.stderr)
            return EXIT_USAGE
        print(wrote_line(record, played, args.out))
    else:
        sys.stdout.write(text)
    return 0
