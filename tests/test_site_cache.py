"""Rebuilding only what changed (klabsite.site.cache): every input the build reads counts, and a
build that reuses pages gives the same output as one that starts from nothing."""

from __future__ import annotations

import shutil

import pytest

from klabsite.site.build import build
from klabsite.site.config import load_config
from tests.site_helpers import REPO, tree

RECORDS = REPO / "tests" / "fixtures" / "replays"


@pytest.fixture
def built(project):
    """The fixture project with two deal records and a record-format page, built once (English)."""
    deals = project / "site_src" / "deals"
    deals.mkdir()
    for name in ("kb.klab", "kv.klab"):
        shutil.copy(RECORDS / name, deals / name)
    (project / "docs").mkdir()
    (project / "docs" / "record-format.md").write_text("# Deal records\n\nThe format.\n", encoding="utf-8")
    report = build(load_config(project, languages=["en"]))
    assert not report.up_to_date and report.reused == 0
    return project


def _edit(path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_a_build_with_nothing_changed_writes_nothing(built):
    before = tree(built / "_site")
    report = build(load_config(built, languages=["en"]))
    assert report.up_to_date and tree(built / "_site") == before


@pytest.mark.parametrize(("changed", "old", "new", "page"), [
    ("site_src/rules/01-basics.md", "# The basics", "# The changed basics", "en/basics.html"),
    ("docs/record-format.md", "The format.", "The changed format.", "en/record-format.html"),
    ("site_src/templates/base.html", "</main>", "<p>The changed shell.</p></main>", "en/basics.html"),
    ("site_src/static/style.css", "", ".changed-stylesheet { color: red; }\n", "en/basics.html"),
])
def test_a_change_to_any_input_the_build_reads_rebuilds_the_site(built, changed, old, new, page):
    _edit(built / changed, old, new)
    report = build(load_config(built, languages=["en"]))
    assert not report.up_to_date
    shown = (built / "_site" / page).read_text(encoding="utf-8")
    if changed.endswith(".css"):
        name = shown.split('rel="stylesheet" href="', 1)[1].split('"', 1)[0].replace("../", "")
        shown = (built / "_site" / name).read_text(encoding="utf-8")
    assert new.strip("# \n").removesuffix("</main>") in shown


def test_another_version_of_a_library_the_build_uses_rebuilds_the_site(built, monkeypatch):
    """An upgraded Markdown or Jinja2 may write other bytes: the site is not "up to date" then."""
    from importlib import metadata

    real = metadata.version
    monkeypatch.setattr(metadata, "version", lambda name: "999.0" if name == "Markdown" else real(name))
    report = build(load_config(built, languages=["en"]))
    assert not report.up_to_date and report.reused == 0


def test_pages_reused_from_the_last_build_give_the_site_a_fresh_build_gives(built, tmp_path):
    _edit(built / "site_src" / "deals" / "kv.klab", "bots=heuristic", "bots=heuristic (edited)")
    report = build(load_config(built, languages=["en"]))
    assert not report.up_to_date and report.reused > 0, "the other record's pages are taken as they were"
    fresh = build(load_config(built, languages=["en"], out_dir=tmp_path / "fresh"))
    assert fresh.reused == 0
    assert tree(built / "_site") == tree(tmp_path / "fresh")


def _a_page(built) -> str:
    """The path of one replay page of the built site (a page later builds may take over)."""
    page = next((built / "_site" / "en" / "deals").glob("*/t1-1.html"))
    return page.relative_to(built / "_site").as_posix()


def test_an_output_this_machine_did_not_write_is_rendered_anew(built, tmp_path, monkeypatch):
    """A manifest counts only where the cache remembers writing it: an output folder committed to a
    repository or copied from elsewhere (here: another cache) is never "up to date"."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "another-machine"))
    report = build(load_config(built, languages=["en"]))
    assert not report.up_to_date and report.reused == 0
    assert build(load_config(built, languages=["en"])).up_to_date, "what it wrote itself, it trusts"


def test_a_page_changed_after_the_build_is_drawn_again(built, tmp_path):
    page = built / "_site" / _a_page(built)
    good = page.read_bytes()
    page.write_bytes(good.replace(b"</main>", b"<script>alert(1)</script></main>"))
    assert not build(load_config(built, languages=["en"])).up_to_date
    assert page.read_bytes() == good
    _edit(built / "site_src" / "deals" / "kv.klab", "bots=heuristic", "bots=heuristic (edited)")
    page.write_bytes(good.replace(b"</main>", b"<script>alert(1)</script></main>"))
    report = build(load_config(built, languages=["en"]))
    assert report.reused > 0 and b"<script" not in page.read_bytes()


def test_a_link_or_a_stray_file_in_the_output_is_neither_followed_nor_kept(built, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP SECRET\n", encoding="utf-8")
    page = built / "_site" / _a_page(built)
    page.unlink()
    page.symlink_to(secret)
    (built / "_site" / "en" / "stray.html").write_text("<p>stray</p>", encoding="utf-8")
    for edit in (None, "bots=heuristic (edited)"):
        if edit:
            _edit(built / "site_src" / "deals" / "kv.klab", "bots=heuristic", edit)
            page.unlink()
            page.symlink_to(secret)
        report = build(load_config(built, languages=["en"]))
        assert not report.up_to_date
        assert not page.is_symlink() and b"TOP SECRET" not in page.read_bytes()
        assert not (built / "_site" / "en" / "stray.html").exists()


def test_an_extra_folder_or_a_changed_mode_is_not_up_to_date(built):
    (built / "_site" / "empty").mkdir()
    assert not build(load_config(built, languages=["en"])).up_to_date
    assert not (built / "_site" / "empty").exists()
    page = built / "_site" / _a_page(built)
    page.chmod(0o600)
    assert not build(load_config(built, languages=["en"])).up_to_date
    assert page.stat().st_mode & 0o777 == 0o644


@pytest.mark.parametrize(("home", "xdg"), [("", ""), ("relative-home", "relative-cache")])
def test_without_an_absolute_cache_folder_nothing_is_remembered_anywhere(built, tmp_path, monkeypatch, home, xdg):
    """An empty or relative HOME or XDG_CACHE_HOME (the XDG spec: ignore a relative one) gives no
    cache: every build draws everything, and no .cache folder appears in the current folder."""
    monkeypatch.setenv("HOME", home)
    monkeypatch.setenv("XDG_CACHE_HOME", xdg)
    monkeypatch.chdir(tmp_path)
    for _ in range(2):
        assert not build(load_config(built, languages=["en"])).up_to_date
    assert sorted(path.name for path in tmp_path.iterdir()) == ["project"]


def test_the_cache_keeps_the_newest_manifests_whatever_else_lies_in_it(built, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    folder = tmp_path / "cache" / "klabsite" / "manifests"
    folder.mkdir(parents=True)
    for number in range(80):
        (folder / f"junk-{number}").touch()
    (folder / "dangling").symlink_to(tmp_path / "nowhere")
    build(load_config(built, languages=["en"]))
    assert len(list(folder.iterdir())) == 64
    assert build(load_config(built, languages=["en"])).up_to_date
