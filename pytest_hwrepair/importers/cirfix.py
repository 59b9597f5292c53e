"""`hwrepair import cirfix`: CirFix's defect scenarios and the FPGA-debugging bugs from the rtl-repair repository.

One rtl case per (project, bug), judged as docs/importers.md says. Upstream, `benchmarks/cirfix/` and
`benchmarks/fpga-debugging/` describe each project in a TOML (`project.toml`, or a named TOML beside the sources)
with `[project]`, `[[bugs]]` and `[[testbenches]]`, paths relative to it. A project name described twice is one
of RTL-Repair's manual ports (synchronous reset, no tri-state bus): the first description, the original, is kept.
"""

from __future__ import annotations

import argparse
import re
import tomllib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from ..strength.selfcheck import BugCheck
from .base import Entry, ImporterError, ImportReport, Reason, Status, prepare_out, read_text, split, write_report
from .check import Staged, add_common_arguments, admit
from .rtl_probe import Probe, first_module, lint_problem, preprocess, probe

_CASE_ID = re.compile(r"[^A-Za-z0-9_.-]+")
TB_DIR = "testbench"
DEFAULT_TIMEOUT = 30.0
EQUIV_TIMEOUT = 120.0

SETS = {"cirfix": "cirfix", "fpga": "fpga-debugging"}  # the import's set name -> its folder in benchmarks/

# The CirFix paper's 32 defect scenarios (Ahmad, Huang, Weimer, ASPLOS'22, Table 3) as (project, bug).
PAPER_32 = frozenset({
    ("decoder_3_to_8", "wadden_buggy1"), ("decoder_3_to_8", "wadden_buggy2"),
    ("first_counter_overflow", "wadden_buggy1"), ("first_counter_overflow", "kgoliya_buggy1"),
    ("first_counter_overflow", "wadden_buggy2"),
    ("flip_flop", "wadden_buggy1"), ("flip_flop", "wadden_buggy2"),
    ("fsm_full", "wadden_buggy1"), ("fsm_full", "ssscrazy_buggy2"), ("fsm_full", "wadden_buggy2"),
    ("fsm_full", "ssscrazy_buggy1"),
    ("lshift_reg", "wadden_buggy1"), ("lshift_reg", "wadden_buggy2"), ("lshift_reg", "kgoliya_buggy1"),
    ("mux_4_1", "kgoliya_buggy1"), ("mux_4_1", "wadden_buggy2"), ("mux_4_1", "wadden_buggy1"),
    ("i2c_slave", "wadden_buggy1"), ("i2c_slave", "wadden_buggy2"), ("i2c_master", "kgoliya_buggy1"),
    ("sha3_keccak", "wadden_buggy1"), ("sha3_keccak", "round_ssscrazy_buggy1"), ("sha3_keccak", "wadden_buggy2"),
    ("sha3_padder", "ssscrazy_buggy1"),
    ("pairing", "wadden_buggy1"), ("pairing", "kgoliya_buggy1"), ("pairing", "wadden_buggy2"),
    ("reed_solomon_decoder", "BM_lamda_ssscrazy_buggy1"), ("reed_solomon_decoder", "out_stage_ssscrazy_buggy1"),
    ("sdram_controller", "wadden_buggy2"), ("sdram_controller", "kgoliya_buggy2"),
    ("sdram_controller", "wadden_buggy1"),
})


@dataclass(frozen=True, slots=True)
class UpBug:
    name: str
    original: str  # relative to the project's TOML directory
    buggy: str


@dataclass(frozen=True, slots=True)
class UpTestbench:
    """A CirFix Verilog testbench (sources, output, oracle) or an RTL-Repair trace table (table)."""

    name: str
    bugs: tuple[str, ...] | None = None  # the bugs it is meant for (None: every bug)
    sources: tuple[str, ...] = ()
    output: str = ""
    oracle: str = ""
    timeout: float | None = None
    init_files: tuple[str, ...] = ()
    table: str = ""


