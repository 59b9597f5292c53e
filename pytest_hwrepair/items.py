"""Collection: one CaseFile per case.toml, one CaseItem per bug x fixer x sample (or trajectory)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from .artifacts import cap_lines
from .loading import load_case
from .oracles import kind_of
from .repo.runner import repo_keywords
from .run import SampleResult
from .sample import Sample
from .verdict import CaseError, RepairProtocol, RepairRejected

if TYPE_CHECKING:
    from .session import Run

SAMPLE_KEY = pytest.StashKey[Sample]()
RUN_KEY = pytest.StashKey["Run"]()
FIXTURE_INFO = pytest.StashKey[Any]()
MARKS = pytest.StashKey[dict[str, pytest.MarkDecorator]]()


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
        for bug in sorted(case.bugs, key=lambda b: b.id):
            for label in run.fixers:
                for sample in run.samples_of(case, bug, label):
                    yield self._item(sample)

    def _item(self, sample: Sample) -> CaseItem:
        case, bug, protocol = sample.case, sample.bug, sample.protocol
        letter = "t" if protocol is RepairProtocol.ITERATIVE else "s"
        name = f"{bug.id}[{sample.label}-{letter}{sample.index}]"
        keywords: dict[str, Any] = {k: True for k in (case.domain, case.suite, case.id, bug.bug_type, sample.label,
                                                     bug.id, protocol.value, bug.class_ or "")
                                    if k}
        # Every item of a case file has the same function and parent, hence the same fixture closure: resolved
        # once per file, as pytest does for the instances of one parametrized function (most of collection's cost).
        shared = self.stash.get(FIXTURE_INFO, None)
        extra = {"fixtureinfo": shared} if shared is not None else {}
        item = CaseItem.from_parent(self, name=name, callobj=check_sample, keywords=keywords, **extra)
        if shared is None and getattr(item, "_fixtureinfo", None) is not None:
            self.stash[FIXTURE_INFO] = item._fixtureinfo
        item.extra_keyword_matches.update(repo_keywords(case, bug.id))  # `-k T3` selects repository tiers
        marks = self.stash.get(MARKS, None)  # one decorator per name for the file's items (pytest makes one a call)
        if marks is None:
            marks = self.stash[MARKS] = {}
        names = [case.domain]
        kind = kind_of(case.oracle.kind)
        if kind is not None and kind.needs_gpu:
            names.append("gpu")
        if kind is not None and kind.marker:
            names.append(kind.marker)
        if case.oracle.timeout >= 30 or protocol is RepairProtocol.ITERATIVE:
            names.append("slow")
        for mark in names:
            if mark not in marks:
                marks[mark] = getattr(pytest.mark, mark)
            item.add_marker(marks[mark])
        item.stash[SAMPLE_KEY] = replace(sample, nodeid=item.nodeid)
        return item


class CaseItem(pytest.Function):
    """One sample; its failure report is the verdict's own explanation."""

    def reportinfo(self) -> tuple[Path, int | None, str]:
        # The failure header names the design: two designs' RSTPOL-01[noop-s0] must read apart.
        case = self.stash[SAMPLE_KEY].case if SAMPLE_KEY in self.stash else None
        where = f"{case.domain}/{case.suite}/{case.id}::" if case is not None else ""
        return self.path, 0, f"{where}{self.name}"  # a line number: a skip raised in a fixture reports it

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, RepairRejected):
            if self.config.get_verbosity() > 0:
                return render_rejection(excinfo.value)
            return rejection_line(excinfo.value)
        return super().repr_failure(excinfo)


def rejection_line(exc: RepairRejected) -> str:
    """A rejected repair in one line: category, summary, where the diff and the log are (`-v` shows them)."""
    v = exc.verdict
    summary = " ".join(v.summary.split())
    summary = summary if len(summary) <= 160 else summary[:157] + "..."
    where = f" | artifacts: {exc.log_path}" if exc.log_path else ""
    return f"[{v.category.value}] {summary}{where} (-v: diff and log)"


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
    return "\n".join(parts)
