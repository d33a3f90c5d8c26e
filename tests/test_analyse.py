"""``klabsite analyse`` and ``klabsite check --dd``: every card play with a choice gets the solver's
``dd``; the output is canonical, passes ``check`` and ``check --dd``, keeps everything else and
changes no id."""

from __future__ import annotations

import io
import sys

import pytest

from klabsite.cli import main
from klabsite.commands import analyse as analyse_command
from klabsite.commands.simulation import simulate
from klabsite.engine.actions import ActionKind
from klabsite.records.klab import read_record
from klabsite.records.replay import legal_cards, positions, replay
from klabsite.solver import Solver
from klabsite.solver.annotate import analyse_record, deal_values, verify_dd
from tests.helpers import AUDIT, run_check

KLABERJASS = simulate("klaberjass", "analyse", deals=3).to_text()
KLAVERJAS = simulate("klaverjas", "analyse", deals=1).to_text()


def run(capsys, *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def _analysed(text: str) -> str:
    record = read_record(text)
    _, errors = analyse_record(record)
    assert not errors
    return record.to_text()


@pytest.mark.parametrize("text", [KLABERJASS, KLAVERJAS], ids=["klaberjass", "klaverjas"])
def test_every_card_play_with_a_choice_gets_the_solvers_values(text):
    record = read_record(_analysed(text))
    replayed = replay(record)
    assert replayed.valid, replayed.errors
    choices = 0
    for done in replayed.deals:
        solver = Solver()
        for index, action, deal in positions(done):
            values = done.record.dd_of(index) if index < len(done.record.actions) else None
            if action.kind is not ActionKind.PLAY or len(legal_cards(deal)) == 1:
                assert values is None, action
                continue
            choices += 1
            assert values is not None and dict(values) == solver.card_values(deal)
            assert values[0][1] == solver.solve(deal)  # the best card first
    assert choices > 10


@pytest.mark.parametrize("text", [KLABERJASS, KLAVERJAS], ids=["klaberjass", "klaverjas"])
def test_analysed_output_passes_check_and_check_dd(capsys, tmp_path, text):
    path = tmp_path / "game.klab"
    path.write_text(text, encoding="utf-8")
    assert run(capsys, "analyse", "--in-place", str(path))[0] == 0
    assert run_check(capsys, path)[0] == 0
    status, out, err = run_check(capsys, "--dd", path)
    assert (status, err) == (0, ""), err


def test_ids_do_not_change_when_a_record_is_analysed_or_analysed_again():
    plain = read_record(KLABERJASS)
    once = read_record(_analysed(KLABERJASS))
    twice = _analysed(once.to_text())
    assert once.to_text() != plain.to_text() and twice == once.to_text()  # idempotent
    assert once.match_id() == plain.match_id()
    assert [once.deal_id(i) for i in range(3)] == [plain.deal_id(i) for i in range(3)]


def test_analysis_replaces_dd_and_keeps_tags_notes_and_other_annotations():
    analysed = _analysed(KLABERJASS)
    lines = analysed.split("\n")
    first = next(i for i, line in enumerate(lines) if "{dd " in line)
    card_line = lines[first]
    lines[first] = card_line.split(" {dd")[0] + " {seen} {dd " + card_line.split(" {dd ")[1].replace(":", ":1", 1)
    deal_at = lines.index('[Deal "1"]')
    lines.insert(deal_at + 1, '[Note "a note"]')
    lines.insert(deal_at + 1, '[Mine "kept"]')
    edited = "\n".join(lines)
    again = _analysed(edited)
    assert '[Note "a note"]' in again and '[Mine "kept"]' in again and "[Tags " in again
    assert card_line.split(" {dd")[0] + " {seen} {dd " + card_line.split(" {dd ")[1] in again
    assert again.replace(' {seen}', "").replace('[Mine "kept"]\n', "").replace('[Note "a note"]\n', "") == analysed


def test_a_replaced_dd_keeps_its_place_among_the_other_annotations():
    analysed = _analysed(KLABERJASS)
    lines = analysed.split("\n")
    at = [i for i, line in enumerate(lines) if "{dd " in line][:2]
    for i in at:  # a stale dd before {seen}, and one between {a} and {b}
        action, dd = lines[i].split(" {dd ")
        stale = "{dd " + " ".join(pair.split(":")[0] + ":0" for pair in dd.rstrip("}").split()) + "}"
        lines[i] = f"{action} {stale} {{seen}}" if i == at[0] else f"{action} {{a}} {stale} {{b}}"
    again = _analysed("\n".join(lines)).split("\n")
    first, second = (analysed.split("\n")[i].split(" {dd ") for i in at)
    assert again[at[0]] == f"{first[0]} {{dd {first[1]} {{seen}}"
    assert again[at[1]] == f"{second[0]} {{a}} {{dd {second[1]} {{b}}"


def test_a_stale_or_misordered_dd_is_replaced_not_refused(capsys, tmp_path):
    analysed = _analysed(KLABERJASS)
    line = next(line for line in analysed.split("\n") if "{dd " in line and line.count(":") > 2)
    cards = line.split("{dd ")[1].rstrip("}").split()
    wrong = line.split(" {dd")[0] + " {dd " + " ".join(reversed([c.split(":")[0] + ":0" for c in cards])) + "}"
    path = tmp_path / "game.klab"
    path.write_text(analysed.replace(line, wrong), encoding="utf-8")
    assert run_check(capsys, path)[0] == 1
    status, out, err = run(capsys, "analyse", str(path))
    assert (status, err) == (0, "") and out == analysed


def test_check_dd_reports_a_wrong_value_at_its_line_naming_the_right_one(capsys, tmp_path):
    analysed = _analysed(KLABERJASS)
    lines = analysed.split("\n")
    at = next(i for i, line in enumerate(lines) if "{dd " in line)
    right = lines[at][lines[at].index("{dd"):]
    best_card, best_value = right[4:-1].split()[0].split(":")
    lines[at] = lines[at].replace(f"{best_card}:{best_value}", f"{best_card}:{int(best_value) + 100}")
    path = tmp_path / "game.klab"
    path.write_text("\n".join(lines), encoding="utf-8")
    assert run_check(capsys, "--no-dd", path)[0] == 0  # well formed: --no-dd does not solve
    expected = f"{path}:{at + 1}: dd of {lines[at].split(' {')[0]} disagrees with the solver: expected {right}\n"
    for options in ((), ("--dd",)):  # record-format.md: check reports any other mismatch at its line
        status, out, err = run_check(capsys, *options, path)
        assert (status, out, err) == (1, "", expected)


def test_verify_dd_reports_the_first_wrong_annotation_of_each_deal():
    record = read_record(_analysed(KLABERJASS))
    for deal in record.deals:
        for index in range(len(deal.actions)):
            values = deal.dd_of(index)
            if values is not None:
                deal.set_dd(index, {card: value + 1 for card, value in values})
    errors = verify_dd(replay(record))
    assert len(errors) == len([deal for deal in record.deals if any(deal.dd_values())])
    assert all("disagrees with the solver" in error.message for error in errors)


def test_analyse_writes_to_stdout_out_or_in_place(capsys, tmp_path):
    path = tmp_path / "game.klab"
    path.write_text(KLABERJASS, encoding="utf-8")
    status, out, err = run(capsys, "analyse", str(path))
    assert status == 0 and err == "" and out == _analysed(KLABERJASS)
    assert path.read_text(encoding="utf-8") == KLABERJASS
    target = tmp_path / "out.klab"
    status, out, err = run(capsys, "analyse", str(path), "--out", str(target))
    assert status == 0 and target.read_text(encoding="utf-8") == _analysed(KLABERJASS)
    assert out.startswith(f"analysed {path}: 3 deals, ") and out.endswith(f"card plays annotated, written to {target}\n")
    status, out, err = run(capsys, "analyse", "--in-place", str(path), str(target))
    assert status == 0 and path.read_text(encoding="utf-8") == _analysed(KLABERJASS)
    assert len(out.splitlines()) == 2


def test_analyse_out_dash_writes_to_standard_output(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "game.klab").write_text(KLABERJASS, encoding="utf-8")
    status, out, err = run(capsys, "analyse", "game.klab", "--out", "-")
    assert (status, out, err) == (0, _analysed(KLABERJASS), "")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["game.klab"]


def test_analyse_reads_standard_input(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(KLAVERJAS.encode("utf-8"))))
    status, out, _ = run(capsys, "analyse", "-")
    assert status == 0 and out == _analysed(KLAVERJAS)


