"""Reading run directories for a report, and merging several into one set of samples.

A sample is identified by its key (DESIGN §10): the same key in two run directories is the same sample, so
a merge counts it once. Within a run directory the last final record of a key counts (a rerun replaces a
verdict); across run directories, the first one holding a decided verdict. Iterations of a trajectory
count when their execution's final record does.

Memory follows bugs, not records: one pass folds every final record into a `Tally` and keeps 64-bit hashes
of its key and execution (17 bytes a record); only lines whose hash repeats are read again for their exact
keys (a collision is told apart there). Records read whole (the HTML browser's) share equal strings and
equal flat objects, which a million records repeat.
"""

from __future__ import annotations

import dataclasses
import operator
import sys
from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from ..results.rundir import RunDir, SampleRecord, decode_line, differing, finished_of, read_records
from ..results.tally import DECIDED, Tally, View, view_of
from ..verdict import Category, RepairProtocol

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
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in r.loc.values()):
        raise RecordError(f"record {r.key!r}: field 'loc' is {r.loc!r}, expected an object of integers")


# A record's JSON takes the fast way when it holds every field a report reads with exactly one of these types
# and known enum values; anything else goes through SampleRecord and check_record, which decide and explain.
_ITEMS = operator.itemgetter(*FIELD_TYPES, "cached", "outcome")
_JSON_EXACT = (*(frozenset(types) for types in FIELD_TYPES.values()), frozenset({bool}), frozenset({str}))
_PROTOCOLS, _OUTCOMES, _CATEGORIES = (frozenset(m.value for m in RepairProtocol), frozenset(OUTCOMES),
                                      frozenset(m.value for m in Category))
# Type signatures (in _ITEMS order) already found exact: a run's records share a handful, one lookup each.
_SIGNATURES: set[tuple[type, ...]] = set()


def _fast(d: dict[str, Any]) -> bool:
    try:
        values = _ITEMS(d)
    except KeyError:  # a field left to its default: the slow way fills and checks it
        return False
    signature = tuple(map(type, values))
    if signature not in _SIGNATURES:
        if not all(map(frozenset.__contains__, _JSON_EXACT, signature)):
            return False
        if len(_SIGNATURES) < 1024:
            _SIGNATURES.add(signature)
    return (d["protocol"] in _PROTOCOLS and d["outcome"] in _OUTCOMES and d["category"] in _CATEGORIES
            and all(v.__class__ is int for v in d["loc"].values()))


def record_view(d: Any) -> tuple[View, Any] | None:
    """(view, the record or a maker of it) of a decoded line; None for a non-record, RecordError for a bad one."""
    if not isinstance(d, dict):
        return None
    if _fast(d):
        return d, lambda: SampleRecord.from_json(d)  # every field a view reads is there
    try:
        r = SampleRecord.from_json(d)
    except (ValueError, TypeError, KeyError):
        return None
    check_record(r)
    return view_of(r), r


key_hash = hash  # 64 bits of a sample key (a repeat is checked on the exact keys; tests force collisions)


@dataclass
class Scan:
    """One run directory's records as a report counts them: its tally, and what merging needs."""

    path: Path
    tally: Tally
    hashes: np.ndarray  # int64 hash of each final record's key, in file order
    decided: np.ndarray  # bool: that final record is passed or failed
    winners: np.ndarray  # indices (among the final records) of those that count: the last of each key
    staged: dict[int, str]  # final index -> execution id, for final records of a trajectory
    pending: list[tuple[View, Any]]  # non-final records (iterations), with their maker

    def iterations(self, finals: np.ndarray) -> list[tuple[View, Any]]:
        """The held non-final records whose execution is that of one of these final records."""
        if not self.pending:
            return []
        execs = {self.staged[i] for i in finals.tolist() if i in self.staged}
        return [(v, r) for v, r in self.pending if (v["exec_id"] or v["key"]) in execs]


def _views(samples: Path) -> Iterator[tuple[View, Any]]:
    """(view, record or its maker) of each record line; torn, edited or foreign lines are skipped."""
    try:
        fh = samples.open("rb")
    except FileNotFoundError:
        return
    with fh:
        for raw in fh:
            try:
                d = decode_line(raw)
            except ValueError:
                continue
            try:
                got = record_view(d)
            except RecordError as exc:
                raise RecordError(f"{samples}: {exc}") from None
            if got is not None:
                yield got


def _finals(samples: Path) -> Iterator[tuple[int, View, Any]]:
    """(index among the final records, view, record or maker) of each final record."""
    index = 0
    for v, record in _views(samples):
        if v["final"]:
            yield index, v, record
            index += 1


