"""The toolchains' versions for run.json are asked once per process."""

from __future__ import annotations

import subprocess
from typing import Any

import pytest

from pytest_hwrepair import session


def test_the_tools_are_asked_once_and_each_caller_gets_its_own_copy(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[list[str]] = []

    def run(argv: list[str], **_: Any) -> subprocess.CompletedProcess[str]:
        asked.append(argv)
        return subprocess.CompletedProcess(argv, 0, stdout=f"{argv[0]} 1.0\n", stderr="")

    session._ask_tools.cache_clear()
    monkeypatch.setattr(session.shutil, "which", lambda tool: f"/usr/bin/{tool}")
    monkeypatch.setattr(session.subprocess, "run", run)
    try:
        first = session.tool_versions()
        first["gcc"] = "changed by a caller"
        second = session.tool_versions()
    finally:
        session._ask_tools.cache_clear()
    assert len(asked) == len(session.TOOLS)
    assert second["gcc"] == "gcc 1.0" and second["nvcc"] == "nvcc 1.0"