@dataclass(frozen=True, slots=True)
class Project:
    set: str
    name: str
    toml: Path
    top: str | None
    sources: tuple[str, ...]
    bugs: tuple[UpBug, ...]
    testbenches: tuple[UpTestbench, ...]

    @property
    def root(self) -> Path:
        return self.toml.parent

    def pick(self, bug: str, name: str | None = None, trace: bool = False) -> UpTestbench | None:
        """The testbench the upstream harness would use for this bug (or the one named, or the first trace)."""
        return next((t for t in self.testbenches if (t.name == name if name else t.bugs is None or bug in t.bugs)
                     and (t.table or not trace)), None)


def benchmarks_dir(checkout: Path) -> Path:
    """The `benchmarks/` folder of an rtl-repair checkout (or that folder itself)."""
    for candidate in (checkout / "benchmarks", checkout):
        if any((candidate / folder).is_dir() for folder in SETS.values()):
            return candidate
    raise ImporterError(f"{checkout}: no benchmarks/cirfix or benchmarks/fpga-debugging "
                        "(not a checkout of the rtl-repair repository)")


def find_projects(checkout: Path, sets: list[str]) -> tuple[list[Project], list[str]]:
    """Every project of the chosen sets, and notes on the descriptions left out (with why)."""
    root = benchmarks_dir(checkout)
    projects: list[Project] = []
    notes: list[str] = []
    for set_name in sets:
        folder = root / SETS[set_name]
        found: dict[str, Project] = {}
        for toml in sorted(folder.rglob("*.toml"), key=lambda p: (str(p.parent), p.name != "project.toml",
                                                                   len(p.name), p.name)):
            try:
                project = load_project(set_name, toml)
            except ValueError as exc:
                notes.append(f"{set_name}: {toml.relative_to(root)}: not read: {exc}")
                continue
            if project is None:
                continue
            if project.name in found:
                notes.append(f"{set_name}: {toml.relative_to(root)}: a port of {project.name} "
                             f"({found[project.name].toml.name} is the original, imported)")
                continue
            found[project.name] = project
        for directory in sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith(".")):
            if not any(directory.rglob("*.toml")):
                notes.append(f"{set_name}: {directory.name}: no project description (not imported)")
        projects += found.values()
    return projects, notes


def load_project(set_name: str, toml: Path) -> Project | None:
    """A project description, None for a TOML that is not one; ValueError when it cannot be read."""
    try:
        data = tomllib.loads(toml.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ValueError(str(exc)) from None
    head = data.get("project")
    if not isinstance(head, dict):
        return None
    name = str(head.get("name") or (toml.parent.name if toml.name == "project.toml" else toml.stem))
    top = head.get("toplevel")
    sources = tuple(_rel(s, "sources") for s in _list(head, "sources"))
    bugs = tuple(UpBug(str(b.get("name", "")), _rel(b.get("original") or "", "original", empty=True),
                       _rel(b.get("buggy", ""), "buggy")) for b in _list(data, "bugs", dict))
    tbs = tuple(_testbench(t) for t in _list(data, "testbenches", dict))
    return Project(set_name, name, toml, str(top) if top else None, sources, bugs, tbs)


def _testbench(raw: dict[str, Any]) -> UpTestbench:
    bugs = raw.get("bugs")
    common: dict[str, Any] = {"name": str(raw.get("name", "")),
                              "bugs": tuple(str(b) for b in bugs) if isinstance(bugs, list) else None}
    if "oracle" in raw:
        timeout = raw.get("timeout")
        return UpTestbench(**common, sources=tuple(_rel(s, "testbench source") for s in _list(raw, "sources")),
                           output=str(raw.get("output", "")), oracle=_rel(raw["oracle"], "oracle"),
                           timeout=float(timeout) if isinstance(timeout, (int, float)) else None,
                           init_files=tuple(_rel(s, "init-files") for s in _list(raw, "init-files")))
    return UpTestbench(**common, table=_rel(raw.get("table", ""), "table"))


def _list(table: dict[str, Any], key: str, item: type = str) -> list[Any]:
    """`table[key]`: a list of file names (or, with `item=dict`, an array of tables)."""
    value = table.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, item) for v in value):
        raise ValueError(f"{key}: expected " + ("an array of tables" if item is dict else "a list of file names"))
    return value


