"""The sandbox seam: run one command in a workspace under limits, or several commands in turn.

`run_commands` gives one Execution per command that ran, in order, stopping after the first that did not
succeed. Each command runs as a step of its own would: the workspace as the previous one left it, a fresh
`/tmp`, nothing the previous one left running, at most `timeout` seconds. A command's `keep` file is deleted
before it runs and moved, before the next command could touch it, to `kept/N/NAME` (N from 1). A command
marked `snapshot` (one a batch at most) that succeeded leaves at `kept/N.workspace` what a step of its own
would have copied back (directories and regular files within the step's limits), before the next one starts.

In one closed step a command shares its uid and pid namespace with the launcher that records results, so it
could tamper with a record; that gives it nothing, since it already decides its own output and exit status.
The golden outputs, the comparison and the deadline stay outside the step.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, runtime_checkable

from .local.transfer import copy_tree, move_inside, unlink_inside


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
        """The last lines of stdout then stderr, for a verdict's log tail."""
        text = "\n".join(part for part in (self.stdout, self.stderr) if part.strip())
        return "\n".join(text.splitlines()[-lines:])


class Sandbox(Protocol):
    """Runs a shell command line in a workspace; never raises for the candidate's faults."""

    name: str

    def run(self, workdir: Path, argv: str, *, timeout: float, limits: Limits) -> Execution: ...


@dataclass(frozen=True, slots=True)
class Command:
    """One command of a batch: `keep` names its output file (`file:NAME` checks); `snapshot` copies the workspace
    it left back apart (a build for a later check to start from; `run_commands`)."""

    argv: str
    keep: str | None = None
    snapshot: bool = False


@runtime_checkable
class BatchSandbox(Protocol):
    """A sandbox that can run several commands of one workspace in one closed step."""

    def run_batch(self, workdir: Path, commands: Sequence[Command], *, timeout: float, limits: Limits,
                  kept: Path | None = None) -> list[Execution]: ...


SNAPSHOT = "{}.workspace"  # under `kept`: the workspace after the N-th command, when it is marked `snapshot`


def run_commands(sandbox: Sandbox, workdir: Path, commands: Sequence[Command], *, timeout: float, limits: Limits,
                 kept: Path | None = None) -> list[Execution]:
    """Run `commands` in turn; `kept`, needed when a command keeps a file, is an empty directory on the
    workspace's filesystem."""
    if kept is None and any(c.keep or c.snapshot for c in commands):
        raise ValueError("run_commands: a command keeps a file or a snapshot but no `kept` directory was given")
    if sum(c.snapshot for c in commands) > 1:
        raise ValueError("run_commands: at most one command of a batch takes a snapshot of the workspace")
    if len(commands) > 1 and isinstance(sandbox, BatchSandbox):
        return sandbox.run_batch(workdir, commands, timeout=timeout, limits=limits, kept=kept)
    return one_by_one(sandbox, workdir, commands, timeout=timeout, limits=limits, kept=kept)


def one_by_one(sandbox: Sandbox, workdir: Path, commands: Sequence[Command], *, timeout: float, limits: Limits,
               kept: Path | None = None) -> list[Execution]:
    """The same, one sandbox step per command."""
    done: list[Execution] = []
    for index, command in enumerate(commands, 1):
        if command.keep:
            unlink_inside(workdir, command.keep)
        ex = sandbox.run(workdir, command.argv, timeout=timeout, limits=limits)
        done.append(ex)
        if command.keep and kept is not None:
            move_inside(workdir, command.keep, kept, f"{index}/{command.keep}")
        if not ex.ok:
            break
        if command.snapshot and kept is not None:
            shot = kept / SNAPSHOT.format(index)
            shot.mkdir()
            copy_tree(workdir, shot)  # a step's copy-back holds only directories and regular files
    return done