def test_a_record_with_mistakes_is_reported_and_not_written(capsys, tmp_path):
    broken = (AUDIT / "kb_result_wrong.klab").read_text(encoding="utf-8")
    path = tmp_path / "bad.klab"
    path.write_text(broken, encoding="utf-8")
    status, out, err = run(capsys, "analyse", "--in-place", str(path))
    check_status, _, check_err = run_check(capsys, path)
    assert status == check_status == 1 and out == "" and err == check_err
    assert path.read_text(encoding="utf-8") == broken


@pytest.mark.parametrize(("args", "message"), [
    (["a.klab", "b.klab"], "several files need --in-place"),
    (["--in-place", "-"], "--in-place cannot write back to standard input"),
])
def test_usage_errors_exit_2(capsys, args, message):
    status, out, err = run(capsys, "analyse", *args)
    assert status == 2 and message in err and err.count("\n") == 1


def test_an_unwritable_out_is_refused_before_the_analysis(capsys, tmp_path, monkeypatch):
    path = tmp_path / "game.klab"
    path.write_text(KLAVERJAS, encoding="utf-8")

    def no_analysis(*args, **kwargs):
        raise AssertionError("analysed before the output was checked")

    monkeypatch.setattr(analyse_command, "_analyse", no_analysis)
    target = tmp_path / "no" / "out.klab"
    status, out, err = run(capsys, "analyse", str(path), "--out", str(target))
    assert (status, out) == (2, "")
    assert err == f"klabsite analyse: {target}: cannot write the analysed record: no such folder\n"


