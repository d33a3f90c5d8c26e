"""``klabsite check``: exit codes, FILE:LINE messages, the JSON of docs/record-format.md."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.helpers import check_json, run_check

FIXTURES = Path(__file__).parent / "fixtures" / "records"
VALID = sorted((FIXTURES / "valid").glob("*.klab"))
INVALID = sorted((FIXTURES / "invalid").glob("*.klab"))

KLABERJASS_PLAYED_KEYS = ["deal", "id", "dealer", "outcome", "trump", "maker", "card_points", "last_trick",
                          "melds", "bella", "totals", "result", "score", "match"]
KLAVERJAS_PLAYED_KEYS = ["deal", "id", "dealer", "outcome", "trump", "playing", "card_points", "last_trick",
                         "roem", "pit", "totals", "result", "score", "match"]
KLABERJASS_SCORED_KEYS = ["deal", "id", "dealer", "outcome", "maker", "totals", "result", "score", "match"]
KLAVERJAS_SCORED_KEYS = ["deal", "id", "dealer", "outcome", "playing", "points", "roem", "pit", "totals",
                         "result", "score", "match"]
THROWN_IN_KEYS = ["deal", "id", "dealer", "outcome"]


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.stem)
def test_a_valid_record_exits_0_with_a_line_per_deal(capsys, path):
    status, out, err = run_check(capsys, path)
    assert status == 0 and err == ""
    deals = out.count('[Deal "')  # no tags are echoed
    assert deals == 0
    assert len(out.splitlines()) == path.read_text().count("[Deal ") + 1


@pytest.mark.parametrize("path", INVALID, ids=lambda p: p.stem)
def test_an_invalid_record_reports_the_rule_broken_at_its_line(capsys, path):
    expect = re.fullmatch(r"; expect: (\d+): (.*)", path.read_text(encoding="utf-8").splitlines()[1])
    assert expect, "each invalid fixture states what check must say"
    status, out, err = run_check(capsys, path)
    assert status == 1 and out == ""
    assert err.startswith(f"{path}:{expect.group(1)}: "), err
    assert expect.group(2) in err
    assert "Traceback" not in err


def test_illegal_card_message_names_the_legal_cards(capsys):
    status, _, err = run_check(capsys, FIXTURES / "invalid" / "illegal_card.klab")
    assert status == 1 and re.search(r"cannot play \w\w: must follow suit with \w\w(, \w\w)*", err)


def test_first_error_of_each_deal_is_reported(capsys, tmp_path):
    lines = (FIXTURES / "valid" / "klaberjass_three_deals.klab").read_text().splitlines()
    for number in (1, 3):
        at = lines.index(f'[Deal "{number}"]')
        lines.insert(at + 1, "[Note oops]")
        lines.insert(at + 2, "[Note oops again]")
    path = tmp_path / "two.klab"
    path.write_text("\n".join(lines) + "\n")
    status, _, err = run_check(capsys, path)
    first, third = lines.index('[Deal "1"]') + 2, lines.index('[Deal "3"]') + 2
    assert status == 1 and err.splitlines() == [
        f"{path}:{first}: cannot read tag line '[Note oops]': write [Name \"value\"], the value in double quotes",
        f"{path}:{third}: cannot read tag line '[Note oops]': write [Name \"value\"], the value in double quotes",
    ]


@pytest.mark.parametrize("dealer", ["W", "E", "S"])
def test_the_dealer_moves_on_after_an_unfinished_deal(capsys, tmp_path, dealer):
    """rules.md: the Klaverjas dealer moves one seat clockwise every deal, a deal recorded only in
    part included: after West's unfinished deal, North deals."""
    text = (FIXTURES / "valid" / "klaverjas_unfinished.klab").read_text()
    path = tmp_path / "dealer.klab"
    path.write_text(text.replace('[Deal "2"]\n[Dealer "N"]', f'[Deal "2"]\n[Dealer "{dealer}"]'))
    status, _, err = run_check(capsys, path)
    line = text.splitlines().index('[Dealer "N"]') + 1
    assert status == 1 and err.startswith(f"{path}:{line}: wrong dealer: deal 2 is dealt by N, not {dealer}")


