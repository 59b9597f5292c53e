"""The two-sided check an importer keeps instances by: `hwrepair validate` over freshly written cases.

Tier F stays an imported rtl case's strong oracle only where it decides the golden design (PROVED or BOUNDED_PASS).
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..cases.load import load_case
from ..oracles import OracleContext, make_strong_oracle
from ..oracles.base import populate
from ..sandbox import make_sandbox, scratch
from ..settings import Settings
from ..strength.selfcheck import BugCheck, validate
from .base import Entry, Reason, Status, write_case

# validate's rejection reasons (their leading words) and what an import log calls them.
_REASONS = (
    ("reference fails", Reason.REFERENCE_FAILS),
    ("bug not observable", Reason.NOT_OBSERVABLE),
    ("INF bug does not fail by timeout", Reason.INF_NO_HANG),
    ("injected program does not compile", Reason.COMPILE_ERROR),
    ("not repeatable", Reason.NOT_REPEATABLE),
    ("syntactic bug does not fail lint", Reason.WRONG_FAILURE),
    ("behavioural bug does not lint clean", Reason.WRONG_FAILURE),
    ("behavioural bug is proved equivalent", Reason.EQUIVALENT),
)


def two_sided(paths: list[Path], *, jobs: int, cache_dir: Path) -> dict[tuple[str, str], BugCheck]:
    """validate's verdict per (case.toml path, bug id), run as `hwrepair validate` runs it."""
    settings = Settings.from_sources({"oracle_jobs": str(jobs), "cache_dir": str(cache_dir)}, {})
    checks = validate(paths, sandbox=make_sandbox(settings, cache_dir), cache_dir=cache_dir, jobs=jobs)
    return {(check.path, check.bug): check for check in checks}


# validate's rules that read a bug's type as the way it must fail. A label naming the shape of an edit (Chrysalis'
# INF: a changed loop bound or exit) promises no such thing: a crash or a wrong result is as observable as a hang.
_LABEL_RULES = ("INF bug does not fail by timeout",)


def shape_labels(check: BugCheck) -> BugCheck:
    """The verdict with type labels read as edit shapes (a rejection for failing another way is an acceptance)."""
    if check.status == "rejected" and check.reason.startswith(_LABEL_RULES):
        return replace(check, status="accepted", reason="")
    return check


def failure(check: BugCheck) -> str:
    """How the bug fails, from validate's `noop` field (`failed/runtime_crash` -> `runtime_crash`)."""
    return check.noop.rpartition("/")[2]


def rejection_reason(check: BugCheck) -> Reason:
    for prefix, reason in _REASONS:
        if check.reason.startswith(prefix):
            return reason
    # An output-diff oracle raises when the reference itself fails: that is the reference's fault.
    if check.reason.startswith("harness error") and "the reference" in check.reason:
        return Reason.REFERENCE_FAILS
    return Reason.HARNESS_ERROR


Remap = Callable[[BugCheck, Reason], tuple[Reason, str]]


@dataclass(frozen=True)
class Staged:
    """One case to write: where (relative to the output), its fields and files, and its log entry."""

    rel: str
    fields: Mapping[str, Any]
    files: Mapping[str, str]
    entry: Entry
    design: str = ""  # the golden design it shares with other cases (Tier F is decided once per design)

    @property
    def bug(self) -> str:
        return str(self.fields["bug"][0]["id"])

    def marked(self, status: Status) -> Staged:
        """The staged case with its entry accepted or imported (written where it stands)."""
        return replace(self, entry=replace(self.entry, status=status, reason=None, detail="", case=self.rel,
                                           bug=self.bug))

    def without_tier_f(self) -> Staged:
        return replace(self, fields={**self.fields, "strong_oracle": None})


def add_common_arguments(parser: argparse.ArgumentParser, what: str) -> None:
    """The arguments every rtl importer takes: the checkout, where the cases go, and how they are checked."""
    parser.add_argument("checkout", type=Path, metavar="DIR", help=f"a checkout of {what}")
    parser.add_argument("--out", type=Path, required=True, metavar="DIR", help="where the cases are written")
    parser.add_argument("--no-check", action="store_true", help="write every case unchecked")
    parser.add_argument("-j", "--jobs", type=int, default=min(2, os.cpu_count() or 1), help="bugs checked at once")
    parser.add_argument("--cache-dir", type=Path, default=Path(".hwrepair/cache"))


