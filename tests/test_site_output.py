"""The output folder (trust items 4 and 16): a build never destroys data.

``build --out`` and ``out_dir`` refuse the project, its sources and files; the build only ever
replaces a directory it made itself (the marker file), cleans up after a build that was killed,
and refuses a read-only output before rendering anything.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from klabsite.site import build as build_module
from klabsite.site.writer import MARKER, UNFINISHED, write_site
from tests.site_helpers import REPO, build_quietly, tree


def _snapshot(root: Path) -> dict[str, bytes]:
    """Every file of the project (to show a refused build changed nothing)."""
    return {path.relative_to(root).as_posix(): path.read_bytes()
            for path in sorted(root.rglob("*")) if path.is_file()}


def _refused(root: Path, out: str, expected: str) -> None:
    before = _snapshot(root)
    status, stdout, stderr = build_quietly(root, out=out)
    assert (status, stdout) == (1, ""), stderr
    assert stderr.count("\n") == 1 and stderr.startswith("--out: "), stderr
    assert expected in stderr, stderr
    assert _snapshot(root) == before
    assert not list(root.parent.glob("*.new-*")) and not list(root.parent.glob("*.old-*"))


def test_build_out_refuses_the_project_root(project):
    _refused(project, str(project), "is the project folder")


def test_build_out_refuses_the_checkout_by_its_own_name(project, monkeypatch):
    monkeypatch.chdir(project)
    _refused(project, f"../{project.name}", "is the project folder")


def test_build_out_refuses_a_folder_holding_the_project(project):
    _refused(project, str(project.parent), "contains the project folder")


@pytest.mark.parametrize("out", ["site_src", "locales", "klabsite", "tests", ".git", "_site/../site_src",
                                 "site_src/rules", "locales/fr/LC_MESSAGES", "docs", "docs/site"])
def test_build_out_refuses_a_source_folder(project, out):
    for name in ("klabsite", "tests", ".git", "docs"):
        (project / name).mkdir()
        (project / name / "keep.txt").write_text("mine", encoding="utf-8")
    _refused(project, out, "folder; choose another --out")


def test_build_out_refuses_a_symbolic_link_into_the_sources(project):
    (project / "link").symlink_to(project / "site_src", target_is_directory=True)
    _refused(project, "link", "is the project's site_src folder")


def test_build_out_refuses_a_file(project):
    (project / "afile.txt").write_text("precious", encoding="utf-8")
    _refused(project, "afile.txt", "afile.txt is a file, not a folder")


def test_out_dir_in_site_toml_is_refused_at_its_line(project):
    (project / "site_src" / "site.toml").write_text('strict = false\nout_dir = "site_src/rules"\n',
                                                     encoding="utf-8")
    before = _snapshot(project)
    status, _, stderr = build_quietly(project)
    assert status == 1
    assert stderr == ("site_src/site.toml:2: site_src/rules is inside the project's site_src folder; "
                      "choose another out_dir (for example _site)\n")
    assert _snapshot(project) == before


def test_build_out_refuses_a_folder_it_did_not_make(project):
    (project / "notes").mkdir()
    (project / "notes" / "notes.md").write_text("mine", encoding="utf-8")
    _refused(project, "notes", "notes was not made by klabsite build; remove it or choose another --out")


@pytest.mark.parametrize("out", ["public/mine", "public/en/deals"])
def test_build_out_refuses_a_folder_inside_a_site_a_build_made(project, out):
    """The next build into that site would replace it whole, and the folder with it, unannounced."""
    assert build_quietly(project, out="public")[0] == 0
    _refused(project, out, "inside " + str((project / "public").resolve()) + ", a site that the next build there "
             "replaces whole; choose an --out outside it")


def test_build_out_accepts_an_empty_folder_and_marks_its_output(project):
    (project / "public").mkdir()
    assert build_quietly(project, out="public")[0] == 0
    assert (project / "public" / MARKER).is_file() and (project / "public" / "index.html").is_file()
    assert build_quietly(project, out="public")[0] == 0, "a marked folder is replaced"


def test_writer_refuses_an_unmarked_folder(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(ValueError, match="was not made by klabsite build"):
        write_site({"a.html": b"1"}, out)
    assert (out / "keep.txt").read_text(encoding="utf-8") == "mine"


def test_writer_removes_leftovers_of_a_killed_build(tmp_path):
    out = tmp_path / "_site"
    write_site({"a.html": b"1"}, out)
    for name in ("_site.new-abc12345", "_site.old-def67890"):
        (tmp_path / name).mkdir()
        (tmp_path / name / MARKER).write_bytes(b"")
        (tmp_path / name / UNFINISHED).write_bytes(b"")
    (tmp_path / "_site.new-not-ours").mkdir()  # no marker: not the build's, left alone
    write_site({"a.html": b"2"}, out)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["_site", "_site.new-not-ours"]
    assert sorted(path.name for path in out.iterdir()) == [MARKER, "a.html"]


def test_writer_leaves_a_finished_output_or_a_copy_named_like_a_leftover(tmp_path):
    """``klabsite build --out _site.new-preview`` and ``cp -a _site _site.old-backup`` make
    directories named like a killed build's leftovers: they are finished, and stay."""
    write_site({"a.html": b"preview"}, tmp_path / "_site.new-preview")
    write_site({"a.html": b"1"}, tmp_path / "_site")
    shutil.copytree(tmp_path / "_site", tmp_path / "_site.old-backup")
    write_site({"a.html": b"2"}, tmp_path / "_site")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["_site", "_site.new-preview", "_site.old-backup"]
    assert (tmp_path / "_site.new-preview" / "a.html").read_bytes() == b"preview"
    assert (tmp_path / "_site.old-backup" / "a.html").read_bytes() == b"1"


