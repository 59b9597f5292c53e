"""The wire between the docker sandbox and a container's agent: framing, workspace transfer, one container."""

from __future__ import annotations

import contextlib
import functools
import io
import os
import struct
import tarfile
import time
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from ..local.transfer import remove, write_member
from . import agent as docker_agent
from .agent import HEADER as RECORD
from .agent import SIZE, decode_meta, encode_meta, take_record
from .engine import DockerSandboxError

# The container's user is root with four capabilities (see docker_agent.as_step_user): the agent
# runs every step as 10001, which has none and cannot reach the agent's /proc entries.
USER = "0:0"
AGENT_CAPS = ["SETUID", "SETGID", "KILL", "DAC_READ_SEARCH"]
# PID 1 of every container: reads the agent's source (a length line, then the code) from stdin and runs it.
BOOTSTRAP = """import os, sys
def take(n):
    b = b''
    while len(b) < n:
        c = os.read(0, n - len(b))
        if not c:
            sys.exit(0)
        b += c
    return b
h = b''
while not h.endswith(b'\\n'):
    h += take(1)
exec(compile(take(int(h)), 'hwrepair-agent', 'exec'))
"""
AGENT = ["python3", "-I", "-S", "-c", BOOTSTRAP]
FRAME = struct.Struct(">BxxxI")
ENV = {"LC_ALL": "C", "LANG": "C", "TZ": "UTC", "HOME": "/sandbox/ws", "TMPDIR": "/tmp"}


class _Lost(Exception):
    """The attached stream ended: the container is gone."""


class _Late(Exception):
    """A host-side deadline passed."""




def _inside(root: Path, name: str) -> Path:
    rel = PurePosixPath(name)
    parts = [p for p in rel.parts if p not in ("", ".")]
    if rel.is_absolute() or ".." in parts or not parts:
        raise DockerSandboxError(f"the container returned an unsafe path {name!r}")
    path = root.joinpath(*parts)
    if not os.path.realpath(path.parent).startswith(os.path.realpath(root)):
        raise DockerSandboxError(f"the container returned a path outside the workspace {name!r}")
    return path


def apply_changes(root: Path, archive: bytes, deleted: list[str]) -> None:
    """Mirror the step's effect on the work directory into the host workspace."""
    for name in deleted:
        path = _inside(root, name)
        if path.exists() or path.is_symlink():
            remove(path)
    if not archive:
        return
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        for member in tar:
            path = _inside(root, member.name)
            if member.isdir():
                if path.is_symlink() or (path.exists() and not path.is_dir()):
                    remove(path)
                path.mkdir(parents=True, exist_ok=True)
                path.chmod(member.mode & 0o777 | 0o700)
            elif member.isfile():
                if path.is_symlink() or path.is_dir():
                    remove(path)
                path.parent.mkdir(parents=True, exist_ok=True)
                write_member(tar, member, path, 0o777)




@dataclass(frozen=True, slots=True)
class Spec:
    """What fixes a container at creation: a step runs in a container whose spec matches its limits."""

    image: str
    toolchain: str
    memory: int
    processes: int
    network: bool
    gpu: bool
    cpus: float
    file_size: int
    cuda_home: str | None = None
    workdir: str | None = None  # container-per-sample mode: the sample's workspace
    mounts: tuple[str, ...] = ()  # host paths shown read-only at their own path (cmd: agents)


@dataclass(frozen=True, slots=True)
class Reply:
    """The agent's answer to one step."""

    stdout: bytes
    stderr: bytes
    archive: bytes
    deleted: list[str]
    skipped: list[str]
    result: dict[str, str]


