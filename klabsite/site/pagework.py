"""Rendering many pages on every core: each page rendered, encoded and scanned by the guard.

A worker process renders a share of the pages with the renderer it inherits (the build forks
after loading), scans each with the output guard, and checks the page's own links against the
list of every output path; only what needs other pages (a link to an id on another page) goes
back to the build with the page. The result is the same whatever the number of processes.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import signal
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from klabsite.site.guard import Scan, scan_page
from klabsite.site.linkcheck import link_problem
from klabsite.site.pages import Page

if TYPE_CHECKING:
    from klabsite.site.render import MissedKeys, Renderer

__all__ = ["Rendered", "render_pages", "default_jobs"]

CHUNK = 150
"""Pages a worker renders at a time."""

PARALLEL_FROM = 400
"""Fewer pages than this are rendered in the build's own process (starting workers costs more)."""


@dataclass
class Rendered:
    """One rendered page: its bytes and what the guard saw (links left to check with other pages)."""

    path: str
    data: bytes
    scan: Scan


class _Known(dict):  # type: ignore[type-arg]
    """Every output path, for :func:`link_problem` (which only asks whether a path is there)."""


_WORK: dict[str, Any] = {}
"""What the forked workers inherit: the renderer, the pages, the alternates and known paths."""


def _render_one(renderer: Renderer, page: Page, alternates: dict[str, Page], known: Mapping[str, bytes]
                ) -> Rendered:
    text = renderer.render(page, alternates)
    scan = scan_page(text, renderer.config.base_url)
    if not scan.problems:
        own = {page.path: scan}
        left = []
        for link in scan.links:
            url = link[3]
            if url.find("#") > 0:
                left.append(link)  # may need the other page's ids
            elif link_problem(page.path, url, known, own, renderer.site_path):
                left.append(link)  # broken: the build reports it at its source
        scan.links = left
    return Rendered(page.path, text.encode("utf-8"), scan)


def _chunk(indices: Sequence[int]) -> tuple[list[Rendered], MissedKeys]:
    renderer, pages, alternates_of, known = (_WORK[key]
                                             for key in ("renderer", "pages", "alternates", "known"))
    gc.freeze()  # what earlier chunks left (the drawn parts kept for reuse) is not collected again
    rendered = [_render_one(renderer, pages[i], alternates_of(pages[i]), known) for i in indices]
    return rendered, renderer.missed_messages()


def default_jobs() -> int:
    """The processes a build uses: one per core this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def render_pages(renderer: Renderer, pages: Sequence[Page], alternates_of: Callable[[Page], dict[str, Page]],
                 known_paths: Iterable[str], jobs: int | None = None,
                 progress: Callable[[int, int], None] | None = None) -> list[Rendered]:
    """Render, encode and scan ``pages`` (in their order), on ``jobs`` processes.

    The interface messages the workers' pages found untranslated are added to the renderer's
    (:meth:`~klabsite.site.render.Renderer.missed_messages`)."""
    known = _Known.fromkeys(known_paths, b"")
    jobs = default_jobs() if jobs is None else jobs
    if jobs <= 1 or len(pages) < PARALLEL_FROM or "fork" not in multiprocessing.get_all_start_methods():
        results = []
        for done, page in enumerate(pages, 1):
            results.append(_render_one(renderer, page, alternates_of(page), known))
            if progress:
                progress(done, len(pages))
        return results
    _WORK.update(renderer=renderer, pages=pages, alternates=alternates_of, known=known)
    chunks = [list(range(start, min(start + CHUNK, len(pages)))) for start in range(0, len(pages), CHUNK)]
    results = []
    # What the workers inherit is left out of their garbage collections: a collection that went
    # through it would copy the memory pages it touches into every worker (copy on write).
    gc.freeze()
    # The workers leave Ctrl-C to the build, which cancels the chunks not started and waits for the
    # running ones (a fraction of a second): an interrupted build leaves no process behind and no
    # traceback. A worker that dies (killed, out of memory) breaks the pool: an error, not a hang.
    context = multiprocessing.get_context("fork")
    try:
        with ProcessPoolExecutor(max_workers=jobs, mp_context=context,
                                 initializer=_leave_interrupts_to_the_build) as pool:
            try:
                for rendered, missed in pool.map(_chunk, chunks):
                    results.extend(rendered)
                    renderer.note_missed(missed)
                    if progress:
                        progress(len(results), len(pages))
            except KeyboardInterrupt:
                pool.shutdown(wait=True, cancel_futures=True)
                raise
    finally:
        gc.unfreeze()
        _WORK.clear()
    return results


def _leave_interrupts_to_the_build() -> None:
    """A worker's start: Ctrl-C reaches the whole process group, and only the build answers it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
