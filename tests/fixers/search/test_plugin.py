"""`--fixer=search` end to end through pytest, without and with xdist: records carry the search's cost."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from ...search_helpers import HELDOUT


def records(run_dir: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (run_dir / "samples.jsonl").read_text().splitlines()]


@pytest.fixture
def heldout_pytester(pytester: pytest.Pytester) -> pytest.Pytester:
    shutil.copytree(HELDOUT / "hls" / "demo" / "clamp_sum", pytester.path / "cases" / "hls" / "demo" / "clamp_sum")
    return pytester


def run(pt: pytest.Pytester, run_dir: str, *extra: str) -> pytest.RunResult:
    return pt.runpytest_subprocess("-p", "no:cacheprovider", "-p", "no:randomly", "cases",
                                   "--fixer=search:budget=150", "--hwrepair-samples", "2", "--hwrepair-run", run_dir,
                                   *extra)


def test_search_samples_repeat_with_and_without_xdist(heldout_pytester: pytest.Pytester) -> None:
    first = run(heldout_pytester, "a")
    first.assert_outcomes(passed=4)
    run(heldout_pytester, "b", "-n", "2").assert_outcomes(passed=4)
    a, b = records(heldout_pytester.path / "a"), records(heldout_pytester.path / "b")
    assert {r["key"]: r["patch_sha"] for r in a} == {r["key"]: r["patch_sha"] for r in b}
    for r in a + b:
        cost = r["metrics"]["fixer"]
        assert r["fixer"] == "search" and cost["candidates"] >= 2 and cost["suite_pass"] is True
        assert cost["cpu_s"] >= 0 and cost["full_checks"] + cost["syntax_rejected"] == cost["candidates"]
    first.stdout.fnmatch_lines(["*hwrepair summary*", "fixer*domain*", "*", "search*hls*"])


def test_bad_search_option_is_a_usage_error(heldout_pytester: pytest.Pytester) -> None:
    result = heldout_pytester.runpytest_subprocess("-p", "no:randomly", "cases", "--fixer=search:budget=0")
    assert result.ret != 0
    result.stderr.fnmatch_lines(["*budget must be at least 1*"])
