"""`rtl-tb`: a harness-owned testbench judges the candidate design (the published benchmarks' own oracles).

Two forms, each behind the rtl preflight and lint every rtl oracle runs first:

* `testbench = [...]`: Verilog testbench files of the case (never copied into the workspace) compiled with
  the candidate's design under Icarus and run. What the run writes (the file `output`, else its standard
  output) must match the case's `expected` table (a CSV; a cell `x` there matches anything, a leading `time`
  column is not compared; CirFix's output-file oracle) and/or `pass_regex` (VerilogEval's
  `Mismatches: 0 in N samples`). The candidate cannot print or write files: the preflight forbids system tasks.
* `table = "tb.csv"`: an I/O trace table (RTL-Repair's cycle tables: a header of signal names, one row per
  cycle, decimal values or `x`). Each cycle the row's inputs are applied, outputs settle and every output the
  row records is compared, then the clock rises (without a clock each row is one input vector). A recorded
  value counts where the golden design's output is
  defined under Icarus (a golden X is not compared, as in Tier S); a golden that disagrees with the recording
  fails as any candidate would, so a trace that does not reproduce here cannot admit its bug. Inputs the row
  leaves `x` (or the table omits) are driven 0 under `init = "zero"` and X otherwise.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

from pydantic import field_validator, model_validator

from ...cases.case import Case, compile_regex, path_problem
from ...sandbox.base import Sandbox
from ...verdict import Category, Verdict
from ..base import OracleContext, OracleKind, typed_spec
from .bench import Bench, linear, read_capped, run_steps
from .oracle import RtlOracle, sim_verdict
from .preflight import Port
from .sim import TB_TOP, RtlSpec, simulate

OUTPUT_CAP = 16 << 20
TABLE_CELL = re.compile(r"^(?:[0-9]+|[xX])$")
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_$]*$")
INITS = ("reset", "x", "zero")
# What the bench holds besides the files a testbench reads: the golden copy, the candidate, the steps.
BENCH_NAMES = frozenset({"golden.v", "cand", "tb", "tb.vvp", ".steps", "ports.ys", "ports.il", "lintobj",
                         "lint.vvp", "sim.vvp", "simobj"})


class RtlTbSpec(RtlSpec):
    """`rtl-tb`: the testbench files (or trace table) and what their run must show."""

    testbench: list[str] = []
    tb_top: str | None = None
    tb_data: list[str] = []  # files the testbench reads while it runs (memory images), next to it
    output: str | None = None  # the file the testbench writes; default its standard output
    expected: str | None = None
    pass_regex: str | None = None
    table: str | None = None

    @field_validator("testbench", "tb_data")
    @classmethod
    def _inside(cls, names: list[str]) -> list[str]:
        for name in names:
            problem = path_problem(name)
            if problem:
                raise ValueError(f"{name!r} {problem}")
        return names

    @model_validator(mode="after")
    def _one_form(self) -> RtlTbSpec:
        if bool(self.testbench) == bool(self.table):
            raise ValueError("testbench: give either testbench files or a trace table, not both or neither")
        if self.testbench and not (self.expected or self.pass_regex):
            raise ValueError("expected: a testbench needs an expected output table or a pass_regex")
        if self.tb_top is not None and not _IDENT.match(self.tb_top):
            raise ValueError(f"tb_top: {self.tb_top!r} is not a Verilog module name")
        taken = [n for n in self.tb_data if n.split("/")[0] in BENCH_NAMES]
        if taken:
            raise ValueError(f"tb_data: {taken[0]!r} would replace a file of the oracle's own bench")
        if self.output is not None and (path_problem(self.output) or "/" in self.output):
            raise ValueError(f"output: {self.output!r} must be a plain file name")
        if self.pass_regex is not None:
            compile_regex(self.pass_regex, "pass_regex")
        if self.init not in INITS:
            raise ValueError(f"init: {self.init!r} is not one of {', '.join(INITS)}")
        return self

    def case_files(self, where: str) -> list[tuple[str, str]]:
        named = [(n, f"{where}.testbench") for n in self.testbench] + [(n, f"{where}.tb_data") for n in self.tb_data]
        named += [(n, f"{where}.{f}") for f, n in (("expected", self.expected), ("table", self.table)) if n]
        return named


@dataclass(frozen=True, slots=True)
class Table:
    """A parsed trace table: column names and rows of cells (decimal text or `x`)."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


class TableError(ValueError):
    """A trace or expected table that cannot be read."""


def parse_csv_line(line: str) -> list[str]:
    """Cells with surrounding spaces and quotes removed (the upstream tables' own reading)."""
    cells = []
    for cell in line.split(","):
        cell = cell.strip()
        if len(cell) > 1 and cell[0] == cell[-1] == '"':
            cell = cell[1:-1].strip()
        cells.append(cell)
    return cells


