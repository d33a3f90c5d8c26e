"""Site build speed and page weight.

    python benchmarks/site.py [--runs 3]

Builds the real site (site_src/ and locales/) into a temporary directory ``--runs`` times and
prints the best build time, pages per second, the largest and median page gzipped, the stylesheet
gzipped and the JavaScript shipped (none). Targets: a page ≤ 14 KB gzipped (one TCP round trip),
the stylesheet ≤ 10 KB gzipped.
"""

from __future__ import annotations

import argparse
import gzip
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from klabsite.site.build import build  # noqa: E402
from klabsite.site.config import load_config  # noqa: E402

PAGE_TARGET = 14 * 1024
CSS_TARGET = 10 * 1024


def gzipped(data: bytes) -> int:
    """Size in bytes after gzip -9 (what a server sends)."""
    return len(gzip.compress(data, compresslevel=9, mtime=0))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="builds to time (the best counts)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        config = load_config(ROOT, out_dir=Path(tmp) / "_site")
        times = []
        for _ in range(max(1, args.runs)):
            report = build(config)
            times.append(report.seconds)
        site = config.out_dir
        pages = {path.relative_to(site).as_posix(): gzipped(path.read_bytes())
                 for path in site.rglob("*.html")}
        css = {path.name: gzipped(path.read_bytes()) for path in site.rglob("*.css")}
        js = sum(path.stat().st_size for path in site.rglob("*.js"))
    best = min(times)
    largest = max(pages, key=pages.__getitem__)
    css_size = sum(css.values())
    print(f"build time        {best:.3f} s (best of {len(times)})")
    print(f"pages             {len(pages)} ({len(pages) / best:.0f} pages/s)")
    print(f"largest page      {pages[largest] / 1024:.1f} KB gzipped ({largest})  target ≤ 14 KB")
    print(f"median page       {statistics.median(pages.values()) / 1024:.1f} KB gzipped")
    print(f"stylesheet        {css_size / 1024:.1f} KB gzipped ({', '.join(sorted(css))})  target ≤ 10 KB")
    print(f"JavaScript        {js} bytes")
    ok = pages[largest] <= PAGE_TARGET and css_size <= CSS_TARGET and js == 0
    print("targets           " + ("met" if ok else "MISSED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
