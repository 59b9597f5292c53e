"""The report's plots, drawn from the report model; a plot without data is listed with the reason."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .model import Correlation, Report
from .sections import num, pval
from .svg import Point, Whisker, grid, lines, scatter, stacked, whiskers


@dataclass(frozen=True, slots=True)
class Plot:
    id: str
    title: str
    svg: str
    caption: str


@dataclass(frozen=True, slots=True)
class Missing:
    title: str
    reason: str


def _fixers(report: Report) -> list[str]:
    return [r.group["fixer"] for r in report.tables.fixers]


def _rho_text(report: Report, x: str) -> str:
    found: list[Correlation] = [c for c in report.correlations if c.x == x]
    return "; ".join(f"{c.fixer}: rho {num(c.rho)} (p {pval(c.p)}, {c.n} bugs)" if c.rho is not None
                     else f"{c.fixer}: rho n/a ({c.note})" for c in found)


def metric_plot(report: Report, metric: str, k: int) -> Plot | Missing:
    """pass@k or correct@k per suite x type, one mark per fixer, with its bootstrap interval."""
    title = f"{metric}@{k} by suite x bug type"
    fixers = _fixers(report)
    names = [f"{g.group['domain']}/{g.group['suite']} {g.group['bug_type']}" for g in report.tables.groups]
    labels = sorted(set(names))
    marks = []
    for g, label in zip(report.tables.groups, names):
        e = (g.pass_at if metric == "pass" else g.correct_at)[str(k)]
        if e.value is None:
            continue
        marks.append(Whisker(labels.index(label), e.value, e.low, e.high, fixers.index(g.group["fixer"]),
                             metric == "correct", f"{g.group['fixer']} {label}: {metric}@{k} {num(e.value)} "
                             f"[{num(e.low)}, {num(e.high)}], {g.bugs} bugs"))
    if not marks:
        why = "no strong-oracle verdicts" if metric == "correct" else f"every group has a bug with n < {k}"
        return Missing(title, why)
    svg = whiskers(labels, marks, fixers, title=title, x_label=f"{metric}@{k} (mean over bugs, 95 % interval)",
                   plot_id=f"{metric}-at-{k}")
    return Plot(f"{metric}-at-{k}", title, svg, "dots: mean over bugs; whiskers: 95 % bootstrap interval over bugs"
                + ("; hollow: correct@k (passes the strong oracle too)" if metric == "correct" else ""))


def scatter_plot(report: Report, x: str) -> Plot | Missing:
    title = "solution multiplicity vs pass@1" if x == "multiplicity" else "target LOC vs pass@1"
    fixers = _fixers(report)
    points = []
    for b in report.bugs:
        if b.n == 0:
            continue
        xv = b.multiplicity if x == "multiplicity" else float(b.loc)
        if xv is None:
            continue
        points.append(Point(xv, b.c / b.n, fixers.index(b.fixer), f"{b.fixer} {b.case}::{b.bug}: {x} {xv:g}, "
                            f"pass@1 {b.c}/{b.n}"))
    if not points:
        return Missing(title, "no bug with a counted sample")
    svg = scatter(points, fixers, title=title, x_label="solution multiplicity (distinct candidates / n)"
                  if x == "multiplicity" else "non-blank lines of the target file (log scale)",
                  y_label="pass@1 of the bug", log_x=x == "loc", plot_id=f"{x}-scatter")
    return Plot(f"{x}-scatter", title, svg, "one point per bug and fixer; Spearman " + _rho_text(report, x))


def categories_plot(report: Report) -> Plot | Missing:
    title = "failure categories per fixer"
    rows = [r for r in report.tables.fixers if r.samples]
    if not rows:
        return Missing(title, "no counted sample")
    cats = sorted({c for r in rows for c in r.categories})
    shares = [{c: v / r.samples for c, v in r.categories.items()} for r in rows]
    svg = stacked([r.group["fixer"] for r in rows], shares, cats, title=title, plot_id="categories")
    return Plot("categories", title, svg, "share of passed + failed samples per category (errors and skips apart)")


def cuda_plot(summary: dict[str, Any]) -> Plot | Missing:
    title = "cuda: pass rate vs perf gate p"
    rows = [r for r in summary.get("cuda", []) if r.get("pass_vs_p")]
    if not rows:
        return Missing(title, "no timed cuda samples in these runs")
    ps = list(rows[0]["pass_vs_p"])
    svg = lines(ps, [[r["pass_vs_p"].get(p) for p in ps] for r in rows], [r["fixer"] for r in rows], title=title,
                x_label="perf gate p (speedup = reference_ms / candidate_ms >= p)", y_label="share of samples passing",
                plot_id="cuda-perf")
    return Plot("cuda-perf", title, svg, "a sample passes at p when it is correct and its speedup is at least p")


def iterative_plots(summary: dict[str, Any]) -> list[Plot | Missing]:
    rows = summary.get("iterative", [])
    if not rows:
        why = "no iterative trajectories in these runs"
        return [Missing("iterative: pass within k attempts", why), Missing("iterative: stop reasons", why)]
    ks = sorted({int(k) for r in rows for k in r["pass_within"]})
    xs = ["1", *[str(k) for k in ks if k != 1]]
    series = [[r["pass@1"] if x == "1" else r["pass_within"].get(x) for x in xs] for r in rows]
    names = [r["fixer"] for r in rows]
    curve = lines(xs, series, names, title="iterative: pass within k attempts", x_label="attempts k",
                  y_label="share of trajectories solved", plot_id="iterative-curve")
    reasons = sorted({s for r in rows for s in r["stop_reasons"]})
    shares = [{s: n / max(r["trajectories"], 1) for s, n in r["stop_reasons"].items()} for r in rows]
    stops = stacked(names, shares, reasons, title="iterative: stop reasons", plot_id="iterative-stops")
    return [Plot("iterative-curve", "iterative: pass within k attempts", curve, "debug curve per fixer"),
            Plot("iterative-stops", "iterative: stop reasons", stops, "why each trajectory ended")]


def tiers_plot(summary: dict[str, Any]) -> Plot | Missing:
    title = "rtl: Tier S (simulation) x Tier F (equivalence)"
    tiers = (summary.get("rtl") or {}).get("tiers") or []
    if not tiers:
        return Missing(title, "no rtl samples with a Tier F verdict in these runs")
    cols = ("both_pass", "s_pass_f_fail", "s_fail_f_pass", "both_fail")
    svg = grid([t["fixer"] for t in tiers], ["S pass F pass", "S pass F fail", "S fail F pass", "S fail F fail"],
               [[int(t[c]) for c in cols] for t in tiers], title=title, plot_id="rtl-tiers")
    return Plot("rtl-tiers", title, svg, "counted rtl samples; S pass F fail are plausible but not equivalent")


def plots(report: Report) -> tuple[list[Plot], list[Missing]]:
    """Every plot the report draws, and those it cannot draw with the reason."""
    made: list[Plot | Missing] = []
    for k in report.k:
        made += [metric_plot(report, "pass", k), metric_plot(report, "correct", k)]
    made += [scatter_plot(report, "multiplicity"), scatter_plot(report, "loc"), categories_plot(report),
             cuda_plot(report.summary), *iterative_plots(report.summary), tiers_plot(report.summary)]
    return [p for p in made if isinstance(p, Plot)], [m for m in made if isinstance(m, Missing)]


def plot_files(found: Sequence[Plot]) -> dict[str, str]:
    """File name -> standalone SVG text, for `--plots DIR`."""
    return {f"{p.id}.svg": '<?xml version="1.0" encoding="UTF-8"?>\n' + p.svg + "\n" for p in found}


__all__ = ["Missing", "Plot", "plot_files", "plots"]
