"""The Anthropic Messages API and its Message Batches API."""

from __future__ import annotations

import json
from typing import Any

from ..base import Usage
from .api import BatchResult, BatchStatus, JsonApi, Reply, Sampling, join, shape_error
from .http import Caller

DEFAULT_BASE_URL = "https://api.anthropic.com"
VERSION = "2023-06-01"


class AnthropicApi(JsonApi):
    """`POST /v1/messages`; batches under `/v1/messages/batches`."""

    provider = "anthropic"
    endpoint = "messages"

    def __init__(self, base_url: str, api_key: str | None) -> None:
        base = base_url.rstrip("/")
        self.base = base if base.endswith("/v1") else base + "/v1"
        self.api_key = api_key

    def headers(self) -> dict[str, str]:
        headers = {"anthropic-version": VERSION}
        if self.api_key:
            headers["x-api-key"] = self.api_key
        return headers

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
        text = caller.text("GET", str(url), headers=self.headers())
        return [_result(line) for line in text.splitlines() if line.strip()]


def _result(line: str) -> BatchResult:
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


__all__ = ["DEFAULT_BASE_URL", "AnthropicApi"]
