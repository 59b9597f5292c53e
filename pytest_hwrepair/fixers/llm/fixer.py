"""`claude[:MODEL]` and `openai[:MODEL]`: model fixers with retries, a shared limit, a cache, costs and batches."""

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
from typing import Any

import httpx

from ...repo.llm import extract_repository
from ...sandbox.slots import Slots
from ...settings import Settings
from ..base import Candidate, FixerContext, FixerError, FixerUnavailable, RepairTask
from .anthropic import DEFAULT_BASE_URL as ANTHROPIC_URL
from .anthropic import AnthropicApi
from .api import Api, ApiError, Reply, Sampling
from .batch import BatchRunner
from .budget import CostLedger
from .cache import ResponseCache, request_key
from .extract import code_blocks, extract
from .http import Caller, RetryPolicy, RetryWarning
from .openai import DEFAULT_BASE_URL as OPENAI_URL
from .openai import OpenAIApi
from .pricing import Price, PriceTable
from .prompts import Templates, output_budget, transcript


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

    def __init__(self, api: Api, model: str, ctx: FixerContext, *, templates: Templates, prices: PriceTable) -> None:
        settings = ctx.settings
        self.api, self.model, self.settings, self.templates = api, model, settings, templates
        self.kind = "claude" if api.provider == "anthropic" else "openai"
        self.name = f"{self.kind}:{model}"
        self.label = ctx.label or self.kind  # its label in node ids: batch mode asks for that label's pending tasks
        self.price: Price | None = prices.lookup(model)
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
        self.run_dir, self.cache_dir = ctx.run_dir, ctx.cache_dir
        self.pending: Callable[[str], list[RepairTask]] = ctx.corpus.pending
        self._client: httpx.Client | None = None
        self._lock = threading.Lock()  # the client, shared with prefetch.py's threads

    # ------------------------------------------------------------ requests

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

    # ------------------------------------------------------------ the seam

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


# ---------------------------------------------------------------- factories


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
    prices = PriceTable.load(settings.prices)
    if settings.cost_limit is not None and prices.lookup(model) is None:
        raise FixerError(f"--hwrepair-cost-limit: no price known for model {model!r}; "
                         "give one with --hwrepair-prices FILE")
    fixer = ModelFixer(provider.make(base_url, api_key), model, ctx, templates=Templates.load(settings.prompt),
                       prices=prices)
    # Another server answers otherwise: its samples are keyed apart, never resumed from this one's.
    fixer.config["endpoint"] = base_url.rstrip("/")
    if prices.lookup(model) is None:
        fixer.notices = (f"{kind}:{model}: no price known for this model; its cost is reported as $0 "
                         "(give one with --hwrepair-prices FILE)",)
    return fixer


def check_options(settings: Settings) -> None:
    """Values the Settings types cannot check: one line naming the option and what is allowed."""
    if settings.batch and settings.protocol == "iterative":
        raise FixerError("--hwrepair-batch: batch mode needs the repeated protocol (one request per sample); "
                         "the iterative protocol asks again after each verdict")
    if settings.max_connections < 1:
        raise FixerError(f"--hwrepair-max-connections: must be at least 1, got {settings.max_connections}")
    if settings.max_retries < 0:
        raise FixerError(f"--hwrepair-max-retries: must be 0 or more, got {settings.max_retries}")
    if settings.max_tokens is not None and settings.max_tokens < 1:
        raise FixerError(f"--hwrepair-max-tokens: must be at least 1, got {settings.max_tokens}")
    if settings.cost_limit is not None and settings.cost_limit <= 0:
        raise FixerError(f"--hwrepair-cost-limit: must be above 0 USD, got {settings.cost_limit}")
    for name in ("retry_delay", "retry_max_wait", "request_timeout", "batch_poll"):
        if getattr(settings, name) <= 0:
            raise FixerError(f"--hwrepair-{name.replace('_', '-')}: must be above 0, got {getattr(settings, name)}")
    if settings.request_extra:
        try:
            extra = json.loads(settings.request_extra)
        except json.JSONDecodeError as exc:
            raise FixerError(f"--hwrepair-request-extra: not valid JSON: {exc}") from None
        if not isinstance(extra, dict):
            raise FixerError("--hwrepair-request-extra: must be a JSON object, e.g. '{\"reasoning_effort\": \"low\"}'")


__all__ = ["PROVIDERS", "ModelFixer", "make_model_fixer"]
