"""The on-disk model response cache: one file per request, written atomically, shared by every worker."""

from __future__ import annotations

import hashlib
import json
import os
import uuid
from pathlib import Path
from typing import Any


def request_key(provider: str, model: str, request: dict[str, Any], sample: int) -> str:
    """Hash of everything that decides an answer; the sample index keeps n samples apart."""
    blob = json.dumps({"provider": provider, "model": model, "request": request, "sample": sample},
                      sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(blob.encode()).hexdigest()


class ResponseCache:
    """Response bodies by request key under DIR/<provider>/<k[:2]>/<k>.json."""

    def __init__(self, directory: Path, provider: str, *, enabled: bool = True) -> None:
        self.directory = directory / provider
        self.enabled = enabled

    def path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        """The stored entry, or None (also for a torn or foreign file: it is simply asked again)."""
        if not self.enabled:
            return None
        try:
            entry = json.loads(self.path(key).read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError, UnicodeDecodeError):
            return None
        return entry if isinstance(entry, dict) and "response" in entry else None

    def put(self, key: str, entry: dict[str, Any]) -> None:
        """Write to a private temporary name, then rename: readers never see half a file."""
        if not self.enabled:
            return
        path = self.path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.parent / f".{key}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp"
        try:
            tmp.write_text(json.dumps(entry, sort_keys=True), encoding="utf-8")
            os.replace(tmp, path)
        finally:
            tmp.unlink(missing_ok=True)


__all__ = ["ResponseCache", "request_key"]
