"""Repository cases end to end with scripted `cmd:` agents: localisation metrics, stages, attacks, feedback arm."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from ..conftest import agent_python

ROOT = Path(__file__).parents[1]
DEMO = ROOT / "data" / "repo_demo"
AGENT = ROOT / "repo_agent.py"
PYTHON, *MOUNTS = agent_python(AGENT)  # the agent runs in the sandbox: its interpreter and script mounted
XDIST = [pytest.param([], id="n0"), pytest.param(["-n", "2"], id="n2")]
pytestmark = pytest.mark.skipif(shutil.which("iverilog") is None, reason="needs iverilog")


@pytest.fixture
def repo_pytester(pytester: pytest.Pytester) -> pytest.Pytester:
    shutil.copytree(DEMO, pytester.path / "cases" / "rtl" / "repo" / "demo")
    return pytester


def agent(label: str, mode: str) -> str:
    return f"--fixer={label}=cmd:{PYTHON} {AGENT} {mode} {{task}}"


def run(pt: pytest.Pytester, *args: str) -> pytest.RunResult:
    return pt.runpytest_subprocess("-p", "no:cacheprovider", "-p", "no:randomly", "cases", "--hwrepair-run", "r",
                                   "--hwrepair-samples", "1", *MOUNTS, *args)


def final_records(pt: pytest.Pytester) -> dict[tuple[str, str], dict[str, Any]]:
    lines = (pt.path / "r" / "samples.jsonl").read_text().splitlines()
    records = [json.loads(line) for line in lines]
    return {(r["label"], r["bug"]): r for r in records if r["final"]}


def localisation(record: dict[str, Any]) -> tuple[Any, ...]:
    m = record["metrics"]["repo"]
    return (m["file_precision"], m["file_recall"], m["module_precision"], m["module_recall"], m["stage"])


@pytest.mark.parametrize("xdist", XDIST)
def test_scripted_agents_get_their_precision_recall_and_stage(repo_pytester: pytest.Pytester,
                                                              xdist: list[str]) -> None:
    modes = ("right-file-wrong", "wrong-module", "extra-file", "symptom")
    result = run(repo_pytester, "-k", "LOGIC-01", *[agent(m, m) for m in modes], *xdist)
    result.assert_outcomes(passed=1, failed=3)
    got = {label: localisation(r) for (label, _), r in final_records(repo_pytester).items()}
    assert got == {
        "right-file-wrong": (1.0, 1.0, 1.0, 1.0, "repair"),   # the gold file and module, a wrong change
        "wrong-module": (1.0, 1.0, 0.0, 0.0, "repair"),       # the gold file, another module in it
        "extra-file": (0.5, 1.0, 0.5, 1.0, None),             # resolved, with an edit the fix did not need
        "symptom": (0.0, 0.0, 0.0, 0.0, "localisation"),      # stopped at the file where the symptom shows
    }
    text = result.stdout.str()
    assert "repository issues" in text and "localisation" in text


def test_summary_tables_count_stages_per_tier(repo_pytester: pytest.Pytester) -> None:
    run(repo_pytester, agent("sym", "symptom"), "--fixer=reference", "--fixer=noop")
    summary = json.loads((repo_pytester.path / "r" / "summary.json").read_text())
    rows = {(r["fixer"].split(":")[0], r["tier"]): r for r in summary["repo"]["tiers"]}
    assert rows[("reference", "all")]["resolved_at"]["1"] == 1.0
    assert rows[("noop", "all")]["stages"] == {"no_edit": 2, "localisation": 0, "repair": 0}
    # WIDTH-01's fix spans counter.v and top.v: editing top.v alone is precise but still a localisation failure.
    assert rows[("cmd", "T1")]["stages"]["localisation"] == 1 and rows[("cmd", "T2")]["stages"]["localisation"] == 1
    assert (rows[("cmd", "T2")]["file_precision"], rows[("cmd", "T2")]["file_recall"]) == (1.0, 0.5)
    assert {t for _, t in rows} == {"T1", "T2", "all"}


def test_testbench_edits_are_discarded_and_never_run(repo_pytester: pytest.Pytester) -> None:
    result = run(repo_pytester, agent("cheat", "tb-cheat"))
    result.assert_outcomes(failed=2)
    for record in final_records(repo_pytester).values():
        repo = record["metrics"]["repo"]
        assert repo["stage"] == "no_edit" and repo["edited_files"] == []
        assert {"tb/tb_counter.v", "tb/tb_top.v"} <= set(repo["discarded"])


def test_design_that_prints_the_pass_line_is_rejected_before_it_runs(repo_pytester: pytest.Pytester) -> None:
    result = run(repo_pytester, "-k", "LOGIC-01", agent("cheat", "display-cheat"))
    result.assert_outcomes(failed=1)
    record = final_records(repo_pytester)[("cheat", "LOGIC-01")]
    assert record["category"] == "lint_fail" and "system task $display" in record["summary"]


def test_build_outputs_links_and_fifos_left_by_an_agent_are_ignored(repo_pytester: pytest.Pytester) -> None:
    result = run(repo_pytester, "-k", "LOGIC-01", agent("messy", "litter"))
    result.assert_outcomes(passed=1)
    record = final_records(repo_pytester)[("messy", "LOGIC-01")]
    assert record["metrics"]["repo"]["edited_files"] == ["rtl/counter.v"]
    ignored = (repo_pytester.path / "r" / "artifacts" / record["artifact"] / "agent.ignored").read_text()
    # The closed sandbox hands back regular files only; a link or FIFO that reaches the reader is ignored there.
    assert {"counter.vvp", "obj/notes.txt"} <= set(ignored.split()) <= {"counter.vvp", "obj/notes.txt", "rtl/link.v",
                                                                        "rtl/pipe.v"}


@pytest.mark.parametrize("xdist", XDIST)
def test_feedback_arm_rescues_and_its_table_is_in_the_summary(repo_pytester: pytest.Pytester,
                                                               xdist: list[str]) -> None:
    result = run(repo_pytester, agent("fb", "feedback"), "--hwrepair-repo-feedback", *xdist)
    result.assert_outcomes(passed=1, failed=1)
    records = [json.loads(line) for line in (repo_pytester.path / "r" / "samples.jsonl").read_text().splitlines()]
    logic = sorted((r for r in records if r["bug"] == "LOGIC-01"), key=lambda r: r["iteration"])
    assert [(r["iteration"], r["outcome"], r["final"]) for r in logic] == [(0, "failed", False), (1, "passed", True)]
    task = json.loads((repo_pytester.path / "r" / "artifacts" / logic[1]["artifact"] / "task.json").read_text())
    assert "Failure log of test counter" in task["history"][0]["feedback"]
    assert "TEST FAILED" in task["history"][0]["feedback"]
    text = result.stdout.str()
    assert "repository feedback arm" in text
    assert "feedback {task}: resolved 0.000 after the first round, 0.500 after feedback (2 samples)" in text
    rescue = json.loads((repo_pytester.path / "r" / "summary.json").read_text())["repo"]["rescue"]
    row = next(r for r in rescue if r["stage"] == "localisation")
    assert (row["unresolved"], row["rescued"], row["rescue_rate"]) == (2, 1, 0.5)


def test_without_the_arm_there_is_one_round_and_no_rescue_table(repo_pytester: pytest.Pytester) -> None:
    result = run(repo_pytester, agent("fb", "feedback"))
    result.assert_outcomes(failed=2)
    assert "repository feedback arm" not in result.stdout.str()
    assert all(r["iteration"] is None for r in final_records(repo_pytester).values())


def test_repo_marker_selects_repository_items(repo_pytester: pytest.Pytester) -> None:
    result = repo_pytester.runpytest_subprocess("-p", "no:randomly", "cases", "-m", "repo", "--collect-only", "-q")
    assert "cases/rtl/repo/demo/case.toml::LOGIC-01[reference-s0]" in result.stdout.str()
    result = repo_pytester.runpytest_subprocess("-p", "no:randomly", "cases", "-m", "not repo", "--collect-only",
                                                "-q")
    assert "LOGIC-01" not in result.stdout.str()
    result = repo_pytester.runpytest_subprocess("-p", "no:randomly", "cases", "-k", "T2", "--collect-only", "-q")
    assert "WIDTH-01" in result.stdout.str() and "LOGIC-01" not in result.stdout.str()


def test_replay_rescores_saved_repository_candidates(repo_pytester: pytest.Pytester) -> None:
    run(repo_pytester, agent("x", "extra-file"))
    result = repo_pytester.runpytest_subprocess("-p", "no:cacheprovider", "-p", "no:randomly", "cases",
                                                "--fixer=replay:r", "--hwrepair-run", "again",
                                                "--hwrepair-samples", "1")
    result.assert_outcomes(passed=1, failed=1)
