"""What a search-based fixer may ask of the harness: the suite oracle on its own candidates, and coverage.

The probe is built by the harness for one task. It never exposes the case, its golden files or the
strong oracle: a fixer hands it candidate files and gets back the verdict a developer's own test run
would give (the suite oracle, run through the same sandbox and oracle semaphore as every candidate).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from ...verdict import Verdict
from ..base import RepairTask


class SuiteProbe(Protocol):
    """The suite oracle of one task, as a search fixer sees it."""

    @property
    def jobs(self) -> int:
        """How many checks may run at once (the oracle semaphore's size)."""
        ...

    @property
    def language(self) -> str:
        """The target's language: `c`, `cuda` or `verilog`."""
        ...

    @property
    def cpu_seconds(self) -> float:
        """CPU seconds the probe's sandboxed steps have used so far."""
        ...

    def check(self, files: dict[str, str]) -> Verdict:
        """The suite oracle's verdict on the visible buggy files with these files (the target) in place."""
        ...

    def syntax(self, files: dict[str, str]) -> Verdict | None:
        """A cheap syntax-only pass: a failing verdict, or None when it parses (or no such pass exists)."""
        ...

    def coverage(self, files: dict[str, str]) -> dict[int, int] | None:
        """Execution counts per line of the target on the suite's run, or None where none can be taken."""
        ...


ProbeFactory = Callable[[RepairTask], SuiteProbe]

__all__ = ["ProbeFactory", "SuiteProbe"]
