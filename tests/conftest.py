"""Fixtures shared by the test modules (the site tests' small project)."""

from __future__ import annotations

import pytest

from klabsite.site import directives
from tests.site_helpers import fixture_hand, make_project


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A project root: the fixture's rules and catalogs, the real templates and stylesheet."""
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    monkeypatch.setitem(directives.DIRECTIVES, "fixture-hand", fixture_hand)
    return make_project(tmp_path / "project")
