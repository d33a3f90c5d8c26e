"""Fuzzing figures: mutated inputs through the real commands, in-process; nothing may crash.

    python benchmarks/fuzz.py [--quick] [--seed S]

Each section is one entry of :data:`SECTIONS`: a name, a function ``(cases, rng) -> Tally`` and
its number of cases (``--quick``: a tenth, at least 20). A section runs the command through
:func:`klabsite.cli.main` with standard output and error captured, and counts every case as
accepted (exit 0), a clean error (exit 1 or 2: one ``FILE:LINE: message`` per error, or one usage
line) or a traceback (an exception out of ``main``, an exit status 3 "internal error", or output
that breaks a rule below). Tracebacks must be 0. To fuzz another command (the site build with
mutated catalogs and prose, say), write ``fuzz_build(cases, rng) -> Tally`` with :func:`run_cli`
and :func:`classify`, and append ``("build", fuzz_build, 1_000)`` to :data:`SECTIONS`.

Last come the peak memory figures: ``klabsite check`` of 50 MB inputs, each in a fresh
interpreter, as ``resource.getrusage`` reports its maximum resident set size.

Not run by the tests: it prints figures (about three minutes; ``--quick`` about twenty seconds).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from klabsite.cli import main as klabsite_main  # noqa: E402

FIXTURES = ROOT / "tests" / "fixtures"
ERROR_LINE_LIMIT = 250
"""An error line longer than this (the file name left out) breaks the rules: a traceback here."""

HOSTILE = ["²", "٣", "9" * 5000, "0" * 3000 + "1", "-1", "1e3", "\x1b[2J", "\x07", "\0", "\udce9",
           "\u202e", "x" * 3000, '"', "\\", "[", "]", ";", "{dd", "}", "%klab 2", '[Deal "1"]', "NS", "EW",
           "N", "E",
           "take", "pass", "meld", "nobella", "10H", "jh", "JH-TH-9H", "TS,9S", "trump-choice=turned",
           "target=0", "deals=²", "unfinished"]
"""Tokens a careless or hostile writer might put anywhere."""


@dataclass
class Tally:
    """What one section saw."""

    cases: int = 0
    clean_errors: int = 0
    accepted: int = 0
    tracebacks: int = 0
    longest_error_line: str = ""
    exits: Counter[int] = field(default_factory=Counter)
    examples: list[str] = field(default_factory=list)
    """The first few cases that count as tracebacks, to reproduce them."""

    def add(self, verdict: str, status: int, longest: str, example: str) -> None:
        """Count one case."""
        self.cases += 1
        self.exits[status] += 1
        if verdict == "accepted":
            self.accepted += 1
        elif verdict == "clean":
            self.clean_errors += 1
        else:
            self.tracebacks += 1
            if len(self.examples) < 3:
                self.examples.append(example)
        if len(longest) > len(self.longest_error_line):
            self.longest_error_line = longest


# --------------------------------------------------------------------------- running and judging


def run_cli(argv: Sequence[str]) -> tuple[int, str, str, BaseException | None]:
    """``klabsite ARGV…`` in-process: exit status, stdout, stderr, and the exception that escaped."""
    out, err = io.StringIO(), io.StringIO()
    escaped: BaseException | None = None
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = klabsite_main(list(argv))
        except SystemExit as done:  # argparse's usage errors and --help
            status = done.code if isinstance(done.code, int) else 2
        except Exception as error:  # noqa: BLE001 - what a real run would print as a traceback
            status, escaped = -1, error
    return status, out.getvalue(), err.getvalue(), escaped


def classify(status: int, out: str, err: str, escaped: BaseException | None, name: str) -> tuple[str, str]:
    """The verdict on one run (``accepted``, ``clean`` or ``traceback``) and its longest error line.

    ``name`` (the file given) is left out of line lengths. A clean error is exit 1 or 2 with
    short error lines only; exit 0 must print nothing on standard error.
    """
    lines = err.splitlines()
    longest = max((line.replace(name, "FILE") for line in lines), key=len, default="")
    broken = (escaped is not None or status not in (0, 1, 2) or "Traceback" in err
              or "internal error" in err or len(longest) > ERROR_LINE_LIMIT)
    try:
        out.encode("utf-8"), err.encode("utf-8")  # a strict UTF-8 terminal must print both
    except UnicodeEncodeError:
        broken = True
    if broken:
        return "traceback", longest
    if status == 0:
        return ("accepted" if not err else "traceback"), longest
    return ("clean" if lines else "traceback"), longest


# --------------------------------------------------------------------------- records through check


def _bases() -> list[str]:
    paths = [*sorted((FIXTURES / "records" / "valid").glob("*.klab")),
             *sorted((FIXTURES / "audit").glob("*.klab"))]
    return [path.read_text(encoding="utf-8") for path in paths]


def mutate_record(text: str, rng: random.Random) -> bytes:
    """``text`` with one to three random mutations: lines dropped, doubled, swapped, tokens swapped
    or replaced (by another token of the record or a hostile one), bytes inserted, a long run of
    one character, unusual digits, the end cut off, CRLF line ends or a BOM."""
    lines = text.split("\n")
    for _ in range(rng.randint(1, 3)):
        kind = rng.choice(["drop", "double", "swap", "tokens", "replace", "hostile", "bytes", "run",
                           "digits", "cut", "crlf", "bom"])
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        words = lines[i].split(" ")
        if kind == "drop":
            del lines[i]
        elif kind == "double":
            lines.insert(j, lines[i])
        elif kind == "swap":
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == "tokens":
            a, b = rng.randrange(len(words)), rng.randrange(len(words))
            words[a], words[b] = words[b], words[a]
        elif kind in ("replace", "hostile"):
            pool = " ".join(lines).split(" ") if kind == "replace" else HOSTILE
            words[rng.randrange(len(words))] = rng.choice(pool)
        elif kind == "run":
            words[rng.randrange(len(words))] += rng.choice("NxJ9\"\0 ") * rng.choice([100, 5000, 70_000])
        elif kind == "digits":
            digits = rng.choice(["٠١٢٣٤٥٦٧٨٩", "⁰¹²³⁴⁵⁶⁷⁸⁹"])
            lines[i] = lines[i].translate(str.maketrans("0123456789", digits))
        elif kind == "cut":
            lines = lines[:i]
        elif kind == "crlf":
            lines = [line + "\r" for line in lines]
        elif kind == "bom":
            lines[0] = "\ufeff" + lines[0]
        if kind in ("tokens", "replace", "hostile", "run"):
            lines[i] = " ".join(words)
        if not lines:
            lines = [""]
    data = "\n".join(lines).encode("utf-8", "surrogateescape")
    if rng.random() < 0.2:
        at = rng.randrange(len(data) + 1)
        data = data[:at] + bytes(rng.randrange(256) for _ in range(rng.randint(1, 8))) + data[at:]
    return data


def fuzz_check(cases: int, rng: random.Random) -> Tally:
    """Mutated records (from the valid and audit fixtures) through ``klabsite check``."""
    tally = Tally()
    bases = _bases()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "mutant.klab"
        for _ in range(cases):
            data = mutate_record(rng.choice(bases), rng)
            path.write_bytes(data)
            status, out, err, escaped = run_cli(["check", str(path)])
            verdict, longest = classify(status, out, err, escaped, str(path))
            tally.add(verdict, status, longest, repr(data[:300]))
    return tally


# --------------------------------------------------------------------------- commands through score

SCORE_COMMANDS = {
    "klaverjas": [
        ["new", "--game", "klaverjas", "--force", "--rules", "target=300", "--title", "t", "--players",
         "N:Ana E:Ivo S:Maja W:Luka"],
        ["add", "--playing", "NS", "--points", "92", "--roem", "NS 20 EW 0"],
        ["add", "--playing", "EW", "--points", "EW 162", "--pit", "--note", "n"],
        ["edit", "1", "--points", "100", "--roem", "EW 50"], ["edit", "2", "--no-pit"],
        ["delete", "1"], ["undo"], ["show"],
    ],
    "klaberjass": [
        ["new", "--game", "klaberjass", "--force", "--dealer", "S", "--players", "N:Anna S:Ben"],
        ["add", "--maker", "N", "--totals", "N 102 S 60"], ["add", "--maker", "S", "--totals", "N 81 S 81"],
        ["edit", "1", "--totals", "N 60 S 122", "--note", "bella"], ["delete", "2"], ["undo"], ["show"],
    ],
}
"""Valid commands of each game; the first three make the sheet every case starts from."""


MUTATIONS = ["drop", "double", "swap", "other", "other", "hostile", "hostile", "hostile", "text"]
"""The kinds of command mutation, as often as they are drawn."""


def mutate_command(words: list[str], game: str, rng: random.Random) -> list[str]:
    """``words`` with one to three mutations: an argument dropped, doubled, moved, or a value (most
    often) replaced by another command's argument, a hostile token or random text."""
    words = list(words)
    pool = [word for command in SCORE_COMMANDS[game] for word in command]
    for _ in range(rng.randint(1, 3)):
        kind = rng.choice(MUTATIONS)
        if not words:
            words = [rng.choice(pool)]
        values = [n for n, word in enumerate(words) if n and not word.startswith("--")]
        on_value = values and kind in ("other", "hostile", "text")
        i = rng.choice(values) if on_value else rng.randrange(len(words))
        if kind == "drop":
            del words[i]
        elif kind == "double":
            words.insert(rng.randrange(len(words) + 1), words[i])
        elif kind == "swap":
            j = rng.randrange(len(words))
            words[i], words[j] = words[j], words[i]
        elif kind == "other":
            words[i] = rng.choice(pool)
        elif kind == "hostile":
            words[i] = rng.choice(HOSTILE)
        else:
            words[i] = "".join(chr(rng.choice([rng.randrange(32, 127), rng.randrange(0, 0x3000)]))
                               for _ in range(rng.randint(0, 12)))
    return words


