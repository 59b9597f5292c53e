"""The run's cost ledger: a running USD total shared by every worker, kept in the run directory."""

from __future__ import annotations

import json
import os
from pathlib import Path

from ..base import FixerUnavailable
from .cache import locked


class CostLedger:
    """Spent USD of a run; once `limit` is reached no new request may start."""

    def __init__(self, run_dir: Path, limit: float | None) -> None:
        self.path = run_dir / "cost.json"
        self.limit = limit

    def spent(self) -> float:
        with locked(self.path) as fd:
            return _read(fd)

    def check(self) -> None:
        """Raise FixerUnavailable when the limit is reached (a skip with that reason)."""
        if self.limit is None:
            return
        spent = self.spent()
        if spent >= self.limit:
            raise FixerUnavailable(f"cost limit reached: ${spent:.4f} spent of ${self.limit:.4f} "
                                   "(--hwrepair-cost-limit); no new model requests are made")

    def add(self, usd: float) -> float:
        """Add one response's cost; returns the new total."""
        with locked(self.path) as fd:
            total = _read(fd) + usd
            os.lseek(fd, 0, os.SEEK_SET)
            os.ftruncate(fd, 0)
            os.write(fd, json.dumps({"cost_usd": round(total, 9)}).encode())
            return total


def _read(fd: int) -> float:
    os.lseek(fd, 0, os.SEEK_SET)
    data = b""
    while chunk := os.read(fd, 4096):
        data += chunk
    try:
        return float(json.loads(data or b"{}").get("cost_usd", 0.0))
    except (json.JSONDecodeError, AttributeError, TypeError, ValueError):
        return 0.0


__all__ = ["CostLedger"]
