"""The repair table of ./dev eval: correct@1 <= pass@1, plausible and exact counts, CUDA built, exit status."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_hwrepair.report.repair_table import main
from pytest_hwrepair.results.rundir import RunDir, SampleRecord, patch_sha

from ..conftest import SUM_C, SUM_TOML, write_case


def record(bug: str, outcome: str, strong: bool | None, sha: str | None = "x", **extra: Any) -> SampleRecord:
    return SampleRecord(run="r", key=f"k-{bug}-{outcome}-{strong}", case="hls/demo/sum", bug=bug, domain="hls",
                        suite="demo", bug_type=bug.split("-")[0], fixer="search", protocol="repeated", sample=0,
                        iteration=None, outcome=outcome, category="pass" if outcome == "passed" else "test_fail",
                        patch_sha=sha, strong=strong, metrics={"fixer": {"candidates": 10, "cpu_s": 2.0}}, **extra)


def make_run(tmp: Path, records: list[SampleRecord]) -> Path:
    run = RunDir(tmp / "run")
    run.create()
    run.append(records)
    run.write_run_json({"fixers": {"search": "search"}})
    return run.path


def test_table_counts_correct_plausible_and_exact(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_case(tmp_path, "sum", {"case.toml": SUM_TOML, "sum.c": SUM_C})
    golden = patch_sha(SUM_C)
    run = make_run(tmp_path, [record("MLU-01", "passed", True, golden), record("SHFT-01", "passed", False)])
    assert main([str(run), "--cases", str(tmp_path / "cases")]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("search"))
    cells = row.split()
    # bugs samples pass@1 correct@1 plausible exact built errors failures cand/sample CPU s/sample
    assert cells[3:12] == ["2", "2", "1.000", "0.500", "1", "1", "-", "0", "-"]
    assert cells[12:] == ["10", "2.0"]


def test_a_failed_sample_without_a_strong_verdict_is_not_correct(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    # The strong oracle judges passes only: a failing sample has no strong verdict, and still counts as not
    # correct, so correct@1 stays at or below pass@1 (it read 1.000 beside a pass@1 of 0.333 before).
    write_case(tmp_path, "sum", {"case.toml": SUM_TOML, "sum.c": SUM_C})
    records = [record("MLU-01", "passed", True), record("SHFT-01", "failed", None), record("OOB-01", "failed", None)]
    run = make_run(tmp_path, records)
    assert main([str(run), "--cases", str(tmp_path / "cases")]) == 0
    cells = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("search")).split()
    assert cells[5:7] == ["0.333", "0.333"]


def test_harness_errors_make_exit_status_7(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = make_run(tmp_path, [record("MLU-01", "failed", None), record("SHFT-01", "error", None)])
    assert main([str(run), "--cases", str(tmp_path)]) == 7
    assert "1 harness errors" in capsys.readouterr().err


def test_cuda_starts_judged_at_build_are_counted_from_artifacts(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    run = make_run(tmp_path, [record("MLU-01", "failed", None)])
    for name, verdict in (("a", {"outcome": "skipped", "category": "skipped", "metrics": {"build": "passed"}}),
                          ("b", {"outcome": "failed", "category": "compile_fail", "metrics": {}})):
        folder = run / "artifacts" / name / "iter-0"
        folder.mkdir(parents=True)
        (folder / "verdict.json").write_text(json.dumps(verdict))
        (folder / "task.json").write_text(json.dumps({"domain": "cuda", "suite": "gemm"}))
    assert main([str(run), "--cases", str(tmp_path)]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if "cuda" in line)
    assert "1/2" in row.split()


def test_not_a_run_directory_is_a_one_line_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(tmp_path)]) == 2
    assert "no samples.jsonl (not a run directory)" in capsys.readouterr().err
