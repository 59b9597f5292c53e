"""`hwrepair import cudabeaver`: one cuda case per CUDABeaver task, its broken start as the bug (docs/importers.md).

Import only converts: `hwrepair validate` decides whether each start fails where its bucket says.
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

from ..cases.domains import CUDA_BUCKETS
from .base import Entry, ImporterError, ImportReport, Reason, Status, prepare_out, read_text, write_case, write_report

SUITE_DIR = "cudabeaver"
STEP_TIMEOUT = 300.0  # the task harness's own test limit; its builds get 120 s on a fast machine
# What the upstream checker blocks too: loading code at run time and leaving the process.
BLOCKED = [r"#\s*include\s*[<\"]dlfcn", r"\bdl(?:open|sym)\s*\(", r"#\s*include\s*[<\"]nvrtc", r"\bnvrtc[A-Z]\w*\s*\(",
           r"\bcu(?:Library|Module)Load", r"\bsystem\s*\(", r"\bpopen\s*\(", r"\bexec[lv]p?e?\s*\("]
# Families whose `reference.*` is not a known-good solution file (the dataset's own DATA_SCHEMA):
# without one the reference fixer has nothing to return and no two-sided check is possible.
NO_SOLUTION = {
    "kernelbench": "reference.py is the PyTorch model a solution.py is checked against, not a solution",
    "cutlass": "reference.cu is the restored upstream example, not a solution.h",
    "cudabench": "the task ships no compilable reference (its oracle is test/compare_output.py)",
}
# ThunderKittens' Makefiles pick the architecture by product name.
TK_GPUS = {90: "H100", 100: "B200", 103: "B300", 120: "RTX5070"}
_ARCH_FLAGS = re.compile(r"-arch=(?:native|sm_\d+a?|compute_\d+a?)|-gencode\s+arch=compute_\d+a?,code=\S+")
_BIG_TREES = ("include/", "prototype/")


class CudaBeaverImporter:
    name = "cudabeaver"
    help = "CUDABeaver's broken-start CUDA tasks (a checkout of HaoyangChen23/CUDABeaver)"

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("checkout", type=Path, metavar="DIR", help="a checkout of CUDABeaver")
        parser.add_argument("--out", type=Path, required=True, metavar="DIR", help="where the cases are written")
        parser.add_argument("--gpu-arch", type=_sm, metavar="SM",
                            help="compile for this architecture (e.g. 90 or sm_90) instead of the tasks' own flags")
        parser.add_argument("--timeout", type=float, default=STEP_TIMEOUT, help="seconds per build or test step")

    def run(self, ns: argparse.Namespace) -> ImportReport:
        data = ns.checkout / "data"
        tasks = sorted(p.parent for p in data.glob("*/instance.json")) if data.is_dir() else []
        if not tasks:
            raise ImporterError(f"{ns.checkout}: no data/<task>/instance.json (not a CUDABeaver checkout)")
        external = data / "_external"
        prepare_out(ns.out, self.name, [SUITE_DIR])
        entries = [import_task(task, ns.out, external, ns.gpu_arch, ns.timeout) for task in tasks]
        counts = Counter(e.group for e in entries if e.status is not Status.REJECTED)
        notes = [f"  {bucket}: {n}" for bucket, n in sorted(counts.items())]
        return write_report(ImportReport(self.name, ns.out, tuple(entries), ("imported per bucket:", *notes),
                                         {"gpu_arch": ns.gpu_arch}))


def _sm(text: str) -> int:
    if (m := re.fullmatch(r"(?:sm_?)?(\d{2,3})", text.strip().lower())) is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not an SM number such as 90 or sm_90")
    return int(m.group(1))


def import_task(task: Path, out: Path, external: Path, gpu_arch: int | None, timeout: float) -> Entry:
    """Write one task's case, or say why it cannot be one."""
    try:
        instance, meta = _json(task / "instance.json"), _json(task / "input.json")
    except ValueError as exc:
        return Entry(task.name, "unknown", Status.REJECTED, Reason.NOT_IMPORTABLE, str(exc))
    family, bucket = str(instance.get("task_family", "unknown")), str(instance.get("error_category", ""))
    entry = Entry(task.name, family, Status.IMPORTED, group=bucket)
    if problem := unimportable(instance, meta, bucket):
        return entry.rejected(Reason.NOT_IMPORTABLE, problem)
    files = instance["files"]
    target = str(meta["solution_file"])
    testbench = _testbench(task / files["testbench"], target)
    broken_name = f"broken/{Path(files['broken_start']).name}"
    clash = [n for n in ("case.toml", "prompt.txt", broken_name) if n in testbench]
    if clash:
        return entry.rejected(Reason.NOT_IMPORTABLE, f"the testbench has its own {clash[0]}")
    texts = {name: read_text(task / files[key]) for name, key in ((target, "reference"), (broken_name, "broken_start"),
                                                                  ("prompt.txt", "prompt"))}
    unreadable = [n for n, t in texts.items() if t is None]
    if unreadable:
        return entry.rejected(Reason.NOT_IMPORTABLE, f"{unreadable[0]}: missing or not UTF-8 text")
    rel = f"{SUITE_DIR}/{family}/{task.name}"
    fields = case_fields(task.name, family, bucket, target, broken_name, testbench, meta, external, gpu_arch, timeout)
    write_case(out / rel, fields, {**testbench, **{n: t for n, t in texts.items() if t is not None}})
    return Entry(task.name, family, Status.IMPORTED, case=rel, bug=fields["bug"][0]["id"], group=bucket)


