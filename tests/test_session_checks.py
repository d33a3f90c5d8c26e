"""The session check of tests/browser_count.py: a collected browser test that does not pass fails the run."""

from __future__ import annotations

from pathlib import Path

pytest_plugins = ["pytester"]

CONFTEST = (Path(__file__).parent / "browser_count.py").read_text(encoding="utf-8")
BROWSER_TESTS = """
import pytest

@pytest.mark.browser
def test_runs():
    pass

@pytest.mark.browser
def test_skips():
    pytest.skip("no Chromium")
"""


def _run(pytester, source: str, *args: str):
    pytester.makeconftest(CONFTEST)
    pytester.makeini("[pytest]\nmarkers =\n    browser: a browser test\n")
    pytester.makepyfile(test_inner=source)
    return pytester.runpytest_subprocess("-p", "no:playwright", "-p", "no:cacheprovider", *args)


def test_a_skipped_browser_test_fails_the_session(pytester, monkeypatch):
    monkeypatch.delenv("KLABSITE_ALLOW_BROWSER_SKIP", raising=False)
    result = _run(pytester, BROWSER_TESTS)
    result.assert_outcomes(passed=1, skipped=1)
    assert result.ret == 1
    result.stdout.fnmatch_lines(["browser tests: 1 of 2 passed", "*did not pass: *test_skips (skipped)"])


def test_browser_tests_that_all_pass_leave_the_session_green(pytester, monkeypatch):
    monkeypatch.delenv("KLABSITE_ALLOW_BROWSER_SKIP", raising=False)
    result = _run(pytester, BROWSER_TESTS, "-k", "runs")
    assert result.ret == 0
    result.stdout.fnmatch_lines(["browser tests: 1 of 1 passed"])


def test_skipping_browser_tests_can_be_allowed_on_purpose(pytester, monkeypatch):
    monkeypatch.setenv("KLABSITE_ALLOW_BROWSER_SKIP", "1")
    assert _run(pytester, BROWSER_TESTS).ret == 0
