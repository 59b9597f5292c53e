#!/usr/bin/env python3
"""Two-sided validation of the CUDA corpus: every reference passes, every broken start fails as declared.

The validation is `hwrepair validate --gpu` (the cuda oracle itself: build, test, taxonomy, perf gate);
this script runs it and adds what only it does: the family x bucket table (--coverage), the CPU
emulator's functional check (--emulate) and writing observed build logs (--record-logs).

With a CUDA device (the full check, meant to finish in under 8 minutes on one GPU):
  * each reference builds, passes its test and the perf gate against a second, independent
    set of its own timed runs (as the oracle does with the reference fixer);
  * each broken start fails in its declared bucket: compile_error at build, logic_error,
    memory_crash and timeout at run time with the taxonomy category the bucket names,
    perf_broken correct but below the perf gate.
Without one it says so and validates the build stage only: references build, compile_error
starts fail to build, every other start builds (its runtime side is unverifiable here).
`--emulate` adds a functional check on the CPU emulator in scripts/cuda_emu/ (no timings).

Needs only python3, nvcc and this repository (the harness's own dependencies are not needed).

    python3 scripts/validate_cuda_gpu.py                 # everything under cases/cuda
    python3 scripts/validate_cuda_gpu.py cases/cuda/gemm --record-logs
"""

from __future__ import annotations

import argparse
import concurrent.futures
import importlib.util
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
import types
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
EMULATOR = REPO / "scripts" / "cuda_emu"


def load_light_modules() -> tuple[types.ModuleType, types.ModuleType]:
    """The oracle's stdlib-only modules, without running the package __init__ files (no pydantic)."""
    for name, path in (("pytest_hwrepair", REPO / "pytest_hwrepair"),
                       ("pytest_hwrepair.oracles", REPO / "pytest_hwrepair" / "oracles")):
        if name not in sys.modules:
            package = types.ModuleType(name)
            package.__path__ = [str(path)]
            sys.modules[name] = package
    modules = []
    for name in ("pytest_hwrepair.verdict", "pytest_hwrepair.oracles.cuda.classify",
                 "pytest_hwrepair.oracles.cuda.checks"):
        if name not in sys.modules:
            spec = importlib.util.spec_from_file_location(name, REPO / (name.replace(".", "/") + ".py"))
            assert spec is not None and spec.loader is not None
            module = importlib.util.module_from_spec(spec)
            sys.modules[name] = module
            spec.loader.exec_module(module)
        modules.append(sys.modules[name])
    return modules[1], modules[2]


classify_mod, checks = load_light_modules()
Stage, StepLog, CudaCategory = classify_mod.Stage, classify_mod.StepLog, classify_mod.CudaCategory
BUCKET_CATEGORIES = classify_mod.BUCKET_CATEGORIES
RUNTIME_BUCKETS = ("logic_error", "memory_crash", "timeout", "perf_broken")


