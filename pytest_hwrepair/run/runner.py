"""One sample (repeated protocol) or one trajectory (iterative protocol), independent of pytest."""

from __future__ import annotations

import contextlib
import json
import os
import time
import traceback
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..fixers.base import Attempt, Candidate, Fixer, FixerError, FixerTimeout, FixerUnavailable, RepairTask
from ..oracles import Oracle, OracleContext, kind_of, make_oracle, make_strong_oracle
from ..oracles.base import content_hash, locked, populate, remove_tree
from ..results.artifacts import apply_diff, read_artifact, save_candidate, unified_diff
from ..results.rundir import RunDir, SampleRecord, now
from ..sandbox import scratch
from ..sandbox.base import Sandbox
from ..verdict import Category, Outcome, RepairProtocol, Verdict
from .sample import Progress, ProtocolConfig, Sample, feedback_message, plain

NOT_JUDGED_STRONG = (Category.PARSE_FAIL, Category.COMPILE_FAIL, Category.LINT_FAIL)


@dataclass(frozen=True)
class Harness:
    """What running a sample needs from the run: built once, shared by every sample of a process."""

    run_dir: RunDir
    oracle_ctx: OracleContext
    protocol: ProtocolConfig = ProtocolConfig()
    finished: Mapping[str, list[SampleRecord]] = field(default_factory=dict)
    verdict_cache: bool = True
    precheck: bool = True  # skip, before the fixer is called, what this machine cannot judge (off: validate)


@dataclass
class SampleResult:
    """What the item reports: the records, the deciding verdict, and the material for a failure report."""

    records: list[SampleRecord]
    verdict: Verdict
    diff: str = ""
    artifact: Path | None = None
    resumed: bool = False


def execute(sample: Sample, fixer: Fixer, harness: Harness, sandbox: Sandbox,
            oracle: Oracle | None = None) -> SampleResult:
    """Run (or resume) one sample or trajectory and append its records to the run directory."""
    done = harness.finished.get(sample.key)
    if done:
        return resumed(harness, done)
    runner = _Trajectory(sample, fixer, harness, sandbox, oracle)
    try:
        return runner.run()
    except Exception as exc:  # whatever broke, the item ends with a record, as an ERROR
        return runner.crashed(exc)


def resumed(harness: Harness, done: list[SampleRecord]) -> SampleResult:
    """A finished sample of an earlier session: its recorded verdict counts, nothing runs again."""
    final = done[-1]
    verdict = Verdict(final.outcome, final.category, final.summary or final.category.value,
                      metrics=dict(final.metrics))
    artifact = harness.run_dir.artifacts / final.artifact if final.artifact else None
    diff = read_artifact(artifact, "candidate.diff") if artifact else ""
    return SampleResult(done, verdict, diff, artifact, resumed=True)


@dataclass(frozen=True)
class Judged:
    verdict: Verdict
    candidate: Candidate
    text: str | None = None
    diff: str = ""
    strong: bool | None = None
    fix_s: float = 0.0


