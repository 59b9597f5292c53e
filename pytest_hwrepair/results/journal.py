"""The session's entry in run.json, written before the first sample runs: a killed session stays listed."""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import pytest

from ..items import SAMPLE_KEY
from ..session import Run

CASE_ITEM = "case.toml::"  # every hwrepair item's node id holds it


class SessionJournal:
    """Controller side: lists the session in run.json once hwrepair items are known to run."""

    def __init__(self, run: Run) -> None:
        self.run = run
        self.begun = False

    def begin(self) -> None:
        if self.begun:
            return
        self.begun = True
        try:
            self.run.run_dir.begin_session(self.run.info())
        except OSError as exc:  # the run goes on; the summary at the end says again if the directory stays unwritable
            warnings.warn(f"hwrepair: could not list this session in {self.run.run_dir.path}/run.json: {exc}",
                          stacklevel=1)

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        if any(SAMPLE_KEY in item.stash for item in session.items):
            self.begin()

    @pytest.hookimpl(optionalhook=True)  # xdist: the controller collects nothing, its workers report node ids
    def pytest_xdist_node_collection_finished(self, node: Any, ids: Sequence[str]) -> None:
        if any(CASE_ITEM in nodeid for nodeid in ids):
            self.begin()


__all__ = ["SessionJournal"]
