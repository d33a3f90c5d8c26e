"""Spec audit, the ``.klab`` format: lenient reading, canonical writing, ids, seeded decks, errors.

record-format.md "Lexical rules", "Canonical form and identity", "Decks from a seed" and
"Checking a record". ``kb_messy.klab`` is the spec's example deal (completed by hand to nine
tricks, ``kb_example.klab``) written untidily: CRLF line ends, lower-case cards, ``10`` for ``T``,
runs of blanks and a tab, comments, blank lines, match tags out of order, a default option, unknown
match and deal tags, an escaped tag value. ``kb_canonical.klab`` is its canonical form, written by
hand from the rules of the canonical form. Ids are recomputed here in a few independent lines.
"""

from __future__ import annotations

import base64
import hashlib
import json

import pytest

from klabsite.engine.cards import DECK
from klabsite.records.decks import deck_from_seed
from klabsite.records.klab import load_record, read_record
from tests.helpers import AUDIT, run_check

RANKS = ["7", "8", "9", "T", "J", "Q", "K", "A"]
SUITS = ["C", "D", "H", "S"]


def spec_id(text: str) -> str:
    """record-format.md: first 10 characters of the lower-case base32 SHA-256 (UTF-8)."""
    return base64.b32encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii").lower()[:10]


PLAY_TAGS = ("Deal", "Dealer", "Deck", "Proposed", "Playing", "Points", "Roem", "Pit", "Maker", "Totals",
             "Termination")


def play_lines(text: str) -> str:
    """record-format.md: the play lines of canonical deal blocks: the play tags and the action
    lines without annotations, each LF-terminated (Tags, Result, Note, unknown tags left out)."""
    kept = []
    for line in text.split("\n"):
        if line.startswith("["):
            if line[1:].split(" ", 1)[0] in PLAY_TAGS:
                kept.append(line)
        elif line and not line.startswith("%"):
            kept.append(line.split(" {", 1)[0])
    return "".join(line + "\n" for line in kept)


def spec_deck(seed: str, deal: int) -> list[str]:
    """record-format.md: the 32 canonical names sorted by SHA-256 of "<seed>:<deal>:<card>"."""
    names = [rank + suit for suit in SUITS for rank in RANKS]
    return sorted(names, key=lambda name: hashlib.sha256(f"{seed}:{deal}:{name}".encode()).digest())


def test_reading_then_writing_gives_the_canonical_form():
    canonical = (AUDIT / "kb_canonical.klab").read_text(encoding="utf-8")
    assert load_record(AUDIT / "kb_messy.klab").to_text() == canonical
    assert read_record(canonical).to_text() == canonical          # idempotent


def test_ids_are_those_of_the_spec_and_survive_reformatting(capsys):
    canonical = (AUDIT / "kb_canonical.klab").read_text(encoding="utf-8")
    head = '[Game "klaberjass"]\n[Rules "long-sequence=100 equal-meld=elder"]\n'
    block = canonical.split("\n\n", 1)[1]                           # the deal block, final LF included
    results = []
    for name in ("kb_messy.klab", "kb_canonical.klab"):
        status, out, err = run_check(capsys, "--json", str(AUDIT / name))
        assert (status, err) == (0, "")
        results.append(json.loads(out))
    messy, tidy = results
    assert messy == tidy
    assert '[Note "' in block and '[Table "3"]' in block        # said about the deal: not in its id
    assert tidy["id"] == spec_id(head + play_lines(block))
    assert tidy["deals"][0]["id"] == spec_id(head + play_lines(block))


