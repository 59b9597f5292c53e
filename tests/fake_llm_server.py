"""A loopback test server that speaks the Anthropic Messages API and OpenAI Chat Completions, with batches.

It answers with the reference fix of the case whose buggy file appears in the prompt (a test server may read
the case files), and can be scripted to misbehave: 429 with retry-after / retry-after-ms, 529, 500, other
4xx, a dropped connection, malformed JSON, a slow reply. Batches go through their whole lifecycle and can be
held open to test resuming.

    python -m tests.fake_llm_server --port 8765 --cases cases
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import itertools
import json
import re
import socket
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

Answer = Callable[[str, dict[str, Any]], str]


def reference_answer(cases_root: Path) -> Answer:
    """Answers with the golden target of the case and bug whose buggy target appears in the prompt."""
    from pytest_hwrepair.cases.case import find_case_files
    from pytest_hwrepair.cases.load import load_case

    table: list[tuple[str, str, str]] = []
    for path in find_case_files([cases_root]):
        case = load_case(path)
        if case.repo is not None:  # a repository instance: its issue in the prompt, its gold patch as the answer
            table += [(case.repo.issues[b.id].strip(), case.repo.patches[b.id], "diff") for b in case.bugs]
            continue
        golden = case.files[case.target]
        for bug in case.bugs:
            buggy = case.buggy_files(bug)[case.target]
            table.append((buggy.rstrip("\n"), golden, Path(case.target).suffix.lstrip(".")))
    table.sort(key=lambda row: -len(row[0]))  # a longer file first: never match a file inside a larger one

    def answer(provider: str, body: dict[str, Any]) -> str:
        prompt = first_user_text(body)
        for buggy, golden, lang in table:
            if buggy in prompt:
                return f"Here is the corrected file.\n\n```{lang}\n{golden.rstrip()}\n```\n"
        return "I could not find a file to repair."

    return answer


def echo_answer(provider: str, body: dict[str, Any]) -> str:
    """Returns the first code block of the prompt unchanged (a model that fixes nothing)."""
    m = re.search(r"```[^\n]*\n(.*?)\n```", first_user_text(body), re.DOTALL)
    return f"```\n{m.group(1) if m else ''}\n```\n"


def mixed_answer(cases_root: Path) -> Answer:
    """A stand-in for a model that repairs some bugs some of the time (deterministic per prompt).

    Each prompt gets a fixed share (0, 1/4, ... or 4/4, from its hash) of its requests answered with the
    reference fix; the other requests get the file back unchanged under a comment naming the attempt,
    so wrong answers differ from one another (high solution multiplicity) and right ones agree.
    """
    right = reference_answer(cases_root)
    attempts: dict[str, int] = {}
    lock = threading.Lock()

    def answer(provider: str, body: dict[str, Any]) -> str:
        prompt = first_user_text(body)
        digest = hashlib.sha256(prompt.encode()).digest()
        with lock:
            attempt = attempts.get(prompt, 0)
            attempts[prompt] = attempt + 1
        if (attempt + digest[1]) % 4 < digest[0] % 5:
            return right(provider, body)
        m = re.search(r"```[^\n]*\n(.*?)\n```", prompt, re.DOTALL)
        return f"```\n/* attempt {attempt} */\n{m.group(1) if m else ''}\n```\n"

    return answer


ANSWERS: dict[str, Callable[[Path], Answer]] = {"reference": reference_answer, "mixed": mixed_answer,
                                                "echo": lambda _: echo_answer}


def first_user_text(body: dict[str, Any]) -> str:
    for message in body.get("messages", []):
        if message.get("role") == "user":
            content = message.get("content")
            if isinstance(content, list):
                return "".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
            return str(content)
    return ""


class FakeLLM:
    """The server and its script; start() binds 127.0.0.1 on a free port."""

    def __init__(self, answer: Answer = echo_answer, *, usage: tuple[int, int, int] = (1000, 200, 0),
                 delay: float = 0.0, batch_polls: int = 1) -> None:
        self.answer = answer
        self.usage = usage  # input, output, cache-read tokens of every reply
        self.delay = delay  # seconds every model reply takes (to observe concurrency)
        self.batch_polls = batch_polls  # status polls before a batch ends
        self.batch_hold = False  # keep every batch running until set back to False
        self.batch_errors = 0  # the first N requests of each batch fail
        self.faults: list[str] = []
        self.requests: list[dict[str, Any]] = []
        self.batches: dict[str, dict[str, Any]] = {}
        self.files: dict[str, bytes] = {}
        self.in_flight = 0
        self.peak = 0
        self.lock = threading.Lock()
        self.ids = itertools.count(1)
        self.server: ThreadingHTTPServer | None = None

    # ------------------------------------------------------------ control

    def start(self, port: int = 0) -> FakeLLM:
        self.server = _Server(("127.0.0.1", port), _handler(self))
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()

    def __enter__(self) -> FakeLLM:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def url(self) -> str:
        assert self.server is not None
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def script(self, *faults: str) -> None:
        """Queue misbehaviours for the next model requests, one each: '429', '429:retry-after=0.2',
        '429:retry-after-ms=50', '529', '500', '400', '401', 'drop', 'badjson', 'slow:2.0'."""
        with self.lock:
            self.faults.extend(faults)

    def model_requests(self) -> list[dict[str, Any]]:
        return [r for r in self.requests if r["path"] in ("/v1/messages", "/v1/chat/completions")]

    # ------------------------------------------------------------ replies

    def reply(self, provider: str, body: dict[str, Any]) -> dict[str, Any]:
        n = next(self.ids)
        text = self.answer(provider, body)
        i, o, cr = self.usage
        if provider == "anthropic":
            return {"id": f"msg_{n:06d}", "type": "message", "role": "assistant", "model": body.get("model"),
                    "content": [{"type": "text", "text": text}], "stop_reason": "end_turn", "stop_sequence": None,
                    "usage": {"input_tokens": i, "output_tokens": o, "cache_creation_input_tokens": 0,
                              "cache_read_input_tokens": cr}}
        return {"id": f"chatcmpl-{n:06d}", "object": "chat.completion", "created": int(time.time()),
                "model": body.get("model"),
                "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                             "finish_reason": "stop"}],
                "usage": {"prompt_tokens": i + cr, "completion_tokens": o, "total_tokens": i + cr + o,
                          "prompt_tokens_details": {"cached_tokens": cr}}}

    def next_fault(self) -> str | None:
        with self.lock:
            return self.faults.pop(0) if self.faults else None

    # ------------------------------------------------------------ batches

    def new_batch(self, provider: str, requests: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
        batch_id = f"msgbatch_{next(self.ids):06d}" if provider == "anthropic" else f"batch_{next(self.ids):06d}"
        batch = {"id": batch_id, "provider": provider, "requests": requests, "polls": 0, "ended": False}
        self.batches[batch_id] = batch
        return batch

    def poll(self, batch: dict[str, Any]) -> None:
        batch["polls"] += 1
        if not batch["ended"] and not self.batch_hold and batch["polls"] >= self.batch_polls:
            batch["ended"] = True
            batch["results"] = [(cid, None if k < self.batch_errors else self.reply(batch["provider"], body))
                                for k, (cid, body) in enumerate(batch["requests"])]


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128  # many connections at once (requests made ahead): never refused by a short backlog


def _error(provider: str, kind: str, message: str) -> dict[str, Any]:
    if provider == "anthropic":
        return {"type": "error", "error": {"type": kind, "message": message}}
    return {"error": {"message": message, "type": kind, "code": None}}


ERRORS = {400: "invalid_request_error", 401: "authentication_error", 404: "not_found_error",
          429: "rate_limit_error", 500: "api_error", 529: "overloaded_error"}


def _handler(fake: FakeLLM) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_GET(self) -> None:
            self._route("GET")

        def do_POST(self) -> None:
            self._route("POST")

        def _route(self, method: str) -> None:
            length = int(self.headers.get("content-length") or 0)
            raw = self.rfile.read(length) if length else b""
            path = self.path.split("?")[0]
            with fake.lock:
                fake.requests.append({"method": method, "path": path, "headers": dict(self.headers),
                                      "raw": raw})
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # the client gave up (a timeout test)
                self._dispatch(method, path, raw)

        def _dispatch(self, method: str, path: str, raw: bytes) -> None:
            if method == "POST" and path in ("/v1/messages", "/v1/chat/completions"):
                return self._model("anthropic" if path == "/v1/messages" else "openai", raw)
            if path.startswith("/v1/messages/batches"):
                return self._anthropic_batch(method, path, raw)
            if path.startswith(("/v1/files", "/v1/batches")):
                return self._openai_batch(method, path, raw)
            self._json(404, _error("openai", "not_found_error", f"no route {path}"))

        def _model(self, provider: str, raw: bytes) -> None:
            body = json.loads(raw or b"{}")
            fake.requests[-1]["body"] = body
            with fake.lock:
                fake.in_flight += 1
                fake.peak = max(fake.peak, fake.in_flight)
            try:
                self._model_reply(provider, body)
            finally:
                with fake.lock:
                    fake.in_flight -= 1

        def _model_reply(self, provider: str, body: dict[str, Any]) -> None:
            fault = fake.next_fault()
            if fake.delay:
                time.sleep(fake.delay)
            if fault is None:
                return self._json(200, fake.reply(provider, body))
            name, _, arg = fault.partition(":")
            if name == "drop":
                self.connection.shutdown(socket.SHUT_RDWR)
                self.close_connection = True
                return None
            if name == "badjson":
                return self._send(200, b'{"id": "broken", "content": [', "application/json")
            if name == "slow":
                time.sleep(float(arg))
                return self._json(200, fake.reply(provider, body))
            status = int(name)
            headers = dict(part.split("=", 1) for part in arg.split(",") if "=" in part)
            message = "the fake server's scripted error" if status != 400 else "max_tokens: must be at most 8192"
            return self._json(status, _error(provider, ERRORS.get(status, "api_error"), message), headers)

        def _anthropic_batch(self, method: str, path: str, raw: bytes) -> None:
            parts = path.strip("/").split("/")  # v1 messages batches [id [results]]
            if method == "POST" and len(parts) == 3:
                data = json.loads(raw)
                created = fake.new_batch("anthropic", [(r["custom_id"], r["params"]) for r in data["requests"]])
                return self._json(200, self._anthropic_status(created))
            batch = fake.batches.get(parts[3]) if len(parts) > 3 else None
            if batch is None:
                return self._json(404, _error("anthropic", "not_found_error", "no such batch"))
            if len(parts) == 4:
                fake.poll(batch)
                return self._json(200, self._anthropic_status(batch))
            lines = []
            for cid, reply in batch.get("results", []):
                result = ({"type": "succeeded", "message": reply} if reply is not None else
                          {"type": "errored", "error": {"type": "error", "error": {"type": "api_error",
                                                                                  "message": "internal"}}})
                lines.append(json.dumps({"custom_id": cid, "result": result}))
            return self._send(200, ("\n".join(lines) + "\n").encode(), "application/x-jsonl")

        def _anthropic_status(self, batch: dict[str, Any]) -> dict[str, Any]:
            n = len(batch["requests"])
            errors = min(n, fake.batch_errors) if batch["ended"] else 0
            counts = {"processing": 0 if batch["ended"] else n, "succeeded": n - errors if batch["ended"] else 0,
                      "errored": errors, "canceled": 0, "expired": 0}
            return {"id": batch["id"], "type": "message_batch",
                    "processing_status": "ended" if batch["ended"] else "in_progress", "request_counts": counts,
                    "results_url": f"{fake.url}/v1/messages/batches/{batch['id']}/results" if batch["ended"]
                    else None}

        def _openai_batch(self, method: str, path: str, raw: bytes) -> None:
            parts = path.strip("/").split("/")
            if method == "POST" and parts == ["v1", "files"]:
                file_id = f"file-{next(fake.ids):06d}"
                fake.files[file_id] = _multipart_file(self.headers.get("content-type", ""), raw)
                return self._json(200, {"id": file_id, "object": "file", "purpose": "batch"})
            if method == "GET" and parts[:2] == ["v1", "files"] and parts[-1] == "content":
                return self._send(200, fake.files.get(parts[2], b""), "application/jsonl")
            if method == "POST" and parts == ["v1", "batches"]:
                data = json.loads(raw)
                lines = fake.files[data["input_file_id"]].decode().splitlines()
                rows = [json.loads(line) for line in lines if line.strip()]
                created = fake.new_batch("openai", [(r["custom_id"], r["body"]) for r in rows])
                return self._json(200, self._openai_status(created))
            batch = fake.batches.get(parts[2]) if len(parts) == 3 else None
            if batch is None:
                return self._json(404, _error("openai", "not_found_error", "no such batch"))
            fake.poll(batch)
            return self._json(200, self._openai_status(batch))

        def _openai_status(self, batch: dict[str, Any]) -> dict[str, Any]:
            n = len(batch["requests"])
            status: dict[str, Any] = {"id": batch["id"], "object": "batch", "endpoint": "/v1/chat/completions",
                                      "status": "completed" if batch["ended"] else "in_progress",
                                      "request_counts": {"total": n, "completed": 0, "failed": 0}}
            if batch["ended"] and "output" not in batch:
                ok = [(c, r) for c, r in batch["results"] if r is not None]
                bad = [c for c, r in batch["results"] if r is None]
                batch["output"] = f"file-{next(fake.ids):06d}"
                fake.files[batch["output"]] = "".join(
                    json.dumps({"id": f"req_{c}", "custom_id": c, "error": None,
                                "response": {"status_code": 200, "body": r}}) + "\n" for c, r in ok).encode()
                if bad:
                    batch["errors"] = f"file-{next(fake.ids):06d}"
                    fake.files[batch["errors"]] = "".join(
                        json.dumps({"id": f"req_{c}", "custom_id": c, "error": None,
                                    "response": {"status_code": 500, "body": _error("openai", "server_error",
                                                                                    "internal")}}) + "\n"
                        for c in bad).encode()
            if batch["ended"]:
                failed = sum(1 for _, r in batch["results"] if r is None)
                status.update(output_file_id=batch["output"], error_file_id=batch.get("errors"),
                              request_counts={"total": n, "completed": n - failed, "failed": failed})
            return status

        def _json(self, status: int, data: Any, headers: dict[str, str] | None = None) -> None:
            self._send(status, json.dumps(data).encode(), "application/json", headers)

        def _send(self, status: int, payload: bytes, kind: str, headers: dict[str, str] | None = None) -> None:
            self.send_response(status)
            self.send_header("content-type", kind)
            self.send_header("content-length", str(len(payload)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(payload)

    return Handler


def _multipart_file(content_type: str, raw: bytes) -> bytes:
    """The `file` part of a multipart/form-data upload."""
    m = re.search(r"boundary=\"?([^\";]+)", content_type)
    if not m:
        return b""
    for part in raw.split(b"--" + m.group(1).encode()):
        head, sep, body = part.partition(b"\r\n\r\n")
        if sep and b'name="file"' in head:
            return body.removesuffix(b"\r\n")
    return b""


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--cases", type=Path, default=Path("cases"), help="answer with these cases' reference fixes")
    parser.add_argument("--answer", choices=sorted(ANSWERS), default="reference",
                        help="reference: always the fix; echo: the file unchanged; mixed: the fix for a share of "
                             "each prompt's requests")
    parser.add_argument("--delay", type=float, default=0.0, help="seconds every reply takes (a latency-bound model)")
    args = parser.parse_args(argv)
    fake = FakeLLM(ANSWERS[args.answer](args.cases), delay=args.delay).start(args.port)
    print(f"fake model API on {fake.url} (OpenAI: {fake.url}/v1, Anthropic: {fake.url}); Ctrl-C stops it",
          flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        fake.stop()


if __name__ == "__main__":
    main()
