"""HTTP calls of the model fixers: retries with backoff and jitter, honouring retry-after, never silent."""

from __future__ import annotations

import email.utils
import json
import random
import re
import time
import warnings
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

# httpx imports httpcore lazily; a copy imported again later (an in-process pytester run drops the modules it
# imported) raises exceptions httpx no longer maps to its own, so load it once, with the plugin.
import httpcore  # noqa: F401
import httpx

from ..base import FixerError

RETRY_STATUSES = frozenset({408, 409, 429, 529})
_QUOTA = re.compile(r"insufficient_quota|exceeded your current quota|credit balance|billing", re.IGNORECASE)


class RetryWarning(UserWarning):
    """A model request is being retried (rate limit, overload, outage): shown in pytest's warnings summary."""


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how long to retry one request."""

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

    def json(self, method: str, url: str, **kwargs: Any) -> Any:
        """A JSON response body; retries transient failures, raises FixerError on the rest."""
        return self._send(method, url, True, kwargs)

    def text(self, method: str, url: str, **kwargs: Any) -> str:
        """A text response body (batch result files)."""
        return str(self._send(method, url, False, kwargs))

    def _send(self, method: str, url: str, as_json: bool, kwargs: dict[str, Any]) -> Any:
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
                warnings.warn(note, RetryWarning, stacklevel=4)
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
    ms = headers.get("retry-after-ms")
    if ms is not None:
        try:
            return float(ms) / 1000.0
        except ValueError:
            pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return float(value)
    except ValueError:
        pass
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


__all__ = ["Caller", "RetryPolicy", "RetryWarning", "api_message", "retry_after"]
