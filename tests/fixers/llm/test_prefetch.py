"""Every sample's first model request is made ahead, up to --hwrepair-max-connections in flight across the run
whatever -n is; it is the request the item would have made (one request per sample, the same records), never
for an item whose fixer is not the plugin's or that resumes; a cost limit stops it; a kill loses no answer."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ...fake_llm_server import FakeLLM, reference_answer
from ...fixers.llm.test_plugin import KEY, tiny_project

OVERRIDE = """
import pytest
from pytest_hwrepair.fixers import ReferenceFixer

@pytest.fixture
def hwrepair_fixer(hwrepair_case):
    case = hwrepair_case.case
    return ReferenceFixer(lambda task: {n: case.files[n] for n in case.model.sources})
"""


class Observed:
    """The reference answer, noting for each request how many records the run directory held when it came."""

    def __init__(self, root: Path) -> None:
        self.inner = reference_answer(root / "cases")
        self.samples = root / "run" / "samples.jsonl"
        self.seen: list[int] = []
        self.lock = threading.Lock()

    def __call__(self, provider: str, body: dict[str, Any]) -> str:
        with self.lock:
            text = self.samples.read_text() if self.samples.exists() else ""
            self.seen.append(len(text.splitlines()))
        return self.inner(provider, body)


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[FakeLLM, Observed]]:
    tiny_project(pytester, monkeypatch)
    observed = Observed(pytester.path)
    with FakeLLM(observed) as fake:
        yield fake, observed


def run(pytester: pytest.Pytester, fake: FakeLLM, *args: str, run_dir: str = "run") -> pytest.RunResult:
    return pytester.runpytest("-n", "0", "--fixer=openai", "--hwrepair-base-url", fake.url + "/v1", "--hwrepair-run",
                              run_dir, "--hwrepair-cache-dir", "cache", "--hwrepair-samples", "3", "-p",
                              "no:cacheprovider", "-p", "no:randomly", *args, "cases")


def verdicts(pytester: pytest.Pytester, run_dir: str = "run") -> list[tuple[str, int, str]]:
    lines = (pytester.path / run_dir / "samples.jsonl").read_text().splitlines()
    return sorted((r["bug"], r["sample"], r["category"]) for r in map(json.loads, lines))


TIMINGS = ("durations", "time", "run", "exec_id")


def same_records(pytester: pytest.Pytester, run_dir: str) -> list[dict[str, Any]]:
    """The run's records without what only times the run (durations, dates, run and execution ids) or follows
    the schedule (whether a worker had judged the same candidate before: `metrics.verdict_reused`)."""
    lines = (pytester.path / run_dir / "samples.jsonl").read_text().splitlines()
    out = []
    for r in map(json.loads, lines):
        kept = {k: v for k, v in r.items() if k not in TIMINGS}
        kept["metrics"] = {k: v for k, v in kept.get("metrics", {}).items() if k != "verdict_reused"}
        out.append(kept)
    return sorted(out, key=lambda r: (r["bug"], r["sample"]))


@pytest.mark.parametrize("workers", ["0", "2"])
def test_requests_overlap_up_to_the_limit_whatever_the_worker_count(pytester: pytest.Pytester,
                                                                    project: tuple[FakeLLM, Observed],
                                                                    workers: str) -> None:
    fake, _ = project
    fake.delay = 0.6
    result = run(pytester, fake, "--hwrepair-samples", "4", "--hwrepair-max-connections", "3", "-n", workers)
    result.assert_outcomes(passed=8)
    assert len(fake.model_requests()) == 8 and fake.peak == 3  # more than the workers, never above the limit


def test_records_are_the_same_with_and_without_requests_made_ahead(pytester: pytest.Pytester,
                                                                    project: tuple[FakeLLM, Observed]) -> None:
    fake, observed = project
    run(pytester, fake, "--hwrepair-no-cache", "-n", "2").assert_outcomes(passed=6)
    assert len(fake.model_requests()) == 6  # one request per sample: each answer was taken by its own item
    assert any(seen < k for k, seen in enumerate(observed.seen))  # asked before the items ahead had records
    run(pytester, fake, "--hwrepair-no-cache", "--hwrepair-no-prefetch", run_dir="run2").assert_outcomes(passed=6)
    run(pytester, fake, "--hwrepair-no-cache", "--hwrepair-max-connections", "1",
        run_dir="run3").assert_outcomes(passed=6)
    assert len(fake.model_requests()) == 18
    ahead = same_records(pytester, "run")
    assert ahead == same_records(pytester, "run2") == same_records(pytester, "run3")
    assert all(not r["cached"] and r["cost_usd"] > 0 for r in ahead)


def test_turned_off_each_request_waits_for_the_item_before(pytester: pytest.Pytester,
                                                          project: tuple[FakeLLM, Observed]) -> None:
    fake, observed = project
    run(pytester, fake, "--hwrepair-no-cache", "--hwrepair-no-verdict-cache",
        "--hwrepair-no-prefetch").assert_outcomes(passed=6)
    assert observed.seen == [0, 1, 2, 3, 4, 5]


def test_the_cost_limit_stops_requests_made_ahead(pytester: pytest.Pytester,
                                                  project: tuple[FakeLLM, Observed]) -> None:
    fake, _ = project
    result = run(pytester, fake, "--hwrepair-cost-limit", "0.007", "--hwrepair-max-connections", "1", "-n", "2")
    result.assert_outcomes(passed=2, skipped=4)
    assert len(fake.model_requests()) == 2  # 0.0036 USD each: the third would start above the limit
    again = run(pytester, fake)  # resumed without a limit: the paid answers are not asked again
    again.assert_outcomes(passed=6)
    assert len(fake.model_requests()) == 6


def test_a_killed_run_loses_no_answer_it_was_sent(pytester: pytest.Pytester,
                                                 project: tuple[FakeLLM, Observed]) -> None:
    fake, observed = project
    gate, answered = threading.Event(), threading.Semaphore(0)

    def answer(provider: str, body: dict[str, Any]) -> str:
        with observed.lock:
            n = len(observed.seen)
        if n >= 3:
            gate.wait(60)  # the fourth request on hangs until the run has been killed
        try:
            return observed(provider, body)
        finally:
            answered.release()

    fake.answer = answer
    args = ["-n", "0", "--fixer=openai", "--hwrepair-base-url", fake.url + "/v1", "--hwrepair-run", "run",
            "--hwrepair-cache-dir", "cache", "--hwrepair-samples", "3", "--hwrepair-no-cache", "-p",
            "no:cacheprovider", "-p", "no:randomly", "cases"]
    responses = pytester.path / "cache" / "responses" / "openai"
    proc = pytester.popen([sys.executable, "-m", "pytest", *args], stdin=subprocess.DEVNULL)
    try:
        for _ in range(3):
            assert answered.acquire(timeout=60)
        deadline = time.monotonic() + 30
        while len(list(responses.rglob("*.json"))) < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.3)  # the fourth to sixth requests reach the server
    finally:
        proc.kill()
        proc.wait()
        gate.set()
    assert len(list(responses.rglob("*.json"))) == 3
    asked = len(fake.model_requests())
    assert asked == 6  # every first request was in flight; three were answered
    run(pytester, fake, "--hwrepair-no-cache").assert_outcomes(passed=6)
    assert len(fake.model_requests()) == asked + 3  # the three answers received are not asked (nor paid) again


@pytest.mark.parametrize("override", [OVERRIDE, OVERRIDE.replace("@pytest.fixture\ndef hwrepair_fixer",
                                                               '@pytest.fixture(name="hwrepair_fixer")\ndef mine')],
                         ids=["by-function-name", "by-fixture-name"])
def test_a_fixer_of_a_conftest_gets_no_request_made_for_it(pytester: pytest.Pytester,
                                                          project: tuple[FakeLLM, Observed], override: str) -> None:
    fake, _ = project
    assert "def hwrepair_fixer" in override or 'name="hwrepair_fixer"' in override
    (pytester.path / "conftest.py").write_text(override)
    run(pytester, fake, "--hwrepair-no-cache").assert_outcomes(passed=6)
    assert fake.requests == []


def test_a_resumed_run_makes_no_request_ahead(pytester: pytest.Pytester, project: tuple[FakeLLM, Observed]) -> None:
    fake, _ = project
    run(pytester, fake, "--hwrepair-no-cache").assert_outcomes(passed=6)
    made = len(fake.requests)
    run(pytester, fake, "--hwrepair-no-cache").assert_outcomes(passed=6)  # the same run directory: all resumed
    assert len(fake.requests) == made



def test_a_request_made_ahead_fails_as_its_own_item_would(pytester: pytest.Pytester,
                                                          project: tuple[FakeLLM, Observed]) -> None:
    fake, _ = project
    fake.script(*["500"] * 6)  # the first three requests fail past their one retry
    result = run(pytester, fake, "--hwrepair-no-cache", "--hwrepair-max-retries", "1", "--hwrepair-retry-delay",
                 "0.01", "--hwrepair-max-connections", "1")
    outcomes = result.parseoutcomes()
    assert outcomes.get("errors", 0) == 3 and outcomes.get("passed", 0) == 3
    cats = [r[2] for r in verdicts(pytester)]
    assert cats.count("pass") == 3 and cats.count("infra_error") == 3
    assert len(fake.model_requests()) == 9  # the failed items did not ask again


def test_an_item_waits_for_its_request_made_ahead_by_another_worker(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from pytest_hwrepair.fixers import make_fixers
    from pytest_hwrepair.fixers.base import RepairTask
    from pytest_hwrepair.settings import Settings

    try:
        from fakes import fixer_context
    except ImportError:
        from tests.fakes import fixer_context

    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    with FakeLLM(lambda provider, body: "```c\nint x;\n```\n", delay=1.0) as fake:
        settings = Settings(base_url=fake.url + "/v1", no_cache=True)
        ahead, item = (make_fixers(["openai"], fixer_context(settings, tmp_path / "run", tmp_path / "cache"))["openai"]
                       for _ in range(2))  # two processes' fixers of one run
        task = RepairTask(case="c", bug="b", domain="hls", suite="s", files={"a.c": "int x"}, target="a.c")
        asking = threading.Thread(target=ahead.prefetch, args=(task,))  # type: ignore[attr-defined]
        asking.start()
        while not fake.requests:
            time.sleep(0.01)
        got = item.repair(task)
        asking.join()
        assert got.files == {"a.c": "int x;\n"} and len(fake.requests) == 1
        assert not got.cached and got.cost_usd > 0 and got.latency >= 1.0  # the live answer it was


@pytest.mark.parametrize(("tx", "shared"), [([], True), (["3*popen"], True), (["popen//chdir=/w"], True),
                                            (["2*popen", "ssh=user@host//python=python3"], False)])
def test_nothing_is_asked_ahead_when_a_worker_has_another_machines_cache(tx: list[str], shared: bool) -> None:
    from types import SimpleNamespace

    from pytest_hwrepair.fixers.llm.prefetch import shared_cache

    config = SimpleNamespace(getoption=lambda name, default=None: tx)
    assert shared_cache(config) is shared  # type: ignore[arg-type]
