"""The wire seam of the model fixers: one class per provider turns messages into requests and back."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from ..base import FixerError, Usage
from .http import Caller


@dataclass(frozen=True, slots=True)
class Sampling:
    """Request parameters of one call."""

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
    """Where a submitted batch stands."""

    ended: bool
    progress: str
    ref: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class BatchResult:
    """One request's outcome inside a batch: a response body or the API's error message."""

    custom_id: str
    response: dict[str, Any] | None = None
    error: str = ""


class Api(Protocol):
    """A provider's wire format: requests, replies, and its batch endpoints."""

    provider: str
    base: str

    def body(self, model: str, messages: list[dict[str, str]], sampling: Sampling) -> dict[str, Any]: ...

    def send(self, caller: Caller, body: dict[str, Any]) -> dict[str, Any]: ...

    def parse(self, response: dict[str, Any]) -> Reply: ...

    def submit_batch(self, caller: Caller, requests: list[tuple[str, dict[str, Any]]]) -> str: ...

    def poll_batch(self, caller: Caller, batch_id: str) -> BatchStatus: ...

    def batch_results(self, caller: Caller, status: BatchStatus) -> list[BatchResult]: ...


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
        response = caller.json(method, join(self.base, path), headers=self.headers(), **kwargs)
        if not isinstance(response, dict) or (need and not response.get(need)):
            raise shape_error(self.provider, what)
        return response


def shape_error(provider: str, what: str) -> FixerError:
    return FixerError(f"{provider}: unexpected response shape ({what})")


def join(base: str, path: str) -> str:
    return base.rstrip("/") + "/" + path.lstrip("/")


__all__ = ["Api", "ApiError", "BatchResult", "BatchStatus", "JsonApi", "Reply", "Sampling", "join", "shape_error"]
