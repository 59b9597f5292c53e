"""`hwrepair validate --mutants N` and `hwrepair stats --mutants RESULTS`: oracle strength on the command line."""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from collections.abc import Callable
from pathlib import Path

from ..cases.case import find_case_files
from ..cases.load import load_case
from ..oracles import OracleContext, OracleOptions
from ..sandbox.base import Limits, Sandbox
from .mutants import MutantResult, analyse
from .tables import load, markdown, save, text_lines

MAX_MUTANTS = 10_000


def run_mutants(ns: argparse.Namespace, sandbox: Sandbox, options: OracleOptions) -> int:
    """Judge N mutants of every case under the paths; print the tables and write the results file."""
    if not 0 <= ns.mutants <= MAX_MUTANTS:
        print(f"hwrepair validate: --mutants {ns.mutants}: give a count from 0 (only the special-casing mutants) "
              f"to {MAX_MUTANTS}", file=sys.stderr)
        return 2
    for path in ns.paths:
        if not path.exists():
            raise FileNotFoundError(f"{path}: no such file or directory")
    cases = [load_case(p, strict=True) for p in find_case_files(ns.paths)]
    ctx = OracleContext(Path(ns.cache_dir), Limits(), options)
    start = time.monotonic()
    results = analyse(cases, count=ns.mutants, seed=ns.mutant_seed, ctx=ctx, sandbox=sandbox, jobs=ns.jobs,
                      progress=lambda line: print(line, flush=True))
    seconds = round(time.monotonic() - start, 1)
    for line in text_lines(results):
        print(line)
    command = "hwrepair validate --mutants {} --mutant-seed {} {}".format(
        ns.mutants, ns.mutant_seed, " ".join(shlex.quote(str(p)) for p in ns.paths))
    save(ns.mutants_out, results, {"command": command, "mutants": ns.mutants, "seed": ns.mutant_seed,
                                   "cases": len(cases), "seconds": seconds, "jobs": ns.jobs})
    print(f"{len(results)} mutants of {len(cases)} cases judged in {seconds:.1f}s with {ns.jobs} jobs; "
          f"results in {ns.mutants_out}")
    return 1 if any(r.status.value == "error" for r in results) else 0


def mutant_stats(ns: argparse.Namespace, update: Callable[[Path, str, str, str], int]) -> int:
    """The oracle-strength tables of a results file, restricted to the cases under the paths."""
    wanted = {str(p) for p in find_case_files(ns.paths)} | {str(p.resolve()) for p in find_case_files(ns.paths)}
    by_case: dict[str, tuple[int, list[MutantResult]]] = {}
    metas: list[dict[str, object]] = []
    for run, path in enumerate(ns.mutants):
        try:
            results, meta = load(path)
        except ValueError as exc:
            raise FileNotFoundError(str(exc)) from None
        metas.append(meta)
        for case in {r.case for r in results if r.case in wanted or str(Path(r.case).resolve()) in wanted}:
            by_case[case] = (run, [r for r in results if r.case == case])  # a later run of a case replaces it
    chosen = [r for case in sorted(by_case) for r in by_case[case][1]]
    text = _block(chosen, [metas[run] for run in sorted({run for run, _ in by_case.values()})])
    if ns.update is None:
        print(text)
        return 0
    files = " ".join(str(p) for p in ns.mutants)
    command = f"hwrepair stats {' '.join(str(p) for p in ns.paths)} --mutants {files} --update {ns.update}"
    return update(ns.update, text, command, "mutants")


def _block(results: list[MutantResult], runs: list[dict[str, object]]) -> str:
    made = "; ".join(f"`{m.get('command', 'hwrepair validate --mutants')}` ({m.get('seconds', '?')} s with "
                     f"{m.get('jobs', '?')} jobs)" for m in runs)
    return f"Results of {made or 'no run'}; {len(results)} mutants here.\n\n{markdown(results)}\n"


__all__ = ["mutant_stats", "run_mutants"]
