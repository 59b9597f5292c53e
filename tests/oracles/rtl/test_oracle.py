"""The rtl oracles against real iverilog, verilator and yosys: every verdict, the contract, the preflight."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path
from typing import Any

import pytest

from pytest_hwrepair.cases.case import Case
from pytest_hwrepair.cases.load import load_case
from pytest_hwrepair.oracles import ORACLES
from pytest_hwrepair.oracles.base import OracleContext
from pytest_hwrepair.oracles.rtl.oracle import EquivResult, EquivStatus, equiv_status, parse_trace, strong_result
from pytest_hwrepair.oracles.rtl.preflight import PreflightRejection, check_source_rules, module_names, rename_modules
from pytest_hwrepair.sandbox.local.sandbox import LocalSandbox
from pytest_hwrepair.verdict import Category, Outcome, Verdict

TOOLS = ("iverilog", "vvp", "verilator", "yosys")
pytestmark = pytest.mark.skipif(any(shutil.which(t) is None for t in TOOLS),
                                reason="needs iverilog, verilator and yosys on PATH")

COUNTER = """\
module cnt (
    input  wire       clk,
    input  wire       rst_n,
    input  wire       en,
    output reg  [3:0] q,
    output wire       top
);
    always @(posedge clk or negedge rst_n) begin
        if (!rst_n)
            q <= 4'd0;
        else if (en)
            q <= q + 4'd1;
    end
    assign top = (q == 4'd15);
endmodule
"""

COUNTER_ORACLE = {"top": "cnt", "clock": "clk", "reset": {"signal": "rst_n", "active": 0, "cycles": 2},
                  "compare_from": 0, "cycles": 60, "seeds": 2, "timeout": 60}

MUX = """\
module mux4 (
    input  wire [1:0] sel,
    input  wire [7:0] a,
    input  wire [7:0] b,
    output reg  [7:0] y
);
    always @* begin
        case (sel)
            2'd0: y = a;
            2'd1: y = b;
            2'd2: y = a & b;
            default: y = a | b;
        endcase
    end
endmodule
"""

MUX_ORACLE = {"top": "mux4", "cycles": 80, "seeds": 2, "timeout": 60}


def _toml_value(value: Any) -> str:
    if isinstance(value, str):
        return '"' + value + '"'
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml_value(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return str(value)


def make_case(root: Path, source: str, oracle: dict[str, Any], *, kind: str = "rtl-sim",
              strong_timeout: float | None = None, name: str = "dut.v", strong_scope: str | None = None) -> Case:
    """A one-file rtl case in `root` whose golden design is `source`."""
    root.mkdir(parents=True, exist_ok=True)
    (root / name).write_text(source, encoding="utf-8")
    (root / "spec.md").write_text("test design\n", encoding="utf-8")
    lines = ["schema = 1", 'id = "t"', 'domain = "rtl"', 'suite = "t"', f'sources = ["{name}"]',
             f'target = "{name}"', 'spec = "spec.md"', "", "[oracle]", f'kind = "{kind}"']
    lines += [f"{key} = {_toml_value(value)}" for key, value in oracle.items()]
    if strong_timeout is not None:
        lines += ["", "[strong_oracle]", 'kind = "rtl-equiv"', f"timeout = {strong_timeout}"]
        lines += [f'scope = "{strong_scope}"'] if strong_scope else []
    lines += ["", "[[bug]]", 'id = "KEYWORD-01"', 'class = "syntactic"', 'find = "endmodule"',
              'replace = "endmodul"']
    (root / "case.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return load_case(root / "case.toml", strict=True)


def check(kind: str, case: Case, candidate: str, tmp_path: Path, **options: Any) -> Verdict:
    workspace = tmp_path / f"ws-{kind}"
    shutil.rmtree(workspace, ignore_errors=True)
    workspace.mkdir()
    (workspace / case.target).write_text(candidate, encoding="utf-8")
    oracle = ORACLES[kind](case, OracleContext(tmp_path / "cache", options=options))
    return oracle.check(workspace, LocalSandbox())


@pytest.fixture
def counter(tmp_path: Path) -> Case:
    return make_case(tmp_path / "case", COUNTER, COUNTER_ORACLE, strong_timeout=120)


@pytest.fixture
def mux(tmp_path: Path) -> Case:
    return make_case(tmp_path / "case", MUX, MUX_ORACLE, strong_timeout=120)


# --- rtl-lint and rtl-sim ---------------------------------------------------------------------------------------


def test_golden_candidate_passes_lint_and_simulation(counter: Case, tmp_path: Path) -> None:
    assert check("rtl-lint", counter, COUNTER, tmp_path).category is Category.PASS
    verdict = check("rtl-sim", counter, COUNTER, tmp_path)
    assert verdict.outcome is Outcome.PASSED, verdict.summary + verdict.log_tail
    assert "2 seeds" in verdict.summary
    assert "golden X" in verdict.metrics["contract"]


def test_syntax_error_is_a_lint_failure(counter: Case, tmp_path: Path) -> None:
    verdict = check("rtl-sim", counter, COUNTER.replace("q <= 4'd0;", "q <= 4'd0"), tmp_path)
    assert verdict.category is Category.LINT_FAIL
    assert verdict.metrics["stage"] == "lint"
    assert verdict.metrics["tool"] == "verilator"


def test_width_mismatch_is_a_lint_failure(counter: Case, tmp_path: Path) -> None:
    verdict = check("rtl-lint", counter, COUNTER.replace("q <= q + 4'd1;", "q <= {1'b0, q} + 5'd1;"), tmp_path)
    assert verdict.category is Category.LINT_FAIL
    assert "WIDTH" in verdict.log_tail


def test_mismatch_names_seed_cycle_output_and_values(counter: Case, tmp_path: Path) -> None:
    verdict = check("rtl-sim", counter, COUNTER.replace("q <= q + 4'd1;", "q <= q + 4'd2;"), tmp_path)
    assert verdict.category is Category.TEST_FAIL
    m = verdict.metrics
    assert m["seed"] == 1
    assert m["output"] == "q"
    assert isinstance(m["cycle"], int) and m["cycle"] >= 0
    assert m["expected"] != m["actual"]
    assert m["expected"].startswith("4'h") and m["actual"].startswith("4'h")
    # Values advance by one per enabled cycle in the golden design and by two in the candidate.
    assert int(m["actual"][3:], 16) == (2 * int(m["expected"][3:], 16)) % 16
    assert f"seed {m['seed']}" in verdict.summary and f"cycle {m['cycle']}" in verdict.summary


def test_candidate_x_where_golden_is_defined_is_a_mismatch(counter: Case, tmp_path: Path) -> None:
    no_reset = COUNTER.replace("q <= 4'd0;", "q <= q;")
    verdict = check("rtl-sim", counter, no_reset, tmp_path)
    assert verdict.category is Category.TEST_FAIL
    assert "x" in verdict.metrics["actual"]
    assert verdict.metrics["cycle"] == 0


def test_golden_x_matches_anything(tmp_path: Path) -> None:
    golden = MUX.replace("default: y = a | b;", "default: y = 8'bxxxxxxxx;")
    case = make_case(tmp_path / "case", golden, MUX_ORACLE)
    assert check("rtl-sim", case, MUX, tmp_path).outcome is Outcome.PASSED
    assert check("rtl-sim", case, MUX.replace("2'd1: y = b;", "2'd1: y = a;"), tmp_path).outcome is Outcome.FAILED


def test_simulation_past_the_step_timeout_is_a_timeout(tmp_path: Path) -> None:
    # Lint and yosys reject the usual ways of hanging a simulation, so an oversized run stands in.
    case = make_case(tmp_path / "case", MUX, {**MUX_ORACLE, "cycles": 50_000_000, "seeds": 1, "timeout": 3})
    verdict = check("rtl-sim", case, MUX, tmp_path)
    assert verdict.category is Category.TIMEOUT, verdict.summary
    assert verdict.summary.startswith("simulation timed out")


# --- the reset contract decides ---------------------------------------------------------------------------------

REGISTERED = """\
module regd (
    input  wire       clk,
    input  wire       rst,
    input  wire [3:0] d,
    output reg  [3:0] q1,
    output reg  [3:0] q2
);
    always @(posedge clk) begin
        q1 <= rst ? 4'd0 : d;
        q2 <= rst ? 4'd0 : q1;
    end
endmodule
"""

REGISTERED_ORACLE = {"top": "regd", "clock": "clk", "reset": {"signal": "rst", "active": 1, "cycles": 2},
                     "compare_from": 0, "cycles": 40, "seeds": 2, "timeout": 60}


def test_first_compared_cycle_flips_the_verdict(tmp_path: Path) -> None:
    # Without a reset the register shows the last input seen during reset: wrong in cycle 0 only.
    golden = REGISTERED.replace("q2 <= rst ? 4'd0 : q1;", "q2 <= 4'd0;")
    candidate = golden.replace("q1 <= rst ? 4'd0 : d;", "q1 <= d;")
    strict = make_case(tmp_path / "a", golden, REGISTERED_ORACLE)
    lenient = make_case(tmp_path / "b", golden, {**REGISTERED_ORACLE, "compare_from": 1})
    failed = check("rtl-sim", strict, candidate, tmp_path)
    assert failed.category is Category.TEST_FAIL
    assert (failed.metrics["cycle"], failed.metrics["output"]) == (0, "q1")
    assert check("rtl-sim", lenient, candidate, tmp_path).outcome is Outcome.PASSED


def test_reset_length_flips_the_verdict(tmp_path: Path) -> None:
    # The candidate resets only the first stage; the second clears after a second reset cycle.
    candidate = REGISTERED.replace("q2 <= rst ? 4'd0 : q1;", "q2 <= q1;")
    short = make_case(tmp_path / "a", REGISTERED, {**REGISTERED_ORACLE, "reset": {"signal": "rst", "active": 1,
                                                                                  "cycles": 1}})
    long = make_case(tmp_path / "b", REGISTERED, REGISTERED_ORACLE)
    failed = check("rtl-sim", short, candidate, tmp_path)
    assert failed.category is Category.TEST_FAIL
    assert failed.metrics["output"] == "q2" and "x" in failed.metrics["actual"]
    assert check("rtl-sim", long, candidate, tmp_path).outcome is Outcome.PASSED


# --- rtl-equiv (Tier F) -----------------------------------------------------------------------------------------


def test_combinational_golden_is_proved(mux: Case, tmp_path: Path) -> None:
    verdict = check("rtl-equiv", mux, MUX, tmp_path)
    assert verdict.outcome is Outcome.PASSED, verdict.summary + verdict.log_tail
    assert equiv_status(verdict) == "PROVED"
    assert strong_result(verdict) is True


def test_restructured_combinational_candidate_is_proved(mux: Case, tmp_path: Path) -> None:
    rewritten = MUX.replace("2'd2: y = a & b;", "2'd2: y = ~(~a | ~b);")
    assert equiv_status(check("rtl-equiv", mux, rewritten, tmp_path)) == "PROVED"


def test_sequential_golden_is_proved_by_induction(counter: Case, tmp_path: Path) -> None:
    verdict = check("rtl-equiv", counter, COUNTER, tmp_path)
    assert equiv_status(verdict) == "PROVED"
    assert verdict.metrics["equiv_method"] == "equiv_induct"


def test_combinational_counterexample_is_replayed(mux: Case, tmp_path: Path) -> None:
    verdict = check("rtl-equiv", mux, MUX.replace("2'd2: y = a & b;", "2'd2: y = a ^ b;"), tmp_path)
    assert verdict.category is Category.EQUIV_FAIL
    assert equiv_status(verdict) == "COUNTEREXAMPLE"
    assert "replayed in simulation" in verdict.summary
    assert verdict.metrics["output"] == "y"
    (vector,) = verdict.metrics["counterexample"]
    assert vector["sel"] == "2'h2"
    assert strong_result(verdict) is False


def test_sequential_counterexample_is_replayed(counter: Case, tmp_path: Path) -> None:
    verdict = check("rtl-equiv", counter, COUNTER.replace("(q == 4'd15)", "(q == 4'd14)"), tmp_path)
    assert verdict.category is Category.EQUIV_FAIL
    assert verdict.metrics["output"] == "top"
    trace = verdict.metrics["counterexample"]
    assert len(trace) >= 14
    assert all("clk" not in step for step in trace)
    assert [step["rst_n"] for step in trace[:2]] == ["1'h0", "1'h0"]


def test_counterexample_that_does_not_replay_does_not_count(mux: Case, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    import pytest_hwrepair.oracles.rtl.oracle as rtl

    # A solver claim on a correct candidate: simulation cannot reproduce it, so it is not a failure by EQUIV_FAIL.
    fake = EquivResult(EquivStatus.COUNTEREXAMPLE, "sat", "claimed", "", 1, ({"sel": "00", "a": "01", "b": "10"},))
    monkeypatch.setattr(rtl, "check_equivalence", lambda job, sandbox: fake)
    verdict = check("rtl-equiv", mux, MUX, tmp_path)
    assert verdict.category is not Category.EQUIV_FAIL
    assert equiv_status(verdict) == "UNSUPPORTED"
    assert "did not reproduce" in verdict.summary


WIDE = """\
module wide (
    input  wire clk,
    input  wire rst_n,
    input  wire en,
    output wire msb
);
    reg [7:0] count;
    always @(posedge clk or negedge rst_n) begin
        if (!rst_n)
            count <= 8'd0;
        else if (en)
            count <= count + 8'd1;
    end
    assign msb = count[7];
endmodule
"""


# The count kept complemented and counted down: no state matches by name or by structure, the outputs still do.
WIDE_COMPLEMENTED = WIDE.replace("count <= 8'd0;", "count <= 8'hff;").replace(
    "count <= count + 8'd1;", "count <= count - 8'd1;").replace("assign msb = count[7];", "assign msb = ~count[7];")


def test_renamed_state_is_proved_by_structural_matching(tmp_path: Path) -> None:
    case = make_case(tmp_path / "case", WIDE, {"top": "wide", "clock": "clk", "reset": {"signal": "rst_n",
                     "active": 0, "cycles": 1}, "cycles": 300, "seeds": 1, "timeout": 60}, strong_timeout=120)
    verdict = check("rtl-equiv", case, WIDE.replace("count", "steps"), tmp_path, equiv_depth=12)
    assert equiv_status(verdict) == "PROVED"
    assert "structural matching" in verdict.summary


def test_bounded_pass_is_never_reported_as_proved(tmp_path: Path) -> None:
    # Re-encoding the state defeats induction over matched state; the candidate is still correct.
    case = make_case(tmp_path / "case", WIDE, {"top": "wide", "clock": "clk", "reset": {"signal": "rst_n",
                     "active": 0, "cycles": 1}, "cycles": 300, "seeds": 1, "timeout": 60}, strong_timeout=120)
    verdict = check("rtl-equiv", case, WIDE_COMPLEMENTED, tmp_path, equiv_depth=12)
    assert verdict.outcome is Outcome.PASSED
    assert equiv_status(verdict) == "BOUNDED_PASS"
    assert not verdict.summary.startswith("PROVED")
    assert "not proved" in verdict.summary
    assert verdict.metrics["equiv_depth"] == 12


def test_bounded_pass_misses_a_deep_bug_that_simulation_finds(tmp_path: Path) -> None:
    case = make_case(tmp_path / "case", WIDE, {"top": "wide", "clock": "clk", "reset": {"signal": "rst_n",
                     "active": 0, "cycles": 1}, "cycles": 400, "seeds": 1, "timeout": 60}, strong_timeout=120)
    deep = WIDE.replace("assign msb = count[7];", "assign msb = count[7] | (count == 8'd100);")
    assert equiv_status(check("rtl-equiv", case, deep, tmp_path, equiv_depth=12)) == "BOUNDED_PASS"
    assert check("rtl-sim", case, deep, tmp_path).category is Category.TEST_FAIL


def test_structural_scope_proves_the_golden_design(tmp_path: Path) -> None:
    case = make_case(tmp_path / "case", COUNTER, COUNTER_ORACLE, strong_timeout=120, strong_scope="structural")
    verdict = check("rtl-equiv", case, COUNTER, tmp_path)
    assert equiv_status(verdict) == "PROVED"
    assert "structural matching" in verdict.summary


def test_structural_scope_leaves_what_it_cannot_prove_undecided(tmp_path: Path) -> None:
    # The full flow finds this bug by a bounded check (test_sequential_counterexample_is_replayed); this scope
    # does not run one.
    case = make_case(tmp_path / "case", COUNTER, COUNTER_ORACLE, strong_timeout=120, strong_scope="structural")
    verdict = check("rtl-equiv", case, COUNTER.replace("(q == 4'd15)", "(q == 4'd14)"), tmp_path)
    assert equiv_status(verdict) == "UNSUPPORTED"
    assert 'scope = "structural"' in verdict.summary
    assert strong_result(verdict) is None


def test_explicit_sensitivity_list_is_unsupported(tmp_path: Path) -> None:
    case = make_case(tmp_path / "case", MUX, MUX_ORACLE, strong_timeout=120)
    stale = MUX.replace("always @*", "always @(sel)")
    verdict = check("rtl-equiv", case, stale, tmp_path)
    assert equiv_status(verdict) == "UNSUPPORTED"
    assert verdict.outcome is Outcome.FAILED
    assert strong_result(verdict) is None
    assert check("rtl-sim", case, stale, tmp_path).category is Category.TEST_FAIL


def test_yosys_past_its_budget_is_a_timeout(tmp_path: Path) -> None:
    case = make_case(tmp_path / "case", COUNTER, COUNTER_ORACLE, strong_timeout=0.01)
    verdict = check("rtl-equiv", case, COUNTER, tmp_path)
    assert equiv_status(verdict) == "TIMEOUT"
    assert verdict.category is Category.TIMEOUT
    assert strong_result(verdict) is None


def test_strong_oracle_reads_the_suite_contract(counter: Case, tmp_path: Path) -> None:
    # The harness builds the strong oracle from the same case; its reset comes from [oracle].
    verdict = check("rtl-equiv", counter, COUNTER.replace("4'd0;", "4'd1;"), tmp_path)
    assert equiv_status(verdict) == "COUNTEREXAMPLE"
    assert "rst_n=0 for 2 cycles" in verdict.metrics["contract"]


def test_trace_parser_reads_sat_tables() -> None:
    table = textwrap.dedent("""\
          Time Signal                 Dec        Hex             Bin
          ---- ---------------- ---------- ---------- ---------------
             1 \\in_a                    3          3            0011
             1 \\gold_y                  1          1               1
             2 \\in_a                   --         --            xx10
        """)
    assert parse_trace(table, sequential=True) == ({"a": "0011"}, {"a": "xx10"})


# --- preflight (fail closed) ------------------------------------------------------------------------------------


def _rejected(verdict: Verdict, rule: str) -> None:
    assert verdict.outcome is Outcome.FAILED
    assert verdict.category is Category.LINT_FAIL
    assert verdict.metrics["stage"] == "preflight"
    assert verdict.metrics["preflight"] == rule
    assert verdict.summary.startswith("preflight: ")


def test_extra_module_is_rejected(counter: Case, tmp_path: Path) -> None:
    extra = COUNTER + "\nmodule helper(input wire a, output wire b);\n    assign b = a;\nendmodule\n"
    verdict = check("rtl-sim", counter, extra, tmp_path)
    _rejected(verdict, "module-set")
    assert "helper" in verdict.summary


def test_missing_module_is_rejected(counter: Case, tmp_path: Path) -> None:
    _rejected(check("rtl-lint", counter, COUNTER.replace("module cnt", "module count4"), tmp_path), "module-set")


def test_changed_port_width_is_rejected(counter: Case, tmp_path: Path) -> None:
    wider = COUNTER.replace("output reg  [3:0] q,", "output reg  [4:0] q,").replace("4'd", "5'd")
    verdict = check("rtl-sim", counter, wider, tmp_path)
    _rejected(verdict, "ports")
    assert "q is 5 bits wide" in verdict.summary


def test_changed_port_direction_is_rejected(mux: Case, tmp_path: Path) -> None:
    swapped = MUX.replace("input  wire [7:0] b,", "output wire [7:0] b,").replace("2'd1: y = b;", "2'd1: y = a;")
    swapped = swapped.replace("endmodule", "    assign b = a;\nendmodule")
    _rejected(check("rtl-lint", mux, swapped, tmp_path), "ports")


def test_hierarchical_reference_is_rejected(counter: Case, tmp_path: Path) -> None:
    peek = COUNTER.replace("assign top = (q == 4'd15);", "assign top = hwrepair_tb.golden_dut.top;")
    _rejected(check("rtl-sim", counter, peek, tmp_path), "hierarchical-reference")


def test_force_is_rejected(counter: Case, tmp_path: Path) -> None:
    forced = COUNTER.replace("endmodule", "    initial force q = 4'd0;\nendmodule")
    _rejected(check("rtl-sim", counter, forced, tmp_path), "force")


def test_system_task_is_rejected(counter: Case, tmp_path: Path) -> None:
    shell = COUNTER.replace("endmodule", '    initial $system("cat golden.v");\nendmodule')
    verdict = check("rtl-sim", counter, shell, tmp_path)
    _rejected(verdict, "system-task")
    assert "$system" in verdict.summary


def test_display_is_rejected_because_it_could_forge_testbench_output(counter: Case, tmp_path: Path) -> None:
    forged = COUNTER.replace("endmodule", '    initial $display("HWREPAIR-DONE seed=1");\nendmodule')
    _rejected(check("rtl-sim", counter, forged, tmp_path), "system-task")


def test_define_is_rejected(counter: Case, tmp_path: Path) -> None:
    macro = "`define ONE 4'd1\n" + COUNTER.replace("q + 4'd1", "q + `ONE")
    verdict = check("rtl-sim", counter, macro, tmp_path)
    _rejected(verdict, "preprocessor")
    assert "`define" in verdict.summary


def test_lint_pragma_is_rejected(counter: Case, tmp_path: Path) -> None:
    hushed = "/* verilator lint_off WIDTH */\n" + COUNTER
    _rejected(check("rtl-lint", counter, hushed, tmp_path), "pragma")


def test_missing_candidate_file_is_rejected(counter: Case, tmp_path: Path) -> None:
    workspace = tmp_path / "empty"
    workspace.mkdir()
    oracle = ORACLES["rtl-sim"](counter, OracleContext(tmp_path / "cache"))
    verdict = oracle.check(workspace, LocalSandbox())
    assert verdict.category is Category.LINT_FAIL
    assert "missing" in verdict.summary


def test_source_rules_leave_ordinary_code_alone() -> None:
    code = 'module m(input wire [3:0] a, output wire [3:0] y);\n  // a comment with a.b and $x in it\n' \
           '  localparam S = "x.y";\n  assign y = $signed(a) >>> 1;\n  sub u (.p(a), .q());\nendmodule\n'
    check_source_rules("m.v", code)
    assert module_names(code) == ["m"]


def test_timescale_is_allowed_but_include_is_not() -> None:
    check_source_rules("m.v", "`timescale 1ns/1ps\nmodule m; endmodule\n")
    with pytest.raises(PreflightRejection):
        check_source_rules("m.v", '`include "golden.v"\nmodule m; endmodule\n')


def test_renaming_touches_module_names_only() -> None:
    text = "module sub(input wire a, output wire sub_q);\nendmodule\nmodule top; sub u (.a(1'b0), .sub_q());\nendmodule"
    renamed = rename_modules(text, ["top", "sub"], "golden_")
    assert "module golden_sub" in renamed and "golden_sub u" in renamed and "module golden_top" in renamed
    assert ".sub_q()" in renamed and ".a(" in renamed


# --- Verilator as the simulator ---------------------------------------------------------------------------------


@pytest.mark.slow
def test_verilator_simulation_finds_the_same_mismatch(counter: Case, tmp_path: Path) -> None:
    buggy = COUNTER.replace("q <= q + 4'd1;", "q <= q + 4'd2;")
    verdict = check("rtl-sim", counter, buggy, tmp_path, simulator="verilator")
    assert verdict.category is Category.TEST_FAIL, verdict.summary + verdict.log_tail
    assert verdict.metrics["simulator"] == "verilator"
    assert verdict.metrics["output"] == "q"
    reference = check("rtl-sim", counter, buggy, tmp_path)
    assert (verdict.metrics["seed"], verdict.metrics["cycle"]) == (reference.metrics["seed"],
                                                                   reference.metrics["cycle"])


def test_unknown_simulator_is_refused(counter: Case, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="simulator"):
        ORACLES["rtl-sim"](counter, OracleContext(tmp_path / "cache", options={"simulator": "xsim"}))


def test_contract_naming_a_missing_clock_is_a_case_error(tmp_path: Path) -> None:
    case = make_case(tmp_path / "case", COUNTER, {**COUNTER_ORACLE, "clock": "clock"})
    verdict = check("rtl-sim", case, COUNTER, tmp_path)
    assert verdict.outcome is Outcome.ERROR
    assert "oracle.clock: 'clock' is not an input of module cnt" in verdict.summary


def test_intra_assignment_delay_is_not_a_lint_failure(counter: Case, tmp_path: Path) -> None:
    delayed = COUNTER.replace("q <= q + 4'd1;", "q <= #1 q + 4'd1;")
    assert check("rtl-sim", counter, delayed, tmp_path).outcome is Outcome.PASSED
