"""Tier S: a generated testbench runs the golden and the candidate side by side and compares outputs."""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass

from ...sandbox.base import Execution, Limits, Sandbox
from .bench import GOLDEN_PREFIX, Bench, Step, linear, run_steps
from .preflight import Port
from .spec import RtlSpec

TB_TOP = "hwrepair_tb"
VERILATOR_BUILD_TIMEOUT = 300.0
SIMULATORS = ("iverilog", "verilator")
X_RULE = "a golden X or Z bit matches anything; a candidate X or Z bit where the golden bit is 0/1 is a mismatch"
_MISMATCH = re.compile(r"HWREPAIR-MISMATCH seed=(-?\d+) cycle=(-?\d+) output=(\S+) expected=([01xzXZ]+) "
                       r"actual=([01xzXZ]+)")
_DONE = re.compile(r"HWREPAIR-DONE seed=(-?\d+)")
DIRECTED_BASE = 1_000_000  # directed run N is testbench seed DIRECTED_BASE + N (random seeds stay far below)


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
        if self.reset:
            reset = f"reset {self.reset}={self.reset_active} for {self.reset_cycles} cycles, then released"
        else:
            reset = "no reset"
        corners = f" + {self.corners} directed corner runs" if self.corners else ""
        if self.stimuli:
            files = ", ".join(self.stimuli)
            corners += f" + {len(self.stimuli)} directed runs from the case's stimulus files ({files})"
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
        found: dict[str, object] = {"cycle": self.cycle, "output": self.output, "expected": self.expected,
                                    "actual": self.actual}
        return found if replay else {"seed": self.seed, **found}


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
        idle = 1 - contract.reset_active
        lines.append(f"in_{contract.reset} = (cycle < {contract.reset_cycles}) ? 1'b{contract.reset_active} "
                     f": 1'b{idle};")
    for port in inputs:
        lines += random_assign(port)
    return "\n".join(lines)


def random_assign(port: Port) -> list[str]:
    """Drive code giving one input fresh bits from the seeded generator."""
    lines = []
    for low in range(0, port.width, 32):
        high = min(port.width, low + 32) - 1
        lines.append("next_random;")
        lines.append(f"in_{port.name}[{high}:{low}] = rng[{high - low}:0];")
    return lines


def replay_stimulus(vectors: Sequence[dict[str, str]], driven: Sequence[Port]) -> str:
    """Drive code that applies one recorded input vector per cycle (a counterexample trace)."""
    names = {p.name: p for p in driven}
    lines = ["case (cycle)"]
    for index, vector in enumerate(vectors):
        body = [f"in_{n} = {names[n].width}'b{bits};" for n, bits in sorted(vector.items()) if n in names]
        lines.append(f"  {index}: begin {' '.join(body)} end")
    lines.append("  default: ;")
    lines.append("endcase")
    return "\n".join(lines)


def testbench(contract: Contract, ports: Sequence[Port], stimulus: str, *, total: int, first: int) -> str:
    """A self-contained testbench module comparing `golden_<top>` with `<top>` cycle by cycle."""
    inputs = [p for p in ports if p.direction == "input"]
    outputs = [p for p in ports if p.direction == "output"]
    widest = max([p.width for p in outputs] + [1])
    decls = [f"  reg [{p.width - 1}:0] in_{p.name};" for p in inputs]
    decls += [f"  wire [{p.width - 1}:0] gold_{p.name}, cand_{p.name};" for p in outputs]
    golden = _connections(ports, "gold_")
    candidate = _connections(ports, "cand_")
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

  {GOLDEN_PREFIX}{contract.top} golden_dut ({golden});
  {contract.top} cand_dut ({candidate});

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
    return "\n".join(" " * spaces + line if line else line for line in text.splitlines())


def build_command(simulator: str, sources: Sequence[str]) -> str:
    """The shell command that compiles golden + candidate + testbench into a runnable simulation."""
    files = " ".join(shlex.quote(s) for s in sources)
    if simulator == "iverilog":
        return f"iverilog -g2012 -o sim.vvp -s {TB_TOP} {files}"
    if simulator == "verilator":
        # Two-state: X and Z become 0, so the X rule cannot fire under Verilator.
        return (f"verilator --binary -j 0 -Wno-fatal -Wno-lint -Wno-style --x-assign 0 --x-initial 0 "
                f"--top-module {TB_TOP} -Mdir simobj -o sim {files}")
    raise ValueError(f"simulator: {simulator!r} is not one of {', '.join(SIMULATORS)}")


def run_command(simulator: str, seeds: Sequence[int]) -> str:
    """One fresh simulation per seed, stopping after the first seed that reports a mismatch."""
    binary = "vvp -n sim.vvp" if simulator == "iverilog" else "./simobj/sim"
    seed_list = " ".join(str(s) for s in seeds)
    return (f'for s in {seed_list}; do out=$({binary} +seed=$s 2>&1); rc=$?; printf "%s\\n" "$out"; '
            f'[ $rc -eq 0 ] || exit $rc; case "$out" in *HWREPAIR-MISMATCH*) exit 0;; esac; done')


def parse_run(log: str) -> tuple[Mismatch | None, tuple[int, ...]]:
    """The first mismatch line and the seeds that completed, from the simulation's output."""
    found = _MISMATCH.search(log)
    mismatch = None
    if found:
        seed, cycle, output, expected, actual = found.groups()
        mismatch = Mismatch(int(seed), int(cycle), output, verilog_literal(expected), verilog_literal(actual))
    return mismatch, tuple(int(s) for s in _DONE.findall(log))


def simulate(bench: Bench, sandbox: Sandbox, tb_text: str, seeds: Sequence[int], *, simulator: str,
             timeout: float, limits: Limits) -> SimResult:
    """Write the testbench, then build and run it in one sandboxed script."""
    (bench.root / "tb.v").write_text(tb_text, encoding="utf-8")
    steps = {"build": build_command(simulator, [*bench.sources, "tb.v"]), "run": run_command(simulator, seeds)}
    if simulator == "verilator":
        timeout = max(timeout, VERILATOR_BUILD_TIMEOUT)
    ex, ran = run_steps(bench, sandbox, steps, linear(["build", "run"]), timeout=timeout, limits=limits)
    build, run = ran.get("build"), ran.get("run")
    mismatch, done = parse_run(run.log) if run else (None, ())
    return SimResult(ex, build, run, mismatch, done)
