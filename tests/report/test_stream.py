"""The streaming report counts exactly what the in-memory merge of the records counts.

`hwrepair report` folds samples.jsonl into tallies without holding the records; `Merged.records` still
reads them the old way (finished samples by key, the first run holding a decided verdict). Every
case here checks that the two agree, on the lines a report must get right: reruns of a key, several
run directories holding one key, iterations before and after their final record, an interrupted
trajectory, lines that are not records, colliding key hashes and a file split between processes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_hwrepair.controller import summarize, summary_of
from pytest_hwrepair.report import load
from pytest_hwrepair.report.load import RecordError, load_runs, merge

BASE: dict[str, Any] = {
    "schema": 1, "run": "r", "domain": "hls", "suite": "s", "bug_type": "SHFT", "fixer": "f", "label": "f",
    "protocol": "repeated", "iteration": None, "loc": {"target": 40}, "cost_usd": 0.25, "speedup": None,
    "cached": False, "final": True, "nodeid": "", "bug_class": None, "summary": "", "artifact": None,
    "metrics": {}, "stop_reason": None, "time": "", "tokens": {"input": 3, "output": 1, "cache_read": 0,
                                                               "cache_write": 0},
}


def rec(key: str, outcome: str = "passed", **over: Any) -> dict[str, Any]:
    bug = over.pop("bug", "SHFT-01")
    r = {**BASE, "key": key, "exec_id": over.pop("exec_id", f"x-{key}"), "case": over.pop("case", "hls/s/k"),
         "bug": bug, "sample": over.pop("sample", 0), "outcome": outcome,
         "category": "pass" if outcome == "passed" else "test_fail" if outcome == "failed" else "infra_error",
         "patch_sha": over.pop("patch_sha", key[:4]), "strong": outcome == "passed" if outcome != "error" else None}
    r.update(over)
    return r


def write(run: Path, lines: list[Any]) -> Path:
    run.mkdir(parents=True, exist_ok=True)
    with (run / "samples.jsonl").open("w", encoding="utf-8") as fh:
        for line in lines:
            fh.write(line if isinstance(line, str) else json.dumps(line, sort_keys=True))
            fh.write("\n")
    return run


def agree(runs: list[Path], ks: tuple[int, ...] = (1, 2)) -> dict[str, Any]:
    """The streamed summary, checked against the summary of the records merged in memory."""
    merged = merge(load_runs(runs))
    streamed = summary_of(merged.tally, ks)
    assert streamed == summarize(list(merged.records), ks)
    assert merged.samples == sum(1 for r in merged.records if r.final)
    return streamed


def bugs(summary: dict[str, Any]) -> dict[tuple[str, str], tuple[int, int]]:
    return {(b["case"], b["bug"]): (b["n"], b["c"]) for b in summary["bugs"]}


def test_a_rerun_replaces_the_earlier_verdict_of_its_key(tmp_path: Path) -> None:
    run = write(tmp_path / "a", [rec("k1", "error"), rec("k2", "failed"), rec("k1", "passed", exec_id="x-k1-2")])
    s = agree([run])
    assert s["bugs"][0]["n"] == 2 and s["bugs"][0]["c"] == 1 and s["bugs"][0]["errors"] == 0


def test_a_key_in_two_runs_counts_once_from_the_first_decided(tmp_path: Path) -> None:
    one = write(tmp_path / "one", [rec("k1", "error"), rec("k2", "failed")])
    two = write(tmp_path / "two", [rec("k1", "passed"), rec("k2", "passed"), rec("k3", "failed")])
    merged = merge(load_runs([one, two]))
    assert merged.duplicates == 2 and merged.samples == 3
    s = agree([one, two])
    assert s["bugs"][0]["n"] == 3 and s["bugs"][0]["c"] == 1  # k1 from two (decided), k2 from one (first)


def test_iterations_count_with_their_final_record_only(tmp_path: Path) -> None:
    it = {"protocol": "iterative"}
    lines = [
        rec("t1", "failed", final=False, iteration=0, **it), rec("t1", "passed", iteration=1, **it),
        rec("t2", "failed", iteration=1, **it), rec("t2", "failed", final=False, iteration=0, **it),  # after final
        rec("t3", "failed", final=False, iteration=0, **it),  # interrupted: never finished
    ]
    s = agree([write(tmp_path / "a", lines)])
    assert s["iterative"][0]["trajectories"] == 2 and s["bugs"][0]["n"] == 2


def test_lines_that_are_not_records_are_skipped_and_a_bad_type_is_named(tmp_path: Path) -> None:
    good = write(tmp_path / "a", [rec("k1"), '{"torn": ', "[1, 2]", rec("k2", "failed")])
    (good / "samples.jsonl").open("ab").write(b'{"key": "\xff\xfe"}\n')
    assert bugs(agree([good])) == {("hls/s/k", "SHFT-01"): (2, 1)}
    bad = write(tmp_path / "b", [rec("k1"), rec("k2", sample="two")])
    with pytest.raises(RecordError, match=r"samples.jsonl: record 'k2': field 'sample' is 'two', expected int"):
        load_runs([bad])


def test_colliding_key_hashes_are_told_apart_on_the_exact_keys(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(load, "key_hash", lambda key: 7)  # every key hashes alike
    one = write(tmp_path / "one", [rec("k1", "error"), rec("k2", "failed"), rec("k1", "passed", exec_id="again")])
    two = write(tmp_path / "two", [rec("k2", "passed"), rec("k3", "passed")])
    merged = merge(load_runs([one, two]))
    assert merged.duplicates == 1 and merged.samples == 3
    assert bugs(agree([one, two])) == {("hls/s/k", "SHFT-01"): (3, 2)}


OUTCOME = st.sampled_from(["passed", "failed", "error", "skipped"])
LINE = st.tuples(st.integers(0, 5), OUTCOME, st.booleans(), st.integers(0, 2), st.booleans())
DOMAINS = ("hls", "rtl", "cuda")


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(runs=st.lists(st.lists(LINE, max_size=14), min_size=1, max_size=3))
def test_any_mix_of_runs_streams_to_the_in_memory_summary(tmp_path_factory: pytest.TempPathFactory,
                                                          runs: list[list[tuple[Any, ...]]]) -> None:
    root = tmp_path_factory.mktemp("mix")
    paths = []
    for n, lines in enumerate(runs):
        recs = []
        for i, (key, outcome, final, attempt, iterative) in enumerate(lines):
            domain = DOMAINS[key % 3]  # a bug's records share its case's domain
            extra: dict[str, Any] = {"protocol": "iterative", "iteration": attempt} if iterative else {}
            if domain == "cuda":
                extra["metrics"] = {"build": "passed", "retries": {"429": attempt}}
            recs.append(rec(f"k{key}", outcome, final=final or not iterative, exec_id=f"x{key}-{i % 2}",
                            domain=domain, bug=f"B{key % 3}", sample=key, run=f"r{n}", cost_usd=0.1 * (i + 1),
                            **extra))
        paths.append(write(root / f"r{n}", recs))
    agree(paths)
