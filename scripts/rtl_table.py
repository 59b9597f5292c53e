"""Print the corpus tables of cases/rtl/README.md: designs and bugs per suite x class, and mutation operators.

Usage: python scripts/rtl_table.py [cases/rtl]
"""

from __future__ import annotations

import sys
import warnings
from collections import Counter, defaultdict
from pathlib import Path

from pytest_hwrepair.cases.case import Case, find_case_files
from pytest_hwrepair.cases.load import load_case

CLASSES = ("behavioural", "syntactic")


def load_rtl_cases(root: Path) -> list[Case]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cases = [load_case(p, strict=True) for p in find_case_files([root])]
    return [c for c in cases if c.domain == "rtl" and c.repo is None]  # repository cases: cases/rtl/repo


def operator_of(note: str) -> str:
    """The mutation operator a bug note names: the text before its first colon."""
    return note.split(":", 1)[0].strip() or "(unnamed)"


def suite_table(cases: list[Case]) -> list[str]:
    designs: dict[str, list[str]] = defaultdict(list)
    bugs: dict[str, Counter[str]] = defaultdict(Counter)
    strong: Counter[str] = Counter()
    for case in cases:
        designs[case.suite].append(case.id)
        strong[case.suite] += case.model.strong_oracle is not None
        bugs[case.suite].update(b.class_ or "?" for b in case.bugs)
    lines = ["| suite | designs | behavioural | syntactic | bugs | Tier F (rtl-equiv) on | design ids |",
             "|---|---:|---:|---:|---:|---:|---|"]
    for suite in sorted(designs):
        counts = bugs[suite]
        lines.append(f"| {suite} | {len(designs[suite])} | {counts['behavioural']} | {counts['syntactic']} | "
                     f"{sum(counts.values())} | {strong[suite]} | {', '.join(sorted(designs[suite]))} |")
    total = Counter[str]()
    for counts in bugs.values():
        total.update(counts)
    lines.append(f"| **all** | {len(cases)} | {total['behavioural']} | {total['syntactic']} | "
                 f"{sum(total.values())} | {sum(strong.values())} | |")
    return lines


def operator_table(cases: list[Case]) -> list[str]:
    rows: dict[tuple[str, str, str], Counter[str]] = defaultdict(Counter)
    for case in cases:
        for bug in case.bugs:
            rows[(bug.class_ or "?", bug.bug_type, operator_of(bug.note))][case.suite] += 1
    suites = sorted({c.suite for c in cases})
    lines = ["| class | bug type | mutation operator | " + " | ".join(suites) + " | total |",
             "|---|---|---|" + "---:|" * (len(suites) + 1)]
    ordered = sorted(rows, key=lambda k: (CLASSES.index(k[0]) if k[0] in CLASSES else 9, -sum(rows[k].values()), k[1]))
    for key in ordered:
        per_suite = rows[key]
        cells = " | ".join(str(per_suite[s] or "") for s in suites)
        lines.append(f"| {key[0]} | {key[1]} | {key[2]} | {cells} | {sum(per_suite.values())} |")
    return lines


def rtl_table(root: Path) -> str:
    """Both tables as markdown."""
    cases = load_rtl_cases(root)
    return "\n".join([*suite_table(cases), "", *operator_table(cases)]) + "\n"


def main(argv: list[str]) -> int:
    root = Path(argv[0]) if argv else Path("cases/rtl")
    sys.stdout.write(rtl_table(root))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
