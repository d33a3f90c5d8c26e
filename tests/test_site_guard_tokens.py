"""The output guard's tokenizer splits HTML exactly as :mod:`html.parser` does (it is only faster):
the same start and end tags with the same attributes, comments, declarations, processing
instructions and text, on every page of the built site and on hostile snippets."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pytest

from klabsite.site.build import render
from klabsite.site.config import load_config
from klabsite.site.guard import _Parser
from tests.helpers import replay_folder

REPO = Path(__file__).resolve().parents[1]

HOSTILE = [
    '<p onclick="x">hi</p>', "<ScRiPt>alert(1)</ScRiPt>", '<a href="&#106;avascript:x">', "<p on\nclick=x>",
    "<img src=x onerror=y>", "x <!x", "<!-- hidden -->", "<!DOCTYPE html><html>", "<?php x ?>",
    "<![CDATA[x]]>", "a < b", "<p title='a\"b'>", '<p title="a\'b" data-x=1 checked>', "<style>p{}</style>",
    "<br/>", "<svg><path d='M0 0'/></svg>", "<p\nclass=x\n>text</p>", "<A HREF='X'>y</A>",
    "</p junk>", "<p =x>", "<p a==b>", "<style>a</b></style>", "<p title=\"x\n y\">", "<div <p>",
    # the guard reads runs of harmless markup in one token: what only looks harmless is still read
    '<p class="x" onclick="y">', '<b class="x">b</b><base href="x">', '<span class="a" id="b">',
    '<a class="x" href="javascript:y">', '<p class="a<b">', '<li aria-label="x" style="y">', "</HEAD >",
    '<section class="x"><div role="group" aria-label="a" id="z"></div></section>', "<abbr><area><br>",
    '<h2 class="x">a</h2 >< /p>', '<p class="x"title="y">', "<p\tclass=\"x\">", "</head\n>",
    '<a href="x.html" class="y">', '<a href="x&amp;y">', '<a href="javascript:x">', '<a href="a b">',
    '<a href="//x.org/">', '<a href="x" id="y">', '<a href="x" onclick="y">', "<a href='x'>",
    '<a href="#top" aria-current="step">a</a>', '<a href="x" href="y">', '<A href="x">',
]


class _Events:
    def reset_events(self) -> None:
        self.events: list[tuple] = []

    def handle_starttag(self, tag, attrs):
        self.events.append(("start", tag, tuple(attrs)))

    def handle_startendtag(self, tag, attrs):
        self.events.append(("startend", tag, tuple(attrs)))

    def handle_endtag(self, tag):
        self.events.append(("end", tag))

    def handle_data(self, data):
        if self.events and self.events[-1][0] == "data":  # html.parser may split text in two
            self.events[-1] = ("data", self.events[-1][1] + data)
        else:
            self.events.append(("data", data))

    def handle_charref(self, name):  # html.parser passes character references on their own
        self.handle_data(f"&#{name};")

    def handle_entityref(self, name):
        self.handle_data(f"&{name};")

    def handle_comment(self, data):
        self.events.append(("comment", data))

    def handle_decl(self, decl):
        self.events.append(("decl", decl))

    def handle_pi(self, data):
        self.events.append(("pi", data))

    def unknown_decl(self, data):
        self.events.append(("unknown", data))


class _Stock(_Events, HTMLParser):
    def __init__(self):
        HTMLParser.__init__(self, convert_charrefs=False)
        self.reset_events()


class _Fast(_Events, _Parser):
    every_text = True  # the guard itself skips runs of text without a '<': compare every event

    def __init__(self):
        _Parser.__init__(self, "page", None, ())
        self.reset_events()


def _events(parser_class, text):
    parser = parser_class()
    parser.feed(text)
    parser.close()
    return [event for event in parser.events if event != ("data", "")]


@pytest.mark.parametrize("snippet", HOSTILE)
def test_tokenizer_agrees_with_html_parser_on_hostile_snippets(snippet):
    assert _events(_Fast, snippet) == _events(_Stock, snippet)


class _Everything(_Parser):
    every_text = True


def _scan(parser_class, text):
    parser = parser_class("page", None, ())
    parser.feed(text)
    scan = parser.finish()
    return scan.problems, scan.ids, scan.links


@pytest.mark.parametrize("snippet", HOSTILE)
def test_skipping_text_without_a_tag_finds_the_same_problems_ids_and_links(snippet):
    text = f"<!DOCTYPE html>\n<html><head></head><body>\n{snippet}\nend</body></html>"
    assert _scan(_Parser, text) == _scan(_Everything, text)


def test_tokenizer_agrees_with_html_parser_on_every_kind_of_built_page(tmp_path):
    outputs, _ = render(load_config(REPO, out_dir=tmp_path / "_site"))
    pages = [path for path in outputs if path.endswith(".html")]
    assert len(pages) > 40
    folders = sorted({replay_folder(path) for path in pages} - {None})
    sample = {folder for folder in folders if folder.startswith("matches/")}
    sample |= {next(folder for folder in folders if folder.startswith("deals/"))}
    for path in [path for path in pages if replay_folder(path) in (None, *sample)]:  # one deal stands for all
        text = outputs[path].decode("utf-8")
        assert _events(_Fast, text) == _events(_Stock, text), path
        assert _scan(_Parser, text) == _scan(_Everything, text), path
