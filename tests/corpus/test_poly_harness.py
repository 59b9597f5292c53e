"""The poly suite: harness-owned drivers, the --seed convention, size variants and a plausible bug."""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pytest_hwrepair.cases.case import Case
from pytest_hwrepair.cases.load import load_case
from pytest_hwrepair.fixers.base import Candidate, RepairTask
from pytest_hwrepair.oracles import OracleContext, make_oracle
from pytest_hwrepair.oracles.base import populate
from pytest_hwrepair.results.rundir import RunDir
from pytest_hwrepair.run.runner import Harness, execute
from pytest_hwrepair.run.sample import ProtocolConfig, Sample
from pytest_hwrepair.sandbox.base import Execution, Limits
from pytest_hwrepair.sandbox.local.sandbox import LocalSandbox
from pytest_hwrepair.verdict import Category, Outcome, RepairProtocol

ROOT = Path(__file__).resolve().parents[2]
POLY = ROOT / "cases" / "hls" / "poly"
HARNESS = ROOT / "oracles" / "poly" / "poly_harness.h"
CASE_FILES = sorted(POLY.glob("*/case.toml"))
SANITIZE = "-fsanitize=address,undefined -fno-sanitize-recover=all"
# ASan reserves terabytes of shadow address space, more than the sandbox's address-space rlimit allows.
SANITIZER_LIMITS = Limits(memory=0)
STEP_LIMITS = Limits()
# The strong oracle's fields are declared by its own module; until then they read as unknown keys.
pytestmark = pytest.mark.filterwarnings("ignore:.*strong_oracle.*unknown field")