class Link:
    """The attached stdin/stdout of a container: agent records out, the engine's stream frames in."""

    def __init__(self, sock: Any) -> None:
        self.sock = sock
        self.raw = getattr(sock, "_sock", sock)
        self.frames = bytearray()
        self.data = bytearray()
        self.diagnostics = bytearray()

    def send(self, kind: bytes, payload: bytes, deadline: float) -> None:
        self.send_raw(RECORD.pack(kind, len(payload)) + payload, deadline)

    def send_raw(self, data: bytes, deadline: float) -> None:
        self.raw.settimeout(_left(deadline))
        try:
            self.raw.sendall(data)
        except TimeoutError:
            raise _Late from None
        except OSError as exc:
            raise _Lost(str(exc)) from None

    def receive(self, deadline: float) -> tuple[bytes, bytes]:
        while (record := take_record(self.data)) is None:
            self._fill(deadline)
        return record

    def _fill(self, deadline: float) -> None:
        self.raw.settimeout(_left(deadline))
        try:
            chunk = self.raw.recv(1 << 20)
        except TimeoutError:
            raise _Late from None
        except OSError as exc:
            raise _Lost(str(exc)) from None
        if not chunk:
            raise _Lost("end of stream")
        self.frames += chunk
        while len(self.frames) >= FRAME.size:
            stream, size = FRAME.unpack_from(self.frames)
            if len(self.frames) < FRAME.size + size:
                break
            body = self.frames[FRAME.size:FRAME.size + size]
            (self.data if stream == 1 else self.diagnostics).extend(body)
            del self.frames[:FRAME.size + size]

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.raw.close()
        with contextlib.suppress(Exception):
            self.sock.close()


def _left(deadline: float) -> float:
    left = deadline - time.monotonic()
    if left <= 0:
        raise _Late
    return left


class Container:
    """One running container with its agent; created by `DockerSandbox`, used by one step at a time."""

    def __init__(self, api: Any, spec: Spec, host_config: dict[str, Any], labels: dict[str, str], name: str,
                 timeout: float) -> None:
        self.api, self.spec, self.name = api, spec, name
        self.id: str | None = None
        self.link: Link | None = None
        self.steps = 0
        try:
            # stdin_open without detach also sets StdinOnce: the agent sees end of input when this process ends.
            created = api.create_container(spec.image, AGENT, user=USER, stdin_open=True,
                                           tty=False, labels=labels, name=name, environment=ENV,
                                           working_dir="/sandbox", host_config=host_config)
            self.id = created["Id"]
            self.link = Link(api.attach_socket(self.id, params={"stdin": 1, "stdout": 1, "stderr": 1,
                                                                "stream": 1}))
            api.start(self.id)
            deadline = time.monotonic() + timeout
            code = _agent_source()
            self.link.send_raw(b"%d\n" % len(code) + code, deadline)
            self._expect(b"H", deadline)  # the agent's hello: it runs
        except BaseException:
            self.close()
            raise

    def step(self, meta: dict[str, str], archive: bytes, deadline: float) -> Reply:
        assert self.link is not None
        self.steps += 1
        encoded = encode_meta(meta)
        self.link.send(b"S", SIZE.pack(len(encoded)) + encoded + archive, deadline)
        parts = {kind: self._expect(kind, deadline) for kind in (b"O", b"E", b"A", b"D", b"K", b"R")}
        split = [p.decode("utf-8", "replace") for p in parts[b"D"].split(b"\0") if p]
        skipped = [p.decode("utf-8", "replace") for p in parts[b"K"].split(b"\0") if p]
        return Reply(parts[b"O"], parts[b"E"], parts[b"A"], split, skipped, decode_meta(parts[b"R"]))

    def _expect(self, kind: bytes, deadline: float) -> bytes:
        assert self.link is not None
        got, payload = self.link.receive(deadline)
        if got == b"X":
            raise DockerSandboxError(f"the container's agent failed: {payload.decode('utf-8', 'replace')[-2000:]}")
        if got != kind:
            raise DockerSandboxError(f"the container's agent answered {got!r} where {kind!r} was due")
        return payload

    def diagnostics(self) -> str:
        return self.link.diagnostics.decode("utf-8", "replace")[-2000:] if self.link else ""

    def close(self) -> None:
        """End the agent's input (it exits, the engine removes the container), then make sure."""
        self.hang_up()
        self.remove()

    def hang_up(self) -> None:
        """Close the attached stream: the agent kills its step and exits within milliseconds."""
        if self.link is not None:
            self.link.close()
            self.link = None

    def remove(self) -> None:
        if self.id is not None:
            with contextlib.suppress(Exception):  # auto-removed meanwhile, or the engine is away
                self.api.remove_container(self.id, force=True)
            self.id = None


@functools.cache
def _agent_source() -> bytes:
    return Path(docker_agent.__file__).read_bytes()
