"""Records as a report holds them: a million records must fit in memory many times over.

A record decoded from JSON carries its own copy of every string and small object: the same case
name, fixer, category and token counts a million times. A report only reads records, so equal
values are shared: strings are interned, and small flat objects equal by content are one object.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..results.rundir import SampleRecord, read_records

# Fields whose values repeat across records (few distinct values in a run).
SHARED = ("run", "case", "bug", "domain", "suite", "bug_type", "fixer", "label", "protocol", "outcome", "category",
          "bug_class", "stop_reason", "summary", "patch_sha")
FLAT = ("loc", "tokens", "durations", "metrics")


class Compactor:
    """Shares equal strings and equal flat objects between the records it has seen."""

    def __init__(self) -> None:
        self.objects: dict[tuple[tuple[str, Any], ...], dict[str, Any]] = {}
        self.intern = sys.intern

    def record(self, data: dict[str, Any]) -> dict[str, Any]:
        for name in SHARED:
            value = data.get(name)
            if value.__class__ is str:
                data[name] = self.intern(value)
        for name in FLAT:
            value = data.get(name)
            if value.__class__ is dict:
                data[name] = self._shared(value)
        return data

    def _shared(self, value: dict[str, Any]) -> dict[str, Any]:
        key = tuple(value.items())  # records are written with sorted keys: equal objects give equal tuples
        try:
            if len(self.objects) > 1_000_000:  # every object distinct: sharing saves nothing, stop remembering
                return self.objects.get(key, value)
            return self.objects.setdefault(key, value)
        except TypeError:  # a nested list or object: not flat, kept as it is
            return value


def read_compact(path: Path) -> Iterator[SampleRecord]:
    """The records of a samples.jsonl, streamed, sharing equal values; lines that are not records are skipped."""
    return read_records(path, Compactor().record)


__all__ = ["Compactor", "read_compact"]