def _rel(path: object, what: str, *, empty: bool = False) -> str:
    """A path relative to the TOML's directory that stays inside it (no absolute paths, no `..`)."""
    text = str(path)
    if not text:
        if empty:
            return ""
        raise ValueError(f"{what}: missing file name")
    pure = PurePosixPath(text)
    if pure.is_absolute() or ".." in pure.parts:
        raise ValueError(f"{what}: {text!r} leaves the project directory")
    return pure.as_posix()


class CirFixImporter:
    name = "cirfix"
    help = "CirFix's defect scenarios and the FPGA-debugging bugs (a checkout of ekiwi/rtl-repair)"

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        add_common_arguments(parser, "rtl-repair (or its benchmarks/)")
        parser.add_argument("--set", dest="sets", action="append", choices=sorted(SETS),
                            help="import only this set (repeatable; default: cirfix and fpga)")
        parser.add_argument("--project", dest="projects", action="append", metavar="NAME",
                            help="import only this project (repeatable; e.g. decoder_3_to_8, axis-fifo-d4)")
        parser.add_argument("--trace", action="store_true",
                            help="judge by RTL-Repair's trace tables instead of CirFix's Verilog testbenches")
        parser.add_argument("--testbench", metavar="NAME", help="judge by the testbench of this name where it exists")
        parser.add_argument("--preprocess", action="store_true",
                            help="expand macros and inline includes of the design files (Icarus preprocessor)")

    def run(self, ns: argparse.Namespace) -> ImportReport:
        if not ns.checkout.is_dir():
            raise ImporterError(f"{ns.checkout}: not a directory")
        projects, notes = find_projects(ns.checkout, ns.sets or sorted(SETS))
        if ns.projects:
            unknown = sorted(set(ns.projects) - {p.name for p in projects})
            if unknown:
                raise ImporterError(f"--project {unknown[0]}: no such project in the chosen sets")
            projects = [p for p in projects if p.name in ns.projects]
        staged, entries = stage_all(projects, ns.testbench, ns.trace, ns.preprocess)
        prepare_out(ns.out, self.name, sorted(SETS))
        written, proving, decided = admit(staged, ns, remap=simulator_reason)
        notes += [f"Tier F on {d}: " + (why or "decides the golden design (kept)") for d, why in decided.items()]
        notes += proving
        entries += written
        entries.sort(key=lambda e: e.source)
        return write_report(ImportReport(self.name, ns.out, tuple(entries), (*group_notes(entries), *notes),
                                         {"trace": ns.trace, "testbench": ns.testbench}))


def stage_all(projects: list[Project], testbench: str | None, trace: bool,
              expand: bool) -> tuple[list[Staged], list[Entry]]:
    """The case of every bug that can be one, and the rejections of those that cannot."""
    found: list[Staged | Entry] = []
    for project in projects:
        reader = Reader(project, expand)
        golden = reader.all(project.sources)
        # A project without a top level (CirFix's I2C slave model): the first module of its first bug's file.
        top = project.top or (first_module(golden.get(project.bugs[0].original, "")) if golden and project.bugs
                              else None)
        seen = probe(golden, top) if golden is not None and top else None
        for bug in project.bugs:
            entry = Entry(f"{project.set}/{project.name}/{bug.name}", project.set, Status.IMPORTED,
                          group=bug_type(project, bug))
            found.append(stage_bug(project, bug, golden, seen, project.pick(bug.name, testbench, trace), entry, reader))
    return split(found)


