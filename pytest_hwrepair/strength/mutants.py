"""Oracle strength: single-edit mutants of each golden target, judged by the suite and the strong oracle.

Each mutant is one edit of the operator library (`mutate.MUTANT_OPERATORS`: operator swap, constant
±1, bound off-by-one, shift direction, index ±1, bit select, statement deletion) in a seeded
order. A mutant that does not build (compile or lint failure) is *not built* and leaves the
counts; one the suite oracle rejects is *killed by the suite*; one that passes the suite oracle
goes to the strong oracle, which kills it, cannot decide (*undecided*), or lets it pass. A mutant
that passes both is *shown equivalent* when that can be said mechanically — the strong oracle
proved it (rtl Tier F: PROVED) or its target compiles to the golden target's assembly at -O2 (C) —
and *survives* otherwise.
"""

from __future__ import annotations

import enum
import shlex
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any

from ..cases.case import Case
from ..oracles import OracleContext, make_oracle, make_strong_oracle
from ..oracles.base import populate, remove_tree
from ..run.runner import guarded
from ..sandbox.base import Sandbox
from ..verdict import Category, Outcome, Verdict
from .mutate import Edit, Language, mutants
from .notes import NOTES as NOTES_FILE
from .notes import load_equivalences, position

NOT_BUILT = (Category.COMPILE_FAIL, Category.LINT_FAIL, Category.PARSE_FAIL)
ASM_FLAGS = ("-D", "-I", "-U", "-std=", "-include")
_ASM_NOISE = (".file", ".ident", ".section\t.note.GNU-stack")


class MutantStatus(enum.StrEnum):
    """What became of one mutant."""

    NOT_BUILT = "not_built"
    KILLED_SUITE = "killed_suite"
    KILLED_STRONG = "killed_strong"
    UNDECIDED = "undecided"
    EQUIVALENT = "equivalent"
    SURVIVED = "survived"
    SKIPPED = "skipped"
    ERROR = "error"


@dataclass(frozen=True, slots=True)
class Mutant:
    """One single-edit mutant of a case's golden target."""

    index: int
    edit: Edit
    text: str
    where: str


@dataclass(frozen=True, slots=True)
class MutantResult:
    """A judged mutant: its status, the two verdicts in one line each, how it was shown equivalent."""

    case: str
    domain: str
    suite: str
    design: str
    index: int
    mutation: str
    status: MutantStatus
    suite_verdict: str
    strong_verdict: str = ""
    equivalence: str = ""
    strong_s: float | None = None
    edit: dict[str, Any] = field(default_factory=dict)
    at: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"case": self.case, "domain": self.domain, "suite": self.suite, "design": self.design,
                "index": self.index, "at": self.at, "mutation": self.mutation, "status": self.status.value,
                "suite_verdict": self.suite_verdict, "strong_verdict": self.strong_verdict,
                "equivalence": self.equivalence, "strong_s": self.strong_s, "edit": self.edit}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MutantResult:
        return cls(case=str(data["case"]), domain=str(data["domain"]), suite=str(data["suite"]),
                   design=str(data["design"]), index=int(data["index"]), mutation=str(data["mutation"]),
                   status=MutantStatus(data["status"]), suite_verdict=str(data.get("suite_verdict", "")),
                   strong_verdict=str(data.get("strong_verdict", "")), equivalence=str(data.get("equivalence", "")),
                   strong_s=data.get("strong_s"), edit=dict(data.get("edit") or {}), at=str(data.get("at", "")))


def case_mutants(case: Case, count: int, seed: int) -> list[Mutant]:
    """Up to `count` single-edit mutants of the golden target, in the seeded order."""
    text = case.files[case.target]
    language = Language.of(case.target)
    return [Mutant(i, edit, edit.apply(text), edit.describe(text))
            for i, edit in enumerate(mutants(text, language, count, seed))]


def _short(verdict: Verdict) -> str:
    return f"{verdict.outcome.value}/{verdict.category.value}: {verdict.summary[:200]}"


