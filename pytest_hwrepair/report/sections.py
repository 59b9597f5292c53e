"""The report's tables as plain (title, headers, rows) sections, shared by text, markdown, latex and html."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .model import Estimate, Report, TableRow


@dataclass(frozen=True, slots=True)
class Section:
    title: str
    headers: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    note: str = ""


def num(value: float | None, digits: int = 3) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def pval(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3g}"


def est(e: Estimate) -> str:
    """`0.600 [0.300, 0.900]`, or the value alone where no interval exists."""
    if e.value is None:
        return "n/a"
    if e.low is None or e.high is None:
        return num(e.value)
    return f"{num(e.value)} [{num(e.low)}, {num(e.high)}]"


def metric_section(title: str, rows: Sequence[TableRow], keys: Sequence[str], ks: Sequence[int]) -> Section:
    """A table of pass@k and correct@k; a column no row can fill is left out, and the note says why."""
    pass_ks = [k for k in ks if any(r.pass_at[str(k)].value is not None for r in rows)] or list(ks[:1])
    correct_ks = [k for k in ks if any(r.correct_at[str(k)].value is not None for r in rows)]
    headers = (*keys, "bugs", "samples", *[f"pass@{k}" for k in pass_ks], *[f"correct@{k}" for k in correct_ks],
               "plausible", "undecided", "mult", "errors", "skips")
    left = [f"pass@{k} (no bug has {k} samples)" for k in ks if k not in pass_ks]
    if not correct_ks and rows:
        left.append("correct@k (no bug here has a strong oracle)")
    elif len(correct_ks) < len(ks):
        left += [f"correct@{k} (no bug with a strong oracle has {k} samples)" for k in ks if k not in correct_ks]
    cells = tuple((*[r.group.get(k, "") for k in keys], r.bugs, r.samples,
                   *[est(r.pass_at[str(k)]) for k in pass_ks], *[est(r.correct_at[str(k)]) for k in correct_ks],
                   r.plausible, r.undecided, num(r.multiplicity), r.errors, r.skipped) for r in rows)
    return Section(title, tuple(headers), cells,
                   "pass@k and correct@k: mean over bugs [95 % bootstrap interval]; plausible: passed the suite "
                   "oracle, failed the strong one; undecided: passed, no strong verdict (not correct); n/a: some bug "
                   "of the row has n < k, or no bug of the row has a strong oracle"
                   + (f"; left out: {', '.join(left)}" if left else ""))


def stat_sections(report: Report) -> list[Section]:
    """Correlations, class splits and paired fixer tests."""
    out = [Section("Spearman rho of per-bug pass@1", ("fixer", "against", "bugs", "rho", "p", "note"),
                   tuple((c.fixer, c.x, c.n, num(c.rho), pval(c.p), c.note or "") for c in report.correlations))]
    if report.splits:
        out.append(Section("bug-class splits (Mann-Whitney U on per-bug pass@1)",
                           ("fixer", "domain", "class a", "class b", "bugs a", "bugs b", "mean a", "mean b", "U",
                            "p", "note"),
                           tuple((s.fixer, s.domain, s.a, s.b, s.n_a, s.n_b, num(s.mean_a), num(s.mean_b),
                                  num(s.u, 1), pval(s.p), s.note or "") for s in report.splits)))
    if report.paired:
        out.append(Section("fixer pairs on the same bugs (Wilcoxon signed-rank on per-bug pass@1)",
                           ("fixer a", "fixer b", "bugs", "mean a", "mean b", "a better", "b better", "ties", "W",
                            "p", "note"),
                           tuple((p.a, p.b, p.bugs, num(p.mean_a), num(p.mean_b), p.wins_a, p.wins_b, p.ties,
                                  num(p.w, 1), pval(p.p), p.note or "") for p in report.paired)))
    return out


def comparison_sections(report: Report) -> list[Section]:
    cmp = report.comparison
    if cmp is None:
        return []
    axes = tuple((axis, *[values.get(run, "") for run in cmp.runs]) for axis, values in sorted(cmp.axes.items()))
    out = [Section("protocol axes that differ between the runs", ("axis", *cmp.runs), axes,
                   "" if axes else "the runs have the same protocol settings")]
    out.append(Section(f"pass@1 per run over the bugs every run holds ({cmp.bugs} bugs in all runs)",
                       ("fixer", *cmp.runs, "swing Δ"),
                       tuple((s.fixer, *[num(s.scores.get(run)) for run in cmp.runs], num(s.swing))
                             for s in cmp.scores),
                       cmp.note or "swing Δ: best minus worst score of a fixer across runs"))
    out.append(Section("ranking agreement (Kendall tau of fixer scores)", ("run a", "run b", "fixers", "tau", "p",
                                                                           "note"),
                       tuple((r.a, r.b, r.fixers, num(r.tau), pval(r.p), r.note or "") for r in cmp.rankings)))
    return out


def sections(report: Report) -> list[Section]:
    """Every table of the report, in reading order."""
    ks = report.k
    t = report.tables
    return [
        metric_section("by fixer", t.fixers, ("fixer",), ks),
        metric_section("by fixer x domain", t.domains, ("fixer", "domain"), ks),
        metric_section("by fixer x domain x suite x bug type", t.groups, ("fixer", "domain", "suite", "bug_type"), ks),
        metric_section("by fixer x domain x bug class", t.classes, ("fixer", "domain", "bug_class"), ks),
        *stat_sections(report),
        *comparison_sections(report),
    ]


__all__ = ["Section", "est", "metric_section", "num", "pval", "sections"]
