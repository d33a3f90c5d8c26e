"""The .klab record format: lexical rules, canonical form, ids (docs/record-format.md)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from klabsite.engine.actions import Action
from klabsite.records.klab import (
    MAX_ACTIONS,
    MAX_DEALS,
    MAX_LINE,
    Record,
    RecordError,
    parse_record,
    read_record,
    text_id,
)
from klabsite.records.replay import replay

FIXTURES = Path(__file__).parent / "fixtures" / "records"
VALID = sorted((FIXTURES / "valid").glob("*.klab"))
DECK = "JH TH 9H KS QS JS 7D AC 8C KH 9D 8S AH QC 7S TD AD JC 8H 7C 9C TC KC 8D JD QD KD 7H QH 9S TS AS"


def minimal(*deal_lines: str, match_lines: tuple[str, ...] = ('[Game "klaberjass"]',)) -> str:
    return "\n".join(["%klab 1", *match_lines, '[Deal "1"]', '[Dealer "S"]', f'[Deck "{DECK}"]',
                      *deal_lines]) + "\n"


def messy(text: str) -> str:
    """The same record reformatted by hand: comments, blank lines, case, 10, blanks, CRLF."""
    def card_words(words: str) -> str:
        return " ".join(re.sub(r"^t(?=[cdhs]$)", "10", word) for word in words.lower().split())

    out = ["; a record someone typed", ""]
    for line in text.splitlines():
        if line.startswith("[Deck "):
            line = '[Deck   "' + card_words(line[7:-2]) + '" ]'
        elif line and not line.startswith(("[", "%")):
            seat, _, words = line.partition(" ")
            line = f"{seat.lower()}   {card_words(words)}  ; note"
        out.append(line + "   \r")
        if line.startswith("[Deal "):
            out.append("")
    return "\n".join(out) + "\n\n"


# --------------------------------------------------------------------------- header and version


def test_header_must_come_first():
    with pytest.raises(RecordError) as error:
        read_record('[Game "klaberjass"]\n')
    assert error.value.line == 1 and "%klab 1" in error.value.message


def test_higher_major_version_is_rejected_with_a_clear_message():
    with pytest.raises(RecordError) as error:
        read_record("%klab 2\n" + minimal().split("\n", 1)[1])
    assert error.value.line == 1 and "version 2" in error.value.message


def test_minor_version_of_version_1_is_read():
    assert read_record(minimal().replace("%klab 1", "%klab 1.3")).to_text().startswith("%klab 1\n")


def test_empty_file_is_an_error_on_line_1():
    with pytest.raises(RecordError) as error:
        read_record("")
    assert error.value.line == 1


def test_invalid_utf8_is_reported_with_its_line():
    with pytest.raises(RecordError) as error:
        read_record(minimal().encode() + b"N \xff\n")
    assert error.value.line == 6 and "UTF-8" in error.value.message


# --------------------------------------------------------------------------- lexical rules


def test_comments_blank_lines_case_and_10_are_accepted_and_canonicalised():
    record = read_record(minimal("n   10h ; a comment", "", "S  take"))
    assert [str(action) for action in record.deals[0].actions] == ["N TH", "S take"]
    assert record.deals[0].action_lines == [6, 8]


def test_tag_values_escape_quotes_and_backslashes():
    text = minimal('[Note "She said \\"Fifty.\\" \\\\ then C:\\x"]')
    deal = read_record(text).deals[0]
    assert deal.tags["Note"] == 'She said "Fifty." \\ then C:\\x'
    written = read_record(text).to_text()
    assert '[Note "She said \\"Fifty.\\" \\\\ then C:\\\\x"]' in written
    assert read_record(written).deals[0].tags["Note"] == deal.tags["Note"]


def test_semicolon_inside_a_tag_value_is_not_a_comment():
    record = read_record(minimal('[Note "good; very good"] ; a real comment'))
    assert record.deals[0].tags["Note"] == "good; very good"


def test_unknown_tags_are_kept_and_written_sorted_after_known_ones():
    text = minimal('[Zeta "z"]', '[Alpha "a b"]',
                   match_lines=('[Venue "Split"]', '[Game "klaberjass"]', '[Event "club night"]'))
    record = read_record(text)
    written = record.to_text()
    assert written.splitlines()[1:4] == ['[Game "klaberjass"]', '[Event "club night"]', '[Venue "Split"]']
    assert written.splitlines()[-2:] == ['[Alpha "a b"]', '[Zeta "z"]']
    assert read_record(written).deals[0].tags["Alpha"] == "a b"


def test_known_tag_names_are_read_in_any_case():
    record = read_record(minimal('[result "n 0 s 0"]').replace("[Game", "[game"))
    assert record.tags["Game"] == "klaberjass" and record.deals[0].tags["Result"] == "N 0 S 0"


def test_match_tags_and_deal_tags_are_written_in_the_tables_order():
    text = "\n".join([
        "%klab 1", '[Title "t"]', '[Source "s"]', '[Players "s:Ben n:Anna"]', '[Rules "equal-meld=elder"]',
        '[Game "KLABERJASS"]', '[Deal "1"]', '[Termination "unfinished"]', '[Note "n"]', '[Tags "x  y"]',
        f'[Deck "{DECK}"]', '[Dealer "s"]',
    ]) + "\n"
    assert read_record(text).to_text() == "\n".join([
        "%klab 1", '[Game "klaberjass"]', '[Rules "equal-meld=elder"]', '[Players "S:Ben N:Anna"]',
        '[Source "s"]', '[Title "t"]', "", '[Deal "1"]', '[Dealer "S"]', f'[Deck "{DECK}"]', '[Tags "x y"]',
        '[Note "n"]', '[Termination "unfinished"]',
    ]) + "\n"


def test_rules_tag_is_rewritten_through_the_options_keeping_only_non_defaults():
    record = read_record(minimal(match_lines=('[Game "klaberjass"]',
                                              '[Rules "target=500 equal-meld=elder long-sequence=100"]')))
    assert record.tags["Rules"] == "long-sequence=100 equal-meld=elder"
    defaults = read_record(minimal(match_lines=('[Game "klaberjass"]', '[Rules "target=500"]')))
    assert "[Rules" not in defaults.to_text()


# --------------------------------------------------------------------------- canonical form


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.stem)
def test_reading_then_writing_a_canonical_record_gives_it_back(path):
    text = path.read_text(encoding="utf-8")
    assert read_record(text).to_text() == text


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.stem)
def test_writing_is_idempotent_and_ids_survive_reformatting(path):
    text = path.read_text(encoding="utf-8")
    record = read_record(text)
    reformatted = read_record(messy(text))
    assert reformatted.to_text() == text
    assert read_record(reformatted.to_text()).to_text() == text
    assert reformatted.match_id() == record.match_id()
    assert [reformatted.deal_id(d) for d in reformatted.deals] == [record.deal_id(d) for d in record.deals]


def test_canonical_form_has_lf_a_final_lf_and_one_blank_line_before_each_deal():
    text = (FIXTURES / "valid" / "klaberjass_three_deals.klab").read_text(encoding="utf-8")
    written = read_record(messy(text)).to_text()
    assert "\r" not in written and written.endswith("\n") and not written.endswith("\n\n")
    blank = [i for i, line in enumerate(written.splitlines()) if not line]
    assert [written.splitlines()[i + 1] for i in blank] == ['[Deal "1"]', '[Deal "2"]', '[Deal "3"]']
    assert ";" not in written


# --------------------------------------------------------------------------- ids


def _play_lines(block: list[str]) -> list[str]:
    """A deal block's lines without those said about the deal (Tags, Result, Note)."""
    return [line for line in block if line and not line.startswith(("[Tags ", "[Result ", "[Note "))]


