"""RTL oracles, each behind the same preflight and lint: `rtl-lint`, `rtl-sim` (Tier S), `rtl-equiv` (Tier F)
and `rtl-tb` (a harness-owned testbench or I/O trace table judges the candidate; see docs/importers.md).

Every check works in a scratch bench outside the workspace: `golden.v` holds the case's own sources
with each declared module renamed `golden_<name>`, `cand/` holds a copy of the candidate's sources.
A candidate the preflight or lint rejects fails with `lint_fail` (it never ran); a simulation
mismatch is `test_fail`; a replayed Tier F counterexample is `equiv_fail`.

An `rtl-tb` testbench (`testbench = [...]`) runs under Icarus with the candidate's design; what it writes (the
file `output`, else its standard output) must match the `expected` table and/or `pass_regex`. The candidate
cannot print or write files: the preflight forbids system tasks. A trace table (`table = "tb.csv"`) is replayed
into golden and candidate; a recorded output counts where the golden design's is defined under Icarus, and a
golden that disagrees with the recording fails as any candidate would, so a trace that does not reproduce here
cannot admit its bug.
"""

from __future__ import annotations

import enum
import re
import shlex
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

from pydantic import field_validator, model_validator

from ...cases.case import Case, StrongSpec, compile_regex, path_problem
from ...sandbox.base import Limits, Sandbox
from ...sandbox.untrusted import UntrustedFileError, read_untrusted
from ...verdict import Category, Verdict
from ..base import OracleContext, OracleKind, cached_text, content_hash, scratch_workspace, typed_spec, write_files
from .bench import GOLDEN_PREFIX, Bench, CandidateMissing, Step, linear, read_capped, run_steps, stage_bench
from .preflight import (
    Interface,
    Port,
    PreflightRejection,
    check_module_set,
    check_source_rules,
    compare_interfaces,
    module_names,
    parse_interface,
    strip_comments,
)
from .sim import (
    DIRECTED_BASE,
    SIMULATORS,
    TB_TOP,
    Contract,
    Mismatch,
    RtlSpec,
    SimResult,
    corner_seeds,
    corner_stimulus,
    directed_seeds,
    directed_stimulus,
    mixed_stimulus,
    random_stimulus,
    replay_stimulus,
    simulate,
    testbench,
    verilog_literal,
)

DEFAULT_EQUIV_DEPTH = 32
LINT_STEPS = ("verilator", "iverilog", "yosys")
PORTS_CAP = 16 << 20
PREPARED = "prepared.il"
SHORT_DEPTH = 8
_SEQ_ROW = re.compile(r"^\s*(?P<step>\d+)\s+\\(?P<name>\S+)\s+\S+\s+\S+\s+(?P<bits>[01xz]+)\s*$")
_COMB_ROW = re.compile(r"^\s*\\(?P<name>\S+)\s+\S+\s+\S+\s+(?P<bits>[01xz]+)\s*$")
_SENSITIVITY = re.compile(r"\balways\s*@\s*\(([^)]*)\)")
# The Verilator binary itself where installed (the wrapper script costs a second per call), resolved inside the
# sandbox, whose toolchain may differ from this machine's.
VERILATOR = '"$(command -v verilator_bin || command -v verilator)"'
OUTPUT_CAP = 16 << 20
TABLE_CELL = re.compile(r"^(?:[0-9]+|[xX])$")
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_$]*$")
INITS = ("reset", "x", "zero")
# What the bench holds besides the files a testbench reads: the golden copy, the candidate, the steps.
BENCH_NAMES = frozenset({"golden.v", "cand", "tb", "tb.vvp", ".steps", "ports.ys", "ports.il", "lintobj",
                         "lint.vvp", "sim.vvp", "simobj"})


def _read_ports(root: Path) -> str | None:
    """yosys's interface dump, written by a sandboxed step: read without following links, capped (None when it
    is over the cap: a dump cut short could hide a port)."""
    try:
        got = read_untrusted(root, "ports.il", PORTS_CAP)
    except (OSError, UntrustedFileError):
        return ""
    return None if got.truncated else got.text


