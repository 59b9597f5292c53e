"""The wire seam of the model fixers: HTTP calls with retries (backing off with jitter, honouring retry-after,
never silent), and one class per provider that turns messages into requests and responses back into replies."""

from __future__ import annotations

import email.utils
import json
import random
import re
import time
import warnings
from collections import Counter
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any

# httpx imports httpcore lazily; a copy imported again later (an in-process pytester run drops the modules it
# imported) raises exceptions httpx no longer maps to its own, so load it once, with the plugin.
import httpcore  # noqa: F401
import httpx

from ..base import FixerError, Usage

RETRY_STATUSES = frozenset({408, 409, 429, 529})
_QUOTA = re.compile(r"insufficient_quota|exceeded your current quota|credit balance|billing", re.IGNORECASE)
ANTHROPIC_URL = "https://api.anthropic.com"
ANTHROPIC_VERSION = "2023-06-01"
OPENAI_URL = "https://api.openai.com/v1"
OPENAI_ENDED = ("completed", "failed", "expired", "cancelled")
# Reasoning models take `max_completion_tokens`; everything else (and every compatible server) `max_tokens`.
_REASONING = re.compile(r"^(o\d|gpt-5)")


class RetryWarning(UserWarning):
    """A model request is being retried (rate limit, overload, outage): shown in pytest's warnings summary."""


@dataclass(frozen=True)
class RetryPolicy:
    max_retries: int = 8
    delay: float = 1.0
    max_wait: float = 60.0

    def wait(self, retry: int, hint: float | None) -> float:
        """Seconds before retry number `retry` (0-based): the server's hint up to the cap, else backoff."""
        if hint is not None and hint >= 0:
            base = min(hint, self.max_wait)
            return base + random.uniform(0.0, 0.1 * base)  # a little spread so workers do not retry in step
        backoff = min(self.max_wait, self.delay * 2.0**retry)
        return backoff * random.uniform(0.5, 1.0)


@dataclass
class Caller:
    """Sends requests for one provider and counts every retry by reason."""

    client: httpx.Client
    label: str
    policy: RetryPolicy
    retries: Counter[str] = field(default_factory=Counter)
    said: list[str] | None = None  # retry warnings kept here instead (a request made ahead: its item warns)

    def send(self, method: str, url: str, *, as_json: bool = True, **kwargs: Any) -> Any:
        """The JSON (else the text) response body; retries transient failures, raises FixerError on the rest."""
        retry = 0
        while True:
            reason, hint = self._attempt(method, url, as_json, kwargs)
            if isinstance(reason, _Done):
                return reason.value
            if retry >= self.policy.max_retries:
                raise FixerError(f"{self.label}: gave up after {retry} retries (last: {describe(reason)}); "
                                 "the API is unavailable or rate limited beyond the retry budget")
            self.retries[reason] += 1  # a retry made, not a failed request: the last failure is retried no more
            delay = self.policy.wait(retry, hint)
            note = f"{self.label}: {describe(reason)}, retry {retry + 1} of {self.policy.max_retries} in {delay:.2f}s"
            if self.said is not None:
                self.said.append(note)
            else:
                warnings.warn(note, RetryWarning, stacklevel=3)
            time.sleep(delay)
            retry += 1

    def _attempt(self, method: str, url: str, as_json: bool,
                 kwargs: dict[str, Any]) -> tuple[_Done | str, float | None]:
        try:
            response = self.client.request(method, url, **kwargs)
        except httpx.TimeoutException:
            return "timeout", None
        except httpx.TransportError:
            return "connection", None
        status = response.status_code
        if status < 400:
            if not as_json:
                return _Done(response.text), None
            try:
                return _Done(response.json()), None
            except (json.JSONDecodeError, UnicodeDecodeError):
                return "bad_json", None
        if status == 429 and _QUOTA.search(response.text[:4000]):
            # An exhausted quota or credit balance never clears by waiting: fail now, not after 8 retries.
            raise FixerError(f"{self.label}: HTTP 429 {api_message(response)} (quota exhausted: not retried)")
        if status in RETRY_STATUSES or status >= 500:
            return str(status), retry_after(response.headers)
        raise FixerError(f"{self.label}: HTTP {status} {api_message(response)}")


