"""`cmd:COMMAND`: an external agent edits a copy of the workspace in place."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from .base import Candidate, RepairTask


class CommandFixer:
    """Runs COMMAND in a workspace copy holding the buggy files and `task.json`.

    Placeholders: {task} (path of task.json), {workspace}, {target}, {sample}, {attempt}.
    The changed target file is the candidate; stdout and stderr are kept as logs.
    """

    deterministic = False

    def __init__(self, command: str, timeout: float, populate: Any = None) -> None:
        self.command = command
        self.timeout = timeout
        self.populate = populate
        self.name = f"cmd:{command}"
        self.config = {"fixer": "cmd", "command": command}

    def repair(self, task: RepairTask) -> Candidate:
        with tempfile.TemporaryDirectory(prefix="hwrepair-agent-") as tmp:
            ws = Path(tmp) / "workspace"
            ws.mkdir()
            if self.populate is not None:
                self.populate(ws, task)
            for name, text in task.files.items():
                (ws / name).parent.mkdir(parents=True, exist_ok=True)
                (ws / name).write_text(text, encoding="utf-8")
            task_file = Path(tmp) / "task.json"
            task_file.write_text(json.dumps({**task.to_json(), "workspace": str(ws)}, indent=2), encoding="utf-8")
            argv = self.command.format(task=shlex.quote(str(task_file)), workspace=shlex.quote(str(ws)),
                                       target=shlex.quote(task.target), sample=task.sample,
                                       attempt=task.attempt)
            start = time.monotonic()
            out, err, status = _run(argv, ws, task_file, self.timeout)
            latency = time.monotonic() - start
            logs = {"agent.stdout": out, "agent.stderr": err, "agent.status": status}
            target = ws / task.target
            if status == "timeout":
                return Candidate(parsed=False, parse_error=f"the agent did not finish within {self.timeout:g}s",
                                 latency=latency, logs=logs, raw=out)
            if not target.exists():
                return Candidate(parsed=False, parse_error=f"the agent removed {task.target}", latency=latency,
                                 logs=logs, raw=out)
            text = target.read_text(encoding="utf-8", errors="replace")
            return Candidate(files={task.target: text}, latency=latency, logs=logs, raw=out)


def _run(argv: str, cwd: Path, task_file: Path, timeout: float) -> tuple[str, str, str]:
    env = {**os.environ, "HWREPAIR_TASK": str(task_file), "HWREPAIR_WORKSPACE": str(cwd)}
    proc = subprocess.Popen(argv, shell=True, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
        status = f"exit {proc.returncode}"
    except subprocess.TimeoutExpired:
        _killpg(proc.pid)
        out, err = proc.communicate()
        status = "timeout"
    finally:
        _killpg(proc.pid)
    cap = 1 << 20
    return out[-cap:].decode(errors="replace"), err[-cap:].decode(errors="replace"), status


def _killpg(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


__all__ = ["CommandFixer"]