@pytest.fixture
def work() -> Iterator[Path]:
    """A world-searchable scratch directory: sandbox steps run under an unprivileged uid."""
    path = Path(tempfile.mkdtemp(prefix="hwrepair-poly-"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def poly_case(name: str) -> Case:
    return load_case(POLY / name / "case.toml")


def strong_spec(case: Case) -> dict[str, Any]:
    spec = tomllib.loads(case.path.read_text(encoding="utf-8")).get("strong_oracle")
    assert isinstance(spec, dict), f"{case.path}: no [strong_oracle] table"
    return spec


def driver_of(case: Case) -> str:
    drivers = [name for name in case.model.sources if name != case.target]
    assert drivers == [f"{Path(case.target).stem}_main.c"], f"{case.path}: sources {case.model.sources}"
    return drivers[0]


def sanitized(build: str) -> str:
    assert build.startswith("gcc "), build
    return build.replace("gcc ", f"gcc {SANITIZE} ", 1)


def workspace(tmp_path: Path, case: Case, target_text: str | None = None) -> Path:
    ws = tmp_path / "ws"
    shutil.rmtree(ws, ignore_errors=True)
    ws.mkdir(parents=True)
    files = {name: case.files[name] for name in case.model.sources}
    if target_text is not None:
        files[case.target] = target_text
    populate(ws, case, files)
    return ws


def sh(ws: Path, argv: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, shell=True, cwd=ws, capture_output=True, text=True, timeout=timeout, check=False)


def built(ws: Path, build: str) -> None:
    result = sh(ws, build)
    assert result.returncode == 0 and not result.stderr.strip(), f"`{build}`:\n{result.stderr}"


def mutate(case: Case, find: str, replace: str, occurrence: int = 1) -> str:
    text = case.files[case.target]
    start = -1
    for _ in range(occurrence):
        start = text.index(find, start + 1)
    return text[:start] + replace + text[start + len(find):]


def in_sandbox(ws: Path, argv: str, limits: Limits = STEP_LIMITS) -> Execution:
    return LocalSandbox().run(ws, argv, timeout=60, limits=limits)


# --- what every case declares ----------------------------------------------------------------------------------


@pytest.mark.parametrize("path", CASE_FILES, ids=lambda p: p.parent.name)
def test_case_is_judged_by_output_diff_on_a_harness_owned_driver(path: Path) -> None:
    case = load_case(path)
    driver = driver_of(case)
    oracle = case.oracle
    assert (oracle.kind, oracle.compare, oracle.expected, oracle.tolerance) == ("output-diff", "stdout", None, 0.0)
    assert oracle.assets == ["poly/poly_harness.h"]
    assert oracle.build is not None and oracle.run == "./prog"
    assert {case.target, driver} <= set(oracle.build.split()) and "-ftrivial-auto-var-init=pattern" in oracle.build
    target, main = case.files[case.target], case.files[driver]
    assert not re.search(r"\bmain\s*\(|printf|<stdio\.h>", target), "the target must not print or own main"
    assert re.search(r"\bint main\(int argc, char \*\*argv\)", main) and '#include "poly_harness.h"' in main
    assert all(bug.file in (None, case.target) for bug in case.bugs), "every bug lives in the target"


@pytest.mark.parametrize("path", CASE_FILES, ids=lambda p: p.parent.name)
def test_case_declares_hls_diff_with_seeds_sanitizer_and_size_variants(path: Path) -> None:
    case = load_case(path)
    spec, driver = strong_spec(case), driver_of(case)
    assert spec["kind"] == "hls-diff" and spec["sanitize"] is True and spec["seeds"] >= 8
    variants = spec["variants"]
    assert len(variants) >= 2
    sizes: list[int] = []
    for variant in variants:
        build = variant["build"]
        assert build != case.oracle.build and {case.target, driver} <= set(build.split())
        assert build.startswith("gcc -O0 -std=c99 -ftrivial-auto-var-init=pattern ")
        macros = dict(re.findall(r"-D(\w+)=(\d+)", build))
        assert macros, f"{build}: no size macro"
        for name, value in macros.items():
            for text in (case.files[case.target], case.files[driver]):
                assert f"#ifndef {name}\n#define {name} " in text, f"{name} is not a size macro of both files"
            sizes.append(int(value))
        assert variant["run"].startswith("./prog")
    assert any(size % 2 == 1 for size in sizes), "at least one odd size"


def test_every_poly_case_is_covered() -> None:
    assert len(CASE_FILES) == 29
    assert sum(len(load_case(p).bugs) for p in CASE_FILES) == 113


# --- the golden builds behave: every seed and variant, deterministic, sanitizer-clean --------------------------


def outputs(ws: Path, runs: list[str]) -> dict[str, str]:
    found: dict[str, str] = {}
    for run in runs:
        result = sh(ws, run)
        assert result.returncode == 0 and not result.stderr, f"`{run}` exited {result.returncode}: {result.stderr}"
        assert not re.search(r"\b-?(nan|inf)\b", result.stdout), f"`{run}` printed a non-finite value"
        found[run] = result.stdout
    return found


@pytest.mark.parametrize("path", CASE_FILES, ids=lambda p: p.parent.name)
def test_golden_runs_every_seed_and_variant_clean_under_sanitizers(path: Path, tmp_path: Path) -> None:
    case = load_case(path)
    spec = strong_spec(case)
    assert case.oracle.build is not None
    ws = workspace(tmp_path, case)
    runs = ["./prog", *(f"./prog --seed {seed}" for seed in range(1, spec["seeds"] + 1))]
    built(ws, case.oracle.build)
    plain = outputs(ws, runs)
    assert outputs(ws, runs[:2]) == {run: plain[run] for run in runs[:2]}, "the driver is not deterministic"
    built(ws, sanitized(case.oracle.build))
    assert outputs(ws, runs) == plain, "the sanitizer build prints something else"
    assert len(set(plain.values())) >= 6, "the seeds barely change the inputs"
    for variant in spec["variants"]:
        built(ws, sanitized(variant["build"]))
        assert outputs(ws, [variant["run"]])[variant["run"]] != plain["./prog"]


# --- the --seed convention -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def gemm_prog(tmp_path_factory: pytest.TempPathFactory) -> Path:
    case = poly_case("gemm")
    ws = workspace(tmp_path_factory.mktemp("gemm"), case)
    assert case.oracle.build is not None
    built(ws, case.oracle.build)
    return ws


@pytest.mark.parametrize("args", ["--seed", "--seed x", "--seed -1", "--seed 1000000001", "--seed 12345678901",
                                  "--seed 1 2", "--sed 1", "1"])
def test_a_malformed_command_line_exits_2_with_one_line(gemm_prog: Path, args: str) -> None:
    result = sh(gemm_prog, f"./prog {args}")
    assert result.returncode == 2 and result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and "usage: ./prog [--seed N]" in result.stderr


def test_seed_zero_is_the_fixed_inputs_and_other_seeds_are_not(gemm_prog: Path) -> None:
    fixed = sh(gemm_prog, "./prog").stdout
    assert sh(gemm_prog, "./prog --seed 0").stdout == fixed
    assert sh(gemm_prog, "./prog --seed 1000000000").returncode == 0
    assert fixed not in {sh(gemm_prog, f"./prog --seed {seed}").stdout for seed in range(1, 9)}


PATTERNS_C = """\
#include "poly_harness.h"
int main(int argc, char **argv)
{
    double f[64];
    int32_t i[64];
    ph_start(argc, argv);
    ph_fill_f64(f, 64, -2.0, 6.0, 1.0);
    ph_fill_i32(i, 64, -100, 300, 16);
    for (int k = 0; k < 64; k++)
        printf("%.17g %d\\n", f[k], i[k]);
    return 0;
}
"""


@pytest.fixture(scope="module")
def patterns(tmp_path_factory: pytest.TempPathFactory) -> dict[int, list[tuple[float, int]]]:
    ws = tmp_path_factory.mktemp("patterns")
    shutil.copyfile(HARNESS, ws / "poly_harness.h")
    (ws / "patterns.c").write_text(PATTERNS_C, encoding="utf-8")
    built(ws, f"gcc -O0 -std=c99 -Wall -Wextra -Werror {SANITIZE} patterns.c -o prog")
    found = {}
    for seed in range(1, 9):
        result = sh(ws, f"./prog --seed {seed}")
        assert result.returncode == 0, result.stderr
        found[seed] = [(float(a), int(b)) for a, b in (line.split() for line in result.stdout.splitlines())]
    return found


def test_seeds_one_to_eight_cover_every_pattern(patterns: dict[int, list[tuple[float, int]]]) -> None:
    f = {seed: [v for v, _ in values] for seed, values in patterns.items()}
    i = {seed: [v for _, v in values] for seed, values in patterns.items()}
    assert all(-2.0 <= v <= 6.0 for vs in f.values() for v in vs)
    assert all(-100 <= v <= 300 for vs in i.values() for v in vs)
    assert len(set(f[1])) == 64 and len(set(i[1])) > 32                    # random
    assert set(f[2]) == {0.0} and set(i[2]) == {0}                         # zeros
    assert set(f[3]) == {1.0} and set(i[3]) == {16}                        # ones
    assert set(f[4]) == {-2.0, 6.0} and set(i[4]) == {-100, 300}           # extremes, both ends
    assert len(set(f[5])) <= 3 and len(set(i[5])) <= 3                     # ties
    assert f[6][:4] == [6.0, 0.0, 6.0, 0.0] and i[6][:4] == [300, 0, 300, 0]  # alternating
    assert f[7] == sorted(f[7]) and (f[7][0], f[7][-1]) == (-2.0, 6.0) and i[7] == sorted(i[7])  # ramp
    assert 32 <= f[8].count(0.0) < 64 and 32 <= i[8].count(0) < 64        # sparse


# --- attacks on the split -------------------------------------------------------------------------------------


def test_a_target_that_defines_main_does_not_build(work: Path) -> None:
    case = poly_case("gemm")
    takeover = case.files[case.target] + '\n#include <stdio.h>\nint main(void) { puts("0"); return 0; }\n'
    ws = workspace(work, case, takeover)
    verdict = make_oracle(case, OracleContext(work / "cache")).check(ws, LocalSandbox())
    assert verdict.category is Category.COMPILE_FAIL, verdict.summary


def test_a_memorised_output_passes_the_fixed_inputs_but_not_a_seed(work: Path) -> None:
    case = poly_case("atax")
    assert case.oracle.build is not None
    golden = workspace(work / "golden", case)
    built(golden, case.oracle.build)
    fixed = sh(golden, "./prog").stdout
    literal = fixed.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    memorised = (mutate(case, "tmp[i] += A[i][j] * x[j];", "tmp[i] += A[i][j] * x[i];")
                 + "\n#include <stdio.h>\n#include <unistd.h>\n"
                 + f'__attribute__((constructor)) static void forge(void) {{ fputs("{literal}", stdout); '
                 + "fflush(stdout); _exit(0); }\n")
    ws = workspace(work / "forged", case, memorised)
    verdict = make_oracle(case, OracleContext(work / "cache")).check(ws, LocalSandbox())
    assert verdict.outcome is Outcome.PASSED, "the fixed inputs alone cannot tell a memorised output"
    built(ws, case.oracle.build)
    assert sh(ws, "./prog --seed 1").stdout != sh(golden, "./prog --seed 1").stdout


class DriverForger:
    """Returns the bug unchanged, plus a driver of its own that prints the golden output."""

    name = "forger"
    deterministic = True
    config: dict[str, Any] = {"fixer": "forger"}

    def __init__(self, driver: str, text: str) -> None:
        self.driver, self.text = driver, text

    def repair(self, task: RepairTask) -> Candidate:
        return Candidate(files={task.target: task.source, self.driver: self.text})


def test_a_driver_returned_by_the_candidate_is_never_used(work: Path) -> None:
    case = poly_case("gemm")
    assert case.oracle.build is not None
    golden = workspace(work / "golden", case)
    built(golden, case.oracle.build)
    literal = sh(golden, "./prog").stdout.replace("\n", "\\n")
    forged = f'#include <stdio.h>\nint main(void) {{ fputs("{literal}", stdout); return 0; }}\n'
    harness = Harness(RunDir(work / "run"), OracleContext(work / "cache"))
    harness.run_dir.create()
    bug = case.bug("SHFT-02")
    forger = DriverForger(driver_of(case), forged)
    sample = Sample.make(case, bug, "forger", forger, 0, RepairProtocol.REPEATED, ProtocolConfig())
    result = execute(sample, forger, harness, LocalSandbox())
    assert (result.verdict.outcome, result.verdict.category) == (Outcome.FAILED, Category.TEST_FAIL)


# --- the plausible example: a loop bound one past the end, identical output, caught by the sanitizer ------------

PLAUSIBLE = [
    # the first product's column loop writes T[i][NJ] (T[i+1][0], cleared before use; past T on the last row)
    ("2mm", "j < NJ;", "j <= NJ;", 1, "index 18 out of bounds for type 'double [18]'"),
    # the clearing loop writes y[N] = 0.0 one past the end of the driver's y
    ("atax", "j < N;", "j <= N;", 1, "AddressSanitizer: global-buffer-overflow"),
]


@pytest.mark.parametrize(("name", "find", "replace", "occurrence", "report"), PLAUSIBLE,
                         ids=[p[0] for p in PLAUSIBLE])
def test_loop_bound_past_the_end_passes_the_suite_but_fails_the_sanitizer(
        name: str, find: str, replace: str, occurrence: int, report: str, work: Path) -> None:
    case = poly_case(name)
    assert case.oracle.build is not None
    mutant = mutate(case, find, replace, occurrence)
    ws = workspace(work / "mutant", case, mutant)
    verdict = make_oracle(case, OracleContext(work / "cache")).check(ws, LocalSandbox())
    assert verdict.outcome is Outcome.PASSED, verdict.summary
    golden = workspace(work / "golden", case)
    for ws_, clean in ((golden, True), (ws, False)):
        build = in_sandbox(ws_, sanitized(case.oracle.build))
        assert build.ok, build.tail()
        run = in_sandbox(ws_, "./prog", SANITIZER_LIMITS)
        assert (run.returncode == 0) is clean, run.tail()
        assert (report in run.stderr) is not clean, run.stderr[-2000:]
