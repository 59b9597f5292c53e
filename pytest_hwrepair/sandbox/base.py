"""The sandbox seam: run one command in a workspace under limits."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, runtime_checkable


@dataclass(frozen=True, slots=True)
class Limits:
    """Resource limits for one step; sizes in bytes."""

    memory: int = 8 << 30
    processes: int = 256
    file_size: int = 256 << 20
    output: int = 8 << 20
    cpu_seconds: int | None = None
    network: bool = False
    gpu: bool = False
    toolchain: str = "hls"
    # Extra read-only directories visible at their own path, and extra environment variables: for
    # `cmd:` agents (their interpreter, their code, the variables the user passes); empty for oracle steps.
    mounts: tuple[str, ...] = ()
    env: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class Execution:
    """The result of one sandboxed step."""

    argv: str
    returncode: int | None
    stdout: str
    stderr: str
    duration: float
    timed_out: bool = False
    signal: int | None = None
    truncated: bool = False

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and not self.timed_out

    def tail(self, lines: int = 20) -> str:
        """The last lines of stderr then stdout, for a verdict's log tail."""
        text = "\n".join(part for part in (self.stdout, self.stderr) if part.strip())
        return "\n".join(text.splitlines()[-lines:])


class Sandbox(Protocol):
    """Runs a shell command line in a workspace; never raises for the candidate's faults."""

    name: str

    def run(self, workdir: Path, argv: str, *, timeout: float, limits: Limits) -> Execution: ...


@dataclass(frozen=True, slots=True)
class Command:
    """One command of a batch; `keep` names a workspace file that is its output (`file:NAME` checks); with
    `snapshot`, the workspace as the command left it (a build, for a later check to start from) is copied back
    apart when it succeeded (sandbox/batch.py)."""

    argv: str
    keep: str | None = None
    snapshot: bool = False


@runtime_checkable
class BatchSandbox(Protocol):
    """A sandbox that can run several commands of one workspace in one closed step (optional)."""

    def run_batch(self, workdir: Path, commands: Sequence[Command], *, timeout: float, limits: Limits,
                  kept: Path | None = None) -> list[Execution]: ...
