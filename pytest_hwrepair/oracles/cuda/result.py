"""The CUDA test's verdict as the harness reads it: hwrepair_result.txt, not the printed lines.

The harness-owned test (oracles/cuda/hwrepair_check.cuh) writes every checked output with its
mismatch count, tolerance and an evenly spaced sample of got and expected values, then the kernel
time. The oracle re-checks the sample itself and compares the expected values with the reference
run's, so a candidate that prints "PASSED", exits 0 early or disturbs the expected values fails.

Stdlib only: the GPU validation script can run the same code.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

RESULT_FILE = "hwrepair_result.txt"
RESULT_CAP = 16 << 20
HEADER = "hwrepair-result 1"


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
    """Everything the test recorded in one run."""

    checks: tuple[Check, ...]
    ms: float
    mismatches: int


def parse_result(text: str) -> TestResult:
    """The result file's content; raises ResultError when it is not what the harness code writes."""
    lines = text.splitlines()
    if not lines or lines[0] != HEADER:
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
    except (ValueError, IndexError) as exc:
        if isinstance(exc, ResultError):
            raise
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
    theirs = [(c.name, c.count, [(a, w) for a, _, w in c.samples]) for c in candidate.checks]
    ours = [(c.name, c.count, [(a, w) for a, _, w in c.samples]) for c in reference.checks]
    if theirs != ours:
        return "the test's expected values differ from the reference run's"
    return None


__all__ = ["RESULT_CAP", "RESULT_FILE", "Check", "ResultError", "TestResult", "judge_result", "parse_result",
           "same_expectations"]
