"""The docker sandbox with real containers: contract, containment, categories, deadlines."""

from __future__ import annotations

import contextlib
import os
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from pytest_hwrepair.oracles.base import step_failure
from pytest_hwrepair.sandbox.base import Limits
from pytest_hwrepair.sandbox.docker.images import exists, image_tag
from pytest_hwrepair.sandbox.docker.sandbox import DockerSandbox, DockerSandboxError, connect
from pytest_hwrepair.verdict import Category

docker = pytest.importorskip("docker")


def engine_or_skip() -> Any:
    """The engine's API client; skips when none is reachable, fails when the images are missing."""
    try:
        client = docker.from_env(timeout=10)
        client.api.ping()
    except Exception as exc:
        where = os.environ.get("DOCKER_HOST") or "the default socket"
        pytest.skip(f"no Docker engine reachable at {where}: {type(exc).__name__}")
    if not exists(client.api, image_tag("hls")):
        pytest.fail(f"the Docker engine has no {image_tag('hls')}: run `hwrepair images build` first")
    return client


@pytest.fixture(scope="module")
def sandbox() -> Iterator[DockerSandbox]:
    engine_or_skip()
    box = DockerSandbox(run=f"tests-{os.getpid()}")
    yield box
    box.close()


def write(ws: Path, name: str, text: str) -> Path:
    path = ws / name
    path.write_text(text)
    return path


def run(box: DockerSandbox, ws: Path, argv: str, timeout: float = 20, **limits: Any) -> Any:
    return box.run(ws, argv, timeout=timeout, limits=Limits(**limits))


def build(box: DockerSandbox, ws: Path, source: str) -> None:
    write(ws, "main.c", source)
    ex = run(box, ws, "gcc -O0 -std=c99 main.c -o prog")
    assert ex.returncode == 0, ex.stderr


def test_output_and_written_files_reach_the_host_workspace(sandbox: DockerSandbox, tmp_path: Path) -> None:
    build(sandbox, tmp_path, '#include <stdio.h>\nint main(void) { FILE *f = fopen("out.txt", "w");\n'
                             'fprintf(f, "42\\n"); fclose(f); puts("done"); fputs("warn\\n", stderr); return 3; }\n')
    assert os.access(tmp_path / "prog", os.X_OK)
    ex = run(sandbox, tmp_path, "./prog")
    assert (ex.returncode, ex.stdout, ex.stderr, ex.timed_out, ex.signal) == (3, "done\n", "warn\n", False, None)
    assert (tmp_path / "out.txt").read_text() == "42\n"


def test_deletions_in_the_container_reach_the_host_workspace(sandbox: DockerSandbox, tmp_path: Path) -> None:
    write(tmp_path, "old.txt", "x")
    ex = run(sandbox, tmp_path, "rm old.txt && mkdir -p d/e && echo y > d/e/f")
    assert ex.returncode == 0
    assert not (tmp_path / "old.txt").exists()
    assert (tmp_path / "d/e/f").read_text() == "y\n"


def test_each_step_starts_with_empty_scratch_and_no_survivors(sandbox: DockerSandbox, tmp_path: Path) -> None:
    first = run(sandbox, tmp_path, "echo left > /tmp/left; (sleep 300 &); echo started")
    assert first.stdout == "started\n"
    second = run(sandbox, tmp_path, "ls -A /tmp; cat /proc/[0-9]*/comm")
    assert "left" not in second.stdout
    assert "sleep" not in second.stdout


def test_a_step_past_its_timeout_is_killed_and_reported(sandbox: DockerSandbox, tmp_path: Path) -> None:
    start = time.monotonic()
    ex = run(sandbox, tmp_path, "sleep 60", timeout=1)
    assert ex.timed_out and ex.returncode is None
    assert time.monotonic() - start < 10
    assert step_failure(ex, "run").category is Category.TIMEOUT  # type: ignore[union-attr]


def test_output_is_capped_with_a_visible_marker(sandbox: DockerSandbox, tmp_path: Path) -> None:
    ex = run(sandbox, tmp_path, "yes | head -c 100000", output=1000)
    assert ex.truncated and ex.returncode == 0
    assert ex.stdout.startswith("y\ny\n")
    assert "[... output truncated: 99000 more bytes not kept ...]" in ex.stdout


def test_a_fork_bomb_is_contained_and_categorised(sandbox: DockerSandbox, tmp_path: Path) -> None:
    build(sandbox, tmp_path, "#include <unistd.h>\nint main(void) { for (;;) fork(); }\n")
    start = time.monotonic()
    ex = run(sandbox, tmp_path, "./prog", timeout=3, processes=64)
    assert time.monotonic() - start < 15
    assert step_failure(ex, "run").category in (Category.TIMEOUT, Category.RUNTIME_CRASH)  # type: ignore[union-attr]
    after = run(sandbox, tmp_path, "ls -d /proc/[0-9]* | wc -l", processes=64)
    assert after.returncode == 0 and int(after.stdout) <= 4, after.stdout