def test_the_example_record_completed_by_hand(capsys):
    """The spec's example deal: N takes hearts; N's JH-TH-9H against S's KS-QS-JS, "not good" (top
    card); N takes tricks worth 20, 18, 10, 13, 10, 2 and 6 = 79 and the last; S takes KS+7S and
    AD+7D = 15 and scores the sequence (20). N 89 against 35: made."""
    status, out, err = run_check(capsys, "--json", str(AUDIT / "kb_example.klab"))
    assert (status, err) == (0, "")
    data = json.loads(out)
    assert list(data) == ["game", "id", "winner", "final", "deals"]
    assert (data["game"], data["winner"], data["final"]) == ("klaberjass", None, {"N": 89, "S": 35})
    (deal,) = data["deals"]
    assert deal == {
        "deal": 1, "id": deal["id"], "dealer": "S", "outcome": "played", "trump": "H", "maker": "N",
        "card_points": {"N": 79, "S": 15}, "last_trick": "N", "melds": {"N": 0, "S": 20},
        "bella": {"N": 0, "S": 0}, "totals": {"N": 89, "S": 35}, "result": "made",
        "score": {"N": 89, "S": 35}, "match": {"N": 89, "S": 35},
    }
    assert list(deal) == ["deal", "id", "dealer", "outcome", "trump", "maker", "card_points", "last_trick",
                          "melds", "bella", "totals", "result", "score", "match"]
    text = (AUDIT / "kb_example.klab").read_text(encoding="utf-8")
    canonical = load_record(AUDIT / "kb_example.klab").to_text()
    assert canonical != text
    head = '[Game "klaberjass"]\n[Rules "equal-meld=elder"]\n'
    assert deal["id"] == data["id"] == spec_id(head + play_lines(canonical.split("\n\n", 1)[1]))


@pytest.mark.parametrize(("seed", "deal"), [("demo", 1), ("demo", 2), ("20261130-7", 1), ("Zürich ♥", 3)])
def test_deck_from_seed_follows_the_spec_rule(seed, deal):
    assert [str(card) for card in deck_from_seed(seed, deal)] == spec_deck(seed, deal)


def test_the_seed_rule_uses_canonical_names():
    assert sorted(str(card) for card in DECK) == sorted(spec_deck("x", 1))


def test_dealing_klaberjass_from_the_deck():
    """Cards 1-3 and 7-9 to the non-dealer, 4-6 and 10-12 to the dealer, 13 the upcard; after the
    bidding 14-16 to the non-dealer, 17-19 to the dealer; card 32 turned face up."""
    from klabsite.engine.actions import Action, ActionKind
    from klabsite.engine.cards import parse_cards
    from klabsite.engine.klaberjass import KlaberjassDeal, KlaberjassRules, Seat

    names = "JH TH 9H KS QS JS 7D AC 8C KH 9D 8S AH QC 7S TD AD JC 8H 7C 9C TC KC 8D JD QD KD 7H QH 9S TS AS"
    deck = parse_cards(names)
    for dealer, elder in ((Seat.S, Seat.N), (Seat.N, Seat.S)):
        game = KlaberjassDeal(KlaberjassRules(), dealer, deck)
        assert set(game.hands[elder]) == set(parse_cards("JH TH 9H 7D AC 8C"))
        assert set(game.hands[dealer]) == set(parse_cards("KS QS JS KH 9D 8S"))
        assert str(game.upcard) == "AH"
        game.apply(Action(elder, ActionKind.TAKE))
        assert set(game.hands[elder]) == set(parse_cards("JH TH 9H 7D AC 8C QC 7S TD"))
        assert set(game.hands[dealer]) == set(parse_cards("KS QS JS KH 9D 8S AD JC 8H"))
        assert str(game.bottom) == "AS"


