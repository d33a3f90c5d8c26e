"""Mutations of a site's inputs, and what a build of the result must do.

Shared by the Hypothesis tests (tests/test_site_mutations.py) and the fuzz figures
(benchmarks/fuzz_site.py). A mutation takes the input's text and a ``choose(n)`` function
(an index below ``n``: a Hypothesis draw, or ``random.Random.randrange``), so both drive the
same operators.

The property (:func:`judge`): a build of mutated inputs either succeeds, with pages that pass
the output guard (and an independent, regex-based look at every tag), or fails with exit 1 and
exactly one line ``path:LINE: message``, where ``path`` is an existing file of the project and
LINE one of its lines, and the previous output is left byte-identical.
"""

from __future__ import annotations

import html
import re
import shutil
from collections.abc import Callable
from pathlib import Path

from klabsite.site.guard import FORBIDDEN_ELEMENTS, scan_page
from tests.site_helpers import ERROR_LINE

Choose = Callable[[int], int]
"""``choose(n)``: an index from 0 to n - 1."""

CATALOG_FRAGMENTS = (
    '"', '\\"', "<", ">", "&", "&amp;", "<!--", "-->", "<b>", "</b>", "<script>alert(1)</script>",
    '<a href=\\"javascript:alert(1)\\">x</a>', '\\" onmouseover=\\"alert(1)', "{placeholder}", "{0}",
    "%(num)s", "%(n)s", "%s", "%%", "\\q", "\\", "\\n", "\\t", "[x](javascript:alert(1))",
    "[x](02-play.md#leading)", "[x](https://example.org/)", "<https://evil.example>", "**", "`",
    "\t", "\x00", "\u202e", "msgid", 'msgstr "x"', "#", "#~ ", "\n", "\n\n", '"\n"', "javascript:",
)
"""What a translator (or an editor gone wrong) might type into a ``.po`` file."""

MARKDOWN_FRAGMENTS = (
    "<kbd>Ctrl</kbd>", "H<sub>2</sub>O", '<b onclick="x">b</b>', "<div>\n<script>alert(1)</script>\n</div>",
    '<iframe src="x"></iframe>', "<!-- TRANSLATORS: a note -->", "<!-->", "<!-- x --!> y -->",
    "<style>p{}</style>", '<p style="color:red">x</p>', "<ScRiPt>x</sCrIpT>", "[a](javascript:alert(1))",
    "[a](JAVA\tSCRIPT:x)", "[a](data:text/html,x)", "[a](https://example.org/)", "[a](http://example.org/)",
    "[a](nothing.md)", "[a](02-play.md#nowhere)", "[a](02-play.md#leading)", "[a](index.html)",
    "[a](../fr/index.html)", "[a](missing.html)", "![i](//x.example/y.png)", "![i](x.png)",
    "<https://example.org>", "[[klab:fixture-hand cards=JH]]", "[[klab:fixture-hand cards=XX]]",
    "[[klab:nope]]", '[[klab:fixture-hand cards="JH]]', "[[klab:", "---", "---\nsummary: x\n---",
    "## Heading {#leading}", "## {#x}", "# Title", "```", "    code", "| a | b |\n|---|---|\n| 1 | 2 |",
    "&amp; &copy; &#0;", "\\<script>", "`<script>`", "*", "\x00", "\x02wzxhzdk:0\x03", "<a name=x>",
    "<img src=x onerror=alert(1)>", '<a href="javascript:x">x</a>', "<br>", "<wbr/>",
)
"""What a rules page might hold: raw HTML, links, directives, Markdown syntax."""

SETTINGS = {
    "languages": ('["fr"]', '["en", "ar"]', "[]", '["xx"]', "5", '"fr"', '["fr", 3]'),
    "base_url": ('"https://example.org/klab/"', '"http://localhost:8000/"', '"example.org"',
                 '"ftp://example.org/"', '"https://example.org/?x"', "3"),
    "strict": ("false", "true", '"yes"'),
    "build_date": ("2026-01-01", '"2026-06-30"', "1979-05-27T07:32:00Z", '"2026-13-01"', "5"),
    "out_dir": ('"_site"', '"out2"', '"site_src"', '"."', '".."', '"locales/fr"', '""', "5"),
    "source_lang": ('"en"', '"fr"', '"xx"'),
    "colour": ('"blue"',),
}
"""Each setting with values right and wrong for it."""
ANY_VALUES = ("[", '"\\q"', "{}", '"\u00ff"', "nan")
"""Values wrong for every setting (some not even TOML)."""


def _insert(text: str, choose: Choose, fragment: str) -> str:
    position = choose(len(text) + 1)
    return text[:position] + fragment + text[position:]


def _lines_op(text: str, choose: Choose) -> str:
    lines = text.split("\n")
    index = choose(len(lines))
    operation = choose(3)
    if operation == 0:
        del lines[index]
    elif operation == 1:
        lines.insert(index, lines[index])
    else:
        other = choose(len(lines))
        lines[index], lines[other] = lines[other], lines[index]
    return "\n".join(lines)


