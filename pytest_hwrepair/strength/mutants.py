"""Oracle strength (docs/oracles.md): seeded single-edit mutants of each golden target, judged by the suite
oracle and, when they pass it, the strong oracle. Scores count over the mutants that built and were not shown
equivalent (Tier F proof, identical -O2 assembly, or a maintainer's argument in `mutants.toml`); undecided
mutants count as not killed.
"""

from __future__ import annotations

import argparse
import enum
import json
import math
import shlex
import statistics
import sys
import tempfile
import time
import tomllib
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..cases.case import Case, find_case_files
from ..cases.load import load_case
from ..oracles import OracleContext, OracleOptions, make_oracle, make_strong_oracle
from ..oracles.base import populate, remove_tree
from ..run.runner import guarded
from ..sandbox.base import Limits, Sandbox
from ..verdict import CaseError, Category, Outcome, Verdict
from .mutate import Edit, Language, mutants

NOT_BUILT = (Category.COMPILE_FAIL, Category.LINT_FAIL, Category.PARSE_FAIL)
ASM_FLAGS = ("-D", "-I", "-U", "-std=", "-include")
_ASM_NOISE = (".file", ".ident", ".section\t.note.GNU-stack")  # lines that name the file or the compiler
NOTES = "mutants.toml"
MAX_MUTANTS = 10_000


class MutantStatus(enum.StrEnum):
    NOT_BUILT = "not_built"
    KILLED_SUITE = "killed_suite"
    KILLED_STRONG = "killed_strong"
    UNDECIDED = "undecided"
    EQUIVALENT = "equivalent"
    SURVIVED = "survived"
    SKIPPED = "skipped"
    ERROR = "error"


S = MutantStatus


@dataclass(frozen=True, slots=True)
class Mutant:
    index: int
    edit: Edit
    text: str
    where: str


@dataclass(frozen=True, slots=True, kw_only=True)
class MutantResult:
    """A judged mutant: its status, the two verdicts in one line each, how it was shown equivalent."""

    case: str
    domain: str
    suite: str
    design: str
    index: int
    at: str = ""
    mutation: str
    status: MutantStatus
    suite_verdict: str
    strong_verdict: str = ""
    equivalence: str = ""
    strong_s: float | None = None
    edit: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "status": self.status.value}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MutantResult:
        return cls(case=str(data["case"]), domain=str(data["domain"]), suite=str(data["suite"]),
                   design=str(data["design"]), index=int(data["index"]), mutation=str(data["mutation"]),
                   status=MutantStatus(data["status"]), suite_verdict=str(data.get("suite_verdict", "")),
                   strong_verdict=str(data.get("strong_verdict", "")), equivalence=str(data.get("equivalence", "")),
                   strong_s=data.get("strong_s"), edit=dict(data.get("edit") or {}), at=str(data.get("at", "")))


