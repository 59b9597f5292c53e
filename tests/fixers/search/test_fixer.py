"""The search fixer: budget and seed behaviour on a fake probe, real repairs of held-out cases."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from pytest_hwrepair.cases.load import load_case
from pytest_hwrepair.fixers import FixerError, FixerUnavailable, RepairTask
from pytest_hwrepair.fixers.search import SearchFixer, SearchOptions, parse_options
from pytest_hwrepair.results.rundir import patch_sha
from pytest_hwrepair.settings import Settings
from pytest_hwrepair.strength.mutate import Op
from pytest_hwrepair.verdict import Verdict

from ...search_helpers import CORPUS, FakeProbe, failing, harness_verdict, heldout, search

KERNEL = """\
int kernel(int *a, int n) {
    int s = 0;
    for (int i = 0; i <= n; i++)
        s += a[i] * 3;
    return s - 1;
}
"""


def test_an_infra_error_of_the_probe_is_a_fixer_error_not_a_failed_search() -> None:
    calls = []

    def broken(text: str) -> Verdict:
        calls.append(text)
        return failing() if len(calls) == 1 else Verdict.error("probe: oracle raised OSError: no space left")

    with pytest.raises(FixerError, match="could not judge a candidate: probe: oracle raised OSError"):
        fake_fixer(FakeProbe(broken)).repair(fake_task())


def fake_task(text: str = KERNEL, seed: int = 0) -> RepairTask:
    return RepairTask(case="k", bug="OOB-01", domain="hls", suite="demo", files={"k.c": text}, target="k.c",
                      seed=seed)


def fake_fixer(probe: FakeProbe, budget: int = 400, seconds: float = 600.0, climb: bool = True,
               operators: tuple[Op, ...] | None = None) -> SearchFixer:
    return SearchFixer(SearchOptions(budget, seconds, operators, climb), lambda task: probe)


def test_budget_caps_the_candidates_evaluated() -> None:
    probe = FakeProbe(lambda text: failing())
    candidate = fake_fixer(probe, budget=17).repair(fake_task())
    assert candidate.metrics["candidates"] == 17 and len(probe.checks) == 17
    assert candidate.metrics["stop"] == "candidates"
    assert candidate.metrics["suite_pass"] is False


def test_seconds_budget_stops_the_search() -> None:
    def slow(text: str) -> Verdict:
        time.sleep(0.05)
        return failing()
    probe = FakeProbe(slow)
    candidate = fake_fixer(probe, budget=10_000, seconds=0.3).repair(fake_task())
    assert candidate.metrics["candidates"] < 10_000 and len(probe.checks) == candidate.metrics["candidates"]
    assert candidate.metrics["stop"] in ("cpu", "wall")


def test_first_passing_candidate_is_returned() -> None:
    probe = FakeProbe(lambda text: Verdict.ok() if "i < n;" in text else failing())
    candidate = fake_fixer(probe).repair(fake_task())
    assert "i < n;" in candidate.files["k.c"] and candidate.metrics["suite_pass"] is True
    assert candidate.metrics["candidates"] == len(probe.checks) < 400
    assert candidate.metrics["full_checks"] + candidate.metrics["syntax_rejected"] == len(probe.checks)


def test_budget_exhausted_returns_the_best_failing_candidate() -> None:
    def judge(text: str) -> Verdict:
        return failing("first mismatch at token 900") if "* 4" in text else failing("first mismatch at token 2")
    candidate = fake_fixer(FakeProbe(judge), budget=400, climb=False).repair(fake_task())
    assert "* 4" in candidate.files["k.c"] and candidate.metrics["suite_pass"] is False


PLAUSIBLE = ("i < n;", "s - 1;\n", "a[i] * 3", "s += a[i]")


def several_fixes(text: str) -> Verdict:
    # Four different single edits pass: which one a sample finds depends on its seed.
    changed = [marker for marker in ("i < n;", "s + 1;", "a[i] * 4", "s -= a[i]") if marker in text]
    return Verdict.ok() if changed else failing()


def test_same_seed_gives_the_same_candidate() -> None:
    first = fake_fixer(FakeProbe(several_fixes)).repair(fake_task(seed=5))
    again = fake_fixer(FakeProbe(several_fixes)).repair(fake_task(seed=5))
    assert first.files == again.files and first.metrics["candidates"] == again.metrics["candidates"]


def test_different_seeds_give_different_samples() -> None:
    found = {fake_fixer(FakeProbe(several_fixes)).repair(fake_task(seed=s)).files["k.c"] for s in range(8)}
    assert len(found) >= 2


def test_climb_stacks_two_edits_when_no_single_edit_passes() -> None:
    def judge(text: str) -> Verdict:
        if "i < n;" in text and "s - 2;" in text:
            return Verdict.ok()
        if "i < n;" in text:
            return failing("first mismatch at token 500")
        return failing("first mismatch at token 1")
    candidate = fake_fixer(FakeProbe(judge)).repair(fake_task())
    assert candidate.metrics["suite_pass"] is True and candidate.metrics["edits"] == 2


def test_without_climb_only_single_edits_are_tried() -> None:
    probe = FakeProbe(lambda text: Verdict.ok() if "i < n;" in text and "s - 2;" in text else failing())
    candidate = fake_fixer(probe, climb=False).repair(fake_task())
    assert candidate.metrics["suite_pass"] is False and candidate.metrics["edits"] <= 1


def test_operators_option_limits_the_edit_families() -> None:
    probe = FakeProbe(lambda text: failing())
    fake_fixer(probe, operators=(Op.RELATIONAL,), climb=False).repair(fake_task())
    changed = {line for text in probe.checks[1:] for line in text.splitlines() if line not in KERNEL.splitlines()}
    assert changed and all("for (int i = 0; i" in line for line in changed)


def test_buggy_program_that_already_passes_is_returned_unchanged() -> None:
    probe = FakeProbe(lambda text: Verdict.ok())
    candidate = fake_fixer(probe).repair(fake_task())
    assert candidate.files["k.c"] == KERNEL and len(probe.checks) == 1


def test_spec_only_arm_is_declined() -> None:
    with pytest.raises(FixerUnavailable, match="no code"):
        fake_fixer(FakeProbe(lambda t: failing())).repair(fake_task(text=""))


def test_without_a_probe_the_fixer_is_a_harness_error() -> None:
    with pytest.raises(FixerError, match="no suite probe"):
        SearchFixer(SearchOptions(), None).repair(fake_task())


@pytest.mark.parametrize(("arg", "message"), [
    ("budget=0", "budget must be at least 1"), ("budget=x", "invalid literal"), ("depth=2", "is not KEY=VALUE"),
    ("operators=relational+swop", "unknown mutation operator 'swop'"), ("seconds", "is not KEY=VALUE")])
def test_bad_search_options_are_one_line_errors(arg: str, message: str) -> None:
    with pytest.raises(FixerError, match=message):
        parse_options(arg, Settings())


def test_options_come_from_settings_and_the_fixer_argument() -> None:
    settings = Settings(search_budget=50, search_operators="relational,constant")
    assert parse_options(None, settings) == SearchOptions(50, 180.0, (Op.RELATIONAL, Op.CONSTANT), True)
    assert parse_options("budget=9,climb=no", settings).budget == 9
    assert parse_options("budget=9,climb=no", settings).climb is False


HLS_HELDOUT = [("ramp", "MLU-01"), ("ramp", "INIT-01"), ("ramp", "USE-01"), ("clamp_sum", "SHFT-01"),
               ("clamp_sum", "OOB-01")]
RTL_HELDOUT = [("acc", "OPSWAP-01"), ("acc", "CONST-01"), ("acc", "SEMI-01"), ("edge_count", "RSTPOL-01")]


HELDOUT_BUGS = HLS_HELDOUT + RTL_HELDOUT


@pytest.mark.parametrize(("name", "bug"), HELDOUT_BUGS, ids=[f"{n}-{b}" for n, b in HELDOUT_BUGS])
def test_search_repairs_held_out_cases(name: str, bug: str, tmp_path: Path) -> None:
    case = heldout(name)
    candidate = search(case, bug, tmp_path / "cache", budget=300)
    assert candidate.metrics["suite_pass"] is True, candidate.raw
    text = candidate.files[case.target]
    assert text != case.buggy_files(case.bug(bug))[case.target]
    assert harness_verdict(case, bug, text, tmp_path / "cache").passed  # the harness agrees


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc is not installed")
@pytest.mark.parametrize(("task", "exact"), [("elementwise/gelu_bias", True), ("elementwise/vector_add", False)])
def test_search_repairs_cuda_compile_errors_from_the_nvcc_log(task: str, exact: bool, tmp_path: Path) -> None:
    case = load_case(CORPUS / "cuda" / task / "case.toml")
    candidate = search(case, "COMPILE-01", tmp_path / "cache", budget=8)
    assert candidate.metrics["suite_pass"] is True, candidate.raw
    # gelu_bias: `__host__` -> `__device__` is the reference's fix; vector_add: `std::min<int>` -> `min`
    # builds and clamps the stride, where the reference does not clamp it.
    assert (patch_sha(candidate.files[case.target]) == patch_sha(case.files[case.target])) is exact
    verdict = harness_verdict(case, "COMPILE-01", candidate.files[case.target], tmp_path / "cache")
    assert verdict.passed or verdict.metrics.get("build") == "passed"