def unimportable(instance: dict[str, Any], meta: dict[str, Any], bucket: str) -> str:
    """Why a task cannot be an ordinary case here, or ''."""
    if bucket not in CUDA_BUCKETS:
        return f"error_category {bucket!r} is not one of {', '.join(CUDA_BUCKETS)}"
    files = instance.get("files")
    if not isinstance(files, dict) or not all(k in files for k in ("broken_start", "reference", "prompt", "testbench")):
        return "instance.json: files must name broken_start, reference, prompt and testbench"
    build, test = str(meta.get("build_command") or ""), str(meta.get("test_command") or "")
    if not test.strip() or not any("=" not in w.split("/")[0] for w in build.split()):  # not only VAR=value
        return ("no build and test command of its own: the task runs only through the upstream harness's "
                "applied-kernels runner (testbench/def.py)")
    target = str(meta.get("solution_file") or "")
    if not target or Path(target).is_absolute() or ".." in Path(target).parts:
        return f"input.json: solution_file {target!r} must be a relative path inside the testbench"
    family = str(instance.get("task_family", ""))
    if family in NO_SOLUTION:
        return f"no known-good solution: {NO_SOLUTION[family]}"
    return ""


def _json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path.name}: unreadable: {exc}") from None
    if not isinstance(data, dict):
        raise ValueError(f"{path.name}: not a JSON object")
    return data


def _testbench(root: Path, target: str) -> dict[str, str]:
    """The testbench's text files; prebuilt binaries (which would make `make` build nothing) and links stay behind."""
    files: dict[str, str] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.is_file() and rel != target and not rel.startswith("reference_sources/"):
            if (text := read_text(path)) is not None:  # None for a link
                files[rel] = text
    return files


def case_fields(task: str, family: str, bucket: str, target: str, broken: str, testbench: dict[str, str],
                meta: dict[str, Any], external: Path, gpu_arch: int | None, timeout: float) -> dict[str, Any]:
    big = len(testbench) > 30
    data = [n for n in testbench if big and n.startswith(_BIG_TREES)]
    sources = [target, *(n for n in testbench if n not in data)]
    hardware = meta.get("hardware")
    min_sm = hardware.get("min_sm") if isinstance(hardware, dict) else None
    oracle = {"kind": "cuda", "build": adapt(str(meta["build_command"]), external, gpu_arch),
              "run": adapt(str(meta["test_command"]), external, gpu_arch), "timeout": timeout,
              "min_sm": int(min_sm) if isinstance(min_sm, int) else None,
              "anti_cheat": {"blocked": BLOCKED}}
    return {"schema": 1, "id": task, "domain": "cuda", "suite": family, "title": f"CUDABeaver {task}",
            "sources": sources, "target": target, "spec": "prompt.txt", "data": data or None, "oracle": oracle,
            "bug": [{"id": "START-01", "bucket": bucket, "broken": broken,
                     "note": f"CUDABeaver broken start of {task} ({bucket})"}]}


def adapt(command: str, external: Path, gpu_arch: int | None) -> str:
    """The task's command with the bundled libraries wired by path and, on request, another architecture."""
    for lib in ("cutlass", "ThunderKittens"):
        if (external / lib).is_dir():
            command = re.sub(rf"(?:\./)?reference_sources/{lib}\b", str((external / lib).resolve()), command)
    if gpu_arch is None:
        return command
    command = _ARCH_FLAGS.sub(f"-arch=sm_{gpu_arch}", command)
    if gpu_arch in TK_GPUS:
        command = re.sub(r"\bGPU=\S+", f"GPU={TK_GPUS[gpu_arch]}", command)
    # Makefile-driven builds (CUTLASS) set their own ARCH: a command-line variable overrides it.
    return re.sub(r"\bmake (test|all)\b", rf"make \1 ARCH=-arch=sm_{gpu_arch}", command)

