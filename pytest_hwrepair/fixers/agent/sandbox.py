"""Where a `cmd:` agent runs: the session's kind of sandbox, with the agent's own options.

The agent gets what a candidate step gets (its workspace only, its own uid and pid namespace,
killed with everything it started when it ends, times out or pytest dies) plus what the user
grants explicitly: network (`--hwrepair-agent-network`), read-only directories
(`--hwrepair-agent-mount`) and environment variables (`--hwrepair-agent-env`). It takes no oracle
slot: an agent waiting on its model must not hold a compiler's place.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from ...sandbox.base import Limits, Sandbox
from ...sandbox.local.jail import WORK
from ...settings import Settings
from ..base import FixerError

LOG_CAP = 1 << 20
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


@dataclass(frozen=True, slots=True)
class AgentOptions:
    """What the user grants the agent, checked once at configure time."""

    network: bool = False
    mounts: tuple[str, ...] = ()
    env: tuple[tuple[str, str], ...] = ()

    @classmethod
    def from_settings(cls, settings: Settings, run_dir: Path) -> AgentOptions:
        mounts = tuple(check_mount(path, settings, run_dir) for path in settings.agent_mount)
        return cls(settings.agent_network, mounts, tuple(passed_env(settings.agent_env)))

    def limits(self, domain: str) -> Limits:
        """The agent's step: logs capped while they stream, the user's grants, the domain's toolchain."""
        return Limits(output=LOG_CAP, network=self.network, toolchain=domain, mounts=self.mounts, env=self.env)


def check_mount(path: str, settings: Settings, run_dir: Path) -> str:
    """An absolute, existing path that does not expose the run directory or the cache."""
    where = "--hwrepair-agent-mount"
    real = os.path.realpath(os.path.expanduser(path))
    if not os.path.exists(real):
        raise FixerError(f"{where} {path!r}: no such file or directory")
    for secret in (Path(run_dir).resolve(), Path(settings.cache_dir).resolve()):
        if secret == Path(real) or Path(real) in secret.parents:
            raise FixerError(f"{where} {path!r}: would show the agent {secret} (the run directory or cache); "
                             "mount the agent's own directory instead")
    if real == "/":
        raise FixerError(f"{where} {path!r}: the whole filesystem cannot be mounted; name the agent's directories")
    if os.geteuid() == 0:
        _check_reachable(where, path, Path(real))
    return real


def _check_reachable(where: str, path: str, real: Path) -> None:
    """As root the agent runs under an unprivileged uid of its own: it must be able to read the mount."""
    for parent in real.parents:
        if not os.stat(parent).st_mode & 0o001:
            raise FixerError(f"{where} {path!r}: {parent} is not searchable by other users, and the agent runs "
                             "under an unprivileged uid of its own; make it world-searchable or move the agent")
    if not os.stat(real).st_mode & (0o005 if real.is_dir() else 0o004):
        raise FixerError(f"{where} {path!r}: not readable by other users, and the agent runs under an "
                         "unprivileged uid of its own")


def passed_env(names: list[str]) -> list[tuple[str, str]]:
    """The variables the user passes, each of which must be set."""
    pairs = []
    for name in names:
        if not _NAME.match(name):
            raise FixerError(f"--hwrepair-agent-env {name!r}: not a variable name (letters, digits, _)")
        if name not in os.environ:
            raise FixerError(f"--hwrepair-agent-env {name}: not set in this environment")
        if "\x1e" in os.environ[name]:
            raise FixerError(f"--hwrepair-agent-env {name}: its value holds a \\x1e control character, "
                             "which the docker sandbox uses as a separator")
        pairs.append((name, os.environ[name]))
    return pairs


def inner_workspace(sandbox: Sandbox) -> str:
    """Where the agent finds its workspace: a fixed path in closed sandboxes, its start directory otherwise."""
    from ...sandbox.local.sandbox import LocalSandbox

    if isinstance(sandbox, LocalSandbox) and sandbox.bwrap is None:
        return "."
    return WORK


def agent_sandbox(settings: Settings) -> Sandbox:
    """A sandbox of the session's kind, without oracle slots."""
    if settings.sandbox == "docker":
        from ...sandbox.docker.sandbox import DockerSandboxError, docker_sandbox

        try:
            return docker_sandbox("agents", None, "worker", settings.docker_cpus, settings.docker_timeout,
                                  settings.docker_cuda_home)
        except DockerSandboxError as exc:
            raise FixerError(f"cmd: no sandbox for the agent: {exc}") from None
    from ...sandbox.local.sandbox import LocalSandbox

    isolate = {"auto": None, "bwrap": True, "none": False}[settings.isolation]
    try:
        return LocalSandbox(None, isolate=isolate)
    except RuntimeError as exc:
        raise FixerError(f"cmd: no sandbox for the agent: {exc}") from None


__all__ = ["AgentOptions", "agent_sandbox", "check_mount", "inner_workspace", "passed_env"]
