"""Steps of an HLS check, the outputs they give, read as untrusted data, and the golden outputs to compare with.

The golden outputs come from the same steps run on the case's own sources in a scratch workspace, cached by
content hash (case files, oracle assets, the steps) in a cache directory the candidate never sees.
"""

from __future__ import annotations

import itertools
import json
import math
import re
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from ...cases.case import Case
from ...sandbox import scratch
from ...sandbox.base import Command, Execution, Limits, Sandbox, run_commands
from ...sandbox.untrusted import READ_CAP, UntrustedFileError, read_untrusted
from ..base import OracleContext, cached_text, content_hash, populate, remove_tree, resolve_asset, scratch_workspace
from .builds import MAX_BYTES, copy_tree, restore_tree

SHOWN_TOKEN = 40
_NUMBER = re.compile(r"^[-+]?(\d+\.?\d*([eE][-+]?\d+)?|\.\d+([eE][-+]?\d+)?|inf|nan|infinity)$", re.IGNORECASE)
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
    # Runs in the workspace as it was before the first step: a build after a candidate's program ran must
    # compile the candidate's sources, not what that program wrote over them.
    fresh: bool = False
    # Runs without the address-space limit, which the sanitizer's shadow mapping cannot run under.
    shadow: bool = False

    @property
    def command(self) -> str:
        return SANITIZER_ENV + self.argv if self.sanitized else self.argv


@dataclass(frozen=True, slots=True)
class StepResult:
    ex: Execution
    output: Output | None


def run_steps(workspace: Path, steps: Sequence[Step], sandbox: Sandbox, timeout: float, limits: Limits, *,
              pristine: Path | None = None,
              prepare: Callable[[Path, Step], Step] | None = None) -> Iterator[StepResult]:
    """Each step's result, the steps run in turn in a workspace, each for at most `timeout` and without a stale
    copy of its output file.

    Consecutive steps under the same limits run as one batch (one closed step where the sandbox can, see
    sandbox/base.py), which ends at its first failing step; a caller that stops iterating starts no later
    batch. A `fresh` step starts a batch in the workspace restored from `pristine` (a copy from before the first
    step, taken here when not given). `prepare` may rewrite the first step of each batch just before it runs,
    laying out in the workspace what the rewritten step needs."""
    own = pristine is None and any(step.fresh for step in steps[1:])
    if own:
        pristine = pristine_copy(workspace)
    try:
        index = 0
        while index < len(steps):
            first = steps[index]
            group = [first]
            while index + len(group) < len(steps) and steps[index + len(group)].shadow == first.shadow \
                    and not steps[index + len(group)].fresh:
                group.append(steps[index + len(group)])
            if first.fresh and pristine is not None:
                restore_tree(pristine, workspace)
            if prepare is not None:
                group[0] = prepare(workspace, first)
            index += len(group)
            results = _run_group(workspace, group, sandbox, timeout,
                                 replace(limits, memory=0) if first.shadow else limits)
            yield from results
            if len(results) < len(group) or not results[-1].ex.ok:
                return
    finally:
        if own and pristine is not None:
            remove_tree(pristine)


def pristine_copy(workspace: Path) -> Path:
    """A copy of the workspace in a scratch directory no step sees; the caller removes it."""
    copy = scratch.make("hwrepair-pristine-")
    if not copy_tree(workspace, copy):
        remove_tree(copy)
        raise GoldenError(f"the workspace holds more than {MAX_BYTES >> 20} MiB or a file that is not a regular "
                          "one: it cannot be restored for the steps that build afresh")
    return copy


def _run_group(workspace: Path, group: list[Step], sandbox: Sandbox, timeout: float,
               limits: Limits) -> list[StepResult]:
    commands = [Command(step.command, output_file(step.output) if step.output else None) for step in group]
    # Only steps that compare a file keep one: stdout and stderr come back with their Execution.
    kept = Path(tempfile.mkdtemp(prefix=".hwrepair-kept-", dir=workspace.parent)) if any(
        c.keep for c in commands) else None
    try:
        done = run_commands(sandbox, workspace, commands, timeout=timeout, limits=limits, kept=kept)
        return [StepResult(ex, None if not ex.ok or step.output is None else
                           read_output(kept / str(number) if kept else workspace, step.output, ex))
                for number, (step, ex) in enumerate(zip(group, done), 1)]
    finally:
        if kept is not None:
            remove_tree(kept)


def sanitizer_report(ex: Execution) -> str | None:
    """The first line of a sanitizer report in a run's stderr, else None."""
    found = (line for line in ex.stderr.splitlines() if any(marker in line for marker in SANITIZER_REPORTS))
    return next((line.strip()[:200] for line in found), None)


