"""klabsite.records.sheet: score-sheet deals, derived dealers, the table, and the undo history's crash safety."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

from klabsite.engine.cards import DECK, Suit
from klabsite.engine.games import get_game
from klabsite.engine.klaberjass import CARD_POINT_SUMS, possible_extras
from klabsite.engine.klaverjas import SIDE_POINT_SUMS
from klabsite.engine.options import KlaberjassRules
from klabsite.engine.roem import MAX_DEAL_ROEM, trick_roem
from klabsite.engine.seats import Seat
from klabsite.records.replay import replay
from klabsite.records.sheet import DealOptions, Row, Sheet, SheetError, deal_tags, format_table
from klabsite.records.undo import HISTORY_BYTES, History, text_digest

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
    (DealOptions(playing="NS", points="92", roem="NS 10"), "NS 10: roem comes in 20, 50, 100 and 200"),
    (DealOptions(playing="NS", points="92", roem="EW 30"), "EW 30: roem comes in 20, 50, 100 and 200"),
    (DealOptions(playing="NS", points="161"), "NS 161: no deal gives a side 161 card points"),
    (DealOptions(playing="NS", points="EW 1"), "EW 1: no deal gives a side 1 card points"),
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


TAKEN = sorted(SIDE_POINT_SUMS)
"""Card points a side can take: 0 to 162 but 1 and 161."""


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
        options = DealOptions(playing=side, points=str(rng.choice(TAKEN)),
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


# --------------------------------------------------------------------------- impossible values (reliability)


def test_max_deal_roem_is_the_most_any_eight_tricks_can_hold():
    """An exhaustive search (branch and bound) over every way to share the 32 cards among eight
    tricks, play rules left out: the best sharing holds MAX_DEAL_ROEM, so the bound refuses nothing
    a deal can make."""
    cards = list(DECK)
    tricks = [(value, sum(1 << i for i in combination))
              for combination in itertools.combinations(range(32), 4)
              if (value := trick_roem([cards[i] for i in combination], trump=Suit.HEARTS))]
    assert max(value for value, _ in tricks) == 200  # four jacks
    # a card's share: at most a quarter of the best trick it is in (an upper bound on what is left)
    share = [max(value / 4 for value, mask in tricks if mask >> i & 1) for i in range(32)]
    lowest = [sorted(((v, m) for v, m in tricks if m & -m == 1 << i), reverse=True) for i in range(32)]
    best = [0]

    def search(used: int, value: int, bound: float) -> None:
        best[0] = max(best[0], value)
        if used == 0xFFFFFFFF or value + bound <= best[0]:
            return
        low = ~used & (used + 1)  # the lowest free card: in one of these tricks, or in none with roem
        card = low.bit_length() - 1
        for trick_value, mask in lowest[card]:
            if not mask & used:
                search(used | mask, value + trick_value, bound - sum(share[i] for i in range(32) if mask >> i & 1))
        search(used | low, value, bound - share[card])

    search(0, 0, sum(share))
    assert best[0] == MAX_DEAL_ROEM == 700


def test_klaberjass_totals_must_hold_the_card_points_and_possible_sequences_and_bella():
    assert possible_extras(KlaberjassRules()) == (0, 20, 40, 50, 60, 70, 80, 90, 100, 120)
    assert possible_extras(KlaberjassRules(long_sequence=100)) == (
        0, 20, 40, 50, 60, 70, 80, 90, 100, 120, 140, 150, 170)
    assert min(CARD_POINT_SUMS) == 18 and max(CARD_POINT_SUMS) == 146  # the 18 cards played of 32
    sheet = Sheet.new("klaberjass")
    for totals in ("N 84 S 60", "N 28 S 0", "N 0 S 28", "N 150 S 126", "N 100 S 72"):
        sheet.add(DealOptions(maker="N", totals=totals))
    for totals in ("N 27 S 0", "N 0 S 0", "N 150 S 127", "N 200 S 83"):
        with pytest.raises(SheetError, match="no deal can make"):
            sheet.add(DealOptions(maker="N", totals=totals))


def test_a_deeply_nested_history_is_not_a_history():
    for text in ("[" * 100_000, '{"format": "klabsite-score-undo 1", "changes": [' + "{" * 100_000 + "]}",
                 '{"format": "klabsite-score-undo 1", "changes": [{"command": "x", "before": null, "after": "y"}]}'):
        with pytest.raises(SheetError, match="not a klabsite score history"):
            History.from_text(text)


def test_the_history_keeps_at_most_history_bytes_of_sheets():
    big = b"x" * (HISTORY_BYTES // 4)  # three of them fit, four do not
    history = History()
    for number in range(6):
        history = history.pushed(f"add deal {number + 1}", big + bytes([number]), big + bytes([number + 1]))
    assert [change.command for change in history.changes] == ["add deal 4", "add deal 5", "add deal 6"]
    assert History.from_text(history.to_text()) == history
