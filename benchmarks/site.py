"""Site build speed and page weight.

    python benchmarks/site.py [--runs 2]

Builds the real site (site_src/ with its shipped deals, locales/) into a temporary directory and
prints:

* the cold build time (every language, every core), best of ``--runs``;
* the render rate: pages drawn per second by the templates alone, in one process, measured
  apart from the guard, the link check and writing, and the rate with the guard's scan of each
  page; then the rate of the build's own render stage (drawn, encoded and scanned on every core,
  as ``klabsite build`` does it), the figure the target of 1,000 pages/s is about;
* the rebuild time with nothing changed (target ≤ 2 s), and after one record changed;
* the largest and median step page gzipped (target ≤ 14 KB: one round trip), the largest page
  of any kind, the stylesheet gzipped (target ≤ 10 KB) and the JavaScript shipped (none).
"""

from __future__ import annotations

import argparse
import gzip
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from klabsite.site.build import build  # noqa: E402
from klabsite.site.config import load_config  # noqa: E402
from klabsite.site.guard import scan_page  # noqa: E402
from klabsite.site.loader import load_site  # noqa: E402
from klabsite.site.pagework import default_jobs, render_pages  # noqa: E402
from klabsite.site.render import Renderer  # noqa: E402

PAGE_TARGET = 14 * 1024
CSS_TARGET = 10 * 1024
RENDER_TARGET = 1000
REBUILD_TARGET = 2.0


def gzipped(data: bytes) -> int:
    """Size in bytes after gzip -9 (what a server sends)."""
    return len(gzip.compress(data, compresslevel=9, mtime=0))


def fresh_pages(config):  # type: ignore[no-untyped-def]
    """A new renderer of the site, its pages, and each page's other languages (as the build has them)."""
    renderer = Renderer(load_site(config))
    pages = renderer.pages()
    groups: dict[str, dict] = {}
    for page in pages:
        if page.lang:
            groups.setdefault(page.key, {})[page.lang] = page
    return renderer, pages, lambda page: groups.get(page.key, {}) if page.lang else {}


def render_rate(config) -> tuple[int, float, float]:  # type: ignore[no-untyped-def]
    """(pages, seconds drawing them, seconds drawing and scanning them), in this one process."""
    renderer, pages, alternates = fresh_pages(config)
    start = time.process_time()
    texts = [renderer.render(page, alternates(page)) for page in pages]
    drawn = time.process_time() - start
    start = time.process_time()
    for text in texts:
        scan_page(text, config.base_url)
    return len(pages), drawn, drawn + time.process_time() - start


def build_render_rate(config) -> tuple[int, float, int]:  # type: ignore[no-untyped-def]
    """(pages, wall seconds, processes) of the build's render stage, fresh, on every core."""
    renderer, pages, alternates = fresh_pages(config)
    start = time.perf_counter()
    render_pages(renderer, pages, alternates, [page.path for page in pages])
    return len(pages), time.perf_counter() - start, default_jobs()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2, help="cold builds to time (the best counts)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        config = load_config(ROOT, out_dir=Path(tmp) / "_site")
        cold = []
        for _ in range(max(1, args.runs)):
            shutil.rmtree(config.out_dir, ignore_errors=True)
            cold.append(build(config).seconds)
        report = build(config)
        unchanged = report.seconds
        assert report.up_to_date, "a rebuild of unchanged inputs must not draw anything"
        site = config.out_dir
        pages = {path.relative_to(site).as_posix(): gzipped(path.read_bytes())
                 for path in site.rglob("*.html")}
        css = {path.name: gzipped(path.read_bytes()) for path in site.rglob("*.css")}
        js = sum(path.stat().st_size for path in site.rglob("*.js"))
        count, drawn, scanned = render_rate(config)
        _, stage_seconds, jobs = build_render_rate(config)
        records = sorted((ROOT / "site_src" / "deals").glob("*.klab"))
        changed = None
        if records:  # one record edited (a note added): only its deals are drawn again
            copy = Path(tmp) / "project"
            for name in ("site_src", "locales", "docs"):
                if (ROOT / name).is_dir():
                    shutil.copytree(ROOT / name, copy / name)
            moved = load_config(copy, out_dir=site)
            build(moved)  # the same inputs under another root: the first build there takes time
            record = copy / "site_src" / "deals" / records[0].name
            record.write_text(record.read_text(encoding="utf-8") + "\n", encoding="utf-8")
            edited = build(moved)
            changed = (edited.seconds, edited.reused)
    steps = {path: size for path, size in pages.items()
             if path.count("/") == 3 and "/deals/" in path and not path.endswith("index.html")}
    largest = max(pages, key=pages.__getitem__)
    css_size = sum(css.values())
    print(f"cold build        {min(cold):.2f} s (best of {len(cold)}), {len(pages)} pages, every core")
    print(f"render rate       {count / drawn:.0f} pages/s drawn by the templates ({count} pages, "
          f"{drawn:.2f} s CPU, one process)")
    print(f"render + guard    {count / scanned:.0f} pages/s (one process)")
    print(f"render stage      {count / stage_seconds:.0f} pages/s drawn, encoded and scanned by the build "
          f"({stage_seconds:.2f} s on {jobs} processes)  target ≥ {RENDER_TARGET}")
    print(f"rebuild unchanged {unchanged:.2f} s  target ≤ {REBUILD_TARGET:.0f} s")
    if changed:
        print(f"rebuild, 1 record {changed[0]:.2f} s ({changed[1]} pages reused)")
    if steps:
        biggest = max(steps, key=steps.__getitem__)
        print(f"step pages        {len(steps)}: largest {steps[biggest] / 1024:.1f} KB gzipped ({biggest}), "
              f"median {statistics.median(steps.values()) / 1024:.1f} KB  target ≤ 14 KB")
    print(f"largest page      {pages[largest] / 1024:.1f} KB gzipped ({largest})")
    print(f"stylesheet        {css_size / 1024:.1f} KB gzipped ({', '.join(sorted(css))})  target ≤ 10 KB")
    print(f"JavaScript        {js} bytes")
    ok = (max(steps.values(), default=0) <= PAGE_TARGET and css_size <= CSS_TARGET and js == 0
          and count / stage_seconds >= RENDER_TARGET and unchanged <= REBUILD_TARGET)
    print("targets           " + ("met" if ok else "MISSED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
