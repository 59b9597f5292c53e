"""Hand-made run directories for the report's tests: every record planted, so every statistic is known."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

from pytest_hwrepair.results.rundir import RunDir, SampleRecord

_keys = itertools.count()


def record(fixer: str = "a", case: str = "hls/demo/k", bug: str = "OOB-01", outcome: str = "passed",
           sha: str | None = "g", **extra: Any) -> SampleRecord:
    """A final sample record; `key` is unique unless given."""
    fields: dict[str, Any] = {
        "run": "planted", "key": f"k{next(_keys)}", "case": case, "bug": bug, "domain": "hls", "suite": "demo",
        "bug_type": bug.split("-")[0], "fixer": fixer, "protocol": "repeated", "sample": 0, "iteration": None,
        "outcome": outcome, "category": "pass" if outcome == "passed" else "test_fail", "patch_sha": sha,
        "loc": {"target": 100}, "label": fixer,
    }
    fields.update(extra)
    return SampleRecord(**fields)


def bug_samples(fixer: str, bug: str, spec: str, *, loc: int = 100, strong: list[bool | None] | None = None,
                case: str = "hls/demo/k") -> list[SampleRecord]:
    """Samples from a spec like 'Pg Pg Fa': P passed / F failed, then the candidate hash."""
    out = []
    for i, token in enumerate(spec.split()):
        outcome = "passed" if token[0] == "P" else "failed"
        s = strong[i] if strong is not None else None
        out.append(record(fixer, case, bug, outcome, token[1:], sample=i, loc={"target": loc}, strong=s))
    return out


def plant(path: Path, records: list[SampleRecord], settings: dict[str, Any] | None = None) -> Path:
    """A run directory holding these records and a run.json with these settings."""
    run = RunDir(path)
    run.create()
    run.append([SampleRecord.from_json({**r.to_json(), "run": path.name}) for r in records])
    run.write_run_json({"settings": {"protocol": "auto", "feedback": "L3", "samples": 5, **(settings or {})},
                        "fixers": {f: f for f in sorted({r.fixer for r in records})}, "versions": {"gcc": "test"},
                        "case_set": "planted", "cases": 1, "start": "2026-01-01T00:00:00+00:00",
                        "end": "2026-01-01T00:01:00+00:00"})
    return path


# Five bugs of fixer "a" (five samples each): pass@1 1.0, 0.6, 0.8, 0.2, 0.0 and multiplicity 0.2 .. 1.0.
# Bug classes by type: OOB, SHFT syntactic; INIT, USE, BUF semantic.
FIVE_BUGS = [
    ("OOB-01", "Pg Pg Pg Pg Pg", 50),
    ("SHFT-01", "Pg Pg Pg Fa Fa", 10),
    ("INIT-01", "Pg Pg Ph Ph Fa", 40),
    ("USE-01", "Pg Fa Fb Fc Fc", 20),
    ("BUF-01", "Fa Fb Fc Fd Fe", 30),
]
# The first bug's five passes: three confirmed by the strong oracle, one plausible, one undecided.
FIRST_STRONG: list[bool | None] = [True, True, True, False, None]


def five_bugs(fixer: str = "a") -> list[SampleRecord]:
    out: list[SampleRecord] = []
    for i, (bug, spec, loc) in enumerate(FIVE_BUGS):
        out += bug_samples(fixer, bug, spec, loc=loc, strong=FIRST_STRONG if i == 0 else None)
    return out


# Fixer "b" on the same bugs: pass@1 0.0, 0.4, 0.2, 0.6, 0.0.
B_SPECS = ["Fa Fa Fa Fa Fa", "Pg Pg Fa Fa Fa", "Pg Fa Fa Fa Fa", "Pg Pg Pg Fa Fa", "Fa Fa Fa Fa Fa"]


def fixer_b() -> list[SampleRecord]:
    out: list[SampleRecord] = []
    for (bug, _, loc), spec in zip(FIVE_BUGS, B_SPECS):
        out += bug_samples("b", bug, spec, loc=loc)
    return out


def llm_run(pytester: Any, monkeypatch: Any, answer: str = "mixed", samples: int = 4) -> Path:
    """A real pytest run of the openai fixer against the offline model server on the demo cases."""
    from .conftest import DUMP_C, DUMP_TOML, SUM_C, SUM_TOML, write_case
    from .fake_llm_server import ANSWERS, FakeLLM

    write_case(pytester.path, "sum", {"case.toml": SUM_TOML, "sum.c": SUM_C})
    write_case(pytester.path, "dump", {"case.toml": DUMP_TOML, "dump.c": DUMP_C})
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-offline-test")
    with FakeLLM(ANSWERS[answer](pytester.path / "cases")) as fake:
        result = pytester.runpytest("-p", "no:cacheprovider", "-p", "no:randomly", "cases", "--fixer=openai",
                                    "--fixer=noop", "--hwrepair-base-url", f"{fake.url}/v1", "--hwrepair-run", "llm",
                                    "--hwrepair-cache-dir", "cache", "--hwrepair-samples", str(samples))
    outcomes = result.parseoutcomes()
    assert outcomes.get("passed", 0) + outcomes.get("failed", 0) == 2 * 3 * samples, result.stdout.str()[-2000:]
    return Path(pytester.path / "llm")
