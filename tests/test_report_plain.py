"""Plain records are folded a chunk at a time; what they count must be what the record-by-record way counts.

`plain_columns` (msgspec decoding with the exact types) takes a chunk of lines when every line is a plain record,
and `Tally.fold_plain` folds them a column at a time. Each test here scans the same lines both ways (the
record-by-record way forced by a `plain_columns` that accepts nothing) and compares everything a scan keeps: the
summary, each bug's tally with its first record, the key hashes, and the error a bad record raises.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_hwrepair.report import check, stream
from pytest_hwrepair.scoreboard import summary_of

BASE: dict[str, Any] = {
    "schema": 1, "run": "r", "key": "k0", "case": "hls/s/k", "bug": "B-01", "domain": "hls", "suite": "s",
    "bug_type": "B", "fixer": "f", "label": "f", "protocol": "repeated", "sample": 0, "iteration": None,
    "outcome": "passed", "category": "pass", "patch_sha": "p", "loc": {"target": 40},
    "tokens": {"input": 3, "output": 1, "cache_read": 0, "cache_write": 0}, "cost_usd": 0.25,
    "durations": {"fix": 0.1}, "speedup": None, "strong": True, "cached": False, "final": True, "exec_id": "x",
    "nodeid": "", "bug_class": None, "summary": "", "artifact": None, "metrics": {}, "stop_reason": None, "time": "",
}

# Values that a plain record must not take for granted: each is either refused by the fast way or read by it
# exactly as the record-by-record way reads it.
ODD: dict[str, list[Any]] = {
    "sample": [True, 1.0, None, "1", 2**63, 2**64 + 1, -1],
    "iteration": [0, 2, False, 1.5],
    "outcome": ["passed", "failed", "error", "skipped", "maybe", 1, None],
    "category": ["pass", "test_fail", "perf_fail", "compile_fail", "nonsense", None],
    "protocol": ["repeated", "iterative", "other", 3],
    "strong": [True, False, None, 1, 0, "yes"],
    "final": [True, False, 1, None],
    "cached": [True, False, 1, None, "x"],
    "cost_usd": [0, 1, 0.1, 1e308, True, "1", None, 2**70, -0.0],
    "speedup": [None, 0, 0.5, 1.5, 2**66, True, "2"],
    "loc": [{}, {"target": 3}, {"target": True}, {"target": 1.5}, {"target": 2**65}, {"other": 2}, [], None],
    "tokens": [{}, {"input": 1}, {"input": 1.5}, {"input": True}, {"input": 2**70}, {"input": 1, "extra": 2},
               {"input": "x"}, {"input": None}, [1]],
    "metrics": [{}, {"strong_oracle": True}, {"retries": {"429": 2}}, {"retries": {"429": 2.5}},
                {"retries": {"429": 2**70}}, {"retries": {}}, {"repo": {"tier": "t"}}, {"repo": None},
                {"cuda_category": 10**20}, {"build": "passed", "not_judged": True}, {"cuda_stage": "anti_cheat"},
                {"retries": {"429": "3"}}, None, [1]],
    "patch_sha": [None, "a", "b", 5],
    "label": ["", "f", None],
    "exec_id": ["", "x", "y", None],
    "bug_class": [None, "semantic", 1],
    "domain": ["hls", "rtl", "cuda"],
    "fixer": ["f", "g", 7],
    "run": ["r", "s"],
    "summary": ["", None],
    "stop_reason": [None, "solved", 1],
}
FIELDS = sorted(ODD)


def _record(i: int, bug: int, key: int, changes: list[tuple[str, int]], drop: list[str]) -> dict[str, Any]:
    r = {**BASE, "key": f"k{key:03d}", "bug": f"B-{bug:02d}", "sample": i}
    for name, pick in changes:
        r[name] = ODD[name][pick % len(ODD[name])]
    for name in drop:
        r.pop(name, None)
    return r


def _scan(path: Path, fast: bool, monkeypatch: pytest.MonkeyPatch) -> Any:
    with monkeypatch.context() as m:
        if not fast:
            m.setattr(stream, "plain_columns", lambda lines: None)
        try:
            part = stream._scan_part(path, 0, None)
        except Exception as exc:  # the same error, raised at the same record
            return f"{type(exc).__name__}: {exc}"
    bugs = {key: (t.first_key, t.first, t.stats(key[0])) for key, t in part.tally.bugs.items()}
    return (summary_of(part.tally, (1, 2)), bugs, part.hashes, part.decided, part.execs, part.staged,
            [v["key"] for v, _ in part.pending], [r.key for r in part.tally.kept], part.tally.finals)


CHANGE = st.tuples(st.sampled_from(FIELDS), st.integers(0, 20))
LINE = st.tuples(st.integers(0, 3), st.integers(0, 9), st.lists(CHANGE, max_size=3),
                 st.lists(st.sampled_from([*FIELDS, "key", "case", "durations"]), max_size=1), st.booleans())


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(LINE, max_size=30))
def test_any_mix_of_records_folds_as_the_record_by_record_way(tmp_path_factory: pytest.TempPathFactory,
                                                             monkeypatch: pytest.MonkeyPatch,
                                                             lines: list[tuple[Any, ...]]) -> None:
    path = tmp_path_factory.mktemp("plain") / "samples.jsonl"
    text = []
    for i, (bug, key, changes, drop, odd) in enumerate(lines):
        changes = changes if odd else []  # most records plain, so that plain stretches sit between odd ones
        text.append(json.dumps(_record(i, bug, key, changes, drop if odd else []), sort_keys=odd))
    path.write_text("".join(line + "\n" for line in text), encoding="utf-8")
    assert _scan(path, True, monkeypatch) == _scan(path, False, monkeypatch)


@pytest.mark.parametrize(("name", "value"), [(name, value) for name in FIELDS for value in ODD[name]])
def test_a_record_with_an_odd_value_folds_as_the_record_by_record_way(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                     name: str, value: Any) -> None:
    records = [_record(i, i % 2, i, [], []) for i in range(6)]
    records[3][name] = value
    path = tmp_path / "samples.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    assert _scan(path, True, monkeypatch) == _scan(path, False, monkeypatch)


def test_the_usual_record_is_plain_and_odd_lines_are_not() -> None:
    usual = json.dumps(BASE).encode()
    assert check.plain_columns([usual, usual]) is not None
    for line in (b'{"torn": ', b"[1, 2]", b"", json.dumps({**BASE, "sample": True}).encode(),
                 json.dumps({**BASE, "final": False}).encode(), usual + b" " + usual,
                 json.dumps({**BASE, "case": "\ud800"}).encode(), usual.replace(b'"s"', b'"\xff"')):
        assert check.plain_columns([usual, line]) is None, line


def test_plain_columns_hold_the_values_orjson_reads() -> None:
    record = {**BASE, "metrics": {"retries": {"429": 3}, "note": [1, 2**70, {"a": None}]}, "cost_usd": 2**40,
              "tokens": {"input": 7, "output": 2}, "loc": {"target": 12, "other": 3}, "extra": {"ignored": True}}
    cols = check.plain_columns([json.dumps(record).encode()])
    assert cols is not None
    read = {name: col[0] for name, col in cols.items()}
    assert read == {name: record[name] for name in check.ROW}
    assert all(type(read[name]) is type(record[name]) for name in check.ROW)
    assert read["metrics"]["note"][1] == float(2**70)  # orjson reads an integer beyond 64 bits as a float


def test_a_record_without_an_outcome_is_skipped_like_any_other_incomplete_record(tmp_path: Path) -> None:
    """Regression: the fast check of `record_view` looked the outcome up without asking whether it was there."""
    d = {k: v for k, v in BASE.items() if k != "outcome"}
    assert check.record_view(d) is None
