"""The cuda oracle's steps that need no sandbox: anti-cheat, device probe, timed runs and their result file.

A run's verdict is the harness's reading of hwrepair_result.txt, not what the test printed: the harness-owned
test (oracles/cuda/hwrepair_check.cuh) writes every checked output with its mismatch count, tolerance and an
evenly spaced sample of got and expected values, then the kernel time. The oracle re-checks the sample and
compares the expected values with the reference run's, so a candidate that prints "PASSED", exits 0 early or
disturbs the expected values fails. Stdlib only (plus the taxonomy and the untrusted-file reader).
"""

from __future__ import annotations

import ctypes.util
import functools
import math
import os
import re
import shutil
import statistics
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ...sandbox.untrusted import UntrustedFileError, read_untrusted
from .classify import Classification, CudaCategory, Stage, StepLog, classify
from .screen import clean, splice

NO_DEVICE = "no CUDA device: runtime stage skipped (build passed)"
SUSPECT_SPEEDUP = 10.0
RESULT_FILE = "hwrepair_result.txt"
RESULT_CAP = 16 << 20
RESULT_HEADER = "hwrepair-result 1"


def anti_cheat_violation(source: str, blocked: list[str], required: list[str]) -> str | None:
    """Why the candidate's own text breaks the task's rules, or None; comments and literals do not count.
    The first of two screens: `screen_preprocessed` checks the preprocessed code as well."""
    source = splice(source)
    code = clean(source)
    for pattern in blocked:
        match = re.search(pattern, code, re.MULTILINE)
        if match is not None:
            number = code.count("\n", 0, match.start()) + 1
            line = source.splitlines()[number - 1].strip() if source else ""
            return f"anti-cheat: blocked pattern {pattern!r} matches line {number}: {line[:120]}"
    for pattern in required:
        if re.search(pattern, code, re.MULTILINE) is None:
            return f"anti-cheat: required pattern {pattern!r} does not occur in the code"
    return None


def missing_requirements(requires: list[str]) -> list[str]:
    """The libraries a task requires (e.g. "cublas") that this machine does not have."""
    return [name for name in requires if not _library_found(name.removeprefix("lib"))]


