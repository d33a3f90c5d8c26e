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


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def _in_group(group: int) -> list[int]:
    members = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == group and fields[0] != "Z":
                members.append(int(entry.name))
    return members


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