def scan(samples: Path) -> Scan:
    """Fold a samples.jsonl into a tally of its finished samples."""
    tally = Tally()
    hashes, execs, decided = array("q"), array("q"), bytearray()
    staged: dict[int, str] = {}  # final index -> execution id, for final records of a trajectory
    pending: list[tuple[View, Any]] = []
    for v, record in _views(samples):
        if not v["final"]:
            pending.append((v, record))
            continue
        tally.fold(v, record)
        if v["iteration"] is not None:
            staged[len(hashes)] = v["exec_id"] or v["key"]
        hashes.append(key_hash(v["key"]))
        execs.append(key_hash(v["exec_id"] or v["key"]))
        decided.append(v["outcome"] in DECIDED)
    if pending:  # a final record sharing an iteration's execution without being a trajectory's: read its id
        wanted = np.array(sorted({key_hash(v["exec_id"] or v["key"]) for v, _ in pending}), dtype=np.int64)
        exec_hashes = np.frombuffer(execs.tobytes(), dtype=np.int64)
        missing = {i for i in np.flatnonzero(np.isin(exec_hashes, wanted)).tolist() if i not in staged}
        if missing:
            staged.update({i: v["exec_id"] or v["key"] for i, v, _ in _finals(samples) if i in missing})
    h = np.frombuffer(hashes.tobytes(), dtype=np.int64)
    winners = _last_of_each_key(samples, h)
    s = Scan(samples, tally, h, np.frombuffer(bytes(decided), dtype=np.bool_), winners, staged, pending)
    if len(winners) < len(h):  # a rerun replaced some verdicts: count only the last final record of each key
        s.tally = _recount(samples, winners)
    for v, record in s.iterations(winners):
        s.tally.fold(v, record)
    return s


def _exact_keys(samples: Path, indices: np.ndarray) -> dict[int, str]:
    """The keys of the final records at these indices (read again: only lines whose hash repeats)."""
    wanted = set(indices.tolist())
    return {i: str(v["key"]) for i, v, _ in _finals(samples) if i in wanted}


def _repeated(hashes: np.ndarray) -> np.ndarray:
    """Indices of the values that occur more than once."""
    uniq, counts = np.unique(hashes, return_counts=True)
    return np.flatnonzero(np.isin(hashes, uniq[counts > 1])) if (counts > 1).any() else np.empty(0, dtype=np.int64)


def _last_of_each_key(samples: Path, hashes: np.ndarray) -> np.ndarray:
    """Indices of the final records that count: for each key, its last final record."""
    clash = _repeated(hashes)
    if not len(clash):
        return np.arange(len(hashes))
    last = {key: i for i, key in sorted(_exact_keys(samples, clash).items())}  # a later index replaces an earlier
    return np.setdiff1d(np.arange(len(hashes)), np.setdiff1d(clash, list(last.values())))


def _recount(samples: Path, finals: np.ndarray) -> Tally:
    """A fresh tally of the final records at these indices (read again: only those are counted)."""
    wanted = np.zeros(int(finals.max()) + 1 if len(finals) else 0, dtype=bool)
    wanted[finals] = True
    tally = Tally()
    for i, v, record in _finals(samples):
        if i >= len(wanted):
            break  # lines appended since the first pass (a run still writing) are not part of this report
        if wanted[i]:
            tally.fold(v, record)
    return tally


def merge_scans(scans: Sequence[Scan], *, prefixes: Sequence[str] | None = None) -> tuple[Tally, int, int]:
    """(tally, duplicate keys, samples counted) over the runs; with `prefixes` (`--by-run`) every run counts in
    full, its fixers renamed."""
    if prefixes is None and len(scans) == 1:
        return scans[0].tally, 0, len(scans[0].winners)
    merged = Tally()
    if prefixes is not None:
        for s, prefix in zip(scans, prefixes):
            merged.absorb(s.tally, prefix)
        return merged, 0, sum(len(s.winners) for s in scans)
    hashes = np.concatenate([s.hashes[s.winners] for s in scans]) if scans else np.empty(0, dtype=np.int64)
    clash = _repeated(hashes)
    chosen = [s.winners for s in scans]
    duplicates = 0
    if len(clash):
        chosen, duplicates = _choose(scans, clash)
    for s, mine in zip(scans, chosen):
        if len(mine) == len(s.winners):
            merged.absorb(s.tally)
            continue
        part = _recount(s.path, mine)
        for v, record in s.iterations(mine):
            part.fold(v, record)
        merged.absorb(part)
    return merged, duplicates, sum(len(c) for c in chosen)