def sanitized_build(build: str) -> str | None:
    """The build with the sanitizer flags after its compiler, or None when it does not start with one."""
    words = build.split(maxsplit=1)
    if not words or Path(words[0]).name.split("-")[0] not in ("gcc", "cc", "clang"):
        return None
    return f"{words[0]} {SANITIZE_FLAGS} {words[1] if len(words) > 1 else ''}".rstrip()


def golden_outputs(case: Case, ctx: OracleContext, sandbox: Sandbox, steps: tuple[Step, ...],
                   timeout: float, kind: str) -> dict[str, str]:
    """The output of every step that keeps one, from the golden sources; cached across processes."""
    described = [(s.label, s.argv, s.output, s.sanitized, s.fresh, s.shadow) for s in steps]
    assets = [resolve_asset(case, a).read_bytes() for a in case.oracle.assets]
    key = content_hash(case.digest, *assets, kind, json.dumps(described))
    folder = ctx.cache_dir / "golden"
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o700)  # steps run under their own uid: they cannot list or read the golden outputs
    produced = cached_text(folder, key, lambda: json.dumps(_run_golden(case, ctx, sandbox, steps, timeout)))
    return dict(json.loads(produced))


def _run_golden(case: Case, ctx: OracleContext, sandbox: Sandbox, steps: tuple[Step, ...],
                timeout: float) -> dict[str, str]:
    outputs: dict[str, str] = {}
    with scratch_workspace("hwrepair-golden-") as ws:
        populate(ws, case, {n: case.files[n] for n in case.model.sources})
        ran = 0
        for step, result in zip(steps, run_steps(ws, steps, sandbox, timeout, ctx.limits)):
            ran += 1
            problem = _golden_problem(step, result)
            if problem is not None:
                raise GoldenError(f"{case.path}: the golden sources fail {step.label} `{step.argv}`: {problem}")
            if result.output is not None:
                outputs[step.label] = result.output.text
        assert ran == len(steps), "every golden step ran"
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


@dataclass(frozen=True, slots=True)
class Output:
    text: str = ""
    problem: str | None = None


def output_file(compare: str) -> str | None:
    """The workspace file a `compare` spec names (`file:NAME`), else None for stdout / stderr."""
    return compare.removeprefix("file:") if compare.startswith("file:") else None


def read_output(workspace: Path, compare: str, ex: Execution, cap: int = READ_CAP) -> Output:
    """The output a run produced for `compare`; a link, FIFO, directory or oversized file is a problem."""
    name = output_file(compare)
    if name is None:
        if ex.truncated:
            return Output(problem=f"{compare} exceeded the capture limit")
        return Output(ex.stderr if compare == "stderr" else ex.stdout)
    try:
        got = read_untrusted(workspace, name, cap, whole=True)
    except UntrustedFileError as exc:
        return Output(problem=f"output {exc}; it is not read")
    except FileNotFoundError:
        return Output(problem=f"output file {name!r} missing")
    except OSError as exc:
        return Output(problem=f"output file {name!r} cannot be read safely ({exc.strerror or exc})")
    if got.truncated:
        return Output(problem=f"output file {name!r} is larger than the {cap >> 20} MiB read cap")
    return Output(got.text)


def show(token: str) -> str:
    """A token of untrusted output as it may appear in a summary: quoted and capped."""
    return repr(token if len(token) <= SHOWN_TOKEN else token[:SHOWN_TOKEN] + "...")


def compare_outputs(expected: str, got: str, tol: float, rel: float) -> str | None:
    """None when equal; else a one-line description of the first difference."""
    if got == expected:  # the same text has the same tokens; splitting megabytes of it took tens of ms a check
        return None
    exp_tokens, got_tokens = expected.split(), got.split()
    if exp_tokens == got_tokens:
        return None
    for index, (a, b) in enumerate(zip(exp_tokens, got_tokens)):
        if a == b:
            continue
        if _NUMBER.match(a) and _NUMBER.match(b) and _close(float(a), float(b), tol, rel):
            continue
        line = _line_of(expected, index)
        where = f"line {line}" + (f", in {section}" if (section := _section_of(expected, line)) else "")
        return f"first mismatch at token {index + 1} ({where}): expected {show(a)}, got {show(b)}"
    if len(exp_tokens) != len(got_tokens):
        return f"output has {len(got_tokens)} tokens, the reference has {len(exp_tokens)}"
    return None


def _close(a: float, b: float, tol: float, rel: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= tol or abs(a - b) <= rel * abs(a)


def _line_of(text: str, token_index: int) -> int:
    lines = text.splitlines()
    counts = itertools.accumulate(len(line.split()) for line in lines)
    return next((number for number, count in enumerate(counts, 1) if count > token_index), len(lines))


def _section_of(text: str, line: int) -> str | None:
    """The `@name` header above a line, for outputs written in sections (the mach data format)."""
    return next((row.split()[0] for row in reversed(text.splitlines()[:line]) if row.startswith("@")), None)
