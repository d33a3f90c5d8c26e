"""Spec audit, Klaverjas: trump choice, trick rules, roem, pit, nat, score sheets, match end.

Hand-made records in ``tests/fixtures/audit/kv_*.klab`` (written from the rule book and
record-format.md, not simulated); expected figures worked out by hand.

Deal K1 (dealer N): E holds all clubs, S all diamonds, W all hearts, N all spades, so that a
wrong dealing order would be caught at once. Tricks go rank by rank (J, 9, A, 10, K, Q, 8, 7 of
every suit): four jacks 200, four 9s 0, four A/10/K/Q 100 each, 8s and 7s 0 → 600 roem.

Deal K2 (dealer N, hearts trump, everyone always follows suit): tricks
7C 8C 9C AC (N, 11, run 20) · TC JC QC KC (N, 19, run 50) · 7D AD 8D 9D (E, 11, run 20) ·
TD JD QD KD (E, 19, run 50) · JH QH KH 7H (E, 27, run 20 + stuk 20) · 9H 8H TH AH (E, 35, run 20) ·
9S TS JS QS (S, 15, run 50) · 7S 8S KS AS (E, 15 + 10 last). NS 45 card points + 120 roem = 165;
EW 107 + 10 + 130 roem = 247.
"""

from __future__ import annotations

import json

import pytest

from klabsite.cards import Suit, parse_cards
from klabsite.events import TrickWon
from klabsite.klaverjas import KlaverjasDeal, legal_plays
from klabsite.options import KlaverjasRules
from klabsite.records import load_record
from klabsite.replay import replay
from klabsite.seats import Seat
from tests.helpers import AUDIT, audit_check, audit_json, sides, without_ids

PLAYED_KEYS = ["deal", "id", "dealer", "outcome", "trump", "playing", "card_points", "last_trick", "roem",
               "pit", "totals", "result", "score", "match"]
SCORED_KEYS = ["deal", "id", "dealer", "outcome", "playing", "points", "roem", "pit", "totals", "result",
               "score", "match"]


def played(trump, playing, card_points, last, roem, pit, totals, result, score) -> dict:
    return {"dealer": "N", "outcome": "played", "trump": trump, "playing": playing,
            "card_points": card_points, "last_trick": last, "roem": roem, "pit": pit, "totals": totals,
            "result": result, "score": score}


EW_PIT = played("C", "EW", sides(0, 152), "EW", sides(0, 600), True, sides(0, 862), "made", sides(0, 862))


@pytest.mark.parametrize("name", [
    "kv_pit_four_of_a_kind.klab",      # free: E names clubs at once
    "kv_free_all_pass.klab",           # free: all four pass, then E (left of the dealer) must name
    "kv_forced.klab",                  # forced: E names
    "kv_turned_take.klab",             # turned, clubs proposed: E takes
    "kv_turned_all_pass.klab",         # turned, diamonds proposed, all pass: E names clubs
])
def test_trump_choice_and_pit_with_four_of_a_kind(capsys, name):
    data = audit_json(capsys, name)
    (deal,) = data["deals"]
    assert list(deal) == PLAYED_KEYS
    assert without_ids(deal) == EW_PIT       # 152 + 10 + 600 roem + 100 pit
    assert (data["winner"], data["final"], deal["match"]) == (None, sides(0, 862), sides(0, 862))


def test_a_later_seat_takes_the_proposed_suit_and_his_side_plays(capsys):
    # spades proposed, N takes; E still leads (JC), N trumps and then leads every trump: NS pit
    (deal,) = audit_json(capsys, "kv_turned_pit_ns.klab")["deals"]
    assert without_ids(deal) == played("S", "NS", sides(152, 0), "NS", sides(600, 0), True, sides(862, 0), "made",
                                 sides(862, 0))


def test_opponents_taking_every_trick_is_nat_not_pit(capsys):
    # N names hearts, which W holds: EW take all; NS nat: EW score 162 + all roem (600)
    (deal,) = audit_json(capsys, "kv_nat_opponents_take_all.klab")["deals"]
    assert without_ids(deal) == played("H", "NS", sides(0, 152), "EW", sides(0, 600), False, sides(0, 762), "nat",
                                 sides(0, 762))


