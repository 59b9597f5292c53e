"""Rasterise the report's SVG plots to PNG with a headless Chromium (the only renderer used: no new library).

Chromium is driven over `--remote-debugging-pipe` (the DevTools protocol on two file descriptors, no
port, no websocket): its `--screenshot` flag crops small windows, a clipped capture does not.
"""

from __future__ import annotations

import base64
import json
import os
import re
import select
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from ..sandbox.process import kill_group

# Flags for a Chromium that touches nothing outside its own fresh profile and asks the network nothing.
CHROMIUM_FLAGS = ("--headless", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--hide-scrollbars")
CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "chrome")
_SIZE = re.compile(r'<svg[^>]*\swidth="(\d+)"[^>]*\sheight="(\d+)"')


class RenderError(Exception):
    """Chromium is missing or failed to write the picture."""


def find_chromium() -> str | None:
    """$HWREPAIR_CHROMIUM, else the first Chromium on PATH."""
    named = os.environ.get("HWREPAIR_CHROMIUM")
    if named:
        return shutil.which(named) or (named if Path(named).is_file() else None)
    return next((found for name in CANDIDATES if (found := shutil.which(name))), None)


def chromium_argv(binary: str, profile: Path) -> list[str]:
    """The command line prefix: the fixed flags, a fresh profile, and no sandbox only where root requires it."""
    root = ["--no-sandbox"] if os.geteuid() == 0 else []
    return [binary, *CHROMIUM_FLAGS, *root, f"--user-data-dir={profile}"]


def svg_size(svg: str) -> tuple[int, int]:
    m = _SIZE.search(svg)
    if not m:
        raise RenderError("the SVG has no width and height")
    return int(m.group(1)), int(m.group(2))


class _Pipe:
    """DevTools protocol messages over Chromium's fds 3 (commands in) and 4 (replies out), NUL-terminated."""

    def __init__(self, argv: list[str], deadline: float) -> None:
        self.deadline = deadline
        cmd_r, self.cmd_w = os.pipe()
        self.out_r, out_w = os.pipe()

        def wire() -> None:  # in the child: the protocol's fixed descriptors
            os.dup2(cmd_r, 3)
            os.dup2(out_w, 4)

        # 3 and 4 are kept open too: the child closes every descriptor not listed after `wire` has run.
        self.proc = subprocess.Popen([*argv, "--remote-debugging-pipe", "about:blank"], stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                     pass_fds=(3, 4, cmd_r, out_w), preexec_fn=wire, start_new_session=True)
        os.close(cmd_r)
        os.close(out_w)
        self.buffer, self.next_id = b"", 0

    def call(self, method: str, session: str | None = None, **params: Any) -> dict[str, Any]:
        self.next_id += 1
        message: dict[str, Any] = {"id": self.next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        os.write(self.cmd_w, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._read()
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RenderError(f"chromium: {method}: {reply['error'].get('message')}")
                result: dict[str, Any] = reply.get("result", {})
                return result

    def wait_event(self, method: str) -> None:
        while self._read().get("method") != method:
            pass

    def _read(self) -> dict[str, Any]:
        while b"\0" not in self.buffer:
            left = self.deadline - time.monotonic()
            if left <= 0 or not select.select([self.out_r], [], [], left)[0]:
                raise RenderError("chromium did not answer in time")
            chunk = os.read(self.out_r, 1 << 20)
            if not chunk:
                raise RenderError("chromium closed its pipe")
            self.buffer += chunk
        raw, self.buffer = self.buffer.split(b"\0", 1)
        message: dict[str, Any] = json.loads(raw)
        return message

    def close(self) -> None:
        for fd in (self.cmd_w, self.out_r):
            os.close(fd)
        if self.proc.poll() is None:
            kill_group(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                kill_group(self.proc.pid)
                self.proc.wait()


def svg_to_png(svg_file: Path, png_file: Path, *, scale: int = 2, timeout: float = 60.0) -> None:
    """Capture one SVG file at exactly its own size (times `scale`) into `png_file`."""
    binary = find_chromium()
    if binary is None:
        raise RenderError("needs Chromium: install it (apt-get install chromium) or set HWREPAIR_CHROMIUM")
    width, height = svg_size(svg_file.read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory(prefix="hwrepair-chromium-") as profile:
        pipe = _Pipe(chromium_argv(binary, Path(profile)), time.monotonic() + timeout)
        try:
            target = pipe.call("Target.createTarget", url="about:blank")["targetId"]
            session = pipe.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
            pipe.call("Page.enable", session)
            pipe.call("Emulation.setDeviceMetricsOverride", session, width=width, height=height,
                      deviceScaleFactor=scale, mobile=False)
            pipe.call("Page.navigate", session, url=svg_file.resolve().as_uri())
            pipe.wait_event("Page.loadEventFired")
            shot = pipe.call("Page.captureScreenshot", session, format="png", captureBeyondViewport=True,
                             clip={"x": 0, "y": 0, "width": width, "height": height, "scale": 1})
        finally:
            pipe.close()
    png_file.write_bytes(base64.b64decode(shot["data"]))


__all__ = ["CHROMIUM_FLAGS", "RenderError", "chromium_argv", "find_chromium", "svg_size", "svg_to_png"]
