"""Model fixers on repository tasks: the prompt, multi-file and diff answers, and a loopback model end to end."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pytest_hwrepair.fixers.base import Attempt, FixerUnavailable, RepairTask
from pytest_hwrepair.fixers.llm.text import Templates, code_blocks, output_budget
from pytest_hwrepair.fixers.search import SearchFixer, SearchOptions
from pytest_hwrepair.repo.llm import CONTEXT_CHARS, extract_repository

from ..fake_llm_server import FakeLLM, reference_answer

DEMO = Path(__file__).parents[1] / "data" / "repo_demo"
FILES = {"README.md": "# r\n", "rtl/alu.v": "module alu;\nendmodule\n", "rtl/top.v": "module top;\nendmodule\n",
         "tb/tb_top.v": "module tb_top;\nendmodule\n"}
ISSUE = "The top level hangs after reset."


def task(files: dict[str, str] = FILES, **kw: Any) -> RepairTask:
    return RepairTask(case="r", bug="FSM-01", domain="rtl", suite="repo", files=files, target="README.md",
                      issue=ISSUE, **kw)


def extract(raw: str, truncated: bool = False) -> Any:
    return extract_repository(raw, FILES, code_blocks(raw), truncated)


def test_the_search_baseline_skips_repository_issues_instead_of_mutating_the_readme() -> None:
    probe_calls: list[RepairTask] = []
    fixer = SearchFixer(SearchOptions(), lambda t: probe_calls.append(t))  # type: ignore[arg-type,func-returns-value]
    with pytest.raises(FixerUnavailable, match="repository issue"):
        fixer.repair(task())
    assert probe_calls == []


def test_prompt_holds_issue_tree_and_files_readme_first() -> None:
    text = Templates.load().first_turn(task())
    assert ISSUE in text and "- rtl/alu.v (2 lines)" in text and "- tb/tb_top.v (2 lines)" in text
    assert text.index("README.md:\n```") < text.index("rtl/alu.v:\n```verilog") < text.index("rtl/top.v:\n```")
    assert "Keep the module name" not in text  # not the single-file prompt
    assert output_budget(task()) == 16384


def test_prompt_context_is_bounded_and_lists_what_it_leaves_out() -> None:
    big = {**FILES, "rtl/big.v": "// x\n" * (CONTEXT_CHARS // 4)}
    text = Templates.load().first_turn(task(big))
    assert "Not shown (over the context budget): rtl/big.v" in text and "- rtl/big.v (" in text
    assert len(text) < CONTEXT_CHARS + 10_000


def test_feedback_turn_shows_the_previous_diff_and_the_log() -> None:
    history = (Attempt("--- a/rtl/top.v\n+++ b/rtl/top.v\n", "test_fail", "Failure log of test top: TEST FAILED"),)
    messages = Templates.load().messages(task(history=history))
    assert messages[1]["content"].startswith("```diff\n--- a/rtl/top.v")
    assert "Failure log of test top" in messages[2]["content"] and "unified diff" in messages[2]["content"]


def test_a_fenced_unified_diff_is_the_candidate() -> None:
    diff = "--- a/rtl/alu.v\n+++ b/rtl/alu.v\n@@ -1,2 +1,2 @@\n-module alu;\n+module alu ;\n endmodule"
    got = extract(f"The fix:\n\n```diff\n{diff}\n```\n")
    assert got.ok and got.files == {} and got.diff == diff + "\n"


def test_several_named_files_are_the_candidate() -> None:
    raw = ("rtl/alu.v:\n```verilog\nmodule alu; // fixed\nendmodule\n```\n\n"
           "```verilog\n// rtl/top.v\nmodule top; // fixed\nendmodule\n```\n\n"
           '<file name="rtl/new_fsm.v">\nmodule new_fsm;\nendmodule\n</file>\n')
    got = extract(raw)
    assert sorted(got.files) == ["rtl/alu.v", "rtl/new_fsm.v", "rtl/top.v"]
    assert got.files["rtl/alu.v"] == "module alu; // fixed\nendmodule\n"


def test_a_unique_basename_names_its_file_and_a_bare_diff_is_read() -> None:
    assert extract("alu.v\n```verilog\nmodule alu;\nendmodule\n```").files.keys() == {"rtl/alu.v"}
    bare = "Here:\n--- a/rtl/top.v\n+++ b/rtl/top.v\n@@ -1 +1 @@\n-module top;\n+module top ;\n"
    assert extract(bare).diff is not None and extract(bare).diff.startswith("--- a/rtl/top.v")


@pytest.mark.parametrize("raw, truncated, error", [
    ("I think the FSM forgets its idle state.", False, "no unified diff and no file named"),
    ("```verilog\nmodule alu;\nendmodule\n```", False, "no unified diff and no file named"),
    ("```diff\n--- a/x\n", True, "cut off at the output limit"),
    ("", False, "the response is empty"),
])
def test_answers_without_a_usable_candidate_are_parse_failures(raw: str, truncated: bool, error: str) -> None:
    got = extract(raw, truncated)
    assert not got.ok and error in got.error


def test_a_block_naming_a_path_outside_the_tree_is_not_a_file() -> None:
    assert not extract("../../etc/evil.v\n```verilog\nmodule evil;\nendmodule\n```").ok


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeLLM]:
    shutil.copytree(DEMO, pytester.path / "cases" / "rtl" / "repo" / "demo")
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-repo")
    with FakeLLM(reference_answer(pytester.path / "cases")) as fake:
        yield fake


@pytest.mark.skipif(shutil.which("iverilog") is None, reason="needs iverilog")
@pytest.mark.parametrize("workers", ["0", "2"])
def test_a_model_answering_with_the_gold_diff_resolves_every_instance(pytester: pytest.Pytester, project: FakeLLM,
                                                                      workers: str) -> None:
    result = pytester.runpytest("-n", workers, "--fixer=openai", "--hwrepair-base-url", project.url + "/v1",
                                "--hwrepair-run", "run", "--hwrepair-cache-dir", "cache", "--hwrepair-samples", "1",
                                "-p", "no:cacheprovider", "cases")
    result.assert_outcomes(passed=2)
    lines = (pytester.path / "run" / "samples.jsonl").read_text().splitlines()
    records = {r["bug"]: r for r in map(json.loads, lines)}
    assert records["WIDTH-01"]["metrics"]["repo"]["edited_files"] == ["rtl/counter.v", "rtl/top.v"]
    prompt = (pytester.path / "run" / "artifacts" / records["LOGIC-01"]["artifact"] / "prompt.txt").read_text()
    assert "The wrap flag of `top` comes twice as often" in prompt and "rtl/pulse.v:\n```verilog" in prompt
