"""The mach suite under hls-diff: plausible-but-wrong repairs pass the suite oracle and fail the strong one."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_hwrepair.cases.case import Case, find_case_files
from pytest_hwrepair.cases.load import load_case
from pytest_hwrepair.oracles.base import resolve_asset
from pytest_hwrepair.verdict import CaseError, Category, Outcome

from ..hls_diff_helpers import edited, searchable_tmp, strong, suite, workspace_for


@pytest.fixture
def tmp_path() -> Iterator[Path]:
    yield from searchable_tmp()


MACH = Path(__file__).resolve().parents[2] / "cases" / "hls" / "mach"
# Plausible-but-wrong repairs a single fixed input cannot tell apart, as the edits read in these designs.
PLAUSIBLE = {
    "nw": ("while (i > 0 || j > 0)", "while (i > 0 && j > 0)"),              # drops the leading gaps
    "sort_radix": ("for (shift = 0;", "for (shift = 1;"),                      # bit 0 is never sorted
    "kmp": ("if (pat[k] == pat[q])", "if (pat[k + 1] == pat[q])"),            # a wrong prefix function
}


@pytest.fixture(scope="module")
def cache() -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix="hwrepair-test-cache-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


def mach(design: str) -> Case:
    return load_case(MACH / design / "case.toml", strict=True)


@pytest.mark.parametrize("design", sorted(PLAUSIBLE))
def test_plausible_repair_passes_the_suite_and_fails_the_strong_oracle(tmp_path: Path, cache: Path,
                                                                        design: str) -> None:
    case = mach(design)
    candidate = edited(case, *PLAUSIBLE[design])
    assert suite(tmp_path, case, candidate, cache=cache).passed
    verdict = strong(tmp_path, case, candidate, cache=cache)
    assert verdict.outcome is Outcome.FAILED and verdict.category is Category.TEST_FAIL
    assert verdict.summary.startswith("seed ") and "first mismatch" in verdict.summary


@pytest.mark.parametrize("design", sorted(PLAUSIBLE))
def test_golden_design_passes_its_strong_oracle(tmp_path: Path, cache: Path, design: str) -> None:
    verdict = strong(tmp_path, mach(design), cache=cache)
    assert verdict.passed, verdict.summary
    assert verdict.summary == "matches the golden build on 8 seeds, the sanitizer build"


def test_every_mach_case_has_the_strong_oracle_and_no_expected_output_in_its_workspace(tmp_path: Path) -> None:
    paths = find_case_files([MACH])
    assert len(paths) == 15
    for path in paths:
        case = load_case(path, strict=True)
        assert case.model.strong_oracle is not None and case.model.strong_oracle.kind == "hls-diff"
        assert case.model.strong_oracle.sanitize
        assert case.oracle.expected == "check.data"
        ws = workspace_for(tmp_path, case, None)
        expected = case.files["check.data"]
        planted = [p.name for p in ws.rglob("*") if p.is_file() and p.read_text(errors="replace") == expected]
        assert planted == [] and not (ws / "check.data").exists(), path


def test_expected_file_listed_as_data_is_a_case_error(tmp_path: Path) -> None:
    folder = tmp_path / "kmp"
    shutil.copytree(MACH / "kmp", folder)
    toml = folder / "case.toml"
    toml.write_text(toml.read_text().replace('data = ["input.data"]', 'data = ["input.data", "check.data"]'))
    with pytest.raises(CaseError, match=r"oracle.expected: 'check.data' is also a source or data file"):
        load_case(toml)


@pytest.mark.parametrize("argv", [["--seed"], ["--seed", "x"], ["--seed", "-1"], ["--seed", "1", "extra"],
                                  ["--sed", "1"]])
def test_mach_driver_refuses_a_malformed_seed(tmp_path: Path, argv: list[str]) -> None:
    prog = build_sort_merge(tmp_path)
    result = subprocess.run([str(prog), "input.data", "out", *argv], cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 1 and "usage:" in result.stderr


def test_mach_driver_seed_zero_is_the_fixed_vectors(tmp_path: Path) -> None:
    prog = build_sort_merge(tmp_path)
    runs = {seed: subprocess.run([str(prog), "input.data", f"out{seed}", *(["--seed", seed] if seed else [])],
                                 cwd=tmp_path, check=True) for seed in ("", "0", "1", "2")}
    texts = {seed: (tmp_path / f"out{seed}").read_text() for seed in runs}
    assert texts[""] == texts["0"] == (MACH / "sort_merge" / "check.data").read_text()
    assert len({texts[""], texts["1"], texts["2"]}) == 3


def build_sort_merge(root: Path) -> Path:
    case = mach("sort_merge")
    for name in (*case.model.sources, *case.model.data):
        (root / name).write_text(case.files[name])
    for asset in case.oracle.assets:
        shutil.copy(resolve_asset(case, asset), root)
    assert case.oracle.build is not None
    subprocess.run(case.oracle.build, shell=True, cwd=root, check=True)
    return root / "prog"
