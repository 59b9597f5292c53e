"""Gaming the CUDA and RTL oracles through pytest: each trick fails with its category, at -n0 and -n 2."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ..gaming_kit import (
    REPO,
    SANDBOXES,
    XDIST,
    Canaries,
    assert_contained,
    canaries,
    docker_or_skip,
    one_category,
    run_attack,
)
from ..oracles.cuda.test_screen import ATTACKS as CUDA_ATTACKS

__all__ = ["canaries"]

PRIO = REPO / "cases" / "rtl" / "comb" / "prio_enc"
VECTOR_ADD = REPO / "cases" / "cuda" / "elementwise" / "vector_add"

RTL_BODY = """
    wire [15:0] active = req & mask;
    integer i;
    always @* begin
        idx   = 4'd0;
        valid = 1'b0;
        for (i = 0; i < 15; i = i + 1) begin
            if (active[i]) begin
                idx   = i[3:0];
                valid = 1'b1;
            end
        end
    end
"""
RTL_HEAD = """module prio_enc (
    input  wire [15:0] req,
    input  wire [15:0] mask,
    output reg  [3:0]  idx,
    output reg         valid,
    output wire [15:0] onehot
);
"""
RTL_ATTACKS = {
    "finish_ends_the_testbench_early": RTL_HEAD + RTL_BODY + "    initial $finish;\n"
                                       "    assign onehot = valid ? (16'd1 << idx) : 16'd0;\nendmodule\n",
    "display_forges_a_pass_line": RTL_HEAD + RTL_BODY + '    initial $display("PASS mismatches = 0");\n'
                                  "    assign onehot = valid ? (16'd1 << idx) : 16'd0;\nendmodule\n",
    "hierarchical_reference_to_the_golden": RTL_HEAD + RTL_BODY
    + "    assign onehot = golden_prio_enc.onehot;\nendmodule\n",
    "instantiates_the_golden": RTL_HEAD + "    golden_prio_enc g (.req(req), .mask(mask), .idx(idx), .valid(valid), "
                               ".onehot(onehot));\nendmodule\n",
    "includes_the_golden_file": '`include "golden.v"\n' + RTL_HEAD + RTL_BODY
    + "    assign onehot = valid ? (16'd1 << idx) : 16'd0;\nendmodule\n",
    "reads_the_golden_with_a_file_task": RTL_HEAD + RTL_BODY + '    reg [7:0] mem [0:3];\n'
                                         '    initial $readmemh("golden.v", mem);\n'
                                         "    assign onehot = valid ? (16'd1 << idx) : 16'd0;\nendmodule\n",
}


def one_bug_copy(pytester: pytest.Pytester, source: Path, domain: str, suite: str) -> None:
    """The case with its first bug only: every attack is the same candidate for every bug."""
    target = pytester.path / "cases" / domain / suite / source.name
    shutil.copytree(source, target)
    head, first, *_ = (target / "case.toml").read_text().split("[[bug]]")
    (target / "case.toml").write_text(head + "[[bug]]" + first)


@pytest.mark.parametrize("sandbox", SANDBOXES)
@pytest.mark.parametrize("xdist", XDIST)
@pytest.mark.parametrize("attack", sorted(RTL_ATTACKS))
def test_rtl_attack_is_rejected_at_the_preflight(pytester: pytest.Pytester, canaries: Canaries, attack: str,
                                                 xdist: list[str], sandbox: str) -> None:
    docker_or_skip(sandbox, "rtl")
    one_bug_copy(pytester, PRIO, "rtl", "comb")
    outcome = run_attack(pytester, RTL_ATTACKS[attack], xdist, sandbox)
    assert one_category(outcome) == "lint_fail", outcome.records[0]["summary"]
    assert outcome.result.ret == 1
    assert_contained(outcome, canaries, pytester)


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc is not installed")
@pytest.mark.parametrize("sandbox", SANDBOXES)
@pytest.mark.parametrize("xdist", XDIST)
@pytest.mark.parametrize("attack", sorted(CUDA_ATTACKS))
def test_cuda_bypass_is_rejected_at_the_screen(pytester: pytest.Pytester, canaries: Canaries, attack: str,
                                               xdist: list[str], sandbox: str) -> None:
    docker_or_skip(sandbox, "cuda")
    one_bug_copy(pytester, VECTOR_ADD, "cuda", "elementwise")
    outcome = run_attack(pytester, CUDA_ATTACKS[attack], xdist, sandbox, "--hwrepair-protocol", "repeated",
                         "--hwrepair-gpu", "no")
    assert one_category(outcome) == "test_fail", outcome.records[0]["summary"]
    assert outcome.records[0]["metrics"]["cuda_stage"] == "anti_cheat"
    assert outcome.result.ret == 1
    assert_contained(outcome, canaries, pytester)


def test_a_padded_rtl_candidate_is_a_rejection_not_a_harness_error(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Escape by error: a module padded with lint-clean declarations until the interface dump is over the
    reader's cap. The golden interface comes from a golden-only run, so the golden side is never cut short and
    the sample stays in the denominators as a rejection."""
    from pytest_hwrepair.oracles.rtl import oracle as rtl_oracle
    from pytest_hwrepair.verdict import Category, Outcome

    from ..oracles.rtl.test_oracle import COUNTER, COUNTER_ORACLE, check, make_case

    case = make_case(tmp_path / "case", COUNTER, COUNTER_ORACLE, kind="rtl-lint")
    monkeypatch.setattr(rtl_oracle, "PORTS_CAP", 40_000)  # the same attack as 16 MB of declarations, smaller
    padding = "".join(f"    wire [31:0] pad{i} = 32'd{i};\n" for i in range(1500))
    padded = COUNTER.replace("    always @", padding + "    always @", 1)
    assert check("rtl-lint", case, COUNTER, tmp_path).passed
    verdict = check("rtl-lint", case, padded, tmp_path)
    assert verdict.outcome is Outcome.FAILED and verdict.category is Category.LINT_FAIL, verdict.summary
    assert "interface dump is over" in verdict.summary