def test_a_missing_file_exits_2_with_one_line(capsys, tmp_path):
    status, _, err = run(capsys, "analyse", str(tmp_path / "none.klab"))
    assert status == 2 and err.count("\n") == 1 and "No such file" in err


def test_deal_values_skip_forced_cards():
    done = max(replay(read_record(KLABERJASS)).deals, key=lambda done: len(done.record.actions))
    indexes = [index for index, _ in deal_values(done)]
    plays = [index for index, action in enumerate(done.record.actions) if action.kind is ActionKind.PLAY]
    assert indexes and set(indexes) < set(plays)


def test_help_has_plain_words_and_examples(capsys):
    with pytest.raises(SystemExit):
        main(["analyse", "--help"])
    out = capsys.readouterr().out
    assert "examples:\n  klabsite analyse game.klab" in out and "--in-place" in out


@pytest.mark.parametrize("where", [["--out", "out.klab"], ["--in-place"]])
def test_a_failed_write_names_the_file_as_given(capsys, tmp_path, monkeypatch, where):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "game.klab").write_text(KLABERJASS, encoding="utf-8")

    def full(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("os.replace", full)
    status, out, err = run(capsys, "analyse", "game.klab", *where)
    monkeypatch.undo()
    named = "out.klab: cannot write the analysed record: " if where[0] == "--out" else "game.klab: "
    assert (status, out, err) == (2, "", f"klabsite analyse: {named}No space left on device\n")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["game.klab"]


def test_standard_output_that_cannot_be_written_is_named_not_the_record(capsys, tmp_path, monkeypatch):
    (tmp_path / "game.klab").write_text(KLABERJASS, encoding="utf-8")
    monkeypatch.setattr("sys.stdout", None)  # closed: klabsite analyse game.klab >&-
    status = main(["analyse", str(tmp_path / "game.klab")])
    monkeypatch.undo()
    assert (status, capsys.readouterr().err) == (
        2, "klabsite analyse: standard output: cannot write the analysed record: it is closed\n")
