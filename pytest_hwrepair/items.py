"""Collection: one CaseFile per case.toml, one CaseItem per bug x fixer x sample (or trajectory)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from .cases.load import load_case
from .oracles import kind_of
from .results.artifacts import cap_lines
from .run.runner import SampleResult
from .run.sample import Sample
from .verdict import CaseError, RepairProtocol, RepairRejected, printable

if TYPE_CHECKING:
    from .cases.case import Case
    from .session import Run

CASE_ITEM = "case.toml::"  # every hwrepair item's node id holds it
SAMPLE_KEY = pytest.StashKey[Sample]()
RUN_KEY = pytest.StashKey["Run"]()
MARKS = pytest.StashKey[dict[RepairProtocol, list[pytest.MarkDecorator]]]()


def _repo_keywords(case: Case, bug_id: str) -> tuple[str, ...]:
    """`repo` and the tier of a repository instance (`-k T3`); a design case has none (and needs no repo module)."""
    if case.repo is None:
        return ()
    from .repo.candidate import repo_keywords

    return repo_keywords(case, bug_id)


def check_sample(hwrepair_outcome: SampleResult) -> None:
    """The item body: the sample ran in fixture setup; a rejected repair fails here."""
    result = hwrepair_outcome
    if not result.verdict.passed:
        raise RepairRejected(result.verdict, cap_lines(result.diff), str(result.artifact or ""))


class CaseFile(pytest.File):
    """A `case.toml`; a malformed one is a one-line collection error."""

    def collect(self) -> Iterator[pytest.Item]:
        run: Run = self.config.stash[RUN_KEY]
        try:
            case = load_case(self.path, strict=run.strict)
        except CaseError as exc:
            # One broken case file must not stop the evaluation of every other case.
            self.config.option.continue_on_collection_errors = True
            raise self.CollectError(str(exc)) from None
        run.corpus.add_case(case)
        # `-k` matches node names, marker names and extra keywords (pytest does not read an item's `keywords` for
        # it): the words every item of this case shares go on the file once, an item adds its bug's and fixer's.
        self.extra_keyword_matches.update(k for k in (case.domain, case.suite, case.id) if k)
        for bug in sorted(case.bugs, key=lambda b: b.id):
            words = {k for k in (bug.bug_type, bug.id, bug.class_ or "", *_repo_keywords(case, bug.id)) if k}
            for label in run.fixers:
                for sample in run.samples_of(case, bug, label, self.nodeid):
                    yield self._item(sample, words)

    def _item(self, sample: Sample, words: set[str]) -> CaseItem:
        item = CaseItem.from_parent(self, name=sample.name, callobj=check_sample)
        item.extra_keyword_matches.update({*words, sample.label, sample.protocol.value})
        for mark in self._marks(sample.case, sample.protocol):
            item.add_marker(mark)
        # The sample was made with the node id pytest gives its item (`file::name`); a pytest that spells ids
        # otherwise gets its own.
        item.stash[SAMPLE_KEY] = sample if sample.nodeid == item.nodeid else replace(sample, nodeid=item.nodeid)
        return item

    def _marks(self, case: Case, protocol: RepairProtocol) -> list[pytest.MarkDecorator]:
        """The markers of this file's items of one protocol, made once (pytest makes a decorator per call)."""
        marks = self.stash.setdefault(MARKS, {})
        if protocol not in marks:
            kind = kind_of(case.oracle.kind)
            slow = case.oracle.timeout >= 30 or protocol is RepairProtocol.ITERATIVE
            names = [case.domain, "gpu" if kind is not None and kind.needs_gpu else None,
                     kind.marker if kind is not None else None, "slow" if slow else None]
            marks[protocol] = [getattr(pytest.mark, name) for name in names if name]
        return marks[protocol]


class CaseItem(pytest.Function):
    """One sample; its failure report is the verdict's own explanation."""

    def reportinfo(self) -> tuple[Path, int | None, str]:
        # The failure header names the design: two designs' RSTPOL-01[noop-s0] must read apart.
        case = self.stash[SAMPLE_KEY].case if SAMPLE_KEY in self.stash else None
        where = f"{case.domain}/{case.suite}/{case.id}::" if case is not None else ""
        return self.path, 0, f"{where}{self.name}"  # a line number: a skip raised in a fixture reports it

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, RepairRejected):
            verbose = self.config.get_verbosity() > 0
            return render_rejection(excinfo.value) if verbose else rejection_line(excinfo.value)
        return super().repr_failure(excinfo)


def rejection_line(exc: RepairRejected) -> str:
    """A rejected repair in one line: category, summary, where the diff and the log are (`-v` shows them)."""
    v = exc.verdict
    summary = " ".join(v.summary.split())
    summary = summary if len(summary) <= 160 else summary[:157] + "..."
    where = f" | artifacts: {exc.log_path}" if exc.log_path else ""
    return printable(f"[{v.category.value}] {summary}{where} (-v: diff and log)")


def render_rejection(exc: RepairRejected) -> str:
    """The whole explanation: category, oracle contract, candidate diff (capped), oracle log tail, artifacts."""
    v = exc.verdict
    parts = [f"[{v.category.value}] {v.summary}"]
    if isinstance(v.metrics.get("contract"), str):
        parts.append(f"oracle contract: {v.metrics['contract']}")
    if exc.diff:
        parts += ["", "candidate diff:", exc.diff.rstrip()]
    elif v.category.value != "parse_fail":
        parts += ["", "candidate diff: (the candidate equals the buggy file)"]
    if v.log_tail:
        parts += ["", "oracle log (tail):", cap_lines(v.log_tail, 30).rstrip()]
    if exc.log_path:
        parts += ["", f"artifacts: {exc.log_path}"]
    return printable("\n".join(parts))
