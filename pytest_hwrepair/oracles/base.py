"""The oracle seam and what every oracle kind shares: steps, categories, reference caching."""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from ..cases import Case
from ..sandbox.base import Execution, Limits, Sandbox
from ..verdict import Category, Verdict


class Oracle(Protocol):
    """Judges the candidate in a workspace; returns a verdict, never raises for the candidate's faults."""

    def check(self, workspace: Path, sandbox: Sandbox) -> Verdict: ...


@dataclass(frozen=True)
class OracleContext:
    """What oracles need from the run: where to cache, which limits, which tool choices."""

    cache_dir: Path
    limits: Limits = Limits()
    options: dict[str, Any] = field(default_factory=dict)


OracleFactory = Callable[[Case, OracleContext], Oracle]


def oracle_assets_dirs(case: Case) -> list[Path]:
    """Where `oracle.assets` are looked up: every `oracles/` above the case, then the project's own."""
    dirs = [p / "oracles" for p in case.root.resolve().parents if (p / "oracles").is_dir()]
    own = Path(__file__).resolve().parent.parent.parent / "oracles"
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
    for name, text in files.items():
        _write(workspace / name, text)
    for name in case.model.data:
        _write(workspace / name, case.files[name])
    for asset in case.oracle.assets:
        shutil.copyfile(resolve_asset(case, asset), workspace / Path(asset).name)


def _write(path: Path, text: str) -> None:
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
    path = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)
