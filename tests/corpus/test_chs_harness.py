"""The chs suite's harness-owned drivers: forged verdicts fail, and every case is wired to its driver."""

from __future__ import annotations

import shutil
import subprocess
import tomllib
from pathlib import Path
from typing import Any

import pytest

from pytest_hwrepair.cases.case import Case, inject
from pytest_hwrepair.cases.load import load_case
from pytest_hwrepair.oracles import OracleContext, make_oracle
from pytest_hwrepair.oracles.base import populate, scratch_workspace
from pytest_hwrepair.sandbox.local.sandbox import LocalSandbox
from pytest_hwrepair.verdict import Category, Outcome, Verdict

from ..conftest import agent_python

# The strong oracle's fields beyond kind/timeout/runs arrive with the hls-diff oracle; until then they warn.
pytestmark = pytest.mark.filterwarnings(r"ignore:.*strong_oracle\.(seeds|sanitize). unknown field:UserWarning")

CHS = Path(__file__).resolve().parents[2] / "cases" / "hls" / "chs"
DESIGNS = sorted(p.name for p in CHS.iterdir() if (p / "case.toml").is_file())
XDIST = [pytest.param([], id="n0"), pytest.param(["-n", "2"], id="n2")]

# The attack that passed every chs bug while the self-check lived in the target.
CONSTRUCTOR = """
#include <stdio.h>
#include <unistd.h>
__attribute__((constructor)) static void f(void){printf("mismatches = 0\\n");fflush(stdout);_exit(0);}
"""
MAIN = """
#include <stdio.h>
int main(void) { printf("mismatches = 0\\n"); return 0; }
"""
WEAK_MAIN = """
#include <stdio.h>
__attribute__((weak)) int main(void) { printf("mismatches = 0\\n"); return 0; }
"""


def chs_case(design: str) -> Case:
    return load_case(CHS / design / "case.toml")


def raw_case(design: str) -> dict[str, Any]:
    return tomllib.loads((CHS / design / "case.toml").read_text(encoding="utf-8"))


def driver_of(case: Case) -> str:
    return f"{case.id}_test.c"


def judge(tmp_path: Path, case: Case, target_text: str) -> Verdict:
    """The suite oracle's verdict on a workspace laid out as the harness does: only the target is the candidate's."""
    files = {name: case.files[name] for name in case.model.sources}
    files[case.model.target] = target_text
    with scratch_workspace("hwrepair-test-") as workspace:  # reachable for the sandbox's step uid
        populate(workspace, case, files)
        return make_oracle(case, OracleContext(tmp_path / "cache")).check(workspace, LocalSandbox())


def buggy_aes(bug: str = "SHFT-01") -> str:
    case = chs_case("aes")
    return inject(case, case.bug(bug))


def test_the_golden_aes_passes_its_suite_oracle(tmp_path: Path) -> None:
    case = chs_case("aes")
    verdict = judge(tmp_path, case, case.files[case.model.target])
    assert verdict.outcome is Outcome.PASSED, verdict.summary


def test_a_constructor_printing_the_old_success_line_fails(tmp_path: Path) -> None:
    verdict = judge(tmp_path, chs_case("aes"), buggy_aes() + CONSTRUCTOR)
    assert (verdict.outcome, verdict.category) == (Outcome.FAILED, Category.TEST_FAIL)
    assert "mismatch" in verdict.summary or "tokens" in verdict.summary


def test_the_constructor_fails_even_around_the_golden_design(tmp_path: Path) -> None:
    case = chs_case("aes")
    verdict = judge(tmp_path, case, case.files[case.model.target] + CONSTRUCTOR)
    assert (verdict.outcome, verdict.category) == (Outcome.FAILED, Category.TEST_FAIL)


def test_a_main_in_the_target_does_not_link_with_the_driver(tmp_path: Path) -> None:
    verdict = judge(tmp_path, chs_case("aes"), buggy_aes() + MAIN)
    assert (verdict.outcome, verdict.category) == (Outcome.FAILED, Category.COMPILE_FAIL)


def test_a_weak_main_in_the_target_leaves_the_bug_to_be_judged(tmp_path: Path) -> None:
    verdict = judge(tmp_path, chs_case("aes"), buggy_aes() + WEAK_MAIN)
    assert (verdict.outcome, verdict.category) == (Outcome.FAILED, Category.TEST_FAIL)


def test_a_target_that_defines_the_driver_s_helpers_does_not_shadow_them(tmp_path: Path) -> None:
    # The driver's helpers are static: a target defining functions of the same names changes nothing.
    helpers = "\nvoid put_bytes(const char *l, const unsigned char *p, int n) { (void)l; (void)p; (void)n; }\n"
    verdict = judge(tmp_path, chs_case("aes"), buggy_aes() + helpers)
    assert (verdict.outcome, verdict.category) == (Outcome.FAILED, Category.TEST_FAIL)


AGENT = """
import json, pathlib, sys
task = json.load(open(sys.argv[1]))
ws = pathlib.Path(task["workspace"])
target = ws / task["target"]
text = target.read_text()
if task["bug"] == "SHFT-01":        # a real repair
    text = text.replace("(w << 8) | (w >> 16)", "(w << 8) | (w >> 24)")
else:                                # the bug stays; a constructor prints the old success line
    text += {constructor!r}
target.write_text(text)
# the driver is harness-owned: this copy must never be built
(ws / "aes_test.c").write_text('#error "the candidate driver was built"\\n')
"""