def cuda_roots() -> list[str]:
    return [r for r in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda") if r]


def _library_found(stem: str) -> bool:
    return bool(ctypes.util.find_library(stem)) or any(
        any(Path(root, sub).glob(f"lib{stem}.so*"))
        for root in cuda_roots() for sub in ("lib64", "lib", "targets/x86_64-linux/lib", "targets/sbsa-linux/lib"))


@dataclass(frozen=True, slots=True)
class GpuInfo:
    """The device timings are taken on: part of the reference-timing cache key."""

    name: str
    sm: int
    uuid: str
    driver: str
    cuda: str

    @property
    def lock_name(self) -> str:
        return re.sub(r"[^A-Za-z0-9_.-]", "_", self.uuid or self.name)


def device_present(force: object = None) -> bool:
    """Whether a CUDA device can run the test: /dev/nvidia* and `nvidia-smi -L`, unless forced."""
    if force is not None:
        return bool(force)
    if not any(Path("/dev").glob("nvidia[0-9]*")):
        return False
    out = _tool_output(["nvidia-smi", "-L"])
    return out is not None and any(line.startswith("GPU ") for line in out.splitlines())


@functools.cache
def probe_gpu() -> GpuInfo:
    """Name, SM version, UUID and driver of the first visible GPU, and nvcc's release."""
    cuda = nvcc_release()
    out = _tool_output(["nvidia-smi", "--query-gpu=index,uuid,name,compute_cap,driver_version",
                        "--format=csv,noheader"])
    rows = [[cell.strip() for cell in line.split(",")] for line in (out or "").splitlines() if line.count(",") >= 4]
    if not rows:
        return GpuInfo("unknown", 0, "", "", cuda)
    row = _visible(rows)
    major, _, minor = row[3].partition(".")
    sm = int(major) * 10 + int(minor or 0) if major.isdigit() and (minor or "0").isdigit() else 0
    return GpuInfo(row[2], sm, row[1], row[4], cuda)


def _visible(rows: list[list[str]]) -> list[str]:
    wanted = os.environ.get("CUDA_VISIBLE_DEVICES", "").split(",")[0].strip()
    return next((row for row in rows if wanted and (row[0] == wanted or row[1].startswith(wanted))), rows[0])


@functools.cache
def nvcc_release() -> str:
    out = _tool_output(["nvcc", "--version"]) or ""
    match = re.search(r"release (\d+\.\d+)", out)
    return match.group(1) if match else "unknown"


def _tool_output(argv: list[str]) -> str | None:
    if shutil.which(argv[0]) is None:
        return None
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


@dataclass(frozen=True, slots=True)
class TimingStats:
    """Kernel milliseconds of the timed runs."""

    runs: tuple[float, ...]

    @property
    def median(self) -> float:
        return statistics.median(self.runs)

    @property
    def cv(self) -> float:
        mean = statistics.fmean(self.runs)
        return statistics.pstdev(self.runs) / mean if len(self.runs) > 1 and mean > 0 else 0.0

    def to_json(self) -> dict[str, object]:
        return {"runs": list(self.runs), "median": self.median, "cv": self.cv}

    @classmethod
    def from_json(cls, data: dict[str, list[float]]) -> TimingStats:
        return cls(tuple(map(float, data["runs"])))


def parse_timing(pattern: str, text: str) -> float | None:
    """The last `Kernel time`-style value the test printed, in ms."""
    values = re.findall(pattern, text, re.MULTILINE)
    if not values:
        return None
    last = values[-1]  # a tuple when the pattern has groups: the first is the value
    try:
        return float(last[0] if isinstance(last, tuple) else last)
    except ValueError:
        return None


@dataclass(frozen=True, slots=True)
class Measurement:
    classification: Classification
    log: StepLog
    timing: TimingStats | None = None
    failed_run: int = 0

    @property
    def passed(self) -> bool:
        return self.classification.category is CudaCategory.PASSED


@dataclass(frozen=True, slots=True)
class Reading:
    """What the harness read after a run that exited cleanly: a failure, or the measured time."""

    failure: Classification | None = None
    ms: float | None = None


def measure(run_once: Callable[[], StepLog], *, runs: int, timing: str | None, target: str | None,
            read: Callable[[], Reading] | None = None) -> Measurement:
    """A warm-up run that must pass, then `runs` timed runs, each re-checked for correctness. With `read`, a run
    passes only when the harness's own reading of its results does, and the time is the harness's reading too."""
    times: list[float] = []
    for index in range(1 + (runs if timing is not None and runs > 0 else 0)):
        log = run_once()
        verdict = classify(log, target)
        if verdict.category is not CudaCategory.PASSED:
            return Measurement(verdict, log, failed_run=index)
        reading = read() if read is not None else Reading()
        if reading.failure is not None:
            return Measurement(reading.failure, log, failed_run=index)
        if index and timing is not None:
            value = reading.ms if read is not None else parse_timing(timing, log.text)
            if value is None or value <= 0:
                missing = Classification(Stage.RUN, CudaCategory.INTEGRATION, "no_timing",
                                         "the test recorded no positive kernel time" if read is not None else
                                         f"the test printed no positive time matching {timing!r}")
                return Measurement(missing, log, failed_run=index)
            times.append(value)
    return Measurement(verdict, log, TimingStats(tuple(times)) if times else None)


def speedup_metrics(reference: TimingStats, candidate: TimingStats, gate: float) -> dict[str, object]:
    """What the perf gate decided and why: speedup = reference ms / candidate ms."""
    speedup = reference.median / candidate.median
    return {"speedup": round(speedup, 4), "perf_gate": gate, "suspect_speedup": speedup > SUSPECT_SPEEDUP,
            "candidate_ms": candidate.median, "candidate_cv": round(candidate.cv, 4),
            "candidate_runs_ms": list(candidate.runs), "reference_ms": reference.median,
            "reference_cv": round(reference.cv, 4), "reference_runs_ms": list(reference.runs)}


class ResultError(ValueError):
    """The result file is missing, malformed or incomplete."""


@dataclass(frozen=True, slots=True)
class Check:
    """One checked output: its size, the test's own mismatch count, tolerance and sampled values."""

    name: str
    count: int
    bad: int
    atol: float
    rtol: float
    samples: tuple[tuple[int, float, float], ...]


@dataclass(frozen=True, slots=True)
class TestResult:
    checks: tuple[Check, ...]
    ms: float
    mismatches: int


def parse_result(text: str) -> TestResult:
    """The result file's content; raises ResultError when it is not what the harness code writes."""
    lines = text.splitlines()
    if not lines or lines[0] != RESULT_HEADER:
        raise ResultError("it does not start with the harness's header")
    checks: list[Check] = []
    index, ms, end = 1, None, None
    try:
        while index < len(lines):
            words = lines[index].split(" ", 6)
            if words[0] == "check" and len(words) == 7:
                count, bad, atol, rtol, k = int(words[1]), int(words[2]), _num(words[3]), _num(words[4]), int(words[5])
                samples = tuple(_sample(line) for line in lines[index + 1:index + 1 + k])
                if len(samples) != k:
                    raise ResultError(f"check {words[6]!r} announces {k} samples and has {len(samples)}")
                checks.append(Check(words[6], count, bad, atol, rtol, samples))
                index += 1 + k
            elif words[0] == "time" and len(words) == 2 and ms is None:
                ms, index = _num(words[1]), index + 1
            elif words[0] == "end" and len(words) == 2 and index == len(lines) - 1:
                end, index = int(words[1]), index + 1
            else:
                raise ResultError(f"line {index + 1} is not part of the format: {lines[index][:80]!r}")
    except ResultError:
        raise
    except (ValueError, IndexError):
        raise ResultError(f"line {index + 1} is malformed") from None
    if end is None or ms is None:
        raise ResultError("it is incomplete: the test did not reach its end")
    return TestResult(tuple(checks), ms, end)


def _num(word: str) -> float:
    return float.fromhex(word) if "0x" in word.lower() else float(word)


def _sample(line: str) -> tuple[int, float, float]:
    kind, at, got, want = line.split(" ")
    if kind == "f":
        return int(at), _num(got), _num(want)
    if kind == "i":
        return int(at), float(int(got)), float(int(want))
    raise ResultError(f"{line[:80]!r} is not a sample line")


def judge_result(result: TestResult) -> str | None:
    """Why the recorded outputs are wrong, or None; the sample is re-checked here, not trusted."""
    if not result.checks:
        return "the test recorded no checked output"
    total = sum(c.bad for c in result.checks)
    if total or result.mismatches:
        return f"{max(total, result.mismatches)} values outside tolerance (recorded by the test)"
    for check in result.checks:
        if check.count and not check.samples:
            return f"{check.name}: no sampled values"
        for at, got, want in check.samples:
            if not (math.isfinite(got) and abs(got - want) <= check.atol + check.rtol * abs(want)):
                return f"{check.name}[{at}]: got {got:.7g}, expected {want:.7g} (re-checked by the harness)"
    if not (result.ms > 0 and math.isfinite(result.ms)):
        return f"the recorded kernel time {result.ms!r} is not a positive number of milliseconds"
    return None


def same_expectations(candidate: TestResult, reference: TestResult) -> str | None:
    """The expected values are the CPU reference's, the same in every run: a difference is tampering."""
    theirs, ours = ([(c.name, c.count, [(a, w) for a, _, w in c.samples]) for c in r.checks]
                    for r in (candidate, reference))
    return None if theirs == ours else "the test's expected values differ from the reference run's"


class ResultReader:
    """One workspace's result file: cleared before each run, read and re-checked after it."""

    def __init__(self, workspace: Path) -> None:
        self.workspace = workspace
        self.last: TestResult | None = None

    def clear(self) -> None:
        """A run must write its own result: one left by an earlier run never counts."""
        (self.workspace / RESULT_FILE).unlink(missing_ok=True)

    def read(self) -> Reading:
        try:
            got = read_untrusted(self.workspace, RESULT_FILE, RESULT_CAP)
            if got.truncated:
                return _wrong("bad_result", f"{RESULT_FILE} is over {RESULT_CAP} bytes")
            result = parse_result(got.text)
        except FileNotFoundError:
            return _wrong("no_result", f"the test exited 0 without writing {RESULT_FILE}: what it printed "
                          "is not a verdict")
        except (OSError, UntrustedFileError, ResultError) as exc:
            return _wrong("bad_result", f"{RESULT_FILE}: {exc}")
        reason = judge_result(result)
        if reason is not None:
            return _wrong("result_check", reason)
        self.last = result
        return Reading(None, result.ms)


def _wrong(rule: str, evidence: str) -> Reading:
    """A run that exited 0 without a verified right result: a wrong answer, whatever the test printed."""
    return Reading(Classification(Stage.RUN, CudaCategory.FUNCTIONAL_CORRECTNESS, rule, evidence))
