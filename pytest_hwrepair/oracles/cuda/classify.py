"""The CUDA debugging taxonomy: one build or run log in, one of eight categories out.

Per line, the first matching rule of the stage decides; one category over all lines decides the step, two make
it `unclassified`, none falls back to the exit status. Timeouts come only from the step's deadline or the
runtime's watchdog message, never from a line that says "killed" or "timeout". Stdlib only (plus the verdict
enums): the GPU validation script loads it without the harness's dependencies.
"""

from __future__ import annotations

import enum
import re
import signal as signals
from dataclasses import dataclass

from ...sandbox.process import signal_of as signal_of  # re-exported: the GPU validation script reads it here
from ...verdict import Category


class CudaCategory(enum.StrEnum):
    """The 8-category CUDA debugging taxonomy (DESIGN §8), plus `unclassified`."""

    ENVIRONMENT_DEPENDENCY = "environment_dependency"
    INTEGRATION = "integration"
    BUILDABILITY = "buildability"
    OUT_OF_MEMORY = "out_of_memory"
    ILLEGAL_MEMORY_ACCESS = "illegal_memory_access"
    TIMEOUT = "timeout"
    FUNCTIONAL_CORRECTNESS = "functional_correctness"
    PASSED = "passed"
    UNCLASSIFIED = "unclassified"


class Stage(enum.StrEnum):
    BUILD = "build"
    RUN = "run"


@dataclass(frozen=True, slots=True)
class StepLog:
    stage: Stage
    text: str
    returncode: int | None
    timed_out: bool = False
    signal: int | None = None


@dataclass(frozen=True, slots=True)
class Rule:
    """A line pattern; `harness_fault` marks failures the candidate cannot cause."""

    name: str
    category: CudaCategory
    pattern: re.Pattern[str]
    harness_fault: bool = False


@dataclass(frozen=True, slots=True)
class Classification:
    stage: Stage
    category: CudaCategory
    rule: str
    evidence: str = ""
    matched: tuple[str, ...] = ()
    harness_fault: bool = False

    @property
    def harness_category(self) -> Category:
        if self.category is CudaCategory.UNCLASSIFIED:
            return Category.COMPILE_FAIL if self.stage is Stage.BUILD else Category.RUNTIME_CRASH
        table = _BUILD_CATEGORIES if self.stage is Stage.BUILD else _RUN_CATEGORIES
        return table[self.category]

    def to_json(self) -> dict[str, object]:
        return {"stage": self.stage.value, "category": self.category.value, "rule": self.rule,
                "evidence": self.evidence, "matched": list(self.matched), "harness_fault": self.harness_fault}


C = CudaCategory
_BUILD_CATEGORIES = {
    C.ENVIRONMENT_DEPENDENCY: Category.COMPILE_FAIL, C.INTEGRATION: Category.COMPILE_FAIL,
    C.BUILDABILITY: Category.COMPILE_FAIL, C.OUT_OF_MEMORY: Category.COMPILE_FAIL,
    C.TIMEOUT: Category.TIMEOUT, C.PASSED: Category.PASS,
}
_RUN_CATEGORIES = {
    C.ENVIRONMENT_DEPENDENCY: Category.RUNTIME_CRASH, C.INTEGRATION: Category.RUNTIME_CRASH,
    C.OUT_OF_MEMORY: Category.RUNTIME_CRASH, C.ILLEGAL_MEMORY_ACCESS: Category.RUNTIME_CRASH,
    C.TIMEOUT: Category.TIMEOUT, C.FUNCTIONAL_CORRECTNESS: Category.TEST_FAIL, C.PASSED: Category.PASS,
}

# What each bucket of a broken start (DESIGN §3) must be classified as.
BUCKET_CATEGORIES: dict[str, frozenset[CudaCategory]] = {
    "compile_error": frozenset({C.BUILDABILITY, C.INTEGRATION}),
    "logic_error": frozenset({C.FUNCTIONAL_CORRECTNESS}),
    "memory_crash": frozenset({C.ILLEGAL_MEMORY_ACCESS, C.OUT_OF_MEMORY}),
    "timeout": frozenset({C.TIMEOUT}),
    "perf_broken": frozenset({C.PASSED}),
}
BUCKET_HARNESS_CATEGORY: dict[str, Category] = {
    "compile_error": Category.COMPILE_FAIL, "logic_error": Category.TEST_FAIL,
    "memory_crash": Category.RUNTIME_CRASH, "timeout": Category.TIMEOUT, "perf_broken": Category.PERF_FAIL,
}