def _klaberjass_unfinished_after(*actions: str, rules: str = "") -> str:
    """Deal 1 of a Klaberjass record (dealt by S) cut after ``actions`` and marked unfinished, then
    as deal 2 the record's deal 3, dealt by S again."""
    lines = (FIXTURES / "valid" / "klaberjass_three_deals.klab").read_text().splitlines()
    start, second = lines.index('[Deal "1"]'), lines.index('[Deal "2"]')
    head = [line for line in lines[start:second] if line.startswith("[") and not line.startswith("[Result")]
    deal_2 = [line.replace('[Deal "3"]', '[Deal "2"]') for line in lines[lines.index('[Deal "3"]'):]]
    match = lines[:start] if not rules else [*lines[:start - 1], f'[Rules "{rules}"]', ""]
    return "\n".join([*match, *head, '[Termination "unfinished"]', *actions, "", *deal_2]) + "\n"


def test_an_unfinished_klaberjass_deal_passes_the_deal_on(capsys, tmp_path):
    path = tmp_path / "kb.klab"
    path.write_text(_klaberjass_unfinished_after("N pass"))
    status, _, err = run_check(capsys, path)
    assert status == 1 and "wrong dealer: deal 2 is dealt by N, not S" in err


def test_a_record_stopping_on_a_schmeiss_may_go_on_with_either_dealer_when_a_redeal_keeps_him(capsys, tmp_path):
    """rules.md: an accepted schmeiss keeps the dealer with schmeiss-redeal=same-dealer; a record
    that stops on the schmeiss does not say whether it was accepted."""
    path = tmp_path / "kb.klab"
    path.write_text(_klaberjass_unfinished_after("N schmeiss", rules="schmeiss-redeal=same-dealer"))
    status, _, err = run_check(capsys, path)
    assert (status, err) == (0, "")
    path.write_text(_klaberjass_unfinished_after("N schmeiss"))
    status, _, err = run_check(capsys, path)
    assert status == 1 and "wrong dealer: deal 2 is dealt by N, not S" in err


def test_a_record_without_deals_is_an_error_at_its_game_tag(capsys, tmp_path):
    """record-format.md: a .klab file records one match: one or more deals."""
    path = tmp_path / "empty.klab"
    path.write_text('%klab 1\n; a sheet just begun\n[Game "klaverjas"]\n')
    status, out, err = run_check(capsys, path)
    assert (status, out) == (1, "") and err.startswith(f"{path}:3: no deals: a record holds one or more deals")


@pytest.mark.parametrize(("fixture", "old", "new", "message"), [
    ("klaberjass_score_sheet.klab", '[Totals "N 84 S 60"]', '[Totals "N 0 S 0"]',
     "[Totals] the totals N 0 S 0 add up to 0, which no deal can make"),
    ("klaberjass_score_sheet.klab", '[Totals "N 84 S 60"]', '[Totals "N 1 S 143"]',
     "[Totals] N 1: no deal gives a player that total"),
    ("klaverjas_score_sheet.klab", '[Points "NS 92"]', '[Points "NS 1"]',
     "[Points] NS 1: no deal gives a side 1 card points"),
    ("klaverjas_score_sheet.klab", '[Roem "NS 20 EW 0"]', '[Roem "NS 10 EW 0"]',
     "[Roem] NS 10: roem comes in 20, 50, 100 and 200"),
    ("klaverjas_score_sheet.klab", '[Roem "NS 20 EW 0"]', '[Roem "NS 700 EW 700"]',
     "[Roem] NS 700 EW 700: no deal holds more than"),
])
def test_a_score_sheet_deal_no_deal_could_give_is_an_error_at_its_tag(capsys, tmp_path, fixture, old, new, message):
    """rules.md: cards count 2, 3, 4, 10, 11, 14 or 20 and the last trick 10; roem comes in 20, 50,
    100 and 200. A score sheet's figures must be ones a deal can give, as ``klabsite score`` asks."""
    text = (FIXTURES / "valid" / fixture).read_text()
    path = tmp_path / fixture
    path.write_text(text.replace(old, new, 1))
    status, _, err = run_check(capsys, path)
    line = text.splitlines().index(old) + 1
    assert status == 1 and err.startswith(f"{path}:{line}: {message}"), err


