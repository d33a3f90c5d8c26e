"""``klabsite score``: keeping a score sheet ("Keeping score" in the rules) through the real command line."""

from __future__ import annotations

import contextlib
import errno
import functools
import io
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from klabsite.cli import main
from klabsite.commands.check import check_bytes
from tests.helpers import check_json

FIXTURES = Path(__file__).parent / "fixtures" / "records" / "valid"


def score(capsys, path: Path, *args: str) -> tuple[int, str, str]:
    status = main(["score", str(path), *args])
    out, err = capsys.readouterr()
    return status, out, err


def ok(capsys, path: Path, *args: str) -> str:
    status, out, err = score(capsys, path, *args)
    assert (status, err) == (0, ""), err
    return out


def klaverjas_sheet(capsys, tmp_path: Path, *new_args: str) -> Path:
    path = tmp_path / "sheet.klab"
    ok(capsys, path, "new", "--game", "klaverjas", *new_args)
    return path


def klaberjass_sheet(capsys, tmp_path: Path, *new_args: str) -> Path:
    path = tmp_path / "sheet.klab"
    ok(capsys, path, "new", "--game", "klaberjass", *new_args)
    return path


def table_rows(capsys, path: Path) -> dict[int, list[str]]:
    """The data lines of ``show``, by deal number, split into words."""
    rows = {}
    for line in ok(capsys, path, "show").splitlines():
        words = line.split()
        if words and words[0].isdigit():
            rows[int(words[0])] = words
    return rows


# --------------------------------------------------------------------------- Klaverjas


def test_klaverjas_sheet_is_a_valid_record_with_scored_deals(capsys, tmp_path):
    path = klaverjas_sheet(capsys, tmp_path, "--players", "N:Ana E:Ivo S:Maja W:Luka")
    ok(capsys, path, "add", "--playing", "NS", "--points", "92", "--roem", "NS 20 EW 0")
    ok(capsys, path, "add", "--playing", "EW", "--points", "EW 70", "--roem", "EW 20")
    assert path.read_text() == (
        '%klab 1\n[Game "klaverjas"]\n[Players "N:Ana E:Ivo S:Maja W:Luka"]\n[FirstDealer "N"]\n\n'
        '[Deal "1"]\n[Dealer "N"]\n[Playing "NS"]\n[Points "NS 92"]\n[Roem "NS 20 EW 0"]\n\n'
        '[Deal "2"]\n[Dealer "E"]\n[Playing "EW"]\n[Points "EW 70"]\n[Roem "NS 0 EW 20"]\n'
    )
    data = check_json(capsys, path)
    assert [deal["outcome"] for deal in data["deals"]] == ["scored", "scored"]
    assert data["deals"][0]["points"] == {"NS": 92, "EW": 70}
    assert data["deals"][0]["score"] == {"NS": 112, "EW": 70}
    # deal 2: EW 70 + 20 roem = 90 against NS 92: nat, NS take 162 and all roem
    assert (data["deals"][1]["result"], data["deals"][1]["score"]) == ("nat", {"NS": 182, "EW": 0})
    assert data["deals"][1]["match"] == {"NS": 294, "EW": 70} == data["final"]
    assert data["winner"] is None


def test_nat_on_equal_totals(capsys, tmp_path):
    path = klaverjas_sheet(capsys, tmp_path)
    out = ok(capsys, path, "add", "--playing", "NS", "--points", "81")
    assert "nat" in out
    deal = check_json(capsys, path)["deals"][0]
    assert (deal["points"], deal["result"]) == ({"NS": 81, "EW": 81}, "nat")
    assert deal["score"] == {"NS": 0, "EW": 162}
    row = table_rows(capsys, path)[1]
    assert row == ["1", "N", "NS", "81", "81", "0", "0", "nat", "0", "162", "0", "162"]


def test_pit_adds_100_and_shows_in_the_marks(capsys, tmp_path):
    path = klaverjas_sheet(capsys, tmp_path)
    ok(capsys, path, "add", "--playing", "EW", "--points", "162", "--roem", "EW 50", "--pit")
    assert '[Pit "EW"]' in path.read_text()
    deal = check_json(capsys, path)["deals"][0]
    assert (deal["pit"], deal["result"], deal["score"]) == (True, "made", {"NS": 0, "EW": 312})
    assert table_rows(capsys, path)[1][7:] == ["pit", "0", "312", "0", "312"]


def test_points_of_the_other_side_follow_as_162_minus(capsys, tmp_path):
    path = klaverjas_sheet(capsys, tmp_path)
    ok(capsys, path, "add", "--playing", "NS", "--points", "EW 70")
    deal = check_json(capsys, path)["deals"][0]
    assert deal["points"] == {"NS": 92, "EW": 70}


def test_klaverjas_dealer_moves_clockwise_from_the_first_dealer(capsys, tmp_path):
    path = klaverjas_sheet(capsys, tmp_path, "--dealer", "W")
    for _ in range(5):
        ok(capsys, path, "add", "--playing", "NS", "--points", "100")
    dealers = [deal["dealer"] for deal in check_json(capsys, path)["deals"]]
    assert dealers == ["W", "N", "E", "S", "W"]
    assert "Next dealer: N" in ok(capsys, path, "show")


def test_first_dealer_defaults_to_north(capsys, tmp_path):
    path = klaverjas_sheet(capsys, tmp_path)
    assert "Next dealer: N" in ok(capsys, path, "show")
    ok(capsys, path, "add", "--playing", "EW", "--points", "100")
    assert check_json(capsys, path)["deals"][0]["dealer"] == "N"


def test_match_over_at_the_target_names_the_winner(capsys, tmp_path):
    path = klaverjas_sheet(capsys, tmp_path, "--rules", "target=300")
    ok(capsys, path, "add", "--playing", "NS", "--points", "162", "--roem", "NS 20", "--pit")
    out = ok(capsys, path, "add", "--playing", "EW", "--points", "100")
    assert "match over: NS wins, NS 344 EW 100" in out
    data = check_json(capsys, path)
    assert (data["winner"], data["final"]) == ("NS", {"NS": 344, "EW": 100})
    shown = ok(capsys, path, "show")
    assert "Winner: NS, match over" in shown and "Match: NS 344 EW 100 (target 300)" in shown