def golden_ports(case: Case, golden: str, sandbox: Sandbox, ctx: OracleContext, timeout: float) -> str:
    """The golden design's interface dump, from a yosys run that reads the golden design alone (cached per
    design): nothing a candidate writes can cut it short or change it."""
    def produce() -> str:
        with scratch_workspace("hwrepair-rtl-ports-") as root:
            (root / "golden.v").write_text(golden, encoding="utf-8")
            (root / "ports.ys").write_text("read_verilog -sv golden.v\nwrite_rtlil ports.il\n", encoding="utf-8")
            ex = sandbox.run(root, "yosys -q -s ports.ys", timeout=timeout, limits=ctx.limits)
            text = _read_ports(root)
        if not ex.ok or not text:
            raise GoldenPortsError(f"{case.path}: yosys cannot read the golden design: {ex.tail(5)}")
        return text
    return cached_text(ctx.cache_dir / "rtl-ports", content_hash("rtl-golden-ports", golden), produce)


class GoldenPortsError(Exception):
    """The golden design's own interface could not be read: a fault of the case, never of a candidate."""


def equiv_status(verdict: Verdict) -> str | None:
    """PROVED, COUNTEREXAMPLE, BOUNDED_PASS, UNSUPPORTED or TIMEOUT; None when Tier F did not run."""
    status = verdict.metrics.get("equiv")
    return str(status) if status is not None else None


def strong_result(verdict: Verdict) -> bool | None:
    """A Tier F verdict as the `strong` record field: None when the check could not decide."""
    undecided = (EquivStatus.UNSUPPORTED.value, EquivStatus.TIMEOUT.value)
    return None if equiv_status(verdict) in undecided else verdict.passed