def test_build_killed_while_writing_is_cleaned_up_by_the_next_build(project):
    script = (
        "import os, signal, sys\n"
        f"sys.path.insert(0, {str(REPO)!r})\n"
        "import klabsite.site.writer as writer\n"
        "from klabsite.site import directives\n"
        "from klabsite.site.build import run_build\n"
        "from tests.site_helpers import fixture_hand\n"
        "directives.DIRECTIVES['fixture-hand'] = fixture_hand\n"
        "writer._swap = lambda staging, out: os.kill(os.getpid(), signal.SIGKILL)\n"
        f"run_build(__import__('pathlib').Path({str(project)!r}))\n"
    )
    killed = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=120)
    assert killed.returncode == -9
    assert [path.name.split("-")[0] for path in project.glob("_site.new-*")] == ["_site.new"]
    assert build_quietly(project)[0] == 0
    assert sorted(path.name for path in project.iterdir()) == ["_site", "locales", "site_src"]


@pytest.fixture
def read_only(tmp_path):
    """Make folders read-only for the test, and writable again afterwards (for the clean-up)."""
    folders: list[Path] = []

    def make(folder: Path) -> None:
        folder.chmod(0o555)
        folders.append(folder)

    yield make
    for folder in folders:
        folder.chmod(0o755)


def test_read_only_output_is_refused_before_rendering(project, monkeypatch, read_only):
    assert build_quietly(project)[0] == 0
    before = tree(project / "_site")
    read_only(project / "_site" / "fr")
    monkeypatch.setattr(build_module, "render_site", lambda *args: pytest.fail("rendered"))
    status, _, stderr = build_quietly(project)
    assert status == 1
    assert stderr == "--out: _site/fr is read-only; make it writable (chmod -R u+w) or choose another --out\n"
    assert tree(project / "_site") == before
    assert sorted(path.name for path in project.iterdir()) == ["_site", "locales", "site_src"]


def test_read_only_parent_is_refused_before_rendering(project, monkeypatch, read_only):
    (project / "ro").mkdir()
    read_only(project / "ro")
    monkeypatch.setattr(build_module, "render_site", lambda *args: pytest.fail("rendered"))
    status, _, stderr = build_quietly(project, out="ro/site")
    assert status == 1 and stderr.count("\n") == 1
    assert stderr.startswith("--out: ro/site cannot be written: its folder ") and "read-only" in stderr
    assert os.listdir(project / "ro") == []
