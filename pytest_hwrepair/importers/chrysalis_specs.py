"""Chrysalis-HLS bug specifications and selection lists (the HLS repair study's instance list)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..cases.domains import HLS_BUG_TYPES
from .base import Entry, ImporterError, Reason, Status

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
            spec, problem = _parse(path, suite, function, kind)
            if spec is not None:
                found.append(spec)
            else:
                rejected.append(Entry(f"{suite}/{function}/{kind}", suite, Status.REJECTED,
                                      Reason.UNSUPPORTED, problem, group=kind))
    return found, rejected


def _parse(path: Path, suite: str, function: str, kind: str) -> tuple[Spec | None, str]:
    try:
        data = json.loads(path.read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        return None, f"{path.name}: unreadable spec: {exc}"
    if not isinstance(data, dict):
        return None, f"{path.name}: not a JSON object"
    size, edits = data.get("Error Size"), data.get("Error Specification")
    if size != 1 or not isinstance(edits, list) or len(edits) != 1 or not isinstance(edits[0], dict):
        count = len(edits) if isinstance(edits, list) else 0
        return None, f"{path.name}: Error Size {size!r} with {count} edits (only single-edit specs are candidates)"
    edit = edits[0]
    original, faulty, declared = edit.get("Original Code"), edit.get("Faulty Code"), edit.get("Error Type")
    if not isinstance(original, str) or not isinstance(faulty, str) or not original.strip():
        return None, f"{path.name}: Original Code and Faulty Code must be non-empty strings"
    if declared != kind:
        return None, f"{path.name}: Error Type {declared!r} does not match the file name"
    original, faulty = unwrap(original, faulty)
    return Spec(suite, function, kind, original, faulty, path), ""


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
