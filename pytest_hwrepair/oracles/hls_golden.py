"""Steps of an HLS check and the golden outputs they give, built outside any candidate's workspace.

A step is one sandboxed command; a step that names an output keeps it. The golden outputs come from
running the same steps on the case's own sources in a scratch workspace, cached by content hash
(case files, oracle assets, the steps) under the oracle context's cache directory, so the candidate
never sees them and only its own builds and runs cost time.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path

from ..cases import Case
from ..sandbox.base import Execution, Limits, Sandbox
from .base import OracleContext, cached_text, content_hash, populate, resolve_asset, scratch_workspace
from .hls_outputs import Output, output_file, read_output, remove_stale

SANITIZE_FLAGS = "-fsanitize=address,undefined -fno-sanitize-recover=all"
# Set in the step's own command line, after anything the candidate's code could set as defaults:
# every report exits non-zero, leak checks (the drivers never free) are off, memory is bounded by
# the sanitizer because its shadow mapping cannot run under an address-space limit.
SANITIZER_ENV = ("export ASAN_OPTIONS=detect_leaks=0:halt_on_error=1:exitcode=86:abort_on_error=0:"
                 "hard_rss_limit_mb=2048:malloc_limit_mb=2048:allocator_may_return_null=0 "
                 "UBSAN_OPTIONS=halt_on_error=1:exitcode=87:print_stacktrace=0; ")
SANITIZER_REPORTS = ("ERROR: AddressSanitizer", "runtime error:", "ERROR: LeakSanitizer")


class GoldenError(Exception):
    """The case's own sources fail a step: a broken case, never the candidate's fault."""


@dataclass(frozen=True, slots=True)
class Step:
    """One command of a check; `output` (stdout | stderr | file:NAME) is kept when set."""

    label: str
    argv: str
    output: str | None = None
    sanitized: bool = False

    @property
    def command(self) -> str:
        return SANITIZER_ENV + self.argv if self.sanitized else self.argv


@dataclass(frozen=True, slots=True)
class StepResult:
    """A finished step: the execution and, for a step with an output, what it wrote."""

    ex: Execution
    output: Output | None


def run_step(workspace: Path, step: Step, sandbox: Sandbox, timeout: float, limits: Limits) -> StepResult:
    """Run a step in a workspace; a stale copy of its output file is removed first."""
    name = output_file(step.output) if step.output else None
    if name is not None:
        remove_stale(workspace, name)
    if step.sanitized:
        limits = replace(limits, memory=0)  # the shadow memory needs a huge reservation
    ex = sandbox.run(workspace, step.command, timeout=timeout, limits=limits)
    if not ex.ok or step.output is None:
        return StepResult(ex, None)
    return StepResult(ex, read_output(workspace, step.output, ex))


def sanitizer_report(ex: Execution) -> str | None:
    """The first line of a sanitizer report in a run's stderr, else None."""
    for line in ex.stderr.splitlines():
        if any(marker in line for marker in SANITIZER_REPORTS):
            return line.strip()[:200]
    return None


def sanitized_build(build: str) -> str | None:
    """The build with the sanitizer flags after its compiler, or None when it does not start with one."""
    words = build.split(maxsplit=1)
    if not words or Path(words[0]).name.split("-")[0] not in ("gcc", "cc", "clang"):
        return None
    return f"{words[0]} {SANITIZE_FLAGS} {words[1] if len(words) > 1 else ''}".rstrip()


def golden_key(case: Case, *parts: str) -> str:
    """Content hash of what decides the golden outputs: the case, its oracle assets, the steps."""
    assets = [resolve_asset(case, a).read_bytes() for a in case.oracle.assets]
    return content_hash(case.digest, *assets, *parts)


def golden_outputs(case: Case, ctx: OracleContext, sandbox: Sandbox, steps: tuple[Step, ...],
                   timeout: float, kind: str) -> dict[str, str]:
    """The output of every step that keeps one, from the golden sources; cached across processes."""
    key = golden_key(case, kind, json.dumps([(s.label, s.argv, s.output, s.sanitized) for s in steps]))

    def produce() -> str:
        return json.dumps(_run_golden(case, ctx, sandbox, steps, timeout))

    folder = ctx.cache_dir / "golden"
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o700)  # steps run under their own uid: they cannot list or read the golden outputs
    return dict(json.loads(cached_text(folder, key, produce)))


def _run_golden(case: Case, ctx: OracleContext, sandbox: Sandbox, steps: tuple[Step, ...],
                timeout: float) -> dict[str, str]:
    outputs: dict[str, str] = {}
    with scratch_workspace("hwrepair-golden-") as ws:
        populate(ws, case, {n: case.files[n] for n in case.model.sources})
        for step in steps:
            result = run_step(ws, step, sandbox, timeout, ctx.limits)
            problem = _golden_problem(step, result)
            if problem is not None:
                raise GoldenError(f"{case.path}: the golden sources fail {step.label} `{step.argv}`: {problem}")
            if result.output is not None:
                outputs[step.label] = result.output.text
    return outputs


def _golden_problem(step: Step, result: StepResult) -> str | None:
    ex = result.ex
    if step.sanitized and (report := sanitizer_report(ex)):
        return f"sanitizer report: {report}"
    if ex.timed_out:
        return f"timed out after {ex.duration:.1f}s"
    if ex.returncode != 0:
        return f"exit status {ex.returncode}: " + " | ".join(ex.tail(3).splitlines())
    if result.output is not None and result.output.problem is not None:
        return result.output.problem
    return None
