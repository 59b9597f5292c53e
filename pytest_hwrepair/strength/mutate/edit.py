"""The unit every operator yields: one text edit, and how edits are applied and ordered."""

from __future__ import annotations

import enum
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass


class Op(enum.StrEnum):
    """Operator names (the families of the bug taxonomies the benchmark uses)."""

    RELATIONAL = "relational"
    ARITHMETIC = "arithmetic"
    LOGICAL = "logical"
    SHIFT = "shift"
    CONSTANT = "constant"
    BOUND = "bound"
    INDEX = "index"
    SWAP = "swap"
    TERNARY = "ternary"
    NEGATE = "negate"
    IDENTIFIER = "identifier"
    DELETE = "delete"
    TYPE = "type"
    INIT = "init"
    GUARD = "guard"
    BLOCKING = "blocking"
    SENSITIVITY = "sensitivity"
    RESET = "reset"
    BIT_INDEX = "bit_index"
    WIDTH = "width"
    SPECIAL = "special"  # an early return for one parameter value (mutation analysis only)
    SYNTAX = "syntax"  # repairs guided by a compiler or lint log (the search fixer's, not a mutant)


@dataclass(frozen=True, slots=True, order=True)
class Edit:
    """Replace `old` at `offset` by `new`; `operator` names the family that proposed it."""

    offset: int
    old: str
    new: str
    operator: Op

    @property
    def end(self) -> int:
        return self.offset + len(self.old)

    def applies_to(self, text: str) -> bool:
        return text[self.offset:self.end] == self.old

    def apply(self, text: str) -> str:
        """The text with this edit made; ValueError when `old` is not at `offset`."""
        if not self.applies_to(text):
            raise ValueError(f"edit at offset {self.offset}: expected {self.old!r}, found "
                             f"{text[self.offset:self.end]!r}")
        return text[:self.offset] + self.new + text[self.end:]

    def overlaps(self, other: Edit) -> bool:
        """Whether the two edits touch the same text (two insertions at one offset do)."""
        return self.offset == other.offset or (self.offset < other.end and other.offset < self.end)

    def line(self, text: str) -> int:
        """The 1-based line the edit starts on."""
        return text.count("\n", 0, self.offset) + 1

    def describe(self, text: str) -> str:
        return f"line {self.line(text)}: {self.operator.value}: {self.old.strip()!r} -> {self.new.strip()!r}"

    def to_json(self) -> dict[str, object]:
        return {"offset": self.offset, "old": self.old, "new": self.new, "operator": self.operator.value}


def apply_all(text: str, edits: Iterable[Edit]) -> str:
    """Make several non-overlapping edits at once; ValueError when two overlap."""
    ordered = sorted(edits, key=lambda e: (e.offset, e.end))
    for a, b in zip(ordered, ordered[1:]):
        if a.overlaps(b):
            raise ValueError(f"edits at offsets {a.offset} and {b.offset} overlap")
    for edit in reversed(ordered):
        text = edit.apply(text)
    return text


def seeded_order(edits: Sequence[Edit], seed: int) -> list[Edit]:
    """The edits in an order that depends only on the edits and the seed."""
    out = sorted(set(edits))
    random.Random(seed).shuffle(out)
    return out
