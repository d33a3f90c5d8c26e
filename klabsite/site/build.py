"""The build as a recipe: load → render (strings in memory) → write (one atomic writer).

``python build.py`` and ``klabsite build`` both end up in :func:`run_build`, which prints
warnings, a progress bar (only when stderr is a terminal) and, on failure, exactly one line
``file:line: message`` (or ``--option: message``) before returning 1. An error the build did not
expect (a klabsite bug) is one line too, naming the stage, and returns 3.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TextIO

from klabsite.engine.text import printable
from klabsite.site.cache import MANIFEST, Manifest, code_digest, inputs_digest, read_manifest, remember
from klabsite.site.config import SiteConfig, load_config
from klabsite.site.errors import BuildError
from klabsite.site.loader import load_site
from klabsite.site.render import render_site
from klabsite.site.writer import MARKER, output_problem, write_site

__all__ = ["BuildReport", "build", "render", "run_build", "check_output", "ProgressBar", "INTERNAL_ERROR",
           "INTERRUPTED"]

INTERNAL_ERROR = 3
"""The exit status after an error the build did not expect (a klabsite bug)."""

INTERRUPTED = 130
"""The exit status after Ctrl-C (SIGINT), as a shell reports a command it interrupted."""

MAX_ERROR = 400
"""The longest error line printed (longer ones are cut)."""


@dataclass(frozen=True)
class BuildReport:
    """What a build produced."""

    pages: int
    files: int
    seconds: float
    warnings: tuple[str, ...]
    reused: int = 0
    """Replay pages taken as they were from the previous output."""
    up_to_date: bool = False
    """Nothing had changed: nothing was rendered or written."""


def render(config: SiteConfig, progress: Callable[[int, int], None] | None = None
           ) -> tuple[dict[str, bytes], list[str]]:
    """Load and render the whole site in memory: (output path → bytes, warnings). Writes nothing."""
    site = load_site(config)
    outputs, warnings, _keys, _reused = render_site(site, progress)
    return outputs, warnings


def check_output(config: SiteConfig) -> None:
    """Refuse an output the build may not replace (see :func:`~klabsite.site.writer.output_problem`)."""
    where = config.origin("out_dir")
    option = "out_dir" if where[1] is not None else where[0]  # a line of site.toml, or an option
    problem = output_problem(config.out_dir, config.relative(config.out_dir), project=config.root,
                             sources=config.source_dirs, inputs=config.deal_files or (), option=option)
    if problem:
        raise BuildError(problem, *where)


def build(config: SiteConfig, progress: Callable[[int, int], None] | None = None,
          stage: Callable[[str], None] | None = None) -> BuildReport:
    """Build the site into ``config.out_dir``; on any error the previous output is untouched.

    ``stage`` is told the name of each stage as it starts (for the message after an unexpected error).
    """
    stage = stage or (lambda name: None)
    start = time.perf_counter()
    stage("checking the output folder")
    check_output(config)
    config.sources.check_roots()
    previous = read_manifest(config.out_dir)
    code = code_digest()
    digest = inputs_digest(config, code=code)
    if previous is not None and previous.inputs == digest and previous.intact(config.out_dir,
                                                                               (MANIFEST, MARKER)):
        pages = sum(1 for name in previous.files if name.endswith(".html"))
        return BuildReport(pages, len(previous.files), time.perf_counter() - start, (), up_to_date=True)
    stage("loading")
    site = load_site(config)
    stage("rendering")
    common = inputs_digest(config, records=False, code=code)
    outputs, warnings, keys, reused = render_site(site, progress, previous=previous, common=common)
    manifest = Manifest.of(digest, outputs, keys).to_bytes()
    outputs[MANIFEST] = manifest
    stage("writing")
    write_site(outputs, config.out_dir)
    remember(manifest)
    pages = sum(1 for path in outputs if path.endswith(".html"))
    return BuildReport(pages, len(outputs), time.perf_counter() - start, tuple(warnings), reused=reused)


class ProgressBar:
    """``[#####.....] 12/60 pages`` on one line of stderr, redrawn in place; silent when not a TTY."""

    def __init__(self, stream: TextIO, width: int = 30) -> None:
        self.stream = stream
        self.width = width
        self.enabled = stream.isatty()
        self.drawn = False

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled or total <= 0:
            return
        filled = self.width * done // total
        self.stream.write(f"\r[{'#' * filled}{'.' * (self.width - filled)}] {done}/{total} pages")
        self.stream.flush()
        self.drawn = True

    def close(self) -> None:
        """End the progress line (so the next message starts on a fresh line)."""
        if self.drawn:
            self.stream.write("\r" + " " * (self.width + 24) + "\r")
            self.stream.flush()
            self.drawn = False


def run_build(root: Path, *, out: str | None = None, langs: list[str] | None = None,
              base_url: str | None = None, strict: bool = False, deals: list[Path] | None = None,
              stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """Build the site and report; returns the exit code (0; 1 after one ``file:line: message``; 3;
    130 after Ctrl-C).

    ``deals``: show these records instead of ``site_src/deals/`` (``klabsite replay``).
    """
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    bar = ProgressBar(stderr)
    stages = ["reading the configuration"]
    try:
        try:
            config = load_config(root, out_dir=Path(out) if out else None, languages=langs,
                                 base_url=base_url, strict=strict or None)
            if deals is not None:  # a set of records: the same site whatever order they are named in
                ordered = sorted(deals, key=lambda path: str(path.resolve()))
                config = replace(config, deal_files=tuple(ordered))
            report = build(config, bar, stages.append)
        finally:
            bar.close()  # every message below starts on a line of its own
    except BuildError as error:
        print(_one_line(str(error)), file=stderr)
        return 1
    except KeyboardInterrupt:  # Ctrl-C: the workers are stopped, the previous output untouched
        kept = ("the output folder holds the previous build or this one, whole" if stages[-1] == "writing"
                else "the previous output is left as it was")
        print(f"build: interrupted while {stages[-1]}; {kept}", file=stderr)
        return INTERRUPTED
    except OSError as error:  # the machine's problem (permissions, disk full), not the sources'
        where = _relative(root, error.filename) if error.filename else stages[-1]
        print(_one_line(f"{where}: {error.strerror or error} (while {stages[-1]})"), file=stderr)
        return 1
    except Exception as error:  # a klabsite bug: one line all the same
        print(_one_line(f"build: internal error while {stages[-1]} ({type(error).__name__}: {error}); "
                        "this is a klabsite bug, please report it"), file=stderr)
        return INTERNAL_ERROR
    for warning in report.warnings:
        print(warning, file=stderr)
    out_name = printable(config.relative(config.out_dir))
    if report.up_to_date:
        print(f"{out_name}/ is up to date ({report.pages} pages, nothing changed since the last build; "
              f"{report.seconds:.2f} s)", file=stdout)
        return 0
    languages = f"{len(config.codes)} language{'s' if len(config.codes) != 1 else ''}"
    print(f"built {report.pages} pages ({report.files} files) in {languages} into {out_name}/ in "
          f"{report.seconds:.2f} s", file=stdout)
    return 0


def _relative(root: Path, filename: object) -> str:
    path = Path(str(filename))
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return str(path)


def _one_line(text: str) -> str:
    line = printable(" ".join(text.split()))
    return line if len(line) <= MAX_ERROR else line[: MAX_ERROR - 1] + "…"
