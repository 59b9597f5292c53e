"""`hwrepair report RUN... [--format F] [--out PATH] [--plots DIR [--png]]`: the arguments and what they do."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..settings import SettingsError
from .model import BOOTSTRAP_RESAMPLES

FORMATS = ("text", "markdown", "latex", "csv", "json", "html")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("runs", nargs="+", type=Path, help="run directories; several merge (a sample key counts once)")
    p.add_argument("-k", default="1,5", help="pass@k values, comma separated")
    p.add_argument("--format", default="text", choices=FORMATS,
                   help="text (default), markdown, latex, csv (one row per bug x fixer), json (see "
                        "`hwrepair schema --results`), html (one self-contained file with plots and a sample browser)")
    p.add_argument("--out", type=Path, metavar="PATH", help="write the report to PATH instead of standard output")
    p.add_argument("--json", action="store_true", help="print the scoreboard summary (summary.json) as JSON")
    p.add_argument("--by-run", action="store_true", help="label fixers with their run directory (comparisons)")
    p.add_argument("--bug-class", action="append", default=[], metavar="TYPE=CLASS",
                   help="override the class of an hls bug type in the syntactic/semantic split (repeatable)")
    p.add_argument("--bootstrap", type=int, default=BOOTSTRAP_RESAMPLES, metavar="N",
                   help=f"bootstrap resamples for the intervals (default {BOOTSTRAP_RESAMPLES})")
    p.add_argument("--plots", type=Path, metavar="DIR", help="also write every plot as DIR/<plot>.svg")
    p.add_argument("--png", action="store_true", help="with --plots: also DIR/<plot>.png (needs Chromium)")


def _ks(text: str) -> list[int]:
    try:
        ks = [int(k) for k in text.split(",") if k.strip()]
    except ValueError:
        raise SettingsError(f"-k: {text!r} is not a comma-separated list of integers") from None
    if not ks or any(k < 1 for k in ks):
        raise SettingsError(f"-k: {text!r} must list integers of at least 1, e.g. 1,5")
    return ks


def _emit(text: str, out: Path | None) -> None:
    if out is None:
        sys.stdout.write(text)
        return
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    print(f"hwrepair report: wrote {out}", file=sys.stderr)


def run(ns: argparse.Namespace) -> int:
    from ..controller import summary_of
    from .build import build_report, parse_class_map
    from .load import RecordError, load_runs, merge

    ks = _ks(ns.k)
    if ns.png and ns.plots is None:
        raise SettingsError("--png: needs --plots DIR (the folder the pictures go to)")
    if ns.bootstrap < 100:
        raise SettingsError(f"--bootstrap: {ns.bootstrap} resamples are too few for an interval; use 100 or more")
    try:
        classes = parse_class_map(ns.bug_class)
    except ValueError as exc:
        raise SettingsError(str(exc)) from None
    try:
        merged = merge(load_runs(ns.runs), by_run=ns.by_run)
    except RecordError as exc:
        raise SettingsError(str(exc)) from None
    if ns.json:  # the scoreboard's summary
        _emit(json.dumps(summary_of(merged.tally, ks), indent=2, sort_keys=True) + "\n", ns.out)
        return 0
    report = build_report(merged, ks, by_run=ns.by_run, class_map=classes, resamples=ns.bootstrap)
    if ns.format == "html":
        from .html import render_html

        _emit(render_html(report, merged), ns.out)
    else:
        from . import formats

        _emit(getattr(formats, f"render_{ns.format}")(report), ns.out)
    if ns.plots is not None:
        from .plots import write_plots

        for path in write_plots(report, ns.plots, png=ns.png):
            print(f"hwrepair report: wrote {path}", file=sys.stderr)
    return 0
