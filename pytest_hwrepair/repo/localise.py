"""Localisation metrics (contract definitions): edited files and modules against the gold patch, tiers, stages.

* Edited files: paths whose text differs between the snapshot and the candidate (testbench edits are
  discarded before this). Edited modules: every module (`module` ... `endmodule`) that holds a changed,
  removed or inserted line, on the old side or the new side of the change.
* Precision = |edited ∩ gold| / |edited| (None when nothing was edited); recall = |edited ∩ gold| / |gold|.
* Tier of an instance, from its gold patch's HDL files and hunks (three lines of context):
  T1 one file and at most 2 hunks; T3 four or more files or seven or more hunks; T2 everything between.
* Failure stage of an unresolved sample: `no_edit` (nothing edited), `localisation` (some gold file
  left untouched), `repair` (every gold file edited, the tests still fail).
"""

from __future__ import annotations

import difflib
import enum
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .load import is_hdl
from .patch import changed_paths, hunk_count, lines_of
from .summary import Stage

T1_MAX_HUNKS, T3_MIN_FILES, T3_MIN_HUNKS = 2, 4, 7
_BOUNDARY = re.compile(r"(?<![\w$])(?:(?:macro)?module\s+([A-Za-z_][\w$]*)|endmodule)(?![\w$])")


class Tier(enum.StrEnum):
    T1 = "T1"
    T2 = "T2"
    T3 = "T3"


def module_spans(text: str) -> list[tuple[str, int, int]]:
    """(name, first line, last line) of every module, 0-based and inclusive; comments never count."""
    # Imported here: the oracles package imports the repository oracle, which imports this module.
    from ..oracles.rtl.preflight import strip_comments

    code = strip_comments(text)
    spans: list[tuple[str, int, int]] = []
    open_at: tuple[str, int] | None = None
    for m in _BOUNDARY.finditer(code):
        line = code.count("\n", 0, m.start())
        if m.group(1) is not None:
            open_at = (m.group(1), line)
        elif open_at is not None:
            spans.append((open_at[0], open_at[1], line))
            open_at = None
    if open_at is not None:  # a module left open runs to the end of the file
        spans.append((open_at[0], open_at[1], max(len(lines_of(text)) - 1, open_at[1])))
    return spans


def touched_modules(before: str, after: str) -> set[str]:
    """Modules holding a changed line on either side; an insertion counts for the module around it."""
    old_spans, new_spans = module_spans(before), module_spans(after)
    matcher = difflib.SequenceMatcher(None, lines_of(before), lines_of(after), autojunk=False)
    return set[str]().union(*(_covering(old_spans, i1, i2) | _covering(new_spans, j1, j2)
                               for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"))


def _covering(spans: list[tuple[str, int, int]], start: int, stop: int) -> set[str]:
    if start == stop:  # an insertion before line `start`: inside a module when after its header line
        return {name for name, first, last in spans if first < start <= last}
    return {name for name, first, last in spans if start <= last and first < stop}


def edited_modules(before: Mapping[str, str], after: Mapping[str, str]) -> set[str]:
    """Modules of HDL files touched by the change from one file set to the other."""
    return set[str]().union(*(touched_modules(before.get(path, ""), after.get(path, ""))
                               for path in changed_paths(before, after) if is_hdl(path)))


def ratio(hits: int, total: int) -> float | None:
    return round(hits / total, 4) if total else None


@dataclass(frozen=True, slots=True)
class Gold:
    """What the gold patch of one instance touches, and its tier."""

    files: frozenset[str]
    modules: frozenset[str]
    hunks: int

    @property
    def tier(self) -> Tier:
        return tier_of(len(self.files), self.hunks)

    @classmethod
    def between(cls, snapshot: Mapping[str, str], fixed: Mapping[str, str]) -> Gold:
        hdl = [p for p in changed_paths(snapshot, fixed) if is_hdl(p)]
        hunks = sum(hunk_count(snapshot.get(p, ""), fixed.get(p, "")) for p in hdl)
        return cls(frozenset(hdl), frozenset(edited_modules(snapshot, fixed)), hunks)


def tier_of(files: int, hunks: int) -> Tier:
    if files <= 1 and hunks <= T1_MAX_HUNKS:
        return Tier.T1
    if files >= T3_MIN_FILES or hunks >= T3_MIN_HUNKS:
        return Tier.T3
    return Tier.T2


@dataclass(frozen=True, slots=True)
class Localisation:
    """A candidate's edits against the gold patch."""

    files: frozenset[str]
    modules: frozenset[str]
    gold: Gold

    @classmethod
    def of(cls, snapshot: Mapping[str, str], candidate: Mapping[str, str], gold: Gold) -> Localisation:
        return cls(frozenset(changed_paths(snapshot, candidate)), frozenset(edited_modules(snapshot, candidate)),
                   gold)

    def stage(self, resolved: bool) -> Stage | None:
        if resolved:
            return None
        if not self.files:
            return Stage.NO_EDIT
        if not self.gold.files <= self.files:
            return Stage.LOCALISATION
        return Stage.REPAIR

    def to_json(self, resolved: bool) -> dict[str, Any]:
        stage = self.stage(resolved)
        return {
            "resolved": resolved,
            "stage": stage.value if stage else None,
            "tier": self.gold.tier.value,
            "edited_files": sorted(self.files),
            "gold_files": sorted(self.gold.files),
            "edited_modules": sorted(self.modules),
            "gold_modules": sorted(self.gold.modules),
            "file_precision": ratio(len(self.files & self.gold.files), len(self.files)),
            "file_recall": ratio(len(self.files & self.gold.files), len(self.gold.files)),
            "module_precision": ratio(len(self.modules & self.gold.modules), len(self.modules)),
            "module_recall": ratio(len(self.modules & self.gold.modules), len(self.gold.modules)),
        }
