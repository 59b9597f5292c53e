"""The docker sandbox: the local sandbox's contract (DESIGN §7) in containers of pinned toolchain images.

Each container runs the step agent (`agent.py`, sent at start) as PID 1 with its stdin attached to this
process: a step sends the workspace as a tar, the agent runs the command in a fresh work directory and answers
with the output and the files the step created or changed. Containers have no network, a read-only root, a
non-root step user, no capabilities, no-new-privileges, a seccomp profile and memory / pids / CPU limits.

No leaks: however this process ends, the agent sees end of input, kills everything and exits, and the engine
removes the container (`auto_remove`); leftovers of dead owners (a label: host, pid, start time) are removed
at the next start and by `hwrepair images clean`.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import io
import itertools
import os
import secrets
import struct
import tarfile
import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath
from typing import Any

from ..base import Execution, Limits
from ..local.transfer import pack, remove, write_member
from ..process import signal_of
from ..slots import Slots
from ..untrusted import with_marker
from . import agent as docker_agent
from . import images
from .agent import ENV_SEPARATOR, SIZE, decode_meta, encode_meta, take_record
from .agent import HEADER as RECORD
from .engine import DockerSandboxError, connect, container_labels, one_line, remove_orphans, seccomp_profile

# The agent runs as root with four capabilities, every step as 10001 with none (docker_agent.as_step_user).
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
MEMORY_HEADROOM = 512 << 20  # the tmpfs work directories and the agent live in the container's memory too
SCRATCH_SIZE = 512 << 20
MODES = ("worker", "sample")


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
        self._io(deadline, lambda: self.raw.sendall(data))

    def receive(self, deadline: float) -> tuple[bytes, bytes]:
        while (record := take_record(self.data)) is None:
            self._fill(deadline)
        return record

    def _fill(self, deadline: float) -> None:
        chunk = self._io(deadline, lambda: self.raw.recv(1 << 20))
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

    def _io(self, deadline: float, call: Callable[[], Any]) -> Any:
        """`call` on the socket before `deadline`: a timeout is `_Late`, any other failure `_Lost`."""
        left = deadline - time.monotonic()
        if left <= 0:
            raise _Late
        self.raw.settimeout(left)
        try:
            return call()
        except TimeoutError:
            raise _Late from None
        except OSError as exc:
            raise _Lost(str(exc)) from None

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.raw.close()
        with contextlib.suppress(Exception):
            self.sock.close()


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
        paths = {k: [p.decode("utf-8", "replace") for p in parts[k].split(b"\0") if p] for k in (b"D", b"K")}
        return Reply(parts[b"O"], parts[b"E"], parts[b"A"], paths[b"D"], paths[b"K"], decode_meta(parts[b"R"]))

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


_LIVE: weakref.WeakSet[DockerSandbox] = weakref.WeakSet()


@atexit.register
def _close_all() -> None:
    for sandbox in list(_LIVE):
        sandbox.close()


class DockerSandbox:
    """Runs each step in a container of the toolchain's pinned image (DESIGN §7)."""

    name = "docker"

    def __init__(self, *, run: str = "", slots: Slots | None = None, mode: str = "worker", cpus: float = 1.0,
                 api_timeout: float = 30.0, cuda_home: str | None = None, client: Any = None) -> None:
        if mode not in MODES:
            raise ValueError(f"docker sandbox mode {mode!r} is not one of {', '.join(MODES)}")
        self.run_label = run or time.strftime("%Y%m%d-%H%M%S")
        self.slots, self.mode, self.cpus, self.api_timeout, self.cuda_home = slots, mode, cpus, api_timeout, cuda_home
        self.client = client or connect(api_timeout)
        self.api = self.client.api
        try:
            info = self.api.info()
            remove_orphans(self.api)
        except Exception as exc:
            raise DockerSandboxError(f"the Docker engine failed: {one_line(exc)}") from None
        if cpus < 0 or cpus > int(info.get("NCPU") or cpus):
            raise DockerSandboxError(f"--hwrepair-docker-cpus: {cpus:g} is not between 0 (no limit) and the "
                                     f"engine's {info.get('NCPU')} CPUs")
        if api_timeout <= 0:
            raise DockerSandboxError(f"--hwrepair-docker-timeout: must be more than 0, got {api_timeout:g}")
        self.gpus = "nvidia" in (info.get("Runtimes") or {}) or (_local_engine() and Path("/dev/nvidiactl").exists())
        self.seccomp = seccomp_profile(str(info.get("Architecture", "")))
        self.idle: dict[Spec, list[Container]] = {}
        self.lock = threading.Lock()
        self.counter = itertools.count(1)
        self.known_images: set[str] = set()
        _LIVE.add(self)

    def run(self, workdir: Path, argv: str, *, timeout: float, limits: Limits) -> Execution:
        with self.slots.acquire() if self.slots is not None else contextlib.nullcontext():
            return self._run(workdir.resolve(), argv, timeout, limits)

    def close(self) -> None:
        with self.lock:
            containers = [c for pool in self.idle.values() for c in pool]
            self.idle.clear()
        for container in containers:
            container.hang_up()
        for container in containers:
            container.remove()

    def _run(self, workdir: Path, argv: str, timeout: float, limits: Limits) -> Execution:
        spec = self.spec_for(limits, workdir)
        archive = pack(workdir, links=True)
        meta = {"argv": argv, "timeout": f"{timeout:.3f}", "cpu": str(limits.cpu_seconds or int(timeout) + 2),
                "fsize": str(limits.file_size), "as": "" if limits.gpu or not limits.memory else str(limits.memory),
                "output": str(limits.output), "copy_limit": str(limits.file_size),
                "env": ENV_SEPARATOR.join(f"{k}={v}" for k, v in limits.env),
                "mounts": ENV_SEPARATOR.join(limits.mounts)}
        deadline = time.monotonic() + timeout + self.api_timeout
        reply = self._step(spec, meta, archive, deadline, timeout)
        # What stays in the container (links, FIFOs, files over the limit) no longer exists on the host
        # either: the host workspace holds the step's result, not what the step replaced.
        left = [item.partition("\t")[2] for item in reply.skipped]
        apply_changes(workdir, reply.archive, reply.deleted + [p for p in left if p])
        return _execution(argv, reply)

    def _step(self, spec: Spec, meta: dict[str, str], archive: bytes, deadline: float, timeout: float) -> Reply:
        for attempt in (1, 2):
            container = self._take(spec)
            try:
                reply = container.step(meta, archive, deadline)
            except _Late:
                self._discard(container)
                raise DockerSandboxError(f"the Docker engine did not answer within {timeout + self.api_timeout:.0f}s "
                                         f"(step timeout {timeout:.0f}s + --hwrepair-docker-timeout)") from None
            except _Lost as exc:
                detail = container.diagnostics()
                self._discard(container)
                # A warm container may have gone while idle (engine restart, pruning): once more in a new one.
                # The host workspace changes only with a reply, so running the step again is safe.
                if attempt == 1 and container.steps > 1:
                    continue
                raise DockerSandboxError(f"container {container.name} went away during a step ({exc})"
                                         + (f": {detail}" if detail else "")) from None
            except BaseException:
                self._discard(container)
                raise
            with self.lock:
                self.idle.setdefault(container.spec, []).append(container)
            return reply
        raise AssertionError("unreachable")

    def spec_for(self, limits: Limits, workdir: Path) -> Spec:
        if limits.mounts and not _local_engine():
            raise DockerSandboxError("read-only mounts (--hwrepair-agent-mount) need a local Docker engine: "
                                     f"DOCKER_HOST is {os.environ.get('DOCKER_HOST')}")
        toolchain = limits.toolchain if limits.toolchain in images.TOOLCHAINS else "hls"
        return Spec(images.image_tag(toolchain), toolchain, limits.memory, limits.processes, limits.network,
                    limits.gpu and self.gpus, self.cpus, limits.file_size,
                    self.cuda_home if toolchain in images.CUDA_HOME_TOOLCHAINS else None,
                    str(workdir) if self.mode == "sample" else None,
                    limits.mounts)

    def _take(self, spec: Spec) -> Container:
        retired: list[Container] = []
        with self.lock:
            pool = self.idle.get(spec)
            if pool:
                return pool.pop()
            if spec.workdir is not None:  # a new sample: the previous sample's container goes
                for other in [s for s in self.idle if replace(s, workdir=None) == replace(spec, workdir=None)]:
                    retired += self.idle.pop(other)
        for container in retired:
            self._discard(container)
        return self._start(spec)

    def _discard(self, container: Container) -> None:
        container.hang_up()  # at once, even on the way out of an interrupted step
        threading.Thread(target=container.remove, daemon=True).start()

    def _start(self, spec: Spec) -> Container:
        self._check_image(spec.image)
        name = f"hwrepair-{spec.toolchain}-{os.getpid()}-{next(self.counter)}-{secrets.token_hex(3)}"
        labels = container_labels(self.run_label, spec.toolchain)
        try:
            return Container(self.api, spec, self.host_config(spec), labels, name, self.api_timeout)
        except _Late:
            raise DockerSandboxError(f"container {name} did not start within {self.api_timeout:.0f}s "
                                     "(--hwrepair-docker-timeout)") from None
        except _Lost as exc:
            raise DockerSandboxError(f"container {name} stopped while starting ({exc})") from None
        except DockerSandboxError:
            raise
        except Exception as exc:
            raise DockerSandboxError(f"container {name} did not start: {one_line(exc)}") from None

    def _check_image(self, image: str) -> None:
        if image in self.known_images:
            return
        try:
            present = images.exists(self.api, image)
        except Exception as exc:
            raise DockerSandboxError(f"the Docker engine failed: {one_line(exc)}") from None
        if not present:
            name = image.split("/")[-1].split(":")[0]
            raise DockerSandboxError(f"image {image} is not built: run `hwrepair images build {name}`")
        self.known_images.add(image)

    def host_config(self, spec: Spec) -> dict[str, Any]:
        import docker

        memory = spec.memory + MEMORY_HEADROOM
        work = max(64 << 20, 4 * spec.file_size)  # room for a few files at the file-size limit, no more
        kwargs: dict[str, Any] = {
            "network_mode": "bridge" if spec.network else "none",
            "read_only": True,
            "tmpfs": {"/sandbox": f"rw,exec,nosuid,nodev,size={work},mode=1777",
                      "/tmp": f"rw,exec,nosuid,nodev,size={SCRATCH_SIZE},mode=1777"},
            "mem_limit": memory, "memswap_limit": memory, "pids_limit": spec.processes + 16,
            "cap_drop": ["ALL"], "cap_add": AGENT_CAPS,
            "security_opt": ["no-new-privileges:true", f"seccomp={self.seccomp}"],
            "auto_remove": True, "log_config": docker.types.LogConfig(type="none"),
        }
        if spec.cpus > 0:
            kwargs["nano_cpus"] = int(spec.cpus * 1e9)
        if spec.gpu:
            kwargs["device_requests"] = [docker.types.DeviceRequest(count=-1, capabilities=[["gpu"]])]
        mounts = [docker.types.Mount(path, path, type="bind", read_only=True) for path in spec.mounts]
        if spec.cuda_home:
            mounts.append(docker.types.Mount("/usr/local/cuda", spec.cuda_home, type="bind", read_only=True))
        if mounts:
            kwargs["mounts"] = mounts
        return self.api.create_host_config(**kwargs)  # type: ignore[no-any-return]


