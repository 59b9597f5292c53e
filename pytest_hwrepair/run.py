"""One sample (repeated protocol) or one trajectory (iterative protocol), independent of pytest."""

from __future__ import annotations

import difflib
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
import traceback
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .cases import Bug, Case
from .fixers.base import Attempt, Candidate, Fixer, FixerError, FixerUnavailable, RepairTask
from .oracles import Oracle, OracleContext, make_oracle
from .oracles.base import content_hash, locked, populate
from .oracles.rtl import strong_result
from .results import RunDir, SampleRecord, now, patch_sha, sample_key
from .sandbox.base import Sandbox
from .verdict import Category, Outcome, Verdict

DIFF_LINES = 80
STOP_SIGNALS = ("duplicate_code", "code_cycle", "category_oscillation", "no_progress")


@dataclass(frozen=True)
class SampleSpec:
    """Which sample an item stands for."""

    case: Case
    bug: Bug
    fixer: str
    sample: int
    protocol: str
    nodeid: str = ""

    @property
    def case_ref(self) -> str:
        return f"{self.case.domain}/{self.case.suite}/{self.case.id}"


@dataclass
class Harness:
    """Session services shared by every sample of a process."""

    run_dir: RunDir
    sandbox: Sandbox
    oracle_ctx: OracleContext
    input_arm: str = "code"
    iterations: int = 5
    history: int = 4
    feedback: str = "L3"
    seed: int = 0
    finished: dict[str, list[SampleRecord]] = field(default_factory=dict)
    verdict_cache: bool = True

    def protocol_config(self, protocol: str) -> dict[str, Any]:
        cfg: dict[str, Any] = {"protocol": protocol, "input": self.input_arm}
        if protocol == "iterative":
            cfg.update(iterations=self.iterations, history=self.history, feedback=self.feedback)
        return cfg


@dataclass
class SampleResult:
    """What the item reports: the records, the deciding verdict, and the material for a failure report."""

    records: list[SampleRecord]
    verdict: Verdict
    diff: str = ""
    artifact: Path | None = None
    resumed: bool = False


def execute(spec: SampleSpec, fixer: Fixer, harness: Harness, oracle: Oracle | None = None) -> SampleResult:
    """Run (or resume) one sample or trajectory and append its records to the run directory."""
    from .fixers import fixer_config

    key = sample_key(case_digest=spec.case.digest, bug=spec.bug.id, oracle=spec.case.oracle.model_dump(mode="json"),
                     fixer=fixer_config(fixer), protocol=harness.protocol_config(spec.protocol),
                     sample=spec.sample)
    done = harness.finished.get(key)
    if done:
        final = done[-1]
        verdict = Verdict(Outcome(final.outcome), Category(final.category), final.summary or final.category,
                          metrics=dict(final.metrics))
        artifact = harness.run_dir.artifacts / final.artifact if final.artifact else None
        diff = _read(artifact / "candidate.diff") if artifact else ""
        return SampleResult(done, verdict, diff, artifact, resumed=True)
    oracle = oracle or make_oracle(spec.case, harness.oracle_ctx)
    runner = _Trajectory(spec, fixer, harness, oracle, key)
    return runner.run()


