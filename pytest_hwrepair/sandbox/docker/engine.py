"""The Docker engine side of the docker sandbox: connecting, labels, the seccomp profile, orphans."""

from __future__ import annotations

import contextlib
import json
import os
import socket
from pathlib import Path
from typing import Any

from ..process import alive

LABEL_TOOL = "org.hwrepair.tool"
TOOL = "pytest-hwrepair"
LABEL_RUN = "org.hwrepair.run"
LABEL_OWNER = "org.hwrepair.owner"
LABEL_TOOLCHAIN = "org.hwrepair.toolchain"
# Denied on top of what a user without capabilities may do anyway: kernel attack surface (user namespaces,
# keyrings, bpf, io_uring, perf, userfaultfd), privileged operations, ptrace and cross-process memory access (a
# step must not take over the agent). The rest is allowed, `personality` included (randomisation off).
DENIED_SYSCALLS = (
    "acct", "add_key", "bpf", "clock_adjtime", "clock_settime", "create_module", "delete_module",
    "finit_module", "fsconfig", "fsmount", "fsopen", "fspick", "get_kernel_syms", "init_module", "io_uring_enter",
    "io_uring_register", "io_uring_setup", "ioperm", "iopl", "kexec_file_load", "kexec_load", "keyctl",
    "lookup_dcookie", "mount", "mount_setattr", "move_mount", "name_to_handle_at", "nfsservctl",
    "open_by_handle_at", "open_tree", "perf_event_open", "pivot_root", "process_vm_readv", "process_vm_writev",
    "ptrace", "query_module", "quotactl", "reboot", "request_key", "setns", "settimeofday", "swapoff", "swapon",
    "_sysctl", "sysfs", "umount", "umount2", "unshare", "uselib", "userfaultfd", "ustat", "vm86", "vm86old", "vhangup",
)
# clone() flags that create namespaces; clone3 answers ENOSYS so that the C library falls back to clone.
NAMESPACE_FLAGS = (0x00000080, 0x00020000, 0x02000000, 0x04000000, 0x08000000, 0x10000000, 0x20000000,
                   0x40000000)
ARCHES = {"x86_64": ["SCMP_ARCH_X86_64", "SCMP_ARCH_X86", "SCMP_ARCH_X32"],
          "aarch64": ["SCMP_ARCH_AARCH64", "SCMP_ARCH_ARM"]}
EPERM, ENOSYS = 1, 38


class DockerSandboxError(RuntimeError):
    """The Docker engine failed or did not answer in time: a harness error, never the candidate's fault."""


def connect(timeout: float) -> Any:
    """A Docker client for DOCKER_HOST (unix, tcp or ssh); every call it makes has `timeout`."""
    import docker

    where = os.environ.get("DOCKER_HOST") or "the default socket"
    try:
        client = docker.from_env(timeout=timeout)
        client.api.ping()
    except Exception as exc:
        raise DockerSandboxError(f"no Docker engine answers at {where}: {one_line(exc)}") from None
    return client


def seccomp_profile(arch: str) -> str:
    """The sandbox's seccomp profile as the engine takes it (JSON text)."""
    rules: list[dict[str, Any]] = [{"names": list(DENIED_SYSCALLS), "action": "SCMP_ACT_ERRNO", "errnoRet": EPERM},
                                   {"names": ["clone3"], "action": "SCMP_ACT_ERRNO", "errnoRet": ENOSYS}]
    for flag in NAMESPACE_FLAGS:
        rules.append({"names": ["clone"], "action": "SCMP_ACT_ERRNO", "errnoRet": EPERM,
                      "args": [{"index": 0, "value": flag, "valueTwo": flag, "op": "SCMP_CMP_MASKED_EQ"}]})
    profile: dict[str, Any] = {"defaultAction": "SCMP_ACT_ALLOW", "syscalls": rules}
    if arch in ARCHES:
        profile["architectures"] = ARCHES[arch]
    return json.dumps(profile)


def container_labels(run: str, toolchain: str) -> dict[str, str]:
    """A container's labels; its owner's lets `remove_orphans` find it once the owner is gone."""
    return {LABEL_TOOL: TOOL, LABEL_RUN: run, LABEL_OWNER: owner_label(), LABEL_TOOLCHAIN: toolchain}


def owner_label() -> str:
    """host:pid:start-time of this process; the start time tells a reused pid apart."""
    return f"{socket.gethostname()}:{os.getpid()}:{_start_time(os.getpid())}"


def _start_time(pid: int) -> str:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return "?"
    return stat.rpartition(")")[2].split()[19]


def owner_alive(owner: str) -> bool:
    """False only for an owner on this host that has certainly exited."""
    host, _, rest = owner.partition(":")
    pid_text, _, start = rest.partition(":")
    if host != socket.gethostname() or not pid_text.isdigit():
        return True
    pid = int(pid_text)
    if not alive(pid):
        return False
    now = _start_time(pid)
    return start in ("?", now) or now == "?"


def remove_orphans(api: Any, *, include_stopped: bool = False) -> int:
    """Remove the tool's containers whose owner on this host has exited (and, if asked, every stopped one)."""
    removed = 0
    for info in api.containers(all=True, filters={"label": f"{LABEL_TOOL}={TOOL}"}):
        labels = info.get("Labels") or {}
        stopped = info.get("State") != "running"
        if owner_alive(labels.get(LABEL_OWNER, "")) and not (include_stopped and stopped):
            continue
        with contextlib.suppress(Exception):  # removed meanwhile by its engine or another worker
            api.remove_container(info["Id"], force=True)
            removed += 1
    return removed


def one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text[:300] or type(exc).__name__
