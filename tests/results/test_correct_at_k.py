"""correct@k next to pass@k in every summary row, plausible and undecided counts, correct@K gates per domain."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_hwrepair.cases.load import load_case
from pytest_hwrepair.controller import summarize
from pytest_hwrepair.fixers import NoopFixer
from pytest_hwrepair.oracles import OracleContext
from pytest_hwrepair.report.terminal import render
from pytest_hwrepair.results.gates import check_gates, parse_gate
from pytest_hwrepair.results.rundir import RunDir, SampleRecord
from pytest_hwrepair.results.tally import bug_stats as stats_of
from pytest_hwrepair.results.tally import correct_at_k
from pytest_hwrepair.run.runner import Harness, execute
from pytest_hwrepair.run.sample import ProtocolConfig, Sample
from pytest_hwrepair.sandbox.local.sandbox import LocalSandbox
from pytest_hwrepair.verdict import RepairProtocol

from ..report_helpers import record

DOMAINS = ("hls", "rtl", "cuda")
ROWS = ("fixers", "domains", "groups", "loc")


def sample(bug: str, outcome: str, strong: bool | None, *, domain: str = "hls", declared: bool = True,
           fixer: str = "a") -> SampleRecord:
    """A final record; `declared`: its case has a strong oracle (the record says so in its metrics)."""
    metrics: dict[str, Any] = {"strong_oracle": "some-kind"} if declared else {}
    return record(fixer, f"{domain}/s/{bug}", bug, outcome, domain=domain, suite="s", strong=strong, metrics=metrics)


def test_failed_samples_without_a_strong_verdict_are_not_correct() -> None:
    # hls-diff judges only what passed the suite oracle: the failing bug has no strong verdict at all.
    records = [sample("OOB-01", "passed", True), sample("OOB-02", "failed", None)]
    row = summarize(records, [1])["fixers"][0]
    assert row["pass_at"]["1"] == 0.5 and row["correct_at"]["1"] == 0.5


def test_rows_count_correct_plausible_and_undecided_passes() -> None:
    records = [sample("OOB-01", "passed", True), sample("OOB-01", "passed", False), sample("OOB-01", "passed", None),
               sample("OOB-01", "failed", None)]
    row = summarize(records, [1])["groups"][0]
    assert (row["passed"], row["correct"], row["plausible"], row["undecided"]) == (3, 1, 1, 1)
    assert row["pass_at"]["1"] == 0.75 and row["correct_at"]["1"] == 0.25


def test_correct_at_k_is_na_without_any_strong_oracle() -> None:
    records = [sample("OOB-01", "passed", None, declared=False)]
    assert summarize(records, [1])["fixers"][0]["correct_at"] == {"1": None}
    assert check_gates([parse_gate("correct@1>=0")], records) == [
        "gate 'correct@1>=0' not met for a: correct@1 = n/a"]


@pytest.mark.parametrize("domain", DOMAINS)
def test_correct_gates_hold_or_fail_in_every_domain(domain: str) -> None:
    records = [sample("OOB-01", "passed", True, domain=domain), sample("OOB-02", "passed", False, domain=domain)]
    assert check_gates([parse_gate(f"{domain}:correct@1>=0.5")], records) == []
    assert check_gates([parse_gate(f"{domain}:pass@1>=1")], records) == []
    failed = check_gates([parse_gate(f"{domain}:correct@1>=0.6")], records)
    assert failed == [f"gate '{domain}:correct@1>=0.6' not met for a: correct@1 = 0.500"]


def test_terminal_table_shows_correct_at_k_and_plausible_next_to_pass_at_k() -> None:
    records = [sample("OOB-01", "passed", True), sample("OOB-01", "passed", False)]
    lines = render(summarize(records, [1]))
    header = lines[0].split()  # the totals come first: fixer, domain, bugs, samples, then the scores
    assert header[4:8] == ["pass@1", "correct@1", "plausible", "undecided"]
    assert lines[2].split()[4:8] == ["1.000", "0.500", "1", "0"]
    breakdown = lines[lines.index("by suite x bug type:") + 1].split()
    assert breakdown[6:10] == ["pass@1", "correct@1", "plausible", "undecided"]


_records = st.lists(st.tuples(st.sampled_from(["a", "b"]), st.sampled_from(DOMAINS), st.integers(0, 3),
                              st.sampled_from(["passed", "failed"]), st.sampled_from([True, False, None]),
                              st.booleans()), min_size=1, max_size=40)


@settings(max_examples=200, deadline=None)
@given(_records, st.integers(1, 4))
def test_correct_at_k_never_exceeds_pass_at_k(rows: list[tuple[str, str, int, str, bool | None, bool]],
                                              k: int) -> None:
    # A case either declares a strong oracle for all its samples or for none.
    declared = {(d, b): flag for _, d, b, _, _, flag in rows}
    records = [sample(f"OOB-0{b}", outcome, strong if declared[(d, b)] else None, domain=d,
                      declared=declared[(d, b)], fixer=f) for f, d, b, outcome, strong, _ in rows]
    summary = summarize(records, [k])
    for table in ROWS:
        for row in summary[table]:
            p, c = row["pass_at"][str(k)], row["correct_at"][str(k)]
            assert c is None or (p is not None and c <= p + 1e-12)
            assert row["correct"] + row["plausible"] + row["undecided"] == row["passed"]
    for fixer in {r.fixer for r in records}:
        mine = [s for s in stats_of(records) if s.fixer == fixer]
        value = correct_at_k(mine, k)
        assert value is None or 0.0 <= value <= 1.0


def test_every_record_of_a_case_with_a_strong_oracle_says_so() -> None:
    # The noop repair fails the suite oracle, so hls-diff never runs on it; its record still names the kind.
    case = load_case(Path(__file__).parents[1] / "data" / "hls_diff" / "clip" / "case.toml")
    root = Path(tempfile.mkdtemp(prefix="hwrepair-test-"))
    root.chmod(0o755)
    try:
        run = RunDir(root / "run")
        run.create()
        harness = Harness(run, OracleContext(root / "cache"))
        fixer = NoopFixer()
        made = Sample.make(case, case.bugs[0], fixer.name, fixer, 0, RepairProtocol.REPEATED, ProtocolConfig())
        result = execute(made, fixer, harness, LocalSandbox())
    finally:
        shutil.rmtree(root, ignore_errors=True)
    final = result.records[-1]
    assert final.outcome == "failed" and final.strong is None
    assert final.metrics["strong_oracle"] == "hls-diff"
    assert stats_of([final])[0].has_strong
