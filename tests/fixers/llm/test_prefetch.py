"""The next item's model request starts once this item's answer is in, while this item is judged; it is the
request the item would have made (one request per sample, the same verdicts), and never for an item whose
fixer is not the plugin's, that resumes, or when turned off."""

from __future__ import annotations

import json
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
from pytest_hwrepair.fixers.control import ReferenceFixer

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


def test_the_next_request_is_made_while_this_item_is_judged(pytester: pytest.Pytester,
                                                            project: tuple[FakeLLM, Observed]) -> None:
    fake, observed = project
    result = run(pytester, fake, "--hwrepair-no-cache", "--hwrepair-no-verdict-cache")
    result.assert_outcomes(passed=6)
    assert len(fake.requests) == 6  # one request per sample: each answer was taken by its own item
    # A request came before the item ahead of it had its record: that item was being judged meanwhile (each
    # build takes far longer than a loopback request, but which ones overlap is the scheduler's business).
    assert len(observed.seen) == 6 and any(seen < k for k, seen in enumerate(observed.seen))
    ahead = verdicts(pytester)
    observed.seen.clear()
    again = run(pytester, fake, "--hwrepair-no-cache", "--hwrepair-no-verdict-cache", "--hwrepair-no-prefetch",
                run_dir="run2")
    again.assert_outcomes(passed=6)
    assert verdicts(pytester, "run2") == ahead


def test_turned_off_each_request_waits_for_the_item_before(pytester: pytest.Pytester,
                                                          project: tuple[FakeLLM, Observed]) -> None:
    fake, observed = project
    run(pytester, fake, "--hwrepair-no-cache", "--hwrepair-no-verdict-cache",
        "--hwrepair-no-prefetch").assert_outcomes(passed=6)
    assert observed.seen == [0, 1, 2, 3, 4, 5]


def test_a_fixer_of_a_conftest_gets_no_request_made_for_it(pytester: pytest.Pytester,
                                                          project: tuple[FakeLLM, Observed]) -> None:
    fake, _ = project
    (pytester.path / "conftest.py").write_text(OVERRIDE)
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
    fake.script(*["500"] * 6)  # the first three requests (the second made ahead) fail past their one retry
    result = run(pytester, fake, "--hwrepair-no-cache", "--hwrepair-max-retries", "1", "--hwrepair-retry-delay",
                 "0.01")
    outcomes = result.parseoutcomes()
    assert outcomes.get("errors", 0) == 3 and outcomes.get("passed", 0) == 3
    cats = [r[2] for r in verdicts(pytester)]
    assert cats.count("pass") == 3 and cats.count("infra_error") == 3


def test_starting_a_request_ahead_does_not_wait_for_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pytest_hwrepair.fixers import make_fixers
    from pytest_hwrepair.fixers.base import RepairTask
    from pytest_hwrepair.settings import Settings

    try:
        from fakes import fixer_context
    except ImportError:
        from tests.fakes import fixer_context

    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    with FakeLLM(lambda provider, body: "```c\nint x;\n```\n", delay=3.0) as fake:
        settings = Settings(base_url=fake.url + "/v1", no_cache=True)
        fixer = make_fixers(["openai"], fixer_context(settings, tmp_path / "run", tmp_path / "cache"))["openai"]
        task = RepairTask(case="c", bug="b", domain="hls", suite="s", files={"a.c": "int x"}, target="a.c")
        start = time.monotonic()
        fixer.prefetch(task)  # type: ignore[attr-defined]
        assert time.monotonic() - start < 1.5
        got = fixer.repair(task)
        assert got.files == {"a.c": "int x;\n"} and len(fake.requests) == 1
