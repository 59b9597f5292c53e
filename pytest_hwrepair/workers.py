"""How many xdist workers a run has, and the defaults that follow from it."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

# Settings whose default follows the number of workers when neither the command line nor the ini sets them.
FOLLOWS_WORKERS = ("max_concurrency",)


def worker_count(workerinput: Mapping[str, Any] | None, option: Any) -> int:
    """The run's xdist workers: a worker is told; the controller counts `-n` or its `--tx` specs (1 without)."""
    numprocesses, tx = getattr(option, "numprocesses", None), getattr(option, "tx", None)
    if workerinput is not None and isinstance(workerinput.get("workercount"), int):
        return max(1, int(workerinput["workercount"]))
    if isinstance(numprocesses, int) and numprocesses > 0:
        return numprocesses
    return _tx_count(tx)


def _tx_count(tx: Sequence[str] | None) -> int:
    total = 0
    for spec in tx or ():
        match = re.match(r"(\d+)\*", spec)
        total += int(match.group(1)) if match else 1
    return max(1, total)


def with_worker_defaults(cli: dict[str, Any], ini: Mapping[str, Any], workers: int) -> dict[str, Any]:
    """The command-line values with the worker-following defaults filled in where the user set nothing.

    Each worker sends one model request at a time, so a cap below the worker count only leaves workers idle
    waiting on a latency-bound API; a user who must respect a rate limit sets the option.
    """
    filled = dict(cli)
    for name in FOLLOWS_WORKERS:
        if filled.get(name) in (None, []) and ini.get(name) in (None, "", []):
            filled[name] = str(max(1, workers))
    return filled


__all__ = ["FOLLOWS_WORKERS", "with_worker_defaults", "worker_count"]
