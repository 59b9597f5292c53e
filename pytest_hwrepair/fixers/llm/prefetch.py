"""Model requests one item ahead: the next item's first request starts as soon as this item's is answered.

A worker runs its items one after another, and a model fixer spends most of an item waiting for the API.
Without this, while one item is being judged (its builds and runs, seconds on a busy machine) nothing is
asked of the model for the next one, and when every worker's next answer is two seconds away the cores sit
idle. pytest names the next item (`nextitem`: xdist keeps one queued per worker), so once this item's fixer
has its answer, the next item's first request starts on a thread of the fixer (`prefetch`); the next item's
`repair` then takes that answer. The request is the one the item would make (same task, same cache key),
under the same concurrency slots and cost limit; an answer that no item takes (a run stopped early) is
only in the response cache, as any finished request is.

Only for a fixer that can (`prefetch`: the model fixers, not in batch mode), through the plugin's own
`hwrepair_fixer` fixture (a conftest that overrides it decides its own fixer), for a sample that will call
its fixer (not resumed, not skipped before its fixer is called); `--hwrepair-no-prefetch` turns it off.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

import pytest

from ...items import SAMPLE_KEY
from ...oracles import kind_of
from ...session import Run

PLUGIN_MODULE = "pytest_hwrepair.plugin"


class Ahead:
    """Arms, at each item's start, the next item's first request; the harness fires it after a repair."""

    def __init__(self, run: Run) -> None:
        self.run = run
        self.pending: Callable[[], None] | None = None
        run.harness.after_repair.append(self.fire)

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_protocol(self, item: pytest.Item, nextitem: pytest.Item | None) -> None:
        self.pending = None
        with contextlib.suppress(Exception):  # looking ahead must never break the item at hand
            self.pending = self._request_of(nextitem)

    def _request_of(self, item: pytest.Item | None) -> Callable[[], None] | None:
        if item is None or SAMPLE_KEY not in item.stash or not _own_fixer(item):
            return None
        sample = item.stash[SAMPLE_KEY]
        start = getattr(self.run.fixers.get(sample.label), "prefetch", None)
        harness = self.run.harness
        if start is None or sample.key in harness.finished:
            return None
        kind = kind_of(sample.case.oracle.kind)
        if harness.precheck and kind is not None and kind.unavailable is not None \
                and kind.unavailable(sample.case, sample.bug, harness.oracle_ctx.options) is not None:
            return None  # skipped before its fixer is called
        task = sample.task(harness.protocol, 0, (), sample.case.buggy_files(sample.bug))
        return lambda: start(task)

    def fire(self) -> None:
        pending, self.pending = self.pending, None
        if pending is not None:
            with contextlib.suppress(Exception):
                pending()


def _own_fixer(item: pytest.Item) -> bool:
    """Whether the item gets its fixer from the plugin's `hwrepair_fixer` fixture (not a conftest override)."""
    info = getattr(item, "_fixtureinfo", None)
    defs = info.name2fixturedefs.get("hwrepair_fixer") if info is not None else None
    if not defs:
        return False
    func = getattr(defs[-1], "func", None)
    return getattr(func, "__module__", None) == PLUGIN_MODULE


__all__ = ["Ahead"]
