"""Batch mode: the run's first-attempt requests go out as one provider batch, persisted so a rerun resumes it.

The first `repair()` of a process takes a lock in the run directory, submits every pending request that has
no answer yet (or finds the batch an earlier process or run submitted), polls until the batch ends or the
wait runs out, and imports the results by custom id. Every later `repair()` is served from those results.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from ...sandbox.slots import Slots
from ...settings import Settings
from ..base import FixerError, FixerUnavailable, RepairTask
from .api import Api, ApiError, BatchResult, Reply
from .budget import CostLedger
from .cache import ResponseCache, locked, write_atomic
from .http import Caller


class BatchHost(Protocol):
    """What batch mode needs of the model fixer it serves."""

    api: Api
    cache: ResponseCache
    ledger: CostLedger
    slots: Slots
    settings: Settings
    label: str
    model: str
    name: str
    pending: Callable[[str], list[RepairTask]]
    run_dir: Path
    cache_dir: Path

    def caller(self) -> Caller: ...

    def cost(self, reply: Reply, *, batch: bool = False) -> float: ...

    def request(self, task: RepairTask) -> tuple[str, dict[str, Any], str]: ...


def custom_id(key: str) -> str:
    """Both APIs accept it: at most 64 characters of [A-Za-z0-9_-]."""
    return "hw-" + key[:40]


def invocation() -> str:
    """Identifies one pytest command across its xdist workers (they share PYTEST_XDIST_TESTRUNUID)."""
    return os.environ.get("PYTEST_XDIST_TESTRUNUID") or f"pid-{os.getpid()}"


class BatchRunner:
    """The batch side of one model fixer in one process."""

    def __init__(self, fixer: BatchHost) -> None:
        self.fixer = fixer
        safe = _safe(fixer.label)
        self.folder = fixer.run_dir / "batches"
        self.state_path = self.folder / f"{safe}.json"
        self.results_path = self.folder / f"{safe}.results.jsonl"
        self.index = fixer.cache_dir / "batches" / fixer.api.provider if fixer.cache.reuse else None
        self.results: dict[str, dict[str, Any]] = {}
        self.live: dict[str, tuple[str, str]] = {}  # custom id -> (batch id, progress) of unfinished batches
        self.synced = False
        self.unavailable: str | None = None

    # ------------------------------------------------------------ serving

    def serve(self, task: RepairTask, key: str) -> tuple[dict[str, Any], float] | None:
        """(response, cost) from the batch; None when the request is in no batch (a cache hit needs none)."""
        if task.attempt > 0:
            raise FixerError("--hwrepair-batch: batch mode answers first attempts only; use --hwrepair-protocol "
                             "repeated (cuda cases default to the iterative protocol)")
        if not self.synced:
            self.sync()
        cid = custom_id(key)
        found = self.results.get(cid)
        if found is not None and found.get("response") is not None:
            reply = self.fixer.api.parse(found["response"])
            return found["response"], self.fixer.cost(reply, batch=True)
        if found is not None:
            raise ApiError(str(found.get("error") or "the batch request failed"))
        return None

    def missing(self, task: RepairTask, key: str) -> None:
        """Neither the batch nor the cache answers: still running, stopped by the cost limit, or never sent."""
        if self.unavailable:
            raise FixerUnavailable(self.unavailable)
        cid = custom_id(key)
        if cid in self.live:
            batch_id, progress = self.live[cid]
            raise FixerUnavailable(f"batch {batch_id} is still running ({progress}); rerun the same command "
                                   "to collect its results")
        raise FixerError(f"--hwrepair-batch: {task.case}::{task.bug} sample {task.sample} was not submitted "
                         "with the run's batch (it was not among the collected items)")

    # ------------------------------------------------------------ sync

    def sync(self) -> None:
        """Submit what has no answer yet, wait for the batches, import their results (under the run's lock)."""
        with locked(self.folder / f".{self.state_path.stem}.lock"):
            state = _read_json(self.state_path) or {"provider": self.fixer.api.provider, "fixer": self.fixer.name}
            self.results = self._load_results()
            requests = self._pending()
            batches = self._known(state)
            wanted = set(requests)
            live = [b for b in batches if not b.get("ended") and wanted & set(b["ids"])]
            covered = {cid for b in live for cid in b["ids"]} | {c for c, r in self.results.items()
                                                                 if r.get("response") or r.get("run") == invocation()}
            todo = [(cid, *requests[cid]) for cid in sorted(wanted - covered)]
            if todo:
                try:
                    self.fixer.ledger.check()
                except FixerUnavailable as exc:
                    self.unavailable = str(exc)
                    self.synced = True
                    return
                live.append(self._submit(state, todo))
            self._wait(state, live)
            self.synced = True

    def _pending(self) -> dict[str, tuple[str, dict[str, Any]]]:
        """Request bodies of this fixer's pending first attempts that neither the results nor the cache answer."""
        out: dict[str, tuple[str, dict[str, Any]]] = {}
        for task in self.fixer.pending(self.fixer.label):
            if task.attempt:
                continue
            key, body, _ = self.fixer.request(task)
            cid = custom_id(key)
            if (self.results.get(cid) or {}).get("response") is None and self.fixer.cache.get(key) is None:
                out[cid] = (key, body)
        return out

    def _submit(self, state: dict[str, Any], todo: list[tuple[str, str, dict[str, Any]]]) -> dict[str, Any]:
        caller = self.fixer.caller()
        with self.fixer.slots.acquire():
            batch_id = self.fixer.api.submit_batch(caller, [(cid, body) for cid, _, body in todo])
        entry = {"id": batch_id, "ids": [cid for cid, _, _ in todo], "keys": {cid: key for cid, key, _ in todo},
                 "submitted": time.time(), "ended": False, "model": self.fixer.model}
        state.setdefault("batches", []).append(entry)
        _write_json(self.state_path, state)
        self._index(entry)
        return entry

    def _wait(self, state: dict[str, Any], live: list[dict[str, Any]]) -> None:
        deadline = self._deadline(state)
        caller = self.fixer.caller()
        while True:
            for entry in live:
                if entry.get("ended"):
                    continue
                status = self.fixer.api.poll_batch(caller, entry["id"])
                for cid in entry["ids"]:
                    self.live[cid] = (entry["id"], status.progress)
                if status.ended:
                    self._import(entry, self.fixer.api.batch_results(caller, status),
                                 f"batch {entry['id']} {status.ref.get('state') or 'ended'}"
                                 + (f": {status.ref['reason']}" if status.ref.get("reason") else ""))
                    self._mark_ended(state, entry)
            if all(e.get("ended") for e in live) or time.time() >= deadline:
                return
            time.sleep(max(0.0, min(self.fixer.settings.batch_poll, deadline - time.time())))

    def _deadline(self, state: dict[str, Any]) -> float:
        """One wait per pytest command, shared by its workers: a second worker does not wait all over again."""
        wait = state.get("wait") or {}
        if wait.get("run") != invocation():
            limit = self.fixer.settings.batch_wait
            seconds = limit if limit is not None else 0.8 * self.fixer.settings.fixer_timeout
            wait = {"run": invocation(), "until": time.time() + seconds}
            state["wait"] = wait
            _write_json(self.state_path, state)
        return float(wait["until"])

    def _import(self, entry: dict[str, Any], results: list[BatchResult], ended: str) -> None:
        rows = []
        for result in results:
            if result.custom_id not in entry["ids"]:
                continue
            row: dict[str, Any] = {"custom_id": result.custom_id, "batch": entry["id"], "run": invocation()}
            if result.response is not None:
                row["response"] = result.response
                cost = self.fixer.cost(self.fixer.api.parse(result.response), batch=True)
                self.fixer.ledger.add(cost)
            else:
                row["error"] = result.error
            rows.append(row)
        answered = {r["custom_id"] for r in rows}
        rows += [{"custom_id": cid, "batch": entry["id"], "run": invocation(), "error": f"{ended}: no result"}
                 for cid in entry["ids"] if cid not in answered]
        with self.results_path.open("a", encoding="utf-8") as fh:
            fh.write("".join(json.dumps(r, sort_keys=True) + "\n" for r in rows))
        keys = entry.get("keys") or {}
        for row in rows:
            if row.get("response") is not None or (self.results.get(row["custom_id"]) or {}).get("response") is None:
                self.results[row["custom_id"]] = row
            self.live.pop(row["custom_id"], None)
            # Answers go into the response cache too: a later run with another run directory pays nothing.
            key = keys.get(row["custom_id"])
            if key and row.get("response") is not None:
                self.fixer.cache.put(key, {"response": row["response"], "model": self.fixer.model, "batch": True})

    # ------------------------------------------------------------ persistence

    def _known(self, state: dict[str, Any]) -> list[dict[str, Any]]:
        """Batches of this run, plus unfinished ones an earlier run (another run directory) submitted."""
        batches = list(state.get("batches", []))
        seen = {b["id"] for b in batches}
        if self.index is not None and self.index.is_dir():
            for path in sorted(self.index.glob("*.json")):
                entry = _read_json(path)
                if entry and entry.get("id") not in seen and not entry.get("ended") \
                        and entry.get("model") == self.fixer.model:
                    state.setdefault("batches", []).append(entry)
                    batches.append(entry)
        return batches

    def _index(self, entry: dict[str, Any]) -> None:
        if self.index is not None:
            _write_json(self.index / f"{_safe(entry['id'])}.json", entry)

    def _mark_ended(self, state: dict[str, Any], entry: dict[str, Any]) -> None:
        entry["ended"] = True  # the entry is the state's own (sync's batches are the state's dicts)
        _write_json(self.state_path, state)
        self._index(entry)

    def _load_results(self) -> dict[str, dict[str, Any]]:
        results: dict[str, dict[str, Any]] = {}
        try:
            lines = self.results_path.read_text(encoding="utf-8").splitlines()
        except FileNotFoundError:
            return results
        for line in lines:
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                continue  # torn by a killed process: that batch is imported again
            if row.get("response") is not None or (results.get(row["custom_id"]) or {}).get("response") is None:
                results[row["custom_id"]] = row
        return results


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name)


def _read_json(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return None
    return data if isinstance(data, dict) else None


def _write_json(path: Path, data: dict[str, Any]) -> None:
    write_atomic(path, json.dumps(data, indent=2, sort_keys=True) + "\n")


__all__ = ["BatchRunner", "custom_id"]