@pytest.mark.parametrize(("name", "playing", "result", "score"), [
    ("kv_roem_runs_stuk.klab", "EW", "made", sides(165, 247)),
    ("kv_roem_runs_stuk_rotterdam.klab", "EW", "made", sides(165, 247)),
    ("kv_roem_nat.klab", "NS", "nat", sides(0, 162 + 250)),     # S names hearts: 165 < 247
])
def test_runs_stuk_and_nat(capsys, name, playing, result, score):
    (deal,) = audit_json(capsys, name)["deals"]
    assert without_ids(deal) == played("H", playing, sides(45, 107), "EW", sides(120, 130), False, sides(165, 247),
                                 result, score)


def test_roem_of_each_trick():
    (deal,) = replay(load_record(AUDIT / "kv_roem_runs_stuk.klab")).deals
    tricks = [event for event in deal.deal.events if isinstance(event, TrickWon)]
    assert [(str(t.winner), t.roem) for t in tricks] == [
        ("N", 20), ("N", 50), ("E", 20), ("E", 50), ("E", 40), ("E", 20), ("S", 50), ("E", 0)]
    assert [t.points for t in tricks] == [11, 19, 11, 19, 27, 35, 15, 25]


def test_dealing_3_2_3_from_the_left_of_the_dealer():
    deck = parse_cards("7C JC AD 8C QC 8D 9C KC 9D AC TC 7D TD JH JD QH QD KH KD 7H 9H 9S AS 8H TS 7S "
                       "TH JS 8S AH QS KS")
    hands = KlaverjasDeal(KlaverjasRules(), Seat.N, deck).hands
    expected = {Seat.E: "7C JC AD TD JH 9H 9S AS", Seat.S: "8C QC 8D JD QH 8H TS 7S",
                Seat.W: "9C KC 9D QD KH TH JS 8S", Seat.N: "AC TC 7D KD 7H AH QS KS"}
    assert {seat: set(cards) for seat, cards in hands.items()} == {
        seat: set(parse_cards(text)) for seat, text in expected.items()}
    # dealt by W instead, the same deck goes N (1-3), E, S, W
    hands = KlaverjasDeal(KlaverjasRules(), Seat.W, deck).hands
    assert set(hands[Seat.N]) == set(parse_cards(expected[Seat.E]))
    assert set(hands[Seat.W]) == set(parse_cards(expected[Seat.N]))


@pytest.mark.parametrize(("name", "line", "message"), [
    ("kv_forced_pass.klab", 8, "E cannot pass"),
    ("kv_free_all_pass_again.klab", 11, "E cannot pass"),
    ("kv_turned_all_pass_proposed.klab", 13, "E cannot name D"),
    ("kv_turned_name_first.klab", 9, "E cannot name C"),
    ("kv_proposed_not_turned.klab", 7, "[Proposed]"),
    # deal K3 (dealer N, hearts trump): E leads AC; S (void) holds KH; W 7H 8H + spades;
    # N QH AH 9H TH JH 7D 8S 7S
    ("kv_ams_must_trump.klab", 10, "S cannot play AD: must trump with KH"),
    ("kv_ams_no_undertrump.klab", 11, "W cannot play 7H"),
    ("kv_ams_no_undertrump_partner.klab", 12, "N cannot play QH"),
    ("kv_rot_undertrump_required.klab", 12, "W cannot play AS: must undertrump with 8H, 7H"),
    ("kv_rot_partner_must_overtrump.klab", 13, "N cannot play 7D: must overtrump with JH, 9H, AH, TH"),
    ("kv_rot_no_undertrump_partner.klab", 13, "N cannot play QH"),
    ("kv_rot_forbidden_undertrump.klab", 12, "W cannot play 7H"),
    ("kv_rot_trump_led_follow.klab", 17, "W cannot play AS: must follow suit with 7H"),
])
def test_illegal_bids_and_cards_are_reported_at_their_line(capsys, name, line, message):
    status, out, err = audit_check(capsys, name)
    assert status == 1 and out == ""
    assert err.startswith(f"{AUDIT / name}:{line}: "), err
    assert message in err and "Traceback" not in err


