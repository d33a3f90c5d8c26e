"""Annotations (docs/record-format.md, "Annotations"): kept, written back canonically, never in an
id; the ``dd`` annotation read and checked, a wrong one reported as FILE:LINE naming what was
expected."""

from __future__ import annotations

import re

import pytest

from klabsite.engine.cards import Card
from klabsite.records.annotations import Annotation, AnnotationError, split_annotations
from klabsite.records.klab import MAX_LINE, RecordError, parse_record, read_record
from klabsite.records.replay import replay
from tests.helpers import AUDIT, run_check

CANONICAL = (AUDIT / "kb_canonical.klab").read_text(encoding="utf-8")
# kb_canonical's first card play: N leads JH, any of his nine cards legal (in deck order here).
N_CARDS = ["8C", "QC", "AC", "7D", "TD", "9H", "TH", "JH", "7S"]


def _replace(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


def _line_of(text: str, line: str) -> int:
    return text.split("\n").index(line) + 1


def _dd(values: dict[str, int]) -> str:
    """A dd annotation in the required order (value, then deck order) from ``{card: value}``."""
    ordered = sorted(values.items(), key=lambda item: (-item[1], Card.parse(item[0]).index))
    return "{dd " + " ".join(f"{card}:{value}" for card, value in ordered) + "}"


def _n_jh(first_value: int = 0) -> str:
    """A well-formed dd of N's first card, JH, worth 0; 8C worth ``first_value``, the rest -10."""
    return _dd({card: first_value if card == "8C" else 0 if card == "JH" else -10 for card in N_CARDS})


# --------------------------------------------------------------------------- reading and writing


def test_annotations_are_kept_in_order_and_written_back_canonically():
    messy = _replace(CANONICAL, "N JH\n", "n jh   {seen  by-W}{dd " + _n_jh()[4:-1].lower() + "}  ; a comment\n")
    messy = _replace(messy, "N take\n", "N take {x-1}\n")
    record = read_record(messy)
    text = record.to_text()
    assert f"N JH {{seen by-W}} {_n_jh()}\n" in text and "N take {x-1}\n" in text
    assert ";" not in text.split("[Deal")[1].split("\n", 1)[1]  # the comment is gone
    assert read_record(text).to_text() == text  # writing is idempotent
    deal = record.deals[0]
    assert deal.annotations_of(0) == (Annotation("x-1"),)
    assert [a.name for a in deal.annotations_of(2)] == ["seen", "dd"]


def test_a_record_without_annotations_reads_back_unchanged():
    assert read_record(CANONICAL).to_text() == CANONICAL


def test_annotating_changes_no_id():
    plain = read_record(CANONICAL)
    annotated = read_record(_replace(_replace(CANONICAL, "N JH\n", f"N JH {_n_jh()} {{mine 1 2}}\n"),
                                     "N take\n", "N take {why}\n"))
    assert annotated.to_text() != plain.to_text()
    assert annotated.deal_id(0) == plain.deal_id(0) and annotated.match_id() == plain.match_id()


def test_dd_values_give_each_card_play_its_values_or_none():
    record = read_record(_replace(CANONICAL, "N JH\n", f"N JH {_n_jh(5)}\n"))
    values = record.deals[0].dd_values()
    plays = sum(1 for line in CANONICAL.split('[Deal "1"]')[1].splitlines() if re.fullmatch(r"[NS] \w\w", line))
    assert len(values) == plays == 18
    first = values[0]
    assert first is not None and first[0] == (Card.parse("8C"), 5) and dict(first)[Card.parse("JH")] == 0
    assert values[1:] == [None] * 17


def test_set_dd_replaces_in_place_and_removes():
    record = read_record(_replace(CANONICAL, "N JH\n", f"N JH {{a}} {_n_jh()} {{b}}\n"))
    deal = record.deals[0]
    deal.set_dd(2, {Card.parse("JH"): 3, Card.parse("8C"): 3})
    assert [str(a) for a in deal.annotations_of(2)] == ["{a}", "{dd 8C:3 JH:3}", "{b}"]
    deal.set_dd(2, None)
    assert [str(a) for a in deal.annotations_of(2)] == ["{a}", "{b}"]
    deal.set_dd(1, {Card.parse("JH"): 0})
    assert [str(a) for a in deal.annotations_of(1)] == ["{dd JH:0}"]


@pytest.mark.parametrize(("text", "message"), [
    ("7S {dd 7S:0", "has no closing }"),
    ("7S dd 7S:0}", "a } without its {"),
    ("7S {}", "an empty annotation"),
    ("7S {Seen}", "annotation name 'Seen'"),
    ("7S {a {b}}", "do not nest"),
    ("7S {a} later", "annotations come last"),
])
def test_unreadable_annotations_are_refused(text, message):
    with pytest.raises(AnnotationError, match=re.escape(message)):
        split_annotations(text)


# --------------------------------------------------------------------------- check: FILE:LINE


def _check(capsys, tmp_path, text: str) -> tuple[int, str]:
    """``klabsite check --no-dd`` of ``text``: the form of its annotations, not the solver's values
    (which the tests of a wrong value check with plain ``check``)."""
    path = tmp_path / "game.klab"
    path.write_text(text, encoding="utf-8")
    status, out, err = run_check(capsys, "--no-dd", path)
    assert "Traceback" not in err
    return status, err.replace(f"{path}:", "FILE:")


@pytest.mark.parametrize(("annotation", "message"), [
    ("{dd JH:0}", "dd of N JH lacks the legal cards 8C, QC, AC, 7D, TD, 9H, TH, 7S: it lists every card "
                  "that could be played, here 8C, QC, AC, 7D, TD, 9H, TH, JH, 7S"),
    (_n_jh()[:-1] + " AS:-50}", "dd of N JH names AS, which could not be played here"),
    ("{dd " + " ".join(f"{card}:0" for card in reversed(N_CARDS)) + "}",
     "dd of N JH is out of order: highest value first, then deck order (C D H S, each 7 to A); expected "
     "{dd 8C:0 QC:0 AC:0 7D:0 TD:0 9H:0 TH:0 JH:0 7S:0}"),
    ("{dd " + " ".join(f"{card}:{i - 8}" for i, card in enumerate(N_CARDS)) + "}",
     "dd of N JH is out of order: highest value first, then deck order (C D H S, each 7 to A); expected "
     "{dd 7S:0 JH:-1 TH:-2 9H:-3 TD:-4 7D:-5 AC:-6 QC:-7 8C:-8}"),
    (_n_jh(5).replace("8C:5", "8C:five"), "N JH: dd takes CARD:VALUE pairs with whole-number values"),
    (_n_jh(5).replace("8C:5", "8C:5.5"), "dd takes CARD:VALUE pairs"),
    (_n_jh(5).replace("8C:5", "7X:5"), "N JH: dd: cannot read card '7X'"),
    (_n_jh(5).replace("8C:5", "JH:5"), "N JH: dd names JH twice"),
    ("{dd 8C:0}", "N JH: dd does not list the card played, JH"),
    ("{dd}", "N JH: an empty dd annotation"),
    (_n_jh() + " " + _n_jh(), "N JH: a card play carries one dd annotation, not several"),
    (_n_jh(5).replace("8C:5", "8C:9999999999"), "beyond any real score"),
    (_n_jh(333), "dd of N JH gives 8C the value 333, but no deal can end more than 332 points apart: run "
                 "klabsite analyse again"),
    (_n_jh(5).replace("7S:-10", "7S:-333"), "dd of N JH gives 7S the value -333"),
])
def test_a_wrong_dd_is_an_error_at_its_line(capsys, tmp_path, annotation, message):
    text = _replace(CANONICAL, "N JH\n", f"N JH {annotation}\n")
    status, err = _check(capsys, tmp_path, text)
    assert status == 1
    assert err.startswith(f"FILE:{_line_of(text, f'N JH {annotation}')}: "), err
    assert message in err, err


def test_dd_on_an_action_that_is_not_a_card_play_is_an_error(capsys, tmp_path):
    text = _replace(CANONICAL, "N take\n", "N take {dd JH:0}\n")
    status, err = _check(capsys, tmp_path, text)
    assert status == 1 and err == f"FILE:{_line_of(text, 'N take {dd JH:0}')}: N take: only a card play " \
                                  "carries a dd annotation\n"


def test_a_forced_card_may_carry_dd_naming_only_itself(capsys, tmp_path):
    # S must answer N's 9H of trumps with his last trump, KH
    assert _check(capsys, tmp_path, _replace(CANONICAL, "S KH\n", "S KH {dd KH:-4}\n"))[0] == 0
    status, err = _check(capsys, tmp_path, _replace(CANONICAL, "S KH\n", "S KH {dd KH:-4 8S:-9}\n"))
    assert status == 1 and "dd of S KH names 8S, which could not be played here: it lists the legal cards KH" in err


def test_a_forced_cards_dd_is_checked_against_the_solver_too(capsys, tmp_path):
    path = tmp_path / "game.klab"
    text = _replace(CANONICAL, "S KH\n", "S KH {dd KH:99}\n")
    path.write_text(text, encoding="utf-8")
    assert run_check(capsys, "--no-dd", path)[0] == 0  # well formed: it names the one legal card
    status, _, err = run_check(capsys, path)
    assert status == 1
    assert err == f"{path}:{_line_of(text, 'S KH {dd KH:99}')}: dd of S KH disagrees with the solver: " \
                  "expected {dd KH:-18}\n"


def test_an_illegal_card_is_reported_as_illegal_whatever_its_dd_says(capsys, tmp_path):
    text = _replace(CANONICAL, "S KH\n", "S 8S {dd 8S:0}\n")
    status, err = _check(capsys, tmp_path, text)
    assert (status, err) == (1, f"FILE:{_line_of(text, 'S 8S {dd 8S:0}')}: S cannot play 8S: must follow suit "
                                "with KH\n")


def test_a_well_formed_dd_passes_check_no_dd_and_unknown_annotations_anywhere(capsys, tmp_path):
    text = _replace(_replace(CANONICAL, "N JH\n", f"N JH {_n_jh(7)} {{seen}}\n"), "N take\n", "N take {hm 1}\n")
    assert _check(capsys, tmp_path, text) == (0, "")


def test_an_annotation_without_an_action_is_an_error(capsys, tmp_path):
    text = _replace(CANONICAL, "N JH\n", "N JH\n{seen}\n")
    status, err = _check(capsys, tmp_path, text)
    assert status == 1 and err.startswith(f"FILE:{_line_of(text, '{seen}')}: an annotation without its action")


@pytest.mark.parametrize("size", [200, MAX_LINE - 100])
def test_a_long_wrong_annotation_quotes_at_most_60_characters(capsys, tmp_path, size):
    text = _replace(CANONICAL, "N JH\n", "N JH {dd " + "7" * size + "\n")
    status, err = _check(capsys, tmp_path, text)
    assert status == 1 and "has no closing }" in err
    quoted = re.search(r"'([^']*)'", err)
    assert quoted and len(quoted.group(1)) <= 61, err


def test_an_annotated_line_is_still_capped():
    text = _replace(CANONICAL, "N JH\n", "N JH {note " + "x" * MAX_LINE + "}\n")
    with pytest.raises(RecordError, match="longer than 64 KiB"):
        parse_record(text.encode("utf-8"))


def test_replay_checks_dd_before_the_card_is_played():
    record = read_record(_replace(CANONICAL, "S 8H\n", "S 8H {dd 8H:0 KH:0 9H:0}\n"))
    error = replay(record).errors[0]
    assert error.line == _line_of(CANONICAL, "S 8H") and "names 9H" in error.message


def test_score_keeps_the_annotations_of_played_deals_in_a_sheet(capsys, tmp_path):
    from klabsite.cli import main
    from klabsite.commands.simulation import simulate
    from klabsite.solver.annotate import analyse_record

    record = simulate("klaverjas", "sheet", deals=1)
    analyse_record(record)
    record.deals[0].set_annotations(0, [Annotation("said", ("hearts!",))])
    path = tmp_path / "night.klab"
    path.write_text(record.to_text(), encoding="utf-8")
    before = [line for line in record.to_text().split("\n") if "{" in line]
    assert len(before) > 10
    assert main(["score", str(path), "add", "--playing", "NS", "--points", "92"]) == 0
    after = path.read_text(encoding="utf-8")
    assert [line for line in after.split("\n") if "{" in line] == before
    assert '[Deal "2"]' in after and run_check(capsys, path)[0] == 0
