"""The cases and samples a run collected: what fixers may ask of the corpus besides their task."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from ..fixers.base import RepairTask
from ..oracles.base import populate
from ..results.rundir import SampleRecord
from ..run.sample import ProtocolConfig, Sample
from .case import Case


class Corpus:
    """Filled at collection (cases, then the selected samples); read by fixers and batch mode afterwards."""

    def __init__(self, config: ProtocolConfig, finished: Mapping[str, list[SampleRecord]]) -> None:
        self.config = config
        self.finished = finished
        self.cases: dict[tuple[str, str, str], Case] = {}
        self.samples: tuple[Sample, ...] = ()
        self.ran: dict[str, Case] | None = None  # the cases whose samples ran (the controller fills it at the end)

    def add_case(self, case: Case) -> None:
        self.cases[(case.domain, case.suite, case.id)] = case

    def select(self, samples: Iterable[Sample]) -> None:
        """The samples this process will run, after deselection and sharding."""
        self.samples = tuple(samples)

    def case_of(self, task: RepairTask) -> Case:
        return self.cases[(task.domain, task.suite, task.case)]

    def golden(self, task: RepairTask) -> dict[str, str]:
        return self.case_of(task).golden_files()

    def populate(self, workspace: Path, task: RepairTask) -> None:
        if (case := self.cases.get((task.domain, task.suite, task.case))) is not None:
            populate(workspace, case, {})

    def pending(self, label: str) -> list[RepairTask]:
        return [s.task(self.config) for s in self.samples if s.label == label and s.key not in self.finished]

    def record_ran(self, paths: Iterable[Path], load: Callable[[Path], Case]) -> None:
        """The cases whose samples ran, by case file: the same set at -n0, under -n and in each shard (an xdist
        controller collects nothing itself; a case file it did not load is loaded here)."""
        known = {case.path.resolve(): case for case in self.cases.values()}
        self.ran = {str(path.resolve()): known.get(path.resolve()) or load(path) for path in paths}

    def counted(self) -> list[Case]:
        return list(self.ran.values()) if self.ran is not None else list(self.cases.values())

    def digest(self) -> str:
        """One hash of every case run: a number never travels without the corpus it was measured on."""
        return hashlib.sha256("".join(sorted(c.digest for c in self.counted())).encode()).hexdigest()[:20]