class _Entry(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    at: str = Field(pattern=r"^[1-9][0-9]*:[1-9][0-9]*$")
    old: str  # empty for an insertion
    new: str
    reason: str = Field(min_length=10)


class _Notes(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    equivalent: list[_Entry] = []


@dataclass(frozen=True, slots=True)
class Equivalences:
    """The hand-made equivalence arguments of one case, keyed by where and what the edit is."""

    reasons: dict[tuple[str, str, str], str]
    stale: tuple[str, ...] = ()

    def reason(self, edit: Edit, text: str) -> str | None:
        return self.reasons.get((position(edit, text), edit.old, edit.new))


def position(edit: Edit, text: str) -> str:
    """`line:column` (1-based) of an edit in the text it applies to."""
    column = edit.offset - (text.rfind("\n", 0, edit.offset) + 1) + 1
    return f"{edit.line(text)}:{column}"


def load_equivalences(case: Case) -> Equivalences:
    """The case's `mutants.toml`: a maintainer's argument for each mutant that cannot be shown mechanically.

        [[equivalent]]
        at = "42:17"          # line:column (1-based) of the edit in the golden target
        old = "<"
        new = "<="
        reason = "i never reaches n here: the loop above stops at n - 1"

    An entry matches only while the golden target still holds `old` there; one that does not is reported as
    stale. No file: no arguments; CaseError with one line for a bad file.
    """
    path = case.root / NOTES
    if not path.is_file():
        return Equivalences({})
    try:
        notes = _Notes.model_validate(tomllib.loads(path.read_text(encoding="utf-8")))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise CaseError(f"{path}: TOML syntax: {exc}") from None
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise CaseError(f"{path}: {where}: {first['msg']}") from None
    text = case.files[case.target]
    reasons: dict[tuple[str, str, str], str] = {}
    stale: list[str] = []
    for entry in notes.equivalent:
        if _holds(text, entry):
            reasons[(entry.at, entry.old, entry.new)] = entry.reason
        else:
            stale.append(f"{path}: equivalent at {entry.at}: the target no longer has {entry.old!r} there")
    return Equivalences(reasons, tuple(stale))


def _holds(text: str, entry: _Entry) -> bool:
    line, column = (int(part) for part in entry.at.split(":"))
    lines = text.split("\n")
    if line > len(lines) or column > len(lines[line - 1]) + 1:
        return False
    offset = sum(len(row) + 1 for row in lines[:line - 1]) + column - 1
    return text.startswith(entry.old, offset)


def case_mutants(case: Case, count: int, seed: int) -> list[Mutant]:
    """Up to `count` single-edit mutants of the golden target, in the seeded order."""
    text = case.files[case.target]
    return [Mutant(i, edit, edit.apply(text), edit.describe(text))
            for i, edit in enumerate(mutants(text, Language.of(case.target), count, seed))]


def _short(verdict: Verdict) -> str:
    return f"{verdict.outcome.value}/{verdict.category.value}: {verdict.summary[:200]}"


class MutantJudge:
    def __init__(self, case: Case, ctx: OracleContext, sandbox: Sandbox) -> None:
        self.case, self.ctx, self.sandbox = case, ctx, sandbox
        self.notes = load_equivalences(case)

    def judge(self, mutant: Mutant) -> MutantResult:
        c = self.case
        files = {**c.golden_files(), c.target: mutant.text}
        suite = self._in_workspace(files, lambda ws: make_oracle(c, self.ctx).check(ws, self.sandbox))
        result = MutantResult(case=str(c.path), domain=c.domain, suite=c.suite, design=c.id, index=mutant.index,
                              mutation=mutant.where, status=_status_of_suite(suite), suite_verdict=_short(suite),
                              edit=mutant.edit.to_json(), at=position(mutant.edit, c.files[c.target]))
        return self._strong(mutant, files, result) if result.status is S.SURVIVED else result

    def _strong(self, mutant: Mutant, files: dict[str, str], passed: MutantResult) -> MutantResult:
        if (made := make_strong_oracle(self.case, self.ctx)) is None:
            return self._equivalent(mutant, passed)
        kind, oracle = made
        start = time.monotonic()
        verdict = self._in_workspace(files, lambda ws: oracle.check(ws, self.sandbox))
        judged = replace(passed, strong_verdict=_short(verdict), strong_s=round(time.monotonic() - start, 3))
        if verdict.outcome is Outcome.ERROR:
            return replace(judged, status=S.ERROR)
        decided = kind.decide(verdict) if verdict.outcome in (Outcome.PASSED, Outcome.FAILED) else None
        if decided is None:
            undecided = replace(judged, status=S.UNDECIDED)
            return self._by_hand(mutant, undecided) or undecided
        if not decided:
            return replace(judged, status=S.KILLED_STRONG)
        if verdict.metrics.get("equiv") == "PROVED":
            return replace(judged, status=S.EQUIVALENT, equivalence="yosys equivalence proof (Tier F PROVED)")
        return self._equivalent(mutant, judged)

    def _equivalent(self, mutant: Mutant, survived: MutantResult) -> MutantResult:
        """A survivor is shown equivalent by identical -O2 assembly (C), else by a maintainer's argument."""
        if Language.of(self.case.target) is not Language.VERILOG and self.golden_asm \
                and self.golden_asm == self.assembly(mutant.text):
            return replace(survived, status=S.EQUIVALENT, equivalence="identical -O2 assembly of the target")
        return self._by_hand(mutant, survived) or survived

    def _by_hand(self, mutant: Mutant, result: MutantResult) -> MutantResult | None:
        reason = self.notes.reason(mutant.edit, self.case.files[self.case.target])
        return None if reason is None else replace(result, status=S.EQUIVALENT,
                                                   equivalence=f"by hand ({NOTES}): {reason}")

    @cached_property
    def golden_asm(self) -> str:
        return self.assembly(self.case.files[self.case.target])

    def assembly(self, text: str) -> str:
        """The target's assembly at -O2 with the suite build's defines and includes ('' when it fails)."""
        if (argv := asm_command(self.case)) is None:
            return ""

        def compile_(ws: Path) -> Verdict:
            if not self.sandbox.run(ws, argv, timeout=60, limits=self.ctx.limits).ok:
                return Verdict.fail(Category.COMPILE_FAIL, "")
            asm = (ws / "hwrepair-mutant.s").read_text(encoding="utf-8", errors="replace").splitlines()
            return Verdict.ok("\n".join(line for line in asm if not line.strip().startswith(_ASM_NOISE)))

        verdict = self._in_workspace({**self.case.golden_files(), self.case.target: text}, compile_)
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
        return S.ERROR
    if verdict.outcome is Outcome.SKIPPED:
        return S.SKIPPED
    if verdict.passed:
        return S.SURVIVED
    return S.NOT_BUILT if verdict.category in NOT_BUILT else S.KILLED_SUITE


def asm_command(case: Case) -> str | None:
    """`gcc -O2 -S` of the target with the suite build's -D/-I/-std flags; None without a C build."""
    build = getattr(case.oracle, "build", None)
    if not isinstance(build, str) or not case.target.endswith(".c"):
        return None
    if not (words := shlex.split(build)) or Path(words[0]).name.split("-")[0] not in ("gcc", "cc", "clang"):
        return None
    flags = [w for w in words[1:] if w.startswith(ASM_FLAGS)]
    return shlex.join([words[0], "-O2", "-S", "-w", *flags, case.target, "-o", "hwrepair-mutant.s"])


def analyse(cases: list[Case], *, count: int, seed: int, ctx: OracleContext, sandbox: Sandbox, jobs: int,
            progress: Callable[[str], None]) -> list[MutantResult]:
    """Every case's mutants judged, in case order then mutant order."""
    results: list[MutantResult] = []
    for case in cases:
        judge = MutantJudge(case, ctx, sandbox)
        for line in judge.notes.stale:
            progress(f"stale: {line}")
        found = case_mutants(case, count, seed)
        start = time.monotonic()
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            done = list(pool.map(judge.judge, found))
        results += done
        shown = ", ".join(f"{s.value} {n}" for s in MutantStatus if (n := sum(r.status is s for r in done)))
        progress(f"{case.domain}/{case.suite}/{case.id}: {len(done)} mutants ({shown or 'none'}) "
                 f"in {time.monotonic() - start:.1f}s")
    return results


@dataclass(frozen=True, slots=True)
class Strength:
    """The counts of one group of mutants (a case or a suite)."""

    group: str
    mutants: int
    built: int
    killed_suite: int
    killed_strong: int
    undecided: int
    equivalent: int
    survived: int
    skipped: int
    errors: int

    @property
    def judged(self) -> int:
        """Built and not shown equivalent: the scores' denominator."""
        return self.built - self.equivalent

    @property
    def weak(self) -> float | None:
        return self.killed_suite / self.judged if self.judged else None

    @property
    def strong(self) -> float | None:
        return (self.killed_suite + self.killed_strong) / self.judged if self.judged else None

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "weak_score": _r(self.weak), "strong_score": _r(self.strong)}


def strength(group: str, results: Sequence[MutantResult]) -> Strength:
    n = {s: sum(r.status is s for r in results) for s in MutantStatus}
    built = n[S.KILLED_SUITE] + n[S.KILLED_STRONG] + n[S.UNDECIDED] + n[S.EQUIVALENT] + n[S.SURVIVED]
    return Strength(group, len(results), built, n[S.KILLED_SUITE], n[S.KILLED_STRONG], n[S.UNDECIDED],
                    n[S.EQUIVALENT], n[S.SURVIVED], n[S.SKIPPED], n[S.ERROR])


def _grouped(results: Iterable[MutantResult], group: Callable[[MutantResult], str]) -> list[Strength]:
    groups: dict[str, list[MutantResult]] = defaultdict(list)
    for r in results:
        groups[group(r)].append(r)
    return [strength(name, rs) for name, rs in sorted(groups.items())]


def by_case(results: Iterable[MutantResult]) -> list[Strength]:
    return _grouped(results, lambda r: f"{r.domain}/{r.suite}/{r.design}")


def by_suite(results: Iterable[MutantResult]) -> list[Strength]:
    return _grouped(results, lambda r: f"{r.domain}/{r.suite}")


def strong_costs(results: Iterable[MutantResult]) -> dict[str, float | int | None]:
    """Seconds of strong-oracle checking per candidate it ran on: count, median, 90th percentile."""
    values = sorted(r.strong_s for r in results if r.strong_s is not None)
    if not values:
        return {"checked": 0, "median_s": None, "p90_s": None}
    p90 = values[max(0, math.ceil(0.9 * len(values)) - 1)]  # nearest rank
    return {"checked": len(values), "median_s": round(statistics.median(values), 3), "p90_s": round(p90, 3)}


def _r(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f} %"


HEADERS = ("mutants", "built", "killed by suite", "killed by strong", "undecided", "shown equivalent",
           "surviving both", "weak score", "strong score")


def _cells(s: Strength) -> list[str]:
    return [str(v) for v in (s.mutants, s.built, s.killed_suite, s.killed_strong, s.undecided, s.equivalent,
                             s.survived)] + [_pct(s.weak), _pct(s.strong)]


def markdown(results: Sequence[MutantResult]) -> str:
    """The suite table, the case table and the survivors, for a corpus README."""
    out: list[str] = []
    for title, rows in (("suite", by_suite(results)), ("case", by_case(results))):
        out += [f"| {title} | " + " | ".join(HEADERS) + " |", "|---|" + "---:|" * len(HEADERS)]
        out += [f"| {s.group} | " + " | ".join(_cells(s)) + " |" for s in rows] + [""]
    methods = Counter(r.equivalence.split(":")[0] for r in results if r.status is S.EQUIVALENT)
    shown = ", ".join(f"{n} {how}" for how, n in sorted(methods.items())) or "none"
    left = [r for r in results if r.status in (S.SURVIVED, S.UNDECIDED)]
    none_left = "" if left else " No mutant survives both oracles or stays undecided."
    out.append(f"Shown equivalent: {shown}.{none_left}")
    if left:
        out += ["", "| case | mutant | status | strong verdict |", "|---|---|---|---|"]
        out += [f"| {r.domain}/{r.suite}/{r.design} | {_cell(r.mutation)} | {r.status.value} | "
                f"{_cell(r.strong_verdict)} |" for r in left]
    return "\n".join(out)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")[:160]


def text_lines(results: Sequence[MutantResult]) -> list[str]:
    """What `hwrepair validate --mutants` prints: survivors, then the per-suite and per-case tables."""
    lines = [f"{r.status.value.upper()} {r.case} #{r.index} {r.mutation}: {r.equivalence or r.strong_verdict}"
             for r in results if r.status in (S.SURVIVED, S.UNDECIDED, S.ERROR)]
    for title, rows in (("per suite", by_suite(results)), ("per case", by_case(results))):
        lines += ["", f"oracle strength {title}:", "  ".join(("group".ljust(28), *HEADERS))]
        lines += ["  ".join((s.group.ljust(28), *(c.rjust(len(h)) for c, h in zip(_cells(s), HEADERS))))
                  for s in rows]
    cost = strong_costs(results)
    lines.append(f"\nstrong check per candidate: {cost['checked']} checked, median {cost['median_s']} s, "
                 f"p90 {cost['p90_s']} s")
    return lines


def save(path: Path, results: Sequence[MutantResult], meta: dict[str, Any]) -> None:
    """The results file `hwrepair stats --mutants` reads."""
    body = {**meta, "suites": [s.to_json() for s in by_suite(results)], "strong_cost": strong_costs(results),
            "results": [r.to_json() for r in results]}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(body, indent=1) + "\n", encoding="utf-8")