def parse_table(text: str) -> Table:
    """A trace table; raises TableError when rows differ in width or a cell is not decimal or x."""
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        raise TableError("the table is empty")
    header = parse_csv_line(lines[0])
    if header and header[-1] == "":
        header = header[:-1]  # a trailing comma
    rows = []
    for number, line in enumerate(lines[1:], 2):
        cells = parse_csv_line(line)
        if len(cells) == len(header) + 1 and cells[-1] == "":
            cells = cells[:-1]
        if len(cells) != len(header):
            raise TableError(f"line {number} has {len(cells)} cells, the header {len(header)}")
        bad = next((c for c in cells if not TABLE_CELL.match(c)), None)
        if bad is not None:
            raise TableError(f"line {number}: cell {bad!r} is neither a decimal number nor x")
        rows.append(tuple(cells))
    return Table(tuple(header), tuple(rows))


def compare_outputs(expected: str, actual: str) -> str | None:
    """The first difference between an expected output table and the run's output, or None (CirFix's rule)."""
    want, got = expected.splitlines(), actual.splitlines()
    if not got:
        return "the testbench wrote no output"
    head_want, head_got = parse_csv_line(want[0]), parse_csv_line(got[0])
    if head_want != head_got:
        return f"header {','.join(head_got)!r} is not {','.join(head_want)!r}"
    skip = 1 if head_want and head_want[0].lower() == "time" else 0
    for row, (line_want, line_got) in enumerate(zip(want[1:], got[1:])):
        cells_want, cells_got = parse_csv_line(line_want), parse_csv_line(line_got)
        for index, name in enumerate(head_want[skip:], skip):
            e = cells_want[index].lower() if index < len(cells_want) else ""
            a = cells_got[index].lower() if index < len(cells_got) else ""
            if e != "x" and e != a:
                return f"row {row}: {name} is {a or 'missing'}, expected {e}"
    if len(got) < len(want):
        return f"output stops after {len(got) - 1} rows; expected {len(want) - 1}"
    return None


def table_testbench(top: str, ports: tuple[Port, ...], table: Table, clock: str | None, zero: bool) -> str:
    """A testbench replaying the table's rows into golden and candidate; mismatches in rtl-sim's format.

    Without a clock (a combinational design) each row is one input vector.
    """
    inputs = [p for p in ports if p.direction == "input" and p.name != clock]
    outputs = [p for p in ports if p.direction == "output"]
    decls = [f"  reg [{p.width - 1}:0] in_{p.name};" for p in inputs]
    decls += [f"  wire [{p.width - 1}:0] gold_{p.name}, cand_{p.name};" for p in outputs]
    drives = [*([f".{clock}(clk)"] if clock else []), *(f".{p.name}(in_{p.name})" for p in inputs)]
    rows = []
    for number, row in enumerate(table.rows):
        cells = dict(zip(table.header, row))
        drive = [f"in_{p.name} = {_literal(p.width, cells.get(p.name, 'x'), zero)};" for p in inputs]
        checks = [_check(p, cells[p.name]) for p in outputs if cells.get(p.name, "x").lower() != "x"]
        rows.append(f"      {number}: begin {' '.join(drive)} #4; {' '.join(checks)} end")
    golden, candidate = (", ".join([*drives, *(f".{p.name}({side}_{p.name})" for p in outputs)])
                         for side in ("gold", "cand"))
    return f"""module {TB_TOP};
  integer cycle;
  reg clk;
  reg failed;
{chr(10).join(decls)}

  golden_{top} golden_dut ({golden});
  {top} cand_dut ({candidate});

  initial begin
    clk = 1'b0;
    failed = 1'b0;
    for (cycle = 0; cycle < {len(table.rows)} && !failed; cycle = cycle + 1) begin
      case (cycle)
{chr(10).join(rows)}
        default: #4;
      endcase
      #1 clk = 1'b1;
      #5 clk = 1'b0;
    end
    $display("HWREPAIR-DONE seed=1");
    $finish;
  end
endmodule
"""


def _literal(width: int, cell: str, zero: bool) -> str:
    if cell.lower() == "x":
        return f"{width}'d0" if zero else f"{{{width}{{1'bx}}}}"
    return f"{width}'h{int(cell) & ((1 << width) - 1):x}"


def _check(port: Port, cell: str) -> str:
    value = _literal(port.width, cell, zero=False)
    return (f'if ((^gold_{port.name}) !== 1\'bx && cand_{port.name} !== {value}) begin '
            f'$display("HWREPAIR-MISMATCH seed=1 cycle=%0d output={port.name} expected=%b actual=%b", cycle, '
            f'{value}, cand_{port.name}); failed = 1\'b1; end')


