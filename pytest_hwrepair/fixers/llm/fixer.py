"""`claude[:MODEL]` and `openai[:MODEL]`: model fixers with retries, a shared limit, a cache, costs and batches.

Batch mode: the first `repair()` of a process, under a lock in the run directory, submits every pending
first-attempt request with no answer yet as one provider batch (or finds the one an earlier process or run
submitted), polls until it ends or the wait runs out and imports the results, which serve every later `repair()`."""

from __future__ import annotations

import functools
import json
import os
import ssl
import threading
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from ...repo.llm import extract_repository
from ...sandbox.slots import Slots
from ...settings import Settings
from ..base import Candidate, FixerContext, FixerError, FixerUnavailable, RepairTask
from .api import (
    ANTHROPIC_URL,
    OPENAI_URL,
    AnthropicApi,
    Api,
    ApiError,
    BatchResult,
    Caller,
    OpenAIApi,
    Reply,
    RetryPolicy,
    RetryWarning,
    Sampling,
)
from .cache import ResponseCache, locked, request_key, write_atomic
from .pricing import CostLedger, Price, find_price
from .text import Templates, code_blocks, extract, output_budget, transcript


@functools.cache
def tls_context(cert_file: str | None, cert_dir: str | None) -> ssl.SSLContext:
    """httpx's default certificate verification (SSL_CERT_FILE, SSL_CERT_DIR, else certifi's bundle), made once
    per process and per setting: loading the bundle takes tens of milliseconds."""
    return httpx.create_ssl_context()


@dataclass(frozen=True)
class Provider:
    """What differs between `claude` and `openai` before the wire format."""

    key_env: str
    url_env: str
    default_url: str
    make: Callable[[str, str | None], Api]
    key_optional_with_url: bool


PROVIDERS = {
    "claude": Provider("ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", ANTHROPIC_URL, AnthropicApi, False),
    # vLLM, Ollama and other local servers need no key: with a base URL of its own, the key is optional.
    "openai": Provider("OPENAI_API_KEY", "OPENAI_BASE_URL", OPENAI_URL, OpenAIApi, True),
}


