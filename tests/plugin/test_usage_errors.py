"""Bad options, gates and paths are rejected before the first item runs; tools behave in pipelines."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_hwrepair.fixers.llm.api import AnthropicApi, OpenAIApi, Sampling
from pytest_hwrepair.results.gates import parse_gate
from pytest_hwrepair.results.rundir import new_run_dir

ROOT = Path(__file__).resolve().parents[2]


def run(pt: pytest.Pytester, *args: str) -> pytest.RunResult:
    return pt.runpytest_subprocess("-p", "no:cacheprovider", "-p", "no:randomly", *args)


@pytest.mark.parametrize("option", [
    ["--hwrepair-fixer-timeout", "-5"], ["--hwrepair-timing-runs", "-3"], ["--hwrepair-perf-gate", "nan"],
    ["--hwrepair-gate", "pass@0>=1"], ["--hwrepair-gate", "fixer=nosuch:pass@1>=0.5"],
    ["--hwrepair-gate", "fixer=reference:pass@5>=0.5"], ["--hwrepair-gate", "pass@1>=7"],
])
def test_bad_values_are_usage_errors_before_any_item_runs(demo_pytester: pytest.Pytester, option: list[str]) -> None:
    result = run(demo_pytester, "cases", "--fixer", "reference", "--hwrepair-run", "r", *option)
    assert result.ret == 4, result.stdout.str() + result.stderr.str()
    assert not (demo_pytester.path / "r" / "samples.jsonl").exists()
    assert "Traceback" not in result.stderr.str()


def test_gate_with_impossible_k_names_the_fixer_and_its_samples() -> None:
    with pytest.raises(ValueError, match="k must be at least 1"):
        parse_gate("pass@0>=1")


def test_runs_started_in_the_same_second_get_their_own_directories(tmp_path: Path) -> None:
    made = {new_run_dir(tmp_path) for _ in range(5)}
    assert len(made) == 5 and all(p.is_dir() for p in made)


def test_records_travel_as_json_text_in_junit_properties(demo_pytester: pytest.Pytester) -> None:
    run(demo_pytester, "cases", "--fixer", "noop", "--junitxml", "j.xml")
    text = (demo_pytester.path / "j.xml").read_text()
    start = text.index('name="hwrepair_records" value="') + len('name="hwrepair_records" value="')
    import html

    value = html.unescape(text[start:text.index('"', start)])
    assert json.loads(value)[0]["fixer"] == "noop"


def test_validate_of_a_missing_path_is_an_error(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "pytest_hwrepair.cli", "validate", str(tmp_path / "no-such")],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 2 and "no such file or directory" in proc.stderr


def test_validate_rejects_an_unknown_case_key_without_being_asked(tmp_path: Path) -> None:
    import shutil

    shutil.copytree(ROOT / "tests" / "data" / "heldout" / "hls" / "demo" / "ramp", tmp_path / "ramp")
    toml = tmp_path / "ramp" / "case.toml"
    toml.write_text(toml.read_text().replace("schema = 1\n", "schema = 1\ncolour = \"red\"\n", 1))
    proc = subprocess.run([sys.executable, "-m", "pytest_hwrepair.cli", "validate", "-j", "1", str(tmp_path)],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 1 and "colour: unknown field" in proc.stdout and "Traceback" not in proc.stderr


def test_a_closed_pipe_is_not_a_traceback() -> None:
    cmd = f"{sys.executable} -m pytest_hwrepair.cli stats {ROOT / 'cases'} | head -c 10"
    proc = subprocess.run(cmd, shell=True, capture_output=True, text=True, check=False)
    assert "Traceback" not in proc.stderr and "BrokenPipe" not in proc.stderr


def test_claude_requests_carry_top_p_or_temperature_never_both() -> None:
    api = AnthropicApi("https://example.invalid", "k")
    body = api.body("claude-sonnet-4-5", [{"role": "user", "content": "x"}],
                    Sampling(max_tokens=10, temperature=0.7, top_p=0.9))
    assert "top_p" in body and "temperature" not in body


@pytest.mark.parametrize("model", ["o3-mini", "o4-mini", "gpt-5", "gpt-5-mini"])
def test_openai_reasoning_models_get_no_sampling_parameters(model: str) -> None:
    body = OpenAIApi("https://example.invalid/v1", "k").body(model, [{"role": "user", "content": "x"}],
                                                          Sampling(max_tokens=10, temperature=1.0, top_p=0.9))
    assert "temperature" not in body and "top_p" not in body and body["max_completion_tokens"] == 10
