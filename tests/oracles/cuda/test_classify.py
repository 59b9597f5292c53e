"""The CUDA taxonomy against real nvcc logs recorded with CUDA 13 and the runtime's own messages."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_hwrepair.cases.domains import CUDA_BUCKETS
from pytest_hwrepair.oracles.cuda.classify import (
    BUCKET_CATEGORIES,
    BUCKET_HARNESS_CATEGORY,
    BUILD_RULES,
    RUN_RULES,
    Classification,
    CudaCategory,
    Stage,
    StepLog,
    classify,
    signal_of,
)
from pytest_hwrepair.verdict import Category

LOGS = Path(__file__).parents[2] / "data" / "cuda_logs"
C = CudaCategory


def load_fixture(path: Path) -> tuple[dict[str, str], str]:
    head, _, body = path.read_text(encoding="utf-8").partition("\n---\n")
    fields = {}
    for line in head.splitlines():
        key, _, value = line.removeprefix("# ").partition(": ")
        fields[key] = value
    return fields, body


def fixture_log(fields: dict[str, str], body: str) -> StepLog:
    exit_status = None if fields["exit"] == "none" else int(fields["exit"])
    sig = int(fields["signal"]) if "signal" in fields else signal_of(exit_status)
    return StepLog(Stage(fields["stage"]), body, exit_status, fields.get("timed_out") == "True", sig)


FIXTURES = sorted(LOGS.glob("*.log"))


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_fixture_is_classified_as_its_header_says(path: Path) -> None:
    fields, body = load_fixture(path)
    found = classify(fixture_log(fields, body), fields.get("target"))
    assert found.category.value == fields["expect"], found


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_only_environment_failures_blame_the_harness(path: Path) -> None:
    fields, body = load_fixture(path)
    found = classify(fixture_log(fields, body), fields.get("target"))
    assert found.harness_fault is (fields.get("harness_fault") == "True")


def test_fixtures_cover_every_category_in_both_stages() -> None:
    seen = {(f["stage"], f["expect"]) for f, _ in map(load_fixture, FIXTURES)}
    build = {c for s, c in seen if s == "build"}
    run = {c for s, c in seen if s == "run"}
    assert build >= {"environment_dependency", "integration", "buildability", "out_of_memory", "timeout", "passed"}
    assert run >= {c.value for c in C} - {"buildability"}


def test_recorded_build_fixtures_are_most_of_the_build_stage() -> None:
    recorded = [f for f, _ in map(load_fixture, FIXTURES) if f["stage"] == "build" and f["source"].startswith("rec")]
    assert len(recorded) >= 15


def cudart_messages() -> dict[str, str]:
    rows = (LOGS / "cudart_error_strings.tsv").read_text(encoding="utf-8").splitlines()
    return {name: text for _, name, text in (row.split("\t") for row in rows if not row.startswith("#"))}


RUNTIME_EXPECTED = {
    "cudaErrorIllegalAddress": C.ILLEGAL_MEMORY_ACCESS,
    "cudaErrorMisalignedAddress": C.ILLEGAL_MEMORY_ACCESS,
    "cudaErrorLaunchFailure": C.ILLEGAL_MEMORY_ACCESS,
    "cudaErrorIllegalInstruction": C.ILLEGAL_MEMORY_ACCESS,
    "cudaErrorInvalidPc": C.ILLEGAL_MEMORY_ACCESS,
    "cudaErrorHardwareStackError": C.ILLEGAL_MEMORY_ACCESS,
    "cudaErrorMemoryAllocation": C.OUT_OF_MEMORY,
    "cudaErrorLaunchTimeout": C.TIMEOUT,
    "cudaErrorInvalidConfiguration": C.INTEGRATION,
    "cudaErrorLaunchOutOfResources": C.INTEGRATION,
    "cudaErrorInvalidDeviceFunction": C.INTEGRATION,
    "cudaErrorMissingConfiguration": C.INTEGRATION,
    "cudaErrorInvalidValue": C.INTEGRATION,
    "cudaErrorAssert": C.FUNCTIONAL_CORRECTNESS,
    "cudaErrorNoDevice": C.ENVIRONMENT_DEPENDENCY,
    "cudaErrorInsufficientDriver": C.ENVIRONMENT_DEPENDENCY,
    "cudaErrorNoKernelImageForDevice": C.ENVIRONMENT_DEPENDENCY,
    "cudaErrorSystemDriverMismatch": C.ENVIRONMENT_DEPENDENCY,
}


@pytest.mark.parametrize("name", sorted(RUNTIME_EXPECTED))
def test_runtime_message_text_alone_is_recognised(name: str) -> None:
    # PyTorch-style harnesses print cudart's message text without the error name.
    text = f"RuntimeError: CUDA error: {cudart_messages()[name]}"
    assert classify(StepLog(Stage.RUN, text, 1)).category is RUNTIME_EXPECTED[name]


@pytest.mark.parametrize("name", sorted(RUNTIME_EXPECTED))
def test_runtime_error_name_alone_is_recognised(name: str) -> None:
    text = f"kernel failed with {name}"
    assert classify(StepLog(Stage.RUN, text, 2)).category is RUNTIME_EXPECTED[name]


def test_deadline_decides_timeout_whatever_the_log_says() -> None:
    log = StepLog(Stage.RUN, "MISMATCH out[0]: got 1 expected 2\n", None, timed_out=True)
    assert classify(log).category is C.TIMEOUT


def test_word_killed_in_a_wrong_answer_is_not_a_timeout() -> None:
    log = StepLog(Stage.RUN, "3 threads killed by mask\nMISMATCH y[1]: got 0 expected 1\n", 1)
    assert classify(log).category is C.FUNCTIONAL_CORRECTNESS


def test_kernel_printing_timeout_words_and_exiting_zero_passes() -> None:
    log = StepLog(Stage.RUN, "timeout guard armed; nothing killed\nKernel time: 0.1 ms\nPASSED\n", 0)
    assert classify(log).category is C.PASSED


def test_mismatch_must_start_its_line() -> None:
    log = StepLog(Stage.RUN, "note: no MISMATCH expected here\nKernel time: 0.1 ms\n", 0)
    assert classify(log).category is C.PASSED


def test_two_categories_in_one_stage_are_unclassified() -> None:
    text = "CUDA error: out of memory (cudaErrorMemoryAllocation)\nMISMATCH x[0]: got 1 expected 2\n"
    found = classify(StepLog(Stage.RUN, text, 1))
    assert found.category is C.UNCLASSIFIED
    assert set(found.matched) == {"gpu_out_of_memory", "harness_mismatch"}


def test_many_lines_of_one_category_are_not_ambiguous() -> None:
    _, body = load_fixture(LOGS / "build_multiple_definition.log")
    found = classify(StepLog(Stage.BUILD, body, 1), "solution.cu")
    assert found.category is C.INTEGRATION
    assert found.matched == ("multiple_definition",)


def test_first_matching_rule_decides_a_line() -> None:
    # "uses too much shared data" is also a ptxas error: the earlier, specific rule wins.
    line = "ptxas error   : Entry function '_Z1kv' uses too much shared data (0x13880 bytes, 0xc000 max)"
    assert classify(StepLog(Stage.BUILD, line, 255)).rule == "too_much_shared_memory"


def test_error_in_the_candidate_file_is_buildability() -> None:
    log = StepLog(Stage.BUILD, 'solution.cu(4): error: identifier "i" is undefined\n', 2)
    assert classify(log, "solution.cu").category is C.BUILDABILITY


def test_error_in_the_harness_file_is_integration() -> None:
    log = StepLog(Stage.BUILD, 'test_main.cu(30): error: identifier "launch_scale" is undefined\n', 2)
    assert classify(log, "solution.cu").category is C.INTEGRATION


def test_error_in_a_system_header_is_buildability() -> None:
    text = "/usr/local/cuda/include/cuda_fp16.hpp(12): error: more than one instance of overloaded function\n"
    assert classify(StepLog(Stage.BUILD, text, 2), "solution.cu").category is C.BUILDABILITY


def test_without_a_target_every_located_error_is_buildability() -> None:
    log = StepLog(Stage.BUILD, 'test_main.cu(30): error: identifier "x" is undefined\n', 2)
    assert classify(log).category is C.BUILDABILITY


def test_notes_and_warnings_are_not_errors() -> None:
    _, body = load_fixture(LOGS / "build_shuffle_wrong_arity.log")
    found = classify(StepLog(Stage.BUILD, body, 2), "solution.cu")
    assert found.matched == ("compiler_error",)


def test_failed_build_without_a_known_line_falls_back_to_buildability() -> None:
    found = classify(StepLog(Stage.BUILD, "something went wrong\n", 1))
    assert (found.category, found.rule) == (C.BUILDABILITY, "fallback:exit-1")


@pytest.mark.parametrize(("sig", "expected"), [
    (11, C.ILLEGAL_MEMORY_ACCESS), (7, C.ILLEGAL_MEMORY_ACCESS), (24, C.TIMEOUT), (9, C.OUT_OF_MEMORY),
    (6, C.FUNCTIONAL_CORRECTNESS), (8, C.FUNCTIONAL_CORRECTNESS),
])
def test_silent_signal_falls_back_by_signal(sig: int, expected: CudaCategory) -> None:
    assert classify(StepLog(Stage.RUN, "", -sig, signal=sig)).category is expected


@pytest.mark.parametrize(("returncode", "expected"), [(None, None), (0, None), (2, None), (-11, 11), (139, 11),
                                                      (137, 9), (128, None), (255, None)])
def test_signal_of_reads_negative_and_shell_statuses(returncode: int | None, expected: int | None) -> None:
    assert signal_of(returncode) == expected


HARNESS = [
    (Stage.BUILD, C.BUILDABILITY, Category.COMPILE_FAIL),
    (Stage.BUILD, C.INTEGRATION, Category.COMPILE_FAIL),
    (Stage.BUILD, C.ENVIRONMENT_DEPENDENCY, Category.COMPILE_FAIL),
    (Stage.BUILD, C.OUT_OF_MEMORY, Category.COMPILE_FAIL),
    (Stage.BUILD, C.TIMEOUT, Category.TIMEOUT),
    (Stage.BUILD, C.UNCLASSIFIED, Category.COMPILE_FAIL),
    (Stage.BUILD, C.PASSED, Category.PASS),
    (Stage.RUN, C.ILLEGAL_MEMORY_ACCESS, Category.RUNTIME_CRASH),
    (Stage.RUN, C.OUT_OF_MEMORY, Category.RUNTIME_CRASH),
    (Stage.RUN, C.INTEGRATION, Category.RUNTIME_CRASH),
    (Stage.RUN, C.ENVIRONMENT_DEPENDENCY, Category.RUNTIME_CRASH),
    (Stage.RUN, C.TIMEOUT, Category.TIMEOUT),
    (Stage.RUN, C.FUNCTIONAL_CORRECTNESS, Category.TEST_FAIL),
    (Stage.RUN, C.UNCLASSIFIED, Category.RUNTIME_CRASH),
    (Stage.RUN, C.PASSED, Category.PASS),
]


@pytest.mark.parametrize(("stage", "category", "harness"), HARNESS)
def test_taxonomy_maps_onto_the_harness_categories(stage: Stage, category: CudaCategory, harness: Category) -> None:
    assert Classification(stage, category, "r").harness_category is harness


def test_every_bucket_has_expected_categories() -> None:
    assert set(BUCKET_CATEGORIES) == set(CUDA_BUCKETS) == set(BUCKET_HARNESS_CATEGORY)


def test_rule_names_are_unique_per_stage() -> None:
    for rules in (BUILD_RULES, RUN_RULES):
        names = [r.name for r in rules]
        assert len(names) == len(set(names))


def test_classification_serialises_to_plain_data() -> None:
    found = classify(StepLog(Stage.RUN, "CUDA error: out of memory (cudaErrorMemoryAllocation)", 2))
    data = found.to_json()
    assert data["category"] == "out_of_memory"
    assert data["stage"] == "run"
    assert data["matched"] == ["gpu_out_of_memory"]
