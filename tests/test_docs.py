"""The documentation's examples are true: docs/record-format.md's record checks, and its JSON is
what ``klabsite check --json`` prints for it."""

from __future__ import annotations

import doctest
import json
import re
from pathlib import Path

from tests.helpers import check_json

DOC = Path(__file__).resolve().parents[1] / "docs" / "record-format.md"


def _blocks(language: str = "") -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```$", DOC.read_text(encoding="utf-8"), re.M | re.S)


def test_record_format_example_is_a_valid_record(tmp_path, capsys):
    record = tmp_path / "example.klab"
    record.write_text(_blocks("klab")[0], encoding="utf-8")
    check_json(capsys, record)


def test_record_format_json_is_what_check_prints(tmp_path, capsys):
    record = tmp_path / "example.klab"
    record.write_text(_blocks("klab")[0], encoding="utf-8")
    assert check_json(capsys, record) == json.loads(_blocks("json")[0])


def test_readme_names_only_files_that_exist():
    readme = DOC.parents[1] / "README.md"
    for target in re.findall(r"\]\(([^)#]+)", readme.read_text(encoding="utf-8")):
        assert (readme.parent / target).exists(), target


def test_readme_scripting_example_runs():
    readme = DOC.parents[1] / "README.md"
    text = readme.read_text(encoding="utf-8")
    parser = doctest.DocTestParser()
    examples = [block for block in re.findall(r"^```python\n(.*?)^```$", text, re.M | re.S)]
    assert examples, "the README has a Python example"
    for block in examples:
        test = parser.get_doctest(block, {}, "README.md", str(readme), 0)
        assert test.examples
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        runner.run(test)
        assert runner.failures == 0, block
