"""Reading run directories for a report, and merging several into one set of samples.

A sample is identified by its key (DESIGN §10): the same key in two run directories is the same
sample (a copied run, a resumed shard, a rerun into a new directory), so a merge counts it once.

Records read whole (the HTML browser's) share equal values: a record decoded from JSON carries its own
copy of every string and small object (the same case name, fixer, category and token counts a million
times), so strings are interned and small flat objects equal by content are one object.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from ..results.rundir import RunDir, SampleRecord, differing, finished_of, read_records
from ..results.tally import Tally
from .check import RecordError, check_record
from .stream import DECIDED, Scan, merge_scans, scan

# Fields whose values repeat across records (few distinct values in a run).
SHARED = ("run", "case", "bug", "domain", "suite", "bug_type", "fixer", "label", "protocol", "outcome", "category",
          "bug_class", "stop_reason", "summary", "patch_sha")
FLAT = ("loc", "tokens", "durations", "metrics")


@dataclass(frozen=True)
class Run:
    """One run directory: its name in the report, run.json, and the tally of its finished samples.

    The records themselves are read only when asked for (`samples`: the HTML report's browser)."""

    path: Path
    name: str
    info: dict[str, Any]
    scan: Scan = field(repr=False)

    @cached_property
    def samples(self) -> dict[str, tuple[SampleRecord, ...]]:
        """The records of each finished sample by key (a rerun's final record replaces an earlier one)."""
        finished = finished_of(_checked(RunDir(self.path).samples))
        return {key: tuple(rs) for key, rs in finished.items()}


@dataclass(frozen=True)
class Merged:
    """The samples a report counts, with what the merge did to get them."""

    runs: tuple[Run, ...]
    tally: Tally
    duplicates: int
    samples: int
    notes: tuple[str, ...]
    by_run: bool = False

    @cached_property
    def counted(self) -> list[tuple[SampleRecord, Path]]:
        """Every counted record with its run directory, for its artifacts (read again from the run directories:
        only the HTML browser needs them)."""
        return _merged_records(self.runs, by_run=self.by_run)

    @property
    def records(self) -> list[SampleRecord]:
        return [r for r, _ in self.counted]


def load_run(path: Path, name: str | None = None) -> Run:
    """A run directory, its samples.jsonl streamed into a tally."""
    if not (path / "samples.jsonl").is_file():
        raise FileNotFoundError(f"{path}: no samples.jsonl (not a run directory)")
    run = RunDir(path)
    info = run.read_json("run.json")
    return Run(path, name or path.name, info if isinstance(info, dict) else {}, scan(run.samples))


class Compactor:
    """Shares equal strings and equal flat objects between the records it has seen."""

    def __init__(self) -> None:
        self.objects: dict[tuple[tuple[str, Any], ...], dict[str, Any]] = {}

    def record(self, data: dict[str, Any]) -> dict[str, Any]:
        for name in SHARED:
            value = data.get(name)
            if value.__class__ is str:
                data[name] = sys.intern(value)
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


def _checked(samples: Path) -> Iterator[SampleRecord]:
    """The records of a samples.jsonl, streamed and compacted, each checked for the types a report reads."""
    for r in read_records(samples, Compactor().record):
        try:
            check_record(r)
        except RecordError as exc:
            raise RecordError(f"{samples}: {exc}") from None
        yield r


def load_runs(paths: Sequence[Path]) -> list[Run]:
    """Every run directory given, named by its folder (by its path where two folders share a name)."""
    folders = [p.name for p in paths]
    names: list[str] = []
    for p in paths:
        name = p.name if folders.count(p.name) == 1 else str(p)
        unique, n = name, 2
        while unique in names:  # the same directory given twice
            unique, n = f"{name}#{n}", n + 1
        names.append(unique)
    return [load_run(p, name) for p, name in zip(paths, names)]


def merge(runs: Sequence[Run], *, by_run: bool = False) -> Merged:
    """One set of samples: by sample key, the first run holding a decided verdict wins (else the first)."""
    runs = tuple(runs)
    apart = () if by_run else _identities_apart(runs)
    by_run = by_run or bool(apart)
    prefixes = [f"{run.name}:" for run in runs] if by_run else None
    tally, duplicates, samples = merge_scans([run.scan for run in runs], prefixes=prefixes)
    if by_run:
        why = f"{apart[0]}" if apart else "--by-run"
        notes = (f"{why}: the samples of each of the {len(runs)} run directories are kept apart",) \
            if len(runs) > 1 else ()
        return Merged(runs, tally, 0, samples, notes, by_run=True)
    return Merged(runs, tally, duplicates, samples, _merge_notes(runs, duplicates, samples))


def _identities_apart(runs: Sequence[Run]) -> tuple[str, ...]:
    """One line per fixer name that two runs recorded with different settings (endpoint, sampling, prompt, ...):
    their samples are two fixers, never merged into one row."""
    seen: dict[str, tuple[str, Any]] = {}
    for run in runs:
        configs = run.info.get("fixer_configs")
        for config in configs.values() if isinstance(configs, dict) else ():
            if not isinstance(config, dict) or not isinstance(config.get("name"), str):
                continue
            first = seen.setdefault(config["name"], (run.name, config))
            if first[1] != config:
                keys = ", ".join(differing(first[1], config))
                return (f"{first[0]} and {run.name} ran {config['name']} with different {keys}",)
    return ()


def _decided(samples: tuple[SampleRecord, ...]) -> bool:
    return any(r.final and r.outcome in DECIDED for r in samples)


def _merged_records(runs: Sequence[Run], *, by_run: bool) -> list[tuple[SampleRecord, Path]]:
    """The counted records themselves with their run directories, by the rule `merge` counts with."""
    if by_run:
        return [(dataclasses.replace(r, fixer=f"{run.name}:{r.fixer}"), run.path) for run in runs
                for key in sorted(run.samples) for r in run.samples[key]]
    chosen: dict[str, tuple[tuple[SampleRecord, ...], Path]] = {}
    for run in runs:
        for key, samples in run.samples.items():
            if key not in chosen or (not _decided(chosen[key][0]) and _decided(samples)):
                chosen[key] = (samples, run.path)
    return [(r, chosen[key][1]) for key in sorted(chosen) for r in chosen[key][0]]


def _merge_notes(runs: Sequence[Run], duplicates: int, samples: int) -> tuple[str, ...]:
    if len(runs) < 2:
        return ()
    line = f"merged {len(runs)} run directories into {samples} samples"
    if duplicates:
        line += (f"; {duplicates} sample{'s' if duplicates != 1 else ''} present in more than one (same sample "
                 "key) counted once, from the first run directory holding a decided verdict")
    else:
        line += "; no sample is present in more than one"
    return (line,)


__all__ = ["Merged", "RecordError", "Run", "check_record", "load_run", "load_runs", "merge"]