def bug_type(project: Project, bug: UpBug) -> str:
    if project.set == "fpga":
        return "FPGA"
    return "CIRFIX32" if (project.name, bug.name) in PAPER_32 else "CIRFIX"


def stage_bug(project: Project, bug: UpBug, golden: dict[str, str] | None, seen: Probe | None,
              tb: UpTestbench | None, entry: Entry, reader: Reader) -> Staged | Entry:
    """One bug's case, or its log entry saying why it cannot be one."""
    if golden is None or seen is None:
        return entry.rejected(Reason.NOT_IMPORTABLE, f"the project's sources cannot be read: {reader.problem}")
    if not bug.original or bug.original not in golden:
        return entry.rejected(Reason.NOT_IMPORTABLE, f"the bug's original file {bug.original!r} is not a source")
    if (broken := reader.one(bug.buggy)) is None:
        return entry.rejected(Reason.NOT_IMPORTABLE, f"{bug.buggy}: {reader.problem}")
    if broken == golden[bug.original]:
        return entry.rejected(Reason.NO_OP, f"{bug.buggy} is the original file (a sanity check, not a bug)")
    if tb is None:
        return entry.rejected(Reason.NO_TESTBENCH, "the project has no testbench for this bug"
                              + (" of the requested kind" if project.testbenches else ""))
    if seen.rules:
        return entry.rejected(Reason.REFERENCE_FAILS, f"the original design breaks the rtl candidate rules: "
                                                      f"{seen.rules}")
    oracle, files, problem = tb_oracle(project, tb, seen, reader)
    if problem:
        return entry.rejected(Reason.NOT_IMPORTABLE, problem)
    lint = lint_problem({**golden, bug.original: broken}, seen.top, seen.waivers)
    project_id, bug_id = _CASE_ID.sub("_", project.name), _CASE_ID.sub("_", bug.name)
    broken_name = f"broken/{Path(bug.buggy).name}"
    kind = entry.group
    fields = {"schema": 1, "id": f"{project_id}-{bug_id}",
              "domain": "rtl", "suite": project.set, "title": f"{project.name}: {bug.name} ({tb.name})",
              "sources": list(golden), "target": bug.original, "spec": "spec.md", "oracle": oracle,
              "strong_oracle": {"kind": "rtl-equiv", "timeout": EQUIV_TIMEOUT} if seen.tier_f else None,
              "bug": [{"id": f"{kind}-01", "type": kind, "class": "syntactic" if lint else "behavioural",
                       "file": bug.original, "broken": broken_name,
                       "note": note(project, bug, tb, lint) + ("; design files preprocessed (macros expanded, "
                                                                  "includes inlined)" if reader.expand else "")}]}
    texts = {**golden, **files, broken_name: broken, "spec.md": spec_text(project, seen, tb)}
    return Staged(f"{project.set}/{project_id}/{bug_id}", fields, texts, entry, f"{project.set}/{project.name}")


def tb_oracle(project: Project, tb: UpTestbench, seen: Probe,
              reader: Reader) -> tuple[dict[str, Any], dict[str, str], str]:
    """The `rtl-tb` oracle table, the testbench files it names, and a problem ('' when none). Testbench sources
    go through the design's reader (`--preprocess`); oracle, trace and memory files are read as they are."""
    oracle: dict[str, Any] = {"kind": "rtl-tb", "top": seen.top,
                              "modules": list(seen.modules) if len(seen.modules) > 1 else None, **seen.clocking()}
    oracle["init"] = "zero" if project.set == "fpga" else "x"
    oracle["lint_waive"] = list(seen.waivers) or None
    files: dict[str, str] = {}
    if tb.table:
        if seen.clock is None and seen.stateful:
            return oracle, files, f"trace table {tb.table}: no single clock input among the top's ports"
        names = [(tb.table, f"{TB_DIR}/{Path(tb.table).name}")]
        oracle["table"] = names[0][1]
    else:
        bench, expected = [f"{TB_DIR}/{Path(s).name}" for s in tb.sources], f"{TB_DIR}/expected/{Path(tb.oracle).name}"
        data = [Path(s).name for s in tb.init_files]
        names = [*zip(tb.sources, bench), (tb.oracle, expected), *zip(tb.init_files, data)]
        oracle.update(testbench=bench, output=tb.output, expected=expected, tb_data=data or None)
    oracle["timeout"] = DEFAULT_TIMEOUT + 2 * (tb.timeout or 0.0)
    for upstream, name in names:
        text = reader.one(upstream) if upstream in tb.sources else read_text(project.root / upstream)
        if text is None:
            why = reader.problem if upstream in tb.sources else f"{upstream} is missing, a link or not text"
            return oracle, files, f"testbench {tb.name}: {why}"
        files[name] = text
    return oracle, files, ""