def test_a_fixed_number_of_deals_can_end_drawn(capsys, tmp_path):
    path = klaverjas_sheet(capsys, tmp_path, "--rules", "deals=2")
    ok(capsys, path, "add", "--playing", "NS", "--points", "100")
    ok(capsys, path, "add", "--playing", "EW", "--points", "EW 100")
    shown = ok(capsys, path, "show")
    assert "Match: NS 162 EW 162 (2 of 2 deals)\nDrawn, match over\n" in shown
    status, _, err = score(capsys, path, "add", "--playing", "NS", "--points", "100")
    assert status == 1 and "the match is over after deal 2 (drawn, NS 162 EW 162)" in err


# --------------------------------------------------------------------------- Klaberjass


def test_klaberjass_made_failed_tie_and_alternating_dealer(capsys, tmp_path):
    path = klaberjass_sheet(capsys, tmp_path, "--dealer", "S")
    ok(capsys, path, "add", "--maker", "N", "--totals", "N 102 S 60")
    ok(capsys, path, "add", "--maker", "S", "--totals", "N 100 S 62")
    ok(capsys, path, "add", "--maker", "N", "--totals", "N 81 S 81")
    data = check_json(capsys, path)
    assert [deal["dealer"] for deal in data["deals"]] == ["S", "N", "S"]
    assert [deal["result"] for deal in data["deals"]] == ["made", "failed", "tie"]
    assert [deal["score"] for deal in data["deals"]] == [{"N": 102, "S": 60}, {"N": 162, "S": 0},
                                                         {"N": 0, "S": 81}]
    assert data["final"] == {"N": 264, "S": 141}
    rows = table_rows(capsys, path)
    assert rows[2][5:] == ["failed", "162", "0", "264", "60"]
    assert rows[3][5:] == ["tie", "0", "81", "264", "141"]


def test_klaberjass_hanging_points_go_to_the_next_deals_winner(capsys, tmp_path):
    path = klaberjass_sheet(capsys, tmp_path, "--rules", "equal-score=next-deal-winner")
    ok(capsys, path, "add", "--maker", "S", "--totals", "N 81 S 81")
    out = ok(capsys, path, "add", "--maker", "N", "--totals", "N 91 S 91")  # 182: bella
    assert "172 points hanging" in out
    assert "Hanging: 172 points wait for the winner of the next deal\n" in ok(capsys, path, "show")
    ok(capsys, path, "add", "--maker", "N", "--totals", "N 40 S 122")
    data = check_json(capsys, path)
    assert [deal["score"] for deal in data["deals"]] == [{"N": 81, "S": 0}, {"N": 0, "S": 91},
                                                         {"N": 0, "S": 334}]
    assert data["final"] == {"N": 81, "S": 425}
    rows = table_rows(capsys, path)
    assert rows[1][5:8] == ["tie", "81", "hanging"]
    assert rows[2][5:8] == ["tie", "172", "hanging"]
    assert rows[3][5:7] == ["failed", "+172"]


def test_klaberjass_points_hanging_when_the_match_ends_go_to_nobody(capsys, tmp_path):
    path = klaberjass_sheet(capsys, tmp_path, "--rules", "equal-score=next-deal-winner target=100")
    ok(capsys, path, "add", "--maker", "N", "--totals", "N 84 S 60")
    ok(capsys, path, "add", "--maker", "S", "--totals", "N 70 S 70")
    shown = ok(capsys, path, "show")
    assert "Hanging: 70 points go to nobody, the match being over\nWinner: N, match over\n" in shown
    assert "wait for the winner" not in shown


def test_klaberjass_match_ends_at_500(capsys, tmp_path):
    path = klaberjass_sheet(capsys, tmp_path)
    for _ in range(3):
        ok(capsys, path, "add", "--maker", "N", "--totals", "N 172 S 10")  # 182: bella
    data = check_json(capsys, path)
    assert (data["winner"], data["final"]) == ("N", {"N": 516, "S": 30})
    status, out, err = score(capsys, path, "add", "--maker", "S", "--totals", "N 62 S 100")
    assert (status, out) == (1, "")
    assert err == (f"{path}: the match is over after deal 3 (N wins, N 516 S 30): "
                   "no further deal can be added\n")


# --------------------------------------------------------------------------- edit, delete, undo


def test_edit_changes_only_what_is_given(capsys, tmp_path):
    path = klaverjas_sheet(capsys, tmp_path)
    ok(capsys, path, "add", "--playing", "NS", "--points", "92", "--roem", "NS 20 EW 50")
    ok(capsys, path, "edit", "1", "--roem", "EW 0")
    assert '[Roem "NS 20 EW 0"]' in path.read_text() and '[Points "NS 92"]' in path.read_text()
    ok(capsys, path, "edit", "1", "--playing", "EW")
    deal = check_json(capsys, path)["deals"][0]
    assert (deal["playing"], deal["points"]) == ("EW", {"NS": 92, "EW": 70})
    assert deal["roem"] == {"NS": 20, "EW": 0}
    assert deal["result"] == "nat"


def test_edit_pit_and_no_pit(capsys, tmp_path):
    path = klaverjas_sheet(capsys, tmp_path)
    ok(capsys, path, "add", "--playing", "NS", "--points", "162")
    ok(capsys, path, "edit", "1", "--pit")
    assert check_json(capsys, path)["deals"][0]["score"] == {"NS": 262, "EW": 0}
    ok(capsys, path, "edit", "1", "--no-pit")
    assert '[Pit' not in path.read_text()


def test_delete_renumbers_and_derives_the_dealers_again(capsys, tmp_path):
    path = klaverjas_sheet(capsys, tmp_path)
    for points in ("100", "110", "120"):
        ok(capsys, path, "add", "--playing", "NS", "--points", points)
    ok(capsys, path, "delete", "1")
    data = check_json(capsys, path)
    assert [(deal["deal"], deal["dealer"], deal["points"]["NS"]) for deal in data["deals"]] == [
        (1, "N", 110), (2, "E", 120)]
    assert data["final"] == {"NS": 230, "EW": 94}