def test_deal_id_hashes_the_game_and_rules_lines_then_the_play_lines():
    text = (FIXTURES / "valid" / "klaverjas_rotterdam.klab").read_text(encoding="utf-8")
    record = read_record(text)
    lines = text.split("\n")
    start = lines.index('[Deal "2"]')
    head = '[Game "klaverjas"]\n[Rules "trick-rules=rotterdam"]\n'
    assert "[Tags " in "\n".join(lines[start:]) and "[Result " in "\n".join(lines[start:])
    expected = text_id(head + "".join(line + "\n" for line in _play_lines(lines[start:])))
    assert record.deal_id(1) == expected
    match = text_id(head + "".join(line + "\n" for line in _play_lines(lines[lines.index('[Deal "1"]'):])))
    assert record.match_id() == match


def test_ids_are_ten_lower_case_base32_characters():
    record = read_record((FIXTURES / "valid" / "klaberjass_three_deals.klab").read_text(encoding="utf-8"))
    for deal_id in [record.match_id(), *(record.deal_id(d) for d in record.deals)]:
        assert re.fullmatch(r"[a-z2-7]{10}", deal_id)


def test_ids_change_with_the_rules_but_not_with_other_match_tags():
    base = read_record(minimal("N take", match_lines=('[Game "klaberjass"]',)))
    titled = read_record(minimal("N take", match_lines=('[Game "klaberjass"]', '[Title "x"]',
                                                        '[Source "played"]', '[Players "N:A S:B"]')))
    ruled = read_record(minimal("N take", match_lines=('[Game "klaberjass"]', '[Rules "schmeiss=off"]')))
    assert base.deal_id(0) == titled.deal_id(0) != ruled.deal_id(0)
    assert base.match_id() == titled.match_id() != ruled.match_id()


