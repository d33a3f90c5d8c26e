"""What the site may publish (trust items 5, 6 and 8).

Translations are escaped wherever they land (item 5); every page, stylesheet and image passes the
output guard, and a problem is reported at the template, Markdown or catalog line that wrote it
(item 6); no symbolic link leads the build out of the sources (item 8).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from klabsite.site.build import render
from klabsite.site.catalogs import check_message
from klabsite.site.config import load_config
from klabsite.site.guard import check_css, scan_page, scan_svg
from klabsite.site.i18n import as_html
from tests.site_helpers import ERROR_LINE, append_entry, build_quietly, tree

CSP = '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; style-src \'self\'">'


def _page(body: str, head: str = CSP) -> str:
    return f"<!DOCTYPE html>\n<html>\n<head>\n{head}\n</head>\n<body>\n{body}\n</body>\n</html>\n"


def _problems(html: str, base_url: str | None = None) -> list[str]:
    return [problem.message for problem in scan_page(html, base_url).problems]


def _fails_at(project: Path, path: str, line: int, message: str, **options) -> None:
    """The build fails with exactly one line ``path:line: message…`` and writes nothing."""
    before = tree(project / "_site") if (project / "_site").exists() else None
    status, stdout, stderr = build_quietly(project, **options)
    assert (status, stdout) == (1, ""), stderr
    match = ERROR_LINE.match(stderr)
    assert match, stderr
    assert (match["path"], int(match["line"])) == (path, line), stderr
    assert match["message"].startswith(message), stderr
    after = tree(project / "_site") if (project / "_site").exists() else None
    assert after == before


def _line(path: Path, text: str) -> int:
    return path.read_text(encoding="utf-8").split("\n").index(text) + 1


# Item 5: attribute injection through a catalog ---------------------------------------------------


def _with_language_entry(project: Path, msgstr: str) -> Path:
    catalog = project / "locales" / "fr" / "LC_MESSAGES" / "messages.po"
    append_entry(catalog, "Language", msgstr)
    return catalog


@pytest.mark.parametrize("msgstr", [
    'Langue\\" onmouseover=\\"alert(1)\\" style=\\"color:red',
    "Langue < & > &amp;",
    "Langue' onfocus='alert(1)",
])
def test_msgstr_with_quotes_stays_inside_its_attribute(project, msgstr):
    _with_language_entry(project, msgstr)
    outputs, _ = render(load_config(project, languages=["fr"]))
    html = outputs["fr/index.html"].decode()
    label = re.search(r'<nav class="switcher" aria-label="([^"]*)">', html)
    assert label, "the attribute still closes where the template closes it"
    assert label.group(1).startswith("Langue")
    assert not _problems(html)
    assert "onmouseover=" not in html.replace("onmouseover=&#34;", "")


def test_translation_function_escapes_all_but_the_msgids_own_tags():
    assert as_html('a" b', "Language") == "a&#34; b"
    assert as_html("<kbd>Entrée</kbd> <i>x</i>", "press <kbd>Enter</kbd>") == \
        "<kbd>Entrée</kbd> &lt;i&gt;x&lt;/i&gt;"
    assert as_html('<kbd onclick="x">E</kbd>', "press <kbd>Enter</kbd>") == \
        "&lt;kbd onclick=&#34;x&#34;&gt;E</kbd>"
    assert as_html("Français", "French") == "Français"


def test_translation_may_not_add_attributes_to_the_sources_tags():
    problem = check_message("press <kbd>Enter</kbd>", 'appuyez <kbd onclick="x">Entrée</kbd>')
    assert problem == 'translation adds markup the source does not have: <kbd onclick="x">'
    assert check_message("press <kbd>Enter</kbd>", "appuyez sur <kbd>Entrée</kbd>") is None
    assert "adds markup" in (check_message("a b", "a <b") or "")


def test_translation_with_an_html_comment_is_refused_at_its_po_line(project):
    catalog = _with_language_entry(project, "Langue<!-- caché -->")
    line = _line(catalog, 'msgid "Language"')
    _fails_at(project, "locales/fr/LC_MESSAGES/messages.po", line,
              "translations may not contain HTML comments (<!--)", langs=["fr"])


def test_translation_in_prose_cannot_hide_a_comment(project):
    catalog = project / "locales" / "fr" / "LC_MESSAGES" / "content.po"
    text = catalog.read_text(encoding="utf-8")
    catalog.write_text(text.replace('msgstr "trèfle et *pique*"', 'msgstr "trèfle et *pique*<!--x-->"'),
                       encoding="utf-8")
    _fails_at(project, "locales/fr/LC_MESSAGES/content.po", _line(catalog, 'msgid "clubs and *spades*"'),
              "translations may not contain HTML comments", langs=["fr"])


# Item 6: the output guard ------------------------------------------------------------------------


@pytest.mark.parametrize(("body", "problem"), [
    ("<ScRiPt>alert(1)</sCrIpT>", "a <script> element"),
    ('<svg><script href="x.js"/></svg>', "a <script> element"),
    ('<a href="#" OnClick="alert(1)">x</a>', "an event-handler attribute onclick on <a>: the site runs no scripts"),
    ('<a href="#"\nonclick\n=\n"alert(1)">x</a>', "an event-handler attribute onclick"),
    ('<img/src="a.png"/onerror="alert(1)">', "an event-handler attribute onerror"),
    ('<a href="  JaVa&#x09;ScRiPt:alert(1)">x</a>', "a javascript: URL in <a href>"),
    ('<a href="&#106;avascript:alert(1)">x</a>', "a javascript: URL in <a href>"),
    ('<a href="vbscript:x">x</a>', "a vbscript: URL"),
    ('<a href="data:text/html,x">x</a>', "a data: URL"),
    ('<img src="data:image/png;base64,AAAA">', "a data: URL in <img src>"),
    ('<img src="https://evil.example/a.png">', "an external resource in <img src>"),
    ('<img src="//evil.example/a.png">', "an external resource in <img src>"),
    ('<img srcset="a.png 1x, https://evil.example/b.png 2x">', "an external resource in <img srcset>"),
    ('<video poster="http://evil.example/p.png"></video>', "an external resource in <video poster>"),
    ('<a href="http://example.org/">x</a>', "an http:// link in <a href>"),
    ('<a href="//example.org/">x</a>', "a protocol-relative link in <a href>"),
    ('<a href="\\\\example.org/">x</a>', "a protocol-relative link in <a href>"),
    ('<button formaction="https://evil.example/">x</button>', "an external resource in <button formaction>"),
    ('<p style="color:red">x</p>', "an inline style attribute on <p>"),
    ("<style>p{}</style>", "a <style> element: the pages' Content-Security-Policy lets only"),
    ("<head><style>@import url(https://evil.example/a.css);</style></head>", "a <style> element"),
    ('<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>', "a <noscript> element"),
    ('<xmp><p title="</xmp><img src=x onerror=alert(1)>"></xmp>', "a <xmp> element"),
    ("<textarea>x</textarea>", "a <textarea> element"),
    ("<NoEmbed>x</NoEmbed>", "a <noembed> element"),
    ('<title><p title="</title><img src=x onerror=alert(1)>"></title>', "markup inside <title>"),
    ('<title>x</titlex><p title="</title><img src=x onerror=alert(1)>"></title>', "markup inside <title>"),
    ('<title>x</title-><p title="</title><img src=x onerror=alert(1)>"></title>', "markup inside <title>"),
    ("<iframe></iframe>", "an <iframe> element"),
    ("<object></object>", "an <object> element"),
    ('<embed src="a.png">', "an <embed> element"),
    ("<form></form>", "a <form> element"),
    ('<base href="/">', "a <base> element"),
    ('<meta http-equiv="refresh" content="0;url=/">', 'a <meta http-equiv="refresh">'),
    ("<!-- hidden -->", "an HTML comment"),
    ("<!--><script>alert(1)</script>-->", "an HTML comment"),
    ("1 < 2", "a '<' that does not start a tag"),
    ("x <!x", "an HTML comment"),
])
def test_output_guard_refuses(body, problem):
    problems = _problems(_page(body))
    assert problems and problems[0].startswith(problem), problems


def test_a_title_holding_only_text_passes_the_guard():
    assert _problems(_page("<p>x</p>", head=CSP + "<title>Scores &lt; 6 &amp; 7</title>")) == []
    assert _problems(_page('<svg aria-hidden="true"><title>A picture</title></svg>')) == []


@pytest.mark.parametrize(("head", "problem"), [
    ("", "no Content-Security-Policy <meta> in <head>"),
    ('<meta http-equiv="content-security-policy" content="default-src \'self\'">',
     "the Content-Security-Policy must forbid scripts"),
    ('<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; script-src \'unsafe-inline\'">',
     "the Content-Security-Policy must forbid scripts"),
    ('<link rel="stylesheet" href="a.css">' + CSP, "the Content-Security-Policy <meta> must come first"),
    (CSP + CSP, "a second Content-Security-Policy"),
    ('<link rel="stylesheet" href="https://cdn.example/a.css">' + CSP, "an external resource in <link href>"),
])
def test_output_guard_needs_a_csp_that_forbids_scripts(head, problem):
    problems = _problems(_page("<p>x</p>", head=head))
    assert problems and problems[0].startswith(problem), problems


def test_output_guard_allows_outbound_https_links_and_the_sites_own_urls():
    base = "https://example.org/klab/"
    html = _page('<a href="https://www.pagat.com/">Pagat</a> <a href="mailto:a@example.org">mail</a> '
                 '<a href="../fr/index.html#x">fr</a> <img src="../assets/a.png" alt="">',
                 head=CSP + f'<link rel="canonical" href="{base}fr/">'
                 f'<link rel="alternate" hreflang="fr" href="{base}fr/">')
    assert _problems(html, base) == []
    assert _problems(html.replace(base, "https://elsewhere.example/"), base)


def test_the_built_pages_pass_the_guard(project):
    outputs, _ = render(load_config(project))
    pages = [path for path in outputs if path.endswith(".html")]
    assert len(pages) == 17
    for path in pages:
        assert _problems(outputs[path].decode(), None) == [], path


def _before_home_rules_heading(project: Path, inserted: str) -> int:
    """Insert ``inserted`` into home.html before the rules heading; the line it lands on."""
    home = project / "site_src" / "templates" / "home.html"
    text = home.read_text(encoding="utf-8")
    heading = '<h2 id="rules-heading">'
    home.write_text(text.replace(heading, inserted + heading), encoding="utf-8")
    return text[:text.index(heading)].count("\n") + 1


def test_template_problem_is_reported_at_the_template_line(project):
    line = _before_home_rules_heading(project, "<ScRiPt>alert(1)</script>")
    _fails_at(project, "site_src/templates/home.html", line,
              "a <script> element: the site runs no scripts and embeds nothing; remove it")


def test_an_unknown_filter_met_while_rendering_is_reported_with_the_filters_there_are(project):
    line = _before_home_rules_heading(project, "{% if true %}{{ 3|frob }}{% endif %}")
    _fails_at(project, "site_src/templates/home.html", line,
              "No filter named 'frob' found: use one of Jinja's or klabsite's own (by_title, kind, number,")


def test_an_unknown_filter_is_reported_with_the_filters_there_are(project):
    line = _before_home_rules_heading(project, "{{ 3|frob }}")
    _fails_at(project, "site_src/templates/home.html", line,
              "No filter named 'frob': use one of Jinja's or klabsite's own (by_title, kind, number,")


@pytest.mark.parametrize(("old", "new", "problem"), [
    ('<main id="main" tabindex="-1">', '<main id="main" tabindex="-1" style="color:red">',
     "an inline style attribute on <main>"),
    ('<main id="main" tabindex="-1">', '<main id="main" tabindex="-1" onmouseover="x()">',
     "an event-handler attribute onmouseover"),
    ('<meta name="color-scheme" content="light dark">', '<meta http-equiv="refresh" content="0;url=/">',
     'a <meta http-equiv="refresh">'),
    ('<main id="main" tabindex="-1">', '<main id="main" tabindex="-1"><iframe src="a.html"></iframe>',
     "an <iframe> element"),
    ('<meta name="color-scheme" content="light dark">',
     '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>', "a <noscript> element"),
    ('<meta name="color-scheme" content="light dark">', "<style>@import url(https://example.com/x.css);</style>",
     "a <style> element"),
    ("<title>", '<title><p title="</title><img src=x onerror=alert(1)>"></p>', "markup inside <title>"),
])
def test_base_template_problem_is_reported_at_its_line(project, old, new, problem):
    base = project / "site_src" / "templates" / "base.html"
    lines = base.read_text(encoding="utf-8").split("\n")
    line = next(number for number, text in enumerate(lines, 1) if old in text)
    base.write_text("\n".join(text.replace(old, new) for text in lines), encoding="utf-8")
    _fails_at(project, "site_src/templates/base.html", line, problem)


def test_template_without_the_csp_fails_the_build(project):
    base = project / "site_src" / "templates" / "base.html"
    lines = [text for text in base.read_text(encoding="utf-8").split("\n") if "Content-Security" not in text]
    base.write_text("\n".join(lines), encoding="utf-8")
    _fails_at(project, "site_src/templates/base.html", lines.index("<head>") + 1,
              "no Content-Security-Policy <meta> in <head>")


def test_translated_url_is_reported_at_its_po_line(project):
    base = project / "site_src" / "templates" / "base.html"
    base.write_text(base.read_text(encoding="utf-8").replace(
        '<a class="skip-link" href="#main">', '<a class="skip-link" href="{{ _(\'#main\') }}">'), encoding="utf-8")
    catalog = project / "locales" / "fr" / "LC_MESSAGES" / "messages.po"
    line = append_entry(catalog, "#main", "javascript:alert(1)")
    _fails_at(project, "locales/fr/LC_MESSAGES/messages.po", line, "a javascript: URL in <a href>",
              langs=["fr"])


def _append_to_play(project: Path, text: str) -> int:
    page = project / "site_src" / "rules" / "02-play.md"
    old = page.read_text(encoding="utf-8")
    page.write_text(old + "\n" + text + "\n", encoding="utf-8")
    return old.count("\n") + 2


@pytest.mark.parametrize(("markdown", "offset", "problem"), [
    ('A line\nwith <b onclick="x">bold</b>.', 1, "raw HTML <b>"),
    ("<div>\n<script>alert(1)</script>\n</div>", 0, "raw HTML <div>"),
    ('<iframe src="x.html"></iframe>', 0, "raw HTML <iframe>"),
    ('Press <kbd class="key">Ctrl</kbd>.', 0, "raw HTML <kbd> with attributes"),
    ("Text <style>p{}</style> more.", 0, "raw HTML <style>"),
    ("See [this](javascript:alert(1)).", 0, "a javascript: URL in <a href>"),
    ("See [this](JaVaScRiPt:alert(1)).", 0, "a javascript: URL in <a href>"),
    ("A line\nSee [this](jav&#x09;ascript:alert(1)).", 1,
     "a javascript: URL in <a href> ('jav\\tascript:alert(1)'): link to a page of the site or to an https://"),
    ("See [this](data:text/html,x).", 0, "a data: URL in <a href>"),
    ("Or\n![x](https://evil.example/x.png).", 1, "an external resource in <img src>"),
    ("See [this](http://example.org/).", 0, "an http:// link in <a href>"),
    ("See <http://example.org/>.", 0, "an http:// link in <a href>"),
])
def test_raw_html_and_unsafe_links_in_markdown_are_refused_at_their_line(project, markdown, offset, problem):
    line = _append_to_play(project, markdown)
    _fails_at(project, "site_src/rules/02-play.md", line + offset, problem)


def test_harmless_inline_html_and_outbound_links_in_markdown_are_kept(project):
    _append_to_play(project, "Press <kbd>Ctrl</kbd> for H<sub>2</sub>O<br>and read "
                    "[Pagat](https://www.pagat.com/jass/klaberjass.html).\n\n<!-- TRANSLATORS: a note -->\n\nEnd.")
    outputs, _ = render(load_config(project, languages=["fr"]))
    html = outputs["en/play.html"].decode()
    assert "Press <kbd>Ctrl</kbd> for H<sub>2</sub>O<br>and read" in html
    assert '<a href="https://www.pagat.com/jass/klaberjass.html">Pagat</a>' in html
    assert "TRANSLATORS" not in html and "<!--" not in html


def test_stylesheet_may_not_load_anything_from_elsewhere(project):
    style = project / "site_src" / "static" / "style.css"
    text = style.read_text(encoding="utf-8")
    style.write_text(text + "\n.x { background: \\75 rl(https://evil.example/t.png) }\n", encoding="utf-8")
    _fails_at(project, "site_src/static/style.css", text.count("\n") + 2, "an external resource in url()")
    style.write_text('@import "other.css";\n' + text, encoding="utf-8")
    _fails_at(project, "site_src/static/style.css", 1, "@import in a stylesheet")


def test_svg_image_may_not_hold_a_script(project):
    icon = project / "site_src" / "static" / "favicon.svg"
    icon.write_text(icon.read_text(encoding="utf-8").replace("</svg>", "\n<script>alert(1)</script></svg>"),
                    encoding="utf-8")
    _fails_at(project, "site_src/static/favicon.svg", 2, "a <script> element")


_SVG_OPEN = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'


@pytest.mark.parametrize(("inside", "problem"), [
    ('<x:script xmlns:x="http://www.w3.org/2000/svg">alert(1)</x:script>', "a prefixed element <x:script>"),
    ('<h:script xmlns:h="http://www.w3.org/1999/xhtml">alert(2)</h:script>', "a prefixed element <h:script>"),
    ('<x:style xmlns:x="http://www.w3.org/2000/svg">@import url(https://evil.example/i.css);</x:style>',
     "a prefixed element <x:style>"),
    ('<a xmlns:l="http://www.w3.org/1999/xlink" l:href="javascript:alert(1)"><rect/></a>',
     "a namespace xmlns:l="),
    ('<g xmlns="http://www.w3.org/1999/xhtml"><rect/></g>', "a namespace xmlns="),
    ('<rect style="fill:url(https://evil.example/p.svg#g)"/>', "an external resource in url()"),
    ('<rect fill="url( \'//evil.example/p.svg#g\')"/>', "an external resource in url()"),
])
def test_an_image_may_not_hide_a_script_or_a_load_behind_a_namespace_prefix(inside, problem):
    """An SVG file is XML: a prefix bound to SVG's or XHTML's namespace makes ``<x:script>`` a script
    when the image is opened by itself (where no page's policy applies), and ``url()`` in any
    attribute loads a resource."""
    messages = [found.message for found in scan_svg(f"{_SVG_OPEN}{inside}</svg>")]
    assert any(message.startswith(problem) for message in messages), messages


def test_a_doctype_in_an_image_is_named_plainly_with_the_fix():
    svg = '<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>' + f"{_SVG_OPEN}<text>&x;</text></svg>"
    messages = [found.message for found in scan_svg(svg)]
    assert messages[0] == ("a declaration <!DOCTYPE …> in an image: delete it (an image needs none, and one "
                           "can load entities from outside it)"), messages


def test_an_image_may_use_xlink_and_local_references():
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
           'xmlns:svg="http://www.w3.org/2000/svg">'
           '<defs><linearGradient id="g"/></defs><rect fill="url(#g)" style="fill: url(#g)"/>'
           '<use xlink:href="#g" xml:space="preserve"/></svg>')
    assert scan_svg(svg) == []


def test_a_prefixed_script_in_an_image_fails_the_build_at_its_line(project):
    icon = project / "site_src" / "static" / "favicon.svg"
    icon.write_text(icon.read_text(encoding="utf-8").replace(
        "</svg>", '\n<x:script xmlns:x="http://www.w3.org/2000/svg">alert(1)</x:script></svg>'), encoding="utf-8")
    _fails_at(project, "site_src/static/favicon.svg", 2, "a prefixed element <x:script>")


@pytest.mark.parametrize(("css", "line"), [
    ('body { background: url(\n"https://evil.example/a.png") }', 1),
    ('main { background-image: image-set(url(a.png) 1x, "https://evil.example/b.png" 2x) }', 1),
    ("a {}\n.x { background: url('https://evil.ex\\\nample/c.png') }", 2),
    ('.a { background: url("ht\\\ftp://evil.example/d.png") }', 1),
    ('.a::before { content: "/*" }\n.a { background: url(https://evil.example/e.png) }\n.b::after { content: "*/" }',
     2),
    ('.a { background-image: image-set("x;y.png" 1x, "https://evil.example/f.png" 2x) }', 1),
    ('@font-face { font-family: x; src: url(https://evil.example/g.woff) }', 1),
])
def test_a_stylesheet_url_is_read_as_browsers_read_it(css, line):
    """Line continuations in strings, a "/*" inside a string (no comment), image-set()'s strings."""
    assert [(found.line, found.message.split(" (")[0]) for found in check_css(css)] == [
        (line, "an external resource in url()")]


def test_guard_functions_find_nothing_in_the_real_stylesheet_and_icon():
    static = Path(__file__).resolve().parents[1] / "site_src" / "static"
    assert check_css((static / "style.css").read_text(encoding="utf-8")) == []
    assert scan_svg((static / "favicon.svg").read_text(encoding="utf-8")) == []
    assert [p.message for p in scan_svg('<svg><a href="https://x.example/">x</a></svg>')] == [
        "a link out of the image in <a href> ('https://x.example/')"]


def test_static_files_are_stylesheets_images_and_fonts(project):
    (project / "site_src" / "static" / "app.js").write_text("alert(1)\n", encoding="utf-8")
    _fails_at(project, "site_src/static/app.js", 1, "static files are stylesheets, images and fonts")


# Item 8: symbolic links --------------------------------------------------------------------------


@pytest.mark.parametrize("place", ["site_src/static/host.css", "site_src/static/inner",
                                   "site_src/templates/evil.html", "site_src/rules/09-evil.md",
                                   "locales/fr/LC_MESSAGES/content.po"])
def test_symlink_out_of_the_sources_is_refused(project, tmp_path, place):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.css").write_text("secret\n", encoding="utf-8")
    link = project / place
    if link.exists():
        link.unlink()
    if place.endswith("inner"):
        link.symlink_to(outside, target_is_directory=True)
    else:
        link.symlink_to(outside / "secret.css")
    if place.endswith("evil.html"):
        home = project / "site_src" / "templates" / "home.html"
        home.write_text('{% include "evil.html" %}' + home.read_text(encoding="utf-8"), encoding="utf-8")
    _fails_at(project, place, 1, "a symbolic link to ")


def test_symlink_inside_the_sources_is_followed(project):
    (project / "site_src" / "static" / "icon-copy.svg").symlink_to("favicon.svg")
    outputs, _ = render(load_config(project))
    assert any(path.startswith("assets/icon-copy.") for path in outputs)


@pytest.mark.parametrize("css", [
    'a::before { content: "https://example.org/" }', "a { background: url(data:image/png;base64,AAAA) }",
    'a { background: url( "a b.png" ) }', 'a { background-image: image-set("a.png" 1x, "a2.png" 2x) }',
])
def test_a_stylesheet_may_name_addresses_in_text_and_load_its_own_files(css):
    assert check_css(css) == []


def test_an_unquoted_url_browsers_cannot_read_is_refused():
    assert [problem.message.split(":")[0] for problem in check_css("a { background: url(javascript:alert(1)) }")] == [
        "a url() browsers cannot read (a space, quote or parenthesis in an unquoted URL)"]