def test_klaberjass_delete_keeps_hanging_points_consistent(capsys, tmp_path):
    path = klaberjass_sheet(capsys, tmp_path, "--rules", "equal-score=next-deal-winner")
    ok(capsys, path, "add", "--maker", "S", "--totals", "N 81 S 81")
    ok(capsys, path, "add", "--maker", "N", "--totals", "N 102 S 60")
    ok(capsys, path, "delete", "1")
    deal = check_json(capsys, path)["deals"][0]
    assert (deal["dealer"], deal["score"]) == ("N", {"N": 102, "S": 60})


def test_undo_walks_back_through_every_change_byte_for_byte(capsys, tmp_path):
    path = tmp_path / "sheet.klab"
    versions = []
    steps = [
        ("new", "--game", "klaverjas"),
        ("add", "--playing", "NS", "--points", "92", "--roem", "NS 20"),
        ("add", "--playing", "EW", "--points", "100"),
        ("edit", "1", "--points", "80"),
        ("add", "--playing", "NS", "--points", "162", "--pit"),
        ("delete", "2"),
        ("new", "--game", "klaberjass", "--force"),
    ]
    for step in steps:
        ok(capsys, path, *step)
        versions.append(path.read_bytes())
    for expected, step in zip(reversed(versions[:-1]), reversed(steps[1:]), strict=True):
        out = ok(capsys, path, "undo")
        assert out.startswith(f"{path}: undid {step[0]}")
        assert path.read_bytes() == expected
    status, out, err = score(capsys, path, "undo")
    assert (status, out) == (1, "")
    assert err == (f"{path}: nothing to undo before new, which created the sheet "
                   "(delete the file to remove it)\n")


def test_undo_after_a_change_by_hand_is_refused(capsys, tmp_path):
    path = klaverjas_sheet(capsys, tmp_path)
    ok(capsys, path, "add", "--playing", "NS", "--points", "92")
    path.write_text(path.read_text().replace("NS 92", "NS 93"))
    before = path.read_bytes()
    status, _, err = score(capsys, path, "undo")
    assert status == 1 and "the file was changed since klabsite score wrote it" in err
    assert path.read_bytes() == before
    # a new change on top of the hand edit can still be undone back to the hand edit
    ok(capsys, path, "add", "--playing", "EW", "--points", "100")
    ok(capsys, path, "undo")
    assert path.read_bytes() == before


def test_a_hand_written_sheet_keeps_its_result_tags_right(capsys, tmp_path):
    path = tmp_path / "kitchen.klab"
    path.write_bytes((FIXTURES / "klaberjass_score_sheet.klab").read_bytes())
    ok(capsys, path, "edit", "2", "--totals", "N 60 S 102")
    text = path.read_text()
    assert '[Totals "N 60 S 102"]\n[Result "N 60 S 102"]\n\n[Deal "3"]' in text
    assert text.endswith('[Result "N 0 S 140"]\n')  # deal 3 no longer collects hanging points
    assert check_json(capsys, path)["final"] == {"N": 144, "S": 302}
    ok(capsys, path, "add", "--maker", "S", "--totals", "N 62 S 100")
    assert check_json(capsys, path)["deals"][3]["dealer"] == "N"


def test_new_refuses_to_overwrite_without_force(capsys, tmp_path):
    path = klaverjas_sheet(capsys, tmp_path)
    ok(capsys, path, "add", "--playing", "NS", "--points", "92")
    before = path.read_bytes()
    status, _, err = score(capsys, path, "new", "--game", "klaberjass")
    assert (status, path.read_bytes()) == (1, before)
    assert err == f"{path}: already exists: use --force to replace it (undo brings it back)\n"


# --------------------------------------------------------------------------- refusals


REFUSALS = [
    ("klaverjas", ("add", "--playing", "NS", "--points", "170"), "more than the 162 card points"),
    ("klaverjas", ("add", "--playing", "NS", "--points", "-5"), "cannot be negative"),
    ("klaverjas", ("add", "--playing", "NS", "--points", "NS 100 EW 70"), "add up to 170"),
    ("klaverjas", ("add", "--playing", "NS", "--points", "92", "--roem", "NS 25"), "not a multiple of 10"),
    ("klaverjas", ("add", "--playing", "NS", "--points", "92", "--roem", "NS -20"), "cannot be negative"),
    ("klaverjas", ("add", "--playing", "NE", "--points", "92"), "unknown side 'NE'"),
    ("klaverjas", ("add", "--playing", "NS", "--points", "XY 92"), "unknown side 'XY'"),
    ("klaverjas", ("add", "--playing", "NS", "--points", "92", "--pit"), "has all 162 card points, not 92"),
    ("klaverjas", ("add", "--playing", "NS", "--points", "162", "--roem", "EW 20", "--pit"),
     "EW cannot have roem"),
    ("klaverjas", ("add", "--points", "92"), "needs --playing"),
    ("klaverjas", ("add", "--playing", "NS"), "needs --points"),
    ("klaverjas", ("add", "--maker", "N", "--totals", "N 102 S 60"),
     "--maker and --totals are Klaberjass options"),
    ("klaverjas", ("edit", "3", "--points", "90"), "there is no deal 3: the sheet has deal 1 only"),
    ("klaverjas", ("edit", "x", "--points", "90"), "deal number 'x'"),
    ("klaverjas", ("edit", "1"), "give what to change"),
    ("klaverjas", ("delete", "0"), "there is no deal 0"),
    ("klaverjas", ("new", "--game", "klaverjas"), "already exists"),
    ("klaverjas", ("new", "--game", "bridge", "--force"), "unknown game 'bridge'"),
    ("klaverjas", ("new", "--game", "klaverjas", "--rules", "target=x", "--force"), "--rules: option target"),
    ("klaverjas", ("new", "--game", "klaverjas", "--players", "N:Ana X:Bo", "--force"), "unknown seat 'X'"),
    ("klaverjas", ("new", "--force"), "new needs --game"),
    ("klaberjass", ("add", "--maker", "E", "--totals", "N 102 S 60"), "unknown seat 'E'"),
    ("klaberjass", ("add", "--maker", "N", "--totals", "N 84"), "needs both players' totals"),
    ("klaberjass", ("add", "--maker", "N", "--totals", "N 84 S x"), "S needs a whole number"),
    ("klaberjass", ("add", "--maker", "N", "--totals", "N 84 N 60"), "N is given twice"),
    ("klaberjass", ("add", "--maker", "N", "--totals", "N 84 S -1"), "cannot be negative"),
    ("klaberjass", ("add", "--playing", "NS", "--points", "92"), "are Klaverjas options"),
    ("klaberjass", ("add", "--maker", "N", "--pit"), "--pit is a Klaverjas option"),
    ("klaberjass", ("new", "--game", "klaberjass", "--dealer", "W", "--force"), "unknown seat 'W'"),
    ("klaberjass", ("edit", "1", "--maker", "S", "--totals", "N 236 S 40"),
     "this change ends the match after deal 1 (N won, N 276 S 0), but 1 later deal follows: "
     "delete it first"),
]