def _choose(scans: Sequence[Scan], clash: np.ndarray) -> tuple[list[np.ndarray], int]:
    """Per run, the final records that count once keys held by several runs are given to one of them."""
    offsets = np.cumsum([0, *(len(s.winners) for s in scans)])
    holders: dict[str, list[tuple[int, int, bool]]] = {}  # key -> (run, final index, decided), in run order
    for n, s in enumerate(scans):
        mine = clash[(clash >= offsets[n]) & (clash < offsets[n + 1])] - offsets[n]
        if not len(mine):
            continue
        finals = s.winners[mine]
        for i, key in sorted(_exact_keys(s.path, finals).items()):
            holders.setdefault(key, []).append((n, i, bool(s.decided[i])))
    drop: list[set[int]] = [set() for _ in scans]
    duplicates = 0
    for held in holders.values():
        if len({run for run, _, _ in held}) < 2:
            continue  # one run's key whose hash another key shares: no duplicate
        duplicates += 1
        keep = next((h for h in held if h[2]), held[0])
        for run, i, _ in held:
            if (run, i) != keep[:2]:
                drop[run].add(i)
    return [np.setdiff1d(s.winners, list(drop[n])) for n, s in enumerate(scans)], duplicates


# Fields whose values repeat across records (few distinct values in a run).
SHARED = ("run", "case", "bug", "domain", "suite", "bug_type", "fixer", "label", "protocol", "outcome", "category",
          "bug_class", "stop_reason", "summary", "patch_sha")
FLAT = ("loc", "tokens", "durations", "metrics")


@dataclass(frozen=True)
class Run:
    """One run directory: its name in the report, run.json, and the scan of its samples.jsonl."""

    path: Path
    name: str
    info: dict[str, Any]
    scan: Scan = field(repr=False)

    @cached_property
    def samples(self) -> dict[str, tuple[SampleRecord, ...]]:
        """The records of each finished sample by key, read only when asked for (the HTML browser)."""
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
        """Every counted record with its run directory, by `merge`'s rule (read again, for the HTML browser)."""
        if self.by_run:
            return [(dataclasses.replace(r, fixer=f"{run.name}:{r.fixer}"), run.path) for run in self.runs
                    for key in sorted(run.samples) for r in run.samples[key]]
        chosen: dict[str, tuple[tuple[SampleRecord, ...], Path]] = {}
        for run in self.runs:
            for key, samples in run.samples.items():
                if key not in chosen or (not _decided(chosen[key][0]) and _decided(samples)):
                    chosen[key] = (samples, run.path)
        return [(r, chosen[key][1]) for key in sorted(chosen) for r in chosen[key][0]]

    @property
    def records(self) -> list[SampleRecord]:
        return [r for r, _ in self.counted]


def load_run(path: Path, name: str | None = None) -> Run:
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
    apart = None if by_run else _identities_apart(runs)
    by_run = by_run or apart is not None
    prefixes = [f"{run.name}:" for run in runs] if by_run else None
    tally, duplicates, samples = merge_scans([run.scan for run in runs], prefixes=prefixes)
    if len(runs) < 2:
        notes: tuple[str, ...] = ()
    elif by_run:
        notes = (f"{apart or '--by-run'}: the samples of each of the {len(runs)} run directories are kept apart",)
    elif duplicates:
        notes = (f"merged {len(runs)} run directories into {samples} samples; {duplicates} "
                 f"sample{'s' if duplicates != 1 else ''} present in more than one (same sample key) counted once, "
                 "from the first run directory holding a decided verdict",)
    else:
        notes = (f"merged {len(runs)} run directories into {samples} samples; no sample is present in more than one",)
    return Merged(runs, tally, duplicates, samples, notes, by_run=by_run)


def _identities_apart(runs: Sequence[Run]) -> str | None:
    """Why the runs are kept apart: a fixer name two runs recorded with different settings is two fixers."""
    seen: dict[str, tuple[str, Any]] = {}
    for run in runs:
        configs = run.info.get("fixer_configs")
        for config in configs.values() if isinstance(configs, dict) else ():
            if not isinstance(config, dict) or not isinstance(config.get("name"), str):
                continue
            first = seen.setdefault(config["name"], (run.name, config))
            if first[1] != config:
                keys = ", ".join(differing(first[1], config))
                return f"{first[0]} and {run.name} ran {config['name']} with different {keys}"
    return None


def _decided(samples: tuple[SampleRecord, ...]) -> bool:
    return any(r.final and r.outcome in DECIDED for r in samples)
