"""The model fixers against a real loopback server: retries, errors, concurrency, cache, cost, keys."""

from __future__ import annotations

import logging
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pytest_hwrepair.fixers import make_fixers
from pytest_hwrepair.fixers.base import FixerError, FixerUnavailable, RepairTask
from pytest_hwrepair.fixers.llm.api import RetryWarning
from pytest_hwrepair.fixers.llm.fixer import ModelFixer, make_model_fixer
from pytest_hwrepair.settings import Settings
from tests.fakes import fixer_context

from ...fake_llm_server import FakeLLM

SOURCE = "".join(f"int f{i}(int x) {{ return x + {i}; }}\n" for i in range(12))
KEY = "sk-test-3f9a1c0ddeadbeef"


def fixed_answer(provider: str, body: dict[str, Any]) -> str:
    return f"```c\n{SOURCE.replace('x + 3;', 'x - 3;')}```\n"


@pytest.fixture
def fake() -> Iterator[FakeLLM]:
    with FakeLLM(fixed_answer) as server:
        yield server


@pytest.fixture(autouse=True)
def keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("ANTHROPIC_BASE_URL", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    monkeypatch.setenv("OPENAI_API_KEY", KEY)


def make(kind: str, fake: FakeLLM, tmp_path: Path, run: str = "run", **options: Any) -> ModelFixer:
    url = fake.url + ("/v1" if kind == "openai" else "")
    cli = {"base_url": url, "retry_delay": 0.01, "retry_max_wait": 1.0, **options}
    settings = Settings.from_sources(cli, {})
    return make_model_fixer(kind, options.get("model"), fixer_context(settings, tmp_path / run, tmp_path / "cache"))


def task(sample: int = 0, seed: int = 0) -> RepairTask:
    return RepairTask(case="k", bug="OOB-01", domain="hls", suite="s", files={"k.c": SOURCE}, target="k.c",
                      sample=sample, seed=seed)


@pytest.mark.parametrize("kind", ["claude", "openai"])
def test_transient_failures_are_retried_and_counted_by_status(kind: str, fake: FakeLLM, tmp_path: Path) -> None:
    fake.script("429", "529", "500", "drop", "badjson")
    with pytest.warns(RetryWarning) as seen:
        cand = make(kind, fake, tmp_path).repair(task())
    assert cand.parsed and "x - 3;" in cand.files["k.c"]
    assert cand.retries == {"429": 1, "529": 1, "500": 1, "connection": 1, "bad_json": 1}
    assert len(fake.model_requests()) == 6
    assert any("HTTP 529, retry 2 of 8" in str(w.message) for w in seen)


def test_retry_after_seconds_is_honoured(fake: FakeLLM, tmp_path: Path) -> None:
    fake.script("429:retry-after=0.4")
    start = time.monotonic()
    with pytest.warns(RetryWarning):
        make("claude", fake, tmp_path).repair(task())
    assert time.monotonic() - start >= 0.4


def test_retry_after_ms_is_honoured_before_retry_after(fake: FakeLLM, tmp_path: Path) -> None:
    fake.script("429:retry-after-ms=300,retry-after=30")
    start = time.monotonic()
    with pytest.warns(RetryWarning, match=r"in 0\.3"):
        make("openai", fake, tmp_path).repair(task())
    assert 0.3 <= time.monotonic() - start < 5


def test_retry_after_is_capped(fake: FakeLLM, tmp_path: Path) -> None:
    fake.script("503:retry-after=3600")
    start = time.monotonic()
    with pytest.warns(RetryWarning):
        cand = make("claude", fake, tmp_path, retry_max_wait=0.2).repair(task())
    assert time.monotonic() - start < 5 and cand.retries == {"503": 1}


def test_a_slow_reply_past_the_timeout_is_retried(fake: FakeLLM, tmp_path: Path) -> None:
    fake.script("slow:3")
    with pytest.warns(RetryWarning, match="timed out"):
        cand = make("openai", fake, tmp_path, request_timeout=0.5).repair(task())
    assert cand.retries == {"timeout": 1} and cand.parsed


def test_a_slow_reply_within_the_timeout_is_not_retried(fake: FakeLLM, tmp_path: Path) -> None:
    fake.script("slow:0.3")
    cand = make("openai", fake, tmp_path, request_timeout=5).repair(task())
    assert cand.retries == {} and cand.latency >= 0.3


def test_an_outage_beyond_the_retry_budget_is_a_harness_error(fake: FakeLLM, tmp_path: Path) -> None:
    fake.script(*["529"] * 4)
    with pytest.warns(RetryWarning), pytest.raises(FixerError, match="gave up after 2 retries") as info:
        make("claude", fake, tmp_path, max_retries=2).repair(task())
    assert getattr(info.value, "retries", None) == {"529": 2}  # retries made: three requests, the last one given up on


@pytest.mark.parametrize("kind", ["claude", "openai"])
def test_other_client_errors_carry_the_api_message_without_retry(kind: str, fake: FakeLLM, tmp_path: Path) -> None:
    fake.script("400")
    with pytest.raises(FixerError, match="HTTP 400 invalid_request_error: max_tokens: must be at most 8192"):
        make(kind, fake, tmp_path).repair(task())
    assert len(fake.model_requests()) == 1


def test_connection_limit_holds_across_fixer_instances(fake: FakeLLM, tmp_path: Path) -> None:
    fake.delay = 0.2
    fixers = [make("openai", fake, tmp_path, max_connections=2, no_cache=True) for _ in range(5)]
    threads = [threading.Thread(target=f.repair, args=(task(i),)) for i, f in enumerate(fixers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(fake.model_requests()) == 5 and fake.peak == 2


def test_a_cache_hit_makes_no_request_and_is_marked_cached(fake: FakeLLM, tmp_path: Path) -> None:
    first = make("claude", fake, tmp_path).repair(task())
    again = make("claude", fake, tmp_path, run="again").repair(task())
    assert len(fake.model_requests()) == 1
    assert not first.cached and again.cached and again.files == first.files
    assert again.cost_usd == 0.0 and again.usage == first.usage


def test_no_cache_asks_again_in_another_run_and_keeps_this_runs_answers(fake: FakeLLM, tmp_path: Path) -> None:
    first = make("claude", fake, tmp_path).repair(task())
    cand = make("claude", fake, tmp_path, run="other", no_cache=True).repair(task())
    assert len(fake.model_requests()) == 2 and not cand.cached
    # An answer this run was sent (asked ahead, or before an interruption) is taken, as the live answer it was.
    again = make("claude", fake, tmp_path, run="other", no_cache=True).repair(task())
    assert len(fake.model_requests()) == 2 and not again.cached
    assert (again.cost_usd, again.usage, again.files) == (cand.cost_usd, cand.usage, first.files)


def test_samples_stay_distinct_requests_and_cache_entries(fake: FakeLLM, tmp_path: Path) -> None:
    fixer = make("claude", fake, tmp_path)
    for sample in range(3):
        fixer.repair(task(sample, seed=sample))
    again = [make("claude", fake, tmp_path, run="again").repair(task(s, seed=s)) for s in range(3)]
    assert len(fake.model_requests()) == 3 and all(c.cached for c in again)
    assert len(list((tmp_path / "cache" / "responses" / "anthropic").rglob("*.json"))) == 3


def test_openai_requests_carry_the_task_seed_and_sampling(fake: FakeLLM, tmp_path: Path) -> None:
    make("openai", fake, tmp_path, top_p=0.9).repair(task(2, seed=42))
    body = fake.model_requests()[0]["body"]
    assert body["seed"] == 42 and body["temperature"] == 1.0 and body["top_p"] == 0.9
    assert 1024 <= body["max_tokens"] <= 16384


def test_claude_gets_top_p_without_the_default_temperature(fake: FakeLLM, tmp_path: Path) -> None:
    make("claude", fake, tmp_path, top_p=0.9).repair(task())
    body = fake.model_requests()[0]["body"]
    assert body["top_p"] == 0.9 and "temperature" not in body


def test_anthropic_requests_have_no_seed_and_the_key_in_its_header(fake: FakeLLM, tmp_path: Path) -> None:
    make("claude", fake, tmp_path, max_tokens=2000, request_extra='{"metadata": {"user_id": "ci"}}').repair(task())
    request = fake.model_requests()[0]
    assert "seed" not in request["body"] and request["body"]["max_tokens"] == 2000
    assert request["body"]["metadata"] == {"user_id": "ci"}
    assert request["headers"]["x-api-key"] == KEY and request["headers"]["anthropic-version"]


@pytest.mark.parametrize(("kind", "usage", "expected"), [
    ("claude", (1000, 200, 0), (1000 * 3.0 + 200 * 15.0) / 1e6),
    ("openai", (1000, 200, 500), (1000 * 2.0 + 200 * 8.0 + 500 * 0.5) / 1e6),
])
def test_tokens_and_cost_follow_the_price_table(kind: str, usage: tuple[int, int, int], expected: float,
                                                  fake: FakeLLM, tmp_path: Path) -> None:
    fake.usage = usage
    cand = make(kind, fake, tmp_path).repair(task())
    assert (cand.usage.input, cand.usage.output, cand.usage.cache_read) == usage
    assert cand.cost_usd == pytest.approx(expected)


def test_a_price_file_overrides_the_table(fake: FakeLLM, tmp_path: Path) -> None:
    prices = tmp_path / "prices.toml"
    prices.write_text('["my-model"]\ninput = 10.0\noutput = 100.0\n')
    cand = make("openai", fake, tmp_path, model="my-model", prices=str(prices)).repair(task())
    assert cand.cost_usd == pytest.approx((1000 * 10.0 + 200 * 100.0) / 1e6)


def test_cost_limit_stops_new_requests_but_serves_the_cache(fake: FakeLLM, tmp_path: Path) -> None:
    fixer = make("claude", fake, tmp_path, cost_limit=0.01)  # 0.006 USD a reply
    fixer.repair(task(0))
    fixer.repair(task(1))
    with pytest.raises(FixerUnavailable, match=r"cost limit reached: \$0\.0120 spent of \$0\.0100"):
        fixer.repair(task(2))
    assert len(fake.model_requests()) == 2
    assert make("claude", fake, tmp_path, run="again", cost_limit=0.01).repair(task(0)).cached


def test_a_missing_key_is_an_error_before_any_request(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY")
    with pytest.raises(FixerError, match="no API key: set ANTHROPIC_API_KEY"):
        make_model_fixer("claude", None, fixer_context(Settings(), tmp_path, tmp_path))


def test_a_named_key_variable_is_used(monkeypatch: pytest.MonkeyPatch, fake: FakeLLM, tmp_path: Path) -> None:
    monkeypatch.setenv("TEAM_OPENAI", "sk-team")
    make("openai", fake, tmp_path, api_key_env="TEAM_OPENAI").repair(task())
    assert fake.model_requests()[0]["headers"]["authorization"] == "Bearer sk-team"


def test_a_local_openai_compatible_server_needs_no_key(monkeypatch: pytest.MonkeyPatch, fake: FakeLLM,
                                                       tmp_path: Path) -> None:
    monkeypatch.delenv("OPENAI_API_KEY")
    monkeypatch.setenv("OPENAI_BASE_URL", fake.url + "/v1")
    ctx = fixer_context(Settings(), tmp_path / "run", tmp_path / "cache")
    fixer = make_model_fixer("openai", "qwen2.5-coder", ctx)
    assert fixer.notices == ("openai:qwen2.5-coder: no price known for this model; its cost is reported as $0 "
                             "(give one with --hwrepair-prices FILE)",)
    assert fixer.repair(task()).cost_usd == 0.0
    assert "authorization" not in fake.model_requests()[0]["headers"]


def test_registry_names_the_fixer_by_model_and_binds_its_label(fake: FakeLLM, tmp_path: Path) -> None:
    settings = Settings.from_sources({"base_url": fake.url}, {})
    ctx = fixer_context(settings, tmp_path, tmp_path)
    fixers = make_fixers(["claude", "big=claude:claude-opus-4-1", "openai:gpt-4.1-mini"], ctx)
    assert {k: v.name for k, v in fixers.items()} == {"claude": "claude:claude-sonnet-4-5",
                                                      "big": "claude:claude-opus-4-1",
                                                      "openai": "openai:gpt-4.1-mini"}
    assert fixers["big"].label == "big"  # type: ignore[attr-defined]


def test_no_key_request_or_response_text_reaches_the_log(fake: FakeLLM, tmp_path: Path,
                                                         caplog: pytest.LogCaptureFixture) -> None:
    fake.script("429", "400")
    caplog.set_level(logging.INFO)
    fixer = make("claude", fake, tmp_path)
    with warnings.catch_warnings(record=True) as seen, pytest.raises(FixerError) as info:
        warnings.simplefilter("always")
        fixer.repair(task())
    fixer.repair(task(1))
    texts = [r.getMessage() for r in caplog.records] + [str(w.message) for w in seen] + [str(info.value)]
    for text in texts:
        assert KEY not in text and "int f3" not in text and "return x" not in text


def test_answers_of_another_endpoint_are_not_served_from_the_cache(fake: FakeLLM, tmp_path: Path) -> None:
    make("openai", fake, tmp_path).repair(task())
    with FakeLLM(fixed_answer) as other:
        assert not make("openai", other, tmp_path).repair(task()).cached
        assert len(other.model_requests()) == 1
