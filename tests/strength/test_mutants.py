"""Oracle strength: mutants of a golden target judged by the suite and the strong oracle, and their tables."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_hwrepair.cases.case import Case
from pytest_hwrepair.cli import main
from pytest_hwrepair.oracles import OracleContext
from pytest_hwrepair.sandbox.local.sandbox import LocalSandbox
from pytest_hwrepair.strength.mutants import (
    Mutant,
    MutantJudge,
    MutantResult,
    MutantStatus,
    asm_command,
    by_suite,
    case_mutants,
    load,
    markdown,
    save,
    strength,
    strong_costs,
)
from pytest_hwrepair.strength.mutate import Edit, Op

from ..hls_diff_helpers import make_case, searchable_tmp

needs_gcc = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")


@pytest.fixture
def tmp_path() -> Iterator[Path]:
    yield from searchable_tmp()


@pytest.fixture
def clip(tmp_path: Path) -> Case:
    return make_case(tmp_path, "clip")


def mutant(case: Case, find: str, replace: str) -> Mutant:
    """The golden target with `find` (occurring once) replaced: a mutant made by hand."""
    text = case.files[case.target]
    assert text.count(find) == 1
    edit = Edit(text.index(find), find, replace, Op.RELATIONAL)
    return Mutant(0, edit, edit.apply(text), edit.describe(text))


def judge(tmp_path: Path, case: Case, find: str, replace: str) -> MutantResult:
    return MutantJudge(case, OracleContext(tmp_path / "cache"), LocalSandbox()).judge(mutant(case, find, replace))


def test_mutants_are_single_edits_in_a_seeded_order(clip: Case) -> None:
    golden = clip.files[clip.target]
    first, again, other = case_mutants(clip, 12, 0), case_mutants(clip, 12, 0), case_mutants(clip, 12, 1)
    sampled = [m for m in first if m.edit.operator is not Op.SPECIAL]
    assert 0 < len(sampled) <= 12 and first == again and first[:len(sampled)] == sampled
    assert [m.edit for m in first] != [m.edit for m in other]
    assert {m.edit.new for m in first[len(sampled):]} == {" if (n == 0) return 0;", " if (n == 1) return 0;"}
    for m in first:
        assert m.text == golden[:m.edit.offset] + m.edit.new + golden[m.edit.end:] and m.text != golden
        assert m.where.startswith(f"line {m.edit.line(golden)}: ")


@needs_gcc
def test_mutant_the_fixed_vectors_reveal_is_killed_by_the_suite(tmp_path: Path, clip: Case) -> None:
    result = judge(tmp_path, clip, "i < n; i++", "i < n - 1; i++")
    assert result.status is MutantStatus.KILLED_SUITE and result.strong_verdict == ""
    assert result.suite_verdict.startswith("failed/test_fail")


@needs_gcc
def test_mutant_only_generated_inputs_reveal_is_killed_by_the_strong_oracle(tmp_path: Path, clip: Case) -> None:
    # The fixed vectors stay inside [-50, 50]: values above HI never occur there.
    result = judge(tmp_path, clip, "x[i] > HI ? HI", "x[i] > HI ? LO")
    assert result.status is MutantStatus.KILLED_STRONG, result
    assert result.suite_verdict.startswith("passed/") and result.strong_verdict.startswith("failed/test_fail")
    assert result.strong_s is not None and result.strong_s > 0


@needs_gcc
def test_survivor_with_the_golden_assembly_is_shown_equivalent(tmp_path: Path, clip: Case) -> None:
    result = judge(tmp_path, clip, "x[i] > HI ? HI", "x[i] >= HI ? HI")
    assert result.status is MutantStatus.EQUIVALENT
    assert result.equivalence == "identical -O2 assembly of the target"


@needs_gcc
def test_survivor_that_differs_only_beyond_every_input_survives(tmp_path: Path, clip: Case) -> None:
    # Generated inputs stay within +-1000: 5000 never occurs, but it is another program.
    result = judge(tmp_path, clip, "y[i] = x[i] < LO", "y[i] = x[i] == 5000 ? 0 : x[i] < LO")
    assert result.status is MutantStatus.SURVIVED and result.equivalence == ""
    assert result.strong_verdict.startswith("passed/")


@needs_gcc
def test_mutant_that_does_not_compile_is_not_built(tmp_path: Path, clip: Case) -> None:
    result = judge(tmp_path, clip, "sum += y[i];", "sum += y[i]];")
    assert result.status is MutantStatus.NOT_BUILT and "compile_fail" in result.suite_verdict


def test_assembly_command_keeps_defines_and_drops_outputs_and_sources(clip: Case) -> None:
    command = asm_command(clip)
    assert command == "gcc -O2 -S -w clip.c -o hwrepair-mutant.s"


def _result(status: MutantStatus, suite: str = "s", strong_s: float | None = None, text: str = "m") -> MutantResult:
    return MutantResult(case=f"cases/{suite}/d/case.toml", domain="hls", suite=suite, design="d", index=0,
                        mutation=text, status=status, suite_verdict="v", strong_s=strong_s)


def test_scores_leave_out_unbuilt_and_equivalent_mutants_and_count_undecided_as_not_killed() -> None:
    S = MutantStatus
    statuses = [S.NOT_BUILT, S.KILLED_SUITE, S.KILLED_SUITE, S.KILLED_SUITE, S.KILLED_STRONG, S.UNDECIDED,
                S.EQUIVALENT, S.SURVIVED, S.SKIPPED, S.ERROR]
    s = strength("x", [_result(st) for st in statuses])
    assert (s.mutants, s.built, s.judged) == (10, 7, 6)
    assert s.weak == pytest.approx(3 / 6) and s.strong == pytest.approx(4 / 6)
    assert strength("none", [_result(S.NOT_BUILT)]).strong is None


def test_strong_cost_is_median_and_nearest_rank_p90_of_checked_candidates() -> None:
    results = [_result(MutantStatus.SURVIVED, strong_s=float(v)) for v in range(1, 11)]
    results.append(_result(MutantStatus.KILLED_SUITE))
    assert strong_costs(results) == {"checked": 10, "median_s": 5.5, "p90_s": 9.0}
    assert strong_costs([])["median_s"] is None


def test_results_file_round_trips_and_a_bad_one_is_one_clear_error(tmp_path: Path) -> None:
    results = [_result(MutantStatus.KILLED_STRONG, strong_s=1.5), _result(MutantStatus.SURVIVED, suite="t")]
    path = tmp_path / "m.json"
    save(path, results, {"command": "c", "seconds": 3})
    loaded, meta = load(path)
    assert loaded == results and meta["command"] == "c"
    assert [s.group for s in by_suite(loaded)] == ["hls/s", "hls/t"]
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(ValueError, match=r"m\.json: not a mutant results file"):
        load(path)


def test_markdown_cells_cannot_be_broken_by_the_mutation_text() -> None:
    table = markdown([_result(MutantStatus.SURVIVED, text="a | b\n| c")])
    rows = [line for line in table.splitlines() if "a \\| b" in line]
    assert len(rows) == 1 and rows[0].count(" | ") == 3


@needs_gcc
def test_validate_mutants_writes_results_that_stats_puts_into_a_readme(tmp_path: Path, clip: Case,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "m.json"
    code = main(["validate", "--mutants", "3", str(clip.root), "-j", "1", "--cache-dir", str(tmp_path / "c"),
                 "--mutants-out", str(out)])
    printed = capsys.readouterr().out
    # 3 sampled mutants, then clip()'s two special-casing ones (n == 0, n == 1)
    assert code == 0 and "oracle strength per suite:" in printed and "5 mutants of 1 cases" in printed
    body = json.loads(out.read_text(encoding="utf-8"))
    assert len(body["results"]) == 5 and body["suites"][0]["group"] == "hls/hlsdiff"
    readme = tmp_path / "README.md"
    readme.write_text("head\n<!-- mutants -->\nold\n<!-- /mutants -->\ntail\n", encoding="utf-8")
    assert main(["stats", str(clip.root), "--mutants", str(out), "--update", str(readme)]) == 0
    page = readme.read_text(encoding="utf-8")
    assert page.startswith("head\n<!-- mutants -->\n<!-- generated by `hwrepair stats") and page.endswith("tail\n")
    assert "\nold\n" not in page and "| hls/hlsdiff/clip | 5 |" in page


def test_mutant_count_out_of_range_is_a_usage_error(tmp_path: Path, clip: Case,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "--mutants", "-1", str(clip.root)]) == 2
    assert "--mutants -1: give a count from 0 (only the special-casing mutants) to" in capsys.readouterr().err


def _notes(case: Case, body: str) -> Case:
    (case.root / "mutants.toml").write_text(body, encoding="utf-8")
    return case


@needs_gcc
def test_survivor_argued_equivalent_in_mutants_toml_is_shown_equivalent_by_hand(tmp_path: Path, clip: Case) -> None:
    text = clip.files[clip.target]
    m = mutant(clip, "y[i] = x[i] < LO", "y[i] = x[i] == 5000 ? 0 : x[i] < LO")
    line = text.count("\n", 0, m.edit.offset) + 1
    column = m.edit.offset - text.rfind("\n", 0, m.edit.offset)
    _notes(clip, f'[[equivalent]]\nat = "{line}:{column}"\nold = {json.dumps(m.edit.old)}\n'
                 f'new = {json.dumps(m.edit.new)}\nreason = "no driver input reaches 5000 (test stand-in)"\n')
    result = MutantJudge(clip, OracleContext(tmp_path / "cache"), LocalSandbox()).judge(m)
    assert result.status is MutantStatus.EQUIVALENT and result.at == f"{line}:{column}"
    assert result.equivalence == "by hand (mutants.toml): no driver input reaches 5000 (test stand-in)"


def test_argument_for_an_edit_the_target_no_longer_has_is_stale(clip: Case) -> None:
    from pytest_hwrepair.strength.mutants import load_equivalences

    _notes(clip, '[[equivalent]]\nat = "1:1"\nold = "while"\nnew = "if"\nreason = "the first line is a comment"\n')
    notes = load_equivalences(clip)
    assert notes.reasons == {} and len(notes.stale) == 1 and "no longer has 'while' there" in notes.stale[0]


def test_bad_mutants_toml_is_a_one_line_error(clip: Case) -> None:
    from pytest_hwrepair.strength.mutants import load_equivalences
    from pytest_hwrepair.verdict import CaseError

    _notes(clip, '[[equivalent]]\nat = "3"\nold = "<"\nnew = "<="\nreason = "long enough reason"\n')
    with pytest.raises(CaseError, match=r"mutants\.toml: equivalent\.0\.at: String should match pattern"):
        load_equivalences(clip)
    _notes(clip, '[[equivalent]]\nat = "3:1"\nold = "<"\nnew = "<="\nreason = "long enough"\nsneaky = 1\n')
    with pytest.raises(CaseError, match=r"equivalent\.0\.sneaky: Extra inputs are not permitted"):
        load_equivalences(clip)


needs_rtl_tools = pytest.mark.skipif(any(shutil.which(t) is None for t in ("iverilog", "verilator", "yosys")),
                                     reason="needs iverilog, verilator and yosys")
# The golden design has an explicit sensitivity list complete for its inputs: Tier F says UNSUPPORTED.
LISTED = """module pick (
    input  wire       s,
    input  wire [3:0] a,
    input  wire [3:0] b,
    output reg  [3:0] y
);
    always @(s or a or b) begin
        if (s) y = a & b;
        else   y = a;
    end