def test_every_invalid_deal_reports_its_first_error_and_exits_1(capsys, tmp_path):
    path = tmp_path / "two.klab"
    path.write_text(
        '%klab 1\n[Game "klaberjass"]\n\n'
        '[Deal "1"]\n[Dealer "S"]\n'
        '[Deck "JH TH 9H KS QS JS 7D AC 8C KH 9D 8S AH QC 7S TD AD JC 8H 7C 9C TC KC 8D JD QD KD 7H QH '
        '9S TS AS"]\n'
        'N take\nN nomeld\n'                                   # line 8: N holds JH-TH-9H, nomeld is fine
        'N 7D\nS nomeld\nS 8H\n'                          # line 11: S must follow diamonds (AD, 9D)
        '\n[Deal "2"]\n[Dealer "N"]\n[Maker "N"]\n[Totals "N 84 S 60"]\n[Result "N 84 S 0"]\n',
        encoding="utf-8")
    status, out, err = run_check(capsys, str(path))
    assert status == 1 and out == ""
    lines = err.splitlines()
    assert len(lines) == 2
    assert lines[0] == f"{path}:11: S cannot play 8H: must follow suit with AD, 9D"
    assert lines[1].startswith(f"{path}:17: [Result")


def test_a_higher_major_version_is_rejected_clearly(capsys, tmp_path):
    path = tmp_path / "v2.klab"
    path.write_text('%klab 2\n[Game "klaberjass"]\n', encoding="utf-8")
    status, out, err = run_check(capsys, str(path))
    assert status == 1 and out == ""
    assert err.startswith(f"{path}:1: ") and "version 2" in err


def test_valid_and_invalid_files_together_exit_1(capsys, tmp_path):
    bad = tmp_path / "bad.klab"
    bad.write_text('%klab 1\n[Game "klaberjass"]\n\n[Deal "1"]\n[Dealer "S"]\n'
                   '[Deck "JH TH 9H KS QS JS 7D AC 8C KH 9D 8S AH QC 7S TD AD JC 8H 7C 9C TC KC 8D JD QD KD '
                   '7H QH 9S TS AS"]\nN take\n', encoding="utf-8")     # stops early, not marked unfinished
    status, out, err = run_check(capsys, str(AUDIT / "kb_example.klab"), str(bad))
    assert status == 1
    assert err.startswith(f"{bad}:7: ") and "unfinished" in err
    assert "kb_example.klab" in out


def test_an_unfinished_deal_leaves_the_winner_null(capsys, tmp_path):
    path = tmp_path / "part.klab"
    path.write_text('%klab 1\n[Game "klaberjass"]\n\n[Deal "1"]\n[Dealer "S"]\n'
                    '[Deck "JH TH 9H KS QS JS 7D AC 8C KH 9D 8S AH QC 7S TD AD JC 8H 7C 9C TC KC 8D JD QD KD '
                    '7H QH 9S TS AS"]\n[Termination "unfinished"]\nN take\n', encoding="utf-8")
    status, out, err = run_check(capsys, "--json", str(path))
    assert (status, err) == (0, "")
    data = json.loads(out)
    assert data["winner"] is None and data["final"] == {"N": 0, "S": 0}


def test_a_score_sheet_deal_in_canonical_form():
    messy = ('%klab 1\n[Game "klaverjas"]\n[Rules "deals=4  trick-rules=rotterdam"]\n\n\n'
             '[Deal "1"]\n[Result "EW 70 NS 112"]\n[Roem "EW 0 NS 20"]   ; stuk\n[Points "NS 92"]\n'
             '[Playing "NS"]\n[Dealer "N"]\n')
    canonical = ('%klab 1\n[Game "klaverjas"]\n[Rules "trick-rules=rotterdam deals=4"]\n\n'
                 '[Deal "1"]\n[Dealer "N"]\n[Playing "NS"]\n[Points "NS 92"]\n[Roem "NS 20 EW 0"]\n'
                 '[Result "NS 112 EW 70"]\n')
    record = read_record(messy)
    assert record.to_text() == canonical
    head = '[Game "klaverjas"]\n[Rules "trick-rules=rotterdam deals=4"]\n'
    assert record.deal_id(0) == record.match_id() == spec_id(head + '[Deal "1"]\n[Dealer "N"]\n[Playing "NS"]\n'
                                                              '[Points "NS 92"]\n[Roem "NS 20 EW 0"]\n')