def test_ids_change_with_what_was_played_but_not_with_what_is_said_about_it():
    base = read_record(minimal("N take"))
    said = read_record(minimal('[Tags "mine"]', '[Result "N 0 S 0"]', '[Note "hm"]', '[Seen "yes"]',
                               "N take {why not}").replace('[Result "N 0 S 0"]\n', ""))
    other = read_record(minimal("N pass"))
    unfinished = read_record(minimal('[Termination "unfinished"]', "N take"))
    assert base.deal_id(0) == said.deal_id(0) and base.match_id() == said.match_id()
    assert len({base.deal_id(0), other.deal_id(0), unfinished.deal_id(0)}) == 3
    assert len({base.match_id(), other.match_id(), unfinished.match_id()}) == 3


def test_the_order_sequences_are_declared_in_changes_neither_the_text_nor_the_id():
    written = [read_record(minimal("N take", f"S meld {melds}"))
               for melds in ("QD-JD-TD,9C-8C-7C", "9C-8C-7C,QD-JD-TD", "7c-8c-9c,td-jd-qd")]
    canonical = read_record(minimal("N take", "S meld QD-JD-TD,9C-8C-7C")).to_text()
    assert "S meld QD-JD-TD,9C-8C-7C\n" in canonical
    assert {record.to_text() for record in written} == {canonical}
    assert len({record.deal_id(0) for record in written}) == 1


def test_nobella_is_read_in_any_case():
    text = read_record(minimal("N take", "S QH NoBella")).to_text()
    assert text.endswith("\nS QH nobella\n")


