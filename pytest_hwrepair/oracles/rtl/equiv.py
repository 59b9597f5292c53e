"""Tier F: yosys equivalence of golden and candidate under the declared reset contract."""

from __future__ import annotations

import enum
import re
import shlex
from dataclasses import dataclass, field
from typing import Literal

from ...cases.case import StrongSpec
from ...sandbox.base import Limits, Sandbox
from .bench import GOLDEN_PREFIX, Bench, Step, run_steps
from .preflight import strip_comments
from .sim import Contract

PREPARED = "prepared.il"
SHORT_DEPTH = 8
_SEQ_ROW = re.compile(r"^\s*(\d+)\s+\\(\S+)\s+\S+\s+\S+\s+([01xz]+)\s*$")
_COMB_ROW = re.compile(r"^\s*\\(\S+)\s+\S+\s+\S+\s+([01xz]+)\s*$")
_SENSITIVITY = re.compile(r"\balways\s*@\s*\(([^)]*)\)")


class RtlEquivTable(StrongSpec):
    """The `[strong_oracle]` table of kind rtl-equiv.

    `scope = "structural"` keeps Tier F to the induction after structural matching, for designs whose
    signal-by-signal induction and bounded check do not fit any reasonable budget: a candidate it
    cannot prove is undecided at once instead of running the slower checks to the timeout.
    """

    scope: Literal["full", "structural"] = "full"


class EquivStatus(enum.StrEnum):
    """What Tier F established (contract: read by the scoreboard's Tier S x Tier F table)."""

    PROVED = "PROVED"
    COUNTEREXAMPLE = "COUNTEREXAMPLE"
    BOUNDED_PASS = "BOUNDED_PASS"
    UNSUPPORTED = "UNSUPPORTED"
    TIMEOUT = "TIMEOUT"


@dataclass(frozen=True, slots=True)
class EquivResult:
    """A status, how it was reached, and for a counterexample the input trace to replay."""

    status: EquivStatus
    method: str
    detail: str
    log: str = ""
    depth: int = 0
    trace: tuple[dict[str, str], ...] = field(default_factory=tuple)


@dataclass(frozen=True, slots=True)
class EquivJob:
    """One equivalence check: the bench, the contract, the bounded depth and a time budget."""

    bench: Bench
    contract: Contract
    depth: int
    timeout: float
    limits: Limits
    structural_only: bool = False

    @property
    def sources(self) -> tuple[str, ...]:
        return self.bench.sources

    @property
    def golden_top(self) -> str:
        return GOLDEN_PREFIX + self.contract.top


def unsupported_constructs(name: str, text: str) -> str | None:
    """Why synthesis-based equivalence cannot judge this source, or None.

    An explicit combinational sensitivity list has simulation semantics (a missing signal keeps a stale
    value) that synthesis ignores: proving such a design equivalent would contradict simulation.
    """
    code = strip_comments(text)
    for match in _SENSITIVITY.finditer(code):
        events = match.group(1).strip()
        if events != "*" and not re.search(r"\b(posedge|negedge)\b", events):
            line = code.count("\n", 0, match.start()) + 1
            return f"{name}:{line}: explicit combinational sensitivity list @({events})"
    return None


def prepare_script(job: EquivJob) -> str:
    files = " ".join(shlex.quote(s) for s in job.sources)
    return "\n".join([
        f"read_verilog -sv {files}",
        "hierarchy -check",
        "proc", "flatten", "memory", "opt_clean",
        "select -assert-none t:$*latch* t:$sr",
        "async2sync",
        f"write_rtlil {PREPARED}",
    ])


def stateless_script(job: EquivJob) -> str:
    return f"read_rtlil {PREPARED}\nselect -assert-none t:$*ff*"


def comb_script(job: EquivJob) -> str:
    return "\n".join([
        f"read_rtlil {PREPARED}", *_miter(job),
        "sat -enable_undef -set-def-inputs -prove trigger 0 -show-inputs -show-outputs miter",
    ])


def struct_script(job: EquivJob) -> str:
    """Induction after structural matching: a candidate that keeps the golden design's structure outside a few
    edits is proved (or not) in seconds, where proving every matched signal alone first takes minutes on a design
    of a few thousand state bits."""
    return induct_script(job, matching="equiv_struct -icells")


def induct_script(job: EquivJob, matching: str = "equiv_simple -undef -seq 2") -> str:
    return "\n".join([
        f"read_rtlil {PREPARED}",
        f"equiv_make {job.golden_top} {job.contract.top} equiv",
        "hierarchy -top equiv",
        matching,
        "equiv_induct -undef -seq 2",
        "equiv_status -assert",
    ])


def bmc_script(job: EquivJob, depth: int | None = None) -> str:
    """Bounded check from reset: reset held for the declared cycles, then released for good."""
    c = job.contract
    steps = c.reset_cycles + (job.depth if depth is None else depth)
    sets = []
    if c.reset:
        for step in range(1, steps + 1):
            value = c.reset_active if step <= c.reset_cycles else 1 - c.reset_active
            sets.append(f"-set-at {step} in_{c.reset} {value}")
    return "\n".join([
        f"read_rtlil {PREPARED}", *_miter(job),
        f"sat -seq {steps} -prove-skip {c.first_compared} {' '.join(sets)} -set-init-undef -enable_undef "
        f"-set-def-inputs -prove trigger 0 -show-inputs -show-outputs miter",
    ])


def _miter(job: EquivJob) -> list[str]:
    return [f"miter -equiv -flatten -make_outputs -ignore_gold_x {job.golden_top} {job.contract.top} miter",
            "hierarchy -top miter"]


