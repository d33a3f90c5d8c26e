"""Ctrl-C during a build: one line, exit 130, and no worker process left behind.

The real project is built (it has enough pages to render on several processes) into a temporary
folder, in a process of its own session; the interrupt comes once a worker runs.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.site_helpers import REPO

pytestmark = pytest.mark.skipif(not Path("/proc").is_dir() or (os.cpu_count() or 1) < 2,
                                reason="needs /proc and two cores (workers)")


def _processes() -> list[tuple[int, list[str]]]:
    """Every process: its id and the fields of ``/proc/PID/stat`` after the name (state, parent,
    group …)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                found.append((int(entry.name), (entry / "stat").read_text().rsplit(")", 1)[1].split()))
            except OSError:
                continue
    return found


def _children(pid: int) -> list[int]:
    return [child for child, fields in _processes() if int(fields[1]) == pid]


def _in_group(group: int) -> list[int]:
    return [member for member, fields in _processes() if int(fields[2]) == group and fields[0] != "Z"]


@pytest.mark.parametrize("whole_group", [True, False], ids=["ctrl-c", "sigint-to-the-build-only"])
def test_an_interrupted_build_says_so_in_one_line_and_stops_its_workers(tmp_path, whole_group):
    build = subprocess.Popen([sys.executable, "-m", "klabsite", "build", "--out", str(tmp_path / "_site")],
                             cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             start_new_session=True)
    deadline = time.monotonic() + 120
    while not _children(build.pid) and build.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert build.poll() is None, "the build ended before it started its workers"
    time.sleep(0.3)
    if whole_group:
        os.killpg(build.pid, signal.SIGINT)  # what a terminal's Ctrl-C does
    else:
        os.kill(build.pid, signal.SIGINT)
    out, err = build.communicate(timeout=60)
    time.sleep(0.5)
    assert build.returncode == 130, (out, err)
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("build: interrupted while rendering"), err
    assert _in_group(build.pid) == [], "a worker is still running"
    assert not (tmp_path / "_site").exists()


_DYING_WORKER = """
import os, signal, sys
from types import SimpleNamespace
from concurrent.futures.process import BrokenProcessPool
from klabsite.site.pagework import render_pages

def render(page, alternates):
    if page.path == "p7.html":
        os.kill(os.getpid(), signal.SIGKILL)  # as the out-of-memory killer would
    return "<!doctype html><p>x</p>"

renderer = SimpleNamespace(render=render, config=SimpleNamespace(base_url=None), site_path=lambda path: path)
pages = [SimpleNamespace(path=f"p{number}.html") for number in range(1000)]
try:
    render_pages(renderer, pages, lambda page: {}, [page.path for page in pages], jobs=2)
except BrokenProcessPool:
    sys.exit(7)
"""


def test_a_worker_that_dies_is_an_error_not_a_hang():
    done = subprocess.run([sys.executable, "-c", _DYING_WORKER], cwd=REPO, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 7, done.stderr
