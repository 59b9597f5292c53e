"""scripts/machine_speed.py: the line every benchmark prints first, so figures from two machines compare."""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "machine_speed.py"


def load():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("machine_speed", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_loop_is_timed() -> None:
    assert 0 < load().python_seconds(20_000) < 5


@pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")
def test_the_fixed_c_file_compiles_cleanly(tmp_path: Path) -> None:
    source = tmp_path / "fixed.c"
    source.write_text(load().c_source(), encoding="utf-8")
    done = subprocess.run(["gcc", "-O2", "-Wall", "-Werror", "-c", str(source), "-o", str(tmp_path / "f.o")],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


def test_the_line_names_both_figures_and_the_load(monkeypatch: pytest.MonkeyPatch) -> None:
    module = load()
    monkeypatch.setattr(module, "ROUNDS", 10_000)
    monkeypatch.setattr(module, "python_seconds", lambda rounds=10_000: 0.5)
    line = module.speed_line()
    compiled = r"(\d+\.\d\d s|not measured \(no gcc\))"
    assert re.fullmatch(rf"machine: CPython loop 0\.50 s, gcc -O2 of a fixed C file {compiled} "
                        r"\(best of 3; load average [\d.]+ [\d.]+ [\d.]+\)", line), line


def test_without_gcc_the_line_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    module = load()
    monkeypatch.setattr(module.shutil, "which", lambda name: None)
    monkeypatch.setattr(module, "python_seconds", lambda rounds=10_000: 0.5)
    assert "gcc -O2 of a fixed C file not measured (no gcc)" in module.speed_line()


def test_the_script_prints_one_line() -> None:
    done = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True, check=True, timeout=120)
    assert done.stdout.startswith("machine: CPython loop ") and done.stdout.count("\n") == 1
