"""`hwrepair import chrysalis`: the HLS repair study's benchmark rebuilt from its public sources.

CHStone, MachSuite and PolyBench/C (3.x or 4.x) programs from the user's checkouts, each Chrysalis-HLS
single-edit spec of the eight logic types injected into its function (or the code that function
calls), judged by the suite oracle the study used. An instance is kept only when the original program
passes, the injected one compiles and the bug is observable, twice (the two-sided check of `hwrepair
validate`); a type label names the shape of an edit, so how the bug fails is recorded, not required.
Under `--select`, specs that leave the same program behind are all kept, each marked `same_as` the
one that stands for them, as the study counts them.
"""

from __future__ import annotations

import argparse
import os
import re
import tempfile
from collections import Counter, defaultdict
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..strength.selfcheck import BugCheck
from .base import Entry, ImportReport, Reason, Status, prepare_out, split, write_case, write_report
from .check import failure, rejection_reason, shape_labels, two_sided
from .chrysalis_locate import Edit, dedupe, locate, twins
from .chrysalis_specs import Spec, load_selection, load_specs
from .hls_programs import DATASETS, Program, chstone, machsuite, polybench
from .snippets import occurrence

SUITE_DIRS = ("chstone", "machsuite", "polybench")
_CASE_ID = re.compile(r"[^A-Za-z0-9_.-]+")
Verdicts = dict[str, BugCheck | None]  # validate's verdict per spec source (None: it gave none)


class ChrysalisImporter:
    """CHStone + MachSuite + PolyBench/C with Chrysalis-HLS bug specifications."""

    name = "chrysalis"
    help = "the HLS repair study's benchmark: CHStone, MachSuite, PolyBench/C and Chrysalis-HLS bug specs"

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        for option, what in (("chstone", "CHStone"), ("machsuite", "MachSuite"),
                             ("polybench", "PolyBench/C 3.x or 4.x (which one is recorded in every case)"),
                             ("specs", "Chrysalis-HLS (or its HLS_Bug_Dataset/)")):
            parser.add_argument(f"--{option}", type=Path, required=True, metavar="DIR", help=f"a checkout of {what}")
        parser.add_argument("--out", type=Path, required=True, metavar="DIR", help="where the cases are written")
        parser.add_argument("--dataset", default="SMALL", choices=DATASETS,
                            help="PolyBench dataset size (STANDARD is 3.x's, MEDIUM 4.x's)")
        parser.add_argument("--select", type=Path, metavar="FILE",
                            help="only these (suite, function, type) triples, e.g. the study's benchmark_meta.json; "
                                 "specs that leave the same program behind are all kept, marked same_as")
        parser.add_argument("--no-check", action="store_true",
                            help="write every placed spec unchecked (`hwrepair validate` decides)")
        parser.add_argument("--timeout", type=_seconds, metavar="SECONDS",
                            help="limit per build or run step (default: 10, PolyBench by dataset: up to 600)")
        parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1, help="bugs checked at once")
        parser.add_argument("--cache-dir", type=Path, default=Path(".hwrepair/cache"))

    def run(self, ns: argparse.Namespace) -> ImportReport:
        programs = {"chstone": chstone(ns.chstone, ns.timeout), "machsuite": machsuite(ns.machsuite, ns.timeout),
                    "polybench": polybench(ns.polybench, ns.dataset, ns.timeout)}
        specs, entries = load_specs(ns.specs)
        selection = load_selection(ns.select) if ns.select else None
        if selection is not None:
            specs = [s for s in specs if s.key in selection]
            entries = [e for e in entries if tuple(e.source.split("/")) in selection]
        edits, placed = place(specs, programs)
        entries += placed
        prepare_out(ns.out, self.name, SUITE_DIRS)
        keep_twins = selection is not None
        if ns.no_check:
            entries += write_edits(ns.out, edits, keep_twins)
        else:
            entries += checked(ns.out, edits, ns.jobs, ns.cache_dir, keep_twins)
        entries.sort(key=lambda e: e.source)
        version = programs["polybench"][0].version
        notes = (f"polybench: PolyBench/C {version} ({ns.polybench})",
                 *(selection_notes(selection, entries) if selection is not None else ()))
        return write_report(ImportReport(self.name, ns.out, tuple(entries), notes,
                                         {"dataset": ns.dataset, "polybench": version}))


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds between 0 and 3600")
    return value


def place(specs: list[Spec], programs: dict[str, list[Program]]) -> tuple[list[Edit], list[Entry]]:
    """Every spec located in its suite's programs, or the rejection saying why it cannot be."""
    return split(locate(spec, programs[spec.suite]) for spec in specs)


def checked(out: Path, edits: list[Edit], jobs: int, cache_dir: Path, keep_twins: bool = False) -> list[Entry]:
    """Check every edit two-sided, and what passed a second time (verdicts must repeat: undefined
    behaviour and a loaded machine can make one run pass); then write only what passed both checks."""
    verdicts = check_in_scratch(edits, jobs, cache_dir)
    again = check_in_scratch([e for e in edits if _passed(e, verdicts)], jobs, cache_dir)
    for source, second in again.items():
        first = verdicts[source]
        if first is not None and (second is None or second.status != "accepted"):
            said = f"{second.status}: {second.reason}" if second else "no verdict"
            verdicts[source] = replace(first, status="rejected", reason=f"not repeatable: accepted once, then {said}")
    return write_edits(out, edits, keep_twins, verdicts)


def _passed(edit: Edit, keep: Verdicts | None) -> bool:
    found = keep.get(edit.spec.source) if keep is not None else None
    return keep is None or (found is not None and found.status == "accepted")


