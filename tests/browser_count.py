"""A pytest plugin: a browser test that is collected must run.

The browser tests skip themselves where no Chromium exists; a skip that nobody reads would let
a broken set-up pass. So when browser tests are collected, the session fails unless every one
of them passed (set ``KLABSITE_ALLOW_BROWSER_SKIP=1`` to allow skipping on purpose). The hooks
are registered by tests/conftest.py.
"""

from __future__ import annotations

import os

import pytest

_browser: dict[str, str] = {}


def pytest_collection_finish(session: pytest.Session) -> None:
    """Remember every collected browser test."""
    _browser.clear()
    for item in session.items:
        if item.get_closest_marker("browser"):
            _browser[item.nodeid] = "not run"


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Track each browser test's outcome (a failure in any phase sticks)."""
    if report.nodeid not in _browser or _browser[report.nodeid] in ("failed", "skipped"):
        return
    if report.failed or report.skipped:
        _browser[report.nodeid] = report.outcome
    elif report.when == "call":
        _browser[report.nodeid] = "passed"


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fail the session when fewer browser tests passed than were collected."""
    if not _browser or os.environ.get("KLABSITE_ALLOW_BROWSER_SKIP") == "1":
        return
    passed = sum(outcome == "passed" for outcome in _browser.values())
    if passed < len(_browser) and session.exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter) -> None:  # type: ignore[no-untyped-def]
    """Say how many browser tests ran, and which did not."""
    if not _browser:
        return
    missing = [nodeid for nodeid, outcome in _browser.items() if outcome != "passed"]
    terminalreporter.write_line(f"browser tests: {len(_browser) - len(missing)} of {len(_browser)} passed")
    for nodeid in missing[:5]:
        terminalreporter.write_line(f"  did not pass: {nodeid} ({_browser[nodeid]})")
