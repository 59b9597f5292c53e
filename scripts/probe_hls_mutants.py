#!/usr/bin/env python3
"""A quick probe of oracle strength on HLS cases with an hls-diff strong oracle: single-edit mutants of
each golden target (operator swaps, constants and offsets +-1, index +1), up to N per case chosen with a
fixed seed, judged by the suite oracle and, when that passes, by the strong one. Prints every mutant the
suite oracle misses with the strong verdict, then the counts. Survivors of both need a look: most are
equivalent edits.

    python scripts/probe_hls_mutants.py cases/hls/mach --per-case 40 -j 2
"""

from __future__ import annotations

import argparse
import random
import re
import tempfile
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from pytest_hwrepair.cases.case import Case, find_case_files
from pytest_hwrepair.cases.load import load_case
from pytest_hwrepair.oracles import ORACLES, OracleContext, make_oracle
from pytest_hwrepair.oracles.base import populate
from pytest_hwrepair.sandbox.local.sandbox import LocalSandbox

EDITS = [("<=", "<"), ("<", "<="), (">=", ">"), (">", ">="), ("==", "!="), ("!=", "=="), ("+", "-"), ("-", "+"),
         ("<<", ">>"), (">>", "<<"), ("&&", "||"), ("||", "&&"), ("*", "+"), ("+ 1", "+ 2"), ("- 1", "- 2"),
         ("- 1", ""), ("+ 1", ""), ("[i]", "[i + 1]"), ("[j]", "[j + 1]"), ("[k]", "[k + 1]"), ("0;", "1;"),
         ("1;", "0;"), ("++", "--")]
_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*|^\s*#[^\n]*", re.DOTALL | re.MULTILINE)
_PART_OF = {"<": "<>=", ">": "<>=", "+": "+-=", "-": "+-=>", "*": "/="}


def mutants(text: str) -> list[tuple[str, str]]:
    """(label, mutated text) for every edit site outside comments and preprocessor lines."""
    hidden = _COMMENT.sub(lambda m: " " * len(m.group()), text)
    found = []
    for find, replace in EDITS:
        for match in re.finditer(re.escape(find), hidden):
            start, end = match.span()
            around = _PART_OF.get(find, "")
            if around and (hidden[end:end + 1] in around or hidden[start - 1:start] in around):
                continue  # part of a longer operator
            found.append((f"{find!r}->{replace!r}@{start}", text[:start] + replace + text[end:]))
    return found


def judge(case: Case, text: str, ctx: OracleContext, sandbox: LocalSandbox) -> tuple[str, str, str]:
    files = {n: case.files[n] for n in case.model.sources} | {case.target: text}
    outcomes = []
    for oracle in (make_oracle(case, ctx), ORACLES["hls-diff"](case, ctx)):
        with tempfile.TemporaryDirectory(prefix="hwrepair-probe-") as tmp:
            populate(Path(tmp), case, files)
            verdict = oracle.check(Path(tmp), sandbox)
        outcomes.append(verdict)
        if not verdict.passed:
            break
    strong = outcomes[1].outcome.value if len(outcomes) > 1 else "-"
    return outcomes[0].outcome.value, strong, outcomes[-1].summary[:120]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="*", default=["cases/hls/mach"])
    parser.add_argument("--per-case", type=int, default=40)
    parser.add_argument("-j", "--jobs", type=int, default=2)
    args = parser.parse_args()
    rng = random.Random(7)
    work = []
    for path in find_case_files([Path(p) for p in args.paths]):
        case = load_case(path)
        if case.model.strong_oracle is None or case.model.strong_oracle.kind != "hls-diff":
            continue
        found = mutants(case.files[case.target])
        rng.shuffle(found)
        work += [(case, label, text) for label, text in found[:args.per_case]]
    sandbox = LocalSandbox()
    with tempfile.TemporaryDirectory(prefix="hwrepair-probe-cache-") as cache:
        ctx = OracleContext(Path(cache))
        with ThreadPoolExecutor(args.jobs) as pool:
            rows = list(pool.map(lambda w: (w[0].id, w[1], *judge(w[0], w[2], ctx, sandbox)), work))
    for design, label, suite, strong, summary in rows:
        if suite == "passed":
            print(f"{design:14s} {label:22s} strong {strong}: {summary}")
    counts = Counter((r[2], r[3]) for r in rows)
    killed, both = counts[("passed", "failed")], counts[("passed", "passed")]
    print(f"{len(rows)} mutants: suite kills {sum(v for (s, _), v in counts.items() if s != 'passed')}, "
          f"strong kills {killed} of the {killed + both} suite survivors, {both} survive both")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