def admit(staged: list[Staged], ns: argparse.Namespace,
          remap: Remap | None = None) -> tuple[list[Entry], list[str], dict[str, str]]:
    """Write the staged cases that pass the two-sided check (all with `--no-check`), Tier F dropped where it cannot
    judge; the log entries of all, notes, and per design checked why Tier F does not decide it ('' where it does)."""
    notes: list[str] = []
    decided: dict[str, str] = {}
    if ns.no_check:
        staged = [s.marked(Status.IMPORTED) for s in staged]
    else:
        staged = check_staged(staged, jobs=ns.jobs, cache_dir=ns.cache_dir, remap=remap)
        staged, notes = drop_proving_tier_f(staged)
        staged, decided = keep_tier_f(staged, ns.cache_dir)
    for item in staged:
        if item.entry.status is not Status.REJECTED:
            write_case(ns.out / item.rel, item.fields, item.files)
    return [item.entry for item in staged], notes, decided


def check_staged(staged: list[Staged], *, jobs: int, cache_dir: Path, remap: Remap | None = None) -> list[Staged]:
    """Each staged case with its entry accepted, or rejected with validate's reason (after `remap`)."""
    if not staged:
        return []
    with scratch.directory("hwrepair-import-") as root:
        for item in staged:
            write_case(root / item.rel, item.fields, item.files)
        checks = two_sided([root], jobs=jobs, cache_dir=cache_dir)
        return [_judged(item, checks.get((str(root / item.rel / "case.toml"), item.bug)), remap) for item in staged]


def _judged(item: Staged, check: BugCheck | None, remap: Remap | None) -> Staged:
    if check is None:
        return replace(item, entry=item.entry.rejected(Reason.HARNESS_ERROR, "the check gave no verdict for this bug"))
    if check.status == "accepted":
        return item.marked(Status.ACCEPTED)
    reason, detail = remap(check, rejection_reason(check)) if remap else (rejection_reason(check), check.reason)
    return replace(item, entry=item.entry.rejected(reason, detail))


def tier_f_on_golden(item: Staged, cache_dir: Path) -> str:
    """'' when the case's strong oracle (Tier F) passes its own golden design, else why it does not."""
    with scratch.directory("hwrepair-tierf-") as root:
        write_case(root / "case", item.fields, item.files)
        case = load_case(root / "case" / "case.toml")
        if (found := make_strong_oracle(case, OracleContext(cache_dir))) is None:
            return ""
        workspace = root / "ws"
        workspace.mkdir()
        populate(workspace, case, case.golden_files())
        settings = Settings.from_sources({"cache_dir": str(cache_dir)}, {})
        verdict = found[1].check(workspace, make_sandbox(settings, cache_dir))
    return "" if verdict.passed else f"Tier F does not decide the golden design: {verdict.summary}"


def keep_tier_f(staged: list[Staged], cache_dir: Path) -> tuple[list[Staged], dict[str, str]]:
    """Tier F dropped from every case of a design it does not decide (checked on the design's first accepted case);
    per design checked, why not ('' where it decides)."""
    decided: dict[str, str] = {}
    for item in staged:
        if item.entry.status is Status.ACCEPTED and item.fields.get("strong_oracle") and item.design not in decided:
            decided[item.design] = tier_f_on_golden(item, cache_dir)
    return [item.without_tier_f() if decided.get(item.design) else item for item in staged], decided


def drop_proving_tier_f(staged: list[Staged]) -> tuple[list[Staged], list[str]]:
    """Accept, without a strong oracle, the bugs whose only fault was that Tier F proves them equivalent: the
    simulation tells them apart where synthesis-based equivalence cannot (a sensitivity list, an initial value)."""
    kept, notes = [], []
    for item in staged:
        if item.entry.status is Status.REJECTED and item.entry.reason is Reason.EQUIVALENT:
            item = item.without_tier_f().marked(Status.ACCEPTED)
            notes.append(f"{item.entry.source}: Tier F proves the buggy design equivalent while the suite oracle "
                         "fails it; kept without a strong oracle")
        kept.append(item)
    return kept, notes
