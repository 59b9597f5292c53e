"""Tier S directed corner stimuli: the input patterns seeded random stimuli almost never produce.

A corner run is a simulation like a random one (same contract, same cycles) whose inputs come in
phases of `PHASE` cycles, each phase one pattern: all zeros, all ones, equal operands (inputs of
the same width share one value, narrow select inputs sweep every value meanwhile), extremes (0, 1,
the maximum, one less, the sign bit alone, the largest signed value), equal extremes, back-to-back
(every one-bit input held at 1: valid, start, enable), idle (one-bit inputs held at 0), and plain
random. Sequential designs also get the reset asserted mid-stream: outputs are not compared while
it is held nor for `compare_from` cycles after its release, as after the first reset. Which
pattern comes first depends on the corner run's number, so several runs cover different orders.

Corner runs are numbered -1, -2, ... in the testbench (`+seed=-N`); random seeds are positive.
"""

from __future__ import annotations

from collections.abc import Sequence

from .preflight import Port
from .sim import Contract, indent, random_assign

PHASE = 16
SWEEP_WIDTH = 4  # select inputs this narrow sweep all their values during an equal-operand phase
RESET_EVERY = 6  # every sixth phase starts with the reset asserted again (sequential designs)
MODES = ("random", "zeros", "ones", "equal", "extremes", "equal_extremes", "back_to_back", "idle")


def corner_seeds(count: int) -> list[int]:
    """The testbench seed numbers of `count` corner runs."""
    return [-n for n in range(1, count + 1)]


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


def _groups(inputs: Sequence[Port]) -> dict[int, list[Port]]:
    by_width: dict[int, list[Port]] = {}
    for port in inputs:
        by_width.setdefault(port.width, []).append(port)
    return by_width


def _equal(inputs: Sequence[Port], *, extreme: bool) -> list[str]:
    """Inputs of one width share a value; a lone narrow input sweeps; other lone inputs stay random."""
    lines: list[str] = []
    for width, ports in sorted(_groups(inputs).items()):
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
    lines: list[str] = []
    if mode == "equal":
        return _equal(inputs, extreme=False)
    if mode == "equal_extremes":
        return _equal(inputs, extreme=True)
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
        body = _mode_body(mode, inputs) or [";"]
        lines.append(f"  {index}: begin // {mode}")
        lines += ["    " + line for line in body]
        lines.append("  end")
    lines += ["  default: ;", "endcase"]
    lines += _reset_lines(contract)
    return "\n".join(lines)


def _reset_lines(contract: Contract) -> list[str]:
    if not contract.reset:
        return []
    idle, active = 1 - contract.reset_active, contract.reset_active
    cycles = max(1, contract.reset_cycles)
    return [
        f"in_{contract.reset} = 1'b{idle};",
        f"if (corner_t < 0) in_{contract.reset} = 1'b{active};",
        f"else if (corner_phase % {RESET_EVERY} == {RESET_EVERY - 1} && corner_pos < {cycles}) begin",
        f"  in_{contract.reset} = 1'b{active};",
        f"  hold = {contract.compare_from + 1};",
        "end",
    ]


def mixed_stimulus(random_code: str, corner_code: str) -> str:
    """One drive task for both kinds of run: corner runs have negative seed numbers."""
    return "\n".join(["if (seed < 0) begin", indent(corner_code, 2), "end else begin", indent(random_code, 2), "end"])