def note(project: Project, bug: UpBug, tb: UpTestbench, lint: str) -> str:
    where = " (one of the CirFix paper's 32 scenarios)" if (project.name, bug.name) in PAPER_32 else ""
    said = f"; syntactic here: the buggy file fails lint ({lint})" if lint else ""
    return f"upstream bug {project.name}/{bug.name}: {Path(bug.buggy).name}{where}; judged by testbench {tb.name}{said}"


def spec_text(project: Project, seen: Probe, tb: UpTestbench) -> str:
    ports = "\n".join(f"- {p.direction} `{p.name}`" + (f" ({p.width} bits)" if p.width > 1 else "")
                      for p in seen.ports) or "- (see the module header)"
    how = (f"the recorded input/output trace `{Path(tb.table).name}`" if tb.table else
           f"the testbench {', '.join(Path(s).name for s in tb.sources)}, whose output must match the known-good "
           "design's output")
    return (f"# {project.name}\n\nThe `{seen.top}` design from the {project.set} benchmark set of the rtl-repair "
            f"repository. It has a defect: repair it so that it behaves as the known-good design.\n\n"
            f"Ports of `{seen.top}`:\n\n{ports}\n\nThe repair is judged by {how}; keep every module's name and "
            "ports unchanged.\n")


def simulator_reason(check: BugCheck, reason: Reason) -> tuple[Reason, str]:
    """A reference that lints clean but fails its own testbench here: the recording is another simulator's."""
    if reason is Reason.REFERENCE_FAILS and check.reference.endswith(("/test_fail", "/compile_fail")):
        return Reason.SIMULATOR, ("the original design does not reproduce its testbench's oracle under Icarus "
                                  f"(upstream ran it on VCS): {check.reason.removeprefix('reference fails: ')}")
    return reason, check.reason


def group_notes(entries: list[Entry]) -> list[str]:
    """Kept instances per tag (bug type): the sets the published figures are reported on."""
    counts = Counter(e.group for e in entries if e.status is not Status.REJECTED)
    totals = Counter(e.group for e in entries)
    return ["kept per tag:", *(f"  {group}: {counts.get(group, 0)} of {totals[group]}" for group in sorted(totals))]


class Reader:
    """The project's design files as text: as written, or through the Icarus preprocessor (`--preprocess`)."""

    def __init__(self, project: Project, expand: bool) -> None:
        self.project, self.expand, self.problem = project, expand, ""

    def one(self, name: str) -> str | None:
        path = self.project.root / name
        if (text := read_text(path)) is None:
            self.problem = f"{name} is missing, a link or not text"
            return None
        if not self.expand:
            return text
        expanded, why = preprocess(path.parent, path.name)
        if expanded is None:
            self.problem = f"the preprocessor rejects {name}: {why}"
        return expanded

    def all(self, names: tuple[str, ...]) -> dict[str, str] | None:
        texts: dict[str, str] = {}
        for name in names:
            if (text := self.one(name)) is None:
                return None
            texts[name] = text
        return texts or None