@dataclass
class Item:
    """One thing to validate: a case's reference (bug None) or one broken start."""

    case_dir: Path
    case: dict[str, Any]
    bug: dict[str, Any] | None
    workspace: Path | None = None
    status: str = "pending"
    observed: str = ""
    detail: str = ""
    seconds: float = 0.0
    log: str = ""
    timing: Any = None
    metrics: dict[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        rel = self.case_dir.relative_to(REPO / "cases" / "cuda") if self.case_dir.is_relative_to(
            REPO / "cases" / "cuda") else self.case_dir
        return f"{rel}::{self.bug['id'] if self.bug else 'reference'}"

    @property
    def bucket(self) -> str:
        return str(self.bug["bucket"]) if self.bug else "reference"

    @property
    def oracle(self) -> dict[str, Any]:
        return dict(self.case["oracle"])

    def source(self) -> str:
        name = str(self.bug["broken"] if self.bug else self.case["target"])
        return (self.case_dir / name).read_text(encoding="utf-8")

    def settle(self, ok: bool, observed: str, detail: str = "") -> None:
        if self.status in ("pending", "built"):
            self.status, self.observed, self.detail = ("ok" if ok else "FAIL"), observed, detail


def find_cases(paths: list[Path]) -> list[tuple[Path, dict[str, Any]]]:
    found = []
    for root in paths:
        files = [root] if root.name == "case.toml" else sorted(root.rglob("case.toml"))
        for path in files:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
            if data.get("domain") == "cuda":
                found.append((path.parent, data))
    return found


def items_of(cases: list[tuple[Path, dict[str, Any]]]) -> list[Item]:
    items = []
    for case_dir, data in cases:
        items.append(Item(case_dir, data, None))
        items += [Item(case_dir, data, bug) for bug in data.get("bug", [])]
    return items


def asset_path(case_dir: Path, asset: str) -> Path:
    bases = [p / "oracles" for p in case_dir.resolve().parents] + [REPO / "oracles"]
    for base in bases:
        if (base / asset).is_file():
            return base / asset
    raise FileNotFoundError(f"{case_dir}: oracle asset {asset!r} not found")


def prepare(item: Item, scratch: Path) -> Path:
    """A workspace as the harness lays it out: sources, the broken start as the target, assets."""
    ws = Path(tempfile.mkdtemp(prefix="ws-", dir=scratch))
    for name in item.case["sources"]:
        (ws / name).parent.mkdir(parents=True, exist_ok=True)
        (ws / name).write_text((item.case_dir / name).read_text(encoding="utf-8"), encoding="utf-8")
    (ws / item.case["target"]).write_text(item.source(), encoding="utf-8")
    for asset in item.oracle.get("assets", []):
        shutil.copyfile(asset_path(item.case_dir, asset), ws / Path(asset).name)
    item.workspace = ws
    return ws


def run_step(stage: Any, command: str, cwd: Path, timeout: float) -> Any:
    """One step in its own process group, killed at the deadline (a CUDA fault poisons a process)."""
    (cwd / ".tmp").mkdir(exist_ok=True)
    # A relative TMPDIR keeps machine paths out of nvcc's messages (and so out of recorded logs).
    env = {**os.environ, "TMPDIR": ".tmp", "LC_ALL": "C", "TZ": "UTC"}
    proc = subprocess.Popen(command, shell=True, cwd=cwd, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=timeout)
        timed_out = False
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        timed_out = True
    text = out.decode("utf-8", errors="replace")
    rc = None if timed_out else proc.returncode
    return StepLog(stage, text, rc, timed_out, None if timed_out else classify_mod.signal_of(rc))


def timeout_of(item: Item, hang_timeout: float | None) -> float:
    declared = float(item.oracle.get("timeout", 60))
    if hang_timeout and item.bucket == "timeout":
        return min(declared, hang_timeout)
    return declared


def screen(item: Item) -> bool:
    """Anti-cheat must accept references and broken starts alike: a start fails for its bug only."""
    rules = item.oracle.get("anti_cheat", {})
    reason = checks.anti_cheat_violation(item.source(), rules.get("blocked", []), rules.get("required", []))
    if reason is not None:
        item.status, item.observed, item.detail = "FAIL", "anti-cheat", reason
    return reason is None


def build(item: Item, scratch: Path) -> None:
    started = time.monotonic()
    if not screen(item):
        return
    ws = prepare(item, scratch)
    log = run_step(Stage.BUILD, item.oracle["build"], ws, float(item.oracle.get("timeout", 60)) * 6)
    found = classify_mod.classify(log, item.case["target"])
    item.seconds += time.monotonic() - started
    item.log = log.text
    if item.bucket == "compile_error":
        ok = found.harness_category.value == "compile_fail" and found.category in BUCKET_CATEGORIES["compile_error"]
        item.settle(ok, found.category.value, found.evidence)
    elif found.category is CudaCategory.PASSED:
        item.status, item.observed = "built", "build passed"
    else:
        item.settle(False, found.category.value, found.evidence)


def emulate(item: Item, scratch: Path, hang_timeout: float) -> None:
    """Functional check on the CPU emulator: kernels run as fibers, no timing."""
    if item.status != "built" or item.workspace is None:
        return
    ws = Path(shutil.copytree(item.workspace, scratch / f"emu-{item.workspace.name}"))
    for path in ws.iterdir():
        if path.suffix in (".cu", ".cuh"):
            path.write_text(rewrite_launches(path.read_text(encoding="utf-8")), encoding="utf-8")
    command = f"g++ -std=c++17 -O1 -w -DHWR_EMULATE -I{EMULATOR} -x c++ test_main.cu -o test_emu -lm"
    built = run_step(Stage.BUILD, command, ws, 600)
    if built.returncode != 0:
        item.status, item.observed, item.detail = "FAIL", "emulator build", built.text.strip()[-300:]
        return
    started = time.monotonic()
    log = run_step(Stage.RUN, "./test_emu", ws, hang_timeout)
    item.seconds += time.monotonic() - started
    judge_run(item, classify_mod.classify(log, item.case["target"]), log, emulated=True)


_LAUNCH = re.compile(r"([A-Za-z_][\w:]*(?:\s*<[^<>;()]*>)?)\s*<<<(.*?)>>>\s*\(", re.DOTALL)


def rewrite_launches(source: str) -> str:
    return _LAUNCH.sub(lambda m: f"hwr_emu::launcher({m.group(1)}, {m.group(2)})(", source)


def judge_run(item: Item, found: Any, log: Any, *, emulated: bool = False) -> None:
    item.log = log.text
    if item.bug is None or item.bucket == "perf_broken":
        ok = found.category is CudaCategory.PASSED
        item.settle(ok, found.category.value, found.evidence)
        if emulated and ok:
            item.detail = "functional check only (emulated: no timing)"
        return
    expected = BUCKET_CATEGORIES[item.bucket]
    item.settle(found.category in expected, found.category.value, found.evidence)


def record_log(item: Item, gpu: bool) -> None:
    """Write the observed failure log into broken/<id>.log and point the bug's error_log at it.

    compile_error logs come from the build and are recorded anywhere; runtime logs need a GPU.
    """
    if item.bug is None or item.status != "ok" or (item.bucket != "compile_error" and not gpu):
        return
    broken = Path(item.bug["broken"])
    log_name = str(broken.with_suffix(".log"))
    (item.case_dir / log_name).write_text(item.log.strip() + "\n", encoding="utf-8")
    if item.bug.get("error_log"):
        return
    toml = item.case_dir / "case.toml"
    text = toml.read_text(encoding="utf-8")
    line = f'broken = "{item.bug["broken"]}"\n'
    toml.write_text(text.replace(line, line + f'error_log = "{log_name}"\n', 1), encoding="utf-8")


def parallel(function: Callable[[Item], None], items: list[Item], jobs: int) -> None:
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for future in [pool.submit(function, item) for item in items]:
            future.result()


def family(item: Item) -> str:
    return str(item.case.get("suite", "?"))


def print_table(items: list[Item]) -> None:
    width = max(len(i.name) for i in items) + 2
    print(f"{'task::start':<{width}}{'bucket':<15}{'status':<11}{'observed':<24}{'secs':>6}  detail")
    for i in items:
        print(f"{i.name:<{width}}{i.bucket:<15}{i.status:<11}{i.observed:<24}{i.seconds:6.1f}  {i.detail[:100]}")


def coverage_table(items: list[Item]) -> str:
    """Markdown: broken starts per family and bucket (the README's table)."""
    buckets = ["compile_error", "logic_error", "memory_crash", "timeout", "perf_broken"]
    families = sorted({family(i) for i in items})
    tasks = {f: len({i.case_dir for i in items if family(i) == f}) for f in families}
    rows = ["| family | tasks | " + " | ".join(buckets) + " | starts |", "|---" * (len(buckets) + 3) + "|"]
    for f in families:
        counts = [sum(1 for i in items if family(i) == f and i.bucket == b) for b in buckets]
        rows.append(f"| {f} | {tasks[f]} | " + " | ".join(map(str, counts)) + f" | {sum(counts)} |")
    totals = [sum(1 for i in items if i.bucket == b) for b in buckets]
    rows.append(f"| **all** | {sum(tasks.values())} | " + " | ".join(map(str, totals)) + f" | {sum(totals)} |")
    return "\n".join(rows)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("paths", nargs="*", type=Path, default=[REPO / "cases" / "cuda"])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="parallel builds")
    parser.add_argument("--runs", type=int, default=3, help="timed runs per measurement (after a warm-up run)")
    parser.add_argument("--perf-gate", type=float, default=None, help="override every task's perf gate")
    parser.add_argument("--hang-timeout", type=float, default=15.0,
                        help="seconds before a timeout-bucket start counts as hung (at most the task's timeout)")
    parser.add_argument("--gpu", choices=("auto", "yes", "no"), default="auto", help="force the device decision")
    parser.add_argument("--emulate", action="store_true", help="without a GPU: functional check on the CPU emulator")
    parser.add_argument("--record-logs", action="store_true",
                        help="write each start's observed failure log to broken/<id>.log (runtime buckets: GPU only)")
    parser.add_argument("--coverage", action="store_true", help="print the family x bucket table and exit")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    items = items_of(find_cases([p.resolve() for p in args.paths]))
    if not items:
        print("no cuda cases found under", ", ".join(map(str, args.paths)))
        return 2
    if args.coverage:
        print(coverage_table(items))
        return 0
    force = None if args.gpu == "auto" else args.gpu == "yes"
    gpu = checks.device_present(force)
    if not (args.emulate or args.record_logs):
        return hwrepair_validate(args)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="hwrepair-cuda-validate-") as scratch:
        validate(items, args, gpu, Path(scratch))
    for item in items:
        if item.status == "built":
            item.status, item.detail = "build-ok", "builds as expected; the runtime side needs a GPU"
    print_table(items)
    counts = {status: sum(1 for i in items if i.status == status) for status in ("ok", "build-ok", "FAIL")}
    print(f"\n{len(items)} checked in {time.monotonic() - started:.0f}s: {counts['ok']} ok, {counts['build-ok']} "
          f"build-ok (runtime unverifiable here), {counts['FAIL']} failed")
    failed = [i for i in items if i.status == "FAIL"]
    if args.record_logs:
        for item in items:
            record_log(item, gpu)
    return 1 if failed else 0


def hwrepair_validate(args: argparse.Namespace) -> int:
    """The two-sided validation itself is the oracle's: `hwrepair validate` with the GPU stage on."""
    # --progress: a line on stderr as each start's check ends, so a run stopped half way still shows what finished.
    cmd = [sys.executable, "-m", "pytest_hwrepair.cli", "validate", "--gpu", args.gpu, "--timing-runs",
           str(max(1, args.runs)), "-j", str(args.jobs), "--progress", *map(str, args.paths)]
    if args.perf_gate is not None:
        cmd += ["--perf-gate", str(args.perf_gate)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    return subprocess.run(cmd, env=env, check=False).returncode


def validate(items: list[Item], args: argparse.Namespace, gpu: bool, scratch: Path) -> None:
    """The script's own extras: the build stage for --record-logs and the CPU emulator's functional check."""
    print("building every task" + ("; functional check on the CPU emulator" if args.emulate else ""))
    parallel(lambda item: build(item, scratch), items, args.jobs)
    if args.emulate and not gpu:
        parallel(lambda item: emulate(item, scratch, args.hang_timeout), items, args.jobs)


if __name__ == "__main__":
    sys.exit(main())
