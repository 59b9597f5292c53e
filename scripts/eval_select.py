#!/usr/bin/env python3
"""Writes scripts/eval_selection.txt: the bugs `./dev eval` runs the search baseline on.

A stratified random sample with a fixed seed: per HLS suite one bug of every bug type, per RTL
suite behavioural and syntactic bugs, and CUDA compile_error starts (judged at build without a GPU).
Rerun it after the corpus changes:

    python scripts/eval_select.py > scripts/eval_selection.txt
"""

from __future__ import annotations

import random
import sys
from collections import defaultdict
from pathlib import Path

from pytest_hwrepair.cases.case import find_case_files
from pytest_hwrepair.cases.load import load_case

SEED = 13
RTL_PER_SUITE = {"behavioural": 2, "syntactic": 1}
CUDA_COMPILE = 3


def main() -> int:
    strata: dict[tuple[str, str, str], list[str]] = defaultdict(list)
    for path in find_case_files([Path("cases")]):
        case = load_case(path)
        for bug in case.bugs:
            kind = bug.bucket if case.domain == "cuda" else bug.class_ if case.domain == "rtl" else bug.bug_type
            strata[(case.domain, case.suite, str(kind))].append(f"{path}::{bug.id}")
    rng = random.Random(SEED)
    picked: list[str] = []
    for (domain, _suite, kind), ids in sorted(strata.items()):
        if domain == "hls":
            take = 1
        elif domain == "rtl":
            take = RTL_PER_SUITE.get(kind, 0)
        else:
            take = 0
        picked += rng.sample(ids, min(take, len(ids)))
    cuda = sorted(i for (d, _, k), ids in strata.items() if d == "cuda" and k == "compile_error" for i in ids)
    picked += rng.sample(cuda, min(CUDA_COMPILE, len(cuda)))
    print("# The bugs `./dev eval` repairs with the search baseline; made by `python scripts/eval_select.py`.")
    print(f"# Stratified sample (seed {SEED}): one bug per HLS suite x type, {RTL_PER_SUITE} per RTL suite, "
          f"{CUDA_COMPILE} CUDA compile_error starts.")
    for node in sorted(picked):
        print(node)
    return 0


if __name__ == "__main__":
    sys.exit(main())