@dataclass(frozen=True)
class _Done:
    value: Any


def describe(reason: str) -> str:
    if reason.isdigit():
        return f"HTTP {reason}"
    return {"timeout": "request timed out", "connection": "connection failed",
            "bad_json": "malformed JSON in the response"}.get(reason, reason)


def retry_after(headers: httpx.Headers) -> float | None:
    """The server's wait hint in seconds: retry-after-ms first, then retry-after (seconds or an HTTP date)."""
    with suppress(KeyError, ValueError):
        return float(headers["retry-after-ms"]) / 1000.0
    value = headers.get("retry-after")
    if value is None:
        return None
    with suppress(ValueError):
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def api_message(response: httpx.Response) -> str:
    """The API's own error text (both wire formats), else the reason phrase; never the request."""
    try:
        body = response.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        return response.reason_phrase or "error"
    error = body.get("error") if isinstance(body, dict) else None
    if isinstance(error, dict):
        kind = error.get("type") or error.get("code") or ""
        message = error.get("message") or ""
        return f"{kind}: {message}".strip(": ") or response.reason_phrase
    if isinstance(error, str):
        return error
    return response.reason_phrase or "error"


@dataclass(frozen=True, slots=True)
class Sampling:
    max_tokens: int
    temperature: float | None = 1.0
    top_p: float | None = None
    seed: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Reply:
    """The text of a response, its token counts, and whether it stopped at the output limit."""

    text: str
    usage: Usage
    truncated: bool = False
    stop: str = ""


@dataclass(frozen=True, slots=True)
class BatchStatus:
    ended: bool
    progress: str
    ref: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class BatchResult:
    """One request's outcome inside a batch: a response body or the API's error message."""

    custom_id: str
    response: dict[str, Any] | None = None
    error: str = ""


class ApiError(FixerError):
    """The API failed this request for good; carries the retries made before giving up."""

    def __init__(self, message: str, retries: dict[str, int] | None = None) -> None:
        super().__init__(message)
        self.retries = dict(retries or {})


class JsonApi:
    """What both wire formats share: JSON objects from paths under the base URL, with the provider's headers."""

    provider: str
    base: str
    endpoint: str  # where one request is sent, under the base URL

    def headers(self) -> dict[str, str]:
        raise NotImplementedError

    def send(self, caller: Caller, body: dict[str, Any]) -> dict[str, Any]:
        return self.fetch(caller, "POST", self.endpoint, "not an object", json=body)

    def fetch(self, caller: Caller, method: str, path: str, what: str, need: str = "", **kwargs: Any) -> dict[str, Any]:
        """The response object (with `need` set, where given), else an unexpected shape error naming `what`."""
        response = caller.send(method, join(self.base, path), headers=self.headers(), **kwargs)
        if not isinstance(response, dict) or (need and not response.get(need)):
            raise shape_error(self.provider, what)
        return response


def shape_error(provider: str, what: str) -> FixerError:
    return FixerError(f"{provider}: unexpected response shape ({what})")


def join(base: str, path: str) -> str:
    return base.rstrip("/") + "/" + path.lstrip("/")