endmodule
"""


@needs_rtl_tools
def test_undecided_mutant_with_an_argument_is_shown_equivalent_by_hand(tmp_path: Path) -> None:
    from ..oracles.rtl.test_oracle import make_case as rtl_case

    case = rtl_case(tmp_path / "pick", LISTED, {"top": "pick", "cycles": 40, "seeds": 1, "timeout": 60},
                    strong_timeout=60)
    judge_ = MutantJudge(case, OracleContext(tmp_path / "cache"), LocalSandbox())
    swapped = mutant(case, "a & b", "b & a")
    assert judge_.judge(swapped).status is MutantStatus.UNDECIDED
    _notes(case, f'[[equivalent]]\nat = "{judge_.judge(swapped).at}"\nold = "a & b"\nnew = "b & a"\n'
                 'reason = "& is commutative"\n')
    again = MutantJudge(case, OracleContext(tmp_path / "cache"), LocalSandbox()).judge(swapped)
    assert again.status is MutantStatus.EQUIVALENT and again.equivalence.endswith("& is commutative")
    assert again.strong_verdict.startswith("failed/test_fail: UNSUPPORTED")


def test_a_later_results_file_replaces_the_cases_it_holds(tmp_path: Path, clip: Case,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    def one(status: MutantStatus, index: int) -> MutantResult:
        return MutantResult(case=str(clip.path), domain="hls", suite="hlsdiff", design="clip", index=index,
                            mutation=f"m{index}", status=status, suite_verdict="v")

    first, second = tmp_path / "a.json", tmp_path / "b.json"
    save(first, [one(MutantStatus.SURVIVED, 0), one(MutantStatus.KILLED_SUITE, 1)], {"command": "run a"})
    save(second, [one(MutantStatus.KILLED_STRONG, 0)], {"command": "run b"})
    assert main(["stats", str(clip.root), "--mutants", str(first), str(second)]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("Results of `run b`") and "1 mutants here" in printed
    assert "| hls/hlsdiff/clip | 1 | 1 | 0 | 1 | 0 | 0 | 0 |" in printed
