"""Worker-count defaults, the slot queue, and what the controller accepts from a remote worker."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from pytest_hwrepair.results.rundir import RunDir, finished_of
from pytest_hwrepair.sandbox.slots import Slots
from pytest_hwrepair.workers import (
    ARTIFACTS,
    Receiver,
    configure_node,
    is_remote,
    pack,
    worker_run_dir,
)

from ..report_helpers import record


def test_slot_waiters_never_exceed_the_slot_count(tmp_path: Path) -> None:
    slots, held, peak, lock = Slots(tmp_path, 2), [0], [0], threading.Lock()

    def work() -> None:
        with slots.acquire():
            with lock:
                held[0] += 1
                peak[0] = max(peak[0], held[0])
            time.sleep(0.02)
            with lock:
                held[0] -= 1

    threads = [threading.Thread(target=work) for _ in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert peak[0] == 2 and held[0] == 0


def test_only_remote_gateways_get_a_scratch_run_directory(tmp_path: Path) -> None:
    run = RunDir(tmp_path / "run")
    local: dict[str, object] = {}
    configure_node(SimpleNamespace(popen=True, ssh=None), local, run, {})
    assert local == {} and not is_remote(SimpleNamespace(popen=True))
    remote: dict[str, object] = {}
    finished = finished_of([record(key="k-done")])
    configure_node(SimpleNamespace(popen=None, ssh="host"), remote, run, finished)
    assert remote["hwrepair_remote"] == "run" and "k-done" in str(remote["hwrepair_finished"])


def test_a_remote_worker_resumes_from_the_controllers_finished_records(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    finished = finished_of([record(key="k-done")])
    workerinput: dict[str, object] = {"workerid": "gw0"}
    configure_node(SimpleNamespace(popen=None, ssh="host"), workerinput, RunDir(tmp_path / "run"), finished)
    scratch = worker_run_dir(workerinput)
    assert scratch is not None and scratch.name == "run"
    assert list(RunDir(scratch).finished()) == ["k-done"]


def _sent(tmp_path: Path, files: dict[str, str]) -> tuple[list[tuple[str, object]], str]:
    rec = record(key="k1", artifact="k1")
    return [(ARTIFACTS, json.dumps({"files": files, "skipped": []}))], json.dumps([rec.to_json()])


def test_the_controller_writes_a_remote_samples_records_and_artifacts_once(tmp_path: Path) -> None:
    run = RunDir(tmp_path / "run")
    props, records = _sent(tmp_path, {"k1/verdict.json": "{}", "k1/candidate/k.c": "int x;"})
    receiver = Receiver(run)
    for _phase in ("setup", "call", "teardown"):  # every phase's report carries the item's properties
        receiver.receive("a::b", props, records)
    assert [r.key for r in run.records()] == ["k1"]
    assert (run.artifacts / "k1" / "candidate" / "k.c").read_text() == "int x;"


def test_a_remote_worker_cannot_write_outside_its_samples_artifact_folders(tmp_path: Path) -> None:
    run = RunDir(tmp_path / "run")
    run.create()
    (run.artifacts / "k1").symlink_to(tmp_path)  # a planted link must not be followed either
    props, records = _sent(tmp_path, {"../../escape.txt": "x", "/abs.txt": "x", "other-key/x": "x",
                                      "k1/through-link.txt": "x"})
    Receiver(run).receive("a::b", props, records)
    assert not (tmp_path / "escape.txt").exists() and not (tmp_path / "through-link.txt").exists()
    assert not (run.artifacts / "other-key").exists() and not Path("/abs.txt").exists()


def test_pack_reads_no_links_and_keeps_the_sample_folder_relative(tmp_path: Path) -> None:
    run = RunDir(tmp_path / "run")
    folder = run.artifact_dir("k1")
    (folder / "verdict.json").write_text("{}")
    secret = tmp_path / "secret"
    secret.write_text("key")
    (folder / "leak.txt").symlink_to(secret)
    files = json.loads(pack(run, [record(key="k1", artifact="k1")]))["files"]
    assert files == {"k1/verdict.json": "{}"}


@pytest.mark.parametrize(("args", "shown"), [(["-n", "3"], "options: defaults"),
                                             (["--hwrepair-max-concurrency", "5"], "--hwrepair-max-connections=5"),
                                             (["--hwrepair-max-connections", "4"], "--hwrepair-max-connections=4")])
def test_the_run_header_shows_the_connection_limit_set_by_either_flag(demo_pytester: pytest.Pytester,
                                                                      args: list[str], shown: str) -> None:
    result = demo_pytester.runpytest("--collect-only", "--fixer=noop", "-p", "no:randomly", *args)
    header = [line for line in result.outlines if line.startswith("hwrepair: fixers")]
    assert header and shown in header[0], result.outlines[:5]


def test_wait_exit_returns_once_the_child_ends_and_reports_a_timeout() -> None:
    import subprocess
    import sys

    from pytest_hwrepair.sandbox.process import wait_exit
    quick = subprocess.Popen([sys.executable, "-c", "raise SystemExit(3)"])
    assert wait_exit(quick, 30) and quick.returncode == 3
    slow = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        assert not wait_exit(slow, 0.2) and slow.returncode is None
    finally:
        slow.kill()
        slow.wait()


@pytest.mark.parametrize("key", ["hwrepair_max_connections", "hwrepair_max_concurrency"])
def test_the_connection_limit_is_read_from_either_ini_key(demo_pytester: pytest.Pytester, key: str) -> None:
    demo_pytester.makeini(f"[pytest]\n{key} = 3\n")
    result = demo_pytester.runpytest("--collect-only", "--fixer=noop", "-p", "no:randomly")
    header = [line for line in result.outlines if line.startswith("hwrepair: fixers")]
    assert header and "--hwrepair-max-connections=3" in header[0], result.outlines[:5]