class ModelFixer:
    """Asks a chat model for the complete target file; one instance per `--fixer` value and process."""

    deterministic = False
    notices: tuple[str, ...] = ()  # one line each in the run's header, shown once per run

    def __init__(self, api: Api, model: str, ctx: FixerContext, *, templates: Templates, price: Price | None) -> None:
        settings = ctx.settings
        self.api, self.model, self.settings, self.templates = api, model, settings, templates
        self.kind = "claude" if api.provider == "anthropic" else "openai"
        self.name = f"{self.kind}:{model}"
        self.label = ctx.label or self.kind  # its label in node ids: batch mode asks for that label's pending tasks
        self.price = price
        self.extra: dict[str, Any] = json.loads(settings.request_extra) if settings.request_extra else {}
        self.config = {"fixer": self.kind, "model": model, "temperature": settings.temperature,
                       "top_p": settings.top_p, "max_tokens": settings.max_tokens, "extra": self.extra,
                       "prompt": templates.digest}
        self.cache = ResponseCache(ctx.cache_dir / "responses", api.provider, run=str(ctx.run_dir.resolve()),
                                   reuse=not settings.no_cache)
        self.slots = Slots(ctx.cache_dir / "slots" / f"{api.provider}-{settings.max_connections}",
                           settings.max_connections)
        self.ledger = CostLedger(ctx.run_dir, settings.cost_limit)
        self.policy = RetryPolicy(settings.max_retries, settings.retry_delay, settings.retry_max_wait)
        self.ctx = ctx  # the run and cache directories and the pending tasks, for batch mode
        self._client: httpx.Client | None = None
        self._lock = threading.Lock()  # the client, shared with prefetch.py's threads

    def request(self, task: RepairTask) -> tuple[str, dict[str, Any], str]:
        """(cache key, request body, prompt transcript) of one task."""
        messages = self.templates.messages(task)
        sampling = Sampling(max_tokens=self.settings.max_tokens or output_budget(task),
                            temperature=self.settings.temperature, top_p=self.settings.top_p, seed=task.seed,
                            extra=self.extra)
        body = self.api.body(self.model, messages, sampling)
        # The endpoint is part of the key: a test server's or another host's answers never stand in for the API's.
        endpoint = f"{self.api.provider} {self.api.base}"
        return request_key(endpoint, self.model, body, task.sample), body, transcript(messages)

    def caller(self, *, quiet: bool = False) -> Caller:
        with self._lock:
            if self._client is None:
                timeout = httpx.Timeout(self.settings.request_timeout,
                                        connect=min(30.0, self.settings.request_timeout))
                self._client = httpx.Client(timeout=timeout, headers={"user-agent": "pytest-hwrepair"},
                                            verify=tls_context(os.environ.get("SSL_CERT_FILE"),
                                                               os.environ.get("SSL_CERT_DIR")))
            return Caller(self._client, self.name, self.policy, said=[] if quiet else None)

    def prefetch(self, task: RepairTask) -> None:
        """Make `task`'s request now, on the caller's thread (prefetch.py's, ahead of the items), unless it is
        answered or being asked elsewhere; its item then finds the answer in the response cache. A failure is
        kept there too, for the item to fail as it would have; nothing is asked ahead in batch mode."""
        if self.settings.batch:
            return
        key, body, prompt = self.request(task)
        with self.cache.claim(key, wait=False) as held:
            if not held or self.cache.get(key) is not None:
                return
            try:
                self.call(task, key, body, prompt, ahead=True)
            except (ApiError, FixerUnavailable) as exc:
                self.cache.fail(key, {"error": str(exc), "unavailable": isinstance(exc, FixerUnavailable),
                                      "retries": getattr(exc, "retries", {})})
                raise

    def repair(self, task: RepairTask) -> Candidate:
        key, body, prompt = self.request(task)
        if self.settings.batch:
            served = self.batch.serve(task, key)
            if served is not None:
                response, cost = served
                return self.candidate(task, response, prompt, cost=cost, batch=True)
        with self.cache.claim(key, wait=True):  # an answer being asked ahead, here or by another worker: wait
            failed = self.cache.take_failure(key)
            if failed is not None:
                error = str(failed.get("error"))
                raise FixerUnavailable(error) if failed.get("unavailable") else ApiError(error, failed.get("retries"))
            entry = self.cache.get(key)
            if entry is not None and self.cache.ours(entry):  # asked ahead in this run: as if asked now
                for note in entry.get("warnings") or ():
                    warnings.warn(str(note), RetryWarning, stacklevel=2)
                return self.candidate(task, entry["response"], prompt, cost=float(entry.get("cost_usd") or 0),
                                      latency=float(entry.get("latency") or 0), retries=entry.get("retries"))
            if entry is not None:
                return self.candidate(task, entry["response"], prompt, cached=True)
            if self.settings.batch:
                self.batch.missing(task, key)
            return self.call(task, key, body, prompt)

    def call(self, task: RepairTask, key: str, body: dict[str, Any], prompt: str, *,
             ahead: bool = False) -> Candidate:
        """One live request under a connection slot, after the cost limit check (`ahead`: on a thread of
        prefetch.py, whose retry warnings the item gives when it takes the answer)."""
        with self.slots.acquire():
            self.ledger.check()
            caller = self.caller(quiet=ahead)
            start = time.monotonic()
            try:
                response = self.api.send(caller, body)
            except FixerError as exc:
                raise ApiError(str(exc), dict(caller.retries)) from None
            latency = time.monotonic() - start
            cost = self.cost(self.api.parse(response))
            self.ledger.add(cost)
        retries = dict(caller.retries)
        self.cache.put(key, {"response": response, "model": self.model, "cost_usd": cost, "latency": latency,
                             "retries": retries, "warnings": caller.said or []})
        return self.candidate(task, response, prompt, cost=cost, latency=latency, retries=retries)

    def cost(self, reply: Reply, *, batch: bool = False) -> float:
        return self.price.cost(reply.usage, batch=batch) if self.price else 0.0

    def candidate(self, task: RepairTask, response: dict[str, Any], prompt: str, *, cost: float = 0.0,
                  latency: float = 0.0, cached: bool = False, batch: bool = False,
                  retries: dict[str, int] | None = None) -> Candidate:
        reply = self.api.parse(response)
        if task.issue is not None:  # a repository answer: a diff or several whole files
            repo = extract_repository(reply.text, task.files, code_blocks(reply.text), reply.truncated)
            files, diff, ok, error, how = repo.files, repo.diff, repo.ok, repo.error, repo.how
        else:
            found = extract(reply.text, task.target, task.files.get(task.target, ""), tuple(task.files),
                            reply.truncated)
            files = {task.target: found.text} if found.text is not None else {}
            diff, ok, error, how = found.diff, found.ok, found.error, found.how
        info = {"model": self.model, "stop": reply.stop, "usage": reply.usage.to_json(), "cached": cached,
                "batch": batch, "extraction": how or error, "cost_usd": round(cost, 6)}
        return Candidate(files=files, diff=diff,
                         raw=reply.text, prompt=prompt, usage=reply.usage, cost_usd=cost, latency=latency,
                         parsed=ok, parse_error=error, cached=cached, retries=retries or {},
                         logs={"reply.json": json.dumps(info, indent=2, sort_keys=True)})

    @functools.cached_property
    def batch(self) -> BatchRunner:
        return BatchRunner(self)


