"""The repair table of a run: pass@1, correct@1, plausible counts, categories and the fixer's cost per suite.

    python -m pytest_hwrepair.report.repair_table RUN_DIR [--cases cases]

pass@1 counts suite-oracle passes; correct@1 counts a sample only when the strong oracle also
passes it (n/a for bugs without a strong oracle); plausible = passes the suite oracle, fails the
strong one. `exact` counts candidates equal to the case's own target after removing whitespace (a
lower bound of correct that needs no strong oracle; computed here from the cases, never shown to a
fixer). CUDA starts judged at build (no GPU here) are counted as built. Exit status 0 when the run
has no harness errors, 7 when it has.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..cases.case import find_case_files
from ..cases.domains import has
from ..cases.load import load_case
from ..controller import EXIT_HARNESS_ERRORS
from ..results.metrics import mean_pass_at_k
from ..results.rundir import RunDir, SampleRecord, patch_sha
from ..results.tally import bug_stats, correct_at_k
from .terminal import fmt, table


@dataclass
class Group:
    """The samples of one fixer x domain x suite."""

    bugs: dict[str, list[SampleRecord]] = field(default_factory=lambda: defaultdict(list))
    built: int = 0
    build_checked: int = 0
    errors: int = 0

    def row(self, exact: dict[str, str]) -> list[Any]:
        counted = {b: [r for r in rs if r.outcome in ("passed", "failed")] for b, rs in self.bugs.items()}
        counts = [(len(rs), sum(r.outcome == "passed" for r in rs)) for rs in counted.values() if rs]
        # correct@1 over the same bugs as pass@1: a failed or undecided sample is not correct (<= pass@1).
        stats = [s for s in bug_stats([r for rs in self.bugs.values() for r in rs]) if s.n > 0]
        correct, declared = correct_at_k(stats, 1), sum(s.has_strong for s in stats)
        samples = [r for rs in counted.values() for r in rs]
        plausible = sum(r.outcome == "passed" and r.strong is False for r in samples)
        exact_n = sum(r.outcome == "passed" and r.patch_sha == exact.get(f"{r.case}::{r.bug}") for r in samples)
        cats = Counter(r.category for r in samples if r.category != "pass")
        cost = [r.metrics.get("fixer") or {} for r in samples]
        cands = sum(float(c.get("candidates", 0)) for c in cost)
        cpu = sum(float(c.get("cpu_s", 0.0)) for c in cost)
        n = max(len(samples), 1)
        strong_note = f" ({declared}/{len(stats)} bugs with a strong oracle)" if 0 < declared < len(stats) else ""
        return [len(self.bugs), len(samples), fmt(mean_pass_at_k(counts, 1)),
                (fmt(correct) + strong_note) if correct is not None else "n/a", plausible, exact_n,
                f"{self.built}/{self.build_checked}" if self.build_checked else "-", self.errors,
                " ".join(f"{c}:{v}" for c, v in cats.most_common(3)) or "-", f"{cands / n:.0f}", f"{cpu / n:.1f}"]


HEADERS = ["fixer", "domain", "suite", "bugs", "samples", "pass@1", "correct@1", "plausible", "exact", "built",
           "errors", "failures", "cand/sample", "CPU s/sample"]


def groups(run: Path) -> dict[tuple[str, str, str], Group]:
    found: dict[tuple[str, str, str], Group] = defaultdict(Group)
    rundir = RunDir(run)
    for r in rundir.records():
        if not r.final:
            continue
        g = found[(r.fixer, r.domain, r.suite)]
        if r.outcome == "error":
            g.errors += 1
        g.bugs[f"{r.case}::{r.bug}"].append(r)
    info = rundir.read_json("run.json") if (run / "run.json").exists() else {}
    names = sorted(set((info.get("fixers") or {}).values()))
    label = names[0] if len(names) == 1 else "?"
    for sample in sorted(p for p in (run / "artifacts").glob("*") if p.is_dir()):
        _count_build_only(sample, found, label)
    return found


def _count_build_only(sample: Path, found: dict[tuple[str, str, str], Group], fixer: str) -> None:
    """Skipped samples leave no record: a cuda start judged at build (no GPU) leaves its verdicts in the
    artifacts, one per attempt. It counts as built when an attempt's build passed."""
    attempts = sorted(sample.glob("iter-*")) or [sample]
    verdicts, task = [], None
    for folder in attempts:
        if (folder / "verdict.json").exists() and (folder / "task.json").exists():
            verdicts.append(json.loads((folder / "verdict.json").read_text()))
            task = task or json.loads((folder / "task.json").read_text())
    if task is None or not has(task.get("domain"), "build_stage") \
            or any(v.get("outcome") == "passed" for v in verdicts):
        return
    built = any((v.get("metrics") or {}).get("build") == "passed" for v in verdicts)
    if not built and not any(v.get("category") == "compile_fail" for v in verdicts):
        return
    g = found[(fixer, "cuda", str(task.get("suite")))]
    g.build_checked += 1
    g.built += int(built)


def golden_shas(paths: list[Path]) -> dict[str, str]:
    cases = [load_case(path) for path in find_case_files(paths)]
    return {f"{c.domain}/{c.suite}/{c.id}::{bug.id}": patch_sha(c.files[c.target]) for c in cases for bug in c.bugs}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pytest_hwrepair.report.repair_table", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("run", type=Path)
    parser.add_argument("--cases", type=Path, nargs="*", default=[Path("cases")])
    ns = parser.parse_args(argv)
    if not (ns.run / "samples.jsonl").exists():
        print(f"eval_report: {ns.run}: no samples.jsonl (not a run directory)", file=sys.stderr)
        return 2
    found, exact = groups(ns.run), golden_shas(ns.cases)
    print("\n".join(table(HEADERS, [[*group, *g.row(exact)] for group, g in sorted(found.items())])))
    cut = sum((r.metrics.get("fixer") or {}).get("stop") == "wall" for g in found.values()
              for rs in g.bugs.values() for r in rs)
    if cut:
        print(f"{cut} samples were stopped by the wall-clock safety net (a loaded machine): those depend on the load")
    errors = sum(g.errors for g in found.values())
    if errors:
        print(f"{errors} harness errors: the figures above leave them out", file=sys.stderr)
    return EXIT_HARNESS_ERRORS if errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
