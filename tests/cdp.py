"""A small Chrome DevTools Protocol client over Chromium's websocket, for testing the HTML report in a browser."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
import urllib.request
from pathlib import Path
from types import TracebackType
from typing import Any

import websocket

from pytest_hwrepair.report.plots import chromium_argv


class CDPError(Exception):
    """The browser answered a command with an error, or did not answer in time."""


class Page:
    """One headless Chromium with one page; every event it sends is kept in `events`."""

    def __init__(self, binary: str, profile: Path, *, timeout: float = 60.0) -> None:
        self.timeout = timeout
        self.events: list[dict[str, Any]] = []
        self._id = 0
        profile.mkdir(parents=True, exist_ok=True)
        self.log = (profile / "chromium.log").open("wb")
        argv = [*chromium_argv(binary, profile), "--remote-debugging-port=0", "about:blank"]
        # Its own process group, so closing ends the browser's helper processes too.
        self.proc = subprocess.Popen(argv, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        port = self._port(profile / "DevToolsActivePort")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=timeout) as reply:
            targets = json.loads(reply.read())
        page = next(t for t in targets if t.get("type") == "page")
        self.ws = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=timeout, suppress_origin=True)

    def _port(self, path: Path) -> int:
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise CDPError(f"chromium exited with {self.proc.returncode} before listening")
            if path.is_file() and path.read_text().strip():
                return int(path.read_text().split()[0])
            time.sleep(0.1)
        raise CDPError("chromium did not open its debugging port in time")

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        self._id += 1
        self.ws.send(json.dumps({"id": self._id, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv())
            if message.get("id") == self._id:
                if "error" in message:
                    raise CDPError(f"{method}: {message['error']}")
                result: dict[str, Any] = message.get("result", {})
                return result
            self.events.append(message)

    def wait_for(self, method: str) -> dict[str, Any]:
        """The first event named `method`, already received or next to come."""
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            for event in self.events:
                if event.get("method") == method:
                    return event
            self.events.append(json.loads(self.ws.recv()))
        raise CDPError(f"no {method} within {self.timeout:g}s")

    def evaluate(self, expression: str) -> Any:
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise CDPError(f"{expression!r} threw: {result['exceptionDetails']}")
        return result["result"].get("value")

    def errors(self) -> list[str]:
        """Uncaught exceptions, console errors and browser log errors seen so far."""
        out = []
        for e in self.events:
            params = e.get("params", {})
            if e.get("method") == "Runtime.exceptionThrown":
                out.append(f"exception: {params.get('exceptionDetails')}")
            elif e.get("method") == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                out.append(f"console.{params.get('type')}: {params.get('args')}")
            elif e.get("method") == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
                out.append(f"log: {params['entry'].get('text')}")
        return out

    def requests(self) -> list[str]:
        return [e["params"]["request"]["url"] for e in self.events if e.get("method") == "Network.requestWillBeSent"]

    def close(self) -> None:
        try:
            self.ws.close()
        finally:
            if self.proc.poll() is None:
                os.killpg(self.proc.pid, signal.SIGTERM)
                try:
                    self.proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    os.killpg(self.proc.pid, signal.SIGKILL)
                    self.proc.wait(timeout=10)
            self.log.close()

    def __enter__(self) -> Page:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()