class _Trajectory:
    """Attempts for one key: one attempt under `repeated`, up to K under `iterative`."""

    def __init__(self, spec: SampleSpec, fixer: Fixer, harness: Harness, oracle: Oracle, key: str) -> None:
        self.spec, self.fixer, self.harness, self.oracle, self.key = spec, fixer, harness, oracle, key
        self.exec_id = uuid.uuid4().hex[:12]
        self.buggy = spec.case.buggy_files(spec.bug)
        self.artifact = harness.run_dir.artifact_dir(key)

    def run(self) -> SampleResult:
        iterative = self.spec.protocol == "iterative"
        limit = self.harness.iterations if iterative else 1
        history: list[Attempt] = []
        records: list[SampleRecord] = []
        hashes: list[str | None] = []
        categories: list[str] = []
        signatures: list[str] = []
        stop: str | None = None
        verdict, diff = Verdict.error("no attempt was made"), ""
        for attempt in range(limit):
            task = self._task(attempt, tuple(history[-self.harness.history:]) if self.harness.history else ())
            folder = self.artifact / f"iter-{attempt}" if iterative else self.artifact
            verdict, candidate, text, diff, strong, fix_s = self._attempt(task, folder)
            hashes.append(patch_sha(text) if text is not None else None)
            categories.append(verdict.category.value)
            signatures.append(_signature(verdict))
            last = attempt == limit - 1 or verdict.outcome is not Outcome.FAILED
            if not last and iterative:
                stop = stagnation(hashes, categories, signatures)
                last = stop is not None
            if last and iterative and stop is None:
                stop = "passed" if verdict.passed else ("budget" if verdict.outcome is Outcome.FAILED
                                                        else verdict.outcome.value)
            records.append(self._record(attempt if iterative else None, verdict, candidate, hashes[-1], strong,
                                        fix_s, final=last, stop=stop, folder=folder))
            if last:
                break
            history.append(Attempt(text or candidate.raw, verdict.category.value,
                                   feedback_message(verdict, self.harness.feedback, text)))
        if verdict.outcome is not Outcome.SKIPPED:
            self.harness.run_dir.append(records)
        return SampleResult(records, verdict, diff, self.artifact)

    def _task(self, attempt: int, history: tuple[Attempt, ...]) -> RepairTask:
        return build_task(self.spec, self.harness, attempt, history, self.buggy)

    def _attempt(self, task: RepairTask, folder: Path) -> tuple[Verdict, Candidate, str | None, str, bool | None,
                                                                  float]:
        start = time.monotonic()
        try:
            candidate = self.fixer.repair(task)
        except FixerUnavailable as exc:
            return Verdict.skip(str(exc)), Candidate(), None, "", None, 0.0
        except FixerError as exc:
            # Requests that never succeeded still count in the run's retry totals.
            failed = Candidate(retries=dict(getattr(exc, "retries", None) or {}))
            return Verdict.error(f"fixer error: {exc}"), failed, None, "", None, time.monotonic() - start
        except Exception as exc:  # a fixer bug must not look like a wrong repair
            tb = traceback.format_exc(limit=5)
            return (Verdict.error(f"fixer raised {type(exc).__name__}: {exc}", log_tail=tb), Candidate(), None, "",
                    None, time.monotonic() - start)
        fix_s = candidate.latency or (time.monotonic() - start)
        folder.mkdir(parents=True, exist_ok=True)
        _save_candidate(folder, task, candidate)
        text = self._candidate_text(task, candidate)
        if text is None:
            reason = candidate.parse_error or "no code could be extracted from the response"
            return Verdict.fail(Category.PARSE_FAIL, reason), candidate, None, "", None, fix_s
        diff = unified_diff(self.buggy[task.target], text, task.target)
        (folder / "candidate.diff").write_text(diff, encoding="utf-8")
        verdict, strong = self._judge(task, text)
        (folder / "verdict.json").write_text(json.dumps(verdict.to_json(), indent=2), encoding="utf-8")
        if verdict.log_tail:
            (folder / "oracle.log").write_text(verdict.log_tail, encoding="utf-8")
        return verdict, candidate, text, diff, strong, fix_s

    def _candidate_text(self, task: RepairTask, candidate: Candidate) -> str | None:
        if not candidate.parsed:
            return None
        if task.target in candidate.files:
            return candidate.files[task.target]
        if candidate.diff:
            return apply_diff(self.buggy[task.target], candidate.diff, task.target)
        return None

    def _judge(self, task: RepairTask, text: str) -> tuple[Verdict, bool | None]:
        """The oracle's verdict; an identical workspace already judged in this run reuses its verdict."""
        case = self.spec.case
        if not self.harness.verdict_cache or case.domain == "cuda":  # timings do not repeat
            return self._judge_fresh(task, text)
        files = {**self.buggy, task.target: text}
        options = json.dumps(self.harness.oracle_ctx.options, sort_keys=True, default=str)
        key = content_hash(case.digest, json.dumps(case.oracle.model_dump(mode="json"), sort_keys=True),
                           json.dumps(files, sort_keys=True), options)
        path = self.harness.run_dir.path / "verdicts" / f"{key}.json"
        with locked(path.with_suffix(".lock")):
            if path.exists():
                saved = json.loads(path.read_text(encoding="utf-8"))
                verdict = Verdict.from_json(saved["verdict"]).with_metrics(verdict_reused=True)
                return verdict, saved["strong"]
            verdict, strong = self._judge_fresh(task, text)
            if verdict.outcome is not Outcome.ERROR:
                tmp = path.with_suffix(f".tmp{os.getpid()}")
                tmp.write_text(json.dumps({"verdict": verdict.to_json(), "strong": strong}), encoding="utf-8")
                os.replace(tmp, path)
            return verdict, strong

    def _judge_fresh(self, task: RepairTask, text: str) -> tuple[Verdict, bool | None]:
        case = self.spec.case
        with tempfile.TemporaryDirectory(prefix="hwrepair-ws-") as tmp:
            ws = Path(tmp)
            populate(ws, case, {**self.buggy, task.target: text})
            verdict = _guarded(lambda: self.oracle.check(ws, self.harness.sandbox))
        strong = None
        if case.model.strong_oracle is not None and verdict.outcome in (Outcome.PASSED, Outcome.FAILED) \
                and verdict.category not in (Category.PARSE_FAIL, Category.COMPILE_FAIL, Category.LINT_FAIL):
            strong_verdict = self._strong(task, text)
            if strong_verdict.outcome in (Outcome.PASSED, Outcome.FAILED):
                strong = strong_result(strong_verdict)  # None when the stronger check could not decide
            verdict = verdict.with_metrics(strong=strong_verdict.to_json())
        return verdict, strong

    def _strong(self, task: RepairTask, text: str) -> Verdict:
        case = self.spec.case
        assert case.model.strong_oracle is not None
        from .oracles import ORACLES

        factory = ORACLES.get(case.model.strong_oracle.kind)
        if factory is None:
            return Verdict.error(f"strong_oracle.kind: no oracle {case.model.strong_oracle.kind!r} is installed")
        with tempfile.TemporaryDirectory(prefix="hwrepair-strong-") as tmp:
            ws = Path(tmp)
            populate(ws, case, {**self.buggy, task.target: text})
            # The toolchain hint, as make_oracle gives it: container sandboxes pick the domain's image.
            base = self.harness.oracle_ctx
            ctx = replace(base, limits=replace(base.limits, toolchain=case.domain))
            return _guarded(lambda: factory(case, ctx).check(ws, self.harness.sandbox))

    def _record(self, iteration: int | None, verdict: Verdict, candidate: Candidate, sha: str | None,
                strong: bool | None, fix_s: float, *, final: bool, stop: str | None, folder: Path) -> SampleRecord:
        spec, case = self.spec, self.spec.case
        durations = {"fix": round(fix_s, 4), **{k: round(v, 4) for k, v in verdict.durations.items()}}
        speedup = verdict.metrics.get("speedup")
        return SampleRecord(
            run=self.harness.run_dir.name, key=self.key, case=spec.case_ref, bug=spec.bug.id, domain=case.domain,
            suite=case.suite, bug_type=spec.bug.bug_type, fixer=self.fixer.name, protocol=spec.protocol,
            sample=spec.sample, iteration=iteration, outcome=verdict.outcome.value, category=verdict.category.value,
            patch_sha=sha, loc={"target": case.loc(), "entry": case.loc(case.model.entry or case.target)},
            tokens=candidate.usage.to_json(), cost_usd=round(candidate.cost_usd, 6), durations=durations,
            speedup=float(speedup) if isinstance(speedup, (int, float)) else None, strong=strong,
            cached=candidate.cached, final=final, exec_id=self.exec_id, nodeid=spec.nodeid, label=spec.fixer,
            bug_class=spec.bug.class_, summary=verdict.summary,
            artifact=str(folder.relative_to(self.harness.run_dir.artifacts)),
            metrics=_plain({**verdict.metrics, **({"retries": candidate.retries} if candidate.retries else {}),
                            **({"fixer": candidate.metrics} if candidate.metrics else {})}),
            stop_reason=stop if final else None, time=now(),
        )


