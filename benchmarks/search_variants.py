"""Variants of the search bot, measured like the registered bots by ``strength.py``.

    python benchmarks/search_variants.py --games klaverjas --pair search-play,heuristic \
        --pair search-w80,heuristic --deals 200 --max-deals 200 --jobs 2

Every option of ``strength.py`` works; the pairs may also name these variants:

* ``search-play``: the search bot with the heuristic's Klaverjas trump choice (the card play
  searched, the bidding not), to tell the two gains apart;
* ``search-w80``: twice the worlds for each Klaverjas card (80 instead of 40).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from klabsite.bots import BOTS  # noqa: E402
from klabsite.bots.search import SearchBot, SearchStyle  # noqa: E402
from klabsite.bots.search_worlds import Budget  # noqa: E402

VARIANTS = {
    "search-play": lambda: SearchBot(SearchStyle(klaverjas_trump=None)),
    "search-w80": lambda: SearchBot(SearchStyle(klaverjas_play=Budget(worlds=80, min_worlds=16,
                                                                      nodes=8_000_000))),
}
"""The variants by name, beside the registry's bots (for this script only)."""

if __name__ == "__main__":
    import strength

    BOTS.update(VARIANTS)
    strength.main(sys.argv[1:])