def _files(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


def fuzz_score(cases: int, rng: random.Random) -> Tally:
    """Mutated ``klabsite score`` commands on a real two-deal sheet; a refusal must leave the sheet
    and its undo history byte for byte as they were (else it counts as a traceback)."""
    tally = Tally()
    starts = {}
    for game, commands in SCORE_COMMANDS.items():
        with tempfile.TemporaryDirectory() as folder:
            for words in commands[:3]:
                assert run_cli(["score", str(Path(folder) / "sheet.klab"), *words])[0] == 0
            starts[game] = _files(Path(folder))
    for _ in range(cases):
        game = rng.choice(sorted(SCORE_COMMANDS))
        words = mutate_command(rng.choice(SCORE_COMMANDS[game]), game, rng)
        with tempfile.TemporaryDirectory() as folder:
            for name, data in starts[game].items():
                (Path(folder) / name).write_bytes(data)
            path = Path(folder) / "sheet.klab"
            status, out, err, escaped = run_cli(["score", str(path), *words])
            verdict, longest = classify(status, out, err, escaped, str(path))
            after = _files(Path(folder))
            if status in (1, 2) and after != starts[game]:
                verdict = "traceback"  # a refusal changed a file
            if any(name.endswith(".tmp") for name in after):
                verdict = "traceback"  # a temporary file was left behind
            tally.add(verdict, status, longest, repr(words)[:300])
    return tally


SECTIONS: list[tuple[str, Callable[[int, random.Random], Tally], int]] = [
    ("check: mutated records", fuzz_check, 10_000),
    ("score: mutated commands", fuzz_score, 1_000),
]
"""(name, function, cases) of every section; append one to fuzz another command."""


# --------------------------------------------------------------------------- peak memory

PEAK = """
import io, resource, sys
from contextlib import redirect_stderr, redirect_stdout
from klabsite.cli import main
with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()) as err:
    status = main(["check", sys.argv[1]])
lines = err.getvalue().splitlines()
print(status, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, len(lines), max(map(len, lines), default=0))
"""

SIZE = 50_000_000
HEAD = b'%klab 1\n[Game "klaberjass"]\n'
DECK = b"JH TH 9H KS QS JS 7D AC 8C KH 9D 8S AH QC 7S TD AD JC 8H 7C 9C TC KC 8D JD QD KD 7H QH 9S TS AS"
INPUTS: list[tuple[str, bytes, bytes]] = [
    ("a small valid record (the baseline)", b"", b""),
    ("one {size} MB Note value", HEAD + b'[Deal "1"]\n[Dealer "S"]\n[Note "', b"x"),
    ("one {size} MB Deck value", HEAD + b'[Deal "1"]\n[Dealer "S"]\n[Deck "', b"JH "),
    ("{size} MB of NUL bytes", b"", b"\0"),
    ("{size} MB of comment lines", HEAD, b"; a comment line\n"),
    ("{size} MB of actions in one deal", HEAD + b'[Deal "1"]\n[Dealer "S"]\n[Deck "' + DECK + b'"]\n',
     b"N take\n"),
    ("{size} MB of short deals", HEAD, b'[Deal "1"]\n[Dealer "S"]\n'),
]
"""(label, head, fill): each input is its head, then fill repeated up to the size."""


def _peak(path: Path | str) -> tuple[int, int, int, int, float]:
    """``klabsite check PATH`` in a fresh interpreter: status, peak KiB, error lines, longest, seconds."""
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-c", PEAK, str(path)], capture_output=True, text=True,
                          check=True, cwd=ROOT, timeout=600)
    status, peak, count, longest = map(int, done.stdout.split())
    return status, peak, count, longest, time.monotonic() - start


