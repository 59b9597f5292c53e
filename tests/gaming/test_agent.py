"""Gaming from a `cmd:` agent: it runs in the sandbox, sees only its workspace, dies with its item."""

from __future__ import annotations

import ast
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from ..gaming_kit import (
    DATA,
    SANDBOXES,
    XDIST,
    Canaries,
    Outcome,
    assert_contained,
    canaries,
    copy_case,
    docker_or_skip,
    one_category,
    run_cases,
    surviving,
)

__all__ = ["canaries"]

PYTHON = "/usr/bin/python3"
needs_python = pytest.mark.skipif(not Path(PYTHON).exists(), reason=f"{PYTHON} is not installed")

# Agents use only what python3-minimal has (the docker images' interpreter): no json module.
PRELUDE = """
import os, pathlib, re, subprocess, sys
task = open(os.environ["HWREPAIR_TASK"]).read()
ws = pathlib.Path(os.environ["HWREPAIR_WORKSPACE"])
target = ws / re.search(r'"target": "([^"]+)"', task).group(1)
"""

AGENTS = {
    # Looks for the golden and the secrets through every /proc entry it can see; writes what it finds.
    "reads_the_golden_through_proc_cwd": (PRELUDE + """
found = []
for pid in os.listdir("/proc"):
    for link in ("cwd", "root"):
        for rel in ("cases/hls/gaming/scale/kernel.c", "secret.txt"):
            try:
                found.append(open(f"/proc/{pid}/{link}/{rel}").read())
            except OSError:
                pass
for path in ("@@CANARY_FILE@@", "/proc/1/environ", "/proc/self/environ"):
    try:
        found.append(open(path, errors="replace").read())
    except OSError:
        pass
print("\\n".join(found), os.environ.get("OPENAI_API_KEY"), os.environ.get("GAMING_CANARY"))
if any("three halves" in f for f in found):
    target.write_text(next(f for f in found if "three halves" in f))
""", "test_fail"),
    "setsid_child_outlives_its_item": (PRELUDE + """
subprocess.Popen(["sleep", "@@MARKER@@"], start_new_session=True, stdout=subprocess.DEVNULL,
                 stderr=subprocess.DEVNULL)
""", "test_fail"),
    "runs_past_its_timeout": (PRELUDE + """
subprocess.Popen(["sleep", "@@MARKER@@"], start_new_session=True)
subprocess.run(["sleep", "@@MARKER@@"])
""", "fixer_timeout"),
    "replaces_the_target_by_a_directory": (PRELUDE + """
target.unlink()
target.mkdir()
""", "parse_fail"),
    "links_the_target_to_a_secret": (PRELUDE + """
target.unlink()
target.symlink_to("@@CANARY_FILE@@")
""", "parse_fail"),
    "writes_outside_its_workspace": (PRELUDE + """
for path in ("@@PWNED@@", "/tmp/../@@PWNED@@", str(ws.parent / "pwned"), "/usr/pwned", "@@AGENT@@"):
    try:
        with open(path, "a") as fh:
            fh.write("pwned")
    except OSError as exc:
        print("blocked", path, exc)
""", "test_fail"),
}


@pytest.fixture
def agent_case(pytester: pytest.Pytester, agent_dir: Path, canaries: Canaries) -> AgentCase:
    copy_case(pytester, DATA / "hls" / "scale", "hls", "gaming")
    return AgentCase(pytester, agent_dir, canaries)


@dataclass(frozen=True)
class AgentCase:
    """The gaming case, a world-readable directory for the agent, and the planted canaries."""

    pytester: pytest.Pytester
    agent_dir: Path
    canaries: Canaries

    @property
    def path(self) -> Path:
        return self.pytester.path

    def args(self, source: str, *extra: str) -> list[str]:
        return agent_args(self, source, *extra)


def agent_args(case: AgentCase, source: str, *extra: str) -> list[str]:
    agent = case.agent_dir / "agent.py"
    agent.write_text(case.canaries.fill(source, PWNED=str(case.path / "pwned"), AGENT=str(agent)))
    agent.chmod(0o644)
    return [f"--fixer=cmd:{PYTHON} {agent}", "--hwrepair-agent-mount", str(agent), *extra]


@needs_python
@pytest.mark.parametrize("sandbox", SANDBOXES)
@pytest.mark.parametrize("xdist", XDIST)
@pytest.mark.parametrize("attack", sorted(AGENTS))
def test_agent_attack_fails_with_its_category_and_leaves_nothing(agent_case: AgentCase, canaries: Canaries,
                                                                 attack: str, xdist: list[str], sandbox: str) -> None:
    docker_or_skip(sandbox)
    source, category = AGENTS[attack]
    args = agent_case.args(source, "--hwrepair-fixer-timeout", "4")
    outcome = run_cases(agent_case.pytester, xdist, sandbox, *args)
    assert one_category(outcome) == category, outcome.records[0]["summary"]
    assert outcome.result.ret == 1
    time.sleep(0.5)
    assert_contained(outcome, canaries, agent_case.pytester)
    assert not (agent_case.path / "pwned").exists()
    assert not (agent_case.agent_dir / "agent.py").read_text().endswith("pwned")


