"""Tier S directed runs: harness-owned stimulus files a case declares (`oracle.stimuli`).

Random and corner stimuli cannot reach behaviour that needs a protocol: a processor needs legal
instruction streams with dependent registers, a cache needs reuse of the same lines. A case may
name Verilog files in its own directory, each the body of one more run's drive step. The file's
text goes into a named block (so it may open with its own `reg` and `integer` declarations, which
keep their values from cycle to cycle) after the ordinary random drive of that run, so it overrides
only the inputs it assigns. It may read `cycle` (counted from power-up; the reset is held for the
declared cycles first), call `next_random` and read `rng` (seeded per run), and read the golden
design's outputs `gold_<port>` as they stand after the previous clock edge, so it can answer
requests as a memory or a peer would. The candidate's outputs are never visible to it.

The files are case files, read with the case and never copied into a workspace. Directed run N is
testbench seed `DIRECTED_BASE + N`, after the random seeds and the corner runs; a file listed twice
gives two runs with different random draws.
"""

from __future__ import annotations

from collections.abc import Sequence

from .sim import DIRECTED_BASE


def directed_seeds(count: int) -> list[int]:
    """The testbench seed numbers of `count` directed runs."""
    return [DIRECTED_BASE + n for n in range(1, count + 1)]


def directed_stimulus(random_code: str, other_code: str, files: Sequence[str]) -> str:
    """One drive task for every kind of run: directed runs first drive at random, then run their file."""
    if not files:
        return other_code
    lines = [f"if (seed > {DIRECTED_BASE}) begin", _indent(random_code), f"  case (seed - {DIRECTED_BASE})"]
    for number, text in enumerate(files, start=1):
        lines += [f"    {number}: begin : directed_{number}", _indent(text.rstrip("\n"), 6), "    end"]
    lines += ["    default: ;", "  endcase", "end else begin", _indent(other_code), "end"]
    return "\n".join(lines)


def _indent(text: str, spaces: int = 2) -> str:
    return "\n".join(" " * spaces + line if line.strip() else "" for line in text.splitlines())
