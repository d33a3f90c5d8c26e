"""Spec audit, Klaberjass bidding: hand-made records checked against hand-computed JSON.

Every record under ``tests/fixtures/audit/`` was written by hand from the rule book and
docs/record-format.md (not by the simulator), and every expected figure below was worked out
by hand from the rules. Template deal "A" (used by most records here): the elder (non-dealer)
holds JH 9H AH AC KC AD KD AS KS, the dealer QC JC 8C QD JD 8D QS JS 8S, the upcard is 8H and
7H lies in the stock (no dix). With hearts trump the elder leads all nine tricks and wins them:
card points 20+14+11 + 3×(11+4) = 90 of his own + 3×(3+2+0) = 15 of the dealer's = 105, plus
the last trick 10 = 115; the dealer takes nothing.
"""

from __future__ import annotations

import pytest

from tests.helpers import AUDIT, audit_check, audit_json, without_ids


def template_a(dealer: str, maker: str, result: str) -> dict:
    """The JSON of template deal A (without ``deal``, ``id``, ``match``): the elder takes all."""
    elder = "N" if dealer == "S" else "S"
    other = dealer
    return {
        "dealer": dealer, "outcome": "played", "trump": "H", "maker": maker,
        "card_points": {elder: 105, other: 0}, "last_trick": elder,
        "melds": {"N": 0, "S": 0}, "bella": {"N": 0, "S": 0},
        "totals": {elder: 115, other: 0}, "result": result,
        "score": {elder: 115, other: 0},
    }


@pytest.mark.parametrize(("name", "maker", "result"), [
    # N schmeisses, S refuses: schmeiss-refused=schmeisser-makes (default) -> N makes hearts.
    ("kb_schmeiss_refused_schmeisser_makes.klab", "N", "made"),
    # schmeiss-refused=refuser-makes -> S makes hearts and fails (N takes every trick).
    ("kb_schmeiss_refused_refuser_makes.klab", "S", "failed"),
    # N passes, the dealer S schmeisses, N refuses: S (schmeisser) makes and fails.
    ("kb_dealer_schmeiss_refused.klab", "S", "failed"),
    # same with refuser-makes: N (refuser) makes.
    ("kb_dealer_schmeiss_refused_refuser.klab", "N", "made"),
])
def test_a_refused_schmeiss_makes_the_maker_named_by_schmeiss_refused(capsys, name, maker, result):
    data = audit_json(capsys, name)
    assert data["game"] == "klaberjass" and data["winner"] is None
    (deal,) = data["deals"]
    assert without_ids(deal) == template_a("S", maker, result)
    # failed: the opponent scores both totals (115 + 0); made: each his own.
    assert deal["match"] == data["final"] == {"N": 115, "S": 0}


@pytest.mark.parametrize(("name", "second_dealer", "maker"), [
    ("kb_schmeiss_accepted_dealer_changes.klab", "N", "S"),   # schmeiss-redeal=dealer-changes
    ("kb_schmeiss_accepted_same_dealer.klab", "S", "N"),      # schmeiss-redeal=same-dealer
])
def test_an_accepted_schmeiss_is_a_redeal_and_the_dealer_follows_schmeiss_redeal(
    capsys, name, second_dealer, maker
):
    data = audit_json(capsys, name)
    first, second = data["deals"]
    assert set(first) == {"deal", "id", "dealer", "outcome"}
    assert first["outcome"] == "redeal" and first["dealer"] == "S"
    assert without_ids(second) == template_a(second_dealer, maker, "made")
    assert second["match"] == data["final"] == second["score"]


@pytest.mark.parametrize(("name", "line", "words"), [
    ("kb_schmeiss_same_dealer_wrong.klab", 12, "wrong dealer"),
    ("kb_schmeiss_dealer_changes_wrong.klab", 11, "wrong dealer"),
    ("kb_thrown_in_wrong_dealer.klab", 13, "wrong dealer"),
])
def test_a_dealer_out_of_rotation_is_an_error_at_the_dealer_tag(capsys, name, line, words):
    status, out, err = audit_check(capsys, name)
    assert status == 1 and out == ""
    assert err.startswith(f"{AUDIT / name}:{line}: ") and words in err
    assert "Traceback" not in err and err.count("\n") == 1


def test_schmeiss_off_refuses_a_schmeiss_at_its_line(capsys):
    status, out, err = audit_check(capsys, "kb_schmeiss_off.klab")
    assert status == 1 and out == ""
    assert err.startswith(f"{AUDIT / 'kb_schmeiss_off.klab'}:8: N cannot schmeiss")
    assert "take, pass" in err


def test_all_pass_twice_throws_in_and_the_other_player_deals(capsys):
    data = audit_json(capsys, "kb_thrown_in.klab")
    first, second = data["deals"]
    assert first == {"deal": 1, "id": first["id"], "dealer": "S", "outcome": "thrown-in"}
    assert without_ids(second) == template_a("N", "S", "made")
    assert data["final"] == {"N": 0, "S": 115}


def test_identical_deal_blocks_under_identical_rules_have_the_same_id(capsys):
    thrown = audit_json(capsys, "kb_thrown_in.klab")
    redeal = audit_json(capsys, "kb_schmeiss_accepted_dealer_changes.klab")
    assert thrown["deals"][1]["id"] == redeal["deals"][1]["id"]
    assert thrown["deals"][0]["id"] != redeal["deals"][0]["id"]
    assert thrown["id"] != redeal["id"]
