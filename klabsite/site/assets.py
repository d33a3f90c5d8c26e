"""The static files as the site ships them.

A stylesheet loses its comments: they are written for contributors, and they were a quarter of what
a reader downloads. The rules are untouched: the sheet is tokenized as browsers read it (tinycss2,
CSS Syntax Level 3), so a ``/*`` inside a string or a URL is not taken for a comment, and tokens
that would run together are kept apart. Every other file ships as it is.
"""

from __future__ import annotations

import tinycss2


def shipped(name: str, data: bytes) -> bytes:
    """The bytes of static file ``name`` in the built site.

    >>> shipped("style.css", b'/* The page. */\\nb { color: red; /* ink */ }\\na::before { content: "/*" }')
    b'\\nb { color: red;  }\\na::before { content: "/*" }'
    >>> shipped("favicon.svg", b"<svg/>")
    b'<svg/>'
    """
    if not name.lower().endswith(".css"):
        return data
    try:
        css = data.decode("utf-8")
    except UnicodeDecodeError:  # the guard over the static files names the line (Renderer.check_static)
        return data
    tokens = tinycss2.parse_component_value_list(css, skip_comments=True)
    return tinycss2.serialize(tokens).encode("utf-8")
