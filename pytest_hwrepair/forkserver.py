"""Starting `-n N` workers by forking one warm process instead of N fresh interpreters.

A fresh xdist worker spends about 0.65 CPU-seconds before its first item: the interpreter, pytest,
the plugin (143 modules), pydantic, and parsing every case file again. Sixteen of them on two cores
are five seconds of a short run. With `--hwrepair-worker-start fork` (the default for local
`popen` workers), the controller starts one fork server that imports all of that once, under
pytest's own assertion-rewriting hook as a worker would, and reads the run's case files once. Each
worker then starts as `forkserver_launch.py`, which hands its pipes to the server; the server forks
a child that becomes the worker. What a worker does from there is what xdist's own bootstrap does.

The server listens on a Unix socket in a directory only this user can enter, and forks only for a
peer of the same uid. A worker the server cannot take starts as a fresh interpreter, as without it;
a case file changed since the server read it is read again (the status of it and of every file it names is
compared, and the content of a file changed just before it was read). `--hwrepair-worker-start exec` turns
the server off.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

from .process import alive

LAUNCHER = Path(__file__).with_name("forkserver_launch.py")
PREFIX = "hwrepair-forkserver-"
# The server's first lines: pytest's rewriting hook goes in before anything of the plugin is imported, with
# every installed plugin's modules marked as a worker marks them, so what the server imports is what a
# worker would have imported (else pytest warns in each worker that a module was imported unrewritten).
BOOT = """\
import gc, os, sys
gc.disable()
import _pytest.assertion
from _pytest.config import get_config
config = get_config([])
hook = _pytest.assertion.install_importhook(config)
try:
    config._mark_plugins_for_rewrite(hook, bool(os.environ.get("PYTEST_DISABLE_PLUGIN_AUTOLOAD")))
except Exception as exc:
    print(f"hwrepair fork server: not serving: {type(exc).__name__}: {exc}", file=sys.stderr)
    raise SystemExit(0)
import pytest_hwrepair.forkserver_process as server
raise SystemExit(server.main(sys.argv[1:], hook))
"""


class ForkServer:
    """The controller's end: the server process, its socket, and the `--tx` spec that uses it."""

    # How long a worker waits for the server to take it before it starts as a fresh interpreter.
    handover_seconds = 60.0

    def __init__(self, proc: subprocess.Popen[bytes], folder: Path, control: int) -> None:
        self.proc, self.folder, self.control = proc, folder, control

    @property
    def socket_path(self) -> Path:
        return self.folder / "sock"

    @classmethod
    def start(cls, paths: list[str]) -> ForkServer | None:
        """A fork server reading the case files under `paths`; None where this platform has no fork."""
        if not (hasattr(os, "fork") and hasattr(socket, "send_fds") and hasattr(os, "pidfd_open")):
            return None
        _remove_stale()
        folder = Path(tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-"))  # mode 0700
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        control_r, control_w = os.pipe()
        try:
            listener.bind(str(folder / "sock"))
            listener.listen(256)
            log = open(folder / "log", "wb")  # noqa: SIM115 - handed to the child
            with log:
                proc = subprocess.Popen(
                    [sys.executable, "-c", BOOT, str(listener.fileno()), str(control_r), *paths],
                    stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                    pass_fds=(listener.fileno(), control_r))
        except OSError:
            os.close(control_w)
            shutil.rmtree(folder, ignore_errors=True)
            return None
        finally:
            listener.close()
            os.close(control_r)
        return cls(proc, folder, control_w)

    def spec(self) -> str | None:
        """`popen//python=...`: a popen worker started through this server; None where a path cannot be said."""
        python = shlex.join([sys.executable, "-I", "-S", str(LAUNCHER), str(self.socket_path), sys.executable,
                             f"{self.handover_seconds:g}"])
        return None if "//" in python else f"popen//python={python}"

    def close(self) -> None:
        """Stop taking workers; the server ends once its last worker has."""
        with contextlib.suppress(OSError):
            os.close(self.control)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


def _remove_stale() -> None:
    """Socket directories of runs that were killed before they could remove theirs."""
    for folder in Path(tempfile.gettempdir()).glob(f"{PREFIX}*-*"):
        owner = folder.name[len(PREFIX):].split("-")[0]
        with contextlib.suppress(OSError):
            if owner.isdigit() and folder.stat().st_uid == os.getuid() and not alive(int(owner)):
                shutil.rmtree(folder, ignore_errors=True)


def plain_local(tx: list[str] | None) -> bool:
    """Whether every worker of this `--tx` list is a plain local `popen` one (what the server stands in for)."""
    return bool(tx) and all(t == "popen" for t in tx or ())


def use_for_workers(tx: list[str] | None, server: ForkServer) -> list[str] | None:
    """The `--tx` list with every plain local worker started through the server; None to leave it alone."""
    spec = server.spec()
    if spec is None or not plain_local(tx):
        return None
    return [spec] * len(tx or ())


__all__ = ["BOOT", "LAUNCHER", "ForkServer", "plain_local", "use_for_workers"]
