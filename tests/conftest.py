"""Fixtures shared by the test modules (the site tests' small project), and the session check
that every collected browser test ran (tests/browser_count.py)."""

from __future__ import annotations

import pytest

from klabsite.site import directives
from tests.browser_count import (  # noqa: F401 (hooks, registered by being here)
    pytest_collection_finish,
    pytest_runtest_logreport,
    pytest_sessionfinish,
    pytest_terminal_summary,
)
from tests.site_helpers import fixture_hand, make_project


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A project root: the fixture's rules and catalogs, the real templates and stylesheet."""
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    monkeypatch.setitem(directives.DIRECTIVES, "fixture-hand", fixture_hand)
    return make_project(tmp_path / "project")
