"""Remote xdist workers (`--tx ssh=...`): results travel back to the controller's run directory.

Such a worker runs into a scratch run directory of its own (seeded with the controller's finished records, so
resume works the same) and sends each fresh sample's artifacts with its report; the controller appends the
records and writes the artifacts. The oracle semaphore and the response cache are per host by construction.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterable, Mapping
from pathlib import Path, PurePosixPath
from typing import Any

from .results.rundir import RunDir, SampleRecord
from .sandbox.untrusted import read_optional
from .verdict import Outcome

ARTIFACTS = "hwrepair_artifacts"  # user_properties name: a fresh remote sample's records' artifacts
REMOTE = "hwrepair_remote"  # workerinput: the run's name; its presence marks a remote worker
FINISHED = "hwrepair_finished"  # workerinput: the controller's finished records, one JSON line each
SCRATCH = Path(".hwrepair") / "remote"
FILE_CAP = 8 << 20
SAMPLE_CAP = 32 << 20  # a sample's artifacts in one report: beyond it, files are left behind (and said so)


def is_remote(spec: Any) -> bool:
    """A gateway whose worker runs on another machine (ssh, socket, vagrant), not a local popen."""
    return not getattr(spec, "popen", None) and any(getattr(spec, name, None) for name in
                                                      ("ssh", "socket", "vagrant_ssh"))


def configure_node(spec: Any, workerinput: dict[str, Any], run_dir: RunDir,
                   finished: Mapping[str, list[SampleRecord]]) -> None:
    """Tell a remote worker to run into a scratch directory, and what is finished already."""
    if not is_remote(spec):
        return
    workerinput[REMOTE] = run_dir.name
    workerinput[FINISHED] = "".join(json.dumps(r.to_json(), sort_keys=True) + "\n"
                                    for key in sorted(finished) for r in finished[key])


def remote_worker(workerinput: Mapping[str, Any] | None) -> bool:
    return workerinput is not None and isinstance(workerinput.get(REMOTE), str)


def worker_run_dir(workerinput: Mapping[str, Any]) -> Path | None:
    """A remote worker's scratch run directory, made afresh and seeded; None for a local worker."""
    name = workerinput.get(REMOTE)
    if not isinstance(name, str):
        return None
    path = SCRATCH / str(workerinput.get("workerid", "gw")) / name
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
    (path / "samples.jsonl").write_text(str(workerinput.get(FINISHED, "")), encoding="utf-8")
    return path


def pack(run_dir: RunDir, records: Iterable[SampleRecord]) -> str:
    """The artifact files of these records as JSON {relative path: text}, read as untrusted, capped."""
    files: dict[str, str] = {}
    skipped: list[str] = []
    total = 0
    for folder in sorted({r.artifact.split("/")[0] for r in records if r.artifact}):
        for path in sorted(p for p in (run_dir.artifacts / folder).rglob("*") if p.is_file() and not p.is_symlink()):
            name = path.relative_to(run_dir.artifacts).as_posix()
            text = read_optional(run_dir.artifacts, name, FILE_CAP)
            if text is None or total + len(text) > SAMPLE_CAP:
                skipped.append(name)
                continue
            files[name], total = text, total + len(text)
    return json.dumps({"files": files, "skipped": skipped}, sort_keys=True)


class Receiver:
    """Controller side: writes what remote workers send, once per item."""

    def __init__(self, run_dir: RunDir) -> None:
        self.run_dir = run_dir
        self.done: set[str] = set()

    def receive(self, nodeid: str, properties: Iterable[tuple[str, object]], records_json: str | None) -> None:
        """Append the records and write the artifacts of one remote item (every phase's report carries them)."""
        packed = next((v for n, v in properties if n == ARTIFACTS and isinstance(v, str)), None)
        if packed is None or records_json is None or nodeid in self.done:
            return
        self.done.add(nodeid)
        records = [SampleRecord.from_json(r) for r in json.loads(records_json)]
        keys = {r.key for r in records}
        self.run_dir.create()
        data = json.loads(packed)
        for name, text in data.get("files", {}).items():
            target = self._target(str(name), keys)
            if target is not None and isinstance(text, str):
                target.parent.mkdir(parents=True, exist_ok=True)
                tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
                tmp.write_text(text, encoding="utf-8")
                os.replace(tmp, target)
        if records and records[-1].outcome is not Outcome.SKIPPED:  # as a local worker: a skip leaves no record
            self.run_dir.append(records)

    def _target(self, name: str, keys: set[str]) -> Path | None:
        """Where an artifact goes: only inside the artifact folder of one of the item's own sample keys."""
        parts = PurePosixPath(name).parts
        if not parts or PurePosixPath(name).is_absolute() or ".." in parts or parts[0] not in keys:
            return None
        target = self.run_dir.artifacts
        for part in parts:
            target = target / part
            if target.is_symlink():
                return None
        return target