def load(path: Path) -> tuple[list[MutantResult], dict[str, Any]]:
    """The results and the run's description from a results file; ValueError for a file that is not one."""
    try:
        body = json.loads(path.read_text(encoding="utf-8"))
        results = [MutantResult.from_json(r) for r in body["results"]]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"{path}: not a mutant results file ({type(exc).__name__}: {exc})") from None
    return results, {k: v for k, v in body.items() if k not in ("results", "suites")}


def run_mutants(ns: argparse.Namespace, sandbox: Sandbox, options: OracleOptions) -> int:
    """`hwrepair validate --mutants N`: judge N mutants of every case under the paths, print the tables and
    write the results file."""
    if not 0 <= ns.mutants <= MAX_MUTANTS:
        print(f"hwrepair validate: --mutants {ns.mutants}: give a count from 0 (only the special-casing mutants) "
              f"to {MAX_MUTANTS}", file=sys.stderr)
        return 2
    for path in ns.paths:
        if not path.exists():
            raise FileNotFoundError(f"{path}: no such file or directory")
    cases = [load_case(p, strict=True) for p in find_case_files(ns.paths)]
    ctx = OracleContext(Path(ns.cache_dir), Limits(), options)
    start = time.monotonic()
    results = analyse(cases, count=ns.mutants, seed=ns.mutant_seed, ctx=ctx, sandbox=sandbox, jobs=ns.jobs,
                      progress=lambda line: print(line, flush=True))
    seconds = round(time.monotonic() - start, 1)
    print(*text_lines(results), sep="\n")
    command = "hwrepair validate --mutants {} --mutant-seed {} {}".format(
        ns.mutants, ns.mutant_seed, " ".join(shlex.quote(str(p)) for p in ns.paths))
    save(ns.mutants_out, results, {"command": command, "mutants": ns.mutants, "seed": ns.mutant_seed,
                                   "cases": len(cases), "seconds": seconds, "jobs": ns.jobs})
    print(f"{len(results)} mutants of {len(cases)} cases judged in {seconds:.1f}s with {ns.jobs} jobs; "
          f"results in {ns.mutants_out}")
    return 1 if any(r.status is S.ERROR for r in results) else 0