# --------------------------------------------------------------------------- reading errors


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        (minimal('[Note "unterminated]'), 6, "cannot read tag line"),
        (minimal("N"), 6, "needs a seat and an action"),
        (minimal("E take"), 6, "klaberjass is played by N S only"),
        (minimal("N play XX"), 6, "cannot read action"),
        (minimal('[Game "klaverjas"]'), 6, "is a match tag"),
        (minimal('[Note "a"]', '[Note "b"]'), 7, "given twice"),
        (minimal('[Result "N 1 S"]'), 6, "cannot read Result"),
        (minimal('[Termination "abandoned"]'), 6, 'takes "unfinished"'),
        (minimal('[Playing "NS"]'), 6, "is a klaverjas tag"),
        (minimal().replace('[Dealer "S"]', '[Dealer "W"]'), 4, "klaberjass is played by N S only"),
        (minimal().replace(DECK, DECK.replace("AS", "")), 5, "lacks AS"),
        (minimal().replace('[Deal "1"]', '[Deal "one"]'), 3, "takes the deal's number"),
        # Only ASCII letters change case: the long s is not S, the Kelvin sign not k.
        (minimal().replace('[Dealer "S"]', '[Dealer "\u017f"]'), 4, "unknown seat"),
        (minimal("\u017f take"), 6, "unknown seat"),
        (minimal().replace(DECK, DECK.replace("AS", "A\u017f")), 5, "cannot read"),
        (minimal("N ta\u212ae"), 6, "cannot read action"),
        # record-format.md: meld R[,R…], each sequence's cards joined by -.
        (minimal("N take", "N meld KS-QS-JS,"), 7, "cannot read meld"),
        (minimal("N take", "N meld KS--QS-JS"), 7, "cannot read meld"),
        (minimal("N take", "N meld ,KS-QS-JS"), 7, "cannot read meld"),
    ],
)
def test_reading_errors_carry_their_line(text, line, words):
    record = parse_record(text)
    assert record.deals[0].error is not None
    assert record.deals[0].error.line == line
    assert words in record.deals[0].error.message


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ('%klab 1\n[Game "bridge"]\n', 2, "unknown game"),
        ('%klab 1\n[Game "klaberjass"]\nN take\n', 3, "before the first deal"),
        ('%klab 1\n[Game "klaberjass"]\n[Dealer "N"]\n', 3, "belongs to a deal"),
        ('%klab 1\n[Game "klaberjass"]\n[Game "klaberjass"]\n', 3, "given twice"),
        ('%klab 1\n[Game "klaberjass"]\n[Players "N Anna"]\n', 3, "SEAT:Name"),
        ('%klab 1\n%klab 1\n', 2, "second header"),
    ],
)
def test_whole_file_errors_raise_with_their_line(text, line, words):
    with pytest.raises(RecordError) as error:
        parse_record(text)
    assert error.value.line == line and words in error.value.message


def test_only_the_first_error_of_a_deal_is_kept():
    record = parse_record(minimal("N", "S"))
    assert record.deals[0].error.line == 6
    with pytest.raises(RecordError):
        read_record(minimal("N", "S"))


# --------------------------------------------------------------------------- building records in code


def test_records_built_in_code_are_written_canonically():
    record = Record.new("klaverjas", "target=1500 trick-rules=rotterdam", Players="n:Ana e:Ivo s:Maja w:Luka")
    record.new_deal("n", Playing="ns", Points="ns 92", Roem="ew 0 ns 20")
    record.new_deal("E", Playing="EW", Points="EW 70")
    text = record.to_text()
    assert text == "\n".join([
        "%klab 1", '[Game "klaverjas"]', '[Rules "trick-rules=rotterdam"]', '[Players "N:Ana E:Ivo S:Maja W:Luka"]',
        "", '[Deal "1"]', '[Dealer "N"]', '[Playing "NS"]', '[Points "NS 92"]', '[Roem "NS 20 EW 0"]',
        "", '[Deal "2"]', '[Dealer "E"]', '[Playing "EW"]', '[Points "EW 70"]',
    ]) + "\n"
    assert read_record(text).to_text() == text


def test_actions_added_in_code_are_written_one_per_line():
    record = Record.new("klaberjass")
    deal = record.new_deal("S", Deck=DECK)
    deal.add_action(Action.parse("N", "take"))
    deal.add_action(Action.parse("N", "meld jh-th-9h"))
    assert record.to_text().endswith("N take\nN meld JH-TH-9H\n")