def build_task(spec: SampleSpec, harness: Harness, attempt: int = 0, history: tuple[Attempt, ...] = (),
               buggy: dict[str, str] | None = None) -> RepairTask:
    """What the fixer sees for one attempt; under the spec-only arm, no code at all."""
    case, bug, arm = spec.case, spec.bug, harness.input_arm
    files = dict(buggy if buggy is not None else case.buggy_files(bug))
    if arm == "spec":
        files = {name: "" for name in files}
    error_log = case.files.get(bug.error_log) if bug.error_log else None
    return RepairTask(
        case=case.id, bug=bug.id, domain=case.domain, suite=case.suite, files=files, target=case.target,
        # A cuda task's spec is its prompt (interface, tolerance, speed requirement): always shown.
        prompt_kind=arm, spec=case.spec_text if arm != "code" or case.domain == "cuda" else None,
        error_log=error_log,
        interface=interface_of(case) if arm == "spec" else None, attempt=attempt, sample=spec.sample,
        seed=harness.seed * 100003 + spec.sample, history=history, feedback_level=harness.feedback,
    )


def _guarded(check: Callable[[], Verdict]) -> Verdict:
    try:
        return check()
    except Exception as exc:  # an oracle crash is the harness's fault, never the candidate's
        return Verdict.error(f"oracle raised {type(exc).__name__}: {exc}", log_tail=traceback.format_exc(limit=6))