def _local_engine() -> bool:
    host = os.environ.get("DOCKER_HOST", "")
    return not host or host.startswith("unix://")


def _execution(argv: str, reply: Reply) -> Execution:
    result = reply.result
    rc = int(result["rc"]) if result.get("rc") else None
    timed_out = result.get("timed_out") == "1"
    dropped_out, dropped_err = int(result.get("dropped_out", 0)), int(result.get("dropped_err", 0))
    stderr = with_marker(reply.stderr, dropped_err) + "".join(_skipped_note(item) for item in reply.skipped)
    return Execution(argv, None if timed_out else rc, with_marker(reply.stdout, dropped_out), stderr,
                     float(result.get("duration", 0.0)), timed_out=timed_out,
                     signal=None if timed_out else signal_of(rc), truncated=dropped_out > 0 or dropped_err > 0)


def _skipped_note(item: str) -> str:
    size, _, name = item.partition("\t")
    what = "not a regular file" if size == "-1" else f"{size} bytes, over the copy-back limit"
    return f"\n[hwrepair: {name} stays in the container: {what}]\n"


def docker_sandbox(run: str, slots: Slots | None, mode: str, cpus: float, api_timeout: float,
                   cuda_home: str | None) -> DockerSandbox:
    """The sandbox for `--hwrepair-sandbox docker`; raises DockerSandboxError when no engine answers."""
    return DockerSandbox(run=run, slots=slots, mode=mode, cpus=cpus, api_timeout=api_timeout, cuda_home=cuda_home)