def test_a_memory_hog_is_stopped_as_a_runtime_crash(sandbox: DockerSandbox, tmp_path: Path) -> None:
    build(sandbox, tmp_path, "#include <stdlib.h>\n#include <string.h>\nint main(void) { for (;;) {\n"
                             "char *p = malloc(1 << 20); if (!p) abort(); memset(p, 1, 1 << 20); } }\n")
    ex = run(sandbox, tmp_path, "./prog", timeout=20, memory=128 << 20)
    failure = step_failure(ex, "run")
    assert failure is not None and failure.category is Category.RUNTIME_CRASH, ex
    assert ex.signal is not None
    assert run(sandbox, tmp_path, "echo alive", memory=128 << 20).stdout == "alive\n"


def test_a_disk_filler_stops_at_the_file_size_limit(sandbox: DockerSandbox, tmp_path: Path) -> None:
    ex = run(sandbox, tmp_path, "dd if=/dev/zero of=big bs=1M count=512", file_size=8 << 20)
    assert step_failure(ex, "run").category is Category.RUNTIME_CRASH  # type: ignore[union-attr]
    assert ex.signal == 25  # SIGXFSZ
    assert (tmp_path / "big").stat().st_size <= 8 << 20


def test_many_files_stop_at_the_work_directory_size(sandbox: DockerSandbox, tmp_path: Path) -> None:
    fill = "i=0; while [ $i -lt 100 ]; do head -c 4000000 /dev/zero > f$i || exit 7; i=$((i+1)); done"
    ex = run(sandbox, tmp_path, fill, file_size=8 << 20)
    assert ex.returncode == 7 and "No space left" in ex.stderr
    assert step_failure(ex, "run").category is Category.RUNTIME_CRASH  # type: ignore[union-attr]
    assert sum(p.stat().st_size for p in tmp_path.iterdir()) <= 64 << 20


def test_a_network_attempt_fails_and_is_categorised(sandbox: DockerSandbox, tmp_path: Path) -> None:
    probe = "import socket; socket.create_connection(('192.0.2.1', 80), timeout=5)"
    ex = run(sandbox, tmp_path, f'cat /proc/net/dev; python3 -c "{probe}"')
    assert "lo:" in ex.stdout and "eth0" not in ex.stdout
    assert "Network is unreachable" in ex.stderr
    assert step_failure(ex, "run").category is Category.RUNTIME_CRASH  # type: ignore[union-attr]


def test_steps_run_unprivileged_on_a_read_only_root(sandbox: DockerSandbox, tmp_path: Path) -> None:
    ex = run(sandbox, tmp_path, "id -u; grep -E '^(NoNewPrivs|CapEff)' /proc/self/status; "
                                "touch /etc/x 2>&1; unshare -U true 2>&1; echo done")
    lines = ex.stdout.splitlines()
    assert lines[0] == "10001"
    assert "CapEff:\t0000000000000000" in lines and "NoNewPrivs:\t1" in lines
    assert "Read-only file system" in ex.stdout
    assert "unshare failed: Operation not permitted" in ex.stdout


def test_address_space_randomisation_is_off(sandbox: DockerSandbox, tmp_path: Path) -> None:
    build(sandbox, tmp_path, '#include <stdio.h>\nint main(void) { int x; printf("%p\\n", (void *)&x); }\n')
    first, second = (run(sandbox, tmp_path, "./prog").stdout for _ in range(2))
    assert first == second
    assert run(sandbox, tmp_path, "cat /proc/self/personality").stdout.strip() == "00040000"


def test_the_environment_is_fixed(sandbox: DockerSandbox, tmp_path: Path) -> None:
    ex = run(sandbox, tmp_path, "env | sort")
    env = dict(line.split("=", 1) for line in ex.stdout.splitlines())
    assert env["LC_ALL"] == "C" and env["TZ"] == "UTC"
    assert not [k for k in env if "KEY" in k or "TOKEN" in k]


def test_a_warm_container_removed_while_idle_is_replaced(tmp_path: Path) -> None:
    api = engine_or_skip().api
    box = DockerSandbox(run=f"tests-replace-{os.getpid()}")
    try:
        assert run(box, tmp_path, "echo one").stdout == "one\n"
        (container,) = [c for pool in box.idle.values() for c in pool]
        api.remove_container(container.id, force=True)
        assert run(box, tmp_path, "echo two").stdout == "two\n"
        (replacement,) = [c for pool in box.idle.values() for c in pool]
        assert replacement.id != container.id
    finally:
        box.close()