class RtlTbOracle(RtlOracle):
    """Runs the case's own testbench (or trace table) on the candidate design."""

    stage = "tb"

    def __init__(self, case: Case, ctx: OracleContext) -> None:
        super().__init__(case, ctx)
        self.tb = typed_spec(case.oracle, RtlTbSpec)

    def describe(self) -> str:
        tb = self.tb
        if tb.table:
            init = "0" if tb.init == "zero" else "X"
            steps = f"cycle by cycle on clock {tb.clock}" if tb.clock else "row by row (no clock: combinational)"
            return (f"top {tb.top}; trace table {tb.table} replayed {steps}; recorded outputs compared where the "
                    f"golden design's output is defined; unrecorded inputs {init}")
        judged = [f"output table {tb.expected} (x cells match anything)"] if tb.expected else []
        judged += [f"pass regex {tb.pass_regex!r}"] if tb.pass_regex else []
        where = tb.output or "standard output"
        return f"top {tb.top}; testbench {', '.join(tb.testbench)} under Icarus; its {where} must match " + \
            " and ".join(judged)

    def contract_problem(self, ports: tuple[Port, ...]) -> str | None:
        if self.tb.table:
            return super().contract_problem(ports)
        return None  # the testbench drives the design itself, inout buses included

    def judge(self, bench: Bench, ports: tuple[Port, ...], sandbox: Sandbox) -> Verdict:
        if self.tb.table:
            return self.judge_table(bench, ports, sandbox)
        return self.judge_testbench(bench, sandbox)

    def judge_table(self, bench: Bench, ports: tuple[Port, ...], sandbox: Sandbox) -> Verdict:
        tb = self.tb
        try:
            table = parse_table(self.case.files[tb.table or ""])
        except TableError as exc:
            return Verdict.error(f"{self.case.path}: oracle.table: {exc}")
        text = table_testbench(tb.top, ports, table, tb.clock, tb.init == "zero")
        result = simulate(bench, sandbox, text, [1], simulator="iverilog", timeout=self.timeout,
                          limits=self.ctx.limits)
        verdict = sim_verdict(result, [1], {"stage": "tb", "table": tb.table})
        if verdict.passed:
            return Verdict.ok(f"every recorded output of {len(table.rows)} cycles matches", metrics=verdict.metrics)
        return verdict

    def judge_testbench(self, bench: Bench, sandbox: Sandbox) -> Verdict:
        tb = self.tb
        for name in (*tb.testbench, *tb.tb_data):
            path = bench.root / "tb" / name if name in tb.testbench else bench.root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(self.case.files[name], encoding="utf-8")
        files = " ".join(shlex.quote(f"tb/{n}") for n in tb.testbench)
        # Includes resolve next to the testbench files (every folder they sit in), never in the candidate's.
        folders = sorted({str(Path("tb", n).parent) for n in tb.testbench})
        includes = " ".join(f"-I {shlex.quote(f)}" for f in folders)
        design = " ".join(shlex.quote(s) for s in bench.candidate)
        top = f" -s {tb.tb_top}" if tb.tb_top else ""
        steps = {"build": f"iverilog -g2012 {includes} -o tb.vvp{top} {files} {design}",
                 "run": "vvp -n tb.vvp"}
        ex, ran = run_steps(bench, sandbox, steps, linear(["build", "run"]), timeout=self.timeout,
                            limits=self.ctx.limits)
        metrics = {"stage": "tb"}
        build = ran.get("build")
        if ex.timed_out:
            return Verdict.fail(Category.TIMEOUT, f"testbench timed out after {ex.duration:.1f}s",
                                log_tail=ex.tail(), metrics=metrics)
        if build is None or not build.ok:
            log = build.tail() if build else ex.tail()
            return Verdict.fail(Category.COMPILE_FAIL, "the testbench does not build with the candidate",
                                log_tail=log, metrics=metrics)
        run = ran.get("run")
        output = (run.log if run else "") if tb.output is None else read_capped(bench.root, tb.output, OUTPUT_CAP)
        problem = self.output_problem(output)
        if problem:
            return Verdict.fail(Category.TEST_FAIL, problem, log_tail=run.tail() if run else "", metrics=metrics)
        judged = " and ".join(x for x in (tb.expected, tb.pass_regex and "pass regex") if x)
        return Verdict.ok(f"the testbench output matches ({judged})", metrics=metrics)

    def output_problem(self, output: str | None) -> str | None:
        tb = self.tb
        if output is None:
            return f"the testbench wrote no {tb.output or 'output'}"
        if tb.expected:
            problem = compare_outputs(self.case.files[tb.expected], output)
            if problem:
                return f"{tb.output or 'output'} differs from {tb.expected}: {problem}"
        if tb.pass_regex and not re.search(tb.pass_regex, output, re.MULTILINE):
            return f"the testbench output does not match {tb.pass_regex!r}: {_last_line(output)}"
        return None


def _last_line(text: str) -> str:
    found = [line for line in text.splitlines() if line.strip()]
    return found[-1][:200] if found else "(no output)"


RTL_TB = OracleKind("rtl-tb", ("rtl",), RtlTbOracle, RtlTbSpec)