@pytest.mark.parametrize(("game", "args", "message"), REFUSALS, ids=lambda value: " ".join(value)
                         if isinstance(value, tuple) else None)
def test_a_refused_change_leaves_the_files_as_they_were(capsys, tmp_path, game, args, message):
    path = tmp_path / "sheet.klab"
    if game == "klaverjas":
        ok(capsys, path, "new", "--game", game)
        ok(capsys, path, "add", "--playing", "NS", "--points", "92")
    else:
        ok(capsys, path, "new", "--game", game, "--rules", "target=250")
        ok(capsys, path, "add", "--maker", "N", "--totals", "N 102 S 60")
        ok(capsys, path, "add", "--maker", "S", "--totals", "N 60 S 102")
    before, history = path.read_bytes(), (tmp_path / "sheet.klab.undo").read_bytes()
    status, out, err = score(capsys, path, *args)
    assert (status, out) == (1, "")
    assert err.count("\n") == 1 and err.startswith(f"{path}: ")
    assert message in err
    assert path.read_bytes() == before
    assert (tmp_path / "sheet.klab.undo").read_bytes() == history
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sheet.klab", "sheet.klab.undo"]


def test_an_invalid_file_is_reported_with_its_line(capsys, tmp_path):
    path = tmp_path / "broken.klab"
    path.write_text('%klab 1\n[Game "klaverjas"]\n\n[Deal "1"]\n[Dealer "E"]\n[Playing "NS"]\n'
                    '[Points "NS 92"]\n\n[Deal "2"]\n[Dealer "N"]\n[Playing "NS"]\n[Points "NS 92"]\n')
    before = path.read_bytes()
    for args in (("show",), ("add", "--playing", "NS", "--points", "90")):
        status, out, err = score(capsys, path, *args)
        assert (status, out) == (1, "")
        assert err.startswith(f"{path}:10: wrong dealer") and err.count("\n") == 1
    assert path.read_bytes() == before


def test_an_unreadable_undo_history_refuses_changes_but_not_show(capsys, tmp_path):
    path = klaverjas_sheet(capsys, tmp_path)
    (tmp_path / "sheet.klab.undo").write_text("not json")
    before = path.read_bytes()
    status, _, err = score(capsys, path, "add", "--playing", "NS", "--points", "92")
    assert status == 1 and err == (f"{path}: its undo history sheet.klab.undo cannot be read; delete it to "
                                   "start a new one\n")
    assert path.read_bytes() == before
    assert "(no deals yet)" in ok(capsys, path, "show")


def test_a_missing_folder(capsys, tmp_path):
    status, _, err = score(capsys, tmp_path / "none" / "x.klab", "new", "--game", "klaverjas")
    assert (status, err) == (1, f"{tmp_path / 'none' / 'x.klab'}: cannot read or write: no such folder "
                                f"({tmp_path / 'none'})\n")


def test_a_missing_file(capsys, tmp_path):
    status, _, err = score(capsys, tmp_path / "none.klab", "add", "--playing", "NS", "--points", "90")
    assert status == 1 and err.startswith(f"{tmp_path / 'none.klab'}: no such file")
    assert list(tmp_path.iterdir()) == []


def test_a_change_keeps_the_file_permissions(capsys, tmp_path):
    path = klaverjas_sheet(capsys, tmp_path)
    os.chmod(path, 0o640)
    ok(capsys, path, "add", "--playing", "NS", "--points", "92")
    assert path.stat().st_mode & 0o777 == 0o640


# --------------------------------------------------------------------------- show


def test_show_table_is_aligned_with_both_sides(capsys, tmp_path):
    path = klaverjas_sheet(capsys, tmp_path, "--players", "N:Ana E:Ivo S:Maja_Lena W:Luka")
    ok(capsys, path, "add", "--playing", "NS", "--points", "92", "--roem", "NS 20")
    ok(capsys, path, "add", "--playing", "EW", "--points", "EW 162", "--roem", "EW 100", "--pit")
    shown = ok(capsys, path, "show")
    lines = shown.splitlines()
    assert lines[1] == "Players: NS: Ana & Maja Lena, EW: Ivo & Luka", "_ stands for a space"
    table = lines[3:7]
    assert table == [
        "Deal  Dealer  Playing  Points   Roem     Marks  Score     Match",
        "                       NS   EW  NS   EW          NS   EW   NS   EW",
        "   1  N       NS       92   70  20    0         112   70  112   70",
        "   2  E       EW        0  162   0  100  pit      0  362  112  432",
    ]
    assert "Match: NS 112 EW 432 (target 1500)" in shown and "Next dealer: S" in shown


# --------------------------------------------------------------------------- the files stay safe (reliability)


