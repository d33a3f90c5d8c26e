"""Mutation testing of the build's inputs (Hypothesis): catalogs, rules pages and site.toml.

Property: the build either succeeds with pages that pass the guard, or fails with exit 1 and
exactly one line ``path:LINE: message`` pointing at an existing source file, leaving the previous
output byte-identical (:func:`tests.site_mutations.judge`). The fixture site is small and built in
English and French only (site.toml mutations: in every language), so each example takes a
fraction of a second.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from klabsite.site import directives
from klabsite.site.config import load_config
from tests.site_helpers import build_quietly, fixture_hand, make_project
from tests.site_mutations import (
    Choose,
    files_of,
    judge,
    mutate_catalog,
    mutate_markdown,
    mutate_settings,
    restore,
)

EXAMPLES = settings(max_examples=25, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

CATALOGS = ("locales/fr/LC_MESSAGES/content.po", "locales/fr/LC_MESSAGES/messages.po")
PAGES = ("site_src/rules/01-basics.md", "site_src/rules/02-play.md")


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Iterator[tuple[Path, dict[str, bytes]]]:
    """The fixture project, built once; and the files of that build."""
    root = make_project(tmp_path_factory.mktemp("mutations") / "project")
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(directives.DIRECTIVES, "fixture-hand", fixture_hand)
        patch.delenv("SOURCE_DATE_EPOCH", raising=False)
        assert build_quietly(root)[0] == 0
        yield root, files_of(root / "_site")


def _chooser(data: st.DataObject) -> Choose:
    return lambda n: data.draw(st.integers(0, max(n - 1, 0)))


def _check(root: Path, before: dict[str, bytes], path: str | None, text: str, **options) -> None:
    """Build with ``path`` holding ``text`` (None: site.toml), judge, then put everything back."""
    target = root / (path or "site_src/site.toml")
    original = target.read_bytes() if target.exists() else None
    target.write_text(text, encoding="utf-8")
    out_dir = root / "_site"
    try:
        status, stdout, stderr = build_quietly(root, **options)
        if status == 0 and path is None:
            out_dir = load_config(root).out_dir
        verdict, detail = judge(root, root / "_site" if status else out_dir, before, status, stdout, stderr)
        assert verdict != "broken", f"{detail}\n--- {target.name} ---\n{text}"
    finally:
        if original is None:
            target.unlink()
        else:
            target.write_bytes(original)
        if out_dir != root / "_site":
            shutil.rmtree(out_dir, ignore_errors=True)
        restore(root / "_site", before)
        assert not [p.name for p in root.iterdir() if p.name.startswith(("_site.new-", "_site.old-"))]


@EXAMPLES
@given(data=st.data())
def test_mutated_catalog_builds_cleanly_or_fails_at_its_source_line(built, data):
    root, before = built
    path = data.draw(st.sampled_from(CATALOGS))
    text = mutate_catalog((root / path).read_text(encoding="utf-8"), _chooser(data))
    _check(root, before, path, text, langs=["fr"])


@EXAMPLES
@given(data=st.data())
def test_mutated_rules_page_builds_cleanly_or_fails_at_its_source_line(built, data):
    root, before = built
    path = data.draw(st.sampled_from(PAGES))
    text = mutate_markdown((root / path).read_text(encoding="utf-8"), _chooser(data))
    _check(root, before, path, text, langs=["fr"])


@settings(EXAMPLES, max_examples=20)
@given(data=st.data())
def test_mutated_site_toml_builds_cleanly_or_fails_at_its_source_line(built, data):
    root, before = built
    _check(root, before, None, mutate_settings(_chooser(data)))


def test_judge_catches_what_the_property_forbids(built, tmp_path):
    root, before = built
    assert judge(root, root / "_site", before, 1, "", "site_src/rules/02-play.md:3: x\n")[0] == "error"
    assert judge(root, root / "_site", before, 1, "", "site_src/nothing.md:3: x\n")[0] == "broken"
    assert judge(root, root / "_site", before, 1, "", "site_src/rules/02-play.md:300: x\n")[0] == "broken"
    assert judge(root, root / "_site", before, 1, "", "one\ntwo\n")[0] == "broken"
    assert judge(root, root / "_site", before, 3, "", "build: internal error\n")[0] == "broken"
    changed = dict(before, **{"index.html": b"<p>changed</p>"})
    assert judge(root, root / "_site", changed, 1, "", "site_src/rules/02-play.md:3: x\n")[0] == "broken"
    bad = tmp_path / "site"
    restore(bad, {"index.html": b'<html><head></head><body><p onclick="x">hi</p></body></html>'})
    assert judge(root, bad, before, 0, "built", "")[0] == "broken"
