"""`search`: an offline generate-and-validate repair baseline (GenProg / CirFix tradition, written here).

It localises the fault from what a developer observes (coverage of the failing run, the failure's
log, the differing RTL output), ranks single edits from the benchmark's bug taxonomies, validates
them with the suite oracle through the harness's probe, and stacks improving edits when no single
one passes. It never sees the case, its golden files or the strong oracle. Samples differ by seed;
the same seed gives the same patch. The seconds budget counts CPU seconds, so a busy machine makes a
search slower, not different (unless the wall-clock safety net of 5x the budget cuts it short).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ...settings import Settings
from ...strength.mutate import Op, parse_operators
from ..base import Candidate, FixerError, FixerUnavailable, ProbeFactory, RepairTask
from .run import Budget, ProbeFailure, SearchResult, SearchRun

VERSION = 2  # part of the sample key: a changed search gives new keys


@dataclass(frozen=True)
class SearchOptions:
    """Budget per sample (candidates, CPU seconds), operator families, and whether edits are stacked."""

    budget: int = 200
    seconds: float = 180.0
    operators: tuple[Op, ...] | None = None
    climb: bool = True

    def config(self) -> dict[str, Any]:
        return {"fixer": "search", "version": VERSION, "budget": self.budget, "seconds": self.seconds,
                "operators": [op.value for op in self.operators] if self.operators else "all",
                "climb": self.climb}


def parse_options(arg: str | None, settings: Settings) -> SearchOptions:
    """`--hwrepair-search-*` settings, overridden by `--fixer=search:budget=N,seconds=S,operators=a+b,climb=no`."""
    values: dict[str, str] = {"budget": str(settings.search_budget), "seconds": str(settings.search_seconds),
                              "operators": settings.search_operators or "", "climb": str(not settings.search_no_climb)}
    for part in (arg or "").split(","):
        if not part.strip():
            continue
        key, sep, value = part.partition("=")
        if not sep or key.strip() not in values:
            raise FixerError(f"--fixer search:{arg}: {part.strip()!r} is not KEY=VALUE with KEY one of "
                             "budget, seconds, operators, climb")
        values[key.strip()] = value.strip()
    where = f"--fixer search:{arg}" if arg else "--hwrepair-search-*"
    try:
        budget, seconds = int(values["budget"]), float(values["seconds"])
        operators = parse_operators(values["operators"].replace("+", ",").split(",")) \
            if values["operators"] else None
    except ValueError as exc:
        raise FixerError(f"{where}: {exc}") from None
    if budget < 1 or seconds <= 0:
        raise FixerError(f"{where}: budget must be at least 1 and seconds above 0 (got {budget}, {seconds:g})")
    climb = values["climb"].lower() not in ("0", "no", "false", "off")
    return SearchOptions(budget, seconds, operators, climb)


class SearchFixer:
    """Generate-and-validate repair with the suite oracle as its only judge."""

    deterministic = False  # seeded: each sample searches in its own order

    def __init__(self, options: SearchOptions, probe: ProbeFactory | None) -> None:
        self.options, self.probe = options, probe
        self.name = "search"
        self.config = options.config()

    def repair(self, task: RepairTask) -> Candidate:
        if self.probe is None:
            raise FixerError("search: the harness gave no suite probe (the search fixer runs under pytest)")
        if not task.source.strip():
            raise FixerUnavailable("search: the task shows no code to edit (input arm 'spec')")
        if task.issue is not None:
            raise FixerUnavailable("search: a repository issue spans many files; the search edits one target file")
        probe = self.probe(task)
        run = SearchRun(task.source, task.target, probe, Budget(self.options.budget, self.options.seconds),
                        task.seed, self.options.operators, self.options.climb)
        try:
            result = run.run()
        except ProbeFailure as exc:
            raise FixerError(f"search: the suite probe could not judge a candidate: {exc}") from None
        log = {"patch": list(result.best.notes), **_metrics(result), "trail": result.trail}
        return Candidate(files={task.target: result.best.text}, raw=summary(result), latency=result.seconds,
                         logs={"search.json": json.dumps(log, indent=1)}, metrics=_metrics(result))


def summary(result: SearchResult) -> str:
    edits = "; ".join(result.best.notes) or "none"
    what = "passes the suite oracle" if result.passed else f"best failing ({result.best.verdict.category.value})"
    return (f"search: {result.evaluated} candidates ({result.syntax_rejected} rejected by the syntax pass, "
            f"{result.full_checks} judged), {result.cpu_seconds:.1f} CPU s, {result.seconds:.1f} s; "
            f"localisation: {result.localisation}; {what}; edits: {edits}")


def _metrics(result: SearchResult) -> dict[str, Any]:
    return {"candidates": result.evaluated, "syntax_rejected": result.syntax_rejected,
            "full_checks": result.full_checks, "cpu_s": round(result.cpu_seconds, 3),
            "wall_s": round(result.seconds, 3), "suite_pass": result.passed, "edits": len(result.best.edits),
            "localisation": result.localisation, "stop": result.stop}
