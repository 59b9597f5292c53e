"""Batch mode against the loopback server: submit once, poll, import by custom id, resume on a rerun."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pytest_hwrepair.fixers.base import FixerError, FixerUnavailable, RepairTask
from pytest_hwrepair.fixers.llm.api import ApiError
from pytest_hwrepair.fixers.llm.fixer import ModelFixer, make_model_fixer
from pytest_hwrepair.settings import Settings
from tests.fakes import fixer_context

from ...fake_llm_server import FakeLLM

SOURCE = "".join(f"int f{i}(int x) {{ return x + {i}; }}\n" for i in range(12))
TASKS = [RepairTask(case="k", bug="OOB-01", domain="hls", suite="s", files={"k.c": SOURCE}, target="k.c",
                    sample=n, seed=n) for n in range(3)]


def answer(provider: str, body: dict[str, Any]) -> str:
    return f"```c\n{SOURCE.replace('x + 3;', 'x - 3;')}```\n"


@pytest.fixture
def fake() -> Iterator[FakeLLM]:
    with FakeLLM(answer, batch_polls=2) as server:
        yield server


@pytest.fixture(autouse=True)
def keys(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("PYTEST_XDIST_TESTRUNUID", "first")


def make(kind: str, fake: FakeLLM, tmp_path: Path, **options: Any) -> ModelFixer:
    url = fake.url + ("/v1" if kind == "openai" else "")
    cli = {"base_url": url, "batch": True, "batch_poll": 0.01, "batch_wait": 5.0, "retry_delay": 0.01, **options}
    ctx = fixer_context(Settings.from_sources(cli, {}), tmp_path / "run", tmp_path / "cache", lambda label: list(TASKS))
    return make_model_fixer(kind, None, ctx)


@pytest.mark.parametrize("kind", ["claude", "openai"])
def test_one_batch_answers_every_pending_task_at_half_price(kind: str, fake: FakeLLM, tmp_path: Path) -> None:
    fixer = make(kind, fake, tmp_path)
    candidates = [fixer.repair(t) for t in TASKS]
    assert len(fake.batches) == 1 and fake.model_requests() == []
    assert all(c.parsed and "x - 3;" in c.files["k.c"] and not c.cached for c in candidates)
    full = make(kind, fake, tmp_path / "live", batch=None).cost(fixer.api.parse(fake.reply(fixer.api.provider, {})))
    assert candidates[0].cost_usd == pytest.approx(full / 2)
    state = json.loads((tmp_path / "run" / "batches" / f"{kind}.json").read_text())
    assert [b["id"] for b in state["batches"]] == list(fake.batches)


def test_samples_get_distinct_custom_ids(fake: FakeLLM, tmp_path: Path) -> None:
    make("claude", fake, tmp_path).repair(TASKS[0])
    (batch,) = fake.batches.values()
    assert len({cid for cid, _ in batch["requests"]}) == 3


def test_a_rerun_resumes_the_running_batch_instead_of_submitting_again(fake: FakeLLM, tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    fake.batch_hold = True
    first = make("openai", fake, tmp_path, batch_wait=0.1)
    with pytest.raises(FixerUnavailable, match=r"still running .*rerun the same command"):
        first.repair(TASKS[0])
    with pytest.raises(FixerUnavailable):  # the same process does not wait again
        first.repair(TASKS[1])
    fake.batch_hold = False
    monkeypatch.setenv("PYTEST_XDIST_TESTRUNUID", "second")
    again = make("openai", fake, tmp_path)
    assert all(again.repair(t).parsed for t in TASKS)
    assert len(fake.batches) == 1


def test_a_rerun_into_another_run_directory_finds_the_batch_through_the_cache(fake: FakeLLM, tmp_path: Path,
                                                                               monkeypatch: pytest.MonkeyPatch
                                                                               ) -> None:
    fake.batch_hold = True
    with pytest.raises(FixerUnavailable):
        make("claude", fake, tmp_path, batch_wait=0.1).repair(TASKS[0])
    fake.batch_hold = False
    monkeypatch.setenv("PYTEST_XDIST_TESTRUNUID", "second")
    elsewhere = make_model_fixer("claude", None, fixer_context(make("claude", fake, tmp_path).settings,
                                                                tmp_path / "run2", tmp_path / "cache",
                                                                lambda label: list(TASKS)))
    assert elsewhere.repair(TASKS[2]).parsed and len(fake.batches) == 1


def test_cached_answers_are_not_submitted_again(fake: FakeLLM, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                ) -> None:
    make("claude", fake, tmp_path).repair(TASKS[0])
    monkeypatch.setenv("PYTEST_XDIST_TESTRUNUID", "second")
    later = make_model_fixer("claude", None, fixer_context(make("claude", fake, tmp_path).settings,
                                                            tmp_path / "run2", tmp_path / "cache",
                                                            lambda label: list(TASKS)))
    assert all(later.repair(t).cached for t in TASKS) and len(fake.batches) == 1


@pytest.mark.parametrize("kind", ["claude", "openai"])
def test_a_failed_batch_request_is_a_harness_error_and_is_resubmitted_on_retry(kind: str, fake: FakeLLM,
                                                                                tmp_path: Path,
                                                                                monkeypatch: pytest.MonkeyPatch
                                                                                ) -> None:
    fake.batch_errors = 1
    fixer = make(kind, fake, tmp_path)
    outcomes: list[bool | None] = []
    for t in TASKS:
        try:
            outcomes.append(fixer.repair(t).parsed)
        except ApiError:
            outcomes.append(None)
    assert sorted(outcomes, key=str) == [None, True, True] and len(fake.batches) == 1
    fake.batch_errors = 0
    monkeypatch.setenv("PYTEST_XDIST_TESTRUNUID", "second")  # a rerun with --hwrepair-retry-errors
    again = make(kind, fake, tmp_path)
    assert all(again.repair(t).parsed for t in TASKS)
    assert len(fake.batches) == 2 and len(list(fake.batches.values())[1]["requests"]) == 1


def test_batch_mode_with_the_iterative_protocol_is_a_usage_error(fake: FakeLLM, tmp_path: Path) -> None:
    with pytest.raises(FixerError, match="--hwrepair-batch: batch mode needs the repeated protocol"):
        make("claude", fake, tmp_path, protocol="iterative")


def test_a_later_attempt_in_batch_mode_is_an_error(fake: FakeLLM, tmp_path: Path) -> None:
    later = RepairTask(case="k", bug="OOB-01", domain="cuda", suite="s", files={"k.c": SOURCE}, target="k.c",
                       attempt=1)
    with pytest.raises(FixerError, match="first attempts only"):
        make("claude", fake, tmp_path).repair(later)


def test_batch_is_not_submitted_once_the_cost_limit_is_reached(fake: FakeLLM, tmp_path: Path) -> None:
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "cost.json").write_text('{"cost_usd": 5.0}')
    with pytest.raises(FixerUnavailable, match="cost limit reached"):
        make("claude", fake, tmp_path, cost_limit=1.0).repair(TASKS[0])
    assert fake.batches == {}