def _rule(name: str, category: CudaCategory, pattern: str, *, harness_fault: bool = False,
          flags: int = 0) -> Rule:
    return Rule(name, category, re.compile(pattern, flags), harness_fault)


def _names(*names: str) -> str:
    """An alternation of cudaError names, each a whole word."""
    return r"\bcudaError(?:" + "|".join(names) + r")\b"


# A test or build step written in Python that imports what this machine does not have (torch, numpy).
_PY_MODULE = r"\bModuleNotFoundError\b|\bNo module named\b"

# Diagnostics that name a source location: the location decides integration vs buildability.
_LOCATED = ("compiler_error", "host_compiler_error")

BUILD_RULES: tuple[Rule, ...] = (
    _rule("nvcc_missing", C.ENVIRONMENT_DEPENDENCY, r"\bnvcc: (?:command )?not found\s*$", harness_fault=True),
    _rule("unsupported_arch", C.ENVIRONMENT_DEPENDENCY, r"^nvcc fatal\s*: Unsupported gpu architecture",
          harness_fault=True),
    _rule("unsupported_host_compiler", C.ENVIRONMENT_DEPENDENCY,
          r"#error -- unsupported (?:GNU|clang|Microsoft Visual Studio) version", harness_fault=True),
    _rule("missing_header", C.ENVIRONMENT_DEPENDENCY,
          r"^\S+:\d+:(?:\d+:)? fatal error: (?P<missing>[^:]+): No such file or directory"
          r"|^\S+\(\d+\): catastrophic error: cannot open source file \"(?P<missing2>[^\"]+)\""),
    _rule("missing_library", C.ENVIRONMENT_DEPENDENCY, r"^\S*\bld(?:\.\w+)?: cannot find -l\S+"),
    _rule("missing_python_module", C.ENVIRONMENT_DEPENDENCY, _PY_MODULE),
    _rule("too_much_shared_memory", C.OUT_OF_MEMORY,
          r"^ptxas (?:error|fatal)\s*: .*uses too much (?:shared|local|param) data"),
    _rule("compiler_out_of_memory", C.OUT_OF_MEMORY,
          r"^nvcc error\s*: '\w+' died due to signal 9\b|\bvirtual memory exhausted\b"
          r"|\bout of memory allocating \d+ bytes"),
    _rule("undefined_reference", C.INTEGRATION, r": undefined reference to [`']"),
    _rule("multiple_definition", C.INTEGRATION, r": multiple definition of [`']"),
    _rule("nvlink_error", C.INTEGRATION, r"^nvlink (?:error|fatal)\s*:"),
    _rule("compiler_error", C.BUILDABILITY,
          r"^(?P<file>[^\s(]+)\((?P<line>\d+)\): (?:error|catastrophic error)\b"),
    _rule("end_of_source_error", C.BUILDABILITY, r"^At end of source: (?:error|catastrophic error)\b"),
    _rule("host_compiler_error", C.BUILDABILITY, r"^(?P<file>[^\s:]+):(?P<line>\d+):(?:\d+:)? (?:fatal )?error:"),
    _rule("ptxas_error", C.BUILDABILITY, r"^ptxas (?:error|fatal)\s*:"),
    _rule("nvcc_error", C.BUILDABILITY, r"^nvcc (?:error|fatal)\s*:"),
)