def mutant_stats(ns: argparse.Namespace, update: Callable[[Path, str, str, str], int]) -> int:
    """`hwrepair stats --mutants RESULTS`: the tables of a results file, restricted to the cases under the paths."""
    wanted = {name for p in find_case_files(ns.paths) for name in (str(p), str(p.resolve()))}
    kept: dict[str, tuple[int, list[MutantResult]]] = {}
    metas: list[dict[str, object]] = []
    for run, path in enumerate(ns.mutants):
        try:
            results, meta = load(path)
        except ValueError as exc:
            raise FileNotFoundError(str(exc)) from None
        metas.append(meta)
        for case in {r.case for r in results if r.case in wanted or str(Path(r.case).resolve()) in wanted}:
            kept[case] = (run, [r for r in results if r.case == case])  # a later run of a case replaces it
    chosen = [r for case in sorted(kept) for r in kept[case][1]]
    runs = [metas[run] for run in sorted({run for run, _ in kept.values()})]
    made = "; ".join(f"`{m.get('command', 'hwrepair validate --mutants')}` ({m.get('seconds', '?')} s with "
                     f"{m.get('jobs', '?')} jobs)" for m in runs)
    text = f"Results of {made or 'no run'}; {len(chosen)} mutants here.\n\n{markdown(chosen)}\n"
    if ns.update is None:
        print(text)
        return 0
    files = " ".join(str(p) for p in ns.mutants)
    command = f"hwrepair stats {' '.join(str(p) for p in ns.paths)} --mutants {files} --update {ns.update}"
    return update(ns.update, text, command, "mutants")

