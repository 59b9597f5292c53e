"""Collection: one CaseFile per case.toml, one CaseItem per bug x fixer x sample (or trajectory)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from .cases import Case, load_case
from .run import SampleResult, SampleSpec, cap_lines
from .verdict import CaseError, RepairRejected

if TYPE_CHECKING:
    from .session import HwrepairSession

SPEC_KEY = pytest.StashKey[SampleSpec]()
SESSION_KEY = pytest.StashKey["HwrepairSession"]()


def check_sample(hwrepair_outcome: SampleResult) -> None:
    """The item body: the sample ran in fixture setup; a rejected repair fails here."""
    result = hwrepair_outcome
    if not result.verdict.passed:
        raise RepairRejected(result.verdict, cap_lines(result.diff), str(result.artifact or ""))


class CaseFile(pytest.File):
    """A `case.toml`; a malformed one is a one-line collection error."""

    def collect(self) -> Iterator[pytest.Item]:
        session: HwrepairSession = self.config.stash[SESSION_KEY]
        try:
            case = load_case(self.path, strict=session.strict)
        except CaseError as exc:
            # One broken case file must not stop the evaluation of every other case.
            self.config.option.continue_on_collection_errors = True
            raise self.CollectError(str(exc)) from None
        session.register_case(case)
        for bug in sorted(case.bugs, key=lambda b: b.id):
            for label in session.fixers:
                protocol = session.protocol_for(case)
                letter = "t" if protocol == "iterative" else "s"
                for sample in range(session.samples_for(label, protocol)):
                    yield self._item(case, bug.id, label, sample, protocol, f"{bug.id}[{label}-{letter}{sample}]")

    def _item(self, case: Case, bug_id: str, label: str, sample: int, protocol: str, name: str) -> CaseItem:
        bug = case.bug(bug_id)
        keywords: dict[str, Any] = {k: True for k in (case.domain, case.suite, case.id, bug.bug_type, label,
                                                     bug.id, protocol, bug.class_ or "")
                                    if k}
        item = CaseItem.from_parent(self, name=name, callobj=check_sample, keywords=keywords)
        item.add_marker(case.domain)
        if case.domain == "cuda":
            item.add_marker("gpu")
        if case.oracle.timeout >= 30 or protocol == "iterative":
            item.add_marker("slow")
        item.stash[SPEC_KEY] = SampleSpec(case, bug, label, sample, protocol, item.nodeid)
        return item


class CaseItem(pytest.Function):
    """One sample; its failure report is the verdict's own explanation."""

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, 0, f"{self.name}"  # a line number: a skip raised in a fixture reports it

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, RepairRejected):
            return render_rejection(excinfo.value)
        return super().repr_failure(excinfo)


def render_rejection(exc: RepairRejected) -> str:
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
