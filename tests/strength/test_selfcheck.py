"""`hwrepair validate`: every rejected bug is listed with its reason, then the counts."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from pytest_hwrepair.cases.load import load_case
from pytest_hwrepair.oracles.cuda.checks import NO_DEVICE
from pytest_hwrepair.run.runner import SampleResult
from pytest_hwrepair.strength.selfcheck import BugCheck, judge
from pytest_hwrepair.verdict import Category, Verdict

from ..conftest import DUMP_C, DUMP_TOML, SUM_C, SUM_TOML, write_case

UNOBSERVABLE = SUM_TOML + """
[[bug]]
id = "USE-01"
type = "USE"
find = "s += i;"
replace = "s = s + i;"
note = "the same sum written differently: not a bug at all"

[[bug]]
id = "INF-01"
type = "INF"
find = "i < 10"
replace = "i < 11"
note = "claims to hang but only miscounts"
"""


def validate(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pytest_hwrepair.cli", "validate", str(root / "cases"), "-j", "2",
                           "--cache-dir", str(root / "cache"), *args],
                          capture_output=True, text=True, cwd=root, check=False)


def test_clean_cases_report_zero_rejected(demo_cases: Path) -> None:
    result = validate(demo_cases)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "2 case files, 3 bugs: 3 accepted, 0 rejected, 0 unverified here" in result.stdout


def test_rejections_name_each_bug_and_reason(tmp_path: Path) -> None:
    write_case(tmp_path, "sum", {"case.toml": UNOBSERVABLE, "sum.c": SUM_C})
    write_case(tmp_path, "dump", {"case.toml": DUMP_TOML, "dump.c": DUMP_C.replace("return 0;", "return 3;")})
    write_case(tmp_path, "bad", {"case.toml": SUM_TOML.replace('find = "i < 10"', 'find = "i<10"'), "sum.c": SUM_C})
    result = validate(tmp_path)
    assert result.returncode == 1
    out = result.stdout
    assert "[USE-01] bug not observable: the buggy version passes" in out
    assert "[INF-01] INF bug does not fail by timeout (fails with test_fail)" in out
    assert "[USE-01] reference fails: [runtime_crash] run exited with status 3" in out
    assert "bad/case.toml [-] case file problem:" in out and "[MLU-01] find: snippet not found" in out
    assert "6 bugs: 2 accepted, 4 rejected" in out
    assert "rejected - bug not observable: 1" in out and "rejected - reference fails: 1" in out


def test_json_output_has_one_object_per_bug(demo_cases: Path) -> None:
    result = validate(demo_cases, "--json")
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 3 and all('"status": "accepted"' in line for line in lines)


def test_hls_bug_that_does_not_compile_is_rejected(tmp_path: Path) -> None:
    broken = SUM_TOML + """
[[bug]]
id = "BUF-01"
type = "BUF"
find = "int s = 0;"
replace = "int s = 0"
note = "a syntax error, not a logic bug"
"""
    write_case(tmp_path, "sum", {"case.toml": broken, "sum.c": SUM_C})
    result = validate(tmp_path)
    assert "[BUF-01] injected program does not compile" in result.stdout
    assert "rejected - injected program does not compile (an hls bug must build and fail when run): 1" in result.stdout


CUDA_TOML = """\
schema = 1
id = "k"
domain = "cuda"
suite = "demo"
sources = ["solution.cu"]
target = "solution.cu"

[oracle]
kind = "cuda"
build = "nvcc -o test solution.cu"
run = "./test"

