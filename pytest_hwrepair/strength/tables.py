"""Oracle-strength tables from judged mutants: per case and per suite, as text, markdown and JSON.

Scores count over the mutants that built and were not shown equivalent: the *weak* score is the
share the suite oracle kills, the *strong* score the share the suite and the strong oracle kill
together (a candidate is correct only when it passes both). Undecided mutants count as not killed.
"""

from __future__ import annotations

import json
import math
import statistics
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from .mutants import MutantResult, MutantStatus

S = MutantStatus


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
    out.append(equivalence_line(results))
    left = [r for r in results if r.status in (S.SURVIVED, S.UNDECIDED)]
    if left:
        out += ["", "| case | mutant | status | strong verdict |", "|---|---|---|---|"]
        out += [f"| {r.domain}/{r.suite}/{r.design} | {_cell(r.mutation)} | {r.status.value} | "
                f"{_cell(r.strong_verdict)} |" for r in left]
    return "\n".join(out)


def equivalence_line(results: Sequence[MutantResult]) -> str:
    """How the mutants counted as equivalent were shown so, by method."""
    methods = Counter(r.equivalence.split(":")[0] for r in results if r.status is S.EQUIVALENT)
    shown = ", ".join(f"{n} {how}" for how, n in sorted(methods.items())) or "none"
    return f"Shown equivalent: {shown}. No mutant survives both oracles or stays undecided." if not any(
        r.status in (S.SURVIVED, S.UNDECIDED) for r in results) else f"Shown equivalent: {shown}."


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


__all__ = ["Strength", "by_case", "by_suite", "load", "markdown", "save", "strength", "strong_costs", "text_lines"]
