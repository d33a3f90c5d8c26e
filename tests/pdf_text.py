"""The text of each sheet of a PDF that Chromium printed (Skia's PDF), line by line, for the print
tests: no heading may be the last line of a sheet.

A small reader for what Skia writes, not a general PDF parser: objects ``N 0 obj … endobj``,
Flate-compressed streams, the page tree's ``/Kids`` in order, fonts with a ``/ToUnicode`` CMap,
and text drawn with ``Tf``, ``Tm``/``Td`` and ``Tj``/``TJ`` of hexadecimal strings. Lines are the
runs of text drawn at the same height, from the top of the sheet down.
"""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass

__all__ = ["sheets"]

_OBJECT_START = re.compile(rb"(\d+) 0 obj")
_LENGTH = re.compile(rb"/Length (\d+)(?!\s+\d+\s+R)")
_REF = rb"(\d+) 0 R"
_TOKEN = re.compile(rb"<([0-9A-Fa-f\s]*)>|\(((?:\\.|[^\\)])*)\)|\[|\]|/[^\s/\[\]<>()]+|[-+]?\d*\.?\d+|[A-Za-z*'\"]+")


@dataclass
class _Object:
    head: bytes
    data: bytes | None


def _objects(pdf: bytes) -> dict[int, _Object]:
    """Every object; a stream is read by its ``/Length`` (its bytes may hold ``endobj``)."""
    objects = {}
    position = 0
    while (match := _OBJECT_START.search(pdf, position)) is not None:
        start = match.end()
        end = pdf.find(b"endobj", start)
        stream = pdf.find(b"stream", start, end if end >= 0 else len(pdf))
        data = None
        if stream < 0:
            head = pdf[start:end]
        else:
            head = pdf[start:stream]
            begin = stream + len(b"stream")
            begin += 2 if pdf[begin:begin + 2] == b"\r\n" else 1
            length = _LENGTH.search(head)
            stop = begin + int(length.group(1)) if length else pdf.find(b"endstream", begin)
            data = pdf[begin:stop]
            if b"/FlateDecode" in head:
                data = zlib.decompress(data)
            end = pdf.find(b"endobj", stop)
        objects[int(match.group(1))] = _Object(head.strip(), data)
        position = end + len(b"endobj") if end >= 0 else len(pdf)
    return objects