class AnthropicApi(JsonApi):
    """`POST /v1/messages`; batches under `/v1/messages/batches`."""

    provider = "anthropic"
    endpoint = "messages"

    def __init__(self, base_url: str, api_key: str | None) -> None:
        base = base_url.rstrip("/")
        self.base = base if base.endswith("/v1") else base + "/v1"
        self.api_key = api_key

    def headers(self) -> dict[str, str]:
        return {"anthropic-version": ANTHROPIC_VERSION, **({"x-api-key": self.api_key} if self.api_key else {})}

    def body(self, model: str, messages: list[dict[str, str]], sampling: Sampling) -> dict[str, Any]:
        body: dict[str, Any] = {"model": model, "max_tokens": sampling.max_tokens, "messages": messages}
        # Current models refuse temperature and top_p together: a top_p the user set replaces the temperature.
        if sampling.temperature is not None and sampling.top_p is None:
            body["temperature"] = sampling.temperature
        if sampling.top_p is not None:
            body["top_p"] = sampling.top_p
        body.update(sampling.extra)  # no seed: the Messages API has none; the sample index keeps samples apart
        return body

    def parse(self, response: dict[str, Any]) -> Reply:
        content = response.get("content")
        if not isinstance(content, list):
            raise shape_error(self.provider, "no content list")
        text = "".join(str(block.get("text", "")) for block in content
                       if isinstance(block, dict) and block.get("type") == "text")
        u = response.get("usage") or {}
        usage = Usage(input=int(u.get("input_tokens") or 0), output=int(u.get("output_tokens") or 0),
                      cache_read=int(u.get("cache_read_input_tokens") or 0),
                      cache_write=int(u.get("cache_creation_input_tokens") or 0))
        stop = str(response.get("stop_reason") or "")
        return Reply(text, usage, truncated=stop == "max_tokens", stop=stop)

    def submit_batch(self, caller: Caller, requests: list[tuple[str, dict[str, Any]]]) -> str:
        payload = {"requests": [{"custom_id": cid, "params": body} for cid, body in requests]}
        return str(self.fetch(caller, "POST", "messages/batches", "batch without an id", "id", json=payload)["id"])

    def poll_batch(self, caller: Caller, batch_id: str) -> BatchStatus:
        response = self.fetch(caller, "GET", f"messages/batches/{batch_id}", "batch status not an object")
        counts = response.get("request_counts") or {}
        progress = ", ".join(f"{counts[k]} {k}" for k in ("processing", "succeeded", "errored", "canceled", "expired")
                             if counts.get(k))
        return BatchStatus(response.get("processing_status") == "ended",
                           f"{response.get('processing_status')}" + (f" ({progress})" if progress else ""),
                           {"results_url": response.get("results_url")})

    def batch_results(self, caller: Caller, status: BatchStatus) -> list[BatchResult]:
        url = status.ref.get("results_url")
        if not url:
            return []
        if not str(url).startswith(("http://", "https://")):
            url = join(self.base.removesuffix("/v1"), str(url))
        text = str(caller.send("GET", str(url), as_json=False, headers=self.headers()))
        return [_anthropic_result(line) for line in text.splitlines() if line.strip()]


def _anthropic_result(line: str) -> BatchResult:
    try:
        row = json.loads(line)
        cid = str(row["custom_id"])
        result = row["result"]
    except (json.JSONDecodeError, KeyError, TypeError):
        return BatchResult("", error="unreadable result line")
    kind = result.get("type")
    if kind == "succeeded" and isinstance(result.get("message"), dict):
        return BatchResult(cid, response=result["message"])
    if kind == "errored":
        error = (result.get("error") or {}).get("error") or result.get("error") or {}
        return BatchResult(cid, error=f"batch request errored: {error.get('type', '')}: {error.get('message', '')}")
    return BatchResult(cid, error=f"batch request {kind or 'failed'}")