def mutate_catalog(text: str, choose: Choose) -> str:
    """One change to a ``.po`` file: a fragment in a msgstr or anywhere, or a line moved or lost."""
    fragment = CATALOG_FRAGMENTS[choose(len(CATALOG_FRAGMENTS))]
    operation = choose(4)
    if operation == 0:
        lines = text.split("\n")
        strings = [i for i, line in enumerate(lines) if line.startswith(("msgstr", '"')) and line.endswith('"')]
        index = strings[choose(len(strings))]
        line = lines[index]
        start = line.index('"') + 1
        at = start + choose(len(line) - start)
        lines[index] = line[:at] + fragment + line[at:]
        return "\n".join(lines)
    if operation == 1:
        return _insert(text, choose, fragment)
    if operation == 2:
        lines = text.split("\n")
        strings = [i for i, line in enumerate(lines) if line.startswith("msgstr ")]
        index = strings[choose(len(strings))]
        lines[index] = lines[index].split(" ", 1)[0] + f' "{fragment}"'
        return "\n".join(lines)
    return _lines_op(text, choose)


def mutate_markdown(text: str, choose: Choose) -> str:
    """One change to a rules page: a fragment as a block of its own or inline, or a line moved or lost."""
    fragment = MARKDOWN_FRAGMENTS[choose(len(MARKDOWN_FRAGMENTS))]
    operation = choose(3)
    if operation == 0:
        lines = text.split("\n")
        index = choose(len(lines) + 1)
        return "\n".join([*lines[:index], "", fragment, "", *lines[index:]])
    if operation == 1:
        return _insert(text, choose, fragment)
    return _lines_op(text, choose)


def mutate_settings(choose: Choose) -> str:
    """A ``site.toml`` of one to three settings, with values right or wrong."""
    keys = list(SETTINGS)
    lines = []
    for _ in range(1 + choose(3)):
        key = keys.pop(choose(len(keys)))
        values = SETTINGS[key] + ANY_VALUES if choose(4) == 0 else SETTINGS[key]
        lines.append(f"{key} = {values[choose(len(values))]}")
    if choose(8) == 0:
        lines.insert(choose(len(lines) + 1), "this is not TOML")
    return "\n".join(lines) + "\n"


# The property ------------------------------------------------------------------------------------

_TAG = re.compile(r"<([A-Za-z][^\s/>]*)((?:[^>\"']|\"[^\"]*\"|'[^']*')*)>")
_BAD_ATTRIBUTE = re.compile(r"(?:^|[\s/\"'])(on[a-z]+|style|srcdoc)\s*=", re.IGNORECASE)
_URL_VALUE = re.compile(r"(?:href|src|action|srcset|poster)\s*=\s*(?:\"([^\"]*)\"|'([^']*)'|([^\s>]+))",
                        re.IGNORECASE)


def page_problem(page: str) -> str | None:
    """What is wrong with an accepted page: the guard's first problem, or what a plain regex sees."""
    problems = scan_page(page).problems
    if problems:
        return f"the guard finds: {problems[0].message}"
    if "<!--" in page:
        return "a comment"
    if "Content-Security-Policy" not in page:
        return "no CSP"
    for match in _TAG.finditer(page):
        name, attributes = match.group(1).lower(), match.group(2)
        if name in FORBIDDEN_ELEMENTS:
            return f"a <{name}> element"
        if name == "style" or _BAD_ATTRIBUTE.search(attributes):
            return f"a style or handler in {match.group(0)[:80]!r}"
        for url_match in _URL_VALUE.finditer(attributes):
            url = re.sub(r"[\s\x00-\x1f]", "", html.unescape(next(g for g in url_match.groups() if g is not None)))
            if re.match(r"(javascript|vbscript|data):", url, re.IGNORECASE):
                return f"a {url.split(':')[0]}: URL in {match.group(0)[:80]!r}"
    return None


def files_of(directory: Path) -> dict[str, bytes]:
    """Every file under ``directory`` (marker included), by relative path."""
    return {path.relative_to(directory).as_posix(): path.read_bytes()
            for path in sorted(directory.rglob("*")) if path.is_file()}


def restore(directory: Path, files: dict[str, bytes]) -> None:
    """Make ``directory`` hold exactly ``files`` again."""
    shutil.rmtree(directory, ignore_errors=True)
    for name, data in files.items():
        (directory / name).parent.mkdir(parents=True, exist_ok=True)
        (directory / name).write_bytes(data)


def judge(root: Path, out_dir: Path, before: dict[str, bytes], status: int, stdout: str, stderr: str
          ) -> tuple[str, str]:
    """``("accepted" | "error", detail)`` when the build kept its promise, else ``("broken", why)``."""
    if "Traceback" in stderr or status not in (0, 1):
        return "broken", f"exit {status}: {stderr[-300:]!r}"
    if status == 0:
        for line in stderr.splitlines():
            if not re.match(r"^[^:\n]+:\d+: warning: ", line):
                return "broken", f"not a warning: {line!r}"
        pages = sorted(out_dir.rglob("*.html"))
        if not pages:
            return "broken", "accepted, but no pages"
        for page in pages:
            problem = page_problem(page.read_text(encoding="utf-8"))
            if problem:
                return "broken", f"{page.relative_to(out_dir)}: {problem}"
        return "accepted", stdout.strip()
    match = ERROR_LINE.match(stderr)
    if stdout or not match:
        return "broken", f"not one error line: {stderr!r}"
    source = root / match["path"]
    if not source.is_file():
        return "broken", f"no such source file: {stderr!r}"
    lines = source.read_bytes().count(b"\n") + 1
    if not 1 <= int(match["line"]) <= lines:
        return "broken", f"line {match['line']} of a file of {lines} lines: {stderr!r}"
    if files_of(out_dir) != before:
        return "broken", f"the previous output changed: {stderr!r}"
    return "error", stderr.rstrip("\n")
