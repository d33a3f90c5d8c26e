"""benchmarks/solver.py runs and prints a solve and an analyse figure for every option set."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest


def test_the_solver_benchmark_prints_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "solver.py"
    spec = importlib.util.spec_from_file_location("benchmark_solver", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["--deals", "2", "--analyse", "1", "--seed", "test"]) == 0
    lines = capsys.readouterr().out.splitlines()
    expected = sum(len(options) for options in module.OPTION_SETS.values())
    assert sum(" solve " in line for line in lines) == sum(" analyse " in line for line in lines) == expected
    assert all("nodes median" in line and "CPU median" in line for line in lines)