class RtlOracle:
    """`rtl-lint`, whose preflight and lint are the whole check (it decides syntactic repairs), and the base of the
    other rtl oracles: stage a bench, run the preflight and lint, then let the subclass judge."""

    stage = "lint"

    def __init__(self, case: Case, ctx: OracleContext) -> None:
        self.case, self.ctx, self.spec = case, ctx, typed_spec(case.oracle, RtlSpec)
        self.contract = Contract.from_spec(self.spec)
        self.modules = list(self.spec.modules) or [self.spec.top]
        self.timeout = self.spec.timeout

    def check(self, workspace: Path, sandbox: Sandbox) -> Verdict:
        durations: dict[str, float] = {}
        with scratch_workspace("hwrepair-rtl-") as root:
            verdict = self._check(workspace, root, sandbox, durations)
        metrics = {"contract": self.describe(), **verdict.metrics}
        return verdict.with_metrics(**metrics).with_durations(durations)

    def describe(self) -> str:
        return self.contract.describe()

    def _check(self, workspace: Path, root: Path, sandbox: Sandbox, durations: dict[str, float]) -> Verdict:
        try:
            bench = stage_bench(self.case, self.modules, workspace, root)
        except CandidateMissing as exc:
            return _reject("files", str(exc))
        start = time.monotonic()
        checked = self.preflight(bench, sandbox)
        durations["lint"] = time.monotonic() - start
        if isinstance(checked, Verdict):
            return checked
        start = time.monotonic()
        verdict = self.judge(bench, checked[self.spec.top], sandbox)
        durations[self.stage] = time.monotonic() - start
        return verdict

    def preflight(self, bench: Bench, sandbox: Sandbox) -> Verdict | Interface:
        """The golden interface when the candidate passes every static check, else the rejection."""
        try:
            for name, text in bench.texts.items():
                check_source_rules(name, text)
            check_module_set([m for t in bench.texts.values() for m in module_names(t)], self.modules)
        except PreflightRejection as exc:
            return _reject(exc.rule, str(exc))
        # The candidate's interface alone: the golden one comes from a golden-only run (golden_ports).
        (bench.root / "ports.ys").write_text(f"read_verilog -sv {' '.join(bench.candidate)}\nwrite_rtlil ports.il\n",
                                             encoding="utf-8")
        ex, ran = run_steps(bench, sandbox, self.lint_steps(bench), linear(LINT_STEPS), timeout=self.timeout,
                            limits=self.ctx.limits)
        for tool in LINT_STEPS:
            step = ran.get(tool)
            if step is None or step.returncode is None:
                if ex.timed_out:
                    return Verdict.fail(Category.TIMEOUT, f"{tool} timed out after {ex.duration:.1f}s",
                                        log_tail=ex.tail(), metrics={"stage": "lint", "tool": tool})
                return Verdict.error(f"lint step {tool} did not run: {ex.tail(5)}")
            if not step.ok:
                what = "cannot read the design" if tool == "yosys" else "rejects the candidate"
                return Verdict.fail(Category.LINT_FAIL, f"{tool} {what}: {_first_problem(step.log)}",
                                    log_tail=step.tail(), metrics={"stage": "lint", "tool": tool})
        return self.interface(bench, sandbox)

    def lint_steps(self, bench: Bench) -> dict[str, str]:
        files = " ".join(shlex.quote(f) for f in bench.candidate)
        top = shlex.quote(self.spec.top)
        warnings = "".join(f" -Wwarn-{w}" for w in self.spec.lint_warn)
        warnings += "".join(f" -Wno-{w}" for w in self.spec.lint_waive)
        # `--cc` runs the checks of `--lint-only`, which insists on writing /dev/null (not writable in
        # every sandbox); the generated C++ stays in the bench. Delays (`q <= #1 d`) are ignored, not errors.
        return {
            "verilator": f"{VERILATOR} --cc --no-timing{warnings} -Mdir lintobj --top-module {top} {files}",
            "iverilog": f"iverilog -g2012 -o lint.vvp -s {top} {files}",
            "yosys": "yosys -q -s ports.ys",
        }

    def interface(self, bench: Bench, sandbox: Sandbox) -> Verdict | Interface:
        try:
            text = golden_ports(self.case, (bench.root / bench.golden).read_text(encoding="utf-8"), sandbox,
                                self.ctx, self.timeout)
        except GoldenPortsError as exc:
            return Verdict.error(str(exc))
        if (dumped := _read_ports(bench.root)) is None:
            return _reject("interface", f"the candidate's interface dump is over {PORTS_CAP} bytes; the design "
                           "declares far more than the modules under repair need")
        golden = {m.removeprefix(GOLDEN_PREFIX): p for m, p in parse_interface(text).items()
                  if m.startswith(GOLDEN_PREFIX)}
        if missing := [m for m in self.modules if m not in golden]:
            return Verdict.error(f"{self.case.path}: golden sources do not define module {missing[0]}")
        if (problem := self.contract_problem(golden[self.contract.top])) is not None:
            return Verdict.error(f"{self.case.path}: {problem}")
        try:
            compare_interfaces(golden, parse_interface(dumped), self.modules)
        except PreflightRejection as exc:
            return _reject(exc.rule, str(exc))
        return golden

    def contract_problem(self, ports: tuple[Port, ...]) -> str | None:
        """Why the golden top cannot be judged by this oracle under its contract (a case error), or None."""
        contract = self.contract
        inputs = {p.name for p in ports if p.direction == "input"}
        for field, name in (("clock", contract.clock), ("reset.signal", contract.reset)):
            if name is not None and name not in inputs:
                return f"oracle.{field}: {name!r} is not an input of module {contract.top}"
        if bidirectional := [p.name for p in ports if p.direction not in ("input", "output")]:
            return f"oracle.top: port {bidirectional[0]!r} of {contract.top} is inout; rtl oracles drive inputs only"
        return None

    def judge(self, bench: Bench, ports: tuple[Port, ...], sandbox: Sandbox) -> Verdict:
        return Verdict.ok("lint clean (verilator, iverilog); modules and ports match the interface",
                          metrics={"stage": "lint"})


class RtlSimOracle(RtlOracle):
    """`rtl-sim` (Tier S): differential simulation against the golden design under the case's contract."""

    stage = "sim"

    def __init__(self, case: Case, ctx: OracleContext) -> None:
        super().__init__(case, ctx)
        self.simulator = ctx.options.simulator
        if self.simulator not in SIMULATORS:
            raise ValueError(f"simulator: {self.simulator!r} is not one of {', '.join(SIMULATORS)}")

    def judge(self, bench: Bench, ports: tuple[Port, ...], sandbox: Sandbox) -> Verdict:
        c = self.contract
        driven = [p for p in ports if p.direction == "input" and p.name not in (c.clock, c.reset)]
        random_code = random_stimulus(c, driven)
        stimulus = directed_stimulus(random_code, mixed_stimulus(random_code, corner_stimulus(c, driven)),
                                     [self.case.files[name] for name in c.stimuli])
        tb = testbench(c, ports, stimulus, total=c.reset_cycles + c.cycles, first=c.first_compared)
        # Corner and directed runs come after the random seeds: they never change which mismatch is found first.
        seeds = [*range(1, c.seeds + 1), *corner_seeds(c.corners), *directed_seeds(len(c.stimuli))]
        result = simulate(bench, sandbox, tb, seeds, simulator=self.simulator, timeout=self.timeout,
                          limits=self.ctx.limits)
        return sim_verdict(result, seeds, {"stage": "sim", "simulator": self.simulator})