def short_bmc_script(job: EquivJob) -> str:
    return bmc_script(job, min(job.depth, SHORT_DEPTH))


SCRIPTS = {"prepare": prepare_script, "stateless": stateless_script, "comb": comb_script,
           "struct": struct_script, "induct": induct_script, "bmc_short": short_bmc_script, "bmc": bmc_script}
# Combinational designs get an exhaustive SAT proof; sequential ones induction (after structural matching,
# then over every matched signal), else a bounded check (a short one first: most counterexamples are
# shallow and the solver's cost grows with depth).
FLOW = """step prepare || exit 0
if step stateless; then step comb; exit 0; fi
step struct && exit 0
step induct && exit 0
step bmc_short || exit 0
grep -q "SAT proof finished - model found" .steps/bmc_short.log && exit 0
step bmc
"""
# scope = "structural": the induction after structural matching is the whole check.
STRUCTURAL_FLOW = """step prepare || exit 0
if step stateless; then step comb; exit 0; fi
step struct
"""


def check_equivalence(job: EquivJob, sandbox: Sandbox) -> EquivResult:
    """Prove, refute (bounded) or give up, within the job's time budget."""
    steps = {}
    for name, script in SCRIPTS.items():
        (job.bench.root / f"{name}.ys").write_text(script(job) + "\n", encoding="utf-8")
        steps[name] = f"yosys {'-q ' if name in ('stateless', 'struct', 'induct') else ''}-s {name}.ys"
    flow = STRUCTURAL_FLOW if job.structural_only else FLOW
    ex, ran = run_steps(job.bench, sandbox, steps, flow, timeout=job.timeout, limits=job.limits)
    if ex.timed_out:
        last = list(ran)[-1] if ran else "prepare"
        return EquivResult(EquivStatus.TIMEOUT, last, f"yosys {last} ran past the {job.timeout:.0f}s budget",
                           ex.tail())
    return interpret(job, ran)


def interpret(job: EquivJob, ran: dict[str, Step]) -> EquivResult:
    prepare = ran.get("prepare")
    if prepare is None or not prepare.ok:
        reason = _first_error(prepare.log if prepare else "")
        if "Assertion failed" in reason:
            reason = "latches or set/reset flip-flops are outside what the equivalence check models"
        return EquivResult(EquivStatus.UNSUPPORTED, "prepare", reason, prepare.tail() if prepare else "")
    if "comb" in ran:
        return _solved(ran["comb"], "sat", sequential=False, depth=1, proved=EquivResult(
            EquivStatus.PROVED, "sat", "exhaustive SAT proof over all inputs (combinational miter)"))
    struct = ran.get("struct")
    if struct is not None and struct.ok:
        return EquivResult(EquivStatus.PROVED, "equiv_induct",
                           "induction over matched state after structural matching (equiv_make/equiv_struct/"
                           "equiv_induct), from equal power-up state")
    if job.structural_only and struct is not None:
        return EquivResult(EquivStatus.UNSUPPORTED, "equiv_induct",
                           "not proved by induction after structural matching, and the case's Tier F stops there "
                           '(scope = "structural": no signal-by-signal induction or bounded check)', struct.tail())
    induct = ran.get("induct")
    if induct is not None and induct.ok:
        return EquivResult(EquivStatus.PROVED, "equiv_induct",
                           "induction over matched state (equiv_make/equiv_simple/equiv_induct), "
                           "from equal power-up state")
    bmc = ran.get("bmc") or ran.get("bmc_short")
    if bmc is None:
        return EquivResult(EquivStatus.UNSUPPORTED, "induct", "yosys stopped before the bounded check")
    depth = job.depth if "bmc" in ran else min(job.depth, SHORT_DEPTH)
    return _solved(bmc, "bmc", sequential=True, depth=depth, proved=EquivResult(
        EquivStatus.BOUNDED_PASS, "bmc", f"no counterexample within {depth} cycles after reset; "
        "induction did not close", depth=depth))


def _solved(step: Step, method: str, *, sequential: bool, depth: int, proved: EquivResult) -> EquivResult:
    if "SAT proof finished - no model found: SUCCESS" in step.log:
        return proved
    if "SAT proof finished - model found: FAIL" in step.log:
        trace = parse_trace(step.log, sequential=sequential)
        what = f"bounded model check from reset, depth {depth}" if sequential else "SAT model of the miter"
        return EquivResult(EquivStatus.COUNTEREXAMPLE, method, what, step.tail(), depth, trace)
    return EquivResult(EquivStatus.UNSUPPORTED, method, _first_error(step.log), step.tail())


def _first_error(log: str) -> str:
    for line in log.splitlines():
        if line.startswith("ERROR"):
            return line.strip()
    return "yosys failed without an error message"


def parse_trace(text: str, *, sequential: bool) -> tuple[dict[str, str], ...]:
    """Input vectors per time step from `sat -show-inputs` tables (miter inputs are `in_<port>`)."""
    steps: dict[int, dict[str, str]] = {}
    for line in text.splitlines():
        if sequential:
            row = _SEQ_ROW.match(line)
            if row is None:
                continue
            step, name, bits = int(row.group(1)), row.group(2), row.group(3)
        else:
            comb = _COMB_ROW.match(line)
            if comb is None:
                continue
            step, name, bits = 1, comb.group(1), comb.group(2)
        if name.startswith("in_"):
            steps.setdefault(step, {})[name[3:]] = bits
    return tuple(steps[s] for s in sorted(steps))
