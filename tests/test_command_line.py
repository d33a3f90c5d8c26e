"""``check``, ``simulate`` and ``score`` as a newcomer sees them: help in plain words with examples,
one-line usage errors, and ``simulate --out`` saying what it wrote."""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys

import pytest

from klabsite import bots
from klabsite.cli import main
from tests.site_helpers import REPO

HELPS = [
    ("check",), ("simulate",), ("score",),
    *[("score", "sheet.klab", action) for action in ("new", "add", "show", "edit", "delete", "undo")],
]

MARKUP = re.compile(r"``|:class:|:func:|:meth:|:data:|\bseed \d{3}\b|[\w/-]+\.md\b")
"""reST markup, and internal words: numbered seed documents, Markdown files a user does not have."""


def help_of(capsys, *words: str) -> str:
    with pytest.raises(SystemExit) as done:
        main([*words, "--help"])
    out, err = capsys.readouterr()
    assert (done.value.code, err) == (0, "")
    return out


@pytest.mark.parametrize("words", HELPS, ids=" ".join)
def test_every_help_has_a_plain_description_and_an_example(capsys, words):
    text = help_of(capsys, *words)
    usage, description = text.split("\n\n")[:2]
    assert usage.startswith(f"usage: klabsite {words[0]}")
    assert len(description.split()) >= 8, description  # a sentence, not a bare synopsis
    assert not MARKUP.search(text), MARKUP.search(text)
    examples = text.split("\nexamples:\n", 1)[1].split("\n\n")[0].splitlines()
    assert examples and all(line.startswith("  klabsite ") and f"klabsite {words[0]} " in line for line in examples)
    if len(words) == 3:
        assert all(f" {words[2]}" in line for line in examples if line.startswith("  klabsite score "))


def test_score_help_names_every_action(capsys):
    text = help_of(capsys, "score")
    for action in ("new", "add", "show", "edit", "delete", "undo"):
        assert re.search(rf"^    {action} +\w", text, re.MULTILINE), action


def test_simulate_bots_help_lists_the_bots_of_the_registry(capsys, monkeypatch):
    monkeypatch.setitem(bots.BOTS, "cautious-test-bot", bots.BOTS["random"])
    text = " ".join(help_of(capsys, "simulate").split())
    listed = re.search(r"bots: ([\w, -]+) \(default", text)
    assert listed and listed.group(1).split(", ") == sorted(bots.BOTS)


@pytest.mark.parametrize("words", [
    ("score", "s.klab", "add", "--points"),
    ("score", "s.klab", "add", "--frobnicate"),
    ("score", "s.klab", "add", "x" * 5000),
    ("score", "s.klab", "bogus"),
    ("score", "s.klab", "edit"),
    ("score",),
    ("check",),
    ("check", "--jsn", "x.klab"),
    ("simulate", "--game", "bridge", "--seed", "1", "--deals", "1"),
    ("simulate", "--game", "klaverjas", "--seed", "1", "--deals", "9" * 5000),
    ("simulate", "--game", "klaverjas", "--seed", "1"),
])
def test_a_usage_error_is_one_short_line_with_exit_2(capsys, words):
    with pytest.raises(SystemExit) as done:
        main(list(words))
    out, err = capsys.readouterr()
    assert (done.value.code, out, err.count("\n")) == (2, "", 1), err
    assert re.fullmatch(r"klabsite [a-z .A-Z]+: error: .+ \(see klabsite .+ --help\)\n", err), err
    assert len(err) < 250


@pytest.mark.parametrize(("args", "line"), [
    (("--game", "klaberjass", "--seed", "demo", "--match"), "wrote 14 deals to {out}: N wins 551–481"),
    (("--game", "klaverjas", "--seed", "demo", "--deals", "2"), "wrote 2 deals to {out}"),
    (("--game", "klaverjas", "--seed", "demo", "--deals", "1"), "wrote 1 deal to {out}"),
])
def test_simulate_out_says_what_it_wrote(capsys, tmp_path, args, line):
    out = tmp_path / "m.klab"
    assert main(["simulate", *args, "--out", str(out)]) == 0
    printed, err = capsys.readouterr()
    assert (printed, err) == (line.format(out=out) + "\n", "")
    assert out.read_text().count('[Deal "') == int(line.split()[1])


def test_simulate_refuses_more_deals_than_a_record_holds(capsys):
    assert main(["simulate", "--game", "klaverjas", "--seed", "1", "--deals", "10001"]) == 2
    assert capsys.readouterr().err == "klabsite simulate: --deals takes a number from 1 to 10000\n"