def sim_verdict(result: SimResult, seeds: list[int], metrics: dict[str, Any]) -> Verdict:
    if result.mismatch is not None:
        m = result.mismatch
        return Verdict.fail(Category.TEST_FAIL, m.describe(), log_tail=result.tail(),
                            metrics={**metrics, **m.metrics(), "mismatch": m.describe()})
    if result.execution.timed_out:
        stage = "simulation build" if result.run is None else "simulation"
        return Verdict.fail(Category.TIMEOUT, f"{stage} timed out after {result.execution.duration:.1f}s",
                            log_tail=result.tail(), metrics=metrics)
    if result.build is None or not result.build.ok:
        problem = _first_problem(result.build.log) if result.build else result.execution.tail(3)
        return Verdict.fail(Category.COMPILE_FAIL, f"simulation build failed: {problem}", log_tail=result.tail(),
                            metrics=metrics)
    if result.run is None or not result.run.ok or set(result.completed) != set(seeds):
        code = result.run.returncode if result.run else None
        return Verdict.fail(Category.RUNTIME_CRASH, f"simulation stopped early (exit {code})",
                            log_tail=result.tail(), metrics=metrics)
    corners = sum(1 for s in seeds if s < 0)
    directed = sum(1 for s in seeds if s > DIRECTED_BASE)
    runs = f"{len(seeds) - corners - directed} seeds" + (f" and {corners} corner runs" if corners else "")
    runs += f" and {directed} directed runs" if directed else ""
    return Verdict.ok(f"outputs match the golden design on {runs}", metrics=metrics)


class RtlEquivOracle(RtlOracle):
    """`rtl-equiv` (Tier F): yosys equivalence; counterexamples count only once replayed in simulation."""

    stage = "equiv"

    def __init__(self, case: Case, ctx: OracleContext) -> None:
        super().__init__(case, ctx)
        strong = case.model.strong_oracle
        # As the strong oracle, the proof gets the strong oracle's budget; lint keeps the step timeout.
        self.equiv_timeout = self.timeout
        self.structural_only = False
        if strong is not None and strong.kind == "rtl-equiv" and case.oracle.kind != "rtl-equiv":
            self.equiv_timeout = strong.timeout
            self.structural_only = isinstance(strong, RtlEquivTable) and strong.scope == "structural"
        self.depth = ctx.options.equiv_depth or DEFAULT_EQUIV_DEPTH

    def judge(self, bench: Bench, ports: tuple[Port, ...], sandbox: Sandbox) -> Verdict:
        for name, text in bench.texts.items():
            if (reason := unsupported_constructs(name, text)) is not None:
                return equiv_verdict(EquivResult(EquivStatus.UNSUPPORTED, "preflight", reason))
        job = EquivJob(bench, self.contract, self.depth, self.equiv_timeout, self.ctx.limits, self.structural_only)
        result = check_equivalence(job, sandbox)
        if result.status is EquivStatus.COUNTEREXAMPLE:
            return self.replay(bench, ports, result, sandbox)
        return equiv_verdict(result)

    def replay(self, bench: Bench, ports: tuple[Port, ...], result: EquivResult, sandbox: Sandbox) -> Verdict:
        """Run the counterexample's input trace through the Tier S testbench; only a reproduced mismatch counts."""
        c = self.contract
        result = replace(result, trace=tuple({n: b for n, b in step.items() if n != c.clock} for step in result.trace))
        driven = [p for p in ports if p.direction == "input" and p.name != c.clock]
        tb = testbench(c, ports, replay_stimulus(result.trace, driven), total=len(result.trace),
                       first=c.first_compared)
        sim = simulate(bench, sandbox, tb, [1], simulator="iverilog", timeout=self.spec.timeout,
                       limits=self.ctx.limits)
        if sim.mismatch is None:
            why = "the counterexample did not reproduce in simulation"
            return equiv_verdict(EquivResult(EquivStatus.UNSUPPORTED, result.method, why, sim.tail()))
        return equiv_verdict(result, sim.mismatch)