class _Trajectory:
    """Attempts for one key: one attempt under `repeated`, up to K under `iterative`."""

    def __init__(self, sample: Sample, fixer: Fixer, harness: Harness, sandbox: Sandbox,
                 oracle: Oracle | None) -> None:
        self.sample, self.fixer, self.harness, self.sandbox = sample, fixer, harness, sandbox
        self.kind = kind_of(sample.case.oracle.kind)
        self.tree = self.kind.tree if self.kind is not None else None  # candidates over a whole tree
        self.oracle = oracle or make_oracle(sample.case, harness.oracle_ctx)
        if self.tree is not None:  # each instance of a tree has its own tests
            self.oracle = self.tree.bind(self.oracle, sample.bug.id)
        self.exec_id = uuid.uuid4().hex[:12]
        self.buggy = sample.case.buggy_files(sample.bug)
        self.artifact = harness.run_dir.artifacts / sample.key
        # The feedback arm of tree kinds: one more round for a first attempt that does not pass.
        self.extra = int(harness.protocol.repo_feedback and self.tree is not None
                         and sample.protocol is not RepairProtocol.ITERATIVE)
        self.records: list[SampleRecord] = []

    def crashed(self, exc: Exception) -> SampleResult:
        """The harness itself broke (a cleanup, a disk, a bug): one final ERROR record, never a verdict."""
        verdict = Verdict.error(f"harness raised {type(exc).__name__}: {str(exc)[:500]}",
                                log_tail=traceback.format_exc(limit=6)[-4000:])
        judged = Judged(verdict, Candidate())
        iteration = len(self.records) if self.sample.protocol is RepairProtocol.ITERATIVE else None
        record = self._record(iteration, judged, None, final=True, stop="error", folder=self.artifact)
        records = [*self.records, record]
        with contextlib.suppress(OSError):
            self.harness.run_dir.append(records)
        return SampleResult(records, verdict, "", self.artifact)

    def run(self) -> SampleResult:
        config = self.harness.protocol
        iterative = self.sample.protocol is RepairProtocol.ITERATIVE
        progress = Progress(iterative, config.attempts(self.sample.protocol) + self.extra)
        staged = iterative or self.extra > 0
        records = self.records
        if self.harness.precheck and self.kind is not None and self.kind.unavailable is not None:
            reason = self.kind.unavailable(self.sample.case, self.sample.bug, self.harness.oracle_ctx.options)
            if reason is not None:  # no money is spent on a sample nothing here could judge
                skip = Judged(Verdict.skip(reason, metrics={"not_judged": True}), Candidate())
                records.append(self._record(0 if iterative else None, skip, None, final=True, stop=None,
                                            folder=self.artifact))
                return SampleResult(records, skip.verdict, "", None)
        self.artifact.mkdir(parents=True, exist_ok=True)
        judged = Judged(Verdict.error("no attempt was made"), Candidate())
        for attempt in range(progress.limit):
            history = tuple(progress.history[-config.history:]) if config.history else ()
            task = self.sample.task(config, attempt, history, self.buggy)
            folder = self.artifact / f"iter-{attempt}" if staged else self.artifact
            judged = self._attempt(task, folder)
            sha = progress.observe(judged.verdict, judged.text)
            last, stop = progress.stop(attempt, judged.verdict)
            records.append(self._record(attempt if staged else None, judged, sha, final=last, stop=stop,
                                        folder=folder))
            if last:
                break
            feedback = (self.tree.feedback(judged.verdict) if self.tree is not None
                        else feedback_message(judged.verdict, config.feedback))
            progress.history.append(Attempt(judged.text or judged.candidate.raw, judged.verdict.category.value,
                                            feedback))
        if judged.verdict.outcome is not Outcome.SKIPPED:
            self.harness.run_dir.append(records)
        return SampleResult(records, judged.verdict, judged.diff, self.artifact)

    def _attempt(self, task: RepairTask, folder: Path) -> Judged:
        start = time.monotonic()
        try:
            candidate = self.fixer.repair(task)
        except FixerUnavailable as exc:
            return Judged(Verdict.skip(str(exc)), Candidate())
        except FixerTimeout as exc:
            save_candidate(folder, task, exc.candidate)
            return Judged(Verdict.fail(Category.FIXER_TIMEOUT, str(exc)), exc.candidate,
                          fix_s=time.monotonic() - start)
        except FixerError as exc:
            # Requests that never succeeded still count in the run's retry totals.
            failed = Candidate(retries=dict(getattr(exc, "retries", None) or {}))
            return Judged(Verdict.error(f"fixer error: {exc}"), failed, fix_s=time.monotonic() - start)
        except Exception as exc:  # a fixer bug must not look like a wrong repair
            tb = traceback.format_exc(limit=5)
            return Judged(Verdict.error(f"fixer raised {type(exc).__name__}: {exc}", log_tail=tb), Candidate(),
                          fix_s=time.monotonic() - start)
        fix_s = candidate.latency or (time.monotonic() - start)
        save_candidate(folder, task, candidate)
        if self.tree is not None:  # a file set or a diff over the whole snapshot
            got = self.tree.attempt(self.sample.case, self.buggy, candidate, self._judge, attempt=task.attempt,
                                    arm=self.extra > 0)
            (folder / "candidate.diff").write_text(got.diff, encoding="utf-8")
            _save_verdict(folder, got.verdict)
            return Judged(got.verdict, candidate, got.text, got.diff, got.strong, fix_s)
        text = self._candidate_text(task, candidate)
        if text is None:
            reason = candidate.parse_error or "no code could be extracted from the response"
            return Judged(Verdict.fail(Category.PARSE_FAIL, reason), candidate, fix_s=fix_s)
        diff = unified_diff(self.buggy[task.target], text, task.target)
        (folder / "candidate.diff").write_text(diff, encoding="utf-8")
        verdict, strong = self._judge({**self.buggy, task.target: text})
        _save_verdict(folder, verdict)
        return Judged(verdict, candidate, text, diff, strong, fix_s)

    def _candidate_text(self, task: RepairTask, candidate: Candidate) -> str | None:
        if not candidate.parsed:
            return None
        if task.target in candidate.files:
            return candidate.files[task.target]
        if candidate.diff:
            return apply_diff(self.buggy[task.target], candidate.diff, task.target)
        return None

    def _judge(self, files: dict[str, str]) -> tuple[Verdict, bool | None]:
        """The oracle's verdict; an identical workspace already judged in this run reuses its verdict."""
        case = self.sample.case
        if not (self.harness.verdict_cache and self.kind is not None and self.kind.reusable):
            return self._judge_fresh(files)
        options = json.dumps(self.harness.oracle_ctx.options.to_json(), sort_keys=True, default=str)
        key = content_hash(case.digest, json.dumps(case.oracle.model_dump(mode="json"), sort_keys=True),
                           json.dumps(files, sort_keys=True), options,
                           *((self.sample.bug.id,) if self.tree is not None else ()))  # per-instance tests
        path = self.harness.run_dir.path / "verdicts" / f"{key}.json"
        with locked(path.with_suffix(".lock")):
            if path.exists():
                saved = json.loads(path.read_text(encoding="utf-8"))
                verdict = Verdict.from_json(saved["verdict"]).with_metrics(verdict_reused=True)
                return verdict, saved["strong"]
            verdict, strong = self._judge_fresh(files)
            if verdict.outcome is not Outcome.ERROR:
                tmp = path.with_suffix(f".tmp{os.getpid()}")
                tmp.write_text(json.dumps({"verdict": verdict.to_json(), "strong": strong}), encoding="utf-8")
                os.replace(tmp, path)
            return verdict, strong

    def _judge_fresh(self, files: dict[str, str]) -> tuple[Verdict, bool | None]:
        verdict = self._in_workspace("hwrepair-ws-", files, lambda ws: self.oracle.check(ws, self.sandbox))
        if self.sample.case.model.strong_oracle is None or verdict.outcome not in (Outcome.PASSED, Outcome.FAILED) \
                or verdict.category in NOT_JUDGED_STRONG:
            return verdict, None
        strong_kind = kind_of(self.sample.case.model.strong_oracle.kind)
        if strong_kind is not None and strong_kind.strong_on_pass_only and not verdict.passed:
            return verdict, None
        try:
            made = make_strong_oracle(self.sample.case, self.harness.oracle_ctx)
        except ValueError as exc:
            return verdict.with_metrics(strong=Verdict.error(str(exc)).to_json()), None
        assert made is not None
        kind, oracle = made
        strong_verdict = self._in_workspace("hwrepair-strong-", files, lambda ws: oracle.check(ws, self.sandbox))
        decided = strong_verdict.outcome in (Outcome.PASSED, Outcome.FAILED)
        return verdict.with_metrics(strong=strong_verdict.to_json()), kind.decide(strong_verdict) if decided else None

    def _in_workspace(self, prefix: str, files: dict[str, str], check: Callable[[Path], Verdict]) -> Verdict:
        ws = scratch.make(prefix)  # swept at a later start if this process is killed
        try:
            populate(ws, self.sample.case, files)
            return guarded(lambda: check(ws))
        finally:
            remove_tree(ws)

    def _record(self, iteration: int | None, judged: Judged, sha: str | None, *, final: bool, stop: str | None,
                folder: Path) -> SampleRecord:
        sample, case, verdict, candidate = self.sample, self.sample.case, judged.verdict, judged.candidate
        durations = {"fix": round(judged.fix_s, 4), **{k: round(v, 4) for k, v in verdict.durations.items()}}
        speedup = verdict.metrics.get("speedup")
        return SampleRecord(
            run=self.harness.run_dir.name, key=sample.key, case=sample.case_ref, bug=sample.bug.id,
            domain=case.domain, suite=case.suite, bug_type=sample.bug.bug_type, fixer=self.fixer.name,
            protocol=sample.protocol, sample=sample.index, iteration=iteration, outcome=verdict.outcome,
            category=verdict.category, patch_sha=sha, loc={"target": case.loc(),
                                                           "entry": case.loc(case.model.entry or case.target)},
            tokens=candidate.usage.to_json(), cost_usd=round(candidate.cost_usd, 6), durations=durations,
            speedup=float(speedup) if isinstance(speedup, (int, float)) else None, strong=judged.strong,
            cached=candidate.cached, final=final, exec_id=self.exec_id, nodeid=sample.nodeid, label=sample.label,
            bug_class=sample.bug.class_, summary=verdict.summary,
            artifact=str(folder.relative_to(self.harness.run_dir.artifacts)),
            metrics=plain({**verdict.metrics, **({"retries": candidate.retries} if candidate.retries else {}),
                           **({"fixer": candidate.metrics} if candidate.metrics else {}),
                           **({"strong_oracle": strong.kind} if (strong := case.model.strong_oracle) else {})}),
            stop_reason=stop if final else None, time=now(),
        )


def _save_verdict(folder: Path, verdict: Verdict) -> None:
    (folder / "verdict.json").write_text(json.dumps(verdict.to_json(), indent=2), encoding="utf-8")
    if verdict.log_tail:
        (folder / "oracle.log").write_text(verdict.log_tail, encoding="utf-8")


def guarded(check: Callable[[], Verdict]) -> Verdict:
    """An oracle's verdict; an oracle crash is the harness's fault, never the candidate's."""
    try:
        return check()
    except Exception as exc:
        return Verdict.error(f"oracle raised {type(exc).__name__}: {exc}", log_tail=traceback.format_exc(limit=6))
