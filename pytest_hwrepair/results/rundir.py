"""Run directories (DESIGN §10): run.json, samples.jsonl with atomic appends, artifacts, summary.json."""

from __future__ import annotations

import datetime as dt
import fcntl
import hashlib
import json
import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..verdict import Category, Outcome, RepairProtocol

SCHEMA = 1


@dataclass(frozen=True, slots=True)
class SampleRecord:
    """One sample (or one iteration of a trajectory); the contract fields come first."""

    run: str
    key: str
    case: str
    bug: str
    domain: str
    suite: str
    bug_type: str
    fixer: str
    protocol: RepairProtocol
    sample: int
    iteration: int | None
    outcome: Outcome
    category: Category
    patch_sha: str | None = None
    loc: dict[str, int] = field(default_factory=dict)
    tokens: dict[str, int] = field(default_factory=lambda: {"input": 0, "output": 0, "cache_read": 0,
                                                            "cache_write": 0})
    cost_usd: float = 0.0
    durations: dict[str, float] = field(default_factory=dict)
    speedup: float | None = None
    strong: bool | None = None
    cached: bool = False
    schema: int = SCHEMA
    # Extensions beyond the contract.
    final: bool = True
    exec_id: str = ""
    nodeid: str = ""
    label: str = ""
    bug_class: str | None = None
    summary: str = ""
    artifact: str | None = None
    metrics: dict[str, Any] = field(default_factory=dict)
    stop_reason: str | None = None
    time: str = ""

    def __post_init__(self) -> None:
        # The enums are the record's types; their string values are accepted (and converted) on the way in.
        object.__setattr__(self, "protocol", _member(RepairProtocol, self.protocol))
        object.__setattr__(self, "outcome", _member(Outcome, self.outcome))
        object.__setattr__(self, "category", _member(Category, self.category))

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data: enums become their string values here, and only here."""
        data = asdict(self)
        for name in ("protocol", "outcome", "category"):
            data[name] = data[name].value
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SampleRecord:
        """A record from its JSON form; raises ValueError or TypeError for a record that is not one."""
        if _FIELDS.issuperset(data):
            return cls(**data)
        return cls(**{k: v for k, v in data.items() if k in _FIELDS})


_FIELDS = frozenset(SampleRecord.__dataclass_fields__)
_MEMBERS: dict[type, dict[str, Any]] = {kind: {m.value: m for m in kind}
                                        for kind in (RepairProtocol, Outcome, Category)}


def _member(kind: type, value: Any) -> Any:
    """The enum member of a value (a member or its string); raises ValueError for any other value."""
    try:
        return _MEMBERS[kind][value]
    except (KeyError, TypeError):
        return kind(value)


def sample_key(*, case_digest: str, bug: str, oracle: dict[str, Any], fixer: dict[str, Any],
               protocol: dict[str, Any], sample: int) -> str:
    """Hash of what decides a sample's result: a changed case or fixer config gives a new key."""
    return sample_keys(case_digest=case_digest, bug=bug, oracle=oracle, fixer=fixer, protocol=protocol,
                       samples=[sample])[0]


def sample_keys(*, case_digest: str, bug: str, oracle: dict[str, Any], fixer: dict[str, Any],
                protocol: dict[str, Any], samples: Sequence[int]) -> list[str]:
    """`sample_key` of each sample number, the rest serialised once: "sample" sorts last among the keys of
    {case, bug, oracle, fixer, protocol, sample}, so each blob is the shared part's text followed by its number."""
    shared = json.dumps({"case": case_digest, "bug": bug, "oracle": oracle, "fixer": fixer, "protocol": protocol},
                        sort_keys=True, default=str)
    head = shared[:-1] + ', "sample": '
    return [hashlib.sha256(f"{head}{int(n)}}}".encode()).hexdigest()[:20] for n in samples]


def patch_sha(text: str) -> str:
    """Hash of a candidate with all whitespace removed: equal candidates for multiplicity."""
    return hashlib.sha256(re.sub(r"\s+", "", text).encode()).hexdigest()[:16]


def new_run_dir(base: Path = Path(".hwrepair/runs")) -> Path:
    """A fresh run directory, made here: two runs started in the same second never share one."""
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    base.mkdir(parents=True, exist_ok=True)
    path, n = base / stamp, 1
    while True:
        try:
            path.mkdir()
            return path
        except FileExistsError:
            n += 1
            path = base / f"{stamp}-{n}"


