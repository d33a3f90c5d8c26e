"""Helpers shared by the test modules: running ``klabsite check`` and shaping its JSON.

Imported as ``tests.helpers`` (pytest puts the project folder on ``sys.path``: ``pythonpath``
in pyproject.toml).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from klabsite.cli import main

AUDIT = Path(__file__).parent / "fixtures" / "audit"
"""Hand-made records written from the spec (not simulated), for the spec-audit tests."""


def run_check(capsys: Any, *args: str | Path) -> tuple[int, str, str]:
    """``klabsite check ARGS…`` through the real command line: exit status, stdout, stderr."""
    status = main(["check", *map(str, args)])
    out, err = capsys.readouterr()
    return status, out, err


def check_json(capsys: Any, path: str | Path) -> dict:
    """``klabsite check --json PATH`` of a valid record, parsed (fails on any error output)."""
    status, out, err = run_check(capsys, "--json", path)
    assert (status, err) == (0, ""), err
    return json.loads(out)


def audit_check(capsys: Any, name: str, *options: str) -> tuple[int, str, str]:
    """:func:`run_check` of the audit record ``name`` with ``options``."""
    return run_check(capsys, *options, AUDIT / name)


def audit_json(capsys: Any, name: str) -> dict:
    """:func:`check_json` of the audit record ``name``."""
    return check_json(capsys, AUDIT / name)


def without_ids(deal: dict) -> dict:
    """A deal's JSON without ``deal``, ``id`` and ``match`` (what the engine's ``to_json`` gives)."""
    return {key: value for key, value in deal.items() if key not in ("deal", "id", "match")}


def seats(n: int, s: int) -> dict:
    """A Klaberjass per-player figure: ``{"N": n, "S": s}``."""
    return {"N": n, "S": s}


def sides(ns: int, ew: int) -> dict:
    """A Klaverjas per-side figure: ``{"NS": ns, "EW": ew}``."""
    return {"NS": ns, "EW": ew}


def replay_folder(path: str) -> str | None:
    """``deals/<id>`` or ``matches/<id>`` for a site page inside a deal's or match's folder
    (``fr/deals/abc/t3-2.html``), else None."""
    parts = path.split("/")
    return "/".join(parts[1:3]) if len(parts) >= 4 and parts[1] in ("deals", "matches") else None