RUN_RULES: tuple[Rule, ...] = (
    _rule("no_device", C.ENVIRONMENT_DEPENDENCY, r"no CUDA-capable device is detected|" + _names("NoDevice"),
          harness_fault=True),
    _rule("driver", C.ENVIRONMENT_DEPENDENCY,
          r"CUDA driver version is insufficient for CUDA runtime version"
          r"|system has unsupported display driver / cuda driver combination"
          r"|CUDA driver is a stub library|CUDA-capable device\(s\) is/are busy or unavailable|"
          + _names("InsufficientDriver", "SystemDriverMismatch", "StubLibrary", "DevicesUnavailable",
                   "CallRequiresNewerDriver", "CompatNotSupportedOnDevice"),
          harness_fault=True),
    _rule("kernel_image", C.ENVIRONMENT_DEPENDENCY,
          r"no kernel image is available for execution on the device|PTX JIT compiler library not found"
          r"|the provided PTX was compiled with an unsupported toolchain|"
          + _names("NoKernelImageForDevice", "UnsupportedPtxVersion", "JitCompilerNotFound",
                   "JitCompilationDisabled", "InvalidKernelImage"),
          harness_fault=True),
    _rule("hardware_fault", C.ENVIRONMENT_DEPENDENCY,
          r"uncorrectable ECC error encountered|uncorrectable NVLink error|"
          + _names("ECCUncorrectable", "NvlinkUncorrectable", "Contained"),
          harness_fault=True),
    _rule("shared_library", C.ENVIRONMENT_DEPENDENCY, r"error while loading shared libraries:"),
    _rule("missing_python_module", C.ENVIRONMENT_DEPENDENCY, _PY_MODULE),
    _rule("illegal_address", C.ILLEGAL_MEMORY_ACCESS,
          r"an illegal memory access was encountered|" + _names("IllegalAddress")),
    _rule("misaligned_address", C.ILLEGAL_MEMORY_ACCESS, r"\bmisaligned address\b|" + _names("MisalignedAddress")),
    _rule("launch_failure", C.ILLEGAL_MEMORY_ACCESS,
          r"unspecified launch failure|" + _names("LaunchFailure", "PriorLaunchFailure")),
    _rule("illegal_instruction", C.ILLEGAL_MEMORY_ACCESS,
          r"an illegal instruction was encountered|invalid program counter|hardware stack error"
          r"|operation not supported on global/shared address space|"
          + _names("IllegalInstruction", "InvalidPc", "HardwareStackError", "InvalidAddressSpace")),
    _rule("sanitizer_access", C.ILLEGAL_MEMORY_ACCESS,
          r"^=+\s+(?:Invalid __(?:global|shared|local)__ (?:read|write|atomic)"
          r"|(?:Out-of-range|Misaligned) Shared or Local Address"
          r"|Address 0x[0-9a-fA-F]+ is (?:out of bounds|misaligned))"),
    _rule("host_segfault", C.ILLEGAL_MEMORY_ACCESS, r"^(?:.*:\s+(?:\d+\s+)?)?(?:Segmentation fault|Bus error)\b"),
    _rule("gpu_out_of_memory", C.OUT_OF_MEMORY,
          _names("MemoryAllocation") + r"|(?i:\bcuda\w*\b[^\n]*\bout of memory\b)"),
    _rule("host_out_of_memory", C.OUT_OF_MEMORY, r"\bstd::bad_alloc\b"),
    _rule("watchdog", C.TIMEOUT, r"the launch timed out and was terminated|" + _names("LaunchTimeout")),
    _rule("launch_configuration", C.INTEGRATION,
          r"invalid configuration argument|too many resources requested for launch|invalid device function"
          r"|__global__ function call is not configured|too many blocks in cooperative launch|"
          + _names("InvalidConfiguration", "LaunchOutOfResources", "InvalidDeviceFunction",
                   "MissingConfiguration", "CooperativeLaunchTooLarge", "InvalidClusterSize")),
    _rule("api_misuse", C.INTEGRATION,
          _names("InvalidValue", "InvalidDevicePointer", "InvalidHostPointer", "InvalidMemcpyDirection",
                 "InvalidSymbol", "InvalidResourceHandle", "InvalidPitchValue", "InvalidDevice")
          + r"|(?i:\bcuda\w*\b[^\n]*\binvalid argument\b)"),
    _rule("device_assert", C.FUNCTIONAL_CORRECTNESS,
          r"device-side assert triggered|" + _names("Assert")
          + r"|block: \[\d+,\d+,\d+\], thread: \[\d+,\d+,\d+\] Assertion .* failed"),
    _rule("host_assert", C.FUNCTIONAL_CORRECTNESS, r"^.*: Assertion [`'].*' failed\.?\s*$"),
    _rule("harness_mismatch", C.FUNCTIONAL_CORRECTNESS,
          r"^\s*(?:MISMATCH|Mismatch|FAILED|FAIL|TEST FAILED)\b|^\s*Result\s*[=:]\s*FAIL"),
    _rule("sanitizer_race", C.FUNCTIONAL_CORRECTNESS, r"^=+\s+(?:Error: )?(?:Race reported|Barrier error)"),
)