def test_gpu_steps_request_the_device_only_where_the_engine_has_one(sandbox: DockerSandbox, tmp_path: Path) -> None:
    assert sandbox.spec_for(Limits(gpu=True, toolchain="cuda"), tmp_path).gpu is sandbox.gpus
    spec = replace(sandbox.spec_for(Limits(toolchain="cuda"), tmp_path), gpu=True, cuda_home="/opt/cuda-12")
    config = sandbox.host_config(spec)
    assert [r["Capabilities"] for r in config["DeviceRequests"]] == [[["gpu"]]]
    assert config["Mounts"][0]["Target"] == "/usr/local/cuda" and config["Mounts"][0]["ReadOnly"] is True
    assert "DeviceRequests" not in sandbox.host_config(replace(spec, gpu=False))


# ---------------------------------------------------------------- deadlines


def test_an_engine_that_never_answers_is_an_error_not_a_hang(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    path = Path(tempfile.mkdtemp(prefix="hw-")) / "mute.sock"
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(str(path))
    listener.listen(8)
    monkeypatch.setenv("DOCKER_HOST", f"unix://{path}")
    start = time.monotonic()
    with pytest.raises(DockerSandboxError, match="no Docker engine answers"):
        connect(timeout=1)
    assert time.monotonic() - start < 10
    listener.close()


class Proxy:
    """A proxy to the engine's unix socket, on a unix or TCP address, that can stop forwarding."""

    def __init__(self, upstream: str, tcp: bool = False) -> None:
        self.upstream = upstream
        self.frozen = threading.Event()
        self.sockets: list[socket.socket] = []
        if tcp:
            self.listener = socket.socket(socket.AF_INET)
            self.listener.bind(("127.0.0.1", 0))
            self.url = f"tcp://127.0.0.1:{self.listener.getsockname()[1]}"
        else:
            path = str(Path(tempfile.mkdtemp(prefix="hw-")) / "proxy.sock")
            self.listener = socket.socket(socket.AF_UNIX)
            self.listener.bind(path)
            self.url = f"unix://{path}"
        self.listener.listen(16)
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.socket(socket.AF_UNIX)
            server.connect(self.upstream)
            self.sockets += [client, server]
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, source: socket.socket, target: socket.socket) -> None:
        while True:
            try:
                data = source.recv(65536)
                while self.frozen.is_set():
                    time.sleep(0.05)
                if not data:
                    target.shutdown(socket.SHUT_WR)
                    return
                target.sendall(data)
            except OSError:
                return

    def cut(self) -> None:
        """Drop every connection, as when the host that made them goes away."""
        for s in self.sockets:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()

    def close(self) -> None:
        self.listener.close()
        self.cut()


def local_engine_socket() -> str:
    host = os.environ.get("DOCKER_HOST", "unix:///var/run/docker.sock")
    if not host.startswith("unix://"):
        pytest.skip("the proxy needs a local engine socket")
    return host.removeprefix("unix://")


def test_an_engine_that_wedges_mid_run_makes_the_step_an_error(tmp_path: Path) -> None:
    engine_or_skip()
    proxy = Proxy(local_engine_socket())
    client = docker.DockerClient(base_url=proxy.url, timeout=3)
    box = DockerSandbox(run=f"tests-wedge-{os.getpid()}", client=client, api_timeout=3)
    try:
        assert box.run(tmp_path, "echo ok", timeout=5, limits=Limits()).stdout == "ok\n"
        proxy.frozen.set()
        start = time.monotonic()
        with pytest.raises(DockerSandboxError, match="did not answer within"):
            box.run(tmp_path, "echo again", timeout=2, limits=Limits())
        assert time.monotonic() - start < 15
    finally:
        proxy.frozen.clear()
        box.close()
        proxy.close()


# ---------------------------------------------------------------- remote engines


def test_a_tcp_engine_runs_steps_and_stops_containers_when_the_host_goes(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    api = engine_or_skip().api
    proxy = Proxy(local_engine_socket(), tcp=True)
    monkeypatch.setenv("DOCKER_HOST", proxy.url)
    run_label = f"tests-tcp-{os.getpid()}"
    box = DockerSandbox(run=run_label)
    try:
        build(box, tmp_path, '#include <stdio.h>\nint main(void) { puts("over tcp"); return 0; }\n')
        assert run(box, tmp_path, "./prog").stdout == "over tcp\n"
        assert api.containers(filters={"label": f"org.hwrepair.run={run_label}"})
        proxy.cut()  # the engine sees every connection of this host end
        deadline = time.monotonic() + 10
        while api.containers(filters={"label": f"org.hwrepair.run={run_label}"}) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not api.containers(filters={"label": f"org.hwrepair.run={run_label}"})
    finally:
        box.close()
        proxy.close()
