"""Reading run directories for a report, and merging several into one set of samples.

A sample is identified by its key (DESIGN §10): the same key in two run directories is the same
sample (a copied run, a resumed shard, a rerun into a new directory), so a merge counts it once.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..results import RunDir, SampleRecord, finished_of
from .compact import read_compact

DECIDED = ("passed", "failed")
OUTCOMES = ("passed", "failed", "error", "skipped")
# What a report reads from each record, and the JSON types it accepts there.
FIELD_TYPES: dict[str, tuple[type, ...]] = {
    "run": (str,), "key": (str,), "case": (str,), "bug": (str,), "domain": (str,), "suite": (str,),
    "bug_type": (str,), "fixer": (str,), "protocol": (str,), "sample": (int,), "iteration": (int, type(None)),
    "category": (str,), "patch_sha": (str, type(None)), "loc": (dict,), "tokens": (dict,), "cost_usd": (int, float),
    "speedup": (int, float, type(None)), "strong": (bool, type(None)), "final": (bool,), "exec_id": (str,),
    "label": (str,), "bug_class": (str, type(None)), "summary": (str,), "artifact": (str, type(None)),
    "metrics": (dict,), "stop_reason": (str, type(None)), "nodeid": (str,),
}


class RecordError(ValueError):
    """A record of samples.jsonl holds a value of the wrong type."""


def check_record(r: SampleRecord) -> None:
    """Raise RecordError naming the first field whose value a report cannot use."""
    for name, types in FIELD_TYPES.items():
        value = getattr(r, name)
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            allowed = " or ".join("null" if t is type(None) else t.__name__ for t in types)
            raise RecordError(f"record {r.key!r}: field {name!r} is {value!r}, expected {allowed}")
    if r.outcome not in OUTCOMES:
        raise RecordError(f"record {r.key!r}: field 'outcome' is {r.outcome!r}, expected one of {', '.join(OUTCOMES)}")
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in r.loc.values()):
        raise RecordError(f"record {r.key!r}: field 'loc' is {r.loc!r}, expected an object of integers")


@dataclass(frozen=True, slots=True)
class Run:
    """One run directory: its name in the report, run.json, and the records of its finished samples."""

    path: Path
    name: str
    info: dict[str, Any]
    samples: dict[str, tuple[SampleRecord, ...]]

    @property
    def records(self) -> list[SampleRecord]:
        return [r for key in sorted(self.samples) for r in self.samples[key]]


@dataclass(frozen=True, slots=True)
class Merged:
    """The samples a report counts, with what the merge did to get them."""

    runs: tuple[Run, ...]
    records: tuple[SampleRecord, ...]
    duplicates: int
    notes: tuple[str, ...]
    origins: tuple[Path, ...] = ()  # the run directory of each record, for its artifacts


def load_run(path: Path, name: str | None = None) -> Run:
    """The finished samples of a run directory (a rerun's final record replaces an earlier one)."""
    if not (path / "samples.jsonl").is_file():
        raise FileNotFoundError(f"{path}: no samples.jsonl (not a run directory)")
    run = RunDir(path)
    info = run.read_json("run.json")
    finished = finished_of(_checked(run.samples))
    return Run(path, name or path.name, info if isinstance(info, dict) else {},
               {key: tuple(rs) for key, rs in finished.items()})


def _checked(samples: Path) -> Iterator[SampleRecord]:
    """The records of a samples.jsonl, streamed, each checked for the types a report reads."""
    for r in read_compact(samples):
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


def _decided(samples: tuple[SampleRecord, ...]) -> bool:
    return any(r.final and r.outcome in DECIDED for r in samples)


def merge(runs: Sequence[Run], *, by_run: bool = False) -> Merged:
    """One set of samples: by sample key, the first run holding a decided verdict wins (else the first)."""
    if by_run:
        renamed = [(dataclasses.replace(r, fixer=f"{run.name}:{r.fixer}"), run.path) for run in runs
                   for r in run.records]
        notes = (f"--by-run: the samples of each of the {len(runs)} run directories are kept apart",) \
            if len(runs) > 1 else ()
        return Merged(tuple(runs), tuple(r for r, _ in renamed), 0, notes, tuple(p for _, p in renamed))
    chosen: dict[str, tuple[tuple[SampleRecord, ...], Path]] = {}
    seen_in: dict[str, int] = {}
    for run in runs:
        for key, samples in run.samples.items():
            seen_in[key] = seen_in.get(key, 0) + 1
            if key not in chosen or (not _decided(chosen[key][0]) and _decided(samples)):
                chosen[key] = (samples, run.path)
    duplicates = sum(1 for n in seen_in.values() if n > 1)
    kept = [(r, chosen[key][1]) for key in sorted(chosen) for r in chosen[key][0]]
    return Merged(tuple(runs), tuple(r for r, _ in kept), duplicates, _merge_notes(runs, duplicates, len(chosen)),
                  tuple(p for _, p in kept))


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
