"""Control fixers: `reference` (must score 100 %), `noop` (must score 0 %) and `replay:RUN_DIR`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..results.rundir import RunDir, SampleRecord
from ..sandbox.untrusted import read_optional
from .base import Candidate, FixerError, FixerUnavailable, RepairTask

GoldenLookup = Callable[[RepairTask], dict[str, str]]  # the known-good visible files of a task's case


class ReferenceFixer:
    """Returns the ground-truth target file."""

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
    """Returns the buggy target unchanged."""

    name = "noop"
    deterministic = True
    config: dict[str, Any] = {"fixer": "noop"}

    def repair(self, task: RepairTask) -> Candidate:
        return Candidate(files={task.target: task.source})


class ReplayFixer:
    """Re-scores the candidates saved in an earlier run directory; makes no model calls."""

    deterministic = False

    def __init__(self, run_dir: str) -> None:
        source, _, label = run_dir.partition("@")
        self.root = Path(source)
        run = RunDir(self.root)
        if not run.samples.exists():
            raise FixerError(f"replay:{self.root}: no samples.jsonl there (is it a run directory?)")
        records = run.records()
        fixers = sorted({r.fixer for r in records})
        if label:
            fixers = sorted({r.fixer for r in records if label in (r.fixer, r.fixer.split(":")[0], r.label)})
        if len(fixers) != 1:
            held = sorted({f"{r.label or r.fixer} ({r.fixer})" for r in records})
            raise FixerError(f"replay:{run_dir}: {'no fixer matches ' + repr(label) if label else 'choose a fixer'}; "
                             f"the run holds {', '.join(held) or 'no samples'}: give replay:RUN_DIR@LABEL")
        self.source_fixer = fixers[0]
        self.name = f"replay:{self.source_fixer}"
        self.config = {"fixer": "replay", "run": str(self.root.resolve()), "source": self.source_fixer}
        self.index: dict[tuple[str, str, int, int], SampleRecord] = {}
        for r in records:
            if r.fixer == self.source_fixer and r.artifact:
                self.index[(r.case, r.bug, r.sample, r.iteration or 0)] = r

    def repair(self, task: RepairTask) -> Candidate:
        record = self.index.get((f"{task.domain}/{task.suite}/{task.case}", task.bug, task.sample, task.attempt))
        if record is None:
            raise FixerUnavailable(f"no saved candidate for {task.case}::{task.bug} sample {task.sample} "
                                   f"attempt {task.attempt} in {self.root}")
        art = self.root / "artifacts" / str(record.artifact)
        raw = read_optional(art, "response.txt") or ""
        if task.issue is not None:  # a repository sample: its saved diff from the snapshot
            diff = read_optional(art, "candidate.diff")
            if diff is None:
                return Candidate(raw=raw, parsed=False, parse_error="the saved sample has no candidate diff")
            return Candidate(diff=diff, raw=raw)
        text = read_optional(art, f"candidate/{task.target}")
        if text is None:
            return Candidate(raw=raw, parsed=False, parse_error="the saved sample has no candidate file")
        return Candidate(files={task.target: text}, raw=raw)
