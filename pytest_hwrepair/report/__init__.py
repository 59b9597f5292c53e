"""Reports from saved run directories: statistics, tables in several formats, plots and a sample browser."""

from __future__ import annotations

from .build import build_report, parse_class_map
from .load import Merged, Run, load_runs, merge
from .model import Report, results_schema

__all__ = ["Merged", "Report", "Run", "build_report", "load_runs", "merge", "parse_class_map", "results_schema"]
