"""A sandbox wrapper that counts the CPU seconds of each step (the probe reports them as the fixer's cost).

Resource usage of processes inside bubblewrap's pid namespace never reaches this process, so each
step runs in a subshell followed by the shell's `times`, which reports the user and system time of
everything the step ran. Output, exit status and signal are the step's own.
"""

from __future__ import annotations

import re
import threading
from dataclasses import replace
from pathlib import Path

from ..sandbox.base import Execution, Limits, Sandbox
from ..sandbox.untrusted import UntrustedFileError, read_untrusted

TIMES_FILE = ".hwrepair-times"
_TIME = re.compile(r"(\d+)m([\d.]+)s")


class CountingSandbox:
    """Runs every step through `inner`, adding up the CPU seconds it used."""

    def __init__(self, inner: Sandbox) -> None:
        self.inner = inner
        self.name = inner.name
        self._lock = threading.Lock()
        self._seconds = 0.0

    @property
    def seconds(self) -> float:
        with self._lock:
            return self._seconds

    def run(self, workdir: Path, argv: str, *, timeout: float, limits: Limits) -> Execution:
        wrapped = f"( {argv}\n); __hwrepair_rc=$?; times > {TIMES_FILE}; exit $__hwrepair_rc"
        ex = self.inner.run(workdir, wrapped, timeout=timeout, limits=limits)
        used = _read_times(workdir)
        with self._lock:
            self._seconds += ex.duration if used is None else used
        return replace(ex, argv=argv)


def _read_times(workdir: Path) -> float | None:
    """Children's user + system seconds from the `times` report (its second line), or None."""
    try:
        text = read_untrusted(workdir, TIMES_FILE, cap=4096).text
    except (UntrustedFileError, OSError):
        return None
    finally:
        (workdir / TIMES_FILE).unlink(missing_ok=True)
    lines = text.strip().splitlines()
    found = _TIME.findall(lines[-1]) if lines else []
    return sum(int(m) * 60 + float(s) for m, s in found) if len(found) == 2 else None
