"""The fixer seam: a repair task in, a candidate out (DESIGN §5)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol

from ..settings import Settings
from ..verdict import Verdict


@dataclass(frozen=True, slots=True)
class Attempt:
    """One earlier (candidate, feedback) pair of an iterative trajectory."""

    candidate: str
    category: str
    feedback: str


@dataclass(frozen=True, slots=True)
class RepairTask:
    """Everything a fixer may see: never the golden design."""

    case: str
    bug: str
    domain: str
    suite: str
    files: dict[str, str]
    target: str
    prompt_kind: str = "code"
    spec: str | None = None
    error_log: str | None = None
    interface: str | None = None
    attempt: int = 0
    sample: int = 0
    seed: int = 0
    history: tuple[Attempt, ...] = ()
    feedback_level: str = "L3"
    issue: str | None = None  # a repository task: the issue text; `files` is the whole repository snapshot

    @property
    def source(self) -> str:
        """The buggy target file's text."""
        return self.files[self.target]

    def to_json(self) -> dict[str, Any]:
        return {
            "case": self.case, "bug": self.bug, "domain": self.domain, "suite": self.suite,
            "files": dict(self.files), "target": self.target, "input": self.prompt_kind,
            "spec": self.spec, "error_log": self.error_log, "interface": self.interface,
            "attempt": self.attempt, "sample": self.sample, "seed": self.seed,
            "feedback_level": self.feedback_level, "issue": self.issue, "history": [asdict(a) for a in self.history],
        }


@dataclass(frozen=True, slots=True)
class Usage:
    """Token counts of one model call (zero for offline fixers)."""

    input: int = 0
    output: int = 0
    cache_read: int = 0
    cache_write: int = 0

    def to_json(self) -> dict[str, int]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class Candidate:
    """What a fixer returned: the full target file (or a diff), and what it cost."""

    files: dict[str, str] = field(default_factory=dict)
    diff: str | None = None
    raw: str = ""
    prompt: str = ""
    usage: Usage = Usage()
    cost_usd: float = 0.0
    latency: float = 0.0
    parsed: bool = True
    parse_error: str = ""
    cached: bool = False
    logs: dict[str, str] = field(default_factory=dict)
    retries: dict[str, int] = field(default_factory=dict)
    metrics: dict[str, Any] = field(default_factory=dict)  # the fixer's own cost figures (search: candidates)


class Fixer(Protocol):
    """Repairs one task. The harness reads exactly these members (DESIGN §5)."""

    name: str  # e.g. "claude:claude-opus-4-6"; the `fixer` field of every record

    @property
    def deterministic(self) -> bool:
        """True: one sample per bug is enough (reference, noop)."""

    @property
    def config(self) -> Mapping[str, Any]:
        """What identifies the fixer's configuration: part of every sample key."""

    def repair(self, task: RepairTask) -> Candidate: ...


class Corpus(Protocol):
    """What a fixer may ask of the collected corpus besides its task (built at collection)."""

    def golden(self, task: RepairTask) -> dict[str, str]:
        """The known-good visible files: for the `reference` control fixer only."""

    def populate(self, workspace: Path, task: RepairTask) -> None:
        """Write what a candidate's workspace holds besides the visible files (data, oracle assets)."""

    def pending(self, label: str) -> list[RepairTask]:
        """First-attempt tasks of the fixer labelled `label` that have no finished record (batch mode)."""


@dataclass(frozen=True)
class FixerContext:
    """What a fixer factory may use: the settings, the run directory, its label and the collected corpus."""

    settings: Settings
    run_dir: Path
    cache_dir: Path
    corpus: Corpus
    label: str = ""  # the fixer's label in node ids (`--fixer LABEL=SPEC`, default the kind)
    probe: ProbeFactory | None = None  # the suite oracle of one task, for fixers that judge their own candidates


class FixerError(Exception):
    """A fixer could not produce a candidate for reasons outside the candidate (outage, bad config)."""


class FixerTimeout(Exception):
    """The fixer ran out of time: a failed sample (category fixer_timeout), not a harness error."""

    def __init__(self, message: str, candidate: Candidate) -> None:
        super().__init__(message)
        self.candidate = candidate  # its logs and latency, kept in the artifacts


class FixerUnavailable(Exception):
    """A fixer declines to run this item (cost limit reached, nothing to replay): a skip."""


class SuiteProbe(Protocol):
    """What a search fixer may ask of the harness, built for one task: the suite oracle on its own candidates, and
    coverage (never the case, its golden files or the strong oracle)."""

    @property
    def jobs(self) -> int:
        """How many checks may run at once (the oracle semaphore's size)."""

    @property
    def language(self) -> str:
        """The target's language: `c`, `cuda` or `verilog`."""

    @property
    def cpu_seconds(self) -> float:
        """CPU seconds the probe's sandboxed steps have used so far."""

    def check(self, files: dict[str, str]) -> Verdict:
        """The suite oracle's verdict on the visible buggy files with these files (the target) in place."""

    def syntax(self, files: dict[str, str]) -> Verdict | None:
        """A cheap syntax-only pass: a failing verdict, or None when it parses (or no such pass exists)."""

    def coverage(self, files: dict[str, str]) -> dict[int, int] | None:
        """Execution counts per line of the target on the suite's run, or None where none can be taken."""


ProbeFactory = Callable[[RepairTask], SuiteProbe]
