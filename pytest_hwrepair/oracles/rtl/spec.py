"""The spec of the rtl oracle kinds: the module under repair and its simulation contract."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field, field_validator

from ...cases.case import OracleSpec, SpecModel, StrongSpec, path_problem

MAX_CYCLES = 1_000_000_000
_WARNING_CLASS = re.compile(r"^[A-Z][A-Z0-9_]*$")


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
    corners: int = Field(2, ge=0, le=1000)  # directed corner runs besides the seeded random ones
    stimuli: list[str] = Field([], max_length=1000)  # harness-owned directed runs (oracles/rtl/directed.py)
    init: str = "reset"
    # Verilator warning classes made fatal beyond its defaults (style classes such as BLKSEQ), and classes
    # waived: a benchmark's published lint contract, or the warnings an upstream golden design itself raises.
    lint_warn: list[str] = []
    lint_waive: list[str] = []

    @field_validator("stimuli")
    @classmethod
    def _stimuli_stay_inside(cls, stimuli: list[str]) -> list[str]:
        for name in stimuli:
            problem = path_problem(name)
            if problem:
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


class RtlEquivTable(StrongSpec):
    """The `[strong_oracle]` table of kind rtl-equiv.

    `scope = "structural"` keeps Tier F to the induction after structural matching, for designs whose
    signal-by-signal induction and bounded check do not fit any reasonable budget: a candidate it
    cannot prove is undecided at once instead of running the slower checks to the timeout.
    """

    scope: Literal["full", "structural"] = "full"
