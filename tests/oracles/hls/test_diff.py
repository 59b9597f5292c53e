"""The hls-diff strong oracle on small cases: seeds, tolerances, variants, the sanitizer, golden outputs."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_hwrepair.cases.case import Case
from pytest_hwrepair.cases.load import load_case
from pytest_hwrepair.fixers import NoopFixer, ReferenceFixer
from pytest_hwrepair.fixers.base import Fixer
from pytest_hwrepair.oracles import ORACLES, OracleContext
from pytest_hwrepair.oracles.hls.oracle import parse_spec
from pytest_hwrepair.results.rundir import RunDir, SampleRecord
from pytest_hwrepair.run.runner import Harness, execute
from pytest_hwrepair.run.sample import ProtocolConfig, Sample
from pytest_hwrepair.sandbox.base import Limits
from pytest_hwrepair.sandbox.local.sandbox import LocalSandbox
from pytest_hwrepair.strength.selfcheck import validate
from pytest_hwrepair.verdict import CaseError, Category, Outcome, RepairProtocol

from ...hls_diff_helpers import SpySandbox, edited, make_case, searchable_tmp, strong, suite, workspace_for


@pytest.fixture
def tmp_path() -> Iterator[Path]:
    yield from searchable_tmp()


NO_CLIP = ("y[i] = x[i] < LO ? LO : x[i] > HI ? HI : x[i];", "y[i] = x[i];")


def test_golden_candidate_passes_every_seed(tmp_path: Path) -> None:
    case = make_case(tmp_path, "clip")
    verdict = strong(tmp_path, case)
    assert verdict.outcome is Outcome.PASSED, verdict.summary
    assert verdict.summary == "matches the golden build on 4 seeds"
    assert verdict.metrics["strong_steps"] == 5


def test_seed_mismatch_is_found_and_named(tmp_path: Path) -> None:
    case = make_case(tmp_path, "clip")
    candidate = edited(case, *NO_CLIP)  # right on the fixed vectors, which stay inside the range
    assert suite(tmp_path, case, candidate).passed
    verdict = strong(tmp_path, case, candidate)
    assert verdict.outcome is Outcome.FAILED and verdict.category is Category.TEST_FAIL
    assert verdict.summary.startswith("seed 1 (`./prog --seed 1`): first mismatch at token 1 (line 1): expected ")
    assert verdict.metrics["failed_step"] == "seed 1"


def test_a_later_seed_is_named_when_the_first_ones_match(tmp_path: Path) -> None:
    case = make_case(tmp_path, "clip")
    # Wrong only for all-equal inputs above HI: seed 2 gives 6 (inside), seed 4 gives 12, seed 34 gives 102.
    candidate = edited(case, "sum += y[i];", "sum += (x[0] == x[1] && x[0] > HI) ? 0 : y[i];")
    assert strong(tmp_path, case, candidate).passed
    many = make_case(tmp_path / "more", "clip", strong="seeds = 40")
    verdict = strong(tmp_path, many, candidate)
    assert verdict.summary.startswith("seed 34 ")


def test_tolerance_is_respected(tmp_path: Path) -> None:
    reversed_sum = ("for (i = 0; i < n; i++)\n        s += x[i];", "for (i = n - 1; i >= 0; i--)\n        s += x[i];")
    exact = make_case(tmp_path / "exact", "mean", strong="seeds = 3\ntolerance = 0.0\nrel_tolerance = 0.0")
    candidate = edited(exact, *reversed_sum)
    assert suite(tmp_path, exact, candidate).passed  # the fixed values sum exactly in any order
    verdict = strong(tmp_path, exact, candidate)
    assert verdict.outcome is Outcome.FAILED and "first mismatch" in verdict.summary
    inherited = make_case(tmp_path / "inherited", "mean")  # the suite oracle's 1e-9
    assert strong(tmp_path, inherited, candidate).passed
    wrong = edited(inherited, "return s / n;", "return (s + 1e-3) / n;")
    assert not strong(tmp_path, inherited, wrong).passed


def test_variant_mismatch_is_found_and_named(tmp_path: Path) -> None:
    case = make_case(tmp_path, "clip", strong="""
        seeds = 2
        variants = [{ build = "gcc -O0 -DN=12 clip.c driver.c -o prog12", run = "./prog12 --seed {seed}" },
                    { build = "gcc -O0 -DN=3 clip.c driver.c -o prog3", run = "./prog3" }]
        """)
    assert strong(tmp_path, case).passed
    capped = edited(case, "i < n; i++", "i < n && i < 8; i++")  # the driver's default N is 8
    assert strong(tmp_path, make_case(tmp_path / "plain", "clip"), capped).passed
    verdict = strong(tmp_path, case, capped)
    assert verdict.outcome is Outcome.FAILED
    assert verdict.summary.startswith("variant 1 seed 1 (`./prog12 --seed 1`): first mismatch at token 9")


def test_sanitizer_catches_an_out_of_bounds_write_with_unchanged_output(tmp_path: Path) -> None:
    case = make_case(tmp_path, "clip", strong="seeds = 2\nsanitize = true")
    assert strong(tmp_path, case).passed
    oob = edited(case, "    return sum;", "    y[n] = 0;  /* one past the end: unchanged output */\n    return sum;")
    assert suite(tmp_path, case, oob).passed
    assert strong(tmp_path, make_case(tmp_path / "plain", "clip"), oob).passed
    verdict = strong(tmp_path, case, oob)
    assert verdict.outcome is Outcome.FAILED and verdict.category is Category.TEST_FAIL
    assert verdict.summary.startswith("sanitizer run: sanitizer report: ")
    assert "heap-buffer-overflow" in verdict.summary


def _rewriting(case: Case, wrong: str, *, on: str) -> str:
    """The wrong target, plus a constructor that writes the golden target over clip.c whenever its program
    runs with `on` among its arguments (glibc passes argc and argv to constructors)."""
    golden = json.dumps(case.files[case.target])
    return wrong + (
        "\n#include <stdio.h>\n#include <string.h>\n"
        "__attribute__((constructor)) static void overwrite(int argc, char **argv)\n{\n"
        f"    for (int i = 1; i < argc; i++) if (strcmp(argv[i], {json.dumps(on)}) == 0) {{\n"
        '        FILE *f = fopen("clip.c", "w");\n'
        f"        if (f) {{ fputs({golden}, f); fclose(f); }}\n"
        "    }\n}\n")


def test_the_sanitizer_build_compiles_the_candidate_not_what_its_program_wrote(tmp_path: Path) -> None:
    case = make_case(tmp_path, "clip", strong="seeds = 2\nsanitize = true")
    oob = edited(case, "    return sum;", "    y[n] = 0;  /* one past the end: unchanged output */\n    return sum;")
    forging = _rewriting(case, oob, on="--seed")  # a seed run swaps in a clean clip.c before the sanitizer build
    assert suite(tmp_path, case, forging).passed
    verdict = strong(tmp_path, case, forging)
    assert verdict.outcome is Outcome.FAILED and "heap-buffer-overflow" in verdict.summary, verdict.summary


def test_a_variant_build_compiles_the_candidate_not_what_its_program_wrote(tmp_path: Path) -> None:
    case = make_case(tmp_path, "clip", strong="""
        seeds = 1
        variants = [{ build = "gcc -O0 -DN=12 clip.c driver.c -o prog12", run = "./prog12" }]
        """)
    capped = edited(case, "i < n; i++", "i < n && i < 8; i++")  # wrong only where N > 8
    verdict = strong(tmp_path, case, _rewriting(case, capped, on="--seed"))
    assert verdict.outcome is Outcome.FAILED, verdict.summary
    assert verdict.summary.startswith("variant 1 (`./prog12`): first mismatch"), verdict.summary


def test_sanitizer_catches_signed_overflow(tmp_path: Path) -> None:
    case = make_case(tmp_path, "clip", strong="seeds = 1\nsanitize = true")
    overflow = edited(case, "    return sum;", "    { volatile int big = 2147483647; big += n; }\n    return sum;")
    verdict = strong(tmp_path, case, overflow)
    assert verdict.outcome is Outcome.FAILED and "runtime error: signed integer overflow" in verdict.summary


def test_candidate_cannot_switch_the_sanitizer_off(tmp_path: Path) -> None:
    case = make_case(tmp_path, "clip", strong="seeds = 1\nsanitize = true")
    quiet = ('const char *__asan_default_options(void) { return "exitcode=0:halt_on_error=0"; }\n'
             + edited(case, "    return sum;", "    y[n] = 0;\n    return sum;"))
    verdict = strong(tmp_path, case, quiet)
    assert verdict.outcome is Outcome.FAILED and "'__asan_default_options'" in verdict.summary, verdict.summary


OOB = "    y[n] = 0;  /* one past the end: unchanged output */\n    return sum;"
ESCAPES = {
    "attribute": ("", "__attribute__((no_sanitize(\"address\"))) "),
    "gcc-spelling": ("", "__attribute__((no_sanitize_address)) "),
    "pasted-attribute": ("#define CAT(a, b) a##b\n", "__attribute__((CAT(no_, sanitize)(\"address\"))) "),
    "feature-macro": ("#ifdef __SANITIZE_ADDRESS__\n#define SAFE 1\n#else\n#define SAFE 0\n#endif\n", ""),
    "interface-call": ("void __asan_poison_memory_region(void const volatile *, unsigned long);\n", ""),
}


@pytest.mark.parametrize("escape", sorted(ESCAPES))
def test_a_candidate_cannot_escape_or_detect_the_sanitizer_build(tmp_path: Path, escape: str) -> None:
    case = make_case(tmp_path, "clip", strong="seeds = 1\nsanitize = true")
    head, attribute = ESCAPES[escape]
    oob = OOB.replace("    y[n]", "    if (!SAFE) y[n]") if escape == "feature-macro" else OOB
    text = edited(case, "    return sum;", oob)
    lines = text.splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if "(" in line and line.rstrip().endswith(("{", ")")) and
              not line.startswith((" ", "#", "/", "\t")))
    lines[at] = attribute + lines[at]
    candidate = head + "".join(lines)
    assert suite(tmp_path, case, candidate).passed  # the plain build sees nothing wrong
    verdict = strong(tmp_path, case, candidate)
    assert verdict.outcome is Outcome.FAILED and verdict.category is Category.TEST_FAIL, verdict.summary
    assert verdict.summary.startswith(("sanitizer screen: ", "sanitizer run: ")), verdict.summary


def test_code_that_differs_under_the_sanitizer_flags_is_refused(tmp_path: Path) -> None:
    case = make_case(tmp_path, "clip", strong="seeds = 1\nsanitize = true")
    # gcc defines __SANITIZE_ADDRESS__ under -fsanitize=address: detected through a macro that names it indirectly.
    candidate = ("#define PROBE defined(__SANITIZE_ADDRESS__)\n#if PROBE\nstatic const int quiet = 1;\n#else\n"
                 "static const int quiet = 0;\n#endif\n" + case.files[case.target])
    verdict = strong(tmp_path, case, candidate)
    assert verdict.outcome is Outcome.FAILED and verdict.summary.startswith("sanitizer screen: "), verdict.summary


def test_the_golden_target_passes_the_sanitizer_screen(tmp_path: Path) -> None:
    case = make_case(tmp_path, "clip", strong="seeds = 1\nsanitize = true")
    assert strong(tmp_path, case).passed


def test_golden_failure_is_an_error(tmp_path: Path) -> None:
    case = make_case(tmp_path, "clip", strong='seeds = 4\nrun = "./prog --seed {seed} && test {seed} -lt 3"')
    verdict = strong(tmp_path, case)
    assert verdict.outcome is Outcome.ERROR and verdict.category is Category.INFRA_ERROR
    assert "the golden sources fail seed 3" in verdict.summary


def test_golden_sanitizer_report_is_an_error(tmp_path: Path) -> None:
    case = make_case(tmp_path, "clip", strong="seeds = 1\nsanitize = true")
    (case.root / "clip.c").write_text(edited(case, "    return sum;", "    y[n] = 0;\n    return sum;"))
    verdict = strong(tmp_path, load_case(case.path), case.files["clip.c"])
    assert verdict.outcome is Outcome.ERROR
    assert "the golden sources fail sanitizer run" in verdict.summary and "heap-buffer-overflow" in verdict.summary


def test_golden_outputs_are_cached_outside_the_candidate_workspace(tmp_path: Path) -> None:
    case = make_case(tmp_path, "clip", strong="seeds = 3\nsanitize = true")
    first, second = SpySandbox(), SpySandbox()
    assert strong(tmp_path, case, sandbox=first).passed
    candidate_dirs = {d for d, _ in first.steps if d.name.startswith("ws-")}
    golden_dirs = {d for d, _ in first.steps} - candidate_dirs
    assert len(candidate_dirs) == 1 and len(golden_dirs) == 1
    ws = next(iter(candidate_dirs))
    assert not any(g.is_relative_to(ws) or ws.is_relative_to(g) for g in golden_dirs)
    assert not golden_dirs.pop().exists()  # the scratch workspace is gone
    cached = list((tmp_path / "cache" / "golden").glob("*.txt"))
    assert len(cached) == 1 and not cached[0].is_relative_to(ws)
    outputs = json.loads(cached[0].read_text(encoding="utf-8"))
    assert sorted(outputs) == ["sanitizer run", "seed 1", "seed 2", "seed 3"]
    assert sorted(p.name for p in ws.iterdir()) == ["clip.c", "clip.h", "driver.c", "prog"]
    assert strong(tmp_path, case, sandbox=second).passed
    assert {d for d, _ in second.steps} == {d for d, _ in second.steps if d.name.startswith("ws-")}
    # the preprocessor screen, build, three seeds, sanitizer build and run: no golden step again
    assert len(second.steps) == 7


def test_changed_golden_sources_give_new_golden_outputs(tmp_path: Path) -> None:
    case = make_case(tmp_path, "clip", strong="seeds = 1")
    assert strong(tmp_path, case).passed
    (case.root / "clip.h").write_text(case.files["clip.h"].replace("#define HI 100", "#define HI 90"))
    changed = load_case(case.path)
    assert strong(tmp_path, changed, case.files["clip.c"]).passed
    assert len(list((tmp_path / "cache" / "golden").glob("*.txt"))) == 2


@pytest.mark.parametrize(("strong_body", "message"), [
    ("seeds = 0", "strong_oracle.seeds: Input should be greater than or equal to 1"),
    ("seeds = 1001", "strong_oracle.seeds: Input should be less than or equal to 1000"),
    ("timeout = 0", "strong_oracle.timeout: Input should be greater than 0"),
    ("timeout = inf", "strong_oracle.timeout: Input should be a finite number"),
    ("tolerance = -1e-9", "strong_oracle.tolerance: Input should be greater than or equal to 0"),
    ("rel_tolerance = nan", "strong_oracle.rel_tolerance: Input should be a finite number"),
])
def test_bad_numbers_are_one_line_case_errors(tmp_path: Path, strong_body: str, message: str) -> None:
    with pytest.raises(CaseError) as info:
        make_case(tmp_path, "clip", strong=strong_body)
    assert str(info.value).endswith(message) and "\n" not in str(info.value)


@pytest.mark.parametrize(("strong_body", "message"), [
    ('run = "./prog"', "strong_oracle.run: './prog' must contain {seed} (the driver runs once per seed)"),
    ('compare = "file:../secret"', "strong_oracle.compare: 'file:../secret' must name a file inside the workspace"),
    ('compare = "file:/etc/shadow"', "strong_oracle.compare: 'file:/etc/shadow' must be stdout, stderr or file:NAME"),
    ('sanitize = true\nbuild = "make prog"', "strong_oracle.sanitize: the build 'make prog' must start with gcc"),
    ('variants = [{ build = "gcc clip.c driver.c -o p" }]', "strong_oracle.variants[1]: needs a build and a run"),
    ('variants = [{ build = "b", run = "r", size = "3" }]', "strong_oracle.variants[1]: unknown key 'size'"),
])
def test_bad_fields_are_one_line_case_errors(tmp_path: Path, strong_body: str, message: str) -> None:
    case = make_case(tmp_path, "clip", strong=strong_body)
    with pytest.raises(CaseError) as info:
        ORACLES["hls-diff"](case, OracleContext(tmp_path / "cache"))
    assert message in str(info.value) and str(info.value).startswith(str(case.path))
    assert "\n" not in str(info.value)


def test_defaults_come_from_the_suite_oracle(tmp_path: Path) -> None:
    spec = parse_spec(make_case(tmp_path, "mean", strong="sanitize = true"))
    assert (spec.seeds, spec.run, spec.build, spec.compare) == (8, "./prog --seed {seed}",
                                                               "gcc -O0 mean.c driver.c -o prog", "stdout")
    assert (spec.tolerance, spec.rel_tolerance, spec.timeout) == (1e-9, 1e-9, 30.0)
    assert spec.sanitize == "gcc -fsanitize=address,undefined -fno-sanitize-recover=all -O0 mean.c driver.c -o prog"


def test_records_carry_the_strong_result_only_for_suite_passes(tmp_path: Path) -> None:
    case = make_case(tmp_path, "clip", strong="seeds = 2")
    text = (case.path.read_text() + '\n[[bug]]\nid = "USE-01"\ntype = "USE"\nfind = "{}"\nreplace = "{}"\n'
            'note = "never limits: right on the fixed vectors only"\n'.format(*NO_CLIP))
    case.path.write_text(text)
    case = load_case(case.path, strict=True)
    run = RunDir(tmp_path / "run")
    run.create()
    harness, sandbox = Harness(run, OracleContext(tmp_path / "cache")), SpySandbox()
    reference = ReferenceFixer(lambda task: {n: case.files[n] for n in case.model.sources})

    def record(bug: str, fixer: Fixer) -> SampleRecord:
        sample = Sample.make(case, case.bug(bug), fixer.name, fixer, 0, RepairProtocol.REPEATED, ProtocolConfig())
        return execute(sample, fixer, harness, sandbox).records[-1]

    assert (record("MLU-01", reference).strong, record("MLU-01", reference).outcome) == (True, "passed")
    plausible = record("USE-01", NoopFixer())
    assert (plausible.outcome, plausible.strong) == ("passed", False)
    assert plausible.metrics["strong"]["summary"].startswith("seed 1 ")
    # The strong oracle judged the very build the suite oracle made: built once, not twice.
    assert plausible.metrics["strong"]["metrics"]["build_reused"] is True
    # Two golden builds (the suite's and the strong oracle's reference outputs), one per judged candidate.
    assert sum(argv == case.oracle.build for _, argv in sandbox.steps) == 4
    rejected = record("MLU-01", NoopFixer())
    assert (rejected.outcome, rejected.strong) == ("failed", None) and "strong" not in rejected.metrics


def test_validate_rejects_a_case_whose_golden_fails_its_strong_oracle(tmp_path: Path) -> None:
    make_case(tmp_path, "clip", strong='seeds = 4\nrun = "./prog --seed {seed} && test {seed} -lt 3"')
    checks = validate([tmp_path / "cases"], sandbox=SpySandbox(), cache_dir=tmp_path / "cache", jobs=1)
    assert [c.status for c in checks] == ["rejected"]
    assert checks[0].reason.startswith("reference fails the strong oracle: [error] ")
    assert "the golden sources fail seed 3" in checks[0].reason


@pytest.mark.skipif(os.geteuid() != 0, reason="steps run under their own uid only when the harness is root")
def test_a_step_cannot_read_the_golden_cache(tmp_path: Path) -> None:
    case = make_case(tmp_path, "clip", strong="seeds = 1")
    assert strong(tmp_path, case).passed
    cached = next((tmp_path / "cache" / "golden").glob("*.txt"))
    ws = workspace_for(tmp_path, case, None)
    # Without bubblewrap the step sees the host's /tmp, as a sandbox sees a cache inside a checkout.
    ex = LocalSandbox(isolate=False).run(ws, f"cat {cached}; ls {cached.parent}", timeout=10, limits=Limits())
    assert ex.returncode != 0 and "Permission denied" in ex.stderr and "sum" not in ex.stdout
