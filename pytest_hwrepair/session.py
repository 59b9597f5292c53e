"""The frozen run of one pytest process: settings, run directory, fixers, sandbox, oracle options, corpus."""

from __future__ import annotations

import functools
import os
import platform
import shutil
import subprocess
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import __version__
from .cases.case import Bug, Case
from .cases.corpus import Corpus
from .cases.domains import domain_of
from .fixers import Fixer, FixerContext, RepairTask, SuiteProbe, make_fixers
from .oracles import OracleContext, OracleOptions
from .results.gates import Gate, gate_problem, parse_gate
from .results.rundir import RunDir, new_run_dir, now
from .run.runner import Harness
from .run.sample import ProtocolConfig, Sample
from .sandbox import make_sandbox
from .sandbox.base import Limits, Sandbox
from .settings import Settings, SettingsError
from .verdict import RepairProtocol

TOOLS = (("gcc", "--version"), ("iverilog", "-V"), ("verilator", "--version"), ("yosys", "-V"),
         ("nvcc", "--version"))


@dataclass(frozen=True)
class Run:
    """Built once in `pytest_configure`; every hook, fixture and item reads it, none changes it."""

    settings: Settings
    run_dir: RunDir
    harness: Harness
    fixers: Mapping[str, Fixer]
    sandbox: Sandbox
    corpus: Corpus
    strict: bool = False
    is_worker: bool = False
    gates: tuple[Gate, ...] = ()
    start: str = field(default_factory=now)
    session: str = field(default_factory=lambda: uuid.uuid4().hex[:12])  # this pytest process's entry in run.json

    @classmethod
    def create(cls, settings: Settings, run_dir: Path | None, *, strict: bool, is_worker: bool) -> Run:
        run = RunDir(run_dir or (Path(settings.run) if settings.run else new_run_dir()))
        try:
            gates = tuple(parse_gate(g) for g in settings.gate)
        except ValueError as exc:
            raise SettingsError(str(exc)) from None
        if settings.baseline and not (Path(settings.baseline) / "samples.jsonl").exists():
            raise SettingsError(f"--hwrepair-baseline: {settings.baseline!r} holds no samples.jsonl")
        cache = Path(settings.cache_dir)
        config = ProtocolConfig(settings.input, settings.iterations, settings.history, settings.feedback, settings.seed,
                                repo_feedback=settings.repo_feedback)
        finished = run.finished(retry_errors=settings.retry_errors)
        corpus = Corpus(config, finished)
        sandbox = make_sandbox(settings, run.path)
        oracle_ctx = OracleContext(cache, Limits(), OracleOptions.from_settings(settings))

        def probe(task: RepairTask) -> SuiteProbe:  # for a fixer that validates its own candidates: never the case
            from .run.probe import HarnessProbe  # with the mutation engine: only such a fixer needs it

            case = corpus.case_of(task)
            return HarnessProbe(case, case.bug(task.bug), sandbox, oracle_ctx, settings.oracle_jobs)

        fixers = make_fixers(settings.fixer, FixerContext(settings, run.path, cache, corpus, probe=probe))
        declared = {label: (f.name, f.deterministic) for label, f in fixers.items()}
        # Checked before the first item runs, not after the whole run.
        problems = [None if is_worker else run.changed_fixer(fixer_configs(fixers)),
                    *(gate_problem(gate, declared, settings.samples) for gate in gates)]
        if problem := next(filter(None, problems), None):
            raise SettingsError(problem)
        harness = Harness(run, oracle_ctx, config, finished, verdict_cache=not settings.no_verdict_cache)
        return cls(settings, run, harness, fixers, sandbox, corpus, strict or settings.strict, is_worker, gates)

    def samples_of(self, case: Case, bug: Bug, label: str, parent: str = "") -> list[Sample]:
        """The samples of one bug for one fixer (with `parent`, the case file's node id, each carries its item's)."""
        settings = self.settings
        protocol = (RepairProtocol(settings.protocol) if settings.protocol != "auto"
                    else domain_of(case.domain).default_protocol)
        count = settings.samples
        if count is None:
            count = 1 if protocol is RepairProtocol.ITERATIVE or self.fixers[label].deterministic else 5
        return Sample.make_all(case, bug, label, self.fixers[label], count, protocol, self.harness.protocol, parent)

    def info(self) -> dict[str, Any]:
        """run.json's body (DESIGN §10)."""
        return {
            "settings": dict(self.settings.__dict__),
            "fixers": {label: f.name for label, f in self.fixers.items()},
            "fixer_configs": fixer_configs(self.fixers),
            "versions": tool_versions(),
            "case_set": self.corpus.digest(),
            "cases": len(self.corpus.counted()),
            "session": self.session,
            "pid": os.getpid(),
            "start": self.start,
            "end": now(),
        }


def fixer_configs(fixers: Mapping[str, Fixer]) -> dict[str, Any]:
    """Everything that can change each fixer's answers (its sample keys' part), by label."""
    return {label: {"name": f.name, **dict(f.config)} for label, f in fixers.items()}


def tool_versions() -> dict[str, str]:
    """The toolchains' versions for run.json, asked once per process (the tools do not change during a run)."""
    return dict(_ask_tools())


@functools.cache
def _ask_tools() -> dict[str, str]:
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
