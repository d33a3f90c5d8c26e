"""Markdown → translatable blocks, and the Babel extractor for the rules prose.

Each paragraph, list item, heading, table cell and definition of a rules page is one message
(the Sphinx model); inline Markdown (``**bold**``, links, code) stays inside the msgid. The
messages are found by the very pipeline that renders the pages
(:func:`klabsite.site.markdown_ext.convert` in extract mode), so extraction and lookup agree.

Registered for Babel in ``babel-content.cfg``::

    [extractors]
    klab_markdown = klabsite.site.blocks:extract_markdown
    [klab_markdown: site_src/rules/**.md]

>>> source = "# Cards\\n\\n- the *jack*\\n- the 9\\n\\n[[klab:card-order]]\\n"
>>> [block.msgid for block in extract_blocks(source)]
['Cards', 'the *jack*', 'the 9']
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from typing import IO, Any

from klabsite.site.markdown_ext import DocumentContext, convert

__all__ = ["Block", "extract_blocks", "extract_markdown", "TRANSLATOR_COMMENT"]

TRANSLATOR_COMMENT = re.compile(r"<!--\s*TRANSLATORS:\s*(.*?)\s*-->", re.DOTALL)
"""``<!-- TRANSLATORS: … -->`` just before a block becomes a comment for translators."""


@dataclass(frozen=True, slots=True)
class Block:
    """One translatable block: where it starts, its msgid, and any note for translators."""

    line: int
    msgid: str
    comments: tuple[str, ...] = ()


def extract_blocks(source: str, path: str = "<markdown>") -> list[Block]:
    """The translatable blocks of a Markdown document, in order."""
    document = convert(source, DocumentContext(path=path, extract=True))
    lines = source.split("\n")
    notes: dict[int, str] = {}
    for match in TRANSLATOR_COMMENT.finditer(source):
        end_line = source.count("\n", 0, match.end()) + 1
        notes[end_line] = " ".join(match.group(1).split())
    blocks = []
    for line, msgid in document.messages:
        previous = line - 1
        while previous >= 1 and not lines[previous - 1].strip():
            previous -= 1
        comment = document.notes.get(line) or notes.get(previous)
        blocks.append(Block(line, msgid, (comment,) if comment else ()))
    return blocks


def extract_markdown(fileobj: IO[bytes], keywords: Collection[str], comment_tags: Collection[str],
                     options: dict[str, Any]) -> Iterator[tuple[int, None, str, list[str]]]:
    """Babel extraction method: yields ``(lineno, funcname, message, comments)`` per block."""
    encoding = options.get("encoding", "utf-8")
    source = fileobj.read().decode(encoding)
    path = getattr(fileobj, "name", "<markdown>")
    for block in extract_blocks(source, str(path)):
        yield block.line, None, block.msgid, list(block.comments)