def test_unreadable_file_exits_2(capsys, tmp_path):
    status, out, err = run_check(capsys, tmp_path / "missing.klab")
    assert status == 2 and out == "" and "cannot read" in err


def test_a_folder_given_for_a_file_exits_2_naming_the_files_to_give(capsys, tmp_path):
    status, out, err = run_check(capsys, tmp_path)
    assert (status, out, err) == (2, "", f"klabsite check: {tmp_path} is a folder: give its .klab files "
                                         f"(klabsite check {tmp_path}/*.klab)\n")


def test_highest_status_of_several_files_wins(capsys, tmp_path):
    status, out, err = run_check(capsys, VALID[0], INVALID[0])
    assert status == 1 and out and err
    status, _, _ = run_check(capsys, VALID[0], INVALID[0], tmp_path / "missing.klab")
    assert status == 2
    status, _, _ = run_check(capsys, INVALID[0], VALID[0])
    assert status == 1, "a good file after a bad one does not hide it"
    status, _, _ = run_check(capsys, tmp_path / "missing.klab", INVALID[0], VALID[0])
    assert status == 2


def test_json_prints_one_object_per_file_per_line(capsys):
    status, out, _ = run_check(capsys, "--json", VALID[0], VALID[1])
    assert status == 0
    objects = [json.loads(line) for line in out.splitlines()]
    assert len(objects) == 2 and all(set(o) == {"game", "id", "winner", "final", "deals"} for o in objects)


def test_json_of_a_klaberjass_record_has_exactly_the_spec_keys(capsys):
    data = check_json(capsys, FIXTURES / "valid" / "klaberjass_three_deals.klab")
    assert list(data) == ["game", "id", "winner", "final", "deals"]
    assert data["game"] == "klaberjass" and data["winner"] is None and set(data["final"]) == {"N", "S"}
    for deal in data["deals"]:
        expected = KLABERJASS_PLAYED_KEYS if deal["outcome"] == "played" else THROWN_IN_KEYS
        assert list(deal) == expected
    played = [deal for deal in data["deals"] if deal["outcome"] == "played"]
    assert {deal["outcome"] for deal in data["deals"]} == {"played", "redeal"}
    assert played and all(d["result"] in ("made", "failed", "tie") for d in played)
    assert data["final"] == played[-1]["match"]
    for deal in played:
        for seat in "NS":
            assert deal["totals"][seat] == (deal["card_points"][seat] + 10 * (deal["last_trick"] == seat)
                                            + deal["melds"][seat] + deal["bella"][seat])


def test_json_of_a_klaverjas_record_uses_sides(capsys):
    data = check_json(capsys, FIXTURES / "valid" / "klaverjas_rotterdam.klab")
    assert data["game"] == "klaverjas" and set(data["final"]) == {"NS", "EW"}
    for deal in data["deals"]:
        assert list(deal) == KLAVERJAS_PLAYED_KEYS
        assert deal["playing"] in ("NS", "EW") and deal["last_trick"] in ("NS", "EW")
        assert isinstance(deal["pit"], bool) and deal["result"] in ("made", "nat")
        assert sum(deal["card_points"].values()) == 152


def test_json_of_score_sheet_deals(capsys):
    klaverjas = check_json(capsys, FIXTURES / "valid" / "klaverjas_score_sheet.klab")
    assert [list(deal) for deal in klaverjas["deals"]] == [KLAVERJAS_SCORED_KEYS] * 3
    first, second, third = klaverjas["deals"]
    assert first["outcome"] == "scored" and first["points"] == {"NS": 92, "EW": 70}
    assert first["score"] == {"NS": 112, "EW": 70}
    assert second["points"] == {"NS": 92, "EW": 70} and second["result"] == "nat"  # 70 + 20 roem < 92
    assert second["score"] == {"NS": 162 + 20, "EW": 0}
    assert third["pit"] is True and third["score"] == {"NS": 312, "EW": 0}
    assert klaverjas["final"] == third["match"] == {"NS": 112 + 182 + 312, "EW": 70}
    klaberjass = check_json(capsys, FIXTURES / "valid" / "klaberjass_score_sheet.klab")
    assert [list(deal) for deal in klaberjass["deals"]] == [KLABERJASS_SCORED_KEYS] * 3
    assert [deal["result"] for deal in klaberjass["deals"]] == ["made", "tie", "failed"]
    # equal-score=next-deal-winner: the tied maker's 70 hangs and goes to the next winner
    assert klaberjass["deals"][2]["score"] == {"N": 0, "S": 210}
    assert klaberjass["final"] == {"N": 84 + 70, "S": 60 + 0 + 210}  # the tie: N scores his own 70


