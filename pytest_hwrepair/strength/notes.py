"""Mutants shown equivalent by hand: `mutants.toml` next to a case's `case.toml`.

Mutation analysis shows a surviving mutant equivalent mechanically where it can (a Tier F proof,
identical `-O2` assembly). Where it cannot, a maintainer may argue it, one entry per mutant:

    [[equivalent]]
    at = "42:17"          # line:column (1-based) of the edit in the golden target
    old = "<"
    new = "<="
    reason = "i never reaches n here: the loop above stops at n - 1"

An entry matches a mutant only when the golden target still holds `old` at that place; an entry that
no longer matches is reported as stale, so a changed target never keeps an old argument.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..cases.case import Case
from ..verdict import CaseError
from .mutate import Edit

NOTES = "mutants.toml"


class _Entry(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    at: str = Field(pattern=r"^[1-9][0-9]*:[1-9][0-9]*$")
    old: str  # empty for an insertion
    new: str
    reason: str = Field(min_length=10)


class _Notes(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    equivalent: list[_Entry] = []


@dataclass(frozen=True, slots=True)
class Equivalences:
    """The hand-made equivalence arguments of one case, keyed by where and what the edit is."""

    reasons: dict[tuple[str, str, str], str]
    stale: tuple[str, ...] = ()

    def reason(self, edit: Edit, text: str) -> str | None:
        return self.reasons.get((position(edit, text), edit.old, edit.new))


def position(edit: Edit, text: str) -> str:
    """`line:column` (1-based) of an edit in the text it applies to."""
    column = edit.offset - (text.rfind("\n", 0, edit.offset) + 1) + 1
    return f"{edit.line(text)}:{column}"


def load_equivalences(case: Case) -> Equivalences:
    """The case's `mutants.toml` (none: no arguments); CaseError with one line for a bad file."""
    path = case.root / NOTES
    if not path.is_file():
        return Equivalences({})
    try:
        notes = _Notes.model_validate(tomllib.loads(path.read_text(encoding="utf-8")))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise CaseError(f"{path}: TOML syntax: {exc}") from None
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise CaseError(f"{path}: {where}: {first['msg']}") from None
    text = case.files[case.target]
    reasons: dict[tuple[str, str, str], str] = {}
    stale: list[str] = []
    for entry in notes.equivalent:
        if _holds(text, entry):
            reasons[(entry.at, entry.old, entry.new)] = entry.reason
        else:
            stale.append(f"{path}: equivalent at {entry.at}: the target no longer has {entry.old!r} there")
    return Equivalences(reasons, tuple(stale))


def _holds(text: str, entry: _Entry) -> bool:
    line, column = (int(part) for part in entry.at.split(":"))
    lines = text.split("\n")
    if line > len(lines) or column > len(lines[line - 1]) + 1:
        return False
    offset = sum(len(row) + 1 for row in lines[:line - 1]) + column - 1
    return text.startswith(entry.old, offset)


__all__ = ["NOTES", "Equivalences", "load_equivalences", "position"]