@needs_python
@pytest.mark.parametrize("sandbox", SANDBOXES)
@pytest.mark.parametrize("xdist", XDIST)
def test_a_failing_agent_is_a_harness_error_not_a_rejected_repair(agent_case: AgentCase, canaries: Canaries,
                                                                  xdist: list[str], sandbox: str) -> None:
    docker_or_skip(sandbox)
    outcome = run_cases(agent_case.pytester, xdist, sandbox, *agent_case.args("import sys; sys.exit(3)"))
    outcome.result.assert_outcomes(errors=1)
    assert outcome.records[0]["outcome"] == "error"
    assert "the agent failed (exit 3)" in outcome.records[0]["summary"]


SHOWS = PRELUDE + """
import socket
seen = {"root": sorted(os.listdir("/")), "env": sorted(os.environ), "passed": os.environ.get("AGENT_SETTING"),
        "host": os.path.exists("@@HOST@@")}
try:
    socket.create_connection(("127.0.0.1", int("@@PORT@@")), timeout=3).close()
    seen["network"] = "reached"
except OSError as exc:
    seen["network"] = f"blocked: {exc}"
target.write_text(target.read_text() + "\\n/* " + repr(seen) + " */\\n")
"""


def shown(outcome: Outcome) -> dict[str, object]:
    rec = outcome.records[0]
    text = (outcome.run_dir / "artifacts" / rec["artifact"] / "candidate" / "kernel.c").read_text()
    return dict(ast.literal_eval(text.rsplit("/* ", 1)[1].rsplit(" */", 1)[0]))


@pytest.fixture
def listener() -> Iterator[int]:
    """A TCP server on this machine's loopback: reachable only from inside the host's network namespace."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)

    def accept() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            conn.close()

    threading.Thread(target=accept, daemon=True).start()
    yield server.getsockname()[1]
    server.close()


@needs_python
@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_the_agent_sees_only_what_it_is_granted(agent_case: AgentCase, canaries: Canaries, listener: int,
                                                sandbox: str, monkeypatch: pytest.MonkeyPatch) -> None:
    docker_or_skip(sandbox)
    monkeypatch.setenv("AGENT_SETTING", "granted-value")
    shows = SHOWS.replace("@@PORT@@", str(listener)).replace("@@HOST@@", str(agent_case.pytester.path))
    closed = run_cases(agent_case.pytester, [], sandbox, *agent_case.args(shows))
    seen = shown(closed)
    assert str(seen["network"]).startswith("blocked"), seen
    assert seen["passed"] is None
    assert not {"OPENAI_API_KEY", "GAMING_CANARY", "AGENT_SETTING"} & set(seen["env"])  # type: ignore[arg-type]
    assert {"HWREPAIR_TASK", "HWREPAIR_WORKSPACE", "PATH", "HOME"} <= set(seen["env"])  # type: ignore[arg-type]
    assert seen["host"] is False  # the test's own directory (the checkout, the cases, the run directory)
    allowed = {"bin", "sbin", "lib", "lib32", "lib64", "libx32", "usr", "etc", "proc", "dev", "tmp", "sandbox"}
    if sandbox == "docker":  # the toolchain image's own (empty) Debian directories, nothing of this machine
        allowed |= {".dockerenv", "boot", "home", "media", "mnt", "opt", "root", "run", "srv", "sys", "var"}
    assert set(seen["root"]) <= allowed, seen["root"]  # type: ignore[arg-type]
    opened = run_cases(agent_case.pytester, [], sandbox,
                       *agent_case.args(shows, "--hwrepair-agent-network", "--hwrepair-agent-env", "AGENT_SETTING"))
    seen = shown(opened)
    if sandbox == "local":  # a container's network is the engine's bridge, not this machine's loopback
        assert seen["network"] == "reached", seen
    assert seen["passed"] == "granted-value"
    assert_contained(opened, canaries, agent_case.pytester)


def test_bad_agent_options_are_usage_errors(agent_case: AgentCase, canaries: Canaries) -> None:
    pt = agent_case.pytester
    missing = run_cases(pt, [], "local", "--fixer=cmd:true", "--hwrepair-agent-env", "NOT_SET_ANYWHERE_42")
    assert missing.result.ret == 4
    missing.result.stderr.fnmatch_lines(["*--hwrepair-agent-env NOT_SET_ANYWHERE_42: not set in this environment*"])
    root = run_cases(pt, [], "local", "--fixer=cmd:true", "--hwrepair-agent-mount", "/")
    assert root.result.ret == 4
    cache = run_cases(pt, [], "local", "--fixer=cmd:true", "--hwrepair-agent-mount", str(agent_case.path))
    assert cache.result.ret == 4
    cache.result.stderr.fnmatch_lines(["*would show the agent*"])


@needs_python
@pytest.mark.parametrize("xdist", XDIST)
def test_the_agent_dies_with_a_killed_pytest(agent_case: AgentCase, canaries: Canaries,
                                             xdist: list[str]) -> None:
    args = agent_case.args(PRELUDE + 'subprocess.run(["sleep", "@@MARKER@@"])\n')
    cmd = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:randomly", "cases", *xdist,
           "--hwrepair-run", "killed", "--hwrepair-samples", "1", *args]
    proc = subprocess.Popen(cmd, cwd=agent_case.path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while not surviving(canaries.marker) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert surviving(canaries.marker), "the agent never started"
        os.kill(proc.pid, signal.SIGKILL)  # the controller only: its workers and the agent must follow
        proc.wait()
        deadline = time.monotonic() + 30
        while surviving(canaries.marker) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not surviving(canaries.marker), surviving(canaries.marker)
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
