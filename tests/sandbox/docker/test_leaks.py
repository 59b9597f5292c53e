"""No leaked containers: a killed pytest, leftovers of dead owners, and `images clean`."""

from __future__ import annotations

import io
import os
import signal
import socket
import subprocess
import sys
import tarfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pytest_hwrepair.sandbox.docker import images
from pytest_hwrepair.sandbox.docker.engine import LABEL_OWNER, LABEL_RUN, owner_label
from pytest_hwrepair.sandbox.docker.sandbox import DockerSandbox

docker = pytest.importorskip("docker")

SLOW_CASE = """\
schema = 1
id = "slow"
domain = "hls"
suite = "demo"
title = "a run step that outlives the test"
sources = ["slow.c"]
target = "slow.c"

[oracle]
kind = "exit-code"
build = "gcc -O0 slow.c -o prog"
run = "sleep 300; ./prog"
timeout = 400

[[bug]]
id = "MLU-01"
type = "MLU"
find = "return 0;"
replace = "return 1;"

[[bug]]
id = "MLU-02"
type = "MLU"
find = "int main"
replace = "int  main"
"""


@pytest.fixture(scope="module")
def api() -> Any:
    try:
        client = docker.from_env(timeout=10)
        client.api.ping()
    except Exception as exc:
        where = os.environ.get("DOCKER_HOST") or "the default socket"
        pytest.skip(f"no Docker engine reachable at {where}: {type(exc).__name__}")
    if not images.exists(client.api, images.image_tag("hls")):
        pytest.fail(f"the Docker engine has no {images.image_tag('hls')}: run `hwrepair images build` first")
    return client.api


def running(api: Any, run: str) -> list[dict[str, Any]]:
    return api.containers(filters={"label": f"{LABEL_RUN}={run}"})  # type: ignore[no-any-return]


def wait_for(check: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.2)
    return check()


@pytest.mark.parametrize(("workers", "kill", "within"), [
    ("0", "process", 20),
    ("2", "group", 20),
    ("2", "controller", 40),  # xdist gives busy workers 5 s, then interrupts them
])
def test_a_killed_pytest_leaves_no_container_running(api: Any, tmp_path: Path, workers: str, kill: str,
                                                      within: float) -> None:
    case = tmp_path / "cases" / "hls" / "demo" / "slow"
    case.mkdir(parents=True)
    (case / "slow.c").write_text("int main(void) { return 0; }\n")
    (case / "case.toml").write_text(SLOW_CASE)
    run_dir = tmp_path / f"run-{workers}-{kill}"
    cmd = [sys.executable, "-m", "pytest", str(tmp_path / "cases"), "-q", "-p", "no:cacheprovider", "-n", workers,
           "--fixer=reference", "--hwrepair-sandbox", "docker", "--hwrepair-run", str(run_dir),
           "--hwrepair-cache-dir", str(tmp_path / "cache"),
           "--hwrepair-no-verdict-cache"]  # every worker must judge (and so start a container) at once
    proc = subprocess.Popen(cmd, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    expected = 1 if workers == "0" else 2
    try:
        assert wait_for(lambda: len(running(api, run_dir.name)) >= expected, 90), "no container started"
        if kill == "group":
            os.killpg(proc.pid, signal.SIGKILL)
        else:
            proc.kill()
        proc.wait()
        assert wait_for(lambda: not running(api, run_dir.name), within), running(api, run_dir.name)
    finally:
        with_group_killed(proc)


def with_group_killed(proc: subprocess.Popen[bytes]) -> None:
    """Whatever the test did, leave none of its processes behind."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()


def test_a_dead_owners_container_is_removed_at_the_next_start(api: Any) -> None:
    gone_pid = subprocess.Popen(["true"])
    gone_pid.wait()
    labels = {images.LABEL_TOOL: images.TOOL, LABEL_RUN: "orphan-test",
              LABEL_OWNER: f"{socket.gethostname()}:{gone_pid.pid}:0"}
    created = api.create_container(images.image_tag("hls"), ["sleep", "300"], labels=labels,
                                   host_config=api.create_host_config(network_mode="none"))
    api.start(created["Id"])
    try:
        assert running(api, "orphan-test")
        DockerSandbox(run="orphan-sweeper").close()
        # Another process's sweep may be removing it at this moment: removal is done, or under way.
        assert wait_for(lambda: not api.containers(all=True, filters={"label": f"{LABEL_RUN}=orphan-test"}), 10)
    finally:
        try:
            api.remove_container(created["Id"], force=True)
        except docker.errors.NotFound:
            pass


def test_a_live_owners_container_survives_the_next_start(api: Any) -> None:
    labels = {images.LABEL_TOOL: images.TOOL, LABEL_RUN: "alive-test", LABEL_OWNER: owner_label()}
    created = api.create_container(images.image_tag("hls"), ["sleep", "300"], labels=labels,
                                   host_config=api.create_host_config(network_mode="none"))
    try:
        api.start(created["Id"])
        DockerSandbox(run="alive-sweeper").close()
        assert running(api, "alive-test")
    finally:
        api.remove_container(created["Id"], force=True)


def tiny_image(api: Any, ref: str, labels: dict[str, str]) -> None:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        info = tarfile.TarInfo("marker")
        info.size = 2
        tar.addfile(info, io.BytesIO(b"x\n"))
    repository, _, tag = ref.partition(":")
    changes = [f"LABEL {k}={v}" for k, v in labels.items()]
    api.import_image_from_data(buf.getvalue(), repository=repository, tag=tag, changes=changes)


def test_images_clean_removes_only_what_the_tool_made(api: Any) -> None:
    foreign = f"hwrepair-test-foreign:{os.getpid()}"
    stale = f"{images.REPOSITORY}/hls:stale{os.getpid()}"
    tiny_image(api, foreign, {"maintainer": "someone-else"})
    tiny_image(api, stale, {images.LABEL_TOOL: images.TOOL, images.LABEL_IMAGE: "hls"})
    try:
        images.clean(api, stale_only=True, log=lambda _: None)
        assert not images.exists(api, stale)
        assert images.exists(api, foreign)
        assert images.exists(api, images.image_tag("hls"))
    finally:
        for ref in (foreign, stale):
            try:
                api.remove_image(ref, force=True)
            except docker.errors.ImageNotFound:
                pass


def test_the_cli_lists_the_current_images(api: Any, capsys: pytest.CaptureFixture[str]) -> None:
    assert images.images_main(["list"]) == 0
    out = capsys.readouterr().out
    assert f"{images.image_tag('hls')}" in out
    hls_line = next(line for line in out.splitlines() if images.image_tag("hls") in line)
    assert "current" in hls_line