@pytest.mark.parametrize("xdist", XDIST)
def test_an_agent_cannot_forge_aes_or_replace_its_driver(pytester: pytest.Pytester, agent_dir: Path,
                                                         xdist: list[str]) -> None:
    shutil.copytree(CHS / "aes", pytester.path / "cases" / "hls" / "chs" / "aes")
    agent = agent_dir / "agent.py"
    agent.write_text(AGENT.format(constructor=CONSTRUCTOR))
    python, *mounts = agent_python(agent)  # the agent runs in the sandbox: its interpreter and script mounted
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "-p", "no:randomly", "cases", "-k", "SHFT-01 or SHFT-02",
        f"--fixer=cmd:{python} {agent} {{task}}", *mounts, "--hwrepair-samples", "1", *xdist)
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*SHFT-02*"])


@pytest.mark.parametrize("design", DESIGNS)
def test_every_chs_case_is_judged_by_output_diff_against_the_golden_build(design: str) -> None:
    case = chs_case(design)
    assert case.oracle.kind == "output-diff"
    assert case.oracle.expected is None and case.model.data == [] and case.oracle.assets == []
    assert case.oracle.compare == "stdout" and case.oracle.stdout is None


@pytest.mark.parametrize("design", DESIGNS)
def test_every_chs_case_builds_a_driver_that_is_not_the_target(design: str) -> None:
    case = chs_case(design)
    driver = driver_of(case)
    assert case.model.sources == [case.model.target, driver] and driver != case.model.target
    assert case.oracle.build is not None and f" {case.model.target} {driver} " in case.oracle.build
    assert "-ftrivial-auto-var-init=pattern" in case.oracle.build
    assert "int main(" in case.files[driver]
    target = case.files[case.model.target]
    assert "main(" not in target and "mismatches" not in target and "printf" not in target
    assert all(bug.file in (None, case.model.target) for bug in case.bugs)


@pytest.mark.parametrize("design", DESIGNS)
def test_every_chs_case_declares_an_hls_diff_strong_oracle(design: str) -> None:
    case = chs_case(design)
    strong = raw_case(design)["strong_oracle"]
    assert strong["kind"] == "hls-diff"
    assert isinstance(strong["seeds"], int) and 1 <= strong["seeds"] <= 64
    assert strong.get("sanitize") is True
    # run and build default to the suite oracle's, so the strong oracle drives the same harness-owned driver
    assert "run" not in strong and "build" not in strong
    assert driver_of(case) in (case.oracle.build or "")


def build(folder: Path, case: Case, target: str | None = None, sanitize: bool = False) -> Path:
    """Builds the case's sources (the golden target unless another is given) in folder; returns the program."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in case.model.sources:
        text = target if target is not None and name == case.model.target else case.files[name]
        (folder / name).write_text(text, encoding="utf-8")
    command = case.oracle.build or ""
    if sanitize:
        command = command.replace("gcc ", "gcc -fsanitize=address,undefined -fno-sanitize-recover=all ", 1)
    subprocess.run(command, shell=True, cwd=folder, check=True, capture_output=True, timeout=120)
    return folder / "prog"


def run_prog(prog: Path, *args: str) -> str:
    done = subprocess.run([str(prog), *args], cwd=prog.parent, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, f"{prog.parent.name} {' '.join(args)}: exit {done.returncode}: {done.stderr[-500:]}"
    return done.stdout


@pytest.mark.parametrize("design", DESIGNS)
def test_seeded_inputs_are_deterministic_and_drive_the_output(tmp_path: Path, design: str) -> None:
    prog = build(tmp_path, chs_case(design))
    fixed, zero = run_prog(prog), run_prog(prog, "--seed", "0")
    one, two = run_prog(prog, "--seed", "1"), run_prog(prog, "--seed", "2")
    assert fixed == zero and len(fixed.split()) > 100
    assert one == run_prog(prog, "--seed", "1")
    assert len({fixed, one, two}) == 3


@pytest.mark.parametrize("design", DESIGNS)
def test_a_malformed_seed_is_a_usage_error(tmp_path: Path, design: str) -> None:
    prog = build(tmp_path, chs_case(design))
    for args in (["--seed"], ["--seed", "x"], ["--seed", "1", "extra"], ["--other", "1"]):
        done = subprocess.run([str(prog), *args], cwd=tmp_path, capture_output=True, text=True, timeout=30)
        assert done.returncode == 2 and "usage" in done.stderr and done.stdout == ""


@pytest.mark.slow
@pytest.mark.parametrize("design", DESIGNS)
def test_the_golden_build_runs_every_seed_clean_under_sanitizers(tmp_path: Path, design: str) -> None:
    case = chs_case(design)
    plain, checked = build(tmp_path / "plain", case), build(tmp_path / "san", case, sanitize=True)
    for seed in range(raw_case(design)["strong_oracle"]["seeds"] + 1):
        args = ["--seed", str(seed)]
        assert run_prog(checked, *args) == run_prog(plain, *args), f"seed {seed}"


def test_an_out_of_range_conversion_bug_passes_the_fixed_dfloat_vectors_but_not_the_seeds(tmp_path: Path) -> None:
    # The plausible dfloat candidate: out-of-range conversions keep their value but lose the invalid flag.
    case = chs_case("dfloat")
    raise_invalid = "        fx_raise(FX_INVALID);\n        return INT64_MIN;\n    }\n    sh = 62 - e;"
    golden = case.files[case.model.target]
    assert golden.count(raise_invalid) == 1
    plausible = golden.replace(raise_invalid, raise_invalid.replace("        fx_raise(FX_INVALID);\n", "", 1))
    assert judge(tmp_path / "suite", case, plausible).outcome is Outcome.PASSED
    reference, candidate = build(tmp_path / "golden", case), build(tmp_path / "candidate", case, plausible)
    seeds = range(1, raw_case("dfloat")["strong_oracle"]["seeds"] + 1)
    differing = [s for s in seeds if run_prog(candidate, "--seed", str(s)) != run_prog(reference, "--seed", str(s))]
    assert differing == list(seeds)
