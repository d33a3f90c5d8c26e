"""``klabsite simulate`` and the random player: seeded, canonical, valid records."""

from __future__ import annotations

import json
import random

import pytest

from klabsite.bots.random import RandomBot
from klabsite.cli import main
from klabsite.commands import simulate as simulate_command
from klabsite.commands.find import MAX_COUNT
from klabsite.commands.simulate import simulate
from klabsite.commands.simulation import MAX_SEED
from klabsite.engine.actions import Action
from klabsite.engine.seats import Seat
from klabsite.records.klab import MAX_LINE, read_record
from klabsite.records.replay import replay
from klabsite.records.tags import TAG_WORDS


def run(capsys, *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize(
    ("game", "rules", "target", "keys"),
    [("klaberjass", "", 500, {"N", "S"}), ("klaverjas", "trick-rules=rotterdam", 1500, {"NS", "EW"})],
)
def test_simulated_match_is_played_to_its_target_and_checks(capsys, tmp_path, game, rules, target, keys):
    path = tmp_path / "m.klab"
    args = ["simulate", "--game", game, "--seed", "demo", "--match", "--out", str(path)]
    status, wrote, _ = run(capsys, *args, *(["--rules", rules] if rules else []))
    assert status == 0
    status, out, err = run(capsys, "check", "--json", str(path))
    assert status == 0 and err == ""
    data = json.loads(out)
    assert data["game"] == game and set(data["final"]) == keys
    loser = next(key for key in keys if key != data["winner"])
    assert wrote == (f"wrote {len(data['deals'])} deals to {path}: {data['winner']} wins "
                     f"{data['final'][data['winner']]}–{data['final'][loser]}\n")
    assert data["winner"] in keys and max(data["final"].values()) >= target
    assert data["final"][data["winner"]] == max(data["final"].values())
    before_last = [deal["match"] for deal in data["deals"][:-1] if "match" in deal]
    assert all(max(totals.values()) < target or len(set(totals.values())) == 1 for totals in before_last)


def test_same_seed_gives_byte_identical_output(capsys):
    args = ["simulate", "--game", "klaverjas", "--seed", "same", "--deals", "3", "--rules", "trump-choice=turned"]
    first = run(capsys, *args)[1]
    assert first == run(capsys, *args)[1]
    assert first != run(capsys, *args[:4], "other", *args[5:])[1]


def test_simulated_record_is_canonical_with_source_result_and_tags():
    record = simulate("klaberjass", "tags", deals=20, rules="target=10000", players="N:Anna S:Ben")
    text = record.to_text()
    assert read_record(text).to_text() == text
    assert record.tags["Source"] == "simulated seed=tags bots=random,random"
    assert record.tags["Players"] == "N:Anna S:Ben"
    assert len(record.deals) == 20 and all("Result" in deal.tags for deal in record.deals)
    assert any("Tags" in deal.tags for deal in record.deals)
    assert replay(read_record(text)).valid


def test_klaverjas_turned_records_the_proposed_suit_of_every_deal():
    record = simulate("klaverjas", "turned", deals=6, rules="trump-choice=turned")
    assert all(deal.tags.get("Proposed") in ("C", "D", "H", "S") for deal in record.deals)
    assert len({deal.tags["Proposed"] for deal in record.deals}) > 1
    assert replay(record).valid


def test_first_dealer_comes_from_the_seed():
    dealers = {simulate("klaverjas", f"dealer-{i}", deals=1).deals[0].tags["Dealer"] for i in range(12)}
    assert len(dealers) > 1


def test_deals_stops_at_the_end_of_the_match_with_a_note(capsys):
    status, out, err = run(capsys, "simulate", "--game", "klaberjass", "--seed", "demo", "--deals", "100")
    assert status == 0 and "note: the match ended after deal" in err
    assert read_record(out).deals and len(read_record(out).deals) < 100


def test_usage_errors_exit_2(capsys):
    assert run(capsys, "simulate", "--game", "klaverjas", "--seed", "x", "--deals", "1",
               "--rules", "trick-rules=utrecht")[0] == 2
    with pytest.raises(SystemExit) as exit_info:
        main(["simulate", "--game", "klaverjas", "--seed", "x", "--deals", "1", "--match"])
    assert exit_info.value.code == 2


def test_random_bot_uses_only_the_generator_it_is_given():
    legal = [Action.parse(Seat.N, word) for word in ("take", "pass", "schmeiss")]
    state = random.getstate()
    choices = [RandomBot().choose(None, legal, random.Random(7)) for _ in range(5)]
    assert random.getstate() == state
    assert len(set(choices)) == 1 and choices[0] in legal
    spread = {RandomBot().choose(None, legal, rng).words for rng in [random.Random(i) for i in range(30)]}
    assert spread == {"take", "pass", "schmeiss"}


def test_an_unwritable_output_file_is_one_line_and_exit_2(tmp_path, capsys):
    target = tmp_path / "no" / "such" / "folder" / "m.klab"
    code = main(["simulate", "--game", "klaberjass", "--seed", "x", "--deals", "1", "--out", str(target)])
    err = capsys.readouterr().err
    assert code == 2 and not target.exists()
    assert err.count("\n") == 1 and err.startswith(f"{target}: cannot write the record:")


@pytest.mark.parametrize("amount", [["--deals", "100", "--analyse"], ["--find", "roem-200", "--count", "50"]])
def test_an_unwritable_output_is_refused_before_any_deal_is_played(tmp_path, capsys, monkeypatch, amount):
    def no_play(*args, **kwargs):
        raise AssertionError("played before the output was checked")

    monkeypatch.setattr(simulate_command, "simulate", no_play)
    monkeypatch.setattr(simulate_command, "find", no_play)
    target = tmp_path / "no" / "x.klab"
    code = main(["simulate", "--game", "klaverjas", "--seed", "x", *amount, "--out", str(target)])
    assert (code, capsys.readouterr().err) == (2, f"{target}: cannot write the record: no such folder\n")


def test_out_dash_writes_the_record_to_standard_output(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    options = ["simulate", "--game", "klaberjass", "--seed", "x", "--deals", "1"]
    assert main(options) == 0
    plain = capsys.readouterr()
    assert main([*options, "--out", "-"]) == 0
    assert capsys.readouterr() == plain and plain.out.startswith("%klab 1")
    assert list(tmp_path.iterdir()) == []


def test_a_dangling_link_as_output_is_a_missing_folder(tmp_path, capsys):
    (tmp_path / "dangling").symlink_to(tmp_path / "missing" / "x.klab")
    code = main(["simulate", "--game", "klaberjass", "--seed", "x", "--deals", "1", "--out", str(tmp_path / "dangling")])
    assert (code, capsys.readouterr().err) == (2, f"{tmp_path / 'dangling'}: cannot write the record: no such folder\n")


def test_a_find_whose_seeds_would_not_fit_in_the_source_line_is_refused_before_playing(capsys):
    status = main(["simulate", "--game", "klaberjass", "--seed", "\U0001f600" * 40, "--find", "bella", "--count", "450"])
    out, err = capsys.readouterr()
    assert (status, out) == (2, "") and "would make the record's Source line" in err and err.count("\n") == 1


def test_a_text_too_long_for_a_record_line_is_refused_before_playing(capsys):
    status = main(["simulate", "--game", "klaberjass", "--seed", "1", "--deals", "1", "--players", "N:" + "x" * 70000])
    assert (status, *capsys.readouterr()) == (2, "", "klabsite simulate: error: --players is 70,002 characters long: "
                                                    "write at most 4,000\n")


@pytest.mark.parametrize("seed", ["", "club night", "x,y", "a\nb", "a\x1bb", "s" * 41])
@pytest.mark.parametrize("amount", [["--deals", "1"], ["--find", "dix", "--count", "2"]])
def test_a_seed_that_source_cannot_hold_is_refused_before_playing(capsys, seed, amount):
    status = main(["simulate", "--game", "klaberjass", "--seed", seed, *amount])
    out, err = capsys.readouterr()
    assert (status, out) == (2, "")
    assert err == ("klabsite simulate: --seed: a seed is 1 to 40 characters without blanks, commas or control "
                   "characters, e.g. club-night\n")


def test_a_seed_of_40_characters_and_any_letters_is_kept_in_source():
    seed = "café-" + "7" * 35
    assert simulate("klaberjass", seed, deals=1).tags["Source"] == f"simulated seed={seed} bots=random,random"


def test_the_longest_find_source_fits_a_record_line():
    # 1,000 deals, each from the longest seed with a ten-digit try number, and the longest words
    seeds = ",".join(f"{'s' * MAX_SEED}-{9_999_999_999 - n}" for n in range(MAX_COUNT))
    words = ",".join(TAG_WORDS)
    line = f'[Source "simulated seeds={seeds} find={words} bots={",".join(["heuristic"] * 4)}"]'
    assert len(line.encode("utf-8")) <= MAX_LINE


class _FullDisk:
    """Standard output redirected to a full disk (``> /dev/full``)."""

    def write(self, text):
        return len(text)

    def flush(self):
        raise OSError(28, "No space left on device")


@pytest.mark.parametrize(("stdout", "why"), [(_FullDisk(), "No space left on device"), (None, "it is closed")])
def test_standard_output_that_cannot_be_written_is_one_line_and_exit_2(capsys, monkeypatch, stdout, why):
    monkeypatch.setattr("sys.stdout", stdout)
    code = main(["simulate", "--game", "klaberjass", "--seed", "x", "--deals", "1", "--out", "-"])
    monkeypatch.undo()
    assert (code, capsys.readouterr().err) == (
        2, f"klabsite simulate: cannot write the record to standard output: {why}\n")
