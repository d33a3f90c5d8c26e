"""``klabsite simulate`` tags and analysis, and ``--find``: the seeds S-1, S-2 …, one valid match of
the deals found (analysed, tagged), ``--jobs`` giving the same record, usage errors."""

from __future__ import annotations

import io
import re

import pytest

from klabsite.cli import main
from klabsite.commands.find import Progress, find
from klabsite.commands.simulation import seeded_rng, simulate
from klabsite.engine.games import get_game
from klabsite.records.decks import deck_from_seed
from klabsite.records.klab import read_record
from klabsite.records.replay import replay
from klabsite.records.tags import TAG_WORDS, deal_tags
from tests.helpers import run_check


def run(capsys, *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


# --------------------------------------------------------------------------- plain simulate


@pytest.mark.parametrize(("game", "rules"), [("klaberjass", "equal-score=next-deal-winner target=3000"),
                                             ("klaverjas", "target=3000")])
def test_simulated_tags_are_the_words_of_records_tags(game, rules):
    record = simulate(game, "words", deals=25, rules=rules)
    replayed = replay(read_record(record.to_text()))
    assert replayed.valid
    written = [deal.tags.get("Tags", "") for deal in record.deals]
    assert written == [" ".join(deal_tags(done, game)) for done in replayed.deals]
    assert any(written) and all(word in TAG_WORDS for text in written for word in text.split())
    assert not any("blunder" in text for text in written)  # not analysed


def test_simulate_analyse_writes_dd_and_finds_blunders(capsys, tmp_path):
    path = tmp_path / "m.klab"
    status, _, _ = run(capsys, "simulate", "--game", "klaberjass", "--seed", "an", "--deals", "4", "--analyse",
                       "--out", str(path))
    assert status == 0
    text = path.read_text(encoding="utf-8")
    assert "{dd " in text and "blunder" in text  # random players blunder
    assert run_check(capsys, "--dd", path)[0] == 0
    plain = read_record(simulate("klaberjass", "an", deals=4).to_text())
    assert read_record(text).match_id() == plain.match_id()


# --------------------------------------------------------------------------- --find


def test_find_writes_one_valid_match_of_analysed_tagged_deals(capsys, tmp_path):
    path = tmp_path / "x.klab"
    status, out, err = run(capsys, "simulate", "--game", "klaverjas", "--seed", "pits", "--find", "pit", "--count",
                           "2", "--bots", "heuristic,heuristic,heuristic,heuristic", "--out", str(path))
    assert status == 0 and err == ""  # not a terminal: no progress line
    tried = int(re.fullmatch(rf"wrote 2 deals to {re.escape(str(path))}: found in ([\d,]+) seeds\n", out)
                .group(1).replace(",", ""))
    assert run_check(capsys, "--dd", path)[0] == 0
    record = read_record(path.read_text(encoding="utf-8"))
    assert record.tags["Rules"] == "deals=2"
    source = re.fullmatch(r"simulated seeds=(pits-\d+),(pits-\d+) find=pit bots=heuristic,heuristic,heuristic,"
                          r"heuristic", record.tags["Source"])
    assert source and int(source.group(2).split("-")[1]) == tried
    for deal, seed in zip(record.deals, source.groups(), strict=True):
        assert "pit" in deal.tags["Tags"].split()
        assert deal.deck == deck_from_seed(seed, 1)
        assert any(values is not None for values in deal.dd_values())
    replayed = replay(record)
    assert replayed.score.over and replayed.valid


def test_a_found_deal_is_deal_1_of_its_seed_when_it_has_that_seeds_dealer():
    record, _ = find("klaberjass", "own", "dix", count=6)
    seeds = record.tags["Source"].split()[1].removeprefix("seeds=").split(",")
    game = get_game("klaberjass")
    same = 0
    for deal, seed in zip(record.deals, seeds, strict=True):
        alone = simulate("klaberjass", seed, deals=1).deals[0]
        own_dealer = game.seat_list[seeded_rng(seed).randrange(2)].value
        if deal.tags["Dealer"] == own_dealer:
            same += 1
            assert alone.actions == deal.actions and alone.tags["Deck"] == deal.tags["Deck"]
    assert same  # the test can fail: some deal has its own seed's dealer


def test_found_deals_follow_the_dealer_rotation_and_carry_hanging_points():
    record, _ = find("klaberjass", "hang", "tie", count=2, rules="equal-score=next-deal-winner")
    replayed = replay(record)
    assert replayed.valid
    first, second = replayed.deals
    assert first.dealer is not second.dealer
    assert first.result.hanging > 0 and second.deal.hanging == first.result.hanging
    assert all("hanging-points" in deal.tags["Tags"] for deal in record.deals)



@pytest.mark.parametrize(("seed", "outcomes", "rules"), [
    ("r-a", ["played", "played"], "deals=2"),
    ("r-c", ["redeal", "played"], "deals=1"),  # a deal thrown in does not count toward deals=N
    ("r-e", ["played", "redeal"], ""),  # no match of N deals ends on a deal thrown in
])
def test_found_deals_make_a_match_of_the_deals_that_count(seed, outcomes, rules):
    record, _ = find("klaberjass", seed, "schmeiss", count=2, bot_names=["random"])
    replayed = replay(record)
    assert replayed.valid
    assert [done.result.outcome for done in replayed.deals] == outcomes
    assert record.tags.get("Rules", "") == rules
    assert replayed.score.over == (outcomes[-1] == "played")

@pytest.mark.parametrize(("game", "words", "bots"), [
    ("klaberjass", "dix,sequence-duel", "random,random"),
    ("klaverjas", "bella,last-trick-decides", "random,random,random,random"),
])
def test_jobs_give_the_same_record_as_one_job(capsys, tmp_path, game, words, bots):
    outputs = []
    for jobs in ("1", "2"):
        path = tmp_path / f"{jobs}.klab"
        status, out, _ = run(capsys, "simulate", "--game", game, "--seed", "jobs", "--find", words, "--count", "3",
                             "--bots", bots, "--jobs", jobs, "--out", str(path))
        assert status == 0
        outputs.append((path.read_bytes(), out.split(": ", 1)[1]))
    assert outputs[0] == outputs[1]


def test_find_blunder_analyses_the_candidates():
    record, tried = find("klaberjass", "oops", "blunder,maker-failed", count=1)
    assert {"blunder", "maker-failed"} <= set(record.deals[0].tags["Tags"].split())
    assert tried >= 1 and "{dd " in record.to_text()


@pytest.mark.parametrize(("args", "message"), [
    (["--game", "klaverjas", "--find", "hundred"], "--find: unknown tag word 'hundred'; klaverjas deals can have: "
                                                   "bella, nat, pit, roem-100, roem-200, last-trick-decides, "
                                                   "blunder, thrown-in"),
    (["--game", "klaverjas", "--find", "dix"], "--find: dix is a klaberjass word, no klaverjas deal has it"),
    (["--game", "klaverjas", "--find", "nat,pit"], "no deal is both nat and pit"),
    (["--game", "klaverjas", "--find", "pit,,pit"], "--find 'pit,,pit': a word is missing between two commas"),
    (["--game", "klaverjas", "--find", "pit,"], "a word is missing between two commas"),
    (["--game", "klaverjas", "--find", "pit,last-trick-decides"], "no deal is both pit and last-trick-decides"),
    (["--game", "klaberjass", "--find", "bella,bella-declined"], "no deal is both bella and bella-declined"),
    (["--game", "klaberjass", "--find", "tie,capot"], "no deal is both capot and tie"),
    (["--game", "klaberjass", "--find", "capot,hanging-points", "--rules", "equal-score=next-deal-winner"],
     "no deal is both capot and hanging-points"),
    (["--game", "klaverjas", "--find", "thrown-in"], "a Klaverjas deal is never thrown in"),
    (["--game", "klaberjass", "--find", "thrown-in,capot"], "a thrown-in deal is never capot"),
    (["--game", "klaberjass", "--find", "hanging-points"], "equal-score=next-deal-winner"),
    (["--game", "klaberjass", "--find", "schmeiss", "--rules", "schmeiss=off"], "no deal has a schmeiss"),
    (["--game", "klaberjass", "--find", "dix", "--rules", "target=1000"], "leave target out of --rules"),
    (["--game", "klaberjass", "--find", "dix", "--count", "0"], "--count takes a number from 1 to 1000"),
    (["--game", "klaberjass", "--find", "dix", "--jobs", "0"], "--jobs takes a number of processes"),
    (["--game", "klaberjass", "--deals", "2", "--count", "3"], "--count goes with --find"),
    (["--game", "klaberjass", "--deals", "2", "--jobs", "3"], "--jobs goes with --find"),
])
def test_find_usage_errors_exit_2_with_one_line(capsys, args, message):
    status, out, err = run(capsys, "simulate", "--seed", "u", *args)
    assert status == 2 and out == "" and err.count("\n") == 1
    assert message in err, err


def test_find_without_a_seed_searches_from_seed_1(capsys, tmp_path):
    records = []
    for seed in ([], ["--seed", "1"]):
        path = tmp_path / f"found{len(seed)}.klab"
        status, out, err = run(capsys, "simulate", "--game", "klaberjass", *seed, "--find", "dix", "--bots",
                               "heuristic", "--out", str(path))
        assert status == 0 and err == "", err
        records.append(path.read_bytes())
    assert records[0] == records[1]
    assert b'[Source "simulated seeds=1-' in records[0]


@pytest.mark.parametrize("amount", [["--deals", "2"], ["--match"]])
def test_deals_and_match_need_a_seed(capsys, amount):
    status, out, err = run(capsys, "simulate", "--game", "klaverjas", *amount)
    assert status == 2 and out == "" and err == "klabsite simulate: --seed is needed with --deals and --match, e.g. --seed 1\n"


def test_find_and_deals_are_exclusive(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["simulate", "--game", "klaberjass", "--seed", "x", "--deals", "1", "--find", "dix"])
    assert exit_info.value.code == 2


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_progress_line_shows_tried_found_rate_and_time_on_a_terminal():
    ticks = iter([0.0, 0.05, 0.1, 0.31, 65.0])
    stream = _Terminal()
    progress = Progress(2, stream, clock=lambda: next(ticks))
    progress.update(10)
    progress.update(5)  # too soon after the last: not drawn
    progress.update(300, 1)
    progress.close()
    lines = stream.getvalue().split("\r")
    assert lines[1] == "tried 10 seeds, found 0 of 2, 200.0 deals/s, 0:00\x1b[K"
    assert lines[2] == "tried 315 seeds, found 1 of 2, 1,016.1 deals/s, 0:00\x1b[K"
    assert lines[3] == "tried 315 seeds, found 1 of 2, 4.8 deals/s, 1:05\x1b[K\n"
    quiet = io.StringIO()
    silent = Progress(2, quiet)
    silent.update(5, 1)
    silent.close()
    assert quiet.getvalue() == ""


def test_a_match_of_more_deals_than_the_simulators_limit_is_played_to_its_end(monkeypatch):
    """deals=N plays N deals that count: the limit on a match's deals makes room for them."""
    from klabsite.commands import simulation

    monkeypatch.setattr(simulation, "MAX_DEALS", 2)
    record = simulate("klaverjas", "long", rules="deals=5")
    assert len(record.deals) == 5
