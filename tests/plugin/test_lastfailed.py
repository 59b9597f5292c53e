"""CI behaviour of runs: --lf / --ff over sample node ids, honest retry counts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_hwrepair.controller import summarize
from pytest_hwrepair.results.rundir import SampleRecord

from ..fake_llm_server import FakeLLM
from ..fixers.llm.test_plugin import project, run, summary  # noqa: F401  (a fixture, used by name)

WORKERS = pytest.mark.parametrize("workers", ["0", "2"])
FAILING = ("cases/hls/demo/sum/case.toml::MLU-01[noop-s0]", "cases/hls/demo/sum/case.toml::SHFT-01[noop-s0]",
           "cases/hls/demo/dump/case.toml::USE-01[noop-s0]")


def cached_run(pt: pytest.Pytester, workers: str, *args: str) -> pytest.RunResult:
    """A run with pytest's cache plugin on (the default), as a user's rerun has it."""
    return pt.runpytest_subprocess("-p", "no:randomly", "-n", workers, "-v", "cases", *args)


def last_failed(pt: pytest.Pytester) -> dict[str, bool]:
    data: dict[str, bool] = json.loads((pt.path / ".pytest_cache" / "v" / "cache" / "lastfailed").read_text())
    return data


@WORKERS
def test_lf_reruns_only_the_samples_that_failed(demo_pytester: pytest.Pytester, workers: str) -> None:
    first = cached_run(demo_pytester, workers, "--fixer=noop", "--fixer=reference")
    first.assert_outcomes(failed=3, passed=3)
    assert set(last_failed(demo_pytester)) == set(FAILING)
    again = cached_run(demo_pytester, workers, "--fixer=noop", "--fixer=reference", "--lf")
    # Under xdist the workers deselect, and the controller does not count what they left out.
    again.assert_outcomes(failed=3, passed=0, deselected=3 if workers == "0" else 0)
    out = again.stdout.str()
    assert all(nodeid in out for nodeid in FAILING) and "[reference-s0] PASSED" not in out


def test_lf_keeps_the_failed_samples_beside_failed_ordinary_tests(demo_pytester: pytest.Pytester) -> None:
    demo_pytester.makepyfile(test_plain="def test_fails():\n    assert False\n\n\ndef test_passes():\n    pass\n")
    args = ("test_plain.py", "--fixer=noop", "--fixer=reference")
    cached_run(demo_pytester, "0", *args).assert_outcomes(failed=4, passed=4)
    again = cached_run(demo_pytester, "0", *args, "--lf")
    again.assert_outcomes(failed=4, passed=0)
    assert all(nodeid in again.stdout.str() for nodeid in FAILING)


def test_ff_runs_the_failed_samples_first(demo_pytester: pytest.Pytester) -> None:
    cached_run(demo_pytester, "0", "--fixer=noop", "--fixer=reference").assert_outcomes(failed=3, passed=3)
    again = cached_run(demo_pytester, "0", "--fixer=noop", "--fixer=reference", "--ff")
    again.assert_outcomes(failed=3, passed=3)
    ran = [line.split(" ")[0] for line in again.stdout.lines if line.startswith("cases/") and "::" in line]
    assert set(ran[:3]) == set(FAILING), ran
    again.stdout.fnmatch_lines(["hwrepair: rerunning the 3 sample(s) that failed last time first"])


@WORKERS
def test_a_repaired_sample_leaves_the_last_failed_list(demo_pytester: pytest.Pytester, workers: str) -> None:
    cached_run(demo_pytester, workers, "--fixer=f=noop").assert_outcomes(failed=3)
    assert len(last_failed(demo_pytester)) == 3
    # The same node ids (label f) now pass: the cache must forget them, or --lf reruns fixed samples forever.
    cached_run(demo_pytester, workers, "--fixer=f=reference", "--lf").assert_outcomes(passed=3)
    assert last_failed(demo_pytester) == {}


@WORKERS
def test_retry_counts_are_the_retries_made(pytester: pytest.Pytester, project: FakeLLM,  # noqa: F811 (a fixture)
                                           workers: str) -> None:
    project.script(*["500"] * 8)  # each of 4 samples: a failure, one retry, a failure, given up
    result = run(pytester, project, workers, "--hwrepair-max-retries", "1", "--hwrepair-max-concurrency", "1")
    result.assert_outcomes(errors=4)
    assert summary(pytester)["retries"] == {"500": 4}
    result.stdout.fnmatch_lines(["api retries: 500 4"])


def _attempt(iteration: int, outcome: str, retries: dict[str, int], *, final: bool) -> SampleRecord:
    return SampleRecord(run="r", key="k", case="hls/d/c", bug="SHFT-01", domain="hls", suite="d", bug_type="SHFT",
                        fixer="claude", protocol="iterative", sample=0, iteration=iteration, outcome=outcome,
                        category="pass" if outcome == "passed" else "test_fail", final=final, exec_id="e",
                        metrics={"retries": retries})


def test_retries_of_every_attempt_of_a_trajectory_count() -> None:
    records = [_attempt(0, "failed", {"429": 2}, final=False), _attempt(1, "passed", {"529": 1}, final=True)]
    assert summarize(records, [1])["retries"] == {"429": 2, "529": 1}


def test_lastfailed_module_needs_no_cache_plugin(demo_pytester: pytest.Pytester) -> None:
    result = demo_pytester.runpytest_subprocess("-p", "no:randomly", "-p", "no:cacheprovider", "cases",
                                                "--fixer=noop")
    result.assert_outcomes(failed=3)
    assert not Path(demo_pytester.path / ".pytest_cache").exists()
