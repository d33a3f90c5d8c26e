"""The installed package: a wheel built from this checkout and installed in a fresh virtual
environment builds the default site from a folder outside the checkout, and starts a project."""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from klabsite import __version__
from klabsite.cli import main
from klabsite.site import project as project_module
from klabsite.site.writer import MARKER

REPO = Path(__file__).resolve().parents[1]


def _run(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run([str(arg) for arg in args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=600)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ``bin/`` folder of a fresh virtual environment with klabsite installed from a wheel."""
    folder = tmp_path_factory.mktemp("wheel")
    built = _run(sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir",
                 folder / "dist", REPO, cwd=folder)
    assert built.returncode == 0, built.stderr
    wheels = list((folder / "dist").glob("klabsite-*.whl"))
    assert len(wheels) == 1, wheels
    venv.create(folder / "venv", with_pip=True)
    bin_dir = folder / "venv" / "bin"
    install = _run(bin_dir / "python", "-m", "pip", "install", "--quiet", wheels[0], cwd=folder)
    assert install.returncode == 0, install.stderr
    return bin_dir


def test_installed_wheel_builds_the_default_site_outside_the_checkout(installed, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    result = _run(installed / "klabsite", "build", cwd=elsewhere)
    assert result.returncode == 0, result.stderr
    assert "the default site that comes with klabsite" in result.stdout
    for lang in ("en", "fr", "es", "hr", "ar"):
        assert (elsewhere / "_site" / lang / "index.html").is_file(), lang
    assert list((elsewhere / "_site" / "en").glob("*klaverjas*.html"))


def test_installed_wheel_starts_and_builds_a_project(installed, tmp_path):
    made = _run(installed / "klabsite", "init", "my-site", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    project = tmp_path / "my-site"
    for action in ("extract", "update"):  # its catalogs are complete, klabsite's own strings included
        fresh = _run(installed / "klabsite", "i18n", action, "--check", cwd=project)
        assert fresh.returncode == 0, fresh.stdout + fresh.stderr
    rules = project / "site_src" / "rules" / "01-cards.md"
    rules.write_text(rules.read_text(encoding="utf-8").replace("# ", "# My ", 1), encoding="utf-8")
    result = _run(installed / "klabsite", "build", cwd=project)
    assert result.returncode == 0, result.stderr
    assert f"the project in {project.resolve()}" in result.stdout
    assert (project / "_site" / "en" / "index.html").is_file()
    assert "My " in next((project / "_site" / "en").glob("*cards*.html")).read_text(encoding="utf-8")


def test_installed_wheel_reports_its_version(installed, tmp_path):
    result = _run(installed / "klabsite", "--version", cwd=tmp_path)
    assert (result.returncode, result.stdout.strip()) == (0, f"klabsite {__version__}")


def test_init_refuses_a_folder_that_is_not_empty(tmp_path, capsys):
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "notes.txt").write_text("mine", encoding="utf-8")
    assert main(["init", str(tmp_path / "taken")]) == 1
    assert "not empty" in capsys.readouterr().err
    assert [path.name for path in (tmp_path / "taken").iterdir()] == ["notes.txt"]


@pytest.mark.parametrize("folder", ["site_src", "locales", "docs"])
def test_init_refuses_a_folder_inside_the_default_site_it_copies(tmp_path, capsys, monkeypatch, folder):
    """From a checkout, the default site is the checkout itself: a new project inside one of its
    folders would copy itself into itself until the disk or the stack runs out."""
    default = tmp_path / "default"
    for name in ("site_src", "locales", "docs"):
        (default / name).mkdir(parents=True)
        (default / name / "a.txt").write_text(name, encoding="utf-8")
    monkeypatch.setattr(project_module, "bundled_root", lambda: default)
    assert main(["init", str(default / folder / "mine")]) == 1
    err = capsys.readouterr().err
    assert f"inside the default site's {folder}/ folder" in err and len(err.splitlines()) == 1, err
    assert sorted(path.name for path in (default / folder).iterdir()) == ["a.txt"]


def test_init_refuses_a_folder_inside_a_site_a_build_made(tmp_path, capsys):
    """The next build into that site would delete the new project with it."""
    site = tmp_path / "_site"
    site.mkdir()
    (site / MARKER).write_text("made by a build", encoding="utf-8")
    assert main(["init", str(site / "mine")]) == 1
    err = capsys.readouterr().err
    assert "a site that the next build there replaces whole" in err and len(err.splitlines()) == 1, err
    assert not (site / "mine").exists()


@pytest.mark.parametrize("name", ["", " "])
def test_init_refuses_an_empty_folder_name_rather_than_the_current_folder(tmp_path, capsys, monkeypatch, name):
    monkeypatch.chdir(tmp_path)
    assert main(["init", name]) == 2
    assert capsys.readouterr().err == "klabsite init: a folder name cannot be empty\n"
    assert not any(tmp_path.iterdir())


def test_init_says_how_to_go_on_in_a_line_that_works_when_pasted(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["init", "my site ünï"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "next: cd 'my site ünï' && klabsite build"


def test_init_copies_sources_without_compiled_catalogs(tmp_path, capsys):
    assert main(["init", str(tmp_path / "new")]) == 0
    new = tmp_path / "new"
    assert (new / "site_src" / "site.toml").is_file()
    assert (new / "locales" / "fr" / "LC_MESSAGES" / "content.po").is_file()
    assert not list(new.rglob("*.mo")) and not list(new.rglob("__pycache__"))
    assert "klabsite build" in capsys.readouterr().out


@pytest.mark.parametrize("action", ["compile", "status"])
def test_i18n_check_is_refused_where_it_would_do_nothing_or_change_files(action, tmp_path, capsys):
    assert main(["init", str(tmp_path / "site")]) == 0
    catalogs = {path: path.read_bytes() for path in (tmp_path / "site" / "locales").rglob("*")
                if path.is_file()}
    capsys.readouterr()
    assert main(["i18n", action, "--check", "--root", str(tmp_path / "site")]) == 2
    assert capsys.readouterr().err == (f"klabsite i18n {action}: --check works with extract and update only "
                                       "(nothing was done)\n")
    after = {path: path.read_bytes() for path in (tmp_path / "site" / "locales").rglob("*") if path.is_file()}
    assert after == catalogs, "no .mo file written"


def test_i18n_outside_a_project_is_an_error(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["i18n", "status"]) == 1
    assert "not a site project" in capsys.readouterr().err