def equiv_verdict(result: EquivResult, mismatch: Mismatch | None = None) -> Verdict:
    metrics: dict[str, Any] = {"stage": "equiv", "equiv": result.status.value, "equiv_method": result.method}
    status = result.status
    if status is EquivStatus.PROVED:
        return Verdict.ok(f"PROVED: {result.detail}", metrics=metrics)
    if status is EquivStatus.BOUNDED_PASS:
        return Verdict.ok(f"BOUNDED_PASS (not proved): {result.detail}",
                          metrics={**metrics, "equiv_depth": result.depth})
    if status is EquivStatus.COUNTEREXAMPLE and mismatch is not None:
        where = mismatch.describe(replay=True)
        trace = [{name: verilog_literal(bits) for name, bits in sorted(step.items())} for step in result.trace]
        return Verdict.fail(Category.EQUIV_FAIL, f"COUNTEREXAMPLE (replayed in simulation): {where}",
                            log_tail=result.log, metrics={**metrics, **mismatch.metrics(replay=True),
                                                          "mismatch": where, "counterexample": trace})
    if status is EquivStatus.TIMEOUT:
        return Verdict.fail(Category.TIMEOUT, f"TIMEOUT: {result.detail}", log_tail=result.log, metrics=metrics)
    return Verdict.fail(Category.TEST_FAIL, f"UNSUPPORTED: {result.detail}", log_tail=result.log, metrics=metrics)


