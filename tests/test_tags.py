"""Tag words (docs/record-format.md, "Tag words"): each word on hand-made records that have it and
records that do not, and the early ``ruled_out`` of ``simulate --find`` never wrong."""

from __future__ import annotations

import pytest

from klabsite.commands.simulation import bots_for, record_deal, seeded_rng
from klabsite.engine.actions import ActionKind
from klabsite.engine.seats import Seat
from klabsite.records.annotations import dd_order
from klabsite.records.klab import Record, load_record, read_record
from klabsite.records.replay import legal_cards, positions, replay
from klabsite.records.tags import BLUNDER_COST, TAG_WORDS, deal_tags, last_trick_decides, ruled_out
from tests.helpers import AUDIT

# (audit record, deal index, every word it has): the records are hand-made (tags_*.klab: simulated
# once, then kept), each chosen for a word or for the lack of one.
CASES = [
    ("kb_bella_claimed.klab", 0, ["bella", "capot"]),
    ("kb_bella_declined.klab", 0, ["bella-declined", "capot"]),  # the K and Q played, bella not claimed
    ("kb_canonical.klab", 0, ["sequence-duel"]),
    ("kb_meld_only_dealer.klab", 0, ["capot"]),  # one player declares: no duel
    ("kb_dealer_schmeiss_refused.klab", 0, ["schmeiss", "maker-failed", "capot"]),  # the maker takes no trick
    ("kb_schmeiss_accepted_same_dealer.klab", 0, ["schmeiss", "thrown-in"]),
    ("kb_thrown_in.klab", 0, ["thrown-in"]),
    ("kb_thrown_in.klab", 1, ["capot"]),
    ("kb_dix_exchange.klab", 0, ["dix", "capot"]),
    ("kb_dix_keep.klab", 0, ["capot"]),  # the 7 of trumps kept: no dix
    ("kb_sheet_hanging.klab", 0, ["tie", "hanging-points"]),  # score-sheet deals get the words of results
    ("kb_sheet_hanging.klab", 1, ["thrown-in"]),  # the hanging points only pass through
    ("kb_sheet_tie_default.klab", 0, ["tie"]),  # equal-score=maker-scores-nothing: nothing hangs
    ("tags_kb_tie_hanging.klab", 0, ["schmeiss", "sequence-duel", "tie", "hanging-points", "last-trick-decides"]),
    ("tags_kb_tie.klab", 0, ["tie", "last-trick-decides"]),
    ("tags_kb_last_trick_made.klab", 0, ["dix", "bella", "last-trick-decides"]),
    ("tags_kb_last_trick_failed.klab", 0, ["schmeiss", "maker-failed", "last-trick-decides"]),
    ("kb_example.klab", 0, ["sequence-duel"]),
    ("kv_pit_four_of_a_kind.klab", 0, ["pit", "roem-100", "roem-200"]),
    ("kv_nat_opponents_take_all.klab", 0, ["nat", "roem-100", "roem-200"]),  # every trick, but not pit
    ("kv_roem_runs_stuk.klab", 0, ["bella"]),  # stuk: K and Q of trumps in one trick
    ("kv_roem_nat.klab", 0, ["bella", "nat"]),
    ("tags_kv_roem_100.klab", 0, ["roem-100"]),  # K and Q of trumps in two tricks: no stuk
    ("tags_kv_last_trick_made.klab", 0, ["last-trick-decides"]),
    ("tags_kv_last_trick_nat.klab", 0, ["nat", "last-trick-decides"]),
    ("kv_sheet.klab", 1, ["nat"]),
    ("kv_sheet.klab", 2, ["pit"]),
    ("kv_sheet.klab", 0, []),
]


def _replayed(name: str):
    record = load_record(AUDIT / name)
    replayed = replay(record)
    assert replayed.valid, replayed.errors
    return record, replayed


@pytest.mark.parametrize(("name", "index", "words"), CASES, ids=[f"{n}:{i}" for n, i, _ in CASES])
def test_a_deal_has_exactly_the_words_true_of_it(name, index, words):
    record, replayed = _replayed(name)
    assert deal_tags(replayed.deals[index], record.game.name) == words


@pytest.mark.parametrize("word", [word for word in TAG_WORDS if word != "blunder"])
def test_every_word_is_checked_on_a_deal_with_it_and_one_without(word):
    games = TAG_WORDS[word]
    having = [case for case in CASES if word in case[2]]
    lacking = [case for case in CASES if word not in case[2] and case[0].startswith(("kb", "tags_kb"))
               == ("klaberjass" in games)]
    assert having and lacking, word


def test_last_trick_decides_is_false_where_the_10_changes_nothing():
    _, replayed = _replayed("kb_canonical.klab")
    assert not last_trick_decides(replayed.deals[0])
    _, replayed = _replayed("tags_kv_last_trick_nat.klab")
    assert last_trick_decides(replayed.deals[0])


