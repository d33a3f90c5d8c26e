"""Spec audit, Klaberjass: round-2 schmeiss, dix, bella, sequences and the talk (the rule book 2-8).

Hand-made records in ``tests/fixtures/audit/`` (written from the spec, not simulated); every
expected figure is worked out by hand in the comments. Dealer S, elder N everywhere. In every
deal N wins all nine tricks except in ``kb_schmeiss_round2_refused`` (clubs trump, S trumps in).
"""

from __future__ import annotations

import json

import pytest

from klabsite.melds import Talk
from klabsite.records import load_record
from klabsite.replay import replay
from tests.helpers import AUDIT, audit_check, audit_json, seats


def only_deal(capsys, name: str) -> dict:
    data = audit_json(capsys, name)
    (deal,) = data["deals"]
    assert deal["match"] == data["final"] == deal["score"]
    return deal


def figures(deal: dict) -> tuple:
    return (deal["trump"], deal["maker"], deal["card_points"], deal["last_trick"], deal["melds"],
            deal["bella"], deal["totals"], deal["result"], deal["score"])


ZERO = seats(0, 0)


def test_round_2_schmeiss_refused_the_schmeisser_names_another_suit(capsys):
    # N names clubs: N wins AD+QD 14, KD+JD 6, KC+8D 4, AS+8S 11, KS+QS 7, AC+JS 13 = 55 (+10 last);
    # S trumps AH (11), JH (2+3) and 9H (0+20): 36.
    deal = only_deal(capsys, "kb_schmeiss_round2_refused.klab")
    assert figures(deal) == ("C", "N", seats(55, 36), "N", ZERO, ZERO, seats(65, 36), "made", seats(65, 36))


@pytest.mark.parametrize(("name", "line", "message"), [
    # after a refused round-2 schmeiss the maker must name: no pass, not the upcard's suit
    ("kb_schmeiss_round2_maker_cannot_pass.klab", 13, "N cannot pass"),
    ("kb_schmeiss_round2_upcard_suit.klab", 13, "N cannot name H"),
    # schmeiss-round-2=off (default): no schmeiss in round 2
    ("kb_schmeiss_round2_off.klab", 10, "N cannot schmeiss"),
    # round 2 names one of the OTHER three suits
    ("kb_name_upcard_suit.klab", 10, "N cannot name H"),
    # the holder of the 7 of trumps decides dix/keep before anything else
    ("kb_dix_skipped.klab", 8, "N cannot play JH"),
    # after dix N holds JH-TH-9H: a player holding a sequence must declare or say nomeld
    ("kb_dix_then_sequence_undeclared.klab", 9, "N cannot play JH"),
    ("kb_meld_elder_undeclared.klab", 8, "N cannot play JS"),
    ("kb_meld_dealer_undeclared.klab", 10, "S cannot play JH"),
    ("kb_meld_not_held.klab", 8, "does not hold JC"),
    # nobella only with the second of K/Q of trumps
    ("kb_nobella_first_card.klab", 10, "N cannot play KH nobella"),
    ("kb_nobella_plain_card.klab", 14, "N cannot play AC nobella"),
])
def test_an_illegal_action_is_reported_at_its_line(capsys, name, line, message):
    status, out, err = audit_check(capsys, name)
    assert status == 1 and out == ""
    assert err.startswith(f"{AUDIT / name}:{line}: "), err
    assert message in err and "Traceback" not in err


def test_round_2_schmeiss_accepted_is_a_redeal_and_the_dealer_changes(capsys):
    status, out, err = audit_check(capsys, "kb_schmeiss_round2_accepted.klab", "--json")
    assert status == 0, err
    first, second = json.loads(out)["deals"]
    assert (first["outcome"], second["dealer"]) == ("redeal", "N")