def test_unfinished_deal_is_valid_when_marked(capsys):
    data = check_json(capsys, FIXTURES / "valid" / "klaverjas_unfinished.klab")
    assert data["deals"][0] == {"deal": 1, "id": data["deals"][0]["id"], "dealer": data["deals"][0]["dealer"],
                                "outcome": "unfinished"}
    assert data["deals"][1]["outcome"] == "played"


def test_human_output_names_each_deal_and_the_match(capsys):
    path = FIXTURES / "valid" / "klaverjas_score_sheet.klab"
    _, out, _ = run_check(capsys, path)
    lines = out.splitlines()
    assert lines[0].startswith(f"{path}: deal 1 (") and "NS made" in lines[0]
    assert "match NS 112 EW 70" in lines[0]
    assert lines[-1].startswith(f"{path}: klaverjas match ") and "unfinished after 3 deals" in lines[-1]


def test_a_deal_after_the_end_of_the_match_is_an_error(capsys, tmp_path):
    text = (FIXTURES / "valid" / "klaverjas_score_sheet.klab").read_text()
    text = text.replace('[Game "klaverjas"]', '[Game "klaverjas"]\n[Rules "deals=2"]')
    path = tmp_path / "over.klab"
    path.write_text(text)
    status, _, err = run_check(capsys, path)
    line = text.splitlines().index('[Deal "3"]') + 1
    assert status == 1 and err.startswith(f"{path}:{line}: the match is over after deal 2")


def test_standard_input_is_read_for_dash(capsys, monkeypatch):
    import io
    import sys

    data = (FIXTURES / "valid" / "klaberjass_score_sheet.klab").read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    status, out, _ = run_check(capsys, "-")
    assert status == 0 and out.startswith("-: deal 1")


def test_standard_input_given_twice_is_refused_before_anything_is_read(capsys, monkeypatch):
    """It can be read once: the second - found it empty and reported an "empty record"."""
    import io
    import sys

    data = (FIXTURES / "valid" / "klaberjass_score_sheet.klab").read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    status, out, err = run_check(capsys, "-", "-")
    assert (status, out) == (2, "")
    assert err == "klabsite check: - (standard input) is given twice: it can be read once\n"


def test_an_internal_error_is_reported_without_traceback(capsys, monkeypatch):
    import klabsite.commands.check as check_module

    def broken(data):
        raise KeyError("bug")

    monkeypatch.setattr(check_module, "check_bytes", broken)
    status, out, err = run_check(capsys, VALID[0])
    assert status == 3 and out == "" and "internal error" in err and "Traceback" not in err


# --------------------------------------------------------------------------- hostile input (reliability)

PEAK_RSS = """
import io, resource, sys
from contextlib import redirect_stderr, redirect_stdout
from klabsite.cli import main
out, err = io.StringIO(), io.StringIO()
with redirect_stdout(out), redirect_stderr(err):
    status = main(["check", sys.argv[1]])
print(status, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, repr(err.getvalue()))
"""


def _check_in_a_subprocess(path: Path | str, timeout: float = 60) -> tuple[int, int, str]:
    """``klabsite check PATH`` in a fresh interpreter: its status, peak memory (KiB) and stderr."""
    done = subprocess.run([sys.executable, "-c", PEAK_RSS, str(path)], capture_output=True, text=True,
                          timeout=timeout, check=True, cwd=Path(__file__).parents[1])
    status, peak, err = done.stdout.split(" ", 2)
    return int(status), int(peak), ast.literal_eval(err)


def _baseline_rss() -> int:
    """Peak memory (KiB) of the same interpreter checking a small valid record."""
    return _check_in_a_subprocess(VALID[0])[1]


