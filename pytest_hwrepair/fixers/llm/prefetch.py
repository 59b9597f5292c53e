"""Model requests made ahead: every sample's first request is asked once the items are collected.

A model evaluation is latency-bound, so threads of each process ask ahead (up to `--hwrepair-max-connections`
in flight across the run) while the workers judge the answers that are in. Worker k of n asks for items k,
k + n, ...; each answer lands in the response cache, where its item takes it whichever worker runs it. The
request is the one the item would make, and reads as a live one in its record: records are the same with or
without this. Only for a fixer with `prefetch` called through the plugin's own `hwrepair_fixer` fixture, and a
sample that will call it; not with xdist's remote workers (each machine has its own cache)."""

from __future__ import annotations

import threading
import types
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from ...items import SAMPLE_KEY
from ...oracles import kind_of
from ...session import Run
from ..base import FixerUnavailable

PLUGIN_MODULE = "pytest_hwrepair.plugin"


class Ahead:
    """Asks, on threads of this process, this process's share of the samples' first requests."""

    def __init__(self, run: Run, config: pytest.Config) -> None:
        self.run = run
        self.index, self.count = _share(getattr(config, "workerinput", None))
        self.stopped = threading.Event()
        self._lock = threading.Lock()
        self._queue: Iterator[Callable[[], None]] = iter(())
        self.overrides: list[Path] = []

    @pytest.hookimpl(trylast=True)
    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.overrides = _overrides(session.config)
        requests = [r for r in map(self._request_of, session.items[self.index::self.count]) if r is not None]
        self._queue = iter(requests)
        for _ in range(min(self.run.settings.max_connections, len(requests))):
            # Daemons: a run that stops early never waits for an answer nobody will read.
            threading.Thread(target=self._ask, name="hwrepair-ahead", daemon=True).start()

    def pytest_sessionfinish(self) -> None:
        self.stopped.set()

    def _ask(self) -> None:
        while not self.stopped.is_set():
            with self._lock:
                request = next(self._queue, None)
            if request is None:
                return
            try:
                request()
            except FixerUnavailable:  # the cost limit: no new request anywhere
                self.stopped.set()
            except Exception:  # kept by the fixer for its item, which fails as it would have
                pass

    def _request_of(self, item: pytest.Item) -> Callable[[], None] | None:
        if SAMPLE_KEY not in item.stash or any(item.path.is_relative_to(d) for d in self.overrides):
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


def shared_cache(config: pytest.Config) -> bool:
    """Whether every worker shares this machine's response cache (not xdist's remote `--tx ssh=` workers)."""
    specs = [spec.split("*", 1)[-1] for spec in config.getoption("tx", None) or ()]
    return all(spec.startswith("popen") for spec in specs)


def _share(workerinput: Mapping[str, Any] | None) -> tuple[int, int]:
    """(k, n) of xdist worker `gwk` of n; (0, 1) without workers."""
    if not workerinput:
        return 0, 1
    count = max(1, int(workerinput.get("workercount") or 1))
    worker = str(workerinput.get("workerid") or "gw0")
    index = int(worker[2:]) if worker[2:].isdigit() else 0
    return index % count, count


def _overrides(config: pytest.Config) -> list[Path]:
    """The folders in which a conftest defines its own `hwrepair_fixer` fixture (`/` for another plugin)."""
    found = []
    for plugin in config.pluginmanager.get_plugins():
        if getattr(plugin, "__name__", None) == PLUGIN_MODULE or not _defines_fixer(plugin):
            continue
        file = getattr(plugin, "__file__", None)
        found.append(Path(file).parent if file and Path(file).name == "conftest.py" else Path("/"))
    return found


def _defines_fixer(plugin: object) -> bool:
    if getattr(plugin, "hwrepair_fixer", None) is not None:
        return True
    names = vars(plugin).values() if isinstance(plugin, types.ModuleType) else ()
    return any(callable(obj) and getattr(obj, "name", None) == "hwrepair_fixer" for obj in names)  # name="..."