def test_simulate_refuses_a_seed_that_is_not_utf8_or_not_one_line(capsys):
    assert main(["simulate", "--game", "klaverjas", "--seed", "\udce9", "--deals", "1"]) == 2
    assert capsys.readouterr().err == ("klabsite simulate: error: --seed is not UTF-8 text (check the "
                                       "terminal's encoding)\n")
    assert main(["simulate", "--game", "klaverjas", "--seed", "a\nb", "--deals", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--seed: a seed is 1 to 40 characters without blanks" in err


@pytest.mark.parametrize(("words", "line"), [
    (("check", "a\0b.klab"), "klabsite check: error: FILE: a file name cannot hold a NUL character"),
    (("score", "a\0b.klab", "show"), "klabsite score FILE show: error: FILE: a file name cannot hold a NUL character"),
    (("simulate", "--game", "klaverjas", "--seed", "1", "--deals", "1", "--out", "a\0b"),
     "klabsite simulate: error: --out: a file name cannot hold a NUL character"),
])
def test_a_file_name_with_a_nul_character_is_a_usage_error(capsys, words, line):
    assert main(list(words)) == 2
    assert capsys.readouterr() == ("", line + "\n")


@pytest.mark.parametrize(("words", "line"), [
    (("check", ""), "klabsite check: error: FILE: a file name cannot be empty"),
    (("simulate", "--game", "klaverjas", "--seed", "1", "--deals", "1", "--out", ""),
     "klabsite simulate: error: --out: a file name cannot be empty"),
    (("analyse", "x.klab", "--out", ""), "klabsite analyse: error: --out: a file name cannot be empty"),
])
def test_an_empty_file_name_is_a_usage_error(capsys, words, line):
    assert main(list(words)) == 2
    assert capsys.readouterr() == ("", line + "\n")


SIMULATE = ["simulate", "--game", "klaberjass", "--seed", "1", "--deals", "1"]


@pytest.mark.parametrize("out", [".", "..", "/", "folder/", "folder"])
def test_an_output_that_names_a_folder_is_refused_in_one_line(capsys, tmp_path, monkeypatch, out):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "folder").mkdir()
    (tmp_path / "a.klab").write_text(simulated_record(capsys))
    before = sorted(path.name for path in tmp_path.iterdir())
    for words in ([*SIMULATE, "--out", out], ["analyse", "a.klab", "--out", out], ["score", out, "new",
                                                                                   "--game", "klaberjass"]):
        assert main(words) in (1, 2), words
        printed, err = capsys.readouterr()
        assert printed == "" and err.count("\n") == 1 and "is a folder" in err, (words, err)
    assert sorted(path.name for path in tmp_path.iterdir()) == before and not any((tmp_path / "folder").iterdir())


def simulated_record(capsys) -> str:
    """A small valid record, from ``simulate`` on standard output."""
    assert main(SIMULATE) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize(("out", "part"), [("new/.", "is a folder"), ("nowhere/../x.klab", "no such folder"),
                                         ("nowhere/x.klab", "no such folder")])
def test_an_output_in_a_folder_that_does_not_exist_is_refused(capsys, tmp_path, monkeypatch, out, part):
    monkeypatch.chdir(tmp_path)
    assert main([*SIMULATE, "--out", out]) == 2
    assert part in capsys.readouterr().err and not any(tmp_path.iterdir())


def test_a_read_only_output_is_refused_and_left_as_it_was(capsys, tmp_path):
    path = tmp_path / "kept.klab"
    path.write_text(simulated_record(capsys))
    path.chmod(0o444)
    before = path.read_bytes()
    assert main([*SIMULATE[:4], "2", *SIMULATE[5:], "--out", str(path)]) == 2
    assert main(["analyse", str(path), "--in-place"]) == 2
    assert capsys.readouterr().err.count("the file is read-only") == 2
    assert path.read_bytes() == before


def test_a_score_sheet_that_is_not_a_regular_file_is_refused(capsys, tmp_path):
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    assert main(["score", str(pipe), "new", "--game", "klaberjass", "--force"]) == 1
    assert "is not a regular file" in capsys.readouterr().err and stat.S_ISFIFO(os.stat(pipe).st_mode)


def test_analyse_names_its_output_when_writing_it_fails(capsys, tmp_path):
    path = tmp_path / "in.klab"
    path.write_text(simulated_record(capsys))
    assert main(["analyse", str(path), "--out", "/dev/full"]) == 2
    assert capsys.readouterr().err == ("klabsite analyse: /dev/full: cannot write the analysed record: "
                                       "No space left on device\n")


def test_an_output_through_a_symbolic_link_replaces_its_target_and_keeps_the_link(capsys, tmp_path):
    target = tmp_path / "target.klab"
    target.write_text("old")
    link = tmp_path / "link.klab"
    link.symlink_to(target.name)
    assert main([*SIMULATE, "--out", str(link)]) == 0
    assert capsys.readouterr().out == f"wrote 1 deal to {link}\n"
    assert link.is_symlink() and target.read_text() == simulated_record(capsys)


def test_an_output_to_a_device_writes_into_it_and_leaves_it_a_device(capsys):
    assert main([*SIMULATE, "--out", os.devnull]) == 0
    assert capsys.readouterr().out == f"wrote 1 deal to {os.devnull}\n"
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


@pytest.mark.parametrize(("words", "part"), [
    (("--game", "klaverjas", "--bots", ",,,search"), "--bots has an empty name"),
    (("--game", "klaverjas", "--bots", "heuristic,"),
     "e.g. --bots search or --bots search,heuristic,search,heuristic"),
    (("--game", "klaberjass", "--bots", ""), "e.g. --bots search or --bots search,heuristic\n"),
    (("--game", "klaberjass", "--find", "dix", "--jobs", "65"), "--jobs takes a number of processes from 1 to 64"),
])
def test_simulate_refuses_empty_bot_names_and_too_many_jobs(capsys, words, part):
    assert main(["simulate", "--seed", "1", *(["--deals", "1"] if "--find" not in words else []), *words]) == 2
    printed, err = capsys.readouterr()
    assert printed == "" and err.count("\n") == 1 and part in err, err


def test_python_dash_m_klabsite_is_the_klabsite_command(tmp_path):
    done = subprocess.run([sys.executable, "-m", "klabsite", "--version"], capture_output=True, text=True,
                          cwd=tmp_path, check=False)
    assert (done.returncode, done.stdout.startswith("klabsite "), done.stderr) == (0, True, "")


@pytest.mark.parametrize("args", [["build", "--out", ""], ["replay", "game.klab", "--out", ""], ["serve", "--dir", ""]])
def test_an_empty_output_folder_is_refused_not_taken_for_the_default(capsys, tmp_path, monkeypatch, args):
    monkeypatch.chdir(tmp_path)
    status = main(args)
    out, err = capsys.readouterr()
    option = args[-2]
    assert (status, out, err) == (2, "", f"{option}: a folder name cannot be empty\n")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args", [["build", "--lang", ""], ["replay", "game.klab", "--out", "x", "--lang", " , "]])
def test_a_lang_without_a_code_is_refused_not_taken_for_english_alone(capsys, tmp_path, monkeypatch, args):
    monkeypatch.chdir(tmp_path)
    status = main(args)
    out, err = capsys.readouterr()
    assert (status, out, err.count("\n"), err.startswith("--lang: give language codes")) == (2, "", 1, True), err
    assert list(tmp_path.iterdir()) == []



@pytest.mark.parametrize("args", [["build", "--lang", "fr,,ar"], ["replay", "game.klab", "--out", "x", "--lang", "fr,"]])
def test_a_lang_with_an_empty_code_between_commas_is_refused(capsys, tmp_path, monkeypatch, args):
    """As ``simulate --find dix,`` is: a code left out is a mistake, not a language fewer."""
    monkeypatch.chdir(tmp_path)
    status = main(args)
    out, err = capsys.readouterr()
    assert (status, out) == (2, "")
    assert err == f"--lang '{args[-1]}': a code is missing between two commas; write codes such as fr,es\n"
    assert list(tmp_path.iterdir()) == []

def test_replay_refuses_a_record_given_twice(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.klab").write_text("%klab 1\n", encoding="utf-8")
    status = main(["replay", "a.klab", "./a.klab", "--out", "site"])
    out, err = capsys.readouterr()
    assert (status, out, err) == (2, "", "a.klab: given twice; name each record once\n")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["a.klab"]


def test_replay_into_one_of_its_records_says_the_output_is_a_file(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.klab").write_text("%klab 1\n", encoding="utf-8")
    status = main(["replay", "a.klab", "--out", "a.klab"])
    err = capsys.readouterr().err
    assert status != 0 and "a.klab is a file, not a folder" in err and err.count("\n") == 1, err
    assert (tmp_path / "a.klab").read_text(encoding="utf-8") == "%klab 1\n"


@pytest.mark.parametrize("words", [("--frobnicate",), ("--lang",), ("--out", "a", "b")])
def test_build_py_usage_errors_are_one_line_too(words):
    done = subprocess.run([sys.executable, str(REPO / "build.py"), *words], capture_output=True, text=True,
                          timeout=60)
    assert (done.returncode, done.stdout, done.stderr.count("\n")) == (2, "", 1), done.stderr
    assert re.fullmatch(r"build\.py: error: .+ \(see build\.py --help\)\n", done.stderr), done.stderr