def write_edits(out: Path, edits: list[Edit], keep_twins: bool, keep: Verdicts | None = None) -> list[Entry]:
    """The edits written to `out` (with `keep`, only those that passed): every edit, twins marked, when
    `keep_twins`, else one of each duplicate group (one that passed, if any)."""
    if keep_twins:
        return write_cases(out, edits, keep, same=twins(edits, lambda edit: _passed(edit, keep)))
    kept, dupes = dedupe(edits, lambda edit: _passed(edit, keep))
    return dupes + write_cases(out, kept, keep)


def check_in_scratch(edits: list[Edit], jobs: int, cache_dir: Path) -> Verdicts:
    """validate's verdict per spec, for the edits written as cases into a scratch directory."""
    if not edits:
        return {}
    with tempfile.TemporaryDirectory(prefix="hwrepair-import-") as tmp:
        staged = Path(tmp)
        placed = write_cases(staged, edits, keep=None)
        checks = two_sided([staged], jobs=jobs, cache_dir=cache_dir)
    found = {e.source: checks.get((str(staged / e.case / "case.toml"), e.bug)) for e in placed}
    return {source: shape_labels(check) if check else None for source, check in found.items()}


def write_cases(out: Path, edits: list[Edit], keep: Verdicts | None, same: dict[str, str] | None = None) -> list[Entry]:
    """One case per (program, file) holding its edits; with `keep`, only the bugs that passed the check.
    `same` marks the edits that leave the same program behind as another (source -> its source)."""
    same = same or {}
    groups: dict[tuple[str, str, str], list[Edit]] = defaultdict(list)
    for edit in edits:
        groups[(edit.program.suite, edit.program.name, edit.file)].append(edit)
    entries: list[Entry] = []
    for (suite, _, file), group in sorted(groups.items()):
        program = group[0].program
        rel = f"{suite}/{case_id(program, file)}"
        bugs = _bugs(sorted(group, key=lambda e: (e.spec.type, e.spec.function, e.start)), same)
        kept = []
        for edit, bug in bugs:
            entry = _status(Entry(edit.spec.source, suite, Status.IMPORTED, detail=edit.where, case=rel, bug=bug["id"],
                                  group=edit.spec.type, same_as=same.get(edit.spec.source, "")), keep)
            if entry.status is not Status.REJECTED:
                kept.append(bug)
            entries.append(entry)
        if kept:
            write_case(out / rel, case_fields(program, file, rel, kept), {**program.files, **program.data,
                                                                          **program.expected})
    return entries


def _status(entry: Entry, keep: Verdicts | None) -> Entry:
    if keep is None:
        return entry
    check = keep.get(entry.source)
    if check is None:
        return entry.rejected(Reason.HARNESS_ERROR, "the check gave no verdict for this bug")
    if check.status == "accepted":
        return replace(entry, status=Status.ACCEPTED, detail=f"{entry.detail}; fails with {failure(check)}")
    return entry.rejected(rejection_reason(check), check.reason)


def case_id(program: Program, file: str) -> str:
    """The program's name, plus the file's stem when the bugs live in another file than the main one."""
    main = program.search[0]
    return program.name if file == main else f"{program.name}-{_CASE_ID.sub('_', Path(file).stem)}"


def _bugs(edits: list[Edit], same: dict[str, str]) -> list[tuple[Edit, dict[str, Any]]]:
    counts: dict[str, int] = defaultdict(int)
    out = []
    for edit in edits:
        counts[edit.spec.type] += 1
        text = edit.program.files[edit.file]
        index, total = occurrence(text, edit.find, edit.start)
        note = f"Chrysalis-HLS spec {edit.spec.source} ({edit.spec.path.name}), {edit.where}"
        if edit.spec.source in same:
            note += f"; the same program as {same[edit.spec.source]}"
        out.append((edit, {"id": f"{edit.spec.type}-{counts[edit.spec.type]:02d}", "type": edit.spec.type,
                           "find": edit.find, "replace": edit.spec.faulty,
                           "occurrence": index if total > 1 else None, "note": note}))
    return out


def case_fields(program: Program, file: str, rel: str, bugs: list[dict[str, Any]]) -> dict[str, Any]:
    return {"schema": 1, "id": rel.rsplit("/", 1)[-1], "domain": "hls", "suite": program.suite,
            "title": f"{program.title}: {file}", "sources": list(program.files), "target": file,
            "data": list(program.data) or None, "oracle": program.oracle, "bug": bugs}


def selection_notes(selection: set[tuple[str, str, str]], entries: list[Entry]) -> tuple[str, ...]:
    """How the selected triples fared: kept, rejected (by reason) or absent from the specs."""
    found = {tuple(e.source.split("/")): e for e in entries}
    missing = sorted(t for t in selection if t not in found)
    chosen = [found[t] for t in selection if t in found]
    kept = [e for e in chosen if e.status is not Status.REJECTED]
    reasons = Counter(e.reason.value for e in chosen if e.status is Status.REJECTED and e.reason is not None)
    marked = sum(1 for e in kept if e.same_as)
    lines = [f"selection: {len(selection)} triples: {len(kept)} kept, {sum(reasons.values())} rejected, "
             f"{len(missing)} with no spec file"]
    if marked:
        lines.append(f"  selection kept, the same program as another kept one (same_as): {marked}")
    lines += [f"  selection rejected - {reason}: {n}" for reason, n in sorted(reasons.items())]
    lines += [f"  selection has no spec: {'/'.join(t)}" for t in missing]
    return tuple(lines)