class RtlEquivTable(StrongSpec):
    """The `[strong_oracle]` table of kind rtl-equiv. `scope = "structural"` keeps Tier F to the induction after
    structural matching (for designs too large for the slower checks): what it cannot prove is undecided at once."""

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
    trace: tuple[dict[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class EquivJob:
    """One equivalence check: the bench, the contract, the bounded depth and a time budget."""

    bench: Bench
    contract: Contract
    depth: int
    timeout: float
    limits: Limits
    structural_only: bool = False


def unsupported_constructs(name: str, text: str) -> str | None:
    """Why synthesis-based equivalence cannot judge this source, or None: an explicit combinational sensitivity
    list has simulation semantics (a missing signal keeps a stale value) that synthesis ignores."""
    code = strip_comments(text)
    for match in _SENSITIVITY.finditer(code):
        events = match.group(1).strip()
        if events != "*" and not re.search(r"\b(posedge|negedge)\b", events):
            line = code.count("\n", 0, match.start()) + 1
            return f"{name}:{line}: explicit combinational sensitivity list @({events})"
    return None


def equiv_scripts(job: EquivJob) -> dict[str, str]:
    """The yosys script of every step the flows below may run, by step name."""
    c, gold = job.contract, GOLDEN_PREFIX + job.contract.top
    read = f"read_rtlil {PREPARED}"
    miter = [read, f"miter -equiv -flatten -make_outputs -ignore_gold_x {gold} {c.top} miter", "hierarchy -top miter"]

    def induct(matching: str) -> str:
        return "\n".join([read, f"equiv_make {gold} {c.top} equiv", "hierarchy -top equiv", matching,
                          "equiv_induct -undef -seq 2", "equiv_status -assert"])

    def bmc(depth: int) -> str:
        """Bounded check from reset: reset held for the declared cycles, then released for good."""
        steps = c.reset_cycles + depth
        sets = [f"-set-at {step} in_{c.reset} {c.reset_active if step <= c.reset_cycles else 1 - c.reset_active}"
                for step in range(1, steps + 1)] if c.reset else []
        return "\n".join([*miter, f"sat -seq {steps} -prove-skip {c.first_compared} {' '.join(sets)} -set-init-undef "
                          "-enable_undef -set-def-inputs -prove trigger 0 -show-inputs -show-outputs miter"])

    files = " ".join(shlex.quote(s) for s in job.bench.sources)
    return {
        "prepare": "\n".join([f"read_verilog -sv {files}", "hierarchy -check", "proc", "flatten", "memory",
                              "opt_clean", "select -assert-none t:$*latch* t:$sr", "async2sync",
                              f"write_rtlil {PREPARED}"]),
        "stateless": f"{read}\nselect -assert-none t:$*ff*",
        "comb": "\n".join([*miter, "sat -enable_undef -set-def-inputs -prove trigger 0 -show-inputs -show-outputs "
                                    "miter"]),
        # Induction after structural matching: a candidate that keeps the golden design's structure outside a few
        # edits is proved (or not) in seconds, where proving every matched signal alone first takes minutes on a
        # design of a few thousand state bits.
        "struct": induct("equiv_struct -icells"),
        "induct": induct("equiv_simple -undef -seq 2"),
        "bmc_short": bmc(min(job.depth, SHORT_DEPTH)),
        "bmc": bmc(job.depth),
    }


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
    scripts = equiv_scripts(job)
    write_files(job.bench.root, {f"{name}.ys": script + "\n" for name, script in scripts.items()})
    steps = {n: f"yosys {'-q ' if n in ('stateless', 'struct', 'induct') else ''}-s {n}.ys" for n in scripts}
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
    return next((line.strip() for line in log.splitlines() if line.startswith("ERROR")),
                "yosys failed without an error message")


def parse_trace(text: str, *, sequential: bool) -> tuple[dict[str, str], ...]:
    """Input vectors per time step from `sat -show-inputs` tables (miter inputs are `in_<port>`)."""
    steps: dict[int, dict[str, str]] = {}
    for line in text.splitlines():
        row = (_SEQ_ROW if sequential else _COMB_ROW).match(line)
        if row and row["name"].startswith("in_"):
            steps.setdefault(int(row["step"]) if sequential else 1, {})[row["name"][3:]] = row["bits"]
    return tuple(steps[s] for s in sorted(steps))


def _reject(rule: str, message: str) -> Verdict:
    return Verdict.fail(Category.LINT_FAIL, f"preflight: {message}", metrics={"stage": "preflight", "preflight": rule})


def _first_problem(log: str) -> str:
    for line in log.splitlines():
        text = line.strip()
        if text.startswith(("%Error", "%Warning", "ERROR")) or "error" in text.lower():
            return text[:300]
    return "no diagnostic (see the log)"


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
            if problem := path_problem(name):
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
        if taken := [n for n in self.tb_data if n.split("/")[0] in BENCH_NAMES]:
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
    cells = [cell.strip() for cell in line.split(",")]
    return [c[1:-1].strip() if len(c) > 1 and c[0] == c[-1] == '"' else c for c in cells]


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
        if (bad := next((c for c in cells if not TABLE_CELL.match(c)), None)) is not None:
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
    """A testbench replaying the table's rows into golden and candidate; mismatches in rtl-sim's format."""
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
        # Without a table the testbench drives the design itself, inout buses included.
        return super().contract_problem(ports) if self.tb.table else None

    def judge(self, bench: Bench, ports: tuple[Port, ...], sandbox: Sandbox) -> Verdict:
        return self.judge_table(bench, ports, sandbox) if self.tb.table else self.judge_testbench(bench, sandbox)

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
        write_files(bench.root, {f"tb/{n}" if n in tb.testbench else n: self.case.files[n]
                                 for n in (*tb.testbench, *tb.tb_data)})
        files = " ".join(shlex.quote(f"tb/{n}") for n in tb.testbench)
        # Includes resolve next to the testbench files (every folder they sit in), never in the candidate's.
        includes = " ".join(f"-I {shlex.quote(f)}" for f in sorted({str(Path("tb", n).parent) for n in tb.testbench}))
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
        if problem := self.output_problem(output):
            return Verdict.fail(Category.TEST_FAIL, problem, log_tail=run.tail() if run else "", metrics=metrics)
        judged = " and ".join(x for x in (tb.expected, tb.pass_regex and "pass regex") if x)
        return Verdict.ok(f"the testbench output matches ({judged})", metrics=metrics)

    def output_problem(self, output: str | None) -> str | None:
        tb = self.tb
        if output is None:
            return f"the testbench wrote no {tb.output or 'output'}"
        if tb.expected and (problem := compare_outputs(self.case.files[tb.expected], output)):
            return f"{tb.output or 'output'} differs from {tb.expected}: {problem}"
        if tb.pass_regex and not re.search(tb.pass_regex, output, re.MULTILINE):
            last = [line for line in output.splitlines() if line.strip()]
            return f"the testbench output does not match {tb.pass_regex!r}: {last[-1][:200] if last else '(no output)'}"
        return None


RTL_LINT = OracleKind("rtl-lint", ("rtl",), RtlOracle, RtlSpec)
RTL_SIM = OracleKind("rtl-sim", ("rtl",), RtlSimOracle, RtlSpec)
RTL_EQUIV = OracleKind("rtl-equiv", ("rtl",), RtlEquivOracle, RtlSpec, strong=True, strong_spec=RtlEquivTable,
                       decide=strong_result)
RTL_TB = OracleKind("rtl-tb", ("rtl",), RtlTbOracle, RtlTbSpec)