def _figure(label: str, path: Path | str) -> str:
    status, peak, count, longest, seconds = _peak(path)
    return (f"  {label:<38} exit {status}  peak {peak / 1024:6.1f} MiB  {count:>2} error line(s), "
            f"longest {longest:>3}  {seconds:5.1f} s")


def peak_memory(size: int) -> list[str]:
    """One line per input: its exit status, peak memory, error lines (count, longest) and time."""
    lines = []
    with tempfile.TemporaryDirectory() as folder:
        for label, head, fill in INPUTS:
            path = Path(folder) / "input.klab"
            if not fill:
                path.write_bytes((FIXTURES / "records" / "valid" / "klaberjass_three_deals.klab")
                                 .read_bytes())
            else:
                with path.open("wb") as file:
                    file.write(head)
                    chunk = fill * max(1, 1_000_000 // len(fill))
                    for _ in range(max(1, size // len(chunk))):
                        file.write(chunk)
            lines.append(_figure(label.format(size=size // 1_000_000), path))
    lines.append(_figure("/dev/zero", "/dev/zero"))
    return lines


# --------------------------------------------------------------------------- the report


def report(name: str, tally: Tally, seconds: float) -> list[str]:
    """The lines printed for one section."""
    longest = tally.longest_error_line
    shown = longest if len(longest) <= 120 else longest[:117] + "..."
    lines = [f"{name} ({seconds:.0f} s)",
             f"  cases {tally.cases}, clean errors {tally.clean_errors}, accepted {tally.accepted}, "
             f"tracebacks {tally.tracebacks}",
             f"  exit statuses: {', '.join(f'{code}: {n}' for code, n in sorted(tally.exits.items()))}",
             f"  longest error line: {len(longest)} characters (the file name as FILE): {shown!r}"]
    lines += [f"  TRACEBACK: {example}" for example in tally.examples]
    return lines


def main(argv: list[str] | None = None) -> int:
    """Run every section and the memory figures; exit 1 if any case counted as a traceback."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of the cases, 5 MB inputs")
    parser.add_argument("--seed", default="fuzz", help="random seed (default 'fuzz')")
    args = parser.parse_args(argv)
    tracebacks = 0
    for name, section, cases in SECTIONS:
        start = time.monotonic()
        tally = section(max(20, cases // 10) if args.quick else cases, random.Random(f"{args.seed}:{name}"))
        tracebacks += tally.tracebacks
        print("\n".join(report(name, tally, time.monotonic() - start)), flush=True)
    size = SIZE // 10 if args.quick else SIZE
    print(f"check: peak memory (max RSS of a fresh interpreter) for {size // 1_000_000} MB inputs",
          flush=True)
    print("\n".join(peak_memory(size)))
    return 1 if tracebacks else 0


if __name__ == "__main__":
    raise SystemExit(main())
