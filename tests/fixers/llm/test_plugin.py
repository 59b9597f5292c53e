"""End to end through pytest (at -n0 and -n 2): a tiny HLS case repaired by the model fixers served from a
loopback server that answers with the reference fix."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from ...fake_llm_server import FakeLLM, echo_answer, reference_answer

KEY = "sk-test-9c4e2b7a1f"
CASE = """\
schema = 1
id = "tiny"
domain = "hls"
suite = "t"
title = "sum of four numbers; prints whether an API key reached it"
sources = ["add.c"]
target = "add.c"

[oracle]
kind = "exit-code"
build = "gcc -O0 -std=c99 add.c -o prog"
run = "./prog"
timeout = 20
stdout = '^key=none$'

[[bug]]
id = "INIT-01"
type = "INIT"
find = "int s = 0;"
replace = "int s = 1;"

[[bug]]
id = "USE-01"
type = "USE"
find = "s += a[i];"
replace = "s += a[0];"
"""
SOURCE = """\
#include <stdio.h>
#include <stdlib.h>

static int sum(const int *a, int n) {
    int s = 0;
    for (int i = 0; i < n; i++)
        s += a[i];
    return s;
}

int main(void) {
    const int a[4] = {1, 2, 3, 4};
    const char *key = getenv("OPENAI_API_KEY");
    printf("key=%s\\n", key ? key : "none");
    printf("sum=%d\\n", sum(a, 4));
    return sum(a, 4) == 10 ? 0 : 1;
}
"""
WORKERS = pytest.mark.parametrize("workers", ["0", "2"])


def tiny_project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    """The tiny case under `cases/`, API keys set, no base URL from the environment."""
    case = pytester.path / "cases" / "hls" / "t" / "tiny"
    case.mkdir(parents=True)
    (case / "case.toml").write_text(CASE)
    (case / "add.c").write_text(SOURCE)
    for name in ("ANTHROPIC_BASE_URL", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeLLM]:
    tiny_project(pytester, monkeypatch)
    with FakeLLM(reference_answer(pytester.path / "cases")) as fake:
        yield fake


def run(pytester: pytest.Pytester, fake: FakeLLM, workers: str, *args: str, fixer: str = "openai",
        run_dir: str = "run") -> pytest.RunResult:
    url = fake.url + ("/v1" if fixer.startswith("openai") else "")
    return pytester.runpytest("-n", workers, f"--fixer={fixer}", "--hwrepair-base-url", url, "--hwrepair-run",
                              run_dir, "--hwrepair-cache-dir", "cache", "--hwrepair-samples", "2",
                              "--hwrepair-retry-delay", "0.01", "-p", "no:cacheprovider", "-rsE", *args, "cases")


def records(pytester: pytest.Pytester, run_dir: str = "run") -> list[dict[str, Any]]:
    lines = (pytester.path / run_dir / "samples.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines]


def summary(pytester: pytest.Pytester, run_dir: str = "run") -> dict[str, Any]:
    data: dict[str, Any] = json.loads((pytester.path / run_dir / "summary.json").read_text())
    return data


@WORKERS
def test_openai_fixer_repairs_end_to_end_and_reports_tokens_and_cost(pytester: pytest.Pytester, project: FakeLLM,
                                                                     workers: str) -> None:
    result = run(pytester, project, workers)
    result.assert_outcomes(passed=4)
    assert len(project.model_requests()) == 4  # two samples of two bugs: never collapsed into one answer
    recs = records(pytester)
    assert {r["fixer"] for r in recs} == {"openai:gpt-4.1"} and not any(r["cached"] for r in recs)
    assert all(r["tokens"]["input"] == 1000 and r["cost_usd"] == pytest.approx(0.0036) for r in recs)
    (cost,) = summary(pytester)["costs"]
    assert cost["cost_usd"] == pytest.approx(4 * 0.0036) and cost["tokens"]["output"] == 800
    result.stdout.fnmatch_lines(["cost: openai:gpt-4.1 $0.0144 (4000 in, 800 out, 0 cached)"])
    assert KEY not in result.stdout.str() + result.stderr.str()


@WORKERS
def test_a_rerun_with_the_cache_makes_no_request(pytester: pytest.Pytester, project: FakeLLM, workers: str) -> None:
    run(pytester, project, workers).assert_outcomes(passed=4)
    run(pytester, project, workers, run_dir="again").assert_outcomes(passed=4)
    assert len(project.model_requests()) == 4
    assert all(r["cached"] and r["cost_usd"] == 0 for r in records(pytester, "again"))
    assert summary(pytester, "again")["costs"][0]["cached"] == 4


@WORKERS
def test_cost_limit_skips_the_remaining_items_and_keeps_finished_ones(pytester: pytest.Pytester,
                                                                       project: FakeLLM, workers: str) -> None:
    result = run(pytester, project, workers, "--hwrepair-cost-limit", "0.007", "--hwrepair-max-concurrency", "1")
    result.assert_outcomes(passed=2, skipped=2)
    result.stdout.fnmatch_lines(["*cost limit reached: $0.0072 spent of $0.0070*"])
    assert len(project.model_requests()) == 2 and len(records(pytester)) == 2


@WORKERS
def test_retries_show_in_the_warnings_summary_and_the_run_summary(pytester: pytest.Pytester, project: FakeLLM,
                                                                  workers: str) -> None:
    project.script("429:retry-after-ms=20", "529", "drop")
    result = run(pytester, project, workers, "--hwrepair-max-concurrency", "1")
    result.assert_outcomes(passed=4)
    result.stdout.fnmatch_lines(["*warnings summary*", "*RetryWarning: openai:gpt-4.1: HTTP 429, retry 1 of 8*"])
    assert summary(pytester)["retries"] == {"429": 1, "529": 1, "connection": 1}


@WORKERS
def test_an_outage_beyond_the_retry_budget_gives_errors_that_a_rerun_retries(pytester: pytest.Pytester,
                                                                             project: FakeLLM, workers: str) -> None:
    project.script(*["500"] * 8)
    first = run(pytester, project, workers, "--hwrepair-max-retries", "1", "--hwrepair-max-concurrency", "1")
    first.assert_outcomes(errors=4)
    first.stdout.fnmatch_lines(["*gave up after 1 retries (last: HTTP 500)*"])
    again = run(pytester, project, workers, "--hwrepair-retry-errors")
    again.assert_outcomes(passed=4)


@WORKERS
def test_an_answer_without_code_is_a_parse_failure_with_the_response_kept(pytester: pytest.Pytester,
                                                                          project: FakeLLM, workers: str) -> None:
    project.answer = lambda provider, body: "The accumulator should start at zero."
    result = run(pytester, project, workers, "--hwrepair-samples", "1", "-k", "INIT")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*[[]parse_fail[]] no code block or file could be found*"])
    (rec,) = records(pytester)
    kept = pytester.path / "run" / "artifacts" / rec["artifact"] / "response.txt"
    assert rec["category"] == "parse_fail" and kept.read_text() == "The accumulator should start at zero."


@WORKERS
def test_batch_mode_resumes_the_same_batch_on_a_rerun(pytester: pytest.Pytester, project: FakeLLM,
                                                      workers: str) -> None:
    project.batch_hold = True
    args = ("--hwrepair-batch", "--hwrepair-batch-poll", "0.05", "--hwrepair-batch-wait", "0.5")
    first = run(pytester, project, workers, *args, fixer="claude")
    first.assert_outcomes(skipped=4)
    first.stdout.fnmatch_lines(["*batch msgbatch_* is still running*rerun the same command*"])
    project.batch_hold = False
    again = run(pytester, project, workers, *args, fixer="claude")
    again.assert_outcomes(passed=4)
    assert len(project.batches) == 1 and project.model_requests() == []
    recs = records(pytester)
    assert all(r["cost_usd"] == pytest.approx(0.003) for r in recs)  # half of 0.006


@WORKERS
def test_max_concurrency_holds_across_workers(pytester: pytest.Pytester, project: FakeLLM, workers: str) -> None:
    project.delay = 0.3
    run(pytester, project, workers, "--hwrepair-max-concurrency", "1").assert_outcomes(passed=4)
    assert len(project.model_requests()) == 4 and project.peak == 1


@WORKERS
def test_iterative_trajectories_send_the_verdict_back_as_feedback(pytester: pytest.Pytester, project: FakeLLM,
                                                                  workers: str) -> None:
    reference = reference_answer(pytester.path / "cases")
    project.answer = lambda p, body: reference(p, body) if len(body["messages"]) > 1 else echo_answer(p, body)
    result = run(pytester, project, workers, "--hwrepair-protocol", "iterative", "--hwrepair-iterations", "3",
                 "-k", "INIT")
    result.assert_outcomes(passed=2)
    assert [(r["iteration"], r["category"]) for r in records(pytester)] == [(0, "test_fail"), (1, "pass")] * 2
    second = [r["body"]["messages"] for r in project.model_requests() if len(r["body"]["messages"]) > 1]
    assert len(second) == 2 and all(m[1]["role"] == "assistant" for m in second)
    assert all("did not pass" in m[2]["content"] and "self-check failed" in m[2]["content"] for m in second)


@WORKERS
def test_a_missing_key_is_a_usage_error(pytester: pytest.Pytester, project: FakeLLM, workers: str,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY")
    result = pytester.runpytest("-n", workers, "--fixer=claude", "cases")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--fixer claude: no API key: set ANTHROPIC_API_KEY*"])
    assert project.requests == []


def test_two_endpoints_are_two_fixers_never_one(pytester: pytest.Pytester, project: FakeLLM) -> None:
    with FakeLLM(reference_answer(pytester.path / "cases")) as other:
        run(pytester, project, "0", "--hwrepair-samples", "1", run_dir="a").assert_outcomes(passed=2)
        # Resuming run a against another server would put two fixers under one label: refused in one line.
        refused = run(pytester, other, "0", "--hwrepair-samples", "1", run_dir="a")
        assert refused.ret == pytest.ExitCode.USAGE_ERROR and other.requests == []
        refused.stderr.fnmatch_lines([f"*--hwrepair-run a: fixer 'openai' was run there with other settings "
                                      f"(endpoint: '{project.url}/v1' then, '{other.url}/v1' now)*"])
        run(pytester, other, "0", "--hwrepair-samples", "1", run_dir="b").assert_outcomes(passed=2)
    report = pytester.run(sys.executable, "-m", "pytest_hwrepair.cli", "report", "a", "b")
    assert report.ret == 0, report.stderr.str()
    report.stdout.fnmatch_lines(["*a and b ran openai:gpt-4.1 with different endpoint: the samples of each of the 2 "
                                 "run directories are kept apart*"])
    rows = [line.split()[0] for line in report.stdout.lines if "openai:gpt-4.1" in line and " hls " in line]
    assert set(rows) == {"a:openai:gpt-4.1", "b:openai:gpt-4.1"}  # in every table: two fixers, never one


def test_a_model_without_a_price_is_one_notice_per_run(pytester: pytest.Pytester, project: FakeLLM) -> None:
    result = run(pytester, project, "2", "--hwrepair-samples", "1", fixer="openai:my-local-model")
    result.assert_outcomes(passed=2)
    said = [line for line in result.outlines + result.errlines if "no price known" in line]
    assert said == ["hwrepair: openai:my-local-model: no price known for this model; its cost is reported as $0 "
                    "(give one with --hwrepair-prices FILE)"]
