"""The `rtl-tb` oracle (a case's own testbench or trace table) and the rtl lint options, with real tools."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from pytest_hwrepair.cases.case import Case
from pytest_hwrepair.cases.load import load_case
from pytest_hwrepair.importers.base import dump_toml
from pytest_hwrepair.oracles import ORACLES
from pytest_hwrepair.oracles.base import OracleContext
from pytest_hwrepair.oracles.rtl.oracle import TableError, compare_outputs, parse_table
from pytest_hwrepair.sandbox.local.sandbox import LocalSandbox
from pytest_hwrepair.verdict import CaseError, Category, Outcome, Verdict

TOOLS = ("iverilog", "vvp", "verilator", "yosys")
needs_tools = pytest.mark.skipif(any(shutil.which(t) is None for t in TOOLS),
                                 reason="needs iverilog, verilator and yosys on PATH")

COUNTER = """\
module cnt (input clk, input rst, input en, output reg [3:0] q, output top);
    always @(posedge clk) begin
        if (rst) q <= 4'd0;
        else if (en) q <= q + 4'd1;
    end
    assign top = (q == 4'd15);
endmodule
"""
TESTBENCH = """\
`timescale 1ns / 1ns
module cnt_tb;
    reg clk, rst, en;
    wire [3:0] q;
    wire top;
    integer f;
    cnt dut (.clk(clk), .rst(rst), .en(en), .q(q), .top(top));
    initial begin
        f = $fopen("out.txt");
        $fwrite(f, "time,q,top\\n");
        clk = 0; rst = 1; en = 0;
        #12 rst = 0; en = 1;
        #100 $fclose(f);
        $display("checked %0d cycles", 11);
        $finish;
    end
    always #5 clk = ~clk;
    always @(negedge clk) $fwrite(f, "%g,%d,%b\\n", $time, q, top);
endmodule
"""
# What the golden counter writes: reset held through the first edge, then counting from 0.
EXPECTED = "time,q,top\n10,x,x\n" + "".join(f"{20 + 10 * i},{i + 1},0\n" for i in range(10))
# A trace with the clock column the upstream tables carry; the x enable is driven 0 under init = "zero".
TABLE = ("rst, en, q, top, clk\n1, 0, x, x, 1\n0, 1, 0, 0, 1\n0, 1, 1, 0, 1\n0, x, 2, 0, 1\n0, 1, 2, 0, 1\n"
         "0, 1, 3, 0, 1\n")


def make_case(root: Path, oracle: dict[str, Any], files: dict[str, str], source: str = COUNTER) -> Case:
    root.mkdir(parents=True, exist_ok=True)
    for name, text in {"cnt.v": source, "spec.md": "a counter\n", **files}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    fields = {"schema": 1, "id": "cnt", "domain": "rtl", "suite": "t", "sources": ["cnt.v"], "target": "cnt.v",
              "spec": "spec.md", "oracle": {"kind": "rtl-tb", "top": "cnt", "timeout": 60, **oracle},
              "bug": [{"id": "OFF-01", "class": "behavioural", "find": "q + 4'd1", "replace": "q + 4'd2"}]}
    (root / "case.toml").write_text(dump_toml(fields), encoding="utf-8")
    return load_case(root / "case.toml", strict=True)


def judge(case: Case, candidate: str, tmp_path: Path, kind: str = "rtl-tb") -> Verdict:
    workspace = tmp_path / "ws"
    shutil.rmtree(workspace, ignore_errors=True)
    workspace.mkdir()
    (workspace / "cnt.v").write_text(candidate, encoding="utf-8")
    return ORACLES[kind](case, OracleContext(tmp_path / "cache")).check(workspace, LocalSandbox())


@pytest.fixture
def output_case(tmp_path: Path) -> Case:
    return make_case(tmp_path / "case", {"testbench": ["tb/cnt_tb.v"], "output": "out.txt",
                                         "expected": "expected.txt"},
                     {"tb/cnt_tb.v": TESTBENCH, "expected.txt": EXPECTED})


@pytest.fixture
def table_case(tmp_path: Path) -> Case:
    return make_case(tmp_path / "case", {"table": "tb.csv", "clock": "clk", "init": "zero"}, {"tb.csv": TABLE})


# --- the output-file form ---------------------------------------------------------------------------------------

@needs_tools
def test_golden_design_reproduces_its_output_table(output_case: Case, tmp_path: Path) -> None:
    verdict = judge(output_case, COUNTER, tmp_path)
    assert verdict.outcome is Outcome.PASSED, verdict.summary + verdict.log_tail
    assert "testbench tb/cnt_tb.v under Icarus" in verdict.metrics["contract"]


@needs_tools
def test_wrong_output_names_the_row_and_column(output_case: Case, tmp_path: Path) -> None:
    verdict = judge(output_case, COUNTER.replace("q + 4'd1", "q + 4'd2"), tmp_path)
    assert verdict.category is Category.TEST_FAIL
    assert verdict.summary == "out.txt differs from expected.txt: row 1: q is 2, expected 1"


@needs_tools
def test_testbench_and_expected_table_never_reach_the_workspace(output_case: Case) -> None:
    assert set(output_case.golden_files()) == {"cnt.v"} and not output_case.model.data
    assert {"tb/cnt_tb.v", "expected.txt"} <= set(output_case.files)


@needs_tools
def test_pass_regex_judges_the_testbench_output(tmp_path: Path) -> None:
    case = make_case(tmp_path / "case", {"testbench": ["cnt_tb.v"], "pass_regex": r"checked \d+ cycles"},
                     {"cnt_tb.v": TESTBENCH})
    assert judge(case, COUNTER, tmp_path).outcome is Outcome.PASSED
    failing = make_case(tmp_path / "case2", {"testbench": ["cnt_tb.v"], "pass_regex": r"^Mismatches: 0 in"},
                        {"cnt_tb.v": TESTBENCH})
    verdict = judge(failing, COUNTER, tmp_path)
    assert verdict.category is Category.TEST_FAIL and "checked 11 cycles" in verdict.summary


@needs_tools
def test_candidate_that_breaks_the_testbench_build_is_a_compile_failure(output_case: Case, tmp_path: Path) -> None:
    renamed = COUNTER.replace("output top", "output topp").replace("assign top", "assign topp")
    verdict = judge(output_case, renamed, tmp_path)
    assert verdict.category is Category.LINT_FAIL  # the preflight sees the changed port first
    assert "port" in verdict.summary


# --- the trace-table form ---------------------------------------------------------------------------------------

@needs_tools
def test_golden_design_passes_its_trace_table(table_case: Case, tmp_path: Path) -> None:
    verdict = judge(table_case, COUNTER, tmp_path)
    assert verdict.outcome is Outcome.PASSED, verdict.summary + verdict.log_tail
    assert verdict.summary == "every recorded output of 6 cycles matches"
    assert "unrecorded inputs 0" in verdict.metrics["contract"]


@needs_tools
def test_trace_mismatch_names_cycle_output_and_values(table_case: Case, tmp_path: Path) -> None:
    verdict = judge(table_case, COUNTER.replace("q + 4'd1", "q + 4'd2"), tmp_path)
    assert verdict.category is Category.TEST_FAIL
    assert verdict.summary == "output q differs at cycle 2 of seed 1: expected 4'h1, got 4'h2"


@needs_tools
def test_recorded_value_the_golden_design_does_not_reproduce_fails_the_golden_too(tmp_path: Path) -> None:
    wrong = TABLE.replace("0, 1, 1, 0", "0, 1, 5, 0")
    case = make_case(tmp_path / "case", {"table": "tb.csv", "clock": "clk"}, {"tb.csv": wrong})
    assert judge(case, COUNTER, tmp_path).category is Category.TEST_FAIL


@needs_tools
def test_an_output_the_golden_leaves_x_is_not_compared(tmp_path: Path) -> None:
    # Without the reset row the golden counter stays X: no recorded value can be checked against it.
    case = make_case(tmp_path / "case", {"table": "tb.csv", "clock": "clk"},
                     {"tb.csv": "rst, en, q, top\n0, 1, 7, 1\n0, 1, 8, 1\n"})
    assert judge(case, COUNTER.replace("q + 4'd1", "q + 4'd2"), tmp_path).outcome is Outcome.PASSED


@needs_tools
def test_a_combinational_design_replays_its_table_row_by_row(tmp_path: Path) -> None:
    adder = "module cnt (input [3:0] a, output [4:0] y);\n    assign y = a + 4'd1;\nendmodule\n"
    case = make_case(tmp_path / "case", {"table": "tb.csv"}, {"tb.csv": "a,y\n1,2\n7,8\n15,16\n"},
                     source=adder + "// q + 4'd1 (the shared bug edit's text)\n")
    assert judge(case, case.files["cnt.v"], tmp_path).outcome is Outcome.PASSED
    verdict = judge(case, case.files["cnt.v"].replace("a + 4'd1", "a + 4'd2"), tmp_path)
    assert verdict.summary == "output y differs at cycle 0 of seed 1: expected 5'h2, got 5'h3"
    assert "row by row (no clock" in verdict.metrics["contract"]


def test_tables_are_read_as_the_upstream_harness_reads_them() -> None:
    table = parse_table(' "a" , b ,\n1, x,\n\n22,X,\n')
    assert table.header == ("a", "b") and table.rows == (("1", "x"), ("22", "X"))
    with pytest.raises(TableError, match="line 2 has 1 cells, the header 2"):
        parse_table("a,b\n1\n")
    with pytest.raises(TableError, match="cell '0x1f' is neither"):
        parse_table("a\n0x1f\n")


def test_an_upper_case_x_in_an_output_column_is_not_compared() -> None:
    from pytest_hwrepair.oracles.rtl.oracle import table_testbench
    from pytest_hwrepair.oracles.rtl.preflight import Port
    ports = (Port("a", "input", 4), Port("y", "output", 4))
    tb = table_testbench("add", ports, parse_table("a,y\n1,X\n2,x\n3,4\n"), None, zero=False)
    assert tb.count("HWREPAIR-MISMATCH") == 1 and "4'h4" in tb


@pytest.mark.parametrize(("actual", "problem"), [
    ("time,q\n1,0\n2,1\n", None),
    ("time,q\n1,0\n2,1\n3,1\n", None),
    ("time,q\n9,1\n2,1\n", None),  # the time column is not compared
    ("time,q\n1,0\n", "output stops after 1 rows; expected 2"),
    ("time,q\n1,0\n2,0\n", "row 1: q is 0, expected 1"),
    ("time,y\n1,0\n2,1\n", "header 'time,y' is not 'time,q'"),
    ("", "the testbench wrote no output"),
])
def test_output_tables_compare_as_cirfix_compares_them(actual: str, problem: str | None) -> None:
    assert compare_outputs("time,q\n1,x\n2,1\n", actual) == problem


# --- the spec ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("oracle", "problem"), [
    ({}, "give either testbench files or a trace table"),
    ({"testbench": ["t.v"], "table": "t.csv", "clock": "clk"}, "not both or neither"),
    ({"testbench": ["t.v"]}, "needs an expected output table or a pass_regex"),
    ({"testbench": ["t.v"], "pass_regex": "("}, "pass_regex: invalid regex"),
    ({"testbench": ["../t.v"], "pass_regex": "x"}, "'..' is not allowed"),
    ({"testbench": ["t.v"], "pass_regex": "x", "output": "d/o.txt"}, "must be a plain file name"),
    ({"table": "t.csv", "clock": "clk", "init": "ones"}, "init: 'ones' is not one of reset, x, zero"),
    ({"table": "t.csv", "clock": "clk", "lint_waive": ["WIDTH; rm"]}, "is not a Verilator warning class"),
    ({"testbench": ["t.v"], "pass_regex": "x", "tb_data": ["cand/x.v"]}, "would replace a file of the oracle's"),
])
def test_a_malformed_rtl_tb_oracle_is_a_one_line_case_error(tmp_path: Path, oracle: dict[str, Any],
                                                           problem: str) -> None:
    with pytest.raises(CaseError, match=problem.replace("(", r"\(")):
        make_case(tmp_path / "case", oracle, {"t.v": TESTBENCH, "t.csv": TABLE})


# --- lint options of every rtl oracle ---------------------------------------------------------------------------

BLOCKING = COUNTER.replace("q <= q + 4'd1;", "q = q + 4'd1;").replace("q <= 4'd0;", "q = 4'd0;")


@needs_tools
def test_lint_warn_makes_a_style_class_fatal(tmp_path: Path) -> None:
    plain = make_case(tmp_path / "a", {"table": "tb.csv", "clock": "clk"}, {"tb.csv": TABLE})
    strict = make_case(tmp_path / "b", {"table": "tb.csv", "clock": "clk", "lint_warn": ["BLKSEQ"]}, {"tb.csv": TABLE})
    assert judge(plain, BLOCKING, tmp_path, "rtl-lint").passed
    verdict = judge(strict, BLOCKING, tmp_path, "rtl-lint")
    assert verdict.category is Category.LINT_FAIL and "BLKSEQ" in verdict.log_tail


@needs_tools
def test_lint_waive_lets_a_golden_designs_own_warning_pass(tmp_path: Path) -> None:
    wide = COUNTER.replace("(q == 4'd15)", "(q == 5'd15)")
    plain = make_case(tmp_path / "a", {"table": "tb.csv", "clock": "clk"}, {"tb.csv": TABLE}, source=wide)
    waived = make_case(tmp_path / "b", {"table": "tb.csv", "clock": "clk", "lint_waive": ["WIDTH"]},
                       {"tb.csv": TABLE}, source=wide)
    assert judge(plain, wide, tmp_path, "rtl-lint").category is Category.LINT_FAIL
    assert judge(waived, wide, tmp_path, "rtl-lint").passed
