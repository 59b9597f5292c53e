"""The `hwrepair` command: schema, validate, report, stats, import (and images, when the docker extra is present)."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from .report import command as report_command
from .settings import SettingsError
from .verdict import CaseError

if TYPE_CHECKING:
    from .strength.selfcheck import BugCheck


def console() -> NoReturn:
    """The `hwrepair` command as installed."""
    raise SystemExit(main())


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == "images":
        from .sandbox.docker import images as docker_images

        return int(docker_images.images_main(args[1:]))
    # The import command's sources are imported for the parser only when the command line may need them.
    parser = _parser(sources=not args or args[0] not in ("report", "schema", "validate", "stats"))
    ns = parser.parse_args(args)
    try:
        return int(ns.func(ns))
    except (SettingsError, CaseError, FileNotFoundError) as exc:
        print(f"hwrepair: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # `hwrepair validate --json | head`: the reader has gone; say nothing more, as other tools do.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


def _existing(paths: list[Path]) -> list[Path]:
    """The paths a command was given, each of which must exist (a typo must not validate nothing)."""
    missing = [p for p in paths if not p.exists()]
    if missing:
        raise FileNotFoundError(f"{missing[0]}: no such file or directory")
    return paths


def _parser(*, sources: bool = True) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="hwrepair", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("schema", help="print the JSON Schema of case.toml (--results: of `report --format json`)")
    p.add_argument("--results", action="store_true", help="the schema of `hwrepair report --format json` instead")
    p.set_defaults(func=_schema)
    p = sub.add_parser("validate", help="two-sided check: reference passes and the bug fails, for every bug")
    p.add_argument("paths", nargs="*", type=Path, default=[Path("cases")])
    p.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1, help="bugs checked at once")
    p.add_argument("--sandbox", default="local", choices=("local", "docker"))
    p.add_argument("--isolation", default="auto", choices=("auto", "bwrap", "none"))
    p.add_argument("--simulator", default="iverilog", choices=("iverilog", "verilator"))
    p.add_argument("--cache-dir", default=".hwrepair/cache")
    p.add_argument("--strict", action="store_true", help="kept for older scripts: validate always treats an unknown "
                   "key in a case file as an error")
    p.add_argument("--json", action="store_true", help="print one JSON object per bug")
    p.add_argument("--progress", action="store_true",
                   help="as each bug's check ends, write one line to stderr: [done/total] status, bug, reason")
    p.add_argument("--gpu", default="auto", choices=("auto", "yes", "no"),
                   help="cuda: run the runtime stage (reference timing and perf gate, every start's runtime "
                        "bucket) on a CUDA device; auto: when one is present")
    p.add_argument("--timing-runs", type=int, default=5, metavar="N", help="cuda: timed runs per measurement")
    p.add_argument("--perf-gate", type=float, default=None, metavar="P",
                   help="cuda: override every task's perf gate")
    p.add_argument("--mutants", type=int, metavar="N",
                   help="oracle strength instead: N single-edit mutants of each golden target in a seeded order, "
                        "then every special-casing mutant of a C or CUDA target (an early return for one value of "
                        "an integer parameter; N = 0: only those), judged by the suite and the strong oracle")
    p.add_argument("--mutant-seed", type=int, default=0, help="the seed that orders each target's mutants")
    p.add_argument("--mutants-out", type=Path, default=Path(".hwrepair/mutants.json"), metavar="FILE",
                   help="where the mutant results go (read by `hwrepair stats --mutants FILE`)")
    p.set_defaults(func=_validate)
    p = sub.add_parser("report", help="tables, statistics, plots and a sample browser from saved run directories "
                                      "(shards merge)")
    report_command.add_arguments(p)
    p.set_defaults(func=report_command.run)
    p = sub.add_parser("stats", help="corpus counts: bugs per suite x type, LOC distribution (markdown)")
    p.add_argument("paths", nargs="*", type=Path, default=[Path("cases")])
    p.add_argument("--update", type=Path, metavar="FILE",
                   help="replace the block between <!-- stats --> and <!-- /stats --> in FILE")
    p.add_argument("--mutants", type=Path, nargs="+", metavar="RESULTS",
                   help="the oracle-strength tables of `hwrepair validate --mutants` results files instead (a "
                        "later file's cases replace an earlier one's; with --update: the block between "
                        "<!-- mutants --> and <!-- /mutants -->)")
    p.set_defaults(func=_stats)
    _import_parser(sub, sources)
    return parser


def _import_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser], with_sources: bool) -> None:
    p = sub.add_parser("import", help="write case directories from a published benchmark's checkout")
    sources = p.add_subparsers(dest="source", required=True, metavar="SOURCE")
    if not with_sources:
        return
    from .importers import registry

    for name, factory in sorted(registry().items()):
        importer = factory()
        q = sources.add_parser(name, help=importer.help, description=importer.help)
        importer.add_arguments(q)
        q.set_defaults(func=_import, importer=importer)


def _import(ns: argparse.Namespace) -> int:
    from .importers import ImporterError

    start = time.monotonic()
    try:
        report = ns.importer.run(ns)
    except ImporterError as exc:
        print(f"hwrepair import {ns.source}: {exc}", file=sys.stderr)
        return 2
    for line in report.lines():
        print(line)
    print(f"imported into {report.out} in {time.monotonic() - start:.1f}s")
    return 0


def _schema(ns: argparse.Namespace) -> int:
    if ns.results:
        from .report.model import results_schema as schema
    else:
        from .cases.load import json_schema as schema
    print(json.dumps(schema(), indent=2))
    return 0


def _validate(ns: argparse.Namespace) -> int:
    # Each command imports what it needs: `hwrepair report` needs none of the case, oracle and sandbox modules.
    from .oracles import OracleOptions
    from .sandbox import make_sandbox
    from .settings import Settings
    from .strength.selfcheck import report_lines, validate

    settings = Settings.from_sources({"sandbox": ns.sandbox, "isolation": ns.isolation, "oracle_jobs": ns.jobs,
                                      "cache_dir": ns.cache_dir, "simulator": ns.simulator, "gpu": ns.gpu,
                                      "timing_runs": ns.timing_runs, "perf_gate": ns.perf_gate}, {})
    sandbox = make_sandbox(settings, Path(ns.cache_dir))
    if ns.mutants is not None:
        from .strength.mutants import run_mutants

        return run_mutants(ns, sandbox, OracleOptions.from_settings(settings))
    start = time.monotonic()
    checks = validate(_existing(ns.paths), sandbox=sandbox, cache_dir=Path(ns.cache_dir), jobs=ns.jobs,
                      options=OracleOptions.from_settings(settings), strict=True,
                      on_check=_progress_line if ns.progress else None)
    if ns.json:
        for check in checks:
            print(json.dumps(check.to_json(), sort_keys=True))
    else:
        for line in report_lines(checks):
            print(line)
        print(f"validated in {time.monotonic() - start:.1f}s with {ns.jobs} jobs")
    return 1 if any(c.status == "rejected" for c in checks) else 0


def _progress_line(check: BugCheck, done: int, total: int) -> None:
    said = f" {check.reason}" if check.reason else ""
    sys.stderr.write(f"[{done}/{total}] {check.status} {check.path} [{check.bug}] reference {check.reference or '-'}, "
                     f"noop {check.noop or '-'}{said}\n")
    sys.stderr.flush()


def _stats(ns: argparse.Namespace) -> int:
    """Markdown tables generated from the case files, for the corpus READMEs."""
    from .cases.case import find_case_files
    from .cases.domains import domain_of
    from .cases.load import load_case
    from .repo.stats import NOTE as REPO_NOTE
    from .repo.stats import repo_tables

    if ns.mutants is not None:
        from .strength.mutants import mutant_stats

        return mutant_stats(ns, _update_block)
    counts: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    locs: dict[tuple[str, str], list[int]] = defaultdict(list)
    sources: dict[tuple[str, str], list[int]] = defaultdict(list)  # every file shown to the fixer
    repos = []
    for path in find_case_files(_existing(ns.paths)):
        case = load_case(path)
        if case.repo is not None:  # repository cases have tables of their own
            repos.append(case)
            continue
        key = (case.domain, case.suite)
        locs[key].append(case.loc())
        sources[key].append(sum(case.loc(name) for name in case.model.sources))
        counts[key].update(domain_of(case.domain).label(bug) for bug in case.bugs)
    text = _stats_tables(counts, locs, sources) if locs else ""
    if repos:
        tables = [_markdown(head, rows) for head, rows in repo_tables(repos)]
        text = "\n\n".join([*([text.rstrip()] if text else []), *tables, REPO_NOTE]) + "\n"
    if ns.update is None:
        print(text)
        return 0
    return _update_block(ns.update, text, f"hwrepair stats {' '.join(str(p) for p in ns.paths)}")


def _update_block(path: Path, text: str, command: str, name: str = "stats") -> int:
    page = path.read_text(encoding="utf-8")
    start, end = f"<!-- {name} -->", f"<!-- /{name} -->"
    if start not in page or end not in page:
        raise FileNotFoundError(f"{path}: no {start} ... {end} block to replace")
    head, rest = page.split(start, 1)
    tail = rest.split(end, 1)[1]
    block = f"{start}\n<!-- generated by `{command}`; do not edit by hand -->\n\n{text}\n{end}"
    path.write_text(head + block + tail, encoding="utf-8")
    return 0


def _stats_tables(counts: dict[tuple[str, str], Counter[str]], locs: dict[tuple[str, str], list[int]],
                  sources: dict[tuple[str, str], list[int]]) -> str:
    designs = {key: len(v) for key, v in locs.items()}  # a design per case file
    cols = sorted({t for c in counts.values() for t in c})
    rows = [[f"{d}/{s}", designs[(d, s)], *[counts[(d, s)].get(t, 0) for t in cols], sum(counts[(d, s)].values())]
            for d, s in sorted(counts)]
    total = [*["total", sum(designs.values())], *[sum(c.get(t, 0) for c in counts.values()) for t in cols],
             sum(sum(c.values()) for c in counts.values())]
    loc_rows = [[f"{d}/{s}", min(v), sorted(v)[len(v) // 2], max(v), sum(1 for x in v if x >= 800),
                 sorted(sources[(d, s)])[len(v) // 2]] for (d, s), v in sorted(locs.items())]
    return (_markdown(["suite", "designs", *cols, "bugs"], [*rows, total]) + "\n\n"
            + _markdown(["suite", "min LOC", "median LOC", "max LOC", "designs with 800+ LOC", "median sources LOC"],
                        loc_rows)
            + "\n\nLOC: non-blank lines of the target file; sources LOC: of every file shown to the fixer.\n")


def _markdown(headers: list[str], rows: list[list[object]]) -> str:
    out = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    out += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(out)


if __name__ == "__main__":
    console()
