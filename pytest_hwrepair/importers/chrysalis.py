"""`hwrepair import chrysalis`: the HLS repair study's benchmark rebuilt from its public sources (docs/importers.md).

A spec applies in its function's body, then in the code it calls (depth first, in call order: a Chrysalis design
unit is a function with its callees), at the first occurrence, preferring one spelt exactly as the spec spells
it; code the function does not reach is looked for in its file, then its program, where it must occur once.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import tempfile
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..cases.domains import HLS_BUG_TYPES
from ..strength.selfcheck import BugCheck
from .base import Entry, ImporterError, ImportReport, Reason, Status, prepare_out, split, write_case, write_report
from .check import failure, rejection_reason, shape_labels, two_sided
from .hls_programs import DATASETS, Program, chstone, machsuite, polybench
from .snippets import Span, calls, find_snippet, occurrence, same_code, tokens

SUITE_DIRS = ("chstone", "machsuite", "polybench")
_CASE_ID = re.compile(r"[^A-Za-z0-9_.-]+")
Verdicts = dict[str, BugCheck | None]  # validate's verdict per spec source (None: it gave none)


class ChrysalisImporter:
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
        entries += (write_edits(ns.out, edits, keep_twins) if ns.no_check
                    else checked(ns.out, edits, ns.jobs, ns.cache_dir, keep_twins))
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
    """Check every edit two-sided, then what passed a second time (undefined behaviour and a loaded machine
    can make one run pass); write only what passed both checks."""
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
        placed = write_cases(Path(tmp), edits, keep=None)
        checks = two_sided([Path(tmp)], jobs=jobs, cache_dir=cache_dir)
    found = (checks.get((str(Path(tmp, e.case, "case.toml")), e.bug)) for e in placed)
    return {e.source: shape_labels(check) if check else None for e, check in zip(placed, found)}


def write_cases(out: Path, edits: list[Edit], keep: Verdicts | None, same: dict[str, str] | None = None) -> list[Entry]:
    """One case per (program, file) holding its edits (with `keep`, those that passed); `same` from `twins`."""
    same = same or {}
    groups: dict[tuple[str, str, str], list[Edit]] = defaultdict(list)
    for edit in edits:
        groups[(edit.program.suite, edit.program.name, edit.file)].append(edit)
    entries: list[Entry] = []
    for (suite, _, file), group in sorted(groups.items()):
        program, name = group[0].program, case_id(group[0].program, file)
        rel = f"{suite}/{name}"
        bugs = _bugs(sorted(group, key=lambda e: (e.spec.type, e.spec.function, e.start)), same)
        kept = []
        for edit, bug in bugs:
            entry = _status(Entry(edit.spec.source, suite, Status.IMPORTED, detail=edit.where, case=rel, bug=bug["id"],
                                  group=edit.spec.type, same_as=same.get(edit.spec.source, "")), keep)
            if entry.status is not Status.REJECTED:
                kept.append(bug)
            entries.append(entry)
        if kept:
            fields = {"schema": 1, "id": name, "domain": "hls", "suite": program.suite,
                      "title": f"{program.title}: {file}", "sources": list(program.files), "target": file,
                      "data": list(program.data) or None, "oracle": program.oracle, "bug": kept}
            write_case(out / rel, fields, {**program.files, **program.data, **program.expected})
    return entries


def _status(entry: Entry, keep: Verdicts | None) -> Entry:
    if keep is None:
        return entry
    if (check := keep.get(entry.source)) is None:
        return entry.rejected(Reason.HARNESS_ERROR, "the check gave no verdict for this bug")
    if check.status == "accepted":
        return replace(entry, status=Status.ACCEPTED, detail=f"{entry.detail}; fails with {failure(check)}")
    return entry.rejected(rejection_reason(check), check.reason)


def case_id(program: Program, file: str) -> str:
    """The program's name, plus the file's stem when the bugs live in another file than the main one."""
    return program.name if file == program.search[0] else f"{program.name}-{_CASE_ID.sub('_', Path(file).stem)}"


def _bugs(edits: list[Edit], same: dict[str, str]) -> list[tuple[Edit, dict[str, Any]]]:
    counts: dict[str, int] = defaultdict(int)
    out = []
    for edit in edits:
        counts[edit.spec.type] += 1
        index, total = occurrence(edit.program.files[edit.file], edit.find, edit.start)
        note = f"Chrysalis-HLS spec {edit.spec.source} ({edit.spec.path.name}), {edit.where}"
        if edit.spec.source in same:
            note += f"; the same program as {same[edit.spec.source]}"
        out.append((edit, {"id": f"{edit.spec.type}-{counts[edit.spec.type]:02d}", "type": edit.spec.type,
                           "find": edit.find, "replace": edit.spec.faulty,
                           "occurrence": index if total > 1 else None, "note": note}))
    return out


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


# Chrysalis suite folder -> the suite name used here (and in selection lists).
SUITES = {"CHStone": "chstone", "MachSuite": "machsuite", "polybench": "polybench"}
_SUITE_ALIASES = {"chstone": "chstone", "chs": "chstone", "machsuite": "machsuite", "mach": "machsuite",
                  "polybench": "polybench", "poly": "polybench", "polybenchc": "polybench"}
_BUG_FILE = re.compile(r"^bug_([A-Z]+)\.txt$")


@dataclass(frozen=True, slots=True)
class Spec:
    """One single-edit bug specification: `HLS_Bug_Dataset/<suite>/<function>/Bugs/bug_<TYPE>.txt`."""

    suite: str
    function: str
    type: str
    original: str
    faulty: str
    path: Path

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.suite, self.function, self.type)

    @property
    def source(self) -> str:
        return "/".join(self.key)

    def entry(self) -> Entry:
        return Entry(self.source, self.suite, Status.IMPORTED, group=self.type)


def dataset_root(specs: Path) -> Path:
    """The `HLS_Bug_Dataset` folder: given itself or the checkout holding it."""
    for root in (specs / "HLS_Bug_Dataset", specs):
        if any((root / name).is_dir() for name in SUITES):
            return root
    raise ImporterError(f"--specs {specs}: no HLS_Bug_Dataset/ with CHStone/, MachSuite/ or polybench/ folders")


def load_specs(specs: Path) -> tuple[list[Spec], list[Entry]]:
    """Every candidate spec of the eight types (sorted), and the files rejected on reading."""
    root = dataset_root(specs)
    found: list[Spec] = []
    rejected: list[Entry] = []
    for folder, suite in SUITES.items():
        for path in sorted((root / folder).glob("*/Bugs/bug_*.txt")):
            m = _BUG_FILE.match(path.name)
            if m is None or m.group(1) not in HLS_BUG_TYPES:
                continue  # two-type files and the pragma types are not candidates of the study
            function, kind = path.parent.parent.name, m.group(1)
            try:
                found.append(_parse(path, suite, function, kind))
            except ValueError as exc:
                rejected.append(Entry(f"{suite}/{function}/{kind}", suite, Status.REJECTED,
                                      Reason.UNSUPPORTED, f"{path.name}: {exc}", group=kind))
    return found, rejected


def _parse(path: Path, suite: str, function: str, kind: str) -> Spec:
    """The spec in the file; ValueError says why it is no candidate."""
    try:
        data = json.loads(path.read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"unreadable spec: {exc}") from None
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    size, edits = data.get("Error Size"), data.get("Error Specification")
    if size != 1 or not isinstance(edits, list) or len(edits) != 1 or not isinstance(edits[0], dict):
        count = len(edits) if isinstance(edits, list) else 0
        raise ValueError(f"Error Size {size!r} with {count} edits (only single-edit specs are candidates)")
    edit = edits[0]
    original, faulty, declared = edit.get("Original Code"), edit.get("Faulty Code"), edit.get("Error Type")
    if not isinstance(original, str) or not isinstance(faulty, str) or not original.strip():
        raise ValueError("Original Code and Faulty Code must be non-empty strings")
    if declared != kind:
        raise ValueError(f"Error Type {declared!r} does not match the file name")
    return Spec(suite, function, kind, *unwrap(original, faulty), path)


_QUOTES = ('"""', "'''")
_ELIDED_BODY = re.compile(r"\{\s*\.\.\.\s*\}\s*$")
_ELIDED_TAIL = re.compile(r",?\s*\.\.\.\s*$")


