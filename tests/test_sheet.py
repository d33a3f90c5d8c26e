"""klabsite.sheet: score-sheet deals, derived dealers, the table, and the undo history's crash safety."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from klabsite.games import get_game
from klabsite.replay import replay
from klabsite.seats import Seat
from klabsite.sheet import DealOptions, History, Row, Sheet, SheetError, deal_tags, format_table, text_digest

FIXTURES = Path(__file__).parent / "fixtures" / "records" / "valid"


def test_a_change_returns_a_new_sheet_and_leaves_the_old_one_alone():
    empty = Sheet.new("klaverjas")
    one = empty.add(DealOptions(playing="NS", points="92"))
    assert (len(empty.record.deals), len(one.record.deals)) == (0, 1)
    two = one.edit(1, DealOptions(points="100"))
    assert one.record.deals[0].tags["Points"] == "NS 92" and two.record.deals[0].tags["Points"] == "NS 100"


def test_every_sheet_text_replays_like_klabsite_check():
    sheet = Sheet.new("klaberjass", rules="equal-score=next-deal-winner", first_dealer="S")
    for maker, totals in (("N", "N 81 S 81"), ("S", "N 60 S 102"), ("N", "N 91 S 91")):
        sheet = sheet.add(DealOptions(maker=maker, totals=totals))
        again = replay(Sheet.read(sheet.to_text()).record)
        assert again.valid and again.score.totals == sheet.totals
    assert [deal.outcome for deal in sheet.replayed.deals] == ["scored"] * 3
    assert sheet.hanging == 91 and sheet.next_dealer is Seat.N


def test_deal_tags_keep_what_is_not_given():
    game = get_game("klaverjas")
    tags = deal_tags(game, {}, DealOptions(playing="NS", points="EW 70", roem="NS 20 EW 50"))
    assert tags == {"Playing": "NS", "Points": "EW 70", "Roem": "NS 20 EW 50"}
    assert deal_tags(game, tags, DealOptions(roem="EW 0", note="misdeal?")) == {
        "Playing": "NS", "Points": "EW 70", "Roem": "NS 20 EW 0", "Note": "misdeal?"}


@pytest.mark.parametrize(("options", "message"), [
    (DealOptions(playing="NS", points="163"), "more than the 162"),
    (DealOptions(playing="NS", points="NS 1.5"), "needs a whole number"),
    (DealOptions(playing="NS", points="92", roem="NS"), "write pairs"),
    (DealOptions(playing="NS", points="92", roem="NS 15"), "not a multiple of 10"),
    (DealOptions(playing="NS", points="EW 1", pit=True), "has all 162 card points, not 161"),
])
def test_deal_tags_refusals(options, message):
    with pytest.raises(SheetError, match=message):
        deal_tags(get_game("klaverjas"), {}, options)


def test_pit_accepts_the_points_given_for_the_other_side():
    tags = deal_tags(get_game("klaverjas"), {}, DealOptions(playing="NS", points="EW 0", pit=True))
    assert (tags["Points"], tags["Pit"]) == ("EW 0", "NS")


def test_dealers_after_a_played_schmeiss_redeal_follow_the_engine():
    text = (FIXTURES / "klaberjass_three_deals.klab").read_text()
    text = text.replace('[Game "klaberjass"]', '[Game "klaberjass"]\n[Rules "schmeiss-redeal=same-dealer"]')
    sheet = Sheet.read(text)
    assert sheet.replayed.deals[-1].outcome == "redeal"
    added = sheet.add(DealOptions(maker="N", totals="N 100 S 62"))
    assert added.record.deals[-1].tags["Dealer"] == "S"  # the redealt deal's dealer deals again
    assert added.delete(1).record.deals[-1].tags["Dealer"] == "S"


def test_deleting_every_deal_keeps_the_first_dealer():
    sheet = Sheet.new("klaverjas", first_dealer="S").add(DealOptions(playing="EW", points="100"))
    assert sheet.delete(1).first_dealer is Seat.S
    assert '[FirstDealer "S"]' in sheet.delete(1).to_text()


def test_format_table_labels_set_the_widths_of_short_columns():
    row = Row(1, "N", "NS", ("0", "0"), ("0", "0"), "", ("0", "0"), ("0", "0"))
    assert format_table([row], "klaverjas") == [
        "Deal  Dealer  Playing  Points  Roem    Marks  Score   Match",
        "                       NS  EW  NS  EW         NS  EW  NS  EW",
        "   1  N       NS        0   0   0   0          0   0   0   0",
    ]  # "Dealer", "Playing", "Marks" set their column's width; "Points" spans NS and EW exactly


# --------------------------------------------------------------------------- the undo history


def test_history_round_trips_through_its_text():
    history = History().pushed("new", None, b"one\n").pushed("add deal 1", b"one\n", b"two\xff\n")
    again = History.from_text(history.to_text())
    assert again == history
    assert again.changes[-1].before == b"one\n" and again.changes[-1].after == text_digest(b"two\xff\n")


def test_a_change_that_never_landed_is_dropped():
    """A crash after the history was written but before the sheet was replaced."""
    history = History().pushed("new", None, b"A").pushed("add deal 1", b"A", b"B")
    history = history.pushed("add deal 2", b"B", b"C")  # ... and the sheet still holds B
    change, rest = history.undo(b"B")
    assert (change.command, change.before) == ("add deal 1", b"A")
    assert [c.command for c in rest.changes] == ["new"]


def test_an_undo_that_was_interrupted_is_not_done_twice():
    """A crash after an undo replaced the sheet but before the history was written."""
    history = History().pushed("new", None, b"A").pushed("add deal 1", b"A", b"B")
    history = history.pushed("add deal 2", b"B", b"C")
    # The sheet was restored to B, the history still lists add deal 2: the next undo reverts deal 1.
    assert history.undo(b"B")[0].command == "add deal 1"


def test_undo_refuses_a_file_changed_by_hand_and_a_broken_history():
    history = History().pushed("new", None, b"A").pushed("add deal 1", b"A", b"B")
    with pytest.raises(SheetError, match="changed since"):
        history.undo(b"B edited by hand")
    with pytest.raises(SheetError, match="not a klabsite score history"):
        History.from_text("{}")


def test_seeded_random_changes_keep_a_valid_sheet_and_undo_restores_every_version():
    rng = random.Random(20261130)
    sheet = Sheet.new("klaverjas", rules="target=1000", first_dealer="E")
    versions = [sheet.to_text()]
    history = History().pushed("new", None, versions[0].encode())
    done = {"add": 0, "edit": 0, "delete": 0}
    for _ in range(60):
        count = len(sheet.record.deals)
        choice = rng.choice(["add", "add", "add", "edit", "delete"])
        side = rng.choice(["NS", "EW"])
        options = DealOptions(playing=side, points=str(rng.randrange(163)),
                              roem=f"{side} {rng.choice([0, 20, 50, 100])}")
        try:
            if choice == "add":
                changed = sheet.add(options)
            elif choice == "edit" and count:
                changed = sheet.edit(rng.randrange(count) + 1, options)
            elif count:
                changed = sheet.delete(rng.randrange(count) + 1)
            else:
                continue
        except SheetError as refused:
            assert "match" in str(refused)  # only the end of the match refuses these options
            continue
        replayed = replay(Sheet.read(changed.to_text()).record)
        assert replayed.valid
        rotation = [Seat.E, Seat.S, Seat.W, Seat.N]
        dealers = [deal.dealer for deal in replayed.deals]
        assert dealers == [rotation[i % 4] for i in range(len(dealers))]
        done[choice] += 1
        before, sheet = sheet.to_text(), changed
        history = history.pushed(choice, before.encode(), sheet.to_text().encode())
        versions.append(sheet.to_text())
    assert min(done.values()) >= 5, done
    current = versions[-1].encode()
    for expected in reversed(versions[:-1]):
        change, history = history.undo(current)
        assert change.before is not None and change.before.decode() == expected
        current = change.before