def test_deleting_a_deal_and_renumbering_keeps_the_record_readable():
    record = read_record((FIXTURES / "valid" / "klaverjas_score_sheet.klab").read_text(encoding="utf-8"))
    del record.deals[1]
    record.renumber()
    again = read_record(record.to_text())
    assert [deal.number for deal in again.deals] == [1, 2] and not again.errors


# --------------------------------------------------------------------------- hostile input (reliability)


@pytest.mark.parametrize(("text", "line", "words"), [
    (minimal().replace('[Deal "1"]', '[Deal "²"]'), 3, "takes the deal's number 1, 2, 3 …, not '²'"),
    (minimal().replace('[Deal "1"]', '[Deal "٣"]'), 3, "takes the deal's number"),
    (minimal().replace('[Deal "1"]', f'[Deal "{"1" * 5000}"]'), 3, "takes the deal's number"),
    (minimal('[Result "N 0 S ²"]'), 6, "needs a whole number of points, not '²'"),
    (minimal(f'[Result "N 0 S {"9" * 5000}"]'), 6, "is beyond any real score"),
])
def test_unusual_digits_and_5000_digit_numbers_are_clean_errors(text, line, words):
    record = parse_record(text)
    error = record.deals[0].error
    assert error is not None and (error.line, words in error.message) == (line, True), error
    assert len(error.message) < 200


@pytest.mark.parametrize(("first", "says"), [
    ('[Title "My match"]', "not '[Title \"My match\"]'"), ("S 7H", "not 'S 7H'"), ("%klub 1", "not '%klub 1'"),
])
def test_a_record_without_its_header_line_quotes_the_line_it_starts_with(first, says):
    with pytest.raises(RecordError) as error:
        parse_record(first + "\n")
    assert error.value.line == 1 and error.value.message == f"a .klab file starts with the line %klab 1, {says}"


@pytest.mark.parametrize(("header", "words"), [
    ("%klab " + "1" * 5000, "this record is .klab version 111"),
    ("%klab 1." + "1" * 5000, None),
    ("%klab ²", "starts with the line %klab 1"),
])
def test_a_5000_digit_header_version_is_a_clean_error(header, words):
    text = minimal().replace("%klab 1", header)
    if words is None:  # a minor version of version 1 is read, however long
        assert read_record(text).to_text().startswith("%klab 1\n")
        return
    with pytest.raises(RecordError) as error:
        parse_record(text)
    assert error.value.line == 1 and words in error.value.message and len(error.value.message) < 200


@pytest.mark.parametrize("rules", ["target=²", f"target={'9' * 5000}", "deals=٣", "long-sequence=" + "5" * 5000])
def test_unusual_digits_in_rules_are_clean_errors(rules):
    with pytest.raises(RecordError) as error:
        parse_record(minimal(match_lines=('[Game "klaberjass"]', f'[Rules "{rules}"]')))
    assert error.value.line == 3 and "takes" in error.value.message and len(error.value.message) < 200


def test_a_malformed_deck_line_is_reported_at_its_line():
    text = minimal("N take").replace(f'[Deck "{DECK}"]', f'[Deck "{DECK}]')
    error = parse_record(text).deals[0].error
    replayed = replay(parse_record(text))
    assert (error.line, replayed.errors[0].line) == (5, 5)
    assert replayed.errors[0].message.startswith("cannot read tag line '[Deck \"JH TH")
    assert "cards" not in replayed.errors[0].message.split(":", 1)[1]


def test_a_broken_proposed_line_is_reported_at_its_line():
    text = minimal("W take", match_lines=('[Game "klaverjas"]', '[Rules "trump-choice=turned"]'))
    text = text.replace(f'[Deck "{DECK}"]', f'[Deck "{DECK}"]\n[Proposed H]')
    errors = replay(parse_record(text)).errors
    assert (errors[0].line, errors[0].message.split(":")[0]) == (7, "cannot read tag line '[Proposed H]'")


