"""`--lf` / `--ff` for hwrepair items, matched by node id text.

pytest reads a cached `SHFT-01[claude-s3]` back as a parametrized id, which never equals the item's own: its
last-failed plugin would select nothing and never forget a repaired sample. The texts do round-trip.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import pytest

from .items import CASE_ITEM, SAMPLE_KEY

LASTFAILED = "cache/lastfailed"
# The hwrepair items that will run, as the plugin's own (last) collection hook leaves them.
SELECTED_KEY = pytest.StashKey[list[pytest.Item]]()


def known_failures(config: pytest.Config) -> dict[str, Any]:
    """The node ids pytest's cache lists as failed (empty without the cache plugin)."""
    cache = getattr(config, "cache", None)
    if cache is None:
        return {}
    data = cache.get(LASTFAILED, {})
    return data if isinstance(data, dict) else {}


class LastFailed:
    """Applies `--lf` / `--ff` to hwrepair items and keeps their entries in the cache current."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.rerun = 0
        self.outcomes: dict[str, bool] = {}  # node id -> failed, for this session's hwrepair items

    @property
    def mode(self) -> str | None:
        if self.config.getoption("lf", False):
            return "lf"
        if self.config.getoption("failedfirst", False):
            return "ff"
        return None

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_modifyitems(self, config: pytest.Config, items: list[pytest.Item]) -> None:
        mode = self.mode
        if mode is None:
            return
        failed = known_failures(config)
        ours = [i for i in items if SAMPLE_KEY in i.stash and i.nodeid in failed]
        self.rerun = len(ours)
        if not ours:
            return  # nothing of ours failed last time: pytest's own rule (run all, or none) stands
        first = [i for i in items if i.nodeid in failed]
        rest = [i for i in items if i.nodeid not in failed]
        if mode == "lf":
            items[:] = first
            config.hook.pytest_deselected(items=rest)
        else:
            items[:] = first + rest

    @pytest.hookimpl(specname="pytest_collection_modifyitems", wrapper=True, tryfirst=True)
    def pytest_collection_modifyitems_restore(self, items: list[pytest.Item]) -> Generator[None, Any, Any]:
        """Around pytest's own last-failed selection (registered after it: outside it; named for pytest)."""
        result = yield
        # When some failures are ordinary tests, pytest's own --lf keeps only the ones it recognises: the hwrepair
        # items that were to run go back in (selection, -k, shards all happened before it).
        selected = self.config.stash.get(SELECTED_KEY, [])
        if self.mode == "lf" and self.rerun and selected:
            kept = set(map(id, items))
            items.extend(i for i in selected if id(i) not in kept)
        return result

    def pytest_report_collectionfinish(self, config: pytest.Config) -> str | None:
        if self.mode is None or not self.rerun:
            return None
        where = "first" if self.mode == "ff" else "only"
        return f"hwrepair: rerunning the {self.rerun} sample(s) that failed last time {where}"

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if CASE_ITEM not in report.nodeid:
            return
        if report.failed:
            self.outcomes[report.nodeid] = True
        elif report.when == "call" or report.skipped:
            self.outcomes.setdefault(report.nodeid, False)

    @pytest.hookimpl(trylast=True)  # after pytest's own plugin wrote the cache
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        cache = getattr(self.config, "cache", None)
        if cache is None or hasattr(self.config, "workerinput") or not self.outcomes:
            return
        failed = dict(known_failures(self.config))
        for nodeid, now_failed in self.outcomes.items():
            if now_failed:
                failed[nodeid] = True
            else:
                failed.pop(nodeid, None)
        cache.set(LASTFAILED, failed)