def unwrap(original: str, faulty: str) -> tuple[str, str]:
    """Undo what some specs wrap their code in: Python triple quotes, and a body elided as `{...}`
    (or a trailing `...`) in both versions, which stands for code the edit leaves alone."""
    for quote in _QUOTES:
        if all(x.strip().startswith(quote) and x.strip().endswith(quote) and len(x.strip()) > 6
               for x in (original, faulty)):
            original, faulty = original.strip()[3:-3], faulty.strip()[3:-3]
    if _ELIDED_BODY.search(original) and _ELIDED_BODY.search(faulty):
        original, faulty = _ELIDED_BODY.sub("{", original), _ELIDED_BODY.sub("{", faulty)
    elif _ELIDED_TAIL.search(original) and _ELIDED_TAIL.search(faulty):
        original, faulty = _ELIDED_TAIL.sub("", original), _ELIDED_TAIL.sub("", faulty)
    return original, faulty


def load_selection(path: Path) -> set[tuple[str, str, str]]:
    """(suite, function, type) triples from a JSON list (the study's benchmark_meta.json) or text lines."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise ImporterError(f"--select {path}: cannot read: {exc}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return {_triple(line.replace(",", " ").split(), path, n)
                for n, line in enumerate(text.splitlines(), 1) if line.strip() and not line.lstrip().startswith("#")}
    if not isinstance(data, list):
        raise ImporterError(f"--select {path}: a JSON selection must be a list of entries")
    return {_json_triple(item, path, n) for n, item in enumerate(data, 1)}


def _json_triple(item: Any, path: Path, n: int) -> tuple[str, str, str]:
    if isinstance(item, list):
        return _triple([str(x) for x in item], path, n)
    if not isinstance(item, dict):
        raise ImporterError(f"--select {path}: entry {n}: expected an object or a [suite, function, type] list")
    # CHStone entries name their program (`benchmark`); MachSuite and PolyBench entries name `suite`.
    suite = item.get("suite") or ("chstone" if item.get("benchmark") else None)
    return _triple([str(suite), str(item.get("function")), str(item.get("bug_type") or item.get("type"))], path, n)


def _triple(parts: list[str], path: Path, n: int) -> tuple[str, str, str]:
    if len(parts) != 3:
        raise ImporterError(f"--select {path}: entry {n}: expected suite, function and bug type, got {parts!r}")
    suite = _SUITE_ALIASES.get(parts[0].lower().replace("-", "").replace("/", ""))
    if suite is None:
        raise ImporterError(f"--select {path}: entry {n}: unknown suite {parts[0]!r} "
                            f"(allowed: chstone, machsuite, polybench)")
    kind = parts[2].upper()
    if kind not in HLS_BUG_TYPES:
        raise ImporterError(f"--select {path}: entry {n}: bug type {parts[2]!r} is not one of "
                            f"{', '.join(HLS_BUG_TYPES)}")
    return (suite, parts[1], kind)


_NUMBERED = re.compile(r"^(.+)_(\d+)$")


@dataclass(frozen=True, slots=True)
class Edit:
    """A spec placed in an upstream file: replace text[start:end] by the faulty code."""

    spec: Spec
    program: Program
    file: str
    start: int
    end: int
    where: str = ""  # how the spec's function led to this place, for the import log and the bug's note

    @property
    def find(self) -> str:
        return self.program.files[self.file][self.start:self.end]

    @property
    def key(self) -> tuple[str, str, str, str]:
        """Equal for two edits that leave the same program behind (up to whitespace between tokens)."""
        text = self.program.files[self.file]
        edited = text[:self.start] + self.spec.faulty + text[self.end:]
        return (self.program.suite, self.program.name, self.file, hashlib.sha256(tokens(edited).encode()).hexdigest())


Home = tuple[Program, str, Span, str]  # program, file, definition, the name it is defined under


def homes(function: str, programs: list[Program]) -> list[Home]:
    """The definitions of `function`, preferred first: programs in name order, so a helper shared by
    several programs (softfloat in dfadd/dfdiv/dfmul/dfsin) always lands in the same one. Chrysalis
    names a second function of the same name `<name>_1` (bfs in bfs/bulk, bfs_1 in bfs/queue), and
    PolyBench 4 dropped the `_imper` suffix of its 3.x stencils."""
    if found := _defined(function, programs) or _defined(function.removesuffix("_imper"), programs):
        return found
    if m := _NUMBERED.match(function):
        found, n = _defined(m.group(1), programs), int(m.group(2))
        return found[n:] + found[:n] if n < len(found) else []
    return []


def _defined(function: str, programs: list[Program]) -> list[Home]:
    return [(p, name, Span(start, end), function) for p in programs for name, start, end in p.definitions(function)]


def unit(program: Program, function: str, file: str, span: Span) -> Iterator[tuple[str, str, Span]]:
    """(function, file, body) of `function`, then of each function it calls that the program defines (depth first)."""
    seen = {function}

    def walk(name: str, where: str, body: Span) -> Iterator[tuple[str, str, Span]]:
        yield name, where, body
        for callee in calls(program.files[where], body):
            if callee not in seen:
                seen.add(callee)
                for cfile, start, end in program.definitions(callee):
                    yield from walk(callee, cfile, Span(start, end))

    return walk(function, file, span)


def locate(spec: Spec, programs: list[Program]) -> Edit | Entry:
    if not (found := homes(spec.function, programs)):
        return spec.entry().rejected(Reason.NOT_FOUND, f"function {spec.function} is not defined in any "
                                                       f"{spec.suite} program here")
    for home in found:
        if (placed := _in_unit(spec, *home)) is not None:
            return placed
    for scope in ("file", "program"):
        for program, name, _, _ in found:
            files = [name] if scope == "file" else program.search
            hits = [(n, s) for n in files for s in find_snippet(program.files[n], spec.original)]
            if len(hits) == 1:
                return _edit(spec, program, *hits[0], f"not in {spec.function} or the code it calls; the only "
                                                      f"occurrence in its {scope}")
            if hits:
                where = ", ".join(sorted({f"{program.name}/{n}" for n, _ in hits}))
                return spec.entry().rejected(Reason.AMBIGUOUS, f"the original code is not in {spec.function} or "
                                             f"the code it calls, and occurs {len(hits)} times in its {scope} "
                                             f"({where})")
    first = found[0]
    return spec.entry().rejected(Reason.NOT_FOUND, f"the original code does not occur in {spec.function} "
                                 f"({first[0].name}/{first[1]}), the code it calls or anywhere in its program")


def _in_unit(spec: Spec, program: Program, file: str, span: Span, defined: str) -> Edit | Entry | None:
    """The first occurrence in the function's body, else in the first callee (depth first) holding one."""
    for function, where, body in unit(program, defined, file, span):
        text = program.files[where]
        if hits := find_snippet(text, spec.original, body):
            # Spacing tells recurring statements apart where tokens cannot (MachSuite's stencil3d writes its
            # boundary loop `i<height_size-1` and its stencil loop `i < height_size - 1`): a spec copied
            # from the code spells its statement as the code does, so an exact occurrence comes first.
            exact = [h for h in hits if text[h.start:h.end] == spec.original.strip()]
            pick = (exact or hits)[0]
            said = f"in {function}" if function == defined else f"in {function}, which {defined} calls"
            if len(hits) > 1:
                said = f"the first of {len(hits)} occurrences {said}" + (
                    "" if pick == hits[0] else " spelt as the spec spells it")
            return _edit(spec, program, where, pick, said)
    return None