def _tag_lines_of_every_kind() -> list[tuple[str, int]]:
    """(fixture, line) for every deal tag line of the valid fixtures (played, score sheets, turned)."""
    found = []
    for path in VALID:
        lines = path.read_text(encoding="utf-8").splitlines()
        first_deal = lines.index('[Deal "1"]')
        found += [(path.name, number) for number, line in enumerate(lines, start=1)
                  if number > first_deal + 1 and line.startswith("[") and not line.startswith("[Deal ")]
    return found


@pytest.mark.parametrize(("name", "line"), _tag_lines_of_every_kind())
@pytest.mark.parametrize("breakage", ["no closing quote", "no quotes", "no bracket"])
@pytest.mark.parametrize("place", ["in place", "last of its deal's tags"])
def test_every_broken_tag_line_is_reported_at_its_line_as_unreadable(name, line, breakage, place):
    """Whatever tag a broken line was, its deal's first error is that line, not a tag it lacks."""
    lines = (FIXTURES / "valid" / name).read_text(encoding="utf-8").splitlines()
    tag = lines.pop(line - 1)
    broken = {"no closing quote": tag[:-2] + "]", "no quotes": tag.replace('"', ""), "no bracket": tag[:-1]}
    if place != "in place":  # just before the deal's first action, blank line or next deal
        while line <= len(lines) and lines[line - 1].startswith("[") and not lines[line - 1].startswith("[Deal "):
            line += 1
    lines.insert(line - 1, broken[breakage])
    replayed = replay(parse_record("\n".join(lines) + "\n"))
    deal = next(deal for deal in replayed.deals if deal.record.line < line <= deal.record.last_line + 1)
    assert deal.error is not None and deal.error.line == line, (tag, deal.error)
    assert deal.error.message.startswith("cannot read tag line"), deal.error


def test_error_lines_quote_at_most_60_characters():
    record = parse_record(minimal("N" * 60_000 + " take", '[Note "a"]'))
    assert len(record.deals[0].error.message) < 200 and "…" in record.deals[0].error.message
    with pytest.raises(RecordError) as error:
        parse_record(minimal("N" * 1_000_000 + " take"))  # a 1 MB seat word: a line too long
    assert len(error.value.message) < 200
    for bad in ("N " + "7" * 60_000, "N take " + "x" * 60_000, "[" + "x" * 60_000, "N meld " + "K" * 60_000):
        error = parse_record(minimal(bad)).deals[0].error
        assert error is not None and len(error.message) < 250, error  # the action and the card quoted


def test_control_characters_in_errors_are_escaped():
    error = parse_record(minimal("N \x1b[2J\x07take")).deals[0].error
    assert "\x1b" not in error.message and "\x07" not in error.message
    assert "\\x1b[2J\\x07take" in error.message


@pytest.mark.parametrize("source", ["text", "bytes", "file"])
def test_a_line_longer_than_64_kib_is_refused(source):
    from io import BytesIO

    text = minimal(f'[Note "{"n" * MAX_LINE}"]')
    data = {"text": text, "bytes": text.encode(), "file": BytesIO(text.encode())}[source]
    with pytest.raises(RecordError) as error:
        parse_record(data)
    assert error.value.line == 6 and "longer than 64 KiB" in error.value.message
    fits = MAX_LINE - len('[Note ""]')
    assert len(read_record(minimal(f'[Note "{"n" * fits}"]')).deals[0].tags["Note"]) == fits  # 64 KiB is read


