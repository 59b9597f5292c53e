"""The rtl-repair repository's benchmark descriptions: its project TOMLs, their bugs and testbenches.

`benchmarks/cirfix/` holds the CirFix projects and `benchmarks/fpga-debugging/` the FPGA-debugging bugs.
Each project is a TOML file (`project.toml` in a project directory, or a named TOML beside the sources)
with a `[project]` table (sources, top level), `[[bugs]]` (original and buggy file) and `[[testbenches]]`,
either CirFix's Verilog testbenches (sources, the output file they write, the oracle file it must match)
or RTL-Repair's I/O trace tables. Paths are relative to the TOML's directory. Where one project name is
described twice, the second description is one of RTL-Repair's manual ports of the design (a synchronous
reset, no tri-state bus); the original description is kept.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from .base import ImporterError

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

    def suits(self, bug: str) -> bool:
        return self.bugs is None or bug in self.bugs


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
        found = [t for t in self.testbenches if (t.name == name if name else t.suits(bug))]
        if trace:
            found = [t for t in found if t.table]
        return found[0] if found else None


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
                       _rel(b.get("buggy", ""), "buggy")) for b in _tables(data, "bugs"))
    tbs = tuple(_testbench(t) for t in _tables(data, "testbenches"))
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


def _list(table: dict[str, Any], key: str) -> list[str]:
    value = table.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"{key}: expected a list of file names")
    return value


def _tables(data: dict[str, Any], key: str) -> list[dict[str, Any]]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise ValueError(f"{key}: expected an array of tables")
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
