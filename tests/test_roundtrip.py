"""Round trips: simulated deals written, read back and replayed give the same events and JSON;
mangled records give a clean error with a line number, never another exception."""

from __future__ import annotations

import zlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from klabsite.commands.check import check_bytes
from klabsite.commands.simulate import simulate
from klabsite.records.klab import RecordError, parse_record, read_record
from klabsite.records.replay import replay

FIXTURES = Path(__file__).parent / "fixtures" / "records"
BASES = [path.read_text(encoding="utf-8") for path in sorted((FIXTURES / "valid").glob("*.klab"))]

CONFIGURATIONS = [
    ("klaberjass", "target=100000"),
    ("klaberjass", "schmeiss-redeal=same-dealer equal-score=next-deal-winner target=100000"),
    ("klaberjass", "schmeiss-refused=refuser-makes schmeiss-round-2=on long-sequence=100 equal-meld=elder "
                   "no-trick-melds=void must-beat=any-lead target=100000"),
    ("klaberjass", "schmeiss=off deals=60"),
    ("klaverjas", "target=100000"),
    ("klaverjas", "trick-rules=rotterdam target=100000"),
    ("klaverjas", "trick-rules=rotterdam undertrump=forbidden trump-choice=forced target=100000"),
    ("klaverjas", "trump-choice=turned deals=60"),
]


@pytest.mark.parametrize(("game", "rules"), CONFIGURATIONS, ids=[f"{g}:{r}" for g, r in CONFIGURATIONS])
def test_written_then_read_records_replay_to_the_same_events_and_json(game, rules):
    played: list = []
    record = simulate(game, f"roundtrip-{zlib.crc32(rules.encode())}", deals=60, rules=rules, played=played)
    text = record.to_text()
    again = read_record(text)
    assert again.to_text() == text
    replayed = replay(again)
    assert replayed.valid, replayed.errors
    assert len(replayed.deals) == len(played) == 60
    for original, deal in zip(played, replayed.deals, strict=True):
        assert deal.deal.events == original.events
        assert deal.result == original.result
    assert replayed.to_json() == replay(record).to_json()
    assert replayed.to_json()["id"] == record.match_id()


def _mutate(text: str, data: st.DataObject) -> bytes:
    lines = text.split("\n")
    kind = data.draw(st.sampled_from(["drop", "duplicate", "swap", "tokens", "replace", "bytes"]))
    i = data.draw(st.integers(0, len(lines) - 1))
    j = data.draw(st.integers(0, len(lines) - 1))
    if kind == "drop":
        del lines[i]
    elif kind == "duplicate":
        lines.insert(j, lines[i])
    elif kind == "swap":
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == "tokens":
        words = lines[i].split(" ")
        a = data.draw(st.integers(0, len(words) - 1))
        b = data.draw(st.integers(0, len(words) - 1))
        words[a], words[b] = words[b], words[a]
        lines[i] = " ".join(words)
    elif kind == "replace":
        words = lines[i].split(" ")
        other = data.draw(st.sampled_from(" ".join(lines).split(" ")))
        words[data.draw(st.integers(0, len(words) - 1))] = other
        lines[i] = " ".join(words)
    encoded = "\n".join(lines).encode("utf-8")
    if kind == "bytes":
        at = data.draw(st.integers(0, len(encoded)))
        noise = data.draw(st.binary(min_size=1, max_size=8))
        encoded = encoded[:at] + noise + encoded[at:]
    return encoded


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=st.sampled_from(BASES), data=st.data())
def test_mangled_records_give_a_clean_error_with_a_line_or_a_valid_record(base, data):
    mangled = _mutate(base, data)
    result, errors = check_bytes(mangled)  # any exception other than these returns is a bug
    for error in errors:
        assert isinstance(error, RecordError) and isinstance(error, ValueError)
        assert error.line is not None and error.line >= 1
        assert error.message and "\n" not in error.message
    if result is not None:
        text = result.record.to_text()
        assert parse_record(text).to_text() == text  # writing stays idempotent
    if not errors:
        assert result is not None and result.valid
