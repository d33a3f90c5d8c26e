"""Browser tests: build the real site once into a temporary directory, serve it on localhost, and
drive it with Playwright's Chromium (or Debian's ``/usr/bin/chromium`` when Playwright's own browser
is not installed). JavaScript is off in every context except the accessibility scan's.

Without a browser the tests are skipped, except in CI (``CI=true``), where that is a failure.
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from klabsite.site.build import build
from klabsite.site.config import load_config
from tests.helpers import replay_folder

REPO = Path(__file__).resolve().parents[2]
SYSTEM_CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--no-first-run"]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test in this folder is a browser test."""
    here = Path(__file__).parent
    for item in items:
        if Path(str(item.fspath)).is_relative_to(here):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args, playwright):  # overrides pytest-playwright's
    """Playwright's Chromium if installed, else the system one; skip (fail in CI) when neither exists."""
    args = {**browser_type_launch_args, "args": LAUNCH_ARGS}
    if Path(playwright.chromium.executable_path).exists():
        return args
    if Path(SYSTEM_CHROMIUM).exists():
        return {**args, "executable_path": SYSTEM_CHROMIUM}
    own = playwright.chromium.executable_path
    message = f"no Chromium: neither Playwright's ({own}) nor {SYSTEM_CHROMIUM}"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):  # overrides pytest-playwright's
    """JavaScript off: the site must work without it."""
    return {**browser_context_args, "java_script_enabled": False}


@pytest.fixture(scope="session")
def site_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The real site (site_src/ and locales/ of the repository), built once per session."""
    out = tmp_path_factory.mktemp("browser") / "_site"
    build(load_config(REPO, out_dir=out))
    return out


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


@pytest.fixture(scope="session")
def base_url(site_dir: Path) -> Iterator[str]:  # overrides pytest-base-url's: pages are relative to it
    """``http://127.0.0.1:PORT/`` serving the built site from a thread."""
    handler = functools.partial(_QuietHandler, directory=str(site_dir))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def sample_deals(site_dir: Path) -> dict[str, str]:
    """One shipped deal of each game (its id): the replays the browser tests walk page by page."""
    samples: dict[str, str] = {}
    for overview in sorted((site_dir / "en" / "deals").glob("*/index.html")):
        text = overview.read_text(encoding="utf-8")
        for game in ("klaberjass", "klaverjas"):
            if f"replay-{game}" in text and game not in samples:
                samples[game] = overview.parent.name
    return samples


@pytest.fixture(scope="session")
def replay_sample(site_dir: Path, sample_deals: dict[str, str]) -> set[str]:
    """The replay folders every page of which the tests visit: the sample deals and one match."""
    matches = sorted(path.parent.name for path in (site_dir / "en" / "matches").glob("*/index.html"))
    return {f"deals/{deal}" for deal in sample_deals.values()} | {f"matches/{match}" for match in matches[:1]}


@pytest.fixture(scope="session")
def site_pages(site_dir: Path, replay_sample: set[str]) -> list[str]:
    """The HTML pages the tests visit one by one, as paths relative to the site root: every page
    except the replays of deals other than the sample (thousands of pages drawn from the same
    templates; the build checks every one of their links)."""
    pages = (path.relative_to(site_dir).as_posix() for path in site_dir.rglob("*.html"))
    return sorted(path for path in pages if replay_folder(path) in (None, *replay_sample))