def _cmap(data: bytes) -> dict[bytes, str]:
    """A ToUnicode CMap: source code (hex, upper case) → text."""
    mapping: dict[bytes, str] = {}
    for block in re.findall(rb"beginbfchar(.*?)endbfchar", data, re.DOTALL):
        for src, dst in re.findall(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", block):
            mapping[src.upper()] = bytes.fromhex(dst.decode()).decode("utf-16-be", "replace")
    for block in re.findall(rb"beginbfrange(.*?)endbfrange", data, re.DOTALL):
        for low, high, dst in re.findall(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", block):
            start, end, first = int(low, 16), int(high, 16), int(dst, 16)
            for code in range(start, end + 1):
                key = f"{code:0{len(low)}X}".encode()
                mapping[key] = chr(first + code - start)
    return mapping


def _kids(objects: dict[int, _Object], number: int) -> list[int]:
    head = objects[number].head
    if re.search(rb"/Type\s*/Page\b", head):
        return [number]
    kids = re.search(rb"/Kids\s*\[(.*?)\]", head, re.DOTALL)
    pages: list[int] = []
    for ref in re.findall(_REF, kids.group(1) if kids else b""):
        pages += _kids(objects, int(ref))
    return pages


def _fonts(objects: dict[int, _Object], page: _Object) -> dict[bytes, dict[bytes, str]]:
    head = page.head
    resources = re.search(rb"/Resources\s+" + _REF, head)
    if resources:
        head = objects[int(resources.group(1))].head
    fonts: dict[bytes, dict[bytes, str]] = {}
    block = re.search(rb"/Font\s*<<(.*?)>>", head, re.DOTALL)
    if block is None:
        return fonts
    for name, ref in re.findall(rb"/([^\s/]+)\s+" + _REF, block.group(1)):
        font = objects[int(ref)]
        unicode = re.search(rb"/ToUnicode\s+" + _REF, font.head)
        if unicode is None:  # a Type0 font: the CMap may sit on the font itself only
            fonts[name] = {}
            continue
        data = objects[int(unicode.group(1))].data or b""
        fonts[name] = _cmap(data)
    return fonts


def _show(text: bytes, cmap: dict[bytes, str]) -> str:
    hexa = re.sub(rb"\s+", b"", text).upper()
    width = len(next(iter(cmap))) if cmap else 4
    return "".join(cmap.get(hexa[i:i + width], "") for i in range(0, len(hexa), width))


def _multiply(m: tuple[float, ...], n: tuple[float, ...]) -> tuple[float, ...]:
    """The matrix ``m`` then ``n`` (PDF's ``[a b c d e f]`` row-vector convention)."""
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a * a2 + b * c2, a * b2 + b * d2, c * a2 + d * c2, c * b2 + d * d2,
            e * a2 + f * c2 + e2, e * b2 + f * d2 + f2)


def _lines(content: bytes, fonts: dict[bytes, dict[bytes, str]]) -> list[str]:
    runs: list[tuple[float, float, str]] = []
    stack: list[bytes] = []
    cmap: dict[bytes, str] = {}
    ctm: tuple[float, ...] = (1, 0, 0, 1, 0, 0)
    saved: list[tuple[float, ...]] = []
    text: tuple[float, ...] = (1, 0, 0, 1, 0, 0)
    for match in _TOKEN.finditer(content):
        token = match.group(0)
        if token == b"q":
            saved.append(ctm)
        elif token == b"Q" and saved:
            ctm = saved.pop()
        elif token == b"cm" and len(stack) >= 6:
            ctm = _multiply(tuple(float(value) for value in stack[-6:]), ctm)
        elif token == b"BT":
            text = (1, 0, 0, 1, 0, 0)
        elif token == b"Tf":
            cmap = fonts.get(stack[-2][1:], {}) if len(stack) >= 2 else {}
        elif token == b"Tm" and len(stack) >= 6:
            text = tuple(float(value) for value in stack[-6:])
        elif token == b"Td" and len(stack) >= 2:
            text = _multiply((1, 0, 0, 1, float(stack[-2]), float(stack[-1])), text)
        elif token in (b"Tj", b"TJ"):
            shown = "".join(_show(item[1:-1], cmap) for item in stack if item.startswith(b"<"))
            if shown.strip():
                device = _multiply(text, ctm)
                runs.append((device[5], device[4], shown))
        if token[:1].isalpha() and token not in (b"R",):
            stack = []
        else:
            stack.append(token)
    rows: dict[int, list[tuple[float, str]]] = {}
    for y, x, shown in runs:
        rows.setdefault(round(y / 2), []).append((x, shown))
    # PDF heights grow upwards: the greatest is the top line.
    return ["".join(shown for _, shown in sorted(rows[key])) for key in sorted(rows, reverse=True)]


def sheets(pdf: bytes) -> list[list[str]]:
    """Each sheet's lines of text, top to bottom. A line is its runs joined as drawn: Skia places
    glyphs one by one, so compare texts without their spaces."""
    objects = _objects(pdf)
    root = re.search(rb"/Root\s+" + _REF, pdf)
    catalog = objects[int(root.group(1))] if root else None
    pages_ref = re.search(rb"/Pages\s+" + _REF, catalog.head) if catalog else None
    if pages_ref is None:
        return []
    result = []
    for number in _kids(objects, int(pages_ref.group(1))):
        page = objects[number]
        contents = re.search(rb"/Contents\s+(?:\[(.*?)\]|" + _REF + rb")", page.head, re.DOTALL)
        refs = re.findall(_REF, contents.group(1)) if contents and contents.group(1) else \
            [contents.group(2)] if contents else []
        data = b"\n".join(objects[int(ref)].data or b"" for ref in refs)
        result.append(_lines(data, _fonts(objects, page)))
    return result