def differing(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    """The keys whose values differ between two fixer configurations (one missing counts as differing)."""
    return sorted(k for k in {*a, *b} if a.get(k) != b.get(k))


class RunDir:
    """A run directory; safe to use from several processes at once."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.samples = path / "samples.jsonl"
        self.artifacts = path / "artifacts"

    @property
    def name(self) -> str:
        return self.path.name

    def create(self) -> None:
        self.artifacts.mkdir(parents=True, exist_ok=True)

    def begin_session(self, info: dict[str, Any]) -> None:
        """List this session in run.json before its first sample runs (`end` null until it ends normally)."""
        self.create()
        self.write_run_json({**info, "end": None})

    def write_run_json(self, info: dict[str, Any]) -> None:
        """Write run.json; on resume keep the first start time and list every session, ended or not."""
        previous = self.read_json("run.json") or {}
        entry = {k: info[k] for k in ("session", "start", "end", "pid") if k in info}
        sessions = [s for s in previous.get("sessions", [])
                    if not (isinstance(s, dict) and "session" in entry and s.get("session") == entry["session"])]
        data = {**previous, **info, "schema": SCHEMA, "sessions": [*sessions, entry],
                "start": previous.get("start", info.get("start"))}
        if isinstance(previous.get("fixer_configs"), dict) and "fixer_configs" in info:  # labels of earlier sessions
            data["fixer_configs"] = {**previous["fixer_configs"], **info["fixer_configs"]}
        self.write_json("run.json", data)

    def changed_fixer(self, configs: dict[str, Any]) -> str | None:
        """Why resuming here with these fixer configurations (label -> config) would mix two fixers under one
        label, or None: a label whose recorded configuration differs from this run's."""
        recorded = (self.read_json("run.json") or {}).get("fixer_configs")
        if not isinstance(recorded, dict):
            return None
        for label, config in configs.items():
            before = recorded.get(label)
            now = json.loads(json.dumps(config, default=str))
            if before is not None and before != now:
                keys = differing(before, now)
                shown = "; ".join(f"{k}: {before.get(k)!r} then, {now.get(k)!r} now" for k in keys)
                return (f"--hwrepair-run {self.path}: fixer {label!r} was run there with other settings ({shown}); "
                        "give another run directory (a report over both keeps them apart)")
        return None

    def write_json(self, name: str, data: Any) -> None:
        tmp = self.path / f".{name}.{os.getpid()}.tmp"
        tmp.write_text(json.dumps(data, indent=2, sort_keys=True, default=str) + "\n", encoding="utf-8")
        os.replace(tmp, self.path / name)

    def read_json(self, name: str) -> Any:
        try:
            return json.loads((self.path / name).read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            return None

    def append(self, records: Iterable[SampleRecord]) -> None:
        """Append records as whole lines under a lock: a killed writer never tears another's line."""
        payload = "".join(json.dumps(r.to_json(), sort_keys=True) + "\n" for r in records).encode()
        if not payload:
            return
        self.path.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.samples, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            _repair_torn_tail(fd, self.samples)
            os.write(fd, payload)
            os.fsync(fd)
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)

    def records(self) -> list[SampleRecord]:
        return list(read_records(self.samples))

    def finished(self, *, retry_errors: bool = False) -> dict[str, list[SampleRecord]]:
        return finished_of(read_records(self.samples), retry_errors=retry_errors)

    def artifact_dir(self, key: str) -> Path:
        path = self.artifacts / key
        path.mkdir(parents=True, exist_ok=True)
        return path


def decode_line(raw: bytes) -> Any:
    """One JSON line (a line that is not UTF-8 is read with replacement characters)."""
    return json.loads(raw.decode("utf-8", errors="replace"))


def read_records(path: Path,
                 shape: Callable[[dict[str, Any]], dict[str, Any]] | None = None) -> Iterator[SampleRecord]:
    """The records of a samples.jsonl, streamed; lines that are not records (torn, edited, foreign) are skipped;
    `shape` rewrites each decoded record first (the report shares equal values between records)."""
    try:
        fh = path.open("rb")
    except FileNotFoundError:
        return
    with fh:
        for raw in fh:
            try:
                data = decode_line(raw)
                if isinstance(data, dict):
                    yield SampleRecord.from_json(shape(data) if shape else data)
            except (ValueError, TypeError, KeyError):
                continue


def finished_of(records: Iterable[SampleRecord], *, retry_errors: bool = False) -> dict[str, list[SampleRecord]]:
    """Each finished sample's final record and its iterations by key, from one pass over the (streamed) records."""
    by_exec: dict[str, list[SampleRecord]] = {}
    finals: dict[str, SampleRecord] = {}
    for r in records:
        by_exec.setdefault(r.exec_id or r.key, []).append(r)
        if r.final and not (retry_errors and r.outcome is Outcome.ERROR):
            finals[r.key] = r
    # A sample is counted once: of its execution's final records (one, unless a line was written twice) only
    # the last stays.
    return {key: sorted((x for x in by_exec[r.exec_id or r.key] if x is r or not x.final),
                        key=lambda x: (x.iteration or 0, not x.final))
            for key, r in finals.items()}


def _repair_torn_tail(fd: int, path: Path) -> None:
    """If a writer died mid-line, end that line so the next record starts clean."""
    size = os.fstat(fd).st_size
    if size == 0:
        return
    with open(path, "rb") as fh:
        fh.seek(size - 1)
        if fh.read(1) != b"\n":
            os.write(fd, b"\n")


def now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
