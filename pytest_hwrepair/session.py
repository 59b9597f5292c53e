"""Per-process state of a hwrepair pytest session: settings, fixers, harness, collected records."""

from __future__ import annotations

import hashlib
import platform
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import __version__
from .cases import Case
from .fixers import Fixer, FixerContext, RepairTask, SuiteProbe, make_fixers
from .oracles import OracleContext
from .oracles.base import populate
from .results import RunDir, SampleRecord, new_run_dir, now
from .run import Harness, SampleSpec, build_task
from .sandbox import make_sandbox
from .sandbox.base import Limits
from .scoreboard import Gate, check_gates, parse_gate, regressions, summarize
from .settings import Settings, SettingsError

TOOLS = (("gcc", "--version"), ("iverilog", "-V"), ("verilator", "--version"), ("yosys", "-V"),
         ("nvcc", "--version"))


@dataclass
class HwrepairSession:
    """Everything the hooks and fixtures of one process share."""

    settings: Settings
    run_dir: RunDir
    strict: bool
    is_worker: bool
    fixers: dict[str, Fixer] = field(default_factory=dict)
    cases: dict[tuple[str, str, str], Case] = field(default_factory=dict)
    gates: list[Gate] = field(default_factory=list)
    harness: Harness | None = None
    records: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    specs: list[SampleSpec] = field(default_factory=list)
    collect_errors: int = 0
    summary: dict[str, Any] | None = None
    gate_failures: list[str] = field(default_factory=list)
    start: str = field(default_factory=now)

    @classmethod
    def create(cls, settings: Settings, run_dir: Path | None, *, strict: bool, is_worker: bool) -> HwrepairSession:
        run = RunDir(run_dir or (Path(settings.run) if settings.run else new_run_dir()))
        self = cls(settings, run, strict or settings.strict, is_worker)
        try:
            self.gates = [parse_gate(g) for g in settings.gate]
        except ValueError as exc:
            raise SettingsError(str(exc)) from None
        if settings.baseline and not (Path(settings.baseline) / "samples.jsonl").exists():
            raise SettingsError(f"--hwrepair-baseline: {settings.baseline!r} holds no samples.jsonl")
        cache = Path(settings.cache_dir)
        ctx = FixerContext(settings, run.path, cache, self.golden, self.populate_for_fixer, self.pending_tasks,
                           probe=self.suite_probe)
        self.fixers = make_fixers(settings.fixer, ctx)
        sandbox = make_sandbox(settings, run.path)
        gpu = {"auto": None, "yes": True, "no": False}[settings.gpu]
        oracle_ctx = OracleContext(cache, Limits(), {"simulator": settings.simulator, "perf_gate": settings.perf_gate,
                                                     "seed": settings.seed, "gpu": gpu,
                                                     "timing_runs": settings.timing_runs})
        self.harness = Harness(run, sandbox, oracle_ctx, settings.input, settings.iterations, settings.history,
                               settings.feedback, settings.seed, verdict_cache=not settings.no_verdict_cache)
        return self

    def start_run(self) -> None:
        """Create the run directory and load finished samples so they are not executed again."""
        assert self.harness is not None
        self.harness.finished = self.run_dir.finished(retry_errors=self.settings.retry_errors)

    def register_case(self, case: Case) -> None:
        self.cases[(case.domain, case.suite, case.id)] = case

    def pending_tasks(self, label: str) -> list[RepairTask]:
        """First-attempt tasks of the collected items of one fixer that have no finished record yet."""
        assert self.harness is not None
        from .fixers import fixer_config
        from .results import sample_key

        tasks = []
        for spec in self.specs:
            if spec.fixer != label:
                continue
            key = sample_key(case_digest=spec.case.digest, bug=spec.bug.id,
                             oracle=spec.case.oracle.model_dump(mode="json"),
                             fixer=fixer_config(self.fixers[label]),
                             protocol=self.harness.protocol_config(spec.protocol), sample=spec.sample)
            if key not in self.harness.finished:
                tasks.append(build_task(spec, self.harness))
        return tasks

    def golden(self, task: RepairTask) -> dict[str, str]:
        case = self.cases[(task.domain, task.suite, task.case)]
        return {name: case.files[name] for name in case.model.sources}

    def suite_probe(self, task: RepairTask) -> SuiteProbe:
        """The suite oracle of one task for a fixer that validates its own candidates: never the case itself."""
        from .probe import HarnessProbe

        assert self.harness is not None
        case = self.cases[(task.domain, task.suite, task.case)]
        return HarnessProbe(case, case.bug(task.bug), self.harness.sandbox, self.harness.oracle_ctx,
                            self.settings.oracle_jobs)

    def populate_for_fixer(self, workspace: Path, task: RepairTask) -> None:
        case = self.cases.get((task.domain, task.suite, task.case))
        if case is not None:
            populate(workspace, case, {})

    def protocol_for(self, case: Case) -> str:
        if self.settings.protocol != "auto":
            return self.settings.protocol
        return "iterative" if case.domain == "cuda" else "repeated"

    def samples_for(self, label: str, protocol: str) -> int:
        if self.settings.samples is not None:
            return self.settings.samples
        if protocol == "iterative" or getattr(self.fixers[label], "deterministic", False):
            return 1
        return 5

    def add_records(self, nodeid: str, records: list[dict[str, Any]]) -> None:
        self.records[nodeid] = records

    def all_records(self) -> list[SampleRecord]:
        return [SampleRecord.from_json(r) for _, rs in sorted(self.records.items()) for r in rs]

    def finish(self, errors: int) -> int | None:
        """Write summary.json and run.json; return the exit status the gates decide, if any."""
        records = self.all_records()
        self.summary = summarize(records, self.settings.k)
        self.summary["run"] = str(self.run_dir.path)
        if records or self.specs:  # a pytest run without hwrepair items leaves no run directory behind
            self.run_dir.create()
            self.run_dir.write_json("summary.json", self.summary)
            self.run_dir.write_run_json(self.run_info())
        if not self.gates and not self.settings.baseline:
            return None
        self.gate_failures = check_gates(self.gates, records)
        if self.settings.baseline:
            self.gate_failures += regressions(records, RunDir(Path(self.settings.baseline)).records())
        from .scoreboard import EXIT_GATE_FAILED, EXIT_HARNESS_ERRORS

        if errors:
            return EXIT_HARNESS_ERRORS
        return EXIT_GATE_FAILED if self.gate_failures else 0

    def run_info(self) -> dict[str, Any]:
        digests = sorted(c.digest for c in self.cases.values())
        return {
            "settings": {k: v for k, v in self.settings.__dict__.items()},
            "fixers": {label: f.name for label, f in self.fixers.items()},
            "versions": tool_versions(),
            "case_set": hashlib.sha256("".join(digests).encode()).hexdigest()[:20],
            "cases": len(self.cases),
            "start": self.start,
            "end": now(),
        }


def tool_versions() -> dict[str, str]:
    versions = {"hwrepair": __version__, "python": platform.python_version()}
    for tool, flag in TOOLS:
        if shutil.which(tool) is None:
            continue
        try:
            out = subprocess.run([tool, flag], capture_output=True, text=True, timeout=10, check=False)
        except (OSError, subprocess.TimeoutExpired):
            continue
        lines = [line for line in (out.stdout + out.stderr).splitlines() if line.strip()]
        versions[tool] = (lines[-1] if tool == "nvcc" else lines[0]).strip() if lines else "?"
    return versions

