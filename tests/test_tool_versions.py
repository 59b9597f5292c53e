"""The toolchains' versions for run.json are asked once per process, on a thread while collection goes on."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from pytest_hwrepair import session


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[threading.Thread]:
    threads: list[threading.Thread] = []

    class Recorded(threading.Thread):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            threads.append(self)

    monkeypatch.setattr(session, "_versions", None)
    monkeypatch.setattr(session, "_prefetched", False)
    monkeypatch.setattr(session.threading, "Thread", Recorded)
    return threads


def test_prefetching_twice_asks_once_and_the_answer_is_shared(started: list[threading.Thread],
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[int] = []
    monkeypatch.setattr(session, "_ask_tools", lambda: asked.append(1) or {"gcc": "gcc 12"})
    session.prefetch_tool_versions()
    session.prefetch_tool_versions()
    assert len(started) == 1
    started[0].join(5)
    assert session.tool_versions() == {"gcc": "gcc 12"} and asked == [1]


def test_prefetching_after_the_answer_starts_nothing(started: list[threading.Thread]) -> None:
    session._versions = {"gcc": "known"}
    session.prefetch_tool_versions()
    assert started == [] and session.tool_versions() == {"gcc": "known"}