@pytest.mark.parametrize(("name", "expected"), [
    # upcard TH; N exchanges 7H for it and then holds JH-TH-9H (20): 20+14+10 + 45 + S's 15 = 104
    ("kb_dix_exchange.klab", ("H", "N", seats(104, 0), "N", seats(20, 0), ZERO, seats(134, 0), "made",
                              seats(134, 0))),
    # N keeps 7H: 20+14+0 + 45 + 15 = 94
    ("kb_dix_keep.klab", ("H", "N", seats(94, 0), "N", ZERO, ZERO, seats(104, 0), "made", seats(104, 0))),
    # the dealer holds 7H and takes TH, which N's JH then captures: 90 + 10 + 15 = 115
    ("kb_dix_by_dealer.klab", ("H", "N", seats(115, 0), "N", ZERO, ZERO, seats(125, 0), "made",
                               seats(125, 0))),
    ("kb_keep_by_dealer.klab", ("H", "N", seats(105, 0), "N", ZERO, ZERO, seats(115, 0), "made",
                                seats(115, 0))),
    # N plays KH then QH: bella 20 on the second; 9H 14 + KH 4 + QH 3 + 45 + 15 = 81
    ("kb_bella_claimed.klab", ("H", "N", seats(81, 0), "N", ZERO, seats(20, 0), seats(111, 0), "made",
                               seats(111, 0))),
    ("kb_bella_declined.klab", ("H", "N", seats(81, 0), "N", ZERO, ZERO, seats(91, 0), "made",
                                seats(91, 0))),
])
def test_dix_and_bella(capsys, name, expected):
    assert figures(only_deal(capsys, name)) == expected


# Deal D (spades trump): N holds AC-KC-QC, AD-KD-QD; S holds JC-TC-9C, JD-TD-9D, JH-TH-9H and wins no
# trick. N's card points: his 81 + S's 36 = 117.  Deal F (hearts trump): KC-QC-JC (N) against
# KD-QD-JD (S); N's card points 80 + 14 = 94.  Deal G (hearts trump): N's JC-TC-9C-8C-7C against S's
# AS-KS-QS-JS; N takes 68 + 37 = 105.
@pytest.mark.parametrize(("name", "card_points", "melds", "bella", "score"), [
    ("kb_meld_top_card.klab", 117, seats(40, 0), ZERO, seats(167, 0)),        # A high beats J high
    ("kb_meld_only_dealer.klab", 117, seats(0, 60), ZERO, seats(127, 60)),    # S scores all three
    ("kb_meld_no_trick_void.klab", 117, ZERO, ZERO, seats(127, 0)),          # ... void: S took no trick
    ("kb_meld_equal_neither.klab", 94, ZERO, ZERO, seats(104, 0)),           # equal-meld=neither
    ("kb_meld_equal_elder.klab", 94, seats(20, 0), ZERO, seats(124, 0)),     # equal-meld=elder
    # clubs named: N's KC-QC-JC is in trumps and beats KD-QD-JD; N also plays QC and KC: bella
    ("kb_meld_trump_decides.klab", 80, seats(20, 0), seats(20, 0), seats(130, 0)),
    ("kb_meld_long_50.klab", 105, seats(0, 50), ZERO, seats(115, 50)),       # 50 = 50, A high wins
    ("kb_meld_long_100.klab", 105, seats(100, 0), ZERO, seats(215, 0)),      # five cards = 100
    ("kb_meld_long_50_void.klab", 105, ZERO, ZERO, seats(115, 0)),
])
def test_sequence_comparison(capsys, name, card_points, melds, bella, score):
    deal = only_deal(capsys, name)
    assert deal["card_points"] == seats(card_points, 0) and deal["last_trick"] == "N"
    assert (deal["melds"], deal["bella"], deal["score"], deal["totals"]) == (melds, bella, score, score)
    assert deal["result"] == "made" and deal["maker"] == "N"


@pytest.mark.parametrize(("name", "talk"), [
    ("kb_example.klab", ["N: Twenty.", "S: How high?", "N: Jack high.", "S: Not good."]),
    ("kb_meld_top_card.klab", ["N: Twenty.", "S: How high?", "N: Ace high.", "S: Good."]),
    ("kb_meld_only_dealer.klab", ["S: Twenty.", "N: Good."]),
    ("kb_meld_trump_decides.klab", ["N: Twenty.", "S: How high?", "N: King high.", "S: In trumps?", "N: Yes.",
                                    "S: Good."]),
    ("kb_meld_long_50.klab", ["N: Fifty.", "S: How high?", "N: Jack high.", "S: Not good."]),
    ("kb_meld_long_100.klab", ["N: Hundred.", "S: Good."]),
    ("kb_bella_claimed.klab", []),
])
def test_the_talk_follows_from_what_both_declared(name, talk):
    (deal,) = replay(load_record(AUDIT / name)).deals
    talks = [event for event in deal.deal.events if isinstance(event, Talk)]
    spoken = [str(phrase) for event in talks for phrase in event.phrases]
    assert spoken == talk