def _edit(spec: Spec, program: Program, name: str, span: Span, where: str) -> Edit | Entry:
    edit = Edit(spec, program, name, span.start, span.end, where)
    if same_code(edit.find, spec.faulty):
        return spec.entry().rejected(Reason.NO_OP, "the faulty code equals the original up to whitespace")
    return edit


def twins(edits: list[Edit], preferred: Callable[[Edit], bool]) -> dict[str, str]:
    """For every edit that leaves the same program behind as another, the source of the one that stands
    for their group: the first `preferred` one (say, the one that passed its check), else the first."""
    groups: dict[tuple[str, str, str, str], list[Edit]] = {}
    for edit in edits:
        groups.setdefault(edit.key, []).append(edit)
    same: dict[str, str] = {}
    for group in groups.values():
        first = next((e for e in group if preferred(e)), group[0])
        same.update({e.spec.source: first.spec.source for e in group if e is not first})
    return same


def dedupe(edits: list[Edit], preferred: Callable[[Edit], bool]) -> tuple[list[Edit], list[Entry]]:
    """One edit of each group of `twins`; the others rejected as duplicates of it."""
    same = twins(edits, preferred)
    kept = [e for e in edits if e.spec.source not in same]
    dropped = [e.spec.entry().rejected(Reason.DUPLICATE, f"the same edit as {same[e.spec.source]}")
               for e in edits if e.spec.source in same]
    return kept, dropped