class MutantJudge:
    """Judges the mutants of one case with its suite and strong oracles."""

    def __init__(self, case: Case, ctx: OracleContext, sandbox: Sandbox) -> None:
        self.case, self.ctx, self.sandbox = case, ctx, sandbox
        self.notes = load_equivalences(case)

    def judge(self, mutant: Mutant) -> MutantResult:
        files = {**self.case.golden_files(), self.case.target: mutant.text}
        suite = self._in_workspace(files, lambda ws: make_oracle(self.case, self.ctx).check(ws, self.sandbox))
        c = self.case
        result = MutantResult(case=str(c.path), domain=c.domain, suite=c.suite, design=c.id, index=mutant.index,
                              mutation=mutant.where, status=_status_of_suite(suite), suite_verdict=_short(suite),
                              edit=mutant.edit.to_json(), at=position(mutant.edit, c.files[c.target]))
        if result.status is not MutantStatus.SURVIVED:
            return result
        return self._strong(mutant, files, result)

    def _strong(self, mutant: Mutant, files: dict[str, str], passed: MutantResult) -> MutantResult:
        made = make_strong_oracle(self.case, self.ctx)
        if made is None:
            return self._equivalent(mutant, passed)
        kind, oracle = made
        start = time.monotonic()
        verdict = self._in_workspace(files, lambda ws: oracle.check(ws, self.sandbox))
        seconds = round(time.monotonic() - start, 3)
        judged = replace(passed, strong_verdict=_short(verdict), strong_s=seconds)
        if verdict.outcome is Outcome.ERROR:
            return replace(judged, status=MutantStatus.ERROR)
        decided = kind.decide(verdict) if verdict.outcome in (Outcome.PASSED, Outcome.FAILED) else None
        if decided is None:
            undecided = replace(judged, status=MutantStatus.UNDECIDED)
            return self._by_hand(mutant, undecided) or undecided
        if not decided:
            return replace(judged, status=MutantStatus.KILLED_STRONG)
        if verdict.metrics.get("equiv") == "PROVED":
            return replace(judged, status=MutantStatus.EQUIVALENT,
                           equivalence="yosys equivalence proof (Tier F PROVED)")
        return self._equivalent(mutant, judged)

    def _equivalent(self, mutant: Mutant, survived: MutantResult) -> MutantResult:
        """A survivor is shown equivalent by identical -O2 assembly (C), else by a maintainer's argument."""
        if Language.of(self.case.target) is not Language.VERILOG:
            golden = self.golden_asm
            if golden and golden == self.assembly(mutant.text):
                return replace(survived, status=MutantStatus.EQUIVALENT,
                               equivalence="identical -O2 assembly of the target")
        return self._by_hand(mutant, survived) or survived

    def _by_hand(self, mutant: Mutant, result: MutantResult) -> MutantResult | None:
        """The result shown equivalent by the case's mutants.toml, or None without an argument for it."""
        reason = self.notes.reason(mutant.edit, self.case.files[self.case.target])
        if reason is None:
            return None
        return replace(result, status=MutantStatus.EQUIVALENT, equivalence=f"by hand ({NOTES_FILE}): {reason}")

    @cached_property
    def golden_asm(self) -> str:
        return self.assembly(self.case.files[self.case.target])

    def assembly(self, text: str) -> str:
        """The target's assembly at -O2 with the suite build's defines and includes ('' when it fails)."""
        argv = asm_command(self.case)
        if argv is None:
            return ""
        files = {**self.case.golden_files(), self.case.target: text}

        def compile_(ws: Path) -> Verdict:
            ex = self.sandbox.run(ws, argv, timeout=60, limits=self.ctx.limits)
            if not ex.ok:
                return Verdict.fail(Category.COMPILE_FAIL, "")
            return Verdict.ok(strip_asm((ws / "hwrepair-mutant.s").read_text(encoding="utf-8", errors="replace")))

        verdict = self._in_workspace(files, compile_)
        return verdict.summary if verdict.passed else ""

    def _in_workspace(self, files: dict[str, str], check: Callable[[Path], Verdict]) -> Verdict:
        ws = Path(tempfile.mkdtemp(prefix="hwrepair-mutant-"))
        try:
            populate(ws, self.case, files)
            return guarded(lambda: check(ws))
        finally:
            remove_tree(ws)


def _status_of_suite(verdict: Verdict) -> MutantStatus:
    if verdict.outcome is Outcome.ERROR:
        return MutantStatus.ERROR
    if verdict.outcome is Outcome.SKIPPED:
        return MutantStatus.SKIPPED
    if verdict.passed:
        return MutantStatus.SURVIVED
    return MutantStatus.NOT_BUILT if verdict.category in NOT_BUILT else MutantStatus.KILLED_SUITE


def asm_command(case: Case) -> str | None:
    """`gcc -O2 -S` of the target with the suite build's -D/-I/-std flags; None without a C build."""
    build = getattr(case.oracle, "build", None)
    if not isinstance(build, str) or not case.target.endswith(".c"):
        return None
    words = shlex.split(build)
    if not words or Path(words[0]).name.split("-")[0] not in ("gcc", "cc", "clang"):
        return None
    flags = [w for w in words[1:] if w.startswith(ASM_FLAGS)]
    return shlex.join([words[0], "-O2", "-S", "-w", *flags, case.target, "-o", "hwrepair-mutant.s"])


def strip_asm(text: str) -> str:
    """Assembly without the lines that name the file or the compiler."""
    return "\n".join(line for line in text.splitlines() if not line.strip().startswith(_ASM_NOISE))


def analyse(cases: list[Case], *, count: int, seed: int, ctx: OracleContext, sandbox: Sandbox, jobs: int,
            progress: Callable[[str], None] | None = None) -> list[MutantResult]:
    """Every case's mutants judged, in case order then mutant order."""
    results: list[MutantResult] = []
    for case in cases:
        judge = MutantJudge(case, ctx, sandbox)
        for line in judge.notes.stale:
            if progress is not None:
                progress(f"stale: {line}")
        found = case_mutants(case, count, seed)
        start = time.monotonic()
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            done = list(pool.map(judge.judge, found))
        results += done
        if progress is not None:
            progress(_progress_line(case, done, time.monotonic() - start))
    return results


def _progress_line(case: Case, done: list[MutantResult], seconds: float) -> str:
    counts = {s: sum(r.status is s for r in done) for s in MutantStatus}
    shown = ", ".join(f"{s.value} {n}" for s, n in counts.items() if n)
    return f"{case.domain}/{case.suite}/{case.id}: {len(done)} mutants ({shown or 'none'}) in {seconds:.1f}s"


__all__ = ["Mutant", "MutantJudge", "MutantResult", "MutantStatus", "analyse", "asm_command", "case_mutants",
           "strip_asm"]
