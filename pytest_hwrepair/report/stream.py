"""Streaming run directories into tallies: a report's memory follows its bugs, not its records.

One pass over samples.jsonl folds every final record into a `Tally` at once and notes, per final
record, 64-bit hashes of its sample key and of its execution and whether its verdict is decided
(17 bytes a record).
Which record counts for a sample is decided afterwards (DESIGN §10): within a run directory the last
final record of a key (a rerun replaces an earlier verdict), across run directories the first one
holding a decided verdict. When no hash repeats (the usual case) the first pass is the answer. When
one does, the lines with a repeated hash are read again for their exact keys (a hash collision of
two keys is told apart there), and a run directory some of whose records no longer count is tallied
again from those that do. Iterations of a trajectory (non-final records) are held until the end and
count when their execution's final record does.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..results.bugstats import View
from ..results.rundir import decode_line
from ..results.tally import Tally
from .check import RecordError, record_view

DECIDED = ("passed", "failed")
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
    """(view, record or its maker) of each record line of a samples.jsonl; lines that are not records are skipped
    (torn, edited, foreign), a record with a wrongly typed field raises RecordError naming the file."""
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
    """One tally over the runs: by key, the first run holding a decided verdict counts (else the first); with
    how many sample keys stood in several runs, and how many samples count.

    With `prefixes` every run counts in full, its fixers renamed (`--by-run`)."""
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


__all__ = ["Scan", "merge_scans", "scan"]
