"""Tier S: the rtl spec, its simulation contract, the stimuli, and a generated testbench that runs the golden
and the candidate side by side and compares outputs (corner and directed runs: cases/rtl/README.md).

Each run is one testbench seed: random seeds 1, 2, ..., then corner runs -1, -2, ..., then directed
run N as `DIRECTED_BASE + N`. A directed file runs in a named block of its run's drive step after the
random drive, so it overrides only the inputs it assigns; it reads `cycle`, `rng` (`next_random`) and the
golden design's outputs `gold_<port>` as they stand after the previous clock edge, never the candidate's.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Literal

from pydantic import Field, field_validator

from ...cases.case import OracleSpec, SpecModel, path_problem
from ...sandbox.base import Execution, Limits, Sandbox
from .bench import GOLDEN_PREFIX, Bench, Step, linear, run_steps
from .preflight import Port

MAX_CYCLES = 1_000_000_000
_WARNING_CLASS = re.compile(r"^[A-Z][A-Z0-9_]*$")
TB_TOP = "hwrepair_tb"
VERILATOR_BUILD_TIMEOUT = 300.0
SIMULATORS = ("iverilog", "verilator")
X_RULE = "a golden X or Z bit matches anything; a candidate X or Z bit where the golden bit is 0/1 is a mismatch"
_MISMATCH = re.compile(r"HWREPAIR-MISMATCH seed=(-?\d+) cycle=(-?\d+) output=(\S+) expected=([01xzXZ]+) "
                       r"actual=([01xzXZ]+)")
_DONE = re.compile(r"HWREPAIR-DONE seed=(-?\d+)")
DIRECTED_BASE = 1_000_000  # random seeds stay far below
PHASE = 16
SWEEP_WIDTH = 4  # select inputs this narrow sweep all their values during an equal-operand phase
RESET_EVERY = 6  # every sixth phase starts with the reset asserted again (sequential designs)
MODES = ("random", "zeros", "ones", "equal", "extremes", "equal_extremes", "back_to_back", "idle")


class Reset(SpecModel):
    signal: str
    active: Literal[0, 1] = 0
    cycles: int = Field(2, ge=0, le=MAX_CYCLES)


class RtlSpec(OracleSpec):
    """`rtl-lint`, `rtl-sim`, `rtl-equiv`: the top module, its clock and reset, how long and on what to compare."""

    top: str
    modules: list[str] = []
    clock: str | None = None
    reset: Reset | None = None
    compare_from: int = Field(0, ge=0, le=MAX_CYCLES)
    cycles: int = Field(200, gt=0, le=MAX_CYCLES)
    seeds: int = Field(10, gt=0, le=10_000)
    corners: int = Field(2, ge=0, le=1000)
    stimuli: list[str] = Field([], max_length=1000)
    init: str = "reset"
    # Verilator warning classes made fatal beyond its defaults (style classes such as BLKSEQ), and classes
    # waived: a benchmark's published lint contract, or the warnings an upstream golden design itself raises.
    lint_warn: list[str] = []
    lint_waive: list[str] = []

    @field_validator("stimuli")
    @classmethod
    def _stimuli_stay_inside(cls, stimuli: list[str]) -> list[str]:
        for name in stimuli:
            if problem := path_problem(name):
                raise ValueError(f"stimuli: {name!r} {problem}")
        return stimuli

    @field_validator("lint_warn", "lint_waive")
    @classmethod
    def _warning_classes(cls, names: list[str]) -> list[str]:
        for name in names:
            if not _WARNING_CLASS.match(name):
                raise ValueError(f"{name!r} is not a Verilator warning class (e.g. WIDTH, BLKSEQ)")
        return names

    def case_files(self, where: str) -> list[tuple[str, str]]:
        return [(name, f"{where}.stimuli") for name in dict.fromkeys(self.stimuli)]


@dataclass(frozen=True, slots=True)
class Contract:
    """The declared simulation contract of a case (DESIGN §3), printed with every verdict."""

    top: str
    clock: str | None
    reset: str | None
    reset_active: int
    reset_cycles: int
    compare_from: int
    cycles: int
    seeds: int
    corners: int = 0
    stimuli: tuple[str, ...] = ()

    @classmethod
    def from_spec(cls, spec: RtlSpec) -> Contract:
        reset = spec.reset
        return cls(spec.top, spec.clock, reset.signal if reset else None, reset.active if reset else 0,
                   reset.cycles if reset else 0, spec.compare_from, spec.cycles, spec.seeds, spec.corners,
                   tuple(spec.stimuli))

    @property
    def first_compared(self) -> int:
        """The first compared cycle counted from the start of simulation."""
        return self.reset_cycles + self.compare_from

    def describe(self) -> str:
        clock = f"clock {self.clock}" if self.clock else "no clock (combinational)"
        reset = (f"reset {self.reset}={self.reset_active} for {self.reset_cycles} cycles, then released"
                 if self.reset else "no reset")
        corners = f" + {self.corners} directed corner runs" if self.corners else ""
        if self.stimuli:
            corners += (f" + {len(self.stimuli)} directed runs from the case's stimulus files "
                        f"({', '.join(self.stimuli)})")
        return (f"top {self.top}; {clock}; {reset}; outputs compared every cycle from cycle {self.compare_from} "
                f"(cycles count from reset release); {self.cycles} cycles x {self.seeds} seeds"
                f"{corners}; X rule: {X_RULE}")


@dataclass(frozen=True, slots=True)
class Mismatch:
    """The first difference found: where, and the two values (as Verilog literals)."""

    seed: int
    cycle: int
    output: str
    expected: str
    actual: str

    def describe(self, *, replay: bool = False) -> str:
        where = "" if replay else f" of {describe_seed(self.seed)}"
        return (f"output {self.output} differs at cycle {self.cycle}{where}: "
                f"expected {self.expected}, got {self.actual}")

    def metrics(self, *, replay: bool = False) -> dict[str, object]:
        return {name: value for name, value in asdict(self).items() if not (replay and name == "seed")}


@dataclass(frozen=True, slots=True)
class SimResult:
    """What one simulation found: the build and run steps, a mismatch, the seeds that ran to the end."""

    execution: Execution
    build: Step | None
    run: Step | None
    mismatch: Mismatch | None
    completed: tuple[int, ...]

    def tail(self) -> str:
        step = self.run or self.build
        return step.tail() if step else self.execution.tail()


def describe_seed(seed: int) -> str:
    """A testbench seed number as a reader says it: corner runs have negative numbers, directed runs large ones."""
    if seed > DIRECTED_BASE:
        return f"directed run {seed - DIRECTED_BASE}"
    return f"corner run {-seed}" if seed < 0 else f"seed {seed}"


def verilog_literal(bits: str) -> str:
    """`8'h3c` for a defined value, `8'b0011xx00` when any bit is X or Z."""
    bits = bits.lower()
    if set(bits) <= {"0", "1"}:
        return f"{len(bits)}'h{int(bits, 2):x}"
    return f"{len(bits)}'b{bits}"


def random_stimulus(contract: Contract, inputs: Sequence[Port]) -> str:
    """Drive code: reset for the declared cycles, every other input from the seeded generator."""
    lines = []
    if contract.reset:
        lines.append(f"in_{contract.reset} = (cycle < {contract.reset_cycles}) ? 1'b{contract.reset_active} "
                     f": 1'b{1 - contract.reset_active};")
    for port in inputs:
        lines += random_assign(port)
    return "\n".join(lines)


def random_assign(port: Port) -> list[str]:
    lines = []
    for low in range(0, port.width, 32):
        high = min(port.width, low + 32) - 1
        lines += ["next_random;", f"in_{port.name}[{high}:{low}] = rng[{high - low}:0];"]
    return lines


def corner_seeds(count: int) -> list[int]:
    return [-n for n in range(1, count + 1)]


def directed_seeds(count: int) -> list[int]:
    return [DIRECTED_BASE + n for n in range(1, count + 1)]


def extremes(width: int) -> list[str]:
    """The extreme values of a width as Verilog literals, without repeats."""
    top = (1 << width) - 1
    values = [0, 1, top, top - 1, 1 << (width - 1), (1 << (width - 1)) - 1]
    return [f"{width}'h{v:x}" for v in dict.fromkeys(values) if 0 <= v <= top]


def _extreme_assign(target: str, width: int) -> list[str]:
    options = extremes(width)
    lines = ["next_random;", f"case (rng % {len(options)})"]
    lines += [f"  {i}: {target} = {literal};" for i, literal in enumerate(options)]
    lines += ["  default: ;", "endcase"]
    return lines


def _equal(inputs: Sequence[Port], *, extreme: bool) -> list[str]:
    """Inputs of one width share a value; a lone narrow input sweeps; other lone inputs stay random."""
    by_width: dict[int, list[Port]] = {}
    for port in inputs:
        by_width.setdefault(port.width, []).append(port)
    lines: list[str] = []
    for width, ports in sorted(by_width.items()):
        first = ports[0]
        if len(ports) == 1 and 1 < width <= SWEEP_WIDTH:
            lines.append(f"in_{first.name} = corner_pos[{width - 1}:0];")
            continue
        if width == 1 and len(ports) == 1:
            lines += random_assign(first)
            continue
        lines += _extreme_assign(f"in_{first.name}", width) if extreme else random_assign(first)
        lines += [f"in_{p.name} = in_{first.name};" for p in ports[1:]]
    return lines


def _mode_body(mode: str, inputs: Sequence[Port]) -> list[str]:
    if mode in ("equal", "equal_extremes"):
        return _equal(inputs, extreme=mode == "equal_extremes")
    lines: list[str] = []
    for port in inputs:
        target, width = f"in_{port.name}", port.width
        if mode == "zeros" or (mode == "idle" and width == 1):
            lines.append(f"{target} = {{{width}{{1'b0}}}};")
        elif mode == "ones" or (mode == "back_to_back" and width == 1):
            lines.append(f"{target} = {{{width}{{1'b1}}}};")
        elif mode == "extremes":
            lines += _extreme_assign(target, width)
        else:
            lines += random_assign(port)
    return lines


def corner_stimulus(contract: Contract, inputs: Sequence[Port]) -> str:
    """Drive code for a corner run (the testbench's `seed` is negative)."""
    lines = [f"corner_t = cycle - {contract.reset_cycles};",
             f"corner_phase = corner_t < 0 ? 0 : corner_t / {PHASE};",
             f"corner_pos = corner_t < 0 ? 0 : corner_t % {PHASE};",
             f"corner_mode = (corner_phase + (-seed) - 1) % {len(MODES)};",
             "case (corner_mode)"]
    for index, mode in enumerate(MODES):
        lines.append(f"  {index}: begin // {mode}")
        lines += ["    " + line for line in _mode_body(mode, inputs) or [";"]]
        lines.append("  end")
    lines += ["  default: ;", "endcase"]
    if contract.reset:
        idle, active = 1 - contract.reset_active, contract.reset_active
        lines += [
            f"in_{contract.reset} = 1'b{idle};",
            f"if (corner_t < 0) in_{contract.reset} = 1'b{active};",
            f"else if (corner_phase % {RESET_EVERY} == {RESET_EVERY - 1} && corner_pos < "
            f"{max(1, contract.reset_cycles)}) begin",
            f"  in_{contract.reset} = 1'b{active};",
            f"  hold = {contract.compare_from + 1};",
            "end",
        ]
    return "\n".join(lines)


def mixed_stimulus(random_code: str, corner_code: str) -> str:
    """One drive task for both kinds of run: corner runs have negative seed numbers."""
    return "\n".join(["if (seed < 0) begin", indent(corner_code, 2), "end else begin", indent(random_code, 2), "end"])


def directed_stimulus(random_code: str, other_code: str, files: Sequence[str]) -> str:
    """One drive task for every kind of run: directed runs first drive at random, then run their file."""
    if not files:
        return other_code
    lines = [f"if (seed > {DIRECTED_BASE}) begin", indent(random_code, 2), f"  case (seed - {DIRECTED_BASE})"]
    for number, text in enumerate(files, start=1):
        lines += [f"    {number}: begin : directed_{number}", indent(text.rstrip("\n"), 6), "    end"]
    lines += ["    default: ;", "  endcase", "end else begin", indent(other_code, 2), "end"]
    return "\n".join(lines)


def replay_stimulus(vectors: Sequence[dict[str, str]], driven: Sequence[Port]) -> str:
    """Drive code that applies one recorded input vector per cycle (a counterexample trace)."""
    names = {p.name: p for p in driven}
    lines = ["case (cycle)"]
    for index, vector in enumerate(vectors):
        body = [f"in_{n} = {names[n].width}'b{bits};" for n, bits in sorted(vector.items()) if n in names]
        lines.append(f"  {index}: begin {' '.join(body)} end")
    lines += ["  default: ;", "endcase"]
    return "\n".join(lines)


def testbench(contract: Contract, ports: Sequence[Port], stimulus: str, *, total: int, first: int) -> str:
    """A self-contained testbench module comparing `golden_<top>` with `<top>` cycle by cycle."""
    inputs = [p for p in ports if p.direction == "input"]
    outputs = [p for p in ports if p.direction == "output"]
    widest = max([p.width for p in outputs] + [1])
    decls = [f"  reg [{p.width - 1}:0] in_{p.name};" for p in inputs]
    decls += [f"  wire [{p.width - 1}:0] gold_{p.name}, cand_{p.name};" for p in outputs]
    compare = "\n".join(_compare_output(p, contract.reset_cycles) for p in outputs)
    clock = f"in_{contract.clock}" if contract.clock else None
    edge = f"    #1 {clock} = 1'b1;\n    #5 {clock} = 1'b0;" if clock else "    #6;"
    return f"""module {TB_TOP};
  integer seed;
  integer cycle;
  integer hold;
  integer corner_t, corner_phase, corner_pos, corner_mode;
  reg [31:0] rng;
  reg failed;
{chr(10).join(decls)}

  {GOLDEN_PREFIX}{contract.top} golden_dut ({_connections(ports, "gold_")});
  {contract.top} cand_dut ({_connections(ports, "cand_")});

  function automatic differs(input [{widest - 1}:0] g, input [{widest - 1}:0] c);
    integer i;
    begin
      differs = 1'b0;
      for (i = 0; i < {widest}; i = i + 1)
        if ((g[i] === 1'b0 || g[i] === 1'b1) && c[i] !== g[i]) differs = 1'b1;
    end
  endfunction

  task next_random;
    begin
      rng = rng ^ (rng << 13);
      rng = rng ^ (rng >> 17);
      rng = rng ^ (rng << 5);
    end
  endtask

  task drive;
    begin
{indent(stimulus, 6)}
    end
  endtask

  task compare;
    begin
{indent(compare, 6)}
    end
  endtask

  initial begin
    if (!$value$plusargs("seed=%d", seed)) seed = 1;
    rng = 32'h2545f491 ^ (seed * 32'h9e3779b9);
    if (rng == 32'd0) rng = 32'h2545f491;
    failed = 1'b0;
    hold = 0;
{f"    {clock} = 1'b0;" if clock else ""}
    for (cycle = 0; cycle < {total} && !failed; cycle = cycle + 1) begin
      drive;
      #4;
      if (cycle >= {first} && hold == 0) compare;
      if (hold > 0) hold = hold - 1;
  {edge}
    end
    $display("HWREPAIR-DONE seed=%0d", seed);
    $finish;
  end
endmodule
"""


def _connections(ports: Sequence[Port], out_prefix: str) -> str:
    return ", ".join(f".{p.name}({'in_' if p.direction == 'input' else out_prefix}{p.name})" for p in ports)


def _compare_output(port: Port, offset: int) -> str:
    # Identical four-state values never differ: the bit loop (slow in Icarus, which calls both sides of a `&&`)
    # runs only when they do not match.
    return (f'if (gold_{port.name} !== cand_{port.name})\n'
            f'if (differs(gold_{port.name}, cand_{port.name})) begin\n'
            f'  $display("HWREPAIR-MISMATCH seed=%0d cycle=%0d output={port.name} expected=%b actual=%b", '
            f'seed, cycle - {offset}, gold_{port.name}, cand_{port.name});\n'
            f'  failed = 1\'b1;\nend')


def indent(text: str, spaces: int) -> str:
    return "\n".join(" " * spaces + line if line.strip() else "" for line in text.splitlines())


def simulate(bench: Bench, sandbox: Sandbox, tb_text: str, seeds: Sequence[int], *, simulator: str,
             timeout: float, limits: Limits) -> SimResult:
    """Write the testbench, build it with golden and candidate, and run one fresh simulation per seed, stopping
    after the first seed that reports a mismatch: one sandboxed script."""
    (bench.root / "tb.v").write_text(tb_text, encoding="utf-8")
    files = " ".join(shlex.quote(s) for s in [*bench.sources, "tb.v"])
    if simulator == "verilator":
        # Two-state: X and Z become 0, so the X rule cannot fire under Verilator.
        build = (f"verilator --binary -j 0 -Wno-fatal -Wno-lint -Wno-style --x-assign 0 --x-initial 0 "
                 f"--top-module {TB_TOP} -Mdir simobj -o sim {files}")
        binary, timeout = "./simobj/sim", max(timeout, VERILATOR_BUILD_TIMEOUT)
    else:
        build, binary = f"iverilog -g2012 -o sim.vvp -s {TB_TOP} {files}", "vvp -n sim.vvp"
    steps = {"build": build, "run": f'for s in {" ".join(str(s) for s in seeds)}; do out=$({binary} +seed=$s 2>&1); '
             f'rc=$?; printf "%s\\n" "$out"; [ $rc -eq 0 ] || exit $rc; case "$out" in *HWREPAIR-MISMATCH*) exit 0;; '
             'esac; done'}
    ex, ran = run_steps(bench, sandbox, steps, linear(["build", "run"]), timeout=timeout, limits=limits)
    run = ran.get("run")
    log = run.log if run else ""
    mismatch = None
    if found := _MISMATCH.search(log):
        seed, cycle, output, expected, actual = found.groups()
        mismatch = Mismatch(int(seed), int(cycle), output, verilog_literal(expected), verilog_literal(actual))
    return SimResult(ex, ran.get("build"), run, mismatch, tuple(int(s) for s in _DONE.findall(log)))
