"""The benchmark's two-sided self-check: the reference must pass and the bug must fail, per bug."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ..cases.case import Bug, Case, find_case_files
from ..cases.domains import domain_of
from ..cases.load import load_case
from ..fixers import NoopFixer, ReferenceFixer
from ..fixers.base import Fixer, RepairTask
from ..oracles import OracleContext, OracleOptions
from ..repo.stats import snapshot_problem
from ..results.rundir import RunDir
from ..run.runner import Harness, SampleResult, execute
from ..run.sample import ProtocolConfig, Sample
from ..sandbox import scratch
from ..sandbox.base import Limits, Sandbox
from ..verdict import CaseError, Outcome, RepairProtocol


@dataclass(frozen=True)
class BugCheck:
    """The validation result of one bug (or of a case file that did not load)."""

    path: str
    bug: str
    status: str  # accepted | rejected | unverified
    reason: str = ""
    reference: str = ""
    noop: str = ""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def judge(case: Case, bug: Bug, ref: SampleResult, noop: SampleResult) -> BugCheck:
    """Accept, reject (with the reason benchmark builders report) or mark unverifiable here."""
    rv, nv = ref.verdict, noop.verdict
    path = str(case.path)
    shown = dict(reference=f"{rv.outcome.value}/{rv.category.value}", noop=f"{nv.outcome.value}/{nv.category.value}")
    for name, v in (("reference", rv), ("noop", nv)):
        if v.outcome is Outcome.ERROR:
            return BugCheck(path, bug.id, "rejected", f"harness error on {name}: {v.summary}", **shown)
    if rv.outcome is Outcome.FAILED:
        return BugCheck(path, bug.id, "rejected", f"reference fails: [{rv.category.value}] {rv.summary}", **shown)
    if case.domain in STRONG_CHECKED and (strong := _strong_problem(ref)):
        return BugCheck(path, bug.id, "rejected", strong, **shown)
    if nv.outcome is Outcome.PASSED:
        return BugCheck(path, bug.id, "rejected", "bug not observable: the buggy version passes", **shown)
    if nv.outcome is Outcome.SKIPPED:
        if bug.bucket == "compile_error" and nv.metrics.get("build") == "passed":
            return BugCheck(path, bug.id, "rejected", "compile_error start does not fail to build: it builds here "
                            "(its failure shows only when run, or its label is wrong)", **shown)
        # e.g. a cuda start that builds: its runtime failure needs a device this machine does not have
        said = "needs a GPU" if nv.metrics.get("build") == "passed" else "not checked here"
        return BugCheck(path, bug.id, "unverified", f"{said}: {nv.summary}", **shown)
    if rv.outcome is Outcome.SKIPPED and nv.outcome is Outcome.FAILED and nv.category.value != "compile_fail":
        return BugCheck(path, bug.id, "unverified", f"reference runtime not checked here: {rv.summary}", **shown)
    if problem := _category_problem(case, bug, nv.category.value, noop):
        return BugCheck(path, bug.id, "rejected", problem, **shown)
    return BugCheck(path, bug.id, "accepted", **shown)


# Domains whose reference must also pass its own strong oracle (a cuda one runs only on a CUDA device; without
# one its record is undecided, never a problem).
STRONG_CHECKED = frozenset({"hls", "cuda"})


def _strong_problem(ref: SampleResult) -> str:
    """The golden design must pass its own strong oracle (an ERROR there is a broken case)."""
    strong = ref.verdict.metrics.get("strong")
    if not isinstance(strong, dict) or strong.get("outcome") not in (Outcome.FAILED.value, Outcome.ERROR.value):
        return ""
    return f"reference fails the strong oracle: [{strong.get('outcome')}] {strong.get('summary', '')}"


def _category_problem(case: Case, bug: Bug, category: str, noop: SampleResult) -> str:
    if case.repo is not None:  # every F2P test fails and every P2P test passes on the snapshot
        return snapshot_problem(case, bug.id, noop.verdict)
    strong = noop.records[-1].metrics.get("strong") if noop.records else None
    return domain_of(case.domain).validation_problem(bug, category, strong if isinstance(strong, dict) else None)


def validate(paths: list[Path], *, sandbox: Sandbox, cache_dir: Path, jobs: int,
             options: OracleOptions | dict[str, Any] | None = None, strict: bool = False,
             on_check: Callable[[BugCheck, int, int], None] | None = None) -> list[BugCheck]:
    """Run reference and noop on every bug under the paths; one BugCheck per bug or broken case file, in case order.
    `on_check(check, done, total)` is called as each check ends, so a caller can show progress and keep what
    finished when a long validation is stopped."""
    checks: list[BugCheck] = []
    cases: list[Case] = []
    for path in find_case_files(paths):
        try:
            cases.append(load_case(path, strict=strict))
        except CaseError as exc:
            checks.append(BugCheck(str(path), "-", "rejected", f"case file problem: {exc}"))
    with scratch.directory("hwrepair-validate-") as tmp:
        run = RunDir(tmp / "run")
        run.create()
        # precheck off: a start's own build is checked even where its runtime stage cannot run.
        harness = Harness(run, OracleContext(cache_dir, Limits(), OracleOptions.of(options)), precheck=False)
        by_key = {(c.domain, c.suite, c.id): c for c in cases}

        def golden(task: RepairTask) -> dict[str, str]:
            return by_key[(task.domain, task.suite, task.case)].golden_files()

        fixers: tuple[Fixer, Fixer] = (ReferenceFixer(golden), NoopFixer())
        work = [(case, bug) for case in cases for bug in case.bugs]

        def one(item: tuple[Case, Bug]) -> BugCheck:
            case, bug = item
            ref, noop = (execute(Sample.make(case, bug, f.name, f, 0, RepairProtocol.REPEATED, ProtocolConfig()), f,
                                 harness, sandbox) for f in fixers)
            return judge(case, bug, ref, noop)

        total = len(checks) + len(work)
        if on_check is not None:
            for done, check in enumerate(checks, 1):
                on_check(check, done, total)
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            futures = [pool.submit(one, item) for item in work]
            if on_check is not None:
                for done, future in enumerate(as_completed(futures), len(checks) + 1):
                    on_check(future.result(), done, total)
            checks += [future.result() for future in futures]
    return checks


def report_lines(checks: list[BugCheck]) -> list[str]:
    """Each rejected bug with its reason, then the counts and the rejection breakdown."""
    lines = [f"REJECTED {c.path} [{c.bug}] {c.reason}" for c in checks if c.status == "rejected"]
    lines += [f"unverified {c.path} [{c.bug}] {c.reason}" for c in checks if c.status == "unverified"]
    status = Counter(c.status for c in checks)
    reasons = Counter(c.reason.split(":")[0] for c in checks if c.status == "rejected")
    cases = len({c.path for c in checks})
    lines.append(f"{cases} case files, {len(checks)} bugs: {status.get('accepted', 0)} accepted, "
                 f"{status.get('rejected', 0)} rejected, {status.get('unverified', 0)} unverified here")
    return lines + [f"  rejected - {reason}: {count}" for reason, count in sorted(reasons.items())]
