"""OpenAI Chat Completions (and compatible servers: vLLM, Ollama, OpenRouter, ...) and the Batch API."""

from __future__ import annotations

import json
import re
from typing import Any

from ..base import Usage
from .api import BatchResult, BatchStatus, JsonApi, Reply, Sampling, join, shape_error
from .http import Caller

DEFAULT_BASE_URL = "https://api.openai.com/v1"
ENDED = ("completed", "failed", "expired", "cancelled")
# Reasoning models take `max_completion_tokens`; everything else (and every compatible server) `max_tokens`.
_REASONING = re.compile(r"^(o\d|gpt-5)")


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
        return BatchStatus(state in ENDED, state + progress,
                           {"output": response.get("output_file_id"), "errors": response.get("error_file_id"),
                            "state": state, "reason": reason})

    def batch_results(self, caller: Caller, status: BatchStatus) -> list[BatchResult]:
        out = []
        for ref in ("output", "errors"):
            file_id = status.ref.get(ref)
            if file_id:
                text = caller.text("GET", join(self.base, f"files/{file_id}/content"), headers=self.headers())
                out += [_result(line) for line in text.splitlines() if line.strip()]
        return out


def _result(line: str) -> BatchResult:
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


__all__ = ["DEFAULT_BASE_URL", "OpenAIApi"]
