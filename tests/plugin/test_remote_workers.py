"""Remote xdist workers for real: an sshd on the loopback address, two "hosts" as two ssh workers.

Each host is its own working directory holding the cases; the controller's directory holds none, so
nothing can reach the controller's run directory except what the workers send back.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_hwrepair.results.rundir import read_records

from ..conftest import DUMP_C, DUMP_TOML, SUM_C, SUM_TOML, write_case

SSHD = Path("/usr/sbin/sshd")
HOSTS = ("hw1", "hw2")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _keygen(path: Path) -> None:
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(path)], check=True,
                   capture_output=True)


def _sshd_config(tmp: Path, port: int) -> Path:
    config = tmp / "sshd_config"
    config.write_text(f"Port {port}\nListenAddress 127.0.0.1\nHostKey {tmp / 'host_key'}\n"
                      f"AuthorizedKeysFile {tmp / 'authorized_keys'}\nPidFile {tmp / 'sshd.pid'}\n"
                      "PasswordAuthentication no\nKbdInteractiveAuthentication no\nPermitRootLogin prohibit-password\n"
                      "UsePAM no\nStrictModes no\n", encoding="utf-8")
    return config


def _client_config(tmp: Path, port: int) -> Path:
    config = tmp / "ssh_config"
    config.write_text("".join(f"Host {host}\n  HostName 127.0.0.1\n  Port {port}\n  User root\n"
                              f"  IdentityFile {tmp / 'client_key'}\n  IdentitiesOnly yes\n"
                              "  StrictHostKeyChecking no\n  UserKnownHostsFile /dev/null\n  LogLevel ERROR\n"
                              for host in HOSTS), encoding="utf-8")
    return config


def _wait_for_login(config: Path, proc: subprocess.Popen[bytes]) -> str | None:
    """None once `ssh hw1 true` works, else why it does not."""
    why = "sshd did not accept a login within 20 s"
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            return f"sshd exited {proc.returncode}: {proc.stderr.read().decode()[-300:] if proc.stderr else ''}"
        out = subprocess.run(["ssh", "-F", str(config), HOSTS[0], "true"], capture_output=True, text=True,
                             timeout=20, check=False)
        if out.returncode == 0:
            return None
        why = f"ssh login failed: {out.stderr.strip()[-300:]}"
        time.sleep(0.3)
    return why


@pytest.fixture(scope="module")
def ssh_config(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """An sshd on 127.0.0.1 with a throwaway host key, and a client config naming it twice (hw1, hw2)."""
    if not SSHD.exists() or shutil.which("ssh") is None or shutil.which("ssh-keygen") is None:
        pytest.skip("openssh-server is not installed (apt-get install openssh-server)")
    if os.geteuid() != 0:
        pytest.skip("sshd for the loopback test needs root")
    tmp = tmp_path_factory.mktemp("sshd")
    _keygen(tmp / "host_key")
    _keygen(tmp / "client_key")
    shutil.copy(tmp / "client_key.pub", tmp / "authorized_keys")
    Path("/run/sshd").mkdir(parents=True, exist_ok=True)  # sshd's privilege-separation directory
    port = _free_port()
    proc = subprocess.Popen([str(SSHD), "-D", "-e", "-f", str(_sshd_config(tmp, port))],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        config = _client_config(tmp, port)
        problem = _wait_for_login(config, proc)
        if problem:
            pytest.skip(f"cannot start sshd on the loopback address: {problem}")
        yield config
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _host(root: Path) -> Path:
    write_case(root, "sum", {"case.toml": SUM_TOML, "sum.c": SUM_C})
    write_case(root, "dump", {"case.toml": DUMP_TOML, "dump.c": DUMP_C})
    (root / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    return root


def _remote_run(tmp: Path, config: Path, run: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    controller = tmp / "controller"
    controller.mkdir(exist_ok=True)
    (controller / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    tx = [arg for i, host in enumerate(HOSTS) for arg in
          ("--tx", f"ssh={host}//ssh_config={config}//python={sys.executable}//chdir={_host(tmp / f'host{i}')}")]
    cmd = [sys.executable, "-m", "pytest", "cases", *tx, "--dist", "load", "-p", "no:randomly",
           "-p", "no:cacheprovider", "--fixer=reference", "--fixer=noop", "--hwrepair-samples", "3",
           f"--hwrepair-run={run}", *extra]  # one word: xdist maps every existing path argument to an rsync root
    return subprocess.run(cmd, cwd=controller, capture_output=True, text=True, timeout=600, check=False)


def _finals(run: Path) -> dict[str, str]:
    """Outcome of every final record in the controller's run directory, by sample key."""
    return {r.key: r.outcome.value for r in read_records(run / "samples.jsonl") if r.final}


def _tables(run: Path) -> dict[str, object]:
    summary = json.loads((run / "summary.json").read_text(encoding="utf-8"))
    return {name: summary[name] for name in ("fixers", "groups", "bugs", "costs")}


ITEMS = 3 * 2 * 3  # bugs x fixers x samples


def test_remote_workers_send_every_record_and_artifact_home(ssh_config: Path, tmp_path: Path) -> None:
    run = tmp_path / "run"
    proc = _remote_run(tmp_path, ssh_config, run)
    assert proc.returncode == 1, proc.stdout[-3000:] + proc.stderr[-3000:]  # noop's repairs are rejected
    finals = _finals(run)
    assert len(finals) == ITEMS
    assert sorted(finals.values()).count("passed") == ITEMS // 2
    for r in read_records(run / "samples.jsonl"):
        assert r.artifact is not None
        folder = run / "artifacts" / r.artifact
        assert (folder / "task.json").is_file() and (folder / "verdict.json").is_file(), folder
    for i in range(2):  # both hosts ran samples, each into its own scratch directory, with its own semaphore
        scratch = list((tmp_path / f"host{i}" / ".hwrepair" / "remote").glob(f"*/{run.name}/samples.jsonl"))
        assert scratch and any(p.stat().st_size for p in scratch), f"host{i} ran nothing"
        assert (tmp_path / f"host{i}" / ".hwrepair" / "cache" / "slots").is_dir()


def test_a_remote_run_killed_and_resumed_ends_like_an_uninterrupted_one(ssh_config: Path, tmp_path: Path) -> None:
    whole = tmp_path / "whole"
    assert _remote_run(tmp_path, ssh_config, whole).returncode == 1
    parts = tmp_path / "parts"
    first = _remote_run(tmp_path, ssh_config, parts, "--maxfail", "1")
    done = len(_finals(parts))
    assert 0 < done < ITEMS, first.stdout[-3000:]
    second = _remote_run(tmp_path, ssh_config, parts)
    assert second.returncode == 1, second.stdout[-3000:] + second.stderr[-3000:]
    keys = [r.key for r in read_records(parts / "samples.jsonl") if r.final]
    assert len(keys) == len(set(keys)) == ITEMS  # resumed samples ran once, and were recorded once
    assert _finals(parts) == _finals(whole)
    assert _tables(parts) == _tables(whole)
