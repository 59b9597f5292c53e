"""What every importer shares: the importer seam, rejection reasons, the import log and the case writer."""

from __future__ import annotations

import argparse
import enum
import json
import shutil
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol, TypeVar

LOG_NAME = "import-{importer}.json"


class ImporterError(Exception):
    """Bad input to an importer (a missing checkout, an unreadable list): one line for the user."""


class Importer(Protocol):
    """Converts one published benchmark's checkout into ordinary case directories."""

    name: str
    help: str

    def add_arguments(self, parser: argparse.ArgumentParser) -> None: ...

    def run(self, ns: argparse.Namespace) -> ImportReport: ...


class Reason(enum.StrEnum):
    """Why a candidate instance was not imported (or not kept)."""

    NOT_FOUND = "not found"
    AMBIGUOUS = "ambiguous"
    DUPLICATE = "duplicate"
    UNSUPPORTED = "unsupported spec"
    NO_OP = "no-op edit"
    NOT_IMPORTABLE = "not importable"
    REFERENCE_FAILS = "reference fails"
    COMPILE_ERROR = "compile error"
    NOT_OBSERVABLE = "not observable"
    INF_NO_HANG = "INF does not hang"
    NOT_REPEATABLE = "not repeatable"
    HARNESS_ERROR = "harness error"
    SIMULATOR = "commercial simulator only"
    WRONG_FAILURE = "fails the wrong way"
    EQUIVALENT = "proved equivalent"
    PATCH_FAILS = "patch does not apply"
    NO_TESTBENCH = "no testbench"


class Status(enum.StrEnum):
    ACCEPTED = "accepted"  # imported and passed the two-sided check
    IMPORTED = "imported"  # imported, not checked here (left to `hwrepair validate`)
    REJECTED = "rejected"


@dataclass(frozen=True, slots=True)
class Entry:
    """One candidate instance of the upstream benchmark and what became of it."""

    source: str  # the upstream identity, e.g. "chstone/AddRoundKey/INF" or a task directory name
    suite: str
    status: Status
    reason: Reason | None = None
    detail: str = ""
    case: str = ""  # the written case directory, relative to the output directory
    bug: str = ""
    group: str = ""  # what the per-group counts use: the bug type or the cuda bucket
    same_as: str = ""  # the source of another candidate that leaves the very same program behind

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "same_as": self.same_as or None}  # status and reason are str enums

    def rejected(self, reason: Reason, detail: str) -> Entry:
        return replace(self, status=Status.REJECTED, reason=reason, detail=detail)


@dataclass(frozen=True)
class ImportReport:
    """Every candidate with its status; printed as counts and written as the import log."""

    importer: str
    out: Path
    entries: tuple[Entry, ...]
    notes: tuple[str, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)

    def lines(self) -> list[str]:
        lines = [f"REJECTED {e.source}: {e.reason.value if e.reason else ''}: {e.detail}"
                 for e in self.entries if e.status is Status.REJECTED]
        for suite in sorted({e.suite for e in self.entries}):
            mine = [e for e in self.entries if e.suite == suite]
            counts = Counter(e.status for e in mine)
            lines.append(f"{suite}: {len(mine)} candidates: " + ", ".join(f"{counts[s]} {s.value}" for s in Status))
            reasons = Counter(e.reason.value for e in mine if e.status is Status.REJECTED and e.reason)
            lines += [f"  rejected - {reason}: {n}" for reason, n in sorted(reasons.items())]
        return [*lines, *self.notes]

    def to_json(self) -> dict[str, Any]:
        return {"importer": self.importer, "entries": [e.to_json() for e in self.entries],
                "notes": list(self.notes), **dict(self.extra)}


T = TypeVar("T")


def split(found: Iterable[T | Entry]) -> tuple[list[T], list[Entry]]:
    """What an importer could make of its candidates, and the rejections of the others (each in order)."""
    items = list(found)
    return [f for f in items if not isinstance(f, Entry)], [f for f in items if isinstance(f, Entry)]


def prepare_out(out: Path, importer: str, owned: Iterable[str]) -> None:
    """Make `out` ready: a new or empty directory, or one this importer wrote before (its parts are replaced)."""
    log = out / LOG_NAME.format(importer=importer)
    if out.exists() and not out.is_dir():
        raise ImporterError(f"--out {out}: exists and is not a directory")
    if out.is_dir() and any(out.iterdir()) and not log.is_file():
        raise ImporterError(f"--out {out}: not empty and not written by `hwrepair import {importer}` "
                           f"(no {log.name}); give a new or empty directory")
    for name in owned:
        target = out / name
        if target.is_dir() and not target.is_symlink():
            shutil.rmtree(target)
    out.mkdir(parents=True, exist_ok=True)


def write_report(report: ImportReport) -> ImportReport:
    """Write the import log; the report, to return from `Importer.run`."""
    path = report.out / LOG_NAME.format(importer=report.importer)
    path.write_text(json.dumps(report.to_json(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return report


def write_case(case_dir: Path, fields: Mapping[str, Any], files: Mapping[str, str]) -> None:
    """A case directory: `case.toml` from the fields, and every named file."""
    for name, text in files.items():
        path = case_dir / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    case_dir.mkdir(parents=True, exist_ok=True)
    (case_dir / "case.toml").write_text(dump_toml(fields), encoding="utf-8")


def read_text(path: Path) -> str | None:
    """A checkout file as text, or None for a link or a file that is not UTF-8 text (never copied)."""
    if path.is_symlink():
        return None
    try:
        data = path.read_bytes()
        return None if b"\0" in data else data.decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def dump_toml(fields: Mapping[str, Any]) -> str:
    """TOML for a case file: scalars and lists first, then tables, then arrays of tables."""
    tables = {k: v for k, v in fields.items() if isinstance(v, Mapping)}
    arrays = {k: v for k, v in fields.items() if isinstance(v, list) and v and all(isinstance(x, Mapping) for x in v)}
    out = [f"{key} = {_value(value)}" for key, value in fields.items()
           if key not in tables and key not in arrays and value is not None]
    for key, table in tables.items():
        out += ["", f"[{key}]", *(f"{k} = {_value(v)}" for k, v in table.items() if v is not None)]
    for key, items in arrays.items():
        for item in items:
            out += ["", f"[[{key}]]", *(f"{k} = {_value(v)}" for k, v in item.items() if v is not None)]
    return "\n".join(out) + "\n"


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)  # TOML spells the special floats as Python does: inf, -inf, nan
    if isinstance(value, str):
        # A JSON string is a TOML basic string, once DEL (which JSON leaves raw) is escaped too.
        return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{k} = {_value(v)}" for k, v in value.items() if v is not None) + " }"
    raise TypeError(f"cannot write {type(value).__name__} to a case file")