def make_model_fixer(kind: str, arg: str | None, ctx: FixerContext) -> ModelFixer:
    """Build a model fixer, or raise FixerError (a usage error) for a missing key or a bad option."""
    settings = ctx.settings
    provider = PROVIDERS[kind]
    model = arg or (settings.claude_model if kind == "claude" else settings.openai_model)
    base_url = settings.base_url or os.environ.get(provider.url_env) or provider.default_url
    key_env = settings.api_key_env or provider.key_env
    api_key = os.environ.get(key_env) or None
    custom_url = base_url.rstrip("/") != provider.default_url
    if api_key is None and not (provider.key_optional_with_url and custom_url):
        raise FixerError(f"--fixer {kind}: no API key: set {key_env}"
                         + ("" if settings.api_key_env else " or name another variable with --hwrepair-api-key-env"))
    check_options(settings)
    price = find_price(model, settings.prices)
    if settings.cost_limit is not None and price is None:
        raise FixerError(f"--hwrepair-cost-limit: no price known for model {model!r}; "
                         "give one with --hwrepair-prices FILE")
    fixer = ModelFixer(provider.make(base_url, api_key), model, ctx, templates=Templates.load(settings.prompt),
                       price=price)
    # Another server answers otherwise: its samples are keyed apart, never resumed from this one's.
    fixer.config["endpoint"] = base_url.rstrip("/")
    if price is None:
        fixer.notices = (f"{kind}:{model}: no price known for this model; its cost is reported as $0 "
                         "(give one with --hwrepair-prices FILE)",)
    return fixer


def check_options(settings: Settings) -> None:
    """Values that only a model fixer restricts (Settings.validate checks the rest)."""
    if settings.batch and settings.protocol == "iterative":
        raise FixerError("--hwrepair-batch: batch mode needs the repeated protocol (one request per sample); "
                         "the iterative protocol asks again after each verdict")
    if settings.max_retries < 0:
        raise FixerError(f"--hwrepair-max-retries: must be 0 or more, got {settings.max_retries}")
    if settings.max_tokens is not None and settings.max_tokens < 1:
        raise FixerError(f"--hwrepair-max-tokens: must be at least 1, got {settings.max_tokens}")
    if settings.cost_limit is not None and settings.cost_limit <= 0:
        raise FixerError(f"--hwrepair-cost-limit: must be above 0 USD, got {settings.cost_limit}")
    if settings.request_extra:
        try:
            extra = json.loads(settings.request_extra)
        except json.JSONDecodeError as exc:
            raise FixerError(f"--hwrepair-request-extra: not valid JSON: {exc}") from None
        if not isinstance(extra, dict):
            raise FixerError("--hwrepair-request-extra: must be a JSON object, e.g. '{\"reasoning_effort\": \"low\"}'")


def custom_id(key: str) -> str:
    """Both APIs accept it: at most 64 characters of [A-Za-z0-9_-]."""
    return "hw-" + key[:40]


def invocation() -> str:
    """Identifies one pytest command across its xdist workers (they share PYTEST_XDIST_TESTRUNUID)."""
    return os.environ.get("PYTEST_XDIST_TESTRUNUID") or f"pid-{os.getpid()}"


class BatchRunner:
    """The batch side of one model fixer in one process."""

    def __init__(self, fixer: ModelFixer) -> None:
        self.fixer = fixer
        safe = _safe(fixer.label)
        self.folder = fixer.ctx.run_dir / "batches"
        self.state_path = self.folder / f"{safe}.json"
        self.results_path = self.folder / f"{safe}.results.jsonl"
        self.index = fixer.ctx.cache_dir / "batches" / fixer.api.provider if fixer.cache.reuse else None
        self.results: dict[str, dict[str, Any]] = {}
        self.live: dict[str, tuple[str, str]] = {}  # custom id -> (batch id, progress) of unfinished batches
        self.synced = False
        self.unavailable: str | None = None

    def serve(self, task: RepairTask, key: str) -> tuple[dict[str, Any], float] | None:
        """(response, cost) from the batch; None when the request is in no batch (a cache hit needs none)."""
        if task.attempt > 0:
            raise FixerError("--hwrepair-batch: batch mode answers first attempts only; use --hwrepair-protocol "
                             "repeated (cuda cases default to the iterative protocol)")
        if not self.synced:
            self.sync()
        found = self.results.get(custom_id(key))
        if found is None:
            return None
        if found.get("response") is None:
            raise ApiError(str(found.get("error") or "the batch request failed"))
        return found["response"], self.fixer.cost(self.fixer.api.parse(found["response"]), batch=True)

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
        for task in self.fixer.ctx.corpus.pending(self.fixer.label):
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
                    entry["ended"] = True  # the entry is the state's own (sync's batches are the state's dicts)
                    _write_json(self.state_path, state)
                    self._index(entry)
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
                self.fixer.ledger.add(self.fixer.cost(self.fixer.api.parse(result.response), batch=True))
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