def _with_dd(name: str, played_value: int) -> Record:
    """The record with one hand-written dd annotation: the first card play with a choice, its card
    worth ``played_value`` and every other legal card 0."""
    record, replayed = _replayed(name)
    done = replayed.deals[0]
    for index, action, deal in positions(done):
        legal = legal_cards(deal)
        if action.kind is ActionKind.PLAY and len(legal) > 1:
            values = {card: played_value if card == action.card else 0 for card in legal}
            done.record.set_dd(index, values)
            return read_record(record.to_text())
    raise AssertionError("no card play with a choice")


@pytest.mark.parametrize(("name", "value", "blunder"), [
    ("kb_canonical.klab", -BLUNDER_COST, True), ("kb_canonical.klab", 1 - BLUNDER_COST, False),
    ("kv_roem_nat.klab", -BLUNDER_COST - 50, True), ("kv_roem_nat.klab", 0, False),
])
def test_blunder_is_a_card_costing_20_points_or_more(name, value, blunder):
    record = _with_dd(name, value)
    done = replay(record).deals[0]
    assert done.error is None
    assert ("blunder" in deal_tags(done, record.game.name)) is blunder
    _, plain = _replayed(name)
    assert "blunder" not in deal_tags(plain.deals[0], record.game.name)  # no dd: never a blunder


def test_blunder_costs_may_be_given():
    record, replayed = _replayed("kb_canonical.klab")
    assert "blunder" in deal_tags(replayed.deals[0], "klaberjass", [0, 5, BLUNDER_COST])
    assert "blunder" not in deal_tags(replayed.deals[0], "klaberjass", [0, BLUNDER_COST - 1])


def test_dd_order_is_value_then_deck_order():
    record = _with_dd("kb_canonical.klab", -3)
    values = next(values for values in record.deals[0].dd_values() if values is not None)
    assert values == dd_order(values) and values[-1][1] == -3


RULES = {"klaberjass": ["", "equal-score=next-deal-winner schmeiss-round-2=on",
                        "schmeiss-redeal=same-dealer must-beat=any-lead"],
         "klaverjas": ["", "trick-rules=rotterdam", "trump-choice=turned"]}


@pytest.mark.parametrize("game", ["klaberjass", "klaverjas"])
def test_a_word_ruled_out_during_play_is_never_a_word_of_the_deal(game):
    ruled = dict.fromkeys(TAG_WORDS, 0)
    for rules in RULES[game]:
        for number in range(60):
            record = Record.new(game, rules)
            seed = f"ruled {rules} {number}"
            rng = seeded_rng(seed)
            seats = record.game.seat_list
            seen: set[str] = set()

            def stop(deal, seen=seen):
                seen.update(word for word in TAG_WORDS if ruled_out(word, game, deal.events))
                return False

            record_deal(record, seed, 1, seats[number % len(seats)], 0, bots_for(record.game, ["random"] * len(seats)),
                        rng, stop)
            words = set(deal_tags(replay(record).deals[0], game))
            assert not seen & words, (seed, seen & words)
            for word in seen:
                ruled[word] += 1
    expected = {"klaberjass": ["thrown-in", "schmeiss", "dix", "sequence-duel", "capot"],
                "klaverjas": ["thrown-in", "pit", "roem-100", "roem-200", "bella"]}[game]
    assert all(ruled[word] for word in expected), ruled  # the test can fail: each rule fires


@pytest.mark.parametrize(("name", "index", "words"), CASES, ids=[f"{n}:{i}" for n, i, _ in CASES])
def test_no_word_of_a_hand_made_deal_is_ever_ruled_out_on_the_way(name, index, words):
    record, replayed = _replayed(name)
    done = replayed.deals[index]
    events = list(done.opening)
    for _, new in done.applied:
        events.extend(new)
        assert not [word for word in words if ruled_out(word, record.game.name, events)]


def test_words_are_ruled_out_once_they_cannot_come_true():
    _, replayed = _replayed("kv_nat_opponents_take_all.klab")  # the playing side takes no trick
    events = [event for _, new in replayed.deals[0].applied for event in new]
    assert ruled_out("pit", "klaverjas", events) and not ruled_out("nat", "klaverjas", events)
    assert not ruled_out("roem-200", "klaverjas", events)  # it has four jacks in a trick
    _, replayed = _replayed("tags_kv_roem_100.klab")
    events = [event for _, new in replayed.deals[0].applied for event in new]
    assert ruled_out("roem-200", "klaverjas", events) and ruled_out("bella", "klaverjas", events)
    assert not ruled_out("roem-100", "klaverjas", events)
    _, replayed = _replayed("kb_dix_keep.klab")
    events = [event for _, new in replayed.deals[0].applied for event in new]
    assert ruled_out("dix", "klaberjass", events) and ruled_out("thrown-in", "klaberjass", events)
    assert not ruled_out("capot", "klaberjass", events)


def test_ruled_out_knows_nothing_before_the_deal_starts():
    record = Record.new("klaverjas")
    record_deal(record, "start", 1, Seat.N, 0, bots_for(record.game, ["random"] * 4), seeded_rng("start"),
                lambda deal: True)  # stop after the first action
    assert len(record.deals[0].actions) == 1
    assert not any(ruled_out(word, game, ()) for word in TAG_WORDS for game in ("klaberjass", "klaverjas"))