def files_of(folder: Path) -> dict[str, bytes]:
    """Every file in ``folder`` (symlinks as their target's name), by name."""
    return {p.name: (b"-> " + os.readlink(p).encode()) if p.is_symlink() else p.read_bytes()
            for p in sorted(folder.iterdir())}


SCORE_ONLY = """
import argparse, sys
from klabsite.commands import score
parser = argparse.ArgumentParser(prog="klabsite")
score.register(parser.add_subparsers(dest="command", required=True))
args = parser.parse_args(sys.argv[1:])
sys.exit(args.func(args))
"""
"""``klabsite`` with only the ``score`` command: a real process that starts quickly (the full command
line also imports the site builder)."""


def test_concurrent_score_adds_keep_every_deal(capsys, tmp_path):
    path = klaverjas_sheet(capsys, tmp_path, "--rules", "target=100000")
    command = [sys.executable, "-c", SCORE_ONLY, "score", str(path), "add"]
    pairs = [(subprocess.Popen([*command, "--playing", "NS", "--points", "92"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, cwd=Path(__file__).parents[1]),
              subprocess.Popen([*command, "--playing", "EW", "--points", "100"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, cwd=Path(__file__).parents[1]))
             for _ in range(20)]
    added = []
    for process in (process for pair in pairs for process in pair):
        out, err = process.communicate(timeout=120)
        assert (process.returncode, err) == (0, ""), err
        added.append(int(re.match(rf"{re.escape(str(path))}: added deal (\d+),", out).group(1)))
    assert sorted(added) == list(range(1, 41))  # each reported a different deal …
    deals = check_json(capsys, path)["deals"]
    assert len(deals) == 40  # … and every one was kept
    assert sorted(deal["points"]["NS"] for deal in deals) == [62] * 20 + [92] * 20
    assert sorted(files_of(tmp_path)) == ["sheet.klab", "sheet.klab.undo"]
    for _ in range(40):
        ok(capsys, path, "undo")
    assert "(no deals yet)" in ok(capsys, path, "show")


def test_a_symlinked_sheet_is_changed_at_its_target_and_stays_a_link(capsys, tmp_path):
    (tmp_path / "real").mkdir()
    real = klaverjas_sheet(capsys, tmp_path / "real")
    link = tmp_path / "link.klab"
    link.symlink_to(real)
    out = ok(capsys, link, "add", "--playing", "NS", "--points", "92")
    assert out.startswith(f"{link}: added deal 1")
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert '[Points "NS 92"]' in real.read_text()
    assert sorted(files_of(tmp_path / "real")) == ["sheet.klab", "sheet.klab.undo"]
    ok(capsys, link, "undo")
    assert "[Deal" not in real.read_text() and link.is_symlink()
    dangling = tmp_path / "new.klab"
    dangling.symlink_to(tmp_path / "real" / "later.klab")
    ok(capsys, dangling, "new", "--game", "klaberjass")
    assert dangling.is_symlink() and (tmp_path / "real" / "later.klab").is_file()


@pytest.mark.parametrize("which", ["sheet.klab", "sheet.klab.undo"])
@pytest.mark.parametrize("args", [("add", "--playing", "NS", "--points", "92"), ("undo",),
                                  ("new", "--game", "klaberjass", "--force"), ("delete", "1")])
def test_a_read_only_sheet_is_refused_with_one_line(capsys, tmp_path, which, args):
    path = klaverjas_sheet(capsys, tmp_path)
    ok(capsys, path, "add", "--playing", "EW", "--points", "100")
    os.chmod(tmp_path / which, 0o444)
    before = files_of(tmp_path)
    status, out, err = score(capsys, path, *args)
    assert (status, out, err.count("\n")) == (1, "", 1), err
    assert "read-only (mode 0444)" in err and err.startswith(f"{path}: ")
    assert files_of(tmp_path) == before and (tmp_path / which).stat().st_mode & 0o777 == 0o444
    assert "Deal" in ok(capsys, path, "show")  # reading it is fine


def _failing_on_call(real, number: int, error: int = errno.ENOSPC):
    """A stand-in for ``real`` that raises ``OSError(error)`` on its ``number``-th call."""
    calls = []

    def fake(*args, **kwargs):
        calls.append(args)
        if len(calls) == number:
            raise OSError(error, os.strerror(error))
        return real(*args, **kwargs)
    return fake


@pytest.mark.parametrize("args", [("add", "--playing", "NS", "--points", "92"), ("undo",),
                                  ("edit", "1", "--points", "80"), ("new", "--game", "klaberjass", "--force")])
@pytest.mark.parametrize(("function", "number"), [("replace", 1), ("replace", 2), ("fsync", 1), ("fsync", 2)])
def test_a_write_failure_leaves_both_files_byte_identical(capsys, tmp_path, monkeypatch, args, function, number):
    """ENOSPC (or any error) on the first or second write or rename: FILE and FILE.undo as they were."""
    path = klaverjas_sheet(capsys, tmp_path)
    ok(capsys, path, "add", "--playing", "EW", "--points", "100")
    before = files_of(tmp_path)
    monkeypatch.setattr(os, function, _failing_on_call(getattr(os, function), number))
    status, out, err = score(capsys, path, *args)
    monkeypatch.undo()
    assert (status, out) == (1, "")
    # the file that failed is named when it is the history, never a temporary file
    assert re.fullmatch(rf"{re.escape(str(path))}: cannot read or write: No space left on device"
                        rf"( \({re.escape(str(path))}\.undo\))?\n", err), err
    assert files_of(tmp_path) == before  # no temporary file left either
    ok(capsys, path, *args)  # and the same change works once there is room


def test_a_failed_second_rename_restores_the_history_and_the_change_can_be_undone_later(capsys, tmp_path,
                                                                                       monkeypatch):
    path = klaverjas_sheet(capsys, tmp_path)
    history = (tmp_path / "sheet.klab.undo").read_bytes()
    monkeypatch.setattr(os, "replace", _failing_on_call(os.replace, 2))
    assert score(capsys, path, "add", "--playing", "NS", "--points", "92")[0] == 1
    monkeypatch.undo()
    assert (tmp_path / "sheet.klab.undo").read_bytes() == history
    ok(capsys, path, "add", "--playing", "NS", "--points", "92")
    ok(capsys, path, "undo")
    assert "(no deals yet)" in ok(capsys, path, "show")


def test_stale_temporaries_of_its_own_naming_are_removed_on_the_next_run(capsys, tmp_path):
    path = klaverjas_sheet(capsys, tmp_path)
    stale = [".sheet.klab.abcd_123.tmp", ".sheet.klab.undo.x7y8z9ab.tmp"]
    kept = [".sheet.klab.mine.tmp", ".other.klab.abcd_123.tmp", "sheet.klab.abcd_123.tmp"]
    for name in stale + kept:
        (tmp_path / name).write_text("left by a killed run")
    ok(capsys, path, "show")  # reading changes nothing
    assert set(stale) <= set(files_of(tmp_path))
    ok(capsys, path, "add", "--playing", "NS", "--points", "92")
    assert sorted(files_of(tmp_path)) == sorted(["sheet.klab", "sheet.klab.undo", *kept])


def test_a_killed_run_leaves_no_mixed_files(capsys, tmp_path):
    """SIGKILL at any moment: the sheet is one version or the other and the history replays."""
    path = klaverjas_sheet(capsys, tmp_path, "--rules", "target=100000")
    versions = {path.read_bytes()}
    for attempt in range(12):
        process = subprocess.Popen([sys.executable, "-c", SCORE_ONLY, "score", str(path), "add", "--playing",
                                    "NS", "--points", str(80 + attempt)], cwd=Path(__file__).parents[1],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(0.1 + 0.02 * attempt)
        process.kill()
        process.wait()
        current = path.read_bytes()
        replayed, errors = check_bytes(current)  # a sheet with no deals yet is read, though check wants one
        assert replayed is not None and not errors and replayed.game.name == "klaverjas"
        versions.add(current)
    ok(capsys, path, "add", "--playing", "NS", "--points", "92")  # cleans whatever was left
    assert sorted(files_of(tmp_path)) == ["sheet.klab", "sheet.klab.undo"]
    while score(capsys, path, "undo")[0] == 0:
        assert path.read_bytes() in versions


# --------------------------------------------------------------------------- bad arguments (reliability)


HUGE = "9" * 5000


@pytest.mark.parametrize(("game", "args", "message"), [
    ("klaverjas", ("add", "--playing", "NS", "--points", HUGE), "--points: NS 999"),
    ("klaverjas", ("add", "--playing", "NS", "--points", f"EW {HUGE}"), "--points: EW 999"),
    ("klaverjas", ("add", "--playing", "NS", "--points", "92", "--roem", f"NS {HUGE}"), "--roem: NS 999"),
    ("klaverjas", ("add", "--playing", "NS", "--points", "²"), "needs a whole number, not '²'"),
    ("klaverjas", ("edit", HUGE, "--points", "90"), "there is no deal 999"),
    ("klaverjas", ("edit", "0" * 5000 + "2", "--points", "90"), "there is no deal 2"),
    ("klaverjas", ("edit", "²", "--points", "90"), "deal number '²'"),
    ("klaverjas", ("delete", HUGE), "there is no deal 999"),
    ("klaberjass", ("add", "--maker", "N", "--totals", f"N {HUGE} S 0"), "--totals: N 999"),
    ("klaverjas", ("new", "--game", "klaverjas", "--rules", f"target={HUGE}", "--force"), "--rules: option target"),
    ("klaverjas", ("new", "--game", "klaverjas", "--title", "Club\nnight", "--force"), "--title: write one line"),
    ("klaverjas", ("new", "--game", "klaverjas", "--title", "\x1b[2J", "--force"), "not '\\x1b[2J'"),
    ("klaverjas", ("new", "--game", "klaverjas", "--source", "a\rb", "--force"), "--source: write one line"),
    ("klaverjas", ("new", "--game", "klaverjas", "--players", "N:A\x07na", "--force"), "--players: write one"),
    ("klaverjas", ("add", "--playing", "NS", "--points", "92", "--note", "\x1b]0;pwned\x07"), "--note: write"),
    ("klaverjas", ("add", "--playing", "N" * 100_000, "--points", "92"), "unknown side 'NNNN"),
])
def test_huge_numbers_and_control_characters_in_arguments_are_refused_with_one_line(capsys, tmp_path, game,
                                                                                    args, message):
    path = tmp_path / "sheet.klab"
    ok(capsys, path, "new", "--game", game)
    ok(capsys, path, "add", *(("--playing", "NS", "--points", "92") if game == "klaverjas"
                              else ("--maker", "N", "--totals", "N 102 S 60")))
    before = files_of(tmp_path)
    status, out, err = score(capsys, path, *args)
    assert (status, out, err.count("\n")) == (1, "", 1), err
    assert message in err and len(err) < 250, err
    assert files_of(tmp_path) == before


@pytest.mark.parametrize(("args", "name"), [
    (("new", "--game", "klaverjas", "--title", "caf\udce9"), "--title"),
    (("new", "--game", "klaverjas", "--players", "N:\udcff"), "--players"),
    (("add", "--playing", "NS", "--points", "92", "--note", "\udc80"), "--note"),
    (("add", "--playing", "N\udcc3", "--points", "92"), "--playing"),
    (("edit", "1\udce9", "--points", "92"), "N"),
])
def test_arguments_that_are_not_utf8_are_a_one_line_usage_error(capsys, tmp_path, args, name):
    path = tmp_path / "sheet.klab"
    status, out, err = score(capsys, path, *args)
    assert (status, out) == (2, "")
    assert err == f"klabsite score FILE {args[0]}: error: {name} is not UTF-8 text (check the terminal's encoding)\n"
    assert list(tmp_path.iterdir()) == []


def test_a_sheet_name_that_is_not_utf8_works_and_is_shown_escaped(capsys, tmp_path):
    path = tmp_path / "caf\udce9.klab"  # the bytes b"caf\xe9.klab" on disk
    out = ok(capsys, path, "new", "--game", "klaverjas")
    assert out == f"{tmp_path}/caf\\udce9.klab: new klaverjas sheet (the usual rules), first dealer N\n"
    assert (os.fsencode(tmp_path) + b"/caf\xe9.klab") in [os.fsencode(p) for p in tmp_path.iterdir()]


@pytest.mark.parametrize("history", ["[" * 100_000, '{"format": "klabsite-score-undo 1", "changes": '
                                     + "[" * 50_000 + "]" * 50_000 + "}",
                                     '{"format": "klabsite-score-undo 1", "changes": [{"command": "\\u001b[2J", '
                                     '"before": null, "after": "' + "0" * 64 + '"}]}'])
def test_a_deeply_nested_or_strange_undo_history_is_refused_with_one_line(capsys, tmp_path, history):
    path = klaverjas_sheet(capsys, tmp_path)
    (tmp_path / "sheet.klab.undo").write_text(history)
    before = files_of(tmp_path)
    for args in (("undo",), ("add", "--playing", "NS", "--points", "92")):
        status, out, err = score(capsys, path, *args)
        assert (status, out) == (1, "")
        assert err == f"{path}: its undo history sheet.klab.undo cannot be read; delete it to start a new one\n"
    assert files_of(tmp_path) == before


def test_a_huge_undo_history_is_refused_unread(capsys, tmp_path):
    path = klaverjas_sheet(capsys, tmp_path)
    with (tmp_path / "sheet.klab.undo").open("wb") as file:
        file.truncate(80 * 1024 * 1024)  # sparse: 80 MiB of NULs
    status, _, err = score(capsys, path, "undo")
    assert (status, err.count("\n")) == (1, 1) and "cannot be read" in err


# --------------------------------------------------------------------------- impossible values (reliability)


@pytest.mark.parametrize(("args", "message"), [
    (("--roem", "NS 710"), "--roem: NS 710: no deal holds more than 700 roem"),
    (("--roem", "NS 400 EW 310"), "--roem: NS 400 EW 310: no deal holds more than 700 roem, both sides together"),
    (("--roem", "EW 1" + "0" * 40), "--roem: EW 1000"),
    (("--roem", "NS 25"), "not a multiple of 10"),
])
def test_roem_no_deal_can_make_is_refused(capsys, tmp_path, args, message):
    path = klaverjas_sheet(capsys, tmp_path)
    status, _, err = score(capsys, path, "add", "--playing", "NS", "--points", "92", *args)
    assert status == 1 and message in err and err.count("\n") == 1, err


def test_the_most_roem_a_deal_can_hold_is_accepted(capsys, tmp_path):
    path = klaverjas_sheet(capsys, tmp_path)
    ok(capsys, path, "add", "--playing", "NS", "--points", "162", "--roem", "NS 700", "--pit")
    ok(capsys, path, "add", "--playing", "NS", "--points", "92", "--roem", "NS 300 EW 400")
    status, _, err = score(capsys, path, "edit", "2", "--roem", "NS 310")
    assert status == 1 and "both sides together" in err


@pytest.mark.parametrize(("rules", "totals", "message"), [
    ("", "N 0 S 0", "the totals N 0 S 0 add up to 0, which no deal can make: its cards and last trick "
                    "give 28 to 156, sequences and bella add 20, 40,"),
    ("", "N 27 S 0", "add up to 27, which no deal can make"),
    ("", "N 200 S 77", "add up to 277, which no deal can make"),
    ("", "N 1" + "0" * 60 + " S 0", "--totals: N 1000"),
    ("long-sequence=100", "N 300 S 27", "add up to 327, which no deal can make"),
])
def test_klaberjass_totals_no_deal_can_make_are_refused(capsys, tmp_path, rules, totals, message):
    path = klaberjass_sheet(capsys, tmp_path, *(("--rules", rules) if rules else ()))
    status, _, err = score(capsys, path, "add", "--maker", "N", "--totals", totals)
    assert status == 1 and message in err and err.count("\n") == 1 and len(err) - len(str(path)) < 220, err


@pytest.mark.parametrize(("rules", "totals"), [
    ("", "N 84 S 60"), ("", "N 14 S 14"), ("", "N 81 S 81"), ("", "N 200 S 76"), ("", "N 0 S 162"),
    ("long-sequence=100", "N 300 S 26"), ("long-sequence=100", "N 150 S 162"),
])
def test_klaberjass_totals_a_deal_can_make_are_accepted(capsys, tmp_path, rules, totals):
    path = klaberjass_sheet(capsys, tmp_path, *(("--rules", rules) if rules else ()))
    ok(capsys, path, "add", "--maker", "N", "--totals", totals)


# --------------------------------------------------------------------------- show (reliability)


def test_show_refuses_names_titles_and_notes_with_control_characters_without_printing_them(capsys, tmp_path):
    path = tmp_path / "hand.klab"
    path.write_text('%klab 1\n[Game "klaverjas"]\n[Players "N:Ana\x1b[31m E:Ivo S:Maja W:\x07Luka"]\n'
                    '[Title "Club \x1b]0;pwned\x07night"]\n\n[Deal "1"]\n[Dealer "N"]\n[Playing "NS"]\n'
                    '[Points "NS 92"]\n[Note "re\x1b[2Jcount"]\n')
    status, out, err = score(capsys, path, "show")
    assert (status, out) == (1, "")
    assert err == (f"{path}:3: [Players] holds the invisible control character U+001B: a tag value is plain "
                   "text; remove it\n")


def test_show_shows_a_deals_note(capsys, tmp_path):
    path = klaverjas_sheet(capsys, tmp_path)
    ok(capsys, path, "add", "--playing", "NS", "--points", "92")
    ok(capsys, path, "add", "--playing", "EW", "--points", "100", "--note", "misdeal?  redealt\nby E")
    ok(capsys, path, "add", "--playing", "NS", "--points", "92")
    shown = ok(capsys, path, "show")
    assert "\nNotes:\n  deal 2: misdeal? redealt by E\n\nMatch:" in shown
    ok(capsys, path, "edit", "2", "--note", "")
    assert "Notes:" not in ok(capsys, path, "show")


# --------------------------------------------------------------------------- mutated commands (Hypothesis)

HOSTILE = ["", " ", "²", "٣", HUGE, "0" * 5000 + "1", "-1", "+5", "1e3", "NS", "EW", "N", "S", "E", "W",
           "\x1b[2J", "a\nb", "caf\udce9", "\udcff", "x" * 3000, "--pit", "--no-pit", "--force", "--note",
           "92", "162", "700", "710", "NS 20 EW 0", "N 102 S 60", "N 0 S 0", "3", "1", "0", "klaverjas",
           "klaberjass", "target=300", "deals=²", "N:Ana E:Ivo", "N:\x07", ";", '"', "\\", "[Deal \"2\"]"]
COMMANDS = {
    "klaverjas": [
        ["new", "--game", "klaverjas", "--force", "--rules", "target=300", "--title", "t"],
        ["add", "--playing", "NS", "--points", "92", "--roem", "NS 20 EW 0"],
        ["add", "--playing", "EW", "--points", "EW 162", "--pit", "--note", "n"],
        ["edit", "1", "--points", "100", "--roem", "EW 50"], ["edit", "2", "--no-pit"],
        ["delete", "1"], ["undo"], ["show"],
    ],
    "klaberjass": [
        ["new", "--game", "klaberjass", "--force", "--dealer", "S", "--players", "N:Anna S:Ben"],
        ["add", "--maker", "N", "--totals", "N 102 S 60"], ["add", "--maker", "S", "--totals", "N 81 S 81"],
        ["edit", "1", "--totals", "N 60 S 122", "--note", "bella"], ["delete", "2"], ["undo"], ["show"],
    ],
}


def _mutated_command(game: str, data: st.DataObject) -> list[str]:
    words = list(data.draw(st.sampled_from(COMMANDS[game])))
    for _ in range(data.draw(st.integers(0, 3))):
        kind = data.draw(st.sampled_from(["drop", "duplicate", "swap", "hostile", "text", "other"]))
        i = data.draw(st.integers(0, max(len(words) - 1, 0)))
        if not words:
            words.append(data.draw(st.sampled_from(HOSTILE)))
        elif kind == "drop":
            del words[i]
        elif kind == "duplicate":
            words.insert(data.draw(st.integers(0, len(words))), words[i])
        elif kind == "swap":
            j = data.draw(st.integers(0, len(words) - 1))
            words[i], words[j] = words[j], words[i]
        elif kind == "hostile":
            words[i] = data.draw(st.sampled_from(HOSTILE))
        elif kind == "text":
            words[i] = data.draw(st.text(max_size=20))
        else:
            words[i] = data.draw(st.sampled_from([w for c in COMMANDS[game] for w in c]))
    return words


def _score_in_process(path: Path, words: list[str]) -> tuple[int, str, str]:
    """``klabsite score PATH WORDS…`` in-process: status, stdout, stderr (argparse exits caught)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(["score", str(path), *words])
        except SystemExit as done:
            status = done.code if isinstance(done.code, int) else 2
    return status, out.getvalue(), err.getvalue()


@functools.cache
def _two_deal_sheet(game: str) -> dict[str, bytes]:
    """The files of a sheet of ``game`` with two deals and its history (made once)."""
    with tempfile.TemporaryDirectory() as folder:
        for words in COMMANDS[game][:3]:
            assert _score_in_process(Path(folder) / "sheet.klab", words)[0] == 0
        return files_of(Path(folder))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(sorted(COMMANDS)), data=st.data())
def test_mutated_score_commands_refuse_cleanly_and_leave_the_files_alone(game, data):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "sheet.klab"
        for name, content in _two_deal_sheet(game).items():
            (Path(folder) / name).write_bytes(content)
        for _ in range(data.draw(st.integers(1, 3))):
            words = _mutated_command(game, data)
            before = files_of(Path(folder))
            status, out, err = _score_in_process(path, words)
            assert status in (0, 1, 2), (words, status, err)
            assert "Traceback" not in err and "internal error" not in err, (words, err)
            out.encode("utf-8"), err.encode("utf-8")  # printable on a strict UTF-8 terminal
            if status:
                assert err.count("\n") == 1 and len(err) - len(str(path)) <= 200, (words, err)
                assert files_of(Path(folder)) == before, words
            else:
                assert err == "" and sorted(files_of(Path(folder))) == ["sheet.klab", "sheet.klab.undo"]
                assert check_bytes(path.read_bytes())[1] == [], words


@pytest.mark.parametrize(("number", "named", "linked"), [(1, " (sheet.klab.undo)", False), (2, "", False),
                                                        (2, "", True)])
def test_a_failed_write_names_the_files_as_given_on_the_command_line(capsys, tmp_path, monkeypatch, number, named,
                                                                      linked):
    """A relative sheet (or one reached through a link): the message names it as typed; only its
    undo history is named besides, never the sheet twice or by its absolute path."""
    (tmp_path / "real").mkdir()
    klaverjas_sheet(capsys, tmp_path / "real")
    if linked:
        (tmp_path / "sheet.klab").symlink_to(tmp_path / "real" / "sheet.klab")
    monkeypatch.chdir(tmp_path if linked else tmp_path / "real")
    monkeypatch.setattr(os, "replace", _failing_on_call(os.replace, number))
    status, _, err = score(capsys, Path("sheet.klab"), "add", "--playing", "NS", "--points", "92")
    monkeypatch.undo()
    assert (status, err) == (1, f"sheet.klab: cannot read or write: No space left on device{named}\n")


def test_a_deal_played_card_by_card_cannot_be_edited(capsys, tmp_path):
    path = tmp_path / "played.klab"
    path.write_bytes((FIXTURES / "klaberjass_three_deals.klab").read_bytes())
    before = path.read_bytes()
    status, out, err = score(capsys, path, "edit", "1", "--maker", "N")
    assert status == 1 and out == "" and "only score-sheet deals can be edited" in err, err
    assert path.read_bytes() == before
