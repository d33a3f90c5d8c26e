"""The rules engine is pure (style.md 2): no randomness, files, templates, translations or I/O.

The engine modules, and every ``klabsite`` module they import, are read as source (not imported)
and their imports and calls checked. Bots, the simulator, records and the site import the engine;
the engine imports none of them.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "klabsite"
ENGINE = ("klaberjass", "klaverjas", "deal", "melds", "roem", "cards", "tricks")
FORBIDDEN_MODULES = {"random", "pathlib", "jinja2", "babel", "os", "io", "sys", "shutil", "tempfile",
                     "subprocess", "socket", "time", "datetime", "markdown"}
FORBIDDEN_CALLS = {"open", "print", "input", "exec", "eval", "__import__"}


def _imports(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return names


def _tree(module: str) -> ast.AST:
    path = PACKAGE.joinpath(*module.split(".")[1:]).with_suffix(".py")
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _engine_closure() -> list[str]:
    """The engine modules and every ``klabsite`` module they import, transitively."""
    seen: list[str] = []
    todo = [f"klabsite.{name}" for name in ENGINE]
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.append(module)
        todo += [name for name in _imports(_tree(module)) if name.startswith("klabsite.")]
    return sorted(seen)


def test_the_closure_holds_the_engine_and_its_core():
    closure = _engine_closure()
    assert {f"klabsite.{name}" for name in ENGINE} <= set(closure)
    assert "klabsite.actions" in closure and "klabsite.options" in closure
    assert not {"klabsite.records", "klabsite.replay", "klabsite.decks"} & set(closure)


@pytest.mark.parametrize("module", _engine_closure())
def test_engine_modules_import_no_randomness_files_templates_or_translations(module):
    tree = _tree(module)
    bad = sorted(name for name in _imports(tree) if name.split(".")[0] in FORBIDDEN_MODULES)
    assert not bad, f"{module} imports {bad}"
    calls = sorted({
        node.func.id for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FORBIDDEN_CALLS
    })
    assert not calls, f"{module} calls {calls}"


def test_the_scan_catches_a_forbidden_import():
    tree = ast.parse("import random\nfrom pathlib import Path\nfrom jinja2 import Environment\n")
    assert _imports(tree) == {"random", "pathlib", "jinja2"}