RULES: dict[Stage, tuple[Rule, ...]] = {Stage.BUILD: BUILD_RULES, Stage.RUN: RUN_RULES}

_SIGNAL_FALLBACK: dict[int, CudaCategory] = {
    signals.SIGSEGV: C.ILLEGAL_MEMORY_ACCESS,
    signals.SIGBUS: C.ILLEGAL_MEMORY_ACCESS,
    signals.SIGXCPU: C.TIMEOUT,
    # Nothing in the harness sends SIGKILL except on a deadline (reported as timed out);
    # otherwise it is the kernel's out-of-memory killer.
    signals.SIGKILL: C.OUT_OF_MEMORY,
}


def classify(log: StepLog, target: str | None = None) -> Classification:
    """The category of one build or run step; `target` is the candidate's file name."""
    if log.timed_out:
        return Classification(log.stage, C.TIMEOUT, "deadline", f"{log.stage.value} step exceeded its time limit")
    hits: list[tuple[CudaCategory, Rule, str]] = []
    for line in log.text.splitlines():
        for rule in RULES[log.stage]:
            match = rule.pattern.search(line)
            if match is not None:
                hits.append((_located_category(rule, match, target), rule, line.strip()[:240]))
                break
    if not hits:
        return _fallback(log)
    categories = {category for category, _, _ in hits}
    names = tuple(dict.fromkeys(rule.name for _, rule, _ in hits))
    if len(categories) > 1:
        found = ", ".join(sorted(c.value for c in categories))
        return Classification(log.stage, C.UNCLASSIFIED, "ambiguous", f"matched {found}", names)
    category, rule, line = hits[0]
    return Classification(log.stage, category, rule.name, line, names, any(r.harness_fault for _, r, _ in hits))


def _located_category(rule: Rule, match: re.Match[str], target: str | None) -> CudaCategory:
    """Integration when the harness cannot see or compile with the candidate: a compiler error inside another
    workspace file (the test harness) or a missing candidate file; errors in system headers keep the rule's."""
    if target is None:
        return rule.category
    own = target.rsplit("/", 1)[-1]
    if rule.name == "missing_header":
        missing = match.group("missing") or match.group("missing2") or ""
        return C.INTEGRATION if missing.rsplit("/", 1)[-1] == own else rule.category
    if rule.name not in _LOCATED:
        return rule.category
    where = match.group("file")
    if where.startswith(("/", "..")) or "/include/" in where:
        return rule.category
    return rule.category if where.rsplit("/", 1)[-1] == own else C.INTEGRATION


def _fallback(log: StepLog) -> Classification:
    if log.returncode == 0 and log.signal is None:
        return Classification(log.stage, C.PASSED, "fallback:exit-0")
    if log.stage is Stage.BUILD:
        return Classification(log.stage, C.BUILDABILITY, f"fallback:exit-{log.returncode}")
    if log.signal is not None:
        category = _SIGNAL_FALLBACK.get(log.signal, C.FUNCTIONAL_CORRECTNESS)
        return Classification(log.stage, category, f"fallback:signal-{_signal_name(log.signal)}")
    return Classification(log.stage, C.FUNCTIONAL_CORRECTNESS, f"fallback:exit-{log.returncode}")


def _signal_name(number: int) -> str:
    try:
        return signals.Signals(number).name
    except ValueError:
        return str(number)

