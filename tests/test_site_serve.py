"""``klabsite serve`` (trust item 15), ``klabsite i18n`` outside a project, and the help texts.

A real server on a free port, in a thread or a subprocess, asked with ``urllib``.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from klabsite.cli import build_parser, main
from klabsite.site import directives
from klabsite.site.server import make_server
from tests.site_helpers import REPO, build_quietly, fixture_hand, make_project


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """A built site (the fixture project's ``_site/``), built once for this module."""
    root = make_project(tmp_path_factory.mktemp("serve") / "project")
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(directives.DIRECTIVES, "fixture-hand", fixture_hand)
        patch.delenv("SOURCE_DATE_EPOCH", raising=False)
        assert build_quietly(root)[0] == 0
    return root / "_site"


@pytest.fixture(scope="module")
def server(site) -> Iterator[str]:
    """``http://127.0.0.1:PORT`` serving ``site`` from a thread."""
    httpd = make_server(site, 0)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def _get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def _serve(capsys, *args: str) -> tuple[int, str]:
    status = main(["serve", *args])
    captured = capsys.readouterr()
    return status, captured.err


@pytest.mark.parametrize("port", ["99999", "-1", "abc", "65536", "8e3", ""])
def test_serve_refuses_a_bad_port_in_one_line(capsys, port):
    status, err = _serve(capsys, "--port", port)
    assert status == 2
    assert err == f"--port: must be a number from 0 to 65535 (0 picks a free port), not {port!r}\n"


def test_serve_busy_port_is_one_line_and_exit_1(capsys, site):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        status, err = _serve(capsys, "--port", str(port), "--dir", str(site))
    assert status == 1
    assert err == f"--port {port}: already in use; choose another port, or --port 0 for a free one\n"


def test_serve_without_a_site_says_how_to_build_one(capsys, tmp_path):
    status, err = _serve(capsys, "--port", "0", "--root", str(tmp_path))
    assert status == 1 and err == "_site/index.html: no site here; run: klabsite build\n"


def test_serve_port_0_picks_a_free_port_and_prints_it(site):
    command = [sys.executable, "-m", "klabsite.cli", "serve", "--port", "0", "--dir", str(site)]
    process = subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline() if process.stdout else ""
        assert line.startswith(f"serving {site}/ at http://127.0.0.1:") and line.endswith("/ (Ctrl-C to stop)\n")
        url = line.split(" at ")[1].split(" ")[0]
        assert int(url.rsplit(":", 1)[1].rstrip("/")) > 0
        assert _get(url) == (200, (site / "index.html").read_bytes())
    finally:
        process.terminate()
        process.wait(timeout=10)
        for stream in (process.stdout, process.stderr):
            if stream:
                stream.close()


def test_serve_listens_on_localhost_by_default(site):
    parser = build_parser()
    assert parser.parse_args(["serve"]).host == "127.0.0.1"
    with make_server(site, 0) as httpd:
        assert httpd.server_address[0] == "127.0.0.1"


def test_serve_answers_a_missing_page_with_the_sites_404(server, site):
    assert _get(server + "/fr/nothing.html") == (404, (site / "404.html").read_bytes())
    assert _get(server + "/fr/play.html") == (200, (site / "fr" / "play.html").read_bytes())


def test_serve_lists_no_directories(server, site):
    assert not (site / "assets" / "index.html").exists()
    status, body = _get(server + "/assets/")
    assert (status, body) == (404, (site / "404.html").read_bytes())
    assert _get(server + "/fr/")[0] == 200  # a folder with an index.html shows it


@pytest.mark.parametrize(("path", "status"), [
    ("/%00", 400), ("/fr/play.html%00.txt", 400), ("/%0d%0aSet-Cookie:x", 400), ("/%ff%fe", 400),
    ("/%ed%a0%80", 400), ("/" + "a" * 5000, 404), ("/fr/%2e%2e/%2e%2e/%2e%2e/etc/passwd", 404),
])
def test_serve_odd_paths_get_400_or_404_without_a_traceback(server, capsys, path, status):
    assert _get(server + path)[0] == status
    assert "Traceback" not in capsys.readouterr().err


def test_serve_does_not_escape_the_site(server, site):
    (site.parent / "secret.txt").write_text("secret", encoding="utf-8")
    for path in ("/../secret.txt", "/%2e%2e/secret.txt", "/fr/..%2f..%2fsecret.txt", "//secret.txt"):
        status, body = _get(server + path)
        assert status == 404 and b"secret" not in body, path


def test_serve_follows_no_symbolic_link_out_of_the_site(server, site):
    outside = site.parent / "private"
    outside.mkdir(exist_ok=True)
    (outside / "key.txt").write_text("secret", encoding="utf-8")
    (site / "leak").symlink_to(outside, target_is_directory=True)
    (site / "leak.txt").symlink_to(outside / "key.txt")
    (site / "home.html").symlink_to(site / "index.html")  # a link inside the site still works
    (site / "loop-a").symlink_to(site / "loop-b")
    (site / "loop-b").symlink_to(site / "loop-a")
    try:
        for path in ("/leak/key.txt", "/leak.txt", "/leak/", "/loop-a", "/loop-b/x.html"):
            status, body = _get(server + path)
            assert status == 404 and b"secret" not in body, path
        assert _get(server + "/home.html")[0] == 200
    finally:
        for name in ("leak", "leak.txt", "home.html", "loop-a", "loop-b"):
            (site / name).unlink()


def test_serve_answers_with_its_own_404_page_only_from_inside_the_site(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("<p>home</p>", encoding="utf-8")
    (tmp_path / "key.txt").write_text("secret", encoding="utf-8")
    (site / "404.html").symlink_to(tmp_path / "key.txt")
    httpd = make_server(site, 0)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        for path in ("/missing.html", "/404.html"):
            status, body = _get(f"http://127.0.0.1:{httpd.server_address[1]}{path}")
            assert status == 404 and b"secret" not in body, path
    finally:
        httpd.shutdown()
        httpd.server_close()


# Item 8: klabsite i18n outside a project ---------------------------------------------------------


@pytest.mark.parametrize("action", ["status", "compile", "update", "extract"])
def test_i18n_outside_a_project_exits_1_after_one_line(capsys, tmp_path, action):
    status = main(["i18n", action, "--root", str(tmp_path)])
    captured = capsys.readouterr()
    assert status == 1
    assert captured.err.count("\n") == 1 and "is not a site project" in captured.err
    assert list(tmp_path.iterdir()) == [], "nothing is created"


# Item 9: help texts ------------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["build", "serve", "i18n"])
def test_help_has_plain_words_a_description_and_an_example(command):
    parser = build_parser()
    subparsers = next(action for action in parser._actions if action.dest == "command")
    text = subparsers.choices[command].format_help()  # type: ignore[attr-defined]
    assert "\nexamples:\n  klabsite " in text
    assert len(subparsers.choices[command].description or "") > 80  # type: ignore[attr-defined]
    for markup in ("``", ":func:", ":mod:", ":class:"):
        assert markup not in text, markup
