"""Assemble the report model from merged runs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..controller import summary_of
from ..results.bugstats import Columns
from .analysis import compare, correlations, differing_axes, paired, splits
from .card import card
from .load import Merged
from .model import BOOTSTRAP_RESAMPLES, Merge, Report, Tables
from .tables import HLS_CLASSES, bug_rows, grouped


def parse_class_map(pairs: Sequence[str]) -> dict[str, str]:
    """`TYPE=CLASS` overrides on top of the built-in HLS split; raises ValueError naming what is allowed."""
    out = dict(HLS_CLASSES)
    for pair in pairs:
        bug_type, sep, cls = pair.partition("=")
        if not sep or not bug_type.strip() or not cls.strip():
            raise ValueError(f"--bug-class: {pair!r} is not TYPE=CLASS, e.g. 'INF=semantic'")
        out[bug_type.strip()] = cls.strip()
    return out


def _notes(merged: Merged, by_run: bool, class_map: Mapping[str, str]) -> list[str]:
    notes = list(merged.notes)
    axes = differing_axes(merged.runs)
    if axes and not by_run:
        notes.append(f"the runs differ in {', '.join(sorted(axes))}: the tables pool them; --by-run keeps them "
                     "apart, and the comparison section sets them side by side")
    split = sorted(f"{t}={c}" for t, c in class_map.items())
    notes.append("bug classes for the hls split: " + ", ".join(split) + " (rtl bugs carry their own class)")
    notes.append("intervals: 95 % percentile bootstrap over bugs; correlations: Spearman rho of per-bug pass@1; "
                 "class splits: Mann-Whitney U; fixer pairs: Wilcoxon signed-rank on per-bug pass@1")
    return notes


def build_report(merged: Merged, ks: Sequence[int], *, by_run: bool = False,
                 class_map: Mapping[str, str] | None = None, resamples: int = BOOTSTRAP_RESAMPLES) -> Report:
    """Every table, statistic and card of one report."""
    classes = dict(class_map or HLS_CLASSES)
    cols = Columns(merged.tally.bug_stats(), ks)  # the rows' bugs, in their order; the summary's too
    rows = bug_rows(merged.tally, ks, classes)
    tables = Tables(
        fixers=grouped(rows, ("fixer",), ks, cols, resamples=resamples),
        domains=grouped(rows, ("fixer", "domain"), ks, cols, resamples=resamples),
        groups=grouped(rows, ("fixer", "domain", "suite", "bug_type"), ks, cols, resamples=resamples),
        classes=grouped(rows, ("fixer", "domain", "bug_class"), ks, cols, resamples=resamples),
    )
    return Report(
        k=list(ks),
        merge=Merge(runs=[r.name for r in merged.runs], samples=merged.samples, duplicates=merged.duplicates),
        notes=_notes(merged, by_run, classes), cards=[card(run) for run in merged.runs], tables=tables,
        bugs=rows, correlations=correlations(rows), splits=splits(rows), paired=paired(rows),
        comparison=compare(merged.runs), summary=summary_of(merged.tally, ks, cols),
    )


__all__ = ["build_report", "parse_class_map"]
