"""`hwrepair import cirfix`: CirFix's defect scenarios and the FPGA-debugging bugs from the rtl-repair repository.

One rtl case per (project, bug): the project's original sources are the golden design, the bug's buggy file
the broken start of the file it replaces. The suite oracle is the testbench the upstream harness picks for the
bug (`rtl-tb`): CirFix's Verilog testbench with its output file and oracle file, or RTL-Repair's cycle trace
table (`--trace`, or where a project has nothing else). Tier F (`rtl-equiv`) is the strong oracle where it
decides the golden design against itself. Bug types tag the sets: `CIRFIX32` for the CirFix paper's 32
scenarios, `CIRFIX` for the repository's other CirFix bugs, `FPGA` for the FPGA-debugging set. Registers
power up X for CirFix (its testbenches run on 4-state simulators) and as 0 for the FPGA set (its traces were
recorded with Verilator), as the upstream experiments assume. Each instance is checked two-sided under Icarus
here; one whose original design does not reproduce its testbench's oracle under Icarus (CirFix ran on VCS) is
rejected as running on a commercial simulator only.
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path
from typing import Any

from ..strength.selfcheck import BugCheck
from .base import Entry, ImporterError, ImportReport, Reason, Status, prepare_out, read_text, split, write_report
from .cirfix_projects import PAPER_32, SETS, Project, UpBug, UpTestbench, find_projects
from .rtl_check import Staged, add_common_arguments, admit
from .rtl_probe import Probe, first_module, lint_problem, preprocess, probe

_CASE_ID = re.compile(r"[^A-Za-z0-9_.-]+")
TB_DIR = "testbench"
DEFAULT_TIMEOUT = 30.0
EQUIV_TIMEOUT = 120.0


class CirFixImporter:
    """CirFix and FPGA-debugging bugs with their testbenches, from the rtl-repair repository."""

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
              expand: bool = False) -> tuple[list[Staged], list[Entry]]:
    """The case of every bug that can be one, and the rejections of those that cannot."""
    found: list[Staged | Entry] = []
    for project in projects:
        reader = Reader(project, expand)
        golden = reader.all(project.sources)
        top = project.top or _first_module(project, golden)
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
    broken = reader.one(bug.buggy)
    if broken is None:
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
    """The `rtl-tb` oracle table, the testbench files it names, and a problem ('' when none).

    Testbench sources go through the same reader as the design (their macros expanded with `--preprocess`);
    oracle, trace and memory files are read as they are.
    """
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
        text = read_text(path)
        if text is None:
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
            text = self.one(name)
            if text is None:
                return None
            texts[name] = text
        return texts or None


def _first_module(project: Project, golden: dict[str, str] | None) -> str | None:
    """A project without a top level (CirFix's I2C slave model): the first module of its first bug's file."""
    if golden is None or not project.bugs:
        return None
    return first_module(golden.get(project.bugs[0].original, ""))
