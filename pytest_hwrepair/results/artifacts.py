"""What a sample leaves in `artifacts/<key>/`: candidate files, prompt, response, diff, task, logs."""

from __future__ import annotations

import difflib
import json
import shutil
import subprocess
from pathlib import Path

from ..fixers.base import Candidate, RepairTask
from ..sandbox import scratch
from ..sandbox.untrusted import read_optional

DIFF_LINES = 80


def unified_diff(before: str, after: str, name: str) -> str:
    return "".join(difflib.unified_diff(before.splitlines(True), after.splitlines(True), f"a/{name}", f"b/{name}"))


def cap_lines(text: str, limit: int = DIFF_LINES) -> str:
    lines = text.splitlines()
    if len(lines) <= limit:
        return text
    return "\n".join(lines[:limit]) + f"\n[... {len(lines) - limit} more lines]"


def apply_diff(original: str, diff: str, name: str) -> str | None:
    """Apply a unified diff to one file with `patch`; None when it does not apply."""
    with scratch.directory("hwrepair-patch-") as tmp:
        path = Path(tmp) / Path(name).name
        path.write_text(original, encoding="utf-8")
        for strip in ("-p1", "-p0"):
            proc = subprocess.run(["patch", strip, "-s", "-f", "--no-backup-if-mismatch", "-i", "-", str(path)],
                                  input=diff, text=True, capture_output=True, cwd=tmp, check=False)
            if proc.returncode == 0:
                return path.read_text(encoding="utf-8")
            path.write_text(original, encoding="utf-8")
    return None


def save_candidate(folder: Path, task: RepairTask, candidate: Candidate) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    cdir = folder / "candidate"
    if cdir.exists():
        shutil.rmtree(cdir)
    for name, text in candidate.files.items():
        (cdir / name).parent.mkdir(parents=True, exist_ok=True)
        (cdir / name).write_text(text, encoding="utf-8")
    if candidate.prompt:
        (folder / "prompt.txt").write_text(candidate.prompt, encoding="utf-8")
    if candidate.raw:
        (folder / "response.txt").write_text(candidate.raw, encoding="utf-8")
    if candidate.diff:
        (folder / "response.diff").write_text(candidate.diff, encoding="utf-8")
    for name, text in candidate.logs.items():
        (folder / name).write_text(text, encoding="utf-8")
    (folder / "task.json").write_text(json.dumps({k: v for k, v in task.to_json().items() if k != "files"},
                                                 indent=2), encoding="utf-8")


def read_artifact(folder: Path, name: str) -> str:
    """A saved artifact's text ('' when missing); artifacts hold model output, so they are read as untrusted."""
    return read_optional(folder, name) or ""
