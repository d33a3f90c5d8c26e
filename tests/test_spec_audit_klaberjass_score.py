"""Spec audit, Klaberjass scoring across deals: made/failed/tie, hanging points, match end.

the rule book Klaberjass 9 and 10; record-format.md score-sheet deals (``Maker``/``Totals``) and the
``Result`` tag. Hand-made records in ``tests/fixtures/audit/``; figures worked out by hand.
"""

from __future__ import annotations

import pytest

from tests.helpers import AUDIT, audit_check, audit_json, seats

SCORED_KEYS = ["deal", "id", "dealer", "outcome", "maker", "totals", "result", "score", "match"]


def test_hanging_points_wait_through_ties_and_thrown_in_deals(capsys):
    """equal-score=next-deal-winner: deal 1 tie (N makes 60-60): N 0, S 60, 60 waits; deal 2 thrown
    in; deal 3 tie (S makes 50-50): N 50, S 0, 60 + 50 = 110 waits; deal 4 N fails 40-100: S scores
    140 + 110 = 250 and reaches 300 (target=300) with 310: S wins."""
    data = audit_json(capsys, "kb_sheet_hanging.klab")
    deals = data["deals"]
    assert [deal["outcome"] for deal in deals] == ["scored", "thrown-in", "scored", "scored"]
    assert [deal["dealer"] for deal in deals] == ["N", "S", "N", "S"]
    assert [list(deals[i]) for i in (0, 2, 3)] == [SCORED_KEYS] * 3
    assert list(deals[1]) == ["deal", "id", "dealer", "outcome"]
    assert [(d["result"], d["score"], d["match"]) for d in (deals[0], deals[2], deals[3])] == [
        ("tie", seats(0, 60), seats(0, 60)),
        ("tie", seats(50, 0), seats(50, 60)),
        ("failed", seats(0, 250), seats(50, 310)),
    ]
    assert deals[3]["totals"] == seats(40, 100)
    assert (data["winner"], data["final"]) == ("S", seats(50, 310))


def test_hanging_points_go_to_the_winner_of_the_next_played_deal(capsys):
    """Deal 1 tie, S makes 70-70: N 70, 70 waits. Deal 2 (template A): N makes 115-0 and takes the 70."""
    data = audit_json(capsys, "kb_sheet_hanging_to_played.klab")
    first, second = data["deals"]
    assert (first["result"], first["score"]) == ("tie", seats(70, 0))
    assert (second["totals"], second["result"], second["score"]) == (seats(115, 0), "made", seats(185, 0))
    assert (data["final"], data["winner"]) == (seats(255, 0), None)


def test_a_tie_under_the_default_gives_the_maker_nothing_and_nothing_waits(capsys):
    data = audit_json(capsys, "kb_sheet_tie_default.klab")
    first, second = data["deals"]
    assert (first["result"], first["score"]) == ("tie", seats(0, 60))
    assert (second["result"], second["score"], second["match"]) == ("made", seats(100, 40), seats(100, 100))


def test_equal_totals_after_reaching_the_target_play_on(capsys):
    data = audit_json(capsys, "kb_match_tie_goes_on.klab")     # target=100: 110-110 after deal 2
    assert (data["winner"], data["final"]) == (None, seats(110, 110))
    data = audit_json(capsys, "kb_match_tie_then_won.klab")    # deal 3: 180-130
    assert (data["winner"], data["final"]) == ("N", seats(180, 130))


@pytest.mark.parametrize(("name", "line"), [
    ("kb_match_deal_after_end.klab", 20),   # N won after deal 3
    ("kb_deals_n_extra.klab", 23),          # deals=2: deals 1 and 3 count, deal 2 was thrown in
    ("kb_deals_n_draw.klab", 15),           # deals=2: exactly two deals, even when equal
])
def test_no_deal_may_follow_the_end_of_the_match(capsys, name, line):
    status, out, err = audit_check(capsys, name)
    assert status == 1 and out == ""
    assert err.startswith(f"{AUDIT / name}:{line}: ") and "match is over" in err


def test_deals_n_counts_played_deals_only(capsys):
    data = audit_json(capsys, "kb_deals_n.klab")
    assert [deal["outcome"] for deal in data["deals"]] == ["scored", "thrown-in", "scored"]
    assert (data["winner"], data["final"]) == ("S", seats(140, 160))


def test_a_result_tag_that_disagrees_is_an_error_at_its_line(capsys):
    # S makes with 60 against 84: failed, N scores 84 + 60 = 144
    status, out, err = audit_check(capsys, "kb_result_wrong.klab")
    assert status == 1 and out == ""
    assert err.startswith(f"{AUDIT / 'kb_result_wrong.klab'}:8: ")
    assert "N 144 S 0" in err