def _write_big(path: Path, head: bytes, fill: bytes, size: int = 50_000_000) -> Path:
    with path.open("wb") as file:
        file.write(head)
        chunk = fill * (1_000_000 // len(fill))
        for _ in range(size // len(chunk)):
            file.write(chunk)
    return path


@pytest.mark.parametrize(("head", "fill"), [
    (b'%klab 1\n[Game "klaberjass"]\n[Deal "1"]\n[Dealer "S"]\n[Deck "', b"JH "),
    (b'%klab 1\n[Game "klaberjass"]\n[Deal "1"]\n[Dealer "S"]\n[Note "', b"x"),
    (b"", b"\0"),
])
def test_a_50_mb_line_is_refused_quickly_in_constant_memory(tmp_path, head, fill):
    path = _write_big(tmp_path / "big.klab", head, fill)
    start = time.monotonic()
    status, peak, err = _check_in_a_subprocess(path)
    assert (status, err.count("\n")) == (1, 1) and "longer than 64 KiB" in err and len(err) < 200, err
    assert time.monotonic() - start < 10
    assert peak - _baseline_rss() < 20_000, f"{peak} KiB"  # well under the 50 MB read


def test_check_dev_zero_returns_promptly_with_one_line():
    start = time.monotonic()
    status, peak, err = _check_in_a_subprocess("/dev/zero", timeout=30)
    assert (status, err) == (1, "/dev/zero:1: this line is longer than 64 KiB: a .klab line holds one tag "
                                "or one action (is this a .klab record?)\n")
    assert time.monotonic() - start < 10 and peak - _baseline_rss() < 20_000


def test_check_dev_zero_under_a_memory_limit_prints_no_traceback():
    limit = "import resource; resource.setrlimit(resource.RLIMIT_AS, (400 * 2**20, 400 * 2**20))\n"
    done = subprocess.run([sys.executable, "-c", limit + "from klabsite.cli import main; import sys; "
                           "sys.exit(main(['check', '/dev/zero']))"], capture_output=True, text=True,
                          timeout=30, cwd=Path(__file__).parents[1])
    assert done.returncode == 1 and "Traceback" not in done.stderr and done.stderr.count("\n") == 1


@pytest.mark.parametrize("size", [60_000, 1_000_000])
def test_an_error_line_quotes_at_most_60_characters_of_a_long_seat_word(capsys, tmp_path, size):
    path = tmp_path / "seat.klab"
    lines = (FIXTURES / "valid" / "klaberjass_three_deals.klab").read_text().splitlines()
    lines.insert(lines.index('[Deal "1"]') + 4, "Q" * size + " take")
    path.write_text("\n".join(lines) + "\n")
    status, _, err = run_check(capsys, path)
    assert status == 1 and err.count("\n") == 1 and len(err) < len(str(path)) + 200, err
    assert "Q" * 61 not in err and ("…" in err or "longer than 64 KiB" in err)


def test_a_deal_number_in_superscript_digits_exits_1_with_its_line(capsys, tmp_path):
    path = tmp_path / "sup.klab"
    path.write_text('%klab 1\n[Game "klaberjass"]\n[Deal "²"]\n[Dealer "S"]\n')
    status, _, err = run_check(capsys, path)
    assert (status, err) == (1, f"{path}:3: [Deal] takes the deal's number 1, 2, 3 …, not '²'\n")


@pytest.mark.parametrize(("text", "line"), [
    ('%klab 1\n[Game "klaberjass"]\n[Deal "' + "1" * 5000 + '"]\n[Dealer "S"]\n', 3),
    ("%klab " + "1" * 5000 + '\n[Game "klaberjass"]\n', 1),
    ('%klab 1\n[Game "klaberjass"]\n[Rules "target=' + "5" * 5000 + '"]\n', 3),
])
def test_5000_digit_numbers_exit_1_with_their_line(capsys, tmp_path, text, line):
    path = tmp_path / "digits.klab"
    path.write_text(text)
    status, _, err = run_check(capsys, path)
    assert status == 1 and err.startswith(f"{path}:{line}: ") and err.count("\n") == 1 and len(err) < 300
