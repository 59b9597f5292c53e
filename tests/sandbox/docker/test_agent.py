"""The docker step agent's own logic, run here without an engine: deep trees and step environments."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pytest_hwrepair.sandbox.docker import agent as docker_agent
from pytest_hwrepair.sandbox.docker.engine import DENIED_SYSCALLS
from pytest_hwrepair.sandbox.local.transfer import remove


def test_a_3000_deep_tree_is_snapshotted_without_recursion(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(docker_agent, "WORK", str(tmp_path))
    base = os.open(tmp_path, os.O_RDONLY)
    try:
        os.chdir(tmp_path)
        for _ in range(3000):
            os.mkdir("d")
            os.chdir("d")
    finally:
        os.fchdir(base)
        os.close(base)
    (tmp_path / "out.txt").write_text("x")
    seen = docker_agent.snapshot()
    assert seen["out.txt"][0] == 1
    assert max(len(p.split("/")) for p in seen) <= docker_agent.MAX_DEPTH
    copy, _, skipped = docker_agent.changes({}, seen, 1 << 20)
    assert "out.txt" in copy and any(item.startswith("-1\t") for item in skipped)
    remove(tmp_path / "d")


def test_the_step_cannot_ptrace_the_agent() -> None:
    assert {"ptrace", "process_vm_readv", "process_vm_writev"} <= set(DENIED_SYSCALLS)
