"""Fixer registry: built-ins plus the `hwrepair.fixers` entry-point group, and the control fixers `reference`
(must score 100 %), `noop` (must score 0 %) and `replay:RUN_DIR`.

A built-in's module is imported when its factory runs, so every pytest process does not pay at start for the
model clients (httpx), the agent's sandbox or the search baseline."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from ..results.rundir import RunDir
from ..sandbox.untrusted import read_optional
from .base import (
    Attempt,
    Candidate,
    Corpus,
    Fixer,
    FixerContext,
    FixerError,
    FixerUnavailable,
    ProbeFactory,
    RepairTask,
    SuiteProbe,
    Usage,
)

GoldenLookup = Callable[[RepairTask], dict[str, str]]  # the known-good visible files of a task's case


class ReferenceFixer:
    name = "reference"
    deterministic = True
    config: dict[str, Any] = {"fixer": "reference"}

    def __init__(self, golden: GoldenLookup) -> None:
        self.golden = golden

    def repair(self, task: RepairTask) -> Candidate:
        if task.issue is not None:  # a repository task: the fixed tree is the file set
            return Candidate(files=self.golden(task))
        return Candidate(files={task.target: self.golden(task)[task.target]})


class NoopFixer:
    name = "noop"
    deterministic = True
    config: dict[str, Any] = {"fixer": "noop"}

    def repair(self, task: RepairTask) -> Candidate:
        return Candidate(files={task.target: task.source})


class ReplayFixer:
    """Re-scores the candidates saved in an earlier run directory; makes no model calls."""

    deterministic = False

    def __init__(self, run_dir: str | None) -> None:
        if not run_dir:
            raise FixerError("replay: needs a run directory, e.g. --fixer replay:.hwrepair/runs/20260101-120000")
        source, _, label = run_dir.partition("@")
        self.root = Path(source)
        run = RunDir(self.root)
        if not run.samples.exists():
            raise FixerError(f"replay:{self.root}: no samples.jsonl there (is it a run directory?)")
        records = run.records()
        fixers = sorted({r.fixer for r in records if not label or label in (r.fixer, r.fixer.split(":")[0], r.label)})
        if len(fixers) != 1:
            held = sorted({f"{r.label or r.fixer} ({r.fixer})" for r in records})
            raise FixerError(f"replay:{run_dir}: {'no fixer matches ' + repr(label) if label else 'choose a fixer'}; "
                             f"the run holds {', '.join(held) or 'no samples'}: give replay:RUN_DIR@LABEL")
        self.source_fixer = fixers[0]
        self.name = f"replay:{self.source_fixer}"
        self.config = {"fixer": "replay", "run": str(self.root.resolve()), "source": self.source_fixer}
        self.index = {(r.case, r.bug, r.sample, r.iteration or 0): r for r in records
                      if r.fixer == self.source_fixer and r.artifact}

    def repair(self, task: RepairTask) -> Candidate:
        record = self.index.get((f"{task.domain}/{task.suite}/{task.case}", task.bug, task.sample, task.attempt))
        if record is None:
            raise FixerUnavailable(f"no saved candidate for {task.case}::{task.bug} sample {task.sample} "
                                   f"attempt {task.attempt} in {self.root}")
        art = self.root / "artifacts" / str(record.artifact)
        raw = read_optional(art, "response.txt") or ""
        repo = task.issue is not None  # a repository sample: its saved diff from the snapshot
        saved = read_optional(art, "candidate.diff" if repo else f"candidate/{task.target}")
        if saved is None:
            return Candidate(raw=raw, parsed=False,
                             parse_error=f"the saved sample has no candidate {'diff' if repo else 'file'}")
        return Candidate(diff=saved, raw=raw) if repo else Candidate(files={task.target: saved}, raw=raw)


FixerFactory = Callable[[str | None, FixerContext], Fixer]


def _cmd(arg: str | None, ctx: FixerContext) -> Fixer:
    if not arg:
        raise FixerError('cmd: needs a command, e.g. --fixer cmd:"./agent --task {task}"')
    from .agent import CommandFixer

    return CommandFixer(arg, ctx)


def _model(kind: str, arg: str | None, ctx: FixerContext) -> Fixer:
    from .llm.fixer import make_model_fixer

    return make_model_fixer(kind, arg, ctx)


def _search(arg: str | None, ctx: FixerContext) -> Fixer:
    from .search import SearchFixer, parse_options

    return SearchFixer(parse_options(arg, ctx.settings), ctx.probe)


BUILTIN: dict[str, FixerFactory] = {
    "reference": lambda arg, ctx: ReferenceFixer(ctx.corpus.golden),
    "noop": lambda arg, ctx: NoopFixer(),
    "replay": lambda arg, ctx: ReplayFixer(arg),
    "cmd": _cmd,
    "claude": partial(_model, "claude"),
    "openai": partial(_model, "openai"),
    "search": _search,
}


def registry() -> dict[str, FixerFactory]:
    """Built-in factories, then plug-ins from the `hwrepair.fixers` entry-point group."""
    found = dict(BUILTIN)
    for ep in entry_points(group="hwrepair.fixers"):
        found.setdefault(ep.name, ep.load())
    return found


_LABEL = re.compile(r"^([A-Za-z0-9_.-]+)=(.+)$")


def split_spec(spec: str) -> tuple[str, str, str | None]:
    """`label=kind:arg` -> (label, kind, arg); the label defaults to the kind."""
    label = None
    m = _LABEL.match(spec)
    if m and ":" not in m.group(1):
        label, spec = m.group(1), m.group(2)
    kind, sep, arg = spec.partition(":")
    return label or kind, kind, arg if sep else None


def make_fixers(specs: list[str], ctx: FixerContext) -> dict[str, Fixer]:
    """One fixer per `--fixer` value, keyed by a unique label used in node ids."""
    known = registry()
    fixers: dict[str, Fixer] = {}
    for spec in specs:
        label, kind, arg = split_spec(spec)
        if kind not in known:
            raise FixerError(f"--fixer {spec!r}: unknown fixer {kind!r} (known: {', '.join(sorted(known))})")
        unique, n = label, 2
        while unique in fixers:
            unique, n = f"{label}{n}", n + 1
        fixers[unique] = known[kind](arg, replace(ctx, label=unique))
    return fixers


__all__ = ["Attempt", "Candidate", "Corpus", "Fixer", "FixerContext", "FixerError", "FixerUnavailable", "NoopFixer",
           "ProbeFactory", "ReferenceFixer", "RepairTask", "ReplayFixer", "SuiteProbe", "Usage", "make_fixers",
           "registry", "split_spec"]
