"""The on-disk model response cache: one file per request, written atomically, shared by every worker.

An answer asked ahead (prefetch.py) reaches its item here; the request's lock file marks it in flight. Every
answer is written, even under `--hwrepair-no-cache` (which only stops reuse across runs): an interrupted run
loses no answer it was sent."""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ...sandbox.slots import lock


def request_key(provider: str, model: str, request: dict[str, Any], sample: int) -> str:
    """Hash of everything that decides an answer; the sample index keeps n samples apart."""
    blob = json.dumps({"provider": provider, "model": model, "request": request, "sample": sample},
                      sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(blob.encode()).hexdigest()


class ResponseCache:
    """Response bodies by request key under DIR/<provider>/<k[:2]>/<k>.json, each marked with the run that asked."""

    def __init__(self, directory: Path, provider: str, *, run: str, reuse: bool = True) -> None:
        self.directory = directory / provider
        self.run = run
        self.reuse = reuse  # answers of other runs are served too

    def path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        """The stored entry, or None (also for a torn or foreign file: it is simply asked again)."""
        try:
            entry = json.loads(self.path(key).read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError, UnicodeDecodeError):
            return None
        if not isinstance(entry, dict) or "response" not in entry:
            return None
        return entry if self.reuse or self.ours(entry) else None

    def ours(self, entry: dict[str, Any]) -> bool:
        """Whether this run asked for the entry (a request made ahead, or before an interruption)."""
        return entry.get("run") == self.run

    def fail(self, key: str, failure: dict[str, Any]) -> None:
        """Keep why this run's request made ahead failed, for its item (whichever worker runs it) to raise."""
        write_atomic(self.path(key).with_suffix(".failed"), json.dumps({**failure, "run": self.run}, sort_keys=True))

    def take_failure(self, key: str) -> dict[str, Any] | None:
        """This run's kept failure of the request, removed as it is taken (a rerun of the item asks again)."""
        path = self.path(key).with_suffix(".failed")
        try:
            failure = json.loads(path.read_text(encoding="utf-8"))
            path.unlink()
        except (OSError, json.JSONDecodeError, UnicodeDecodeError):
            return None
        return failure if isinstance(failure, dict) and self.ours(failure) else None

    @contextmanager
    def claim(self, key: str, *, wait: bool) -> Iterator[bool]:
        """Hold the request's lock for the block (yields False, without waiting, when another holds it)."""
        path = self.path(key).with_suffix(".lock")
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = lock(path, 0o600, wait=wait)
        try:
            yield fd is not None
        finally:
            if fd is not None:
                os.close(fd)  # closing drops the lock

    def put(self, key: str, entry: dict[str, Any]) -> None:
        write_atomic(self.path(key), json.dumps({**entry, "run": self.run}, sort_keys=True))


def write_atomic(path: Path, text: str) -> None:
    """Write to a private temporary name, then rename: readers never see half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.parent / f".{path.stem}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp"
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


@contextmanager
def locked(path: Path) -> Iterator[int]:
    """`path`, opened (made if missing) and exclusively locked across processes for the block: its descriptor."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield fd
    finally:
        os.close(fd)  # closing drops the lock