class OpenAIApi(JsonApi):
    """`POST {base}/chat/completions`; batches through `/files` and `/batches`."""

    provider = "openai"
    endpoint = "chat/completions"

    def __init__(self, base_url: str, api_key: str | None) -> None:
        self.base = base_url.rstrip("/")
        self.api_key = api_key

    def headers(self) -> dict[str, str]:
        return {"authorization": f"Bearer {self.api_key}"} if self.api_key else {}

    def body(self, model: str, messages: list[dict[str, str]], sampling: Sampling) -> dict[str, Any]:
        reasoning = bool(_REASONING.match(model.rsplit("/", 1)[-1]))
        budget = "max_completion_tokens" if reasoning else "max_tokens"
        body: dict[str, Any] = {"model": model, "messages": messages, budget: sampling.max_tokens}
        # Reasoning models (o-series, gpt-5 family) reject sampling parameters: they sample at their own default.
        if sampling.temperature is not None and not reasoning:
            body["temperature"] = sampling.temperature
        if sampling.top_p is not None and not reasoning:
            body["top_p"] = sampling.top_p
        if sampling.seed is not None:
            body["seed"] = sampling.seed
        body.update(sampling.extra)
        return body

    def parse(self, response: dict[str, Any]) -> Reply:
        choices = response.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            raise shape_error(self.provider, "no choices")
        message = choices[0].get("message") or {}
        text = message.get("content") or ""
        if isinstance(text, list):  # content parts
            text = "".join(str(p.get("text", "")) for p in text if isinstance(p, dict))
        u = response.get("usage") or {}
        cached = int((u.get("prompt_tokens_details") or {}).get("cached_tokens") or 0)
        usage = Usage(input=int(u.get("prompt_tokens") or 0) - cached, output=int(u.get("completion_tokens") or 0),
                      cache_read=cached)
        stop = str(choices[0].get("finish_reason") or "")
        return Reply(str(text), usage, truncated=stop == "length", stop=stop)

    def submit_batch(self, caller: Caller, requests: list[tuple[str, dict[str, Any]]]) -> str:
        lines = "".join(json.dumps({"custom_id": cid, "method": "POST", "url": "/v1/chat/completions", "body": body})
                        + "\n" for cid, body in requests)
        uploaded = self.fetch(caller, "POST", "files", "uploaded file without an id", "id", data={"purpose": "batch"},
                              files={"file": ("hwrepair-batch.jsonl", lines.encode(), "application/jsonl")})
        batch = self.fetch(caller, "POST", "batches", "batch without an id", "id",
                           json={"input_file_id": uploaded["id"], "endpoint": "/v1/chat/completions",
                                 "completion_window": "24h"})
        return str(batch["id"])

    def poll_batch(self, caller: Caller, batch_id: str) -> BatchStatus:
        response = self.fetch(caller, "GET", f"batches/{batch_id}", "batch status not an object")
        state = str(response.get("status"))
        counts = response.get("request_counts") or {}
        progress = f" ({counts.get('completed', 0)}/{counts.get('total', 0)} done)" if counts else ""
        errors = (response.get("errors") or {}).get("data") or []
        reason = "; ".join(str(e.get("message", "")) for e in errors if isinstance(e, dict))
        return BatchStatus(state in OPENAI_ENDED, state + progress,
                           {"output": response.get("output_file_id"), "errors": response.get("error_file_id"),
                            "state": state, "reason": reason})

    def batch_results(self, caller: Caller, status: BatchStatus) -> list[BatchResult]:
        out = []
        for ref in ("output", "errors"):
            file_id = status.ref.get(ref)
            if file_id:
                text = str(caller.send("GET", join(self.base, f"files/{file_id}/content"), as_json=False,
                                       headers=self.headers()))
                out += [_openai_result(line) for line in text.splitlines() if line.strip()]
        return out


def _openai_result(line: str) -> BatchResult:
    try:
        row = json.loads(line)
        cid = str(row["custom_id"])
    except (json.JSONDecodeError, KeyError, TypeError):
        return BatchResult("", error="unreadable result line")
    response = row.get("response") or {}
    body = response.get("body")
    if response.get("status_code") == 200 and isinstance(body, dict):
        return BatchResult(cid, response=body)
    error = row.get("error") or (body or {}).get("error") or {}
    if not isinstance(error, dict):
        error = {"message": str(error)}
    return BatchResult(cid, error=f"batch request failed: {error.get('code') or error.get('type') or ''}: "
                                  f"{error.get('message', '')}")


Api = AnthropicApi | OpenAIApi  # the wire formats the model fixers speak