@pytest.mark.parametrize("name", [
    "kv_ams_ok.klab",                   # W discards a spade, N (partner winning) any card but QH
    "kv_ams_overtrump_partner.klab",    # Amsterdam: overtrumping the partner is allowed
    "kv_rot_ok.klab",                   # Rotterdam: W undertrumps, N overtrumps his partner
    "kv_rot_forbidden_ok.klab",
])
def test_legal_partial_deals_marked_unfinished(capsys, name):
    status, out, err = audit_check(capsys, name, "--json")
    assert (status, err) == (0, "")
    (deal,) = json.loads(out)["deals"]
    assert deal["outcome"] == "unfinished"


@pytest.mark.parametrize("rules", ["", "trick-rules=rotterdam", "trick-rules=rotterdam undertrump=forbidden"])
def test_trump_led_play_higher_even_over_the_partner(rules):
    # partner led TH, an opponent followed 7H; I hold AH 8H 7C: I must overtrump with AH
    options = KlaverjasRules.parse(rules)
    cards, _ = legal_plays(parse_cards("AH 8H 7C"), parse_cards("TH 7H"), Suit.HEARTS, options)
    assert cards == tuple(parse_cards("AH"))
    # nothing higher: any trump; no trump: any card
    cards, _ = legal_plays(parse_cards("8H 7C"), parse_cards("TH 7H"), Suit.HEARTS, options)
    assert cards == tuple(parse_cards("8H"))
    cards, _ = legal_plays(parse_cards("8C 7C"), parse_cards("TH 7H"), Suit.HEARTS, options)
    assert set(cards) == set(parse_cards("8C 7C"))


def test_score_sheet_deals(capsys):
    data = audit_json(capsys, "kv_sheet.klab")
    deals = data["deals"]
    assert all(list(deal) == SCORED_KEYS for deal in deals)
    assert [deal["dealer"] for deal in deals] == ["N", "E", "S", "W", "N"]
    got = [(d["playing"], d["points"], d["roem"], d["pit"], d["totals"], d["result"], d["score"], d["match"])
           for d in deals]
    assert got == [
        ("NS", sides(92, 70), sides(20, 0), False, sides(112, 70), "made", sides(112, 70), sides(112, 70)),
        # 81-81 with EW playing: a tie is nat
        ("EW", sides(81, 81), sides(0, 0), False, sides(81, 81), "nat", sides(162, 0), sides(274, 70)),
        ("NS", sides(162, 0), sides(100, 0), True, sides(362, 0), "made", sides(362, 0), sides(636, 70)),
        # 91 + 0 against 71 + 20: tie, nat: NS 162 + 20
        ("EW", sides(91, 71), sides(0, 20), False, sides(91, 91), "nat", sides(182, 0), sides(818, 70)),
        # all 162 points without a Pit tag: no pit bonus
        ("NS", sides(162, 0), sides(0, 0), False, sides(162, 0), "made", sides(162, 0), sides(980, 70)),
    ]
    assert (data["winner"], data["final"]) == (None, sides(980, 70))


def test_match_end_with_equal_totals_plays_on(capsys):
    data = audit_json(capsys, "kv_match_tie.klab")        # target=150: 162-162
    assert (data["winner"], data["final"]) == (None, sides(162, 162))
    data = audit_json(capsys, "kv_match_won.klab")
    assert (data["winner"], data["final"]) == ("NS", sides(262, 224))
    data = audit_json(capsys, "kv_deals_n.klab")          # deals=3
    assert (data["winner"], data["final"]) == ("NS", sides(262, 224))


@pytest.mark.parametrize(("name", "line", "message"), [
    ("kv_match_after_end.klab", 23, "match is over"),
    ("kv_deals_n_extra.klab", 17, "match is over"),       # deals=2
    ("kv_sheet_wrong_dealer.klab", 11, "wrong dealer"),
])
def test_match_errors(capsys, name, line, message):
    status, out, err = audit_check(capsys, name)
    assert status == 1 and out == ""
    assert err.startswith(f"{AUDIT / name}:{line}: ") and message in err
