"""The oracle seam and what every oracle kind shares: steps, categories, reference caching."""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from ..cases.case import Bug, Case, OracleSpec, StrongSpec
from ..sandbox import scratch
from ..sandbox.base import Execution, Limits, Sandbox
from ..settings import Settings
from ..verdict import Category, Outcome, Verdict

if TYPE_CHECKING:
    from ..fixers.base import Candidate

S = TypeVar("S", bound=OracleSpec)


class Oracle(Protocol):
    """Judges the candidate in a workspace; returns a verdict, never raises for the candidate's faults."""

    def check(self, workspace: Path, sandbox: Sandbox) -> Verdict: ...


@dataclass(frozen=True, slots=True)
class OracleOptions:
    """The run's choices every oracle kind may read (from the command line; part of verdict reuse keys)."""

    simulator: str = "iverilog"
    perf_gate: float | None = None
    seed: int = 0
    gpu: bool | None = None  # None: use a CUDA device when one is present
    timing_runs: int | None = None
    equiv_depth: int | None = None
    reuse_objects: bool = True  # hls: link objects of a case's unchanged C files (oracles/hls/builds.py)

    @classmethod
    def of(cls, value: OracleOptions | dict[str, Any] | None) -> OracleOptions:
        """Options from a mapping of field names (unknown names are an error: they would be ignored)."""
        if value is None or isinstance(value, OracleOptions):
            return value or cls()
        if unknown := sorted(set(value) - set(cls.__dataclass_fields__)):
            raise ValueError(f"oracle options: unknown {', '.join(unknown)}")
        return cls(**value)

    @classmethod
    def from_settings(cls, settings: Settings) -> OracleOptions:
        """The options a run's settings choose (the command line's `--hwrepair-*` oracle flags)."""
        return cls(simulator=settings.simulator, perf_gate=settings.perf_gate, seed=settings.seed,
                   gpu={"auto": None, "yes": True, "no": False}[settings.gpu], timing_runs=settings.timing_runs,
                   reuse_objects=not settings.no_object_reuse)

    def to_json(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


@dataclass(frozen=True)
class OracleContext:
    """What oracles need from the run: where to cache, which limits, which tool choices."""

    cache_dir: Path
    limits: Limits = Limits()
    options: OracleOptions = field(default_factory=OracleOptions)

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", OracleOptions.of(self.options))


OracleFactory = Callable[[Case, OracleContext], Oracle]


def passed_or_none(verdict: Verdict) -> bool | None:
    """A strong oracle's verdict as the record's `strong` field: None when it could not decide."""
    return verdict.passed if verdict.outcome in (Outcome.PASSED, Outcome.FAILED) else None


Judge = Callable[[dict[str, str]], tuple[Verdict, "bool | None"]]  # a workspace's files -> (verdict, strong)


@dataclass(frozen=True)
class TreeAttempt:
    """One judged whole-tree candidate: its verdict, strong result, diff from the snapshot, and the text that
    multiplicity and history see (None when there was no candidate)."""

    verdict: Verdict
    strong: bool | None
    diff: str
    text: str | None


class TreeRepair(Protocol):
    """A kind whose candidates span a whole tree (repository cases): what running a sample asks of it."""

    def bind(self, oracle: Oracle, bug: str) -> Oracle:
        """The oracle of one instance (each instance has its own tests)."""

    def attempt(self, case: Case, snapshot: Mapping[str, str], candidate: Candidate, judge: Judge, *,
                attempt: int, arm: bool) -> TreeAttempt:
        """Shape a candidate (files or a diff) into a tree, judge it, add the kind's metrics."""

    def feedback(self, verdict: Verdict) -> str:
        """The next round's feedback message for an unresolved attempt."""


@dataclass(frozen=True)
class OracleKind:
    """One oracle kind: its spec model and what the runner needs to know about it (DESIGN §8)."""

    name: str
    domains: tuple[str, ...]
    factory: OracleFactory
    spec: type[OracleSpec] = OracleSpec
    suite: bool = True  # may stand as a case's [oracle]
    strong: bool = False  # may stand as a case's [strong_oracle]
    strong_spec: type[StrongSpec] = StrongSpec
    # May a verdict be reused for an identical workspace within a run? Not when it measures time.
    reusable: bool = True
    needs_gpu: bool = False  # its runtime stage needs a CUDA device (items get the `gpu` marker)
    strong_on_pass_only: bool = False  # as the strong oracle, judges only what the suite oracle passed
    decide: Callable[[Verdict], bool | None] = passed_or_none
    # Why a bug cannot be judged on this machine at all (None: it can); decided before the fixer is called.
    unavailable: Callable[[Case, Bug, OracleOptions], str | None] | None = None
    marker: str | None = None  # items of this kind also carry this marker (e.g. `repo`)
    tree: TreeRepair | None = None  # candidates span the whole tree: shaped, judged and fed back by the kind


def typed_spec(spec: OracleSpec, model: type[S]) -> S:
    """The case's oracle spec as the kind's own model (the loader validated it with that model)."""
    if not isinstance(spec, model):
        raise TypeError(f"oracle.kind {spec.kind!r}: spec is a {type(spec).__name__}, not a {model.__name__}")
    return spec


OWN_ASSETS = Path(__file__).resolve().parent.parent / "oracle_assets"  # package data: a wheel has no checkout


def oracle_assets_dirs(case: Case) -> list[Path]:
    """Where `oracle.assets` are looked up: every `oracles/` above the case, then the ones the package ships."""
    dirs = [p / "oracles" for p in case.root.resolve().parents if (p / "oracles").is_dir()]
    own = OWN_ASSETS.resolve()
    if own.is_dir() and own not in dirs:
        dirs.append(own)
    return dirs


def resolve_asset(case: Case, asset: str) -> Path:
    for base in oracle_assets_dirs(case):
        candidate = base / asset
        if candidate.is_file():
            return candidate
    raise FileNotFoundError(f"{case.path}: oracle.assets: {asset!r} not found under any oracles/ directory")


def populate(workspace: Path, case: Case, files: dict[str, str]) -> None:
    """Lay out a workspace: the given visible files, the case's data files and the oracle assets."""
    write_files(workspace, files)
    write_files(workspace, {name: case.files[name] for name in case.model.data})
    for asset in case.oracle.assets:
        shutil.copyfile(resolve_asset(case, asset), workspace / Path(asset).name)


def write_files(root: Path, files: Mapping[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def step_failure(ex: Execution, stage: str) -> Verdict | None:
    """The verdict for a failed build or run step, or None when the step succeeded."""
    tail = ex.tail()
    if ex.timed_out:
        return Verdict.fail(Category.TIMEOUT, f"{stage} timed out after {ex.duration:.1f}s", log_tail=tail)
    if ex.returncode == 0:
        return None
    if stage == "build":
        return Verdict.fail(Category.COMPILE_FAIL, f"build failed (exit {ex.returncode})", log_tail=tail)
    if ex.signal is not None:
        return Verdict.fail(Category.RUNTIME_CRASH, f"{stage} killed by signal {ex.signal}", log_tail=tail)
    return Verdict.fail(Category.RUNTIME_CRASH, f"{stage} exited with status {ex.returncode}", log_tail=tail)


def content_hash(*parts: str | bytes) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(part.encode() if isinstance(part, str) else part)
        h.update(b"\0")
    return h.hexdigest()[:32]


@contextmanager
def locked(path: Path) -> Iterator[None]:
    """An exclusive cross-process lock held for the block."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a+b") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def cached_text(cache_dir: Path, key: str, produce: Callable[[], str]) -> str:
    """Produce a text once per key across processes; kept outside any workspace."""
    path = cache_dir / f"{key}.txt"
    if path.exists():
        return path.read_text(encoding="utf-8")
    with locked(cache_dir / f"{key}.lock"):
        if path.exists():
            return path.read_text(encoding="utf-8")
        text = produce()
        tmp = path.with_suffix(f".tmp{os.getpid()}")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
        return text


@contextmanager
def scratch_workspace(prefix: str = "hwrepair-ref-") -> Iterator[Path]:
    path = scratch.make(prefix)  # swept at a later start if this process is killed
    try:
        yield path
    finally:
        remove_tree(path)


def remove_tree(path: Path) -> None:
    """Remove a workspace whatever candidate code left in it (3000-deep trees, odd modes, links)."""
    try:
        shutil.rmtree(path)
    except (OSError, RecursionError):
        # shutil recurses once per level; `rm` does not, and never follows links.
        subprocess.run(["rm", "-rf", "--one-file-system", "--", str(path)], check=False,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