[[bug]]
id = "START-01"
bucket = "{bucket}"
broken = "start.cu"
"""


def cuda_judgement(tmp_path: Path, bucket: str, ref: Verdict, noop: Verdict) -> BugCheck:
    folder = tmp_path / bucket
    folder.mkdir()
    (folder / "case.toml").write_text(CUDA_TOML.format(bucket=bucket))
    (folder / "solution.cu").write_text("__global__ void k() {}\n")
    (folder / "start.cu").write_text("__global__ void k() {\n")
    case = load_case(folder / "case.toml")
    return judge(case, case.bugs[0], SampleResult([], ref), SampleResult([], noop))


BUILT = {"cuda_stage": "build", "build": "passed"}


def test_compile_error_start_that_builds_is_rejected(tmp_path: Path) -> None:
    check = cuda_judgement(tmp_path, "compile_error", Verdict.skip(NO_DEVICE, metrics=BUILT),
                           Verdict.skip(NO_DEVICE, metrics=BUILT))
    assert (check.status, check.reason.split(":")[0]) == ("rejected", "compile_error start does not fail to build")


def test_compile_error_start_that_fails_to_build_is_accepted_without_a_gpu(tmp_path: Path) -> None:
    check = cuda_judgement(tmp_path, "compile_error", Verdict.skip(NO_DEVICE, metrics=BUILT),
                           Verdict.fail(Category.COMPILE_FAIL, "build failed: buildability"))
    assert check.status == "accepted"


def test_runtime_bucket_start_that_fails_to_build_is_rejected(tmp_path: Path) -> None:
    check = cuda_judgement(tmp_path, "logic_error", Verdict.skip(NO_DEVICE, metrics=BUILT),
                           Verdict.fail(Category.COMPILE_FAIL, "build failed: buildability"))
    assert check.status == "rejected"
    assert check.reason == "logic_error start fails to build (a logic_error start must build and fail with test_fail)"


def test_start_failing_in_another_way_than_its_bucket_is_rejected(tmp_path: Path) -> None:
    check = cuda_judgement(tmp_path, "memory_crash", Verdict.ok(), Verdict.fail(Category.TEST_FAIL, "mismatch"))
    assert (check.status, check.reason) == ("rejected", "memory_crash start fails with test_fail, not runtime_crash")


def test_dependency_missing_for_both_leaves_the_start_unverified(tmp_path: Path) -> None:
    lacking = Verdict.skip("this machine lacks what the task needs (the reference fails its build here too)")
    check = cuda_judgement(tmp_path, "compile_error", lacking, lacking)
    assert check.status == "unverified" and check.reason.startswith("not checked here: this machine lacks")


def test_cuda_reference_failing_its_strong_oracle_is_rejected(tmp_path: Path) -> None:
    # On a GPU the reference's cuda-diff record (other shapes and seeds, memcheck) is a gate, as hls-diff is.
    strong = {"outcome": "failed", "summary": "compute-sanitizer memcheck, shape 1 seed 1: Invalid __global__ read"}
    check = cuda_judgement(tmp_path, "logic_error", Verdict.ok(metrics={"strong": strong}),
                           Verdict.fail(Category.TEST_FAIL, "mismatch"))
    assert check.status == "rejected"
    assert check.reason == f"reference fails the strong oracle: [failed] {strong['summary']}"


def test_cuda_reference_with_an_undecided_strong_oracle_is_accepted(tmp_path: Path) -> None:
    # Without a device the strong record is null (undecided): never a problem.
    for name, strong in (("a", None), ("b", {"outcome": "passed", "summary": "6 configurations, memcheck clean"})):
        folder = tmp_path / name
        folder.mkdir()
        check = cuda_judgement(folder, "logic_error", Verdict.ok(metrics={"strong": strong}),
                               Verdict.fail(Category.TEST_FAIL, "mismatch"))
        assert check.status == "accepted", check


def test_progress_lines_come_as_each_bug_ends(demo_cases: Path) -> None:
    result = validate(demo_cases, "--progress", "--json")
    assert result.returncode == 0, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.startswith("[")]
    assert sorted(line.split("]")[0] for line in lines) == ["[1/3", "[2/3", "[3/3"]
    assert all(" accepted " in line and "reference passed/pass, noop failed/" in line for line in lines), lines
    assert len(result.stdout.strip().splitlines()) == 3  # stdout keeps its JSON objects, one per bug


def test_progress_names_a_case_file_that_does_not_load(tmp_path: Path) -> None:
    write_case(tmp_path, "bad", {"case.toml": SUM_TOML.replace('find = "i < 10"', 'find = "i<10"'), "sum.c": SUM_C})
    result = validate(tmp_path, "--progress")
    assert result.returncode == 1
    assert "[1/1] rejected " in result.stderr and "case file problem" in result.stderr
