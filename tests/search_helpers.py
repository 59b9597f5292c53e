"""Shared helpers of the search-fixer tests: held-out cases, a real probe, a fake probe."""

from __future__ import annotations

import tempfile
import threading
from collections.abc import Callable
from pathlib import Path

from pytest_hwrepair.cases.case import Case
from pytest_hwrepair.cases.load import load_case
from pytest_hwrepair.fixers import Candidate, RepairTask
from pytest_hwrepair.fixers.search import SearchFixer, SearchOptions
from pytest_hwrepair.oracles import OracleContext, make_oracle
from pytest_hwrepair.oracles.base import populate
from pytest_hwrepair.run.probe import HarnessProbe
from pytest_hwrepair.sandbox.local.sandbox import LocalSandbox
from pytest_hwrepair.verdict import Category, Verdict

HELDOUT = Path(__file__).parent / "data" / "heldout"
CORPUS = Path(__file__).parent.parent / "cases"


def task_for(case: Case, bug_id: str, seed: int = 0, sample: int = 0) -> RepairTask:
    bug = case.bug(bug_id)
    return RepairTask(case=case.id, bug=bug.id, domain=case.domain, suite=case.suite,
                      files=case.buggy_files(bug), target=case.target, sample=sample, seed=seed)


def real_probe(case: Case, cache: Path, jobs: int = 2) -> Callable[[RepairTask], HarnessProbe]:
    def make(task: RepairTask) -> HarnessProbe:
        return HarnessProbe(case, case.bug(task.bug), LocalSandbox(None), OracleContext(cache), jobs)
    return make


def search(case: Case, bug_id: str, cache: Path, *, seed: int = 0, budget: int = 80, seconds: float = 600.0,
           climb: bool = True) -> Candidate:
    fixer = SearchFixer(SearchOptions(budget, seconds, None, climb), real_probe(case, cache))
    return fixer.repair(task_for(case, bug_id, seed))


def harness_verdict(case: Case, bug_id: str, text: str, cache: Path) -> Verdict:
    """The verdict the harness itself gives a candidate (independent of the probe)."""
    with tempfile.TemporaryDirectory(prefix="hwrepair-judge-") as tmp:
        ws = Path(tmp)
        populate(ws, case, {**case.buggy_files(case.bug(bug_id)), case.target: text})
        return make_oracle(case, OracleContext(cache)).check(ws, LocalSandbox(None))


def heldout(name: str) -> Case:
    return load_case(next(HELDOUT.rglob(f"{name}/case.toml")))


class FakeProbe:
    """A probe over a pure function of the candidate text: no compilers, counts every check."""

    def __init__(self, judge: Callable[[str], Verdict], target: str = "k.c", language: str = "c",
                 jobs: int = 2) -> None:
        self.judge, self.target, self._language, self._jobs = judge, target, language, jobs
        self.checks: list[str] = []
        self.lock = threading.Lock()

    @property
    def jobs(self) -> int:
        return self._jobs

    @property
    def language(self) -> str:
        return self._language

    @property
    def cpu_seconds(self) -> float:
        return 0.0

    def check(self, files: dict[str, str]) -> Verdict:
        assert set(files) == {self.target}
        with self.lock:
            self.checks.append(files[self.target])
        return self.judge(files[self.target])

    def syntax(self, files: dict[str, str]) -> Verdict | None:
        return None

    def coverage(self, files: dict[str, str]) -> dict[int, int] | None:
        return None


def failing(summary: str = "wrong") -> Verdict:
    return Verdict.fail(Category.TEST_FAIL, summary)