@pytest.mark.parametrize("source", ["text", "bytes", "file"])
def test_the_64_kib_limit_counts_bytes_whatever_the_record_is_read_from(source):
    """A line of fewer than 64 Ki characters can be longer than 64 KiB: ``check`` (reading bytes)
    and the site build (reading text) refuse the same records."""
    from io import BytesIO

    marks = "\u200f" * (MAX_LINE // 3 + 1)   # right-to-left marks: three bytes each in UTF-8
    text = minimal(f'[Note "{marks}"]')
    assert len(text.split("\n")[5]) < MAX_LINE < len(text.split("\n")[5].encode())
    data = {"text": text, "bytes": text.encode(), "file": BytesIO(text.encode())}[source]
    with pytest.raises(RecordError) as error:
        parse_record(data)
    assert error.value.line == 6 and "longer than 64 KiB" in error.value.message


def test_a_record_holds_at_most_max_deals_and_a_deal_max_actions():
    many = "%klab 1\n[Game \"klaberjass\"]\n" + "".join(f'[Deal "{n}"]\n' for n in range(1, MAX_DEALS + 2))
    with pytest.raises(RecordError) as error:
        parse_record(many)
    assert (error.value.line, "at most 10000 deals" in error.value.message) == (MAX_DEALS + 3, True)
    long_deal = parse_record(minimal(*["N take"] * (MAX_ACTIONS + 5))).deals[0]
    assert len(long_deal.actions) == MAX_ACTIONS and long_deal.error.line == 6 + MAX_ACTIONS
    # the real first error comes first: N cannot take twice
    assert replay(parse_record(minimal(*["N take"] * (MAX_ACTIONS + 5)))).errors[0].line == 7


def test_a_tag_value_built_in_code_is_one_line():
    with pytest.raises(RecordError, match="a tag value is one line"):
        Record.new("klaberjass", Title="two\nlines")


@pytest.mark.parametrize("hidden", ["\0", "\x1b", "\r", "\x7f", "\x85", "\u202e", "\u202a", "\u2066", "\u2069"])
@pytest.mark.parametrize("tag", ["Title", "Note", "Players", "Mine"])
def test_a_tag_value_holding_a_control_character_is_refused_at_its_line(hidden, tag):
    value = f"N:An{hidden}na" if tag == "Players" else f"An{hidden}na"
    line = f'[{tag} "{value}"]'
    text = minimal(line) if tag in ("Note", "Mine") else minimal(match_lines=('[Game "klaberjass"]', line))
    with pytest.raises(RecordError) as raised:
        read_record(text)
    assert raised.value.line == text.split("\n").index(line) + 1
    assert raised.value.message == (f"[{tag}] holds the invisible control character U+{ord(hidden):04X}: a tag "
                                    "value is plain text; remove it")


def test_a_tag_value_may_hold_a_tab_and_the_direction_marks():
    value = "Anna\tل\u200f\u200e\u061c"
    record = read_record(minimal(f'[Note "{value}"]', match_lines=('[Game "klaberjass"]', '[Title "Ann\u200fa"]')))
    assert record.deals[0].tags["Note"] == value and record.tags["Title"] == "Ann\u200fa"


@pytest.mark.parametrize("word", ["Pit", "<script>", "x'y", "ärger", "a_b", "pit!"])
def test_a_tag_word_is_lower_case_letters_digits_and_hyphens(word):
    line = f'[Tags "pit {word}"]'
    text = minimal(line)
    with pytest.raises(RecordError) as raised:
        read_record(text)
    assert raised.value.line == text.split("\n").index(line) + 1
    assert raised.value.message.startswith(f"[Tags] {word!r}: a tag word is lower-case letters a to z, digits and -")


def test_a_persons_own_tag_words_are_kept():
    assert read_record(minimal('[Tags "pit  my-favourite 2026"]')).deals[0].tags["Tags"] == "pit my-favourite 2026"


def test_version_0_is_not_read_as_version_1():
    with pytest.raises(RecordError) as error:
        read_record("%klab 0\n" + minimal().split("\n", 1)[1])
    assert error.value.line == 1 and "unknown .klab version 0" in error.value.message


def test_a_played_deal_may_not_carry_score_sheet_tags():
    """[Maker] or [Totals] on a deal with a Deck would be ignored silently (and change its id)."""
    text = minimal('[Maker "N"]', '[Totals "N 300 S 0"]')
    with pytest.raises(RecordError) as error:
        read_record(text)
    assert error.value.line == text.split("\n").index('[Maker "N"]') + 1
    assert "[Maker] is a score-sheet tag" in error.value.message
