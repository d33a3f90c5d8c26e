"""Regenerate the deals the default site ships: ``python site_src/deals/generate.py``.

Every ``.klab`` file in this folder except hand-written ones is written by this script, from
the plan below: each entry is one ``klabsite simulate`` or ``klabsite score`` run, so anyone can
repeat any single file with the command the entry spells out (``--list`` prints them). The
search bots play, and every card play is analysed (``dd`` annotations); two entries look for
words so rare (four of a kind in one trick is about one Klaverjas deal in 6,000, four jacks one
in 100,000) that they use the heuristic bots, and their ``Source`` says so. Afterwards the script
gives a title to each match and marks the deal the rules pages tell in full with the tag word
``worked-example``.

Options: ``--only NAME[,NAME…]`` regenerates those files only; ``--jobs J`` searches with J
processes (the records do not depend on it); ``--list`` prints the commands and stops. The whole
plan takes about half an hour on two cores, most of it the rare words.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))  # the klabsite of this checkout, installed or not

from klabsite.cli import main as klabsite  # noqa: E402
from klabsite.records.klab import format_record, read_record  # noqa: E402
from klabsite.records.replay import replay  # noqa: E402

KB_PLAYERS = "N:Anna S:Bram"
KV_PLAYERS = "N:Noor E:Emre S:Sanne W:Wouter"
WORKED = "worked-example"


@dataclass(frozen=True)
class Entry:
    """One shipped file: the ``klabsite`` arguments that write it, and what to add afterwards."""

    name: str
    args: tuple[str, ...]
    title: str
    worked: bool = False
    """Whether the first deal played to a score gets the tag word ``worked-example``."""
    sheet_of: str = ""
    """For a score sheet: the shipped match whose results it is written from."""

    @property
    def path(self) -> Path:
        return HERE / f"{self.name}.klab"


def simulate(game: str, seed: str, *extra: str, bots: str = "search") -> tuple[str, ...]:
    """The arguments of ``klabsite simulate`` for one entry (players named, analysed)."""
    players = KB_PLAYERS if game == "klaberjass" else KV_PLAYERS
    args = ("simulate", "--game", game, "--seed", seed, "--players", players, "--bots", bots, *extra)
    return args if "--find" in extra else (*args, "--analyse")


def find(game: str, seed: str, words: str, count: int, rules: str = "",
         bots: str = "search") -> tuple[str, ...]:
    """``klabsite simulate --find``: ``count`` deals having all of ``words``."""
    extra = ("--find", words, "--count", str(count))
    return simulate(game, seed, *extra, *(("--rules", rules) if rules else ()), bots=bots)


PLAN: tuple[Entry, ...] = (
    # Klaberjass: a whole match, then the words and the option values.
    Entry("klaberjass-match", simulate("klaberjass", "ship-kb-match", "--match"),
          "A match to 500", worked=True),
    Entry("klaberjass-dix", find("klaberjass", "ship-kb-dix", "dix", 2), "The dix"),
    Entry("klaberjass-bella", find("klaberjass", "ship-kb-bella", "bella", 2), "Bella"),
    Entry("klaberjass-bella-declined", find("klaberjass", "ship-kb-bella-declined", "bella-declined", 1),
          "Bella kept quiet"),
    Entry("klaberjass-sequences", find("klaberjass", "ship-kb-sequences", "sequence-duel", 2),
          "Sequences against sequences"),
    Entry("klaberjass-failed", find("klaberjass", "ship-kb-failed", "maker-failed", 2), "The maker fails"),
    Entry("klaberjass-capot", find("klaberjass", "ship-kb-capot", "capot", 1), "Every trick"),
    Entry("klaberjass-last-trick", find("klaberjass", "ship-kb-last", "last-trick-decides", 2),
          "The last trick decides"),
    Entry("klaberjass-blunder", find("klaberjass", "ship-kb-blunder", "blunder", 2), "Costly cards"),
    Entry("klaberjass-thrown-in", find("klaberjass", "ship-kb-thrown", "thrown-in", 1),
          "A schmeiss accepted"),
    Entry("klaberjass-schmeiss", find("klaberjass", "ship-kb-schmeiss", "schmeiss", 3,
                                      "schmeiss-refused=refuser-makes schmeiss-redeal=same-dealer "
                                      "schmeiss-round-2=on"), "Schmeiss, other ways"),
    Entry("klaberjass-schmeiss-usual", find("klaberjass", "ship-kb-schmeiss-usual", "schmeiss", 2),
          "Schmeiss"),
    Entry("klaberjass-tie", find("klaberjass", "ship-kb-tie", "tie", 2,
                                 "equal-score=next-deal-winner no-trick-melds=void must-beat=any-lead"),
          "Equal totals, the points wait"),
    Entry("klaberjass-tie-usual", find("klaberjass", "ship-kb-tie-usual", "tie", 1), "Equal totals"),
    # The first seed ship-kb-long-N whose deals hold a sequence of five, worth 100 under the option.
    Entry("klaberjass-long-sequences", find("klaberjass", "ship-kb-long-2", "sequence-duel", 2,
                                            "long-sequence=100 equal-meld=elder"),
          "Long sequences worth 100"),
    Entry("klaberjass-no-schmeiss", simulate("klaberjass", "ship-kb-no-schmeiss", "--deals", "2",
                                             "--rules", "schmeiss=off"), "Without schmeiss"),
    # Klaverjas: a whole match, the words, the other rules.
    Entry("klaverjas-match", simulate("klaverjas", "ship-kv-match", "--match"),
          "A match to 1500", worked=True),
    Entry("klaverjas-nat", find("klaverjas", "ship-kv-nat", "nat", 2), "Nat"),
    Entry("klaverjas-pit", find("klaverjas", "ship-kv-pit", "pit", 2), "Pit"),
    Entry("klaverjas-roem-100", find("klaverjas", "ship-kv-roem-100", "roem-100", 1, bots="heuristic"),
          "Four of a kind in one trick"),
    Entry("klaverjas-roem-200", find("klaverjas", "probe", "roem-200", 1, bots="heuristic"),
          "Four jacks in one trick"),
    Entry("klaverjas-stuk", find("klaverjas", "ship-kv-stuk", "bella", 2), "Stuk"),
    Entry("klaverjas-last-trick", find("klaverjas", "ship-kv-last", "last-trick-decides", 2),
          "The last trick decides"),
    Entry("klaverjas-blunder", find("klaverjas", "ship-kv-blunder", "blunder", 2), "Costly cards"),
    Entry("klaverjas-rotterdam", find("klaverjas", "ship-kv-rotterdam", "bella", 2, "trick-rules=rotterdam"),
          "Rotterdam rules, stuk"),
    # Each seed is the first of its name-N whose deals hold a player who may not undertrump, or
    # who must: the record shows the rule its title names.
    Entry("klaverjas-no-undertrump", find("klaverjas", "ship-kv-rotterdam-11", "nat", 2,
                                          "trick-rules=rotterdam undertrump=forbidden"),
          "Rotterdam rules, no undertrumping"),
    Entry("klaverjas-undertrump", find("klaverjas", "ship-kv-undertrump-2", "nat", 2,
                                       "trick-rules=rotterdam"), "Rotterdam rules, undertrumping"),
    # The first seed ship-kv-overtrump-N whose deals hold a player who must overtrump an opponent
    # under Amsterdam rules and has more than one trump to do it with.
    Entry("klaverjas-overtrump", simulate("klaverjas", "ship-kv-overtrump-4", "--deals", "2"),
          "Amsterdam rules, overtrumping"),
    Entry("klaverjas-forced", simulate("klaverjas", "ship-kv-forced", "--deals", "2",
                                       "--rules", "trump-choice=forced"), "Forced trump"),
    Entry("klaverjas-turned-played", simulate("klaverjas", "ship-kv-turned-played", "--deals", "2",
                                              "--rules", "trump-choice=turned"), "A turned suit"),
    # A score sheet: the Klaverjas match's results as written down at the table.
    Entry("klaverjas-sheet", (), "The match to 1500, as kept on paper", sheet_of="klaverjas-match"),
)


def sheet_commands(entry: Entry) -> list[tuple[str, ...]]:
    """The ``klabsite score`` commands that write a score sheet of a shipped Klaverjas match."""
    source = read_record((HERE / f"{entry.sheet_of}.klab").read_text(encoding="utf-8"))
    match = replay(source)
    path = str(entry.path)
    commands = [("score", path, "new", "--game", "klaverjas", "--players", KV_PLAYERS, "--force",
                 "--dealer", match.deals[0].dealer.value, "--title", entry.title,
                 "--source", f"the results of {entry.sheet_of}.klab")]
    for done in match.deals:
        result = done.result
        if result.outcome != "played":
            continue
        playing = result.playing.value
        points = result.card_points[playing] + (10 if result.last_trick == result.playing else 0)
        roem = " ".join(f"{side} {value}" for side, value in result.roem.items())
        command = ("score", path, "add", "--playing", playing, "--points", str(points), "--roem", roem)
        commands.append((*command, "--pit") if result.pit else command)
    return commands


def run(args: tuple[str, ...]) -> None:
    """One ``klabsite`` command; stop the script if it fails."""
    status = klabsite(list(args))
    if status != 0:
        raise SystemExit(f"generate.py: klabsite {' '.join(args)} failed (exit {status})")


def finish(entry: Entry) -> None:
    """Give the match its title and tag the worked examples (neither changes an id)."""
    record = read_record(entry.path.read_text(encoding="utf-8"))
    record.tags["Title"] = entry.title
    if entry.worked:
        played = next(done.record for done in replay(record).deals
                      if done.result is not None and done.result.outcome == "played")
        words = played.tags.get("Tags", "").split()
        played.tags["Tags"] = " ".join([*words, WORKED] if WORKED not in words else words)
    entry.path.write_text(format_record(record), encoding="utf-8")


def generate(entry: Entry, jobs: int) -> None:
    """Write one shipped file."""
    if entry.sheet_of:
        with contextlib.redirect_stdout(io.StringIO()):
            for command in sheet_commands(entry):
                run(command)
        entry.path.with_name(entry.path.name + ".undo").unlink(missing_ok=True)
        return
    extra = ("--jobs", str(jobs)) if "--find" in entry.args else ()
    run((*entry.args, *extra, "--out", str(entry.path)))
    finish(entry)


def main(argv: list[str] | None = None) -> int:
    """Regenerate the plan (or ``--only`` some of it)."""
    parser = argparse.ArgumentParser(description="Regenerate the shipped deals of site_src/deals/.")
    parser.add_argument("--only", default="", help="comma-separated file names (without .klab)")
    parser.add_argument("--jobs", type=int, default=2, help="processes for --find (default 2)")
    parser.add_argument("--list", action="store_true", help="print the commands and stop")
    args = parser.parse_args(argv)
    names = [name for name in args.only.split(",") if name]
    unknown = sorted(set(names) - {entry.name for entry in PLAN})
    if unknown:
        parser.error(f"no such entry: {', '.join(unknown)}")
    chosen = [entry for entry in PLAN if not names or entry.name in names]
    for entry in chosen:
        if args.list:
            print(" ".join(["klabsite", *entry.args]) if entry.args else
                  f"klabsite score … (the results of {entry.sheet_of}.klab)")
            continue
        started = time.monotonic()
        generate(entry, args.jobs)
        print(f"{entry.path.name}: {time.monotonic() - started:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