def stagnation(hashes: list[str | None], categories: list[str], signatures: list[str]) -> str | None:
    """The first stagnation signal that holds after the latest attempt (DESIGN §6), else None."""
    current = hashes[-1]
    if len(hashes) >= 2 and current is not None and current == hashes[-2]:
        return "duplicate_code"
    if current is not None and current in hashes[:-2]:
        return "code_cycle"
    if len(signatures) >= 3 and len(set(signatures[-3:])) == 1:
        return "no_progress"
    last5 = categories[-5:]
    if sum(1 for a, b in zip(last5, last5[1:]) if a != b) >= 3:
        return "category_oscillation"
    return None


def _signature(verdict: Verdict) -> str:
    first = next((line for line in verdict.log_tail.splitlines() if line.strip()), "")
    return verdict.category.value + "|" + re.sub(r"\d+(\.\d+)?", "N", verdict.summary + "|" + first)


def feedback_message(verdict: Verdict, level: str, candidate: str | None) -> str:
    """Harness-written feedback for the next attempt (L0 none ... L4 with metrics/counterexample)."""
    if level == "L0":
        return ""
    parts = ["The previous candidate did not pass."]
    if level >= "L2" and verdict.category in (Category.COMPILE_FAIL, Category.LINT_FAIL):
        parts.append(f"Build errors ({verdict.summary}):\n{_error_lines(verdict.log_tail)}")
    if level >= "L3" and verdict.category not in (Category.COMPILE_FAIL, Category.LINT_FAIL):
        parts.append(f"Test feedback [{verdict.category.value}]: {verdict.summary}")
        tail = "\n".join(verdict.log_tail.splitlines()[-12:])
        if tail:
            parts.append(tail)
    if level >= "L4":
        extra = {k: v for k, v in verdict.metrics.items() if k not in ("strong",)}
        if extra:
            parts.append("Details: " + json.dumps(_plain(extra), sort_keys=True)[:2000])
    return "\n\n".join(parts)


def _error_lines(log: str, limit: int = 25) -> str:
    lines = [line for line in log.splitlines() if re.search(r"error|Error|ERROR|%Error|warning", line)]
    return "\n".join((lines or log.splitlines())[:limit])


def interface_of(case: Case) -> str:
    """What the spec-only arm shows instead of code: the target's declarations, bodies removed."""
    text = case.files[case.target]
    if case.domain == "rtl":
        m = re.search(r"module\b.*?\);", text, re.DOTALL)
        return (m.group(0) + "\n  // ...\nendmodule\n") if m else ""
    heads = re.findall(r"^[A-Za-z_][\w \t\*]*\([^;{]*\)\s*(?=\{)", text, re.MULTILINE)
    return "\n".join(h.strip() + ";" for h in heads)


def unified_diff(before: str, after: str, name: str) -> str:
    return "".join(difflib.unified_diff(before.splitlines(True), after.splitlines(True), f"a/{name}", f"b/{name}"))


def cap_lines(text: str, limit: int = DIFF_LINES) -> str:
    lines = text.splitlines()
    if len(lines) <= limit:
        return text
    return "\n".join(lines[:limit]) + f"\n[... {len(lines) - limit} more lines]"


def apply_diff(original: str, diff: str, name: str) -> str | None:
    """Apply a unified diff to one file with `patch`; None when it does not apply."""
    with tempfile.TemporaryDirectory(prefix="hwrepair-patch-") as tmp:
        path = Path(tmp) / Path(name).name
        path.write_text(original, encoding="utf-8")
        for strip in ("-p1", "-p0"):
            proc = subprocess.run(["patch", strip, "-s", "-f", "--no-backup-if-mismatch", "-i", "-", str(path)],
                                  input=diff, text=True, capture_output=True, cwd=tmp, check=False)
            if proc.returncode == 0:
                return path.read_text(encoding="utf-8")
            path.write_text(original, encoding="utf-8")
    return None


def _save_candidate(folder: Path, task: RepairTask, candidate: Candidate) -> None:
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


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return ""


def _plain(value: Any) -> Any:
    """Only plain JSON data crosses the xdist wire."""
    return json.loads(json.dumps(value, default=str))


__all__ = ["Harness", "SampleResult", "SampleSpec", "execute", "stagnation"]
