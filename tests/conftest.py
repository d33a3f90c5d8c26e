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


@pytest.fixture(scope="session", autouse=True)
def _own_cache(tmp_path_factory):
    """The builds of the tests remember their outputs in a cache of their own, not the user's."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
        yield


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A project root: the fixture's rules and catalogs, the real templates and stylesheet."""
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    monkeypatch.setitem(directives.DIRECTIVES, "fixture-hand", fixture_hand)
    return make_project(tmp_path / "project")
