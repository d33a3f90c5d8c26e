"""Fuzz figures for the site build: mutated catalogs and rules pages through the real build.

    python benchmarks/fuzz_site.py [--cases 500] [--seed 1] [--cli]

Copies the small test site (tests/fixtures/site with the real templates and stylesheet) into a
temporary folder, builds it once, then builds it again for each case with one catalog or rules
page mutated (the operators of tests/site_mutations.py), in English and French. Each outcome is
judged by the property of tests/test_site_mutations.py and counted:

* clean errors: exit 1, one line ``path:LINE: message`` at an existing source line, previous output intact;
* accepted: exit 0, every page passes the output guard and a regex look at every tag;
* tracebacks: a traceback or an internal error (exit 3) — must be 0;
* broken promises: any other outcome (wrong line, output changed, unsafe page) — must be 0.

With ``--cli`` each case runs through ``python -m klabsite.cli build`` in a subprocess (slower).
Not run in CI.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from klabsite.site import directives  # noqa: E402
from tests.site_helpers import build_quietly, fixture_hand, make_project  # noqa: E402
from tests.site_mutations import files_of, judge, mutate_catalog, mutate_markdown, restore  # noqa: E402

TARGETS = ("locales/fr/LC_MESSAGES/content.po", "locales/fr/LC_MESSAGES/messages.po",
           "site_src/rules/01-basics.md", "site_src/rules/02-play.md")

_CLI = ("import sys; from klabsite.site import directives; from tests.site_helpers import fixture_hand; "
        "directives.DIRECTIVES['fixture-hand'] = fixture_hand; from klabsite.cli import main; "
        "sys.exit(main(sys.argv[1:]))")


def _build(root: Path, cli: bool) -> tuple[int, str, str]:
    if not cli:
        try:
            return build_quietly(root, langs=["fr"])
        except Exception as error:  # noqa: BLE001 (counted: this is what the fuzzing looks for)
            return 3, "", f"Traceback (escaped run_build): {type(error).__name__}: {error}\n"
    done = subprocess.run([sys.executable, "-c", _CLI, "build", "--lang", "fr", "--root", str(root)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    return done.returncode, done.stdout, done.stderr


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=500, help="mutated inputs to build (default: 500)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default: 1)")
    parser.add_argument("--cli", action="store_true", help="build through the real command line")
    args = parser.parse_args()
    directives.DIRECTIVES["fixture-hand"] = fixture_hand
    rng = random.Random(args.seed)
    counts: Counter[str] = Counter()
    longest = ""
    broken: list[str] = []
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        root = make_project(Path(tmp) / "project")
        assert build_quietly(root)[0] == 0
        before = files_of(root / "_site")
        originals = {name: (root / name).read_text(encoding="utf-8") for name in TARGETS}
        for case in range(args.cases):
            name = TARGETS[rng.randrange(len(TARGETS))]
            mutate = mutate_catalog if name.endswith(".po") else mutate_markdown
            text = mutate(originals[name], rng.randrange)
            (root / name).write_text(text, encoding="utf-8")
            status, stdout, stderr = _build(root, args.cli)
            verdict, detail = judge(root, root / "_site", before, status, stdout, stderr)
            if "Traceback" in stderr or status == 3:
                verdict = "traceback"
            counts[verdict] += 1
            if verdict == "error" and len(detail) > len(longest):
                longest = detail
            if verdict in ("broken", "traceback"):
                broken.append(f"case {case} ({name}): {detail[:300]}")
            (root / name).write_text(originals[name], encoding="utf-8")
            restore(root / "_site", before)
    seconds = time.perf_counter() - start
    how = "command line" if args.cli else "in process"
    print(f"cases             {args.cases} (seed {args.seed}, {how}, {seconds:.1f} s)")
    print(f"clean errors      {counts['error']}")
    print(f"accepted          {counts['accepted']}")
    print(f"tracebacks        {counts['traceback']}  (must be 0)")
    print(f"broken promises   {counts['broken']}  (must be 0)")
    print(f"longest error     {len(longest)} characters: {longest}")
    for line in broken[:20]:
        print("  " + line)
    return 0 if not broken else 1


if __name__ == "__main__":
    sys.exit(main())
