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


def test_prefetching_while_the_tools_answer_does_not_wait(started: list[threading.Thread],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Collection prefetches once per case file: a call made while the first one's tools are still answering
    returns at once."""
    answering, release = threading.Event(), threading.Event()

    def slow() -> dict[str, str]:
        answering.set()
        release.wait(10)
        return {"gcc": "gcc 12"}

    monkeypatch.setattr(session, "_ask_tools", slow)
    session.prefetch_tool_versions()
    assert answering.wait(5)
    done = threading.Event()
    caller = session.threading.Thread(target=lambda: (session.prefetch_tool_versions(), done.set()), daemon=True)
    caller.start()
    try:
        assert done.wait(2), "a second prefetch waited for the tools"
    finally:
        release.set()
    started[0].join(5)
    assert [t.name for t in started].count("hwrepair-tool-versions") == 1
    assert session.tool_versions() == {"gcc": "gcc 12"}
