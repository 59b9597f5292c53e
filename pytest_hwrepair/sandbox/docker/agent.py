"""The step agent: PID 1 of every hwrepair container; runs one command per request under limits.

A bootstrap reads this file's source from stdin, so the agent always matches the host's package. It runs on
the image's python3-minimal: only standard library modules that package ships.

Records over the attached stdin and stdout: one kind byte, a four-byte big-endian payload length, the payload.
The host sends `S` (a step: the metadata's length, the metadata, a tar of the workspace); the agent answers
`O` (stdout kept), `E` (stderr kept), `A` (a tar of the files the step created or changed), `D` (deleted
paths), `K` (files too large to copy back) and `R` (the result), or `X` (the agent itself failed). Metadata
is `key=value` pairs separated by NUL bytes. End of input means the host is gone: the agent kills every
process of the sandbox user and exits, so the container stops with its owner.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import stat
import struct
import subprocess
import sys
import time
import traceback
from typing import Any

PROTOCOL = "1"
HEADER = struct.Struct(">cI")
SIZE = struct.Struct(">I")
WORK = "/sandbox/ws"
SCRATCH = ("/tmp", "/dev/shm")
ENV = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LC_ALL": "C", "LANG": "C", "TZ": "UTC", "HOME": WORK,
       "TMPDIR": "/tmp", "HWREPAIR_WORKSPACE": WORK}
CHUNK = 1 << 16
STEP_UID = 10001
MAX_DEPTH = 24
ENV_SEPARATOR = "\x1e"  # between the NAME=VALUE pairs a step adds to ENV (cmd: agents)


def as_step_user() -> dict[str, Any]:
    """Subprocess options that run a step (and its workspace chores) as the sandbox user: the agent runs as root
    with four capabilities, so a step, which has none, cannot open the agent's /proc entries (its channel, its
    memory)."""
    return {"user": STEP_UID, "group": STEP_UID, "extra_groups": []} if os.geteuid() == 0 else {}


Snapshot = dict[str, tuple[int, int, int, int]]


def encode_meta(meta: dict[str, str]) -> bytes:
    return b"\0".join(f"{key}={value}".encode() for key, value in meta.items())


def decode_meta(data: bytes) -> dict[str, str]:
    return dict(item.decode("utf-8", "replace").partition("=")[::2] for item in data.split(b"\0") if item)


def take_record(buffer: bytearray) -> tuple[bytes, bytes] | None:
    """The first whole record (kind, payload) of `buffer`, taken out of it; None until one is whole."""
    if len(buffer) >= HEADER.size:
        kind, size = HEADER.unpack_from(buffer)
        end = HEADER.size + size
        if len(buffer) >= end:
            payload = bytes(buffer[HEADER.size:end])
            del buffer[:end]
            return kind, payload
    return None


class HostGone(Exception):
    """Standard input ended: the host process that owns this container has exited."""


class Channel:
    """Buffered records from standard input; records to standard output."""

    def __init__(self) -> None:
        self.buffer = bytearray()

    def fill(self) -> None:
        chunk = os.read(0, CHUNK)
        if not chunk:
            raise HostGone
        self.buffer += chunk

    def receive(self) -> tuple[bytes, bytes]:
        while (record := take_record(self.buffer)) is None:
            self.fill()
        return record

    def send(self, kind: bytes, payload: bytes = b"") -> None:
        data = memoryview(HEADER.pack(kind, len(payload)) + payload)
        while data:
            data = data[os.write(1, data):]


class Capture:
    """One output pipe of the step: keeps the first `cap` bytes, counts the rest."""

    def __init__(self, fd: int, cap: int) -> None:
        self.fd, self.cap = fd, cap
        self.kept = bytearray()
        self.dropped = 0
        self.open = True

    def read(self) -> bool:
        chunk = os.read(self.fd, CHUNK)
        if not chunk:
            self.open = False
            os.close(self.fd)
            return False
        room = self.cap - len(self.kept)
        if room > 0:
            self.kept += chunk[:room]
        self.dropped += max(0, len(chunk) - max(room, 0))
        return True

    def finish(self) -> None:
        """Read to the end (every writer is dead by now)."""
        while self.open and self.read():
            pass


def kill_everything() -> None:
    """SIGKILL every process of the sandbox user but this one (PID 1 is exempt from kill -1)."""
    for _ in range(3):
        try:
            os.kill(-1, signal.SIGKILL)
        except ProcessLookupError:
            break
        reap(0.2)


def reap(grace: float) -> None:
    """Collect orphans re-parented to PID 1, so zombies never count against the pids limit."""
    deadline = time.monotonic() + grace
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            if time.monotonic() > deadline:
                return
            time.sleep(0.001)


def aslr_wrapper() -> list[str]:
    """`setarch -R` when the seccomp profile lets it turn address-space randomisation off."""
    argv = ["setarch", os.uname().machine, "-R"]
    with contextlib.suppress(OSError):
        if subprocess.run([*argv, "true"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0:
            return argv
    return []


def reset(keep: tuple[str, ...] = ()) -> None:
    """A fresh, empty work directory and empty scratch directories; `keep`: the read-only mounts of the
    container (an agent's files may live under /tmp on the host)."""
    scratch = [os.path.join(d, n) for d in SCRATCH if os.path.isdir(d) for n in os.listdir(d)]
    doomed = [WORK] + [p for p in scratch if not any(m == p or m.startswith(p + "/") for m in keep)]
    user = as_step_user()
    if subprocess.run(["rm", "-rf", "--", *doomed], stderr=subprocess.DEVNULL, **user).returncode != 0:
        # A step may have taken its own permissions away; give them back and try again.
        subprocess.run(["chmod", "-R", "u+rwx", "--", *doomed], stderr=subprocess.DEVNULL, **user)
        _must(["rm", "-rf", "--", *doomed], "empty the work directory", **user)
    _must(["mkdir", WORK], "make the work directory", **user)


def _must(argv: list[str], what: str, **options: Any) -> bytes:
    """The output of a chore that has to work; RuntimeError with its stderr when it did not."""
    done = subprocess.run(argv, capture_output=True, **options)
    if done.returncode != 0:
        raise RuntimeError(f"cannot {what}: " + done.stderr.decode("utf-8", "replace"))
    return done.stdout  # type: ignore[no-any-return]


def unpack(archive: bytes) -> None:
    _must(["tar", "-x", "-f", "-", "-C", WORK], "unpack the workspace", input=archive, **as_step_user())


def snapshot() -> Snapshot:
    """Kind (0 dir, 1 file, 2 other), size, mtime and mode of everything in the work directory, without
    recursion and at most MAX_DEPTH levels deep: a deeper tree a step leaves stays behind (kind 2)."""
    seen: Snapshot = {}
    stack = [("", 0)]
    while stack:
        rel, depth = stack.pop()
        try:
            entries = sorted(os.listdir(os.path.join(WORK, rel)))
        except OSError:
            continue
        for name in entries:
            path = os.path.join(rel, name) if rel else name
            try:
                st = os.lstat(os.path.join(WORK, path))
            except OSError:
                continue
            kind = 0 if stat.S_ISDIR(st.st_mode) else 1 if stat.S_ISREG(st.st_mode) else 2
            if kind == 0 and depth + 1 >= MAX_DEPTH:
                kind = 2
            seen[path] = (kind, st.st_size, st.st_mtime_ns, st.st_mode)
            if kind == 0:
                stack.append((path, depth + 1))
    return seen


def changes(before: Snapshot, after: Snapshot, limit: int) -> tuple[list[str], list[str], list[str]]:
    """What to copy back (new or changed dirs and files), what was deleted, and what is too large."""
    copy, skipped = [], []
    for path, entry in sorted(after.items()):
        if before.get(path) == entry:
            continue
        kind, size = entry[0], entry[1]
        if kind == 0 or (kind == 1 and size <= limit):
            copy.append(path)
        else:
            skipped.append(f"{size}\t{path}" if kind == 1 else f"-1\t{path}")
    deleted = sorted(p for p in before if p not in after)
    return copy, deleted, skipped


def pack(paths: list[str]) -> bytes:
    if not paths:
        return b""
    listing = b"\0".join(p.encode() for p in paths) + b"\0"
    return _must(["tar", "-c", "-f", "-", "--no-recursion", "-C", WORK, "--null", "-T", "-"], "pack the workspace",
                 input=listing)


def _child() -> None:
    """Between fork and exec: the step, not the agent, is what the OOM killer should pick."""
    with contextlib.suppress(OSError), open("/proc/self/oom_score_adj", "wb", buffering=0) as fh:
        fh.write(b"1000")


def execute(meta: dict[str, str], channel: Channel, aslr: list[str]) -> tuple[dict[str, str], Capture, Capture]:
    timeout = float(meta["timeout"])
    limits = [f"--cpu={meta['cpu']}:{int(meta['cpu']) + 1}", f"--fsize={meta['fsize']}", "--core=0",
              f"--as={meta['as'] or 'unlimited'}"]
    argv = ["prlimit", *limits, "--", *aslr, "/bin/sh", "-c", meta["argv"]]
    start = time.monotonic()
    extra = dict(pair.partition("=")[::2] for pair in meta.get("env", "").split(ENV_SEPARATOR) if pair)
    proc = subprocess.Popen(argv, cwd=WORK, env={**ENV, **extra}, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True, preexec_fn=_child, **as_step_user())
    assert proc.stdout is not None and proc.stderr is not None
    cap = int(meta["output"])
    out, err = Capture(os.dup(proc.stdout.fileno()), cap), Capture(os.dup(proc.stderr.fileno()), cap)
    proc.stdout.close()
    proc.stderr.close()
    timed_out = _watch(proc, out, err, channel, start + timeout)
    duration = time.monotonic() - start
    if timed_out:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
    kill_everything()
    proc.wait()
    out.finish()
    err.finish()
    reap(0.2)
    rc = "" if timed_out else str(proc.returncode)
    return {"rc": rc, "timed_out": "1" if timed_out else "0", "duration": f"{duration:.6f}"}, out, err


def _watch(proc: subprocess.Popen[bytes], out: Capture, err: Capture, channel: Channel, deadline: float) -> bool:
    """Drain the pipes until the step's own process exits; True when the deadline came first."""
    sel = selectors.DefaultSelector()
    for capture in (out, err):
        sel.register(capture.fd, selectors.EVENT_READ, capture)
    sel.register(0, selectors.EVENT_READ, None)
    try:
        exited: int | None = os.pidfd_open(proc.pid)
    except (AttributeError, OSError):
        exited = None
    if exited is not None:
        sel.register(exited, selectors.EVENT_READ, "exit")
    try:
        while proc.poll() is None:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return True
            for key, _ in sel.select(remaining if exited is not None else min(remaining, 0.05)):
                if key.data is None:
                    channel.fill()  # raises HostGone at end of input
                elif isinstance(key.data, Capture) and not key.data.read():
                    sel.unregister(key.fd)
        return False
    finally:
        sel.close()
        if exited is not None:
            os.close(exited)


def step(payload: bytes, channel: Channel, aslr: list[str]) -> None:
    (size,) = SIZE.unpack_from(payload)
    meta = decode_meta(payload[SIZE.size:SIZE.size + size])
    reset(tuple(m for m in meta.get("mounts", "").split(ENV_SEPARATOR) if m))
    unpack(payload[SIZE.size + size:])
    before = snapshot()
    result, out, err = execute(meta, channel, aslr)
    copy, deleted, skipped = changes(before, snapshot(), int(meta["copy_limit"]))
    archive = pack(copy)
    channel.send(b"O", bytes(out.kept))
    channel.send(b"E", bytes(err.kept))
    channel.send(b"A", archive)
    channel.send(b"D", b"\0".join(p.encode() for p in deleted))
    channel.send(b"K", b"\0".join(p.encode() for p in skipped))
    channel.send(b"R", encode_meta({**result, "dropped_out": str(out.dropped), "dropped_err": str(err.dropped)}))


def serve(channel: Channel) -> None:
    aslr = aslr_wrapper()
    channel.send(b"H", encode_meta({"protocol": PROTOCOL, "aslr": "off" if aslr else "on",
                                    "python": sys.version.split()[0]}))
    while True:
        kind, payload = channel.receive()
        if kind != b"S":
            channel.send(b"X", f"unknown request {kind!r}".encode())
            continue
        try:
            step(payload, channel, aslr)
        except HostGone:
            raise
        except Exception:
            kill_everything()
            channel.send(b"X", traceback.format_exc().encode())


def main() -> int:
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    with contextlib.suppress(HostGone):
        serve(Channel())
    kill_everything()
    return 0


if __name__ == "__main__":
    sys.exit(main())
