"""Sandbox kinds: one module each, one registry line each."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ..settings import Settings, SettingsError
from .base import Sandbox
from .local.sandbox import LocalSandbox
from .slots import Slots


def _local(settings: Settings, run_dir: Path) -> Sandbox:
    isolate = {"auto": None, "bwrap": True, "none": False}[settings.isolation]
    try:
        return LocalSandbox(slots_for(settings), isolate=isolate)
    except RuntimeError as exc:
        raise SettingsError(f"--hwrepair-isolation bwrap: {exc}") from None


def _docker(settings: Settings, run_dir: Path) -> Sandbox:
    # The Docker SDK is an optional dependency.
    from .docker.engine import DockerSandboxError
    from .docker.sandbox import docker_sandbox

    try:
        return docker_sandbox(run_dir.name, slots_for(settings), settings.docker_mode, settings.docker_cpus,
                              settings.docker_timeout, settings.docker_cuda_home)
    except DockerSandboxError as exc:
        text = str(exc)
        raise SettingsError(text if text.startswith("--") else f"--hwrepair-sandbox docker: {text}") from None


def slots_for(settings: Settings) -> Slots:
    """The cross-process oracle semaphore: lock files shared by every worker of the run."""
    return Slots(Path(settings.cache_dir) / "slots" / f"jobs-{settings.oracle_jobs}", settings.oracle_jobs)


SANDBOXES: dict[str, Callable[[Settings, Path], Sandbox]] = {
    "local": _local,
    "docker": _docker,
}


def make_sandbox(settings: Settings, run_dir: Path) -> Sandbox:
    try:
        factory = SANDBOXES[settings.sandbox]
    except KeyError:
        raise SettingsError(f"--hwrepair-sandbox: {settings.sandbox!r} is not available "
                            f"(known: {', '.join(sorted(SANDBOXES))})") from None
    return factory(settings, run_dir)
