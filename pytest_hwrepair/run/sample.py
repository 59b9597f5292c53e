"""One sample of one bug for one fixer, and the protocol its attempts follow (DESIGN §6): one attempt under
`repeated`, up to K under `iterative` (stopping on stagnation, each shown feedback L0-L4 on the one before)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from ..cases.case import Bug, Case
from ..cases.domains import domain_of
from ..fixers.base import Attempt, Fixer, RepairTask
from ..results.rundir import patch_sha, sample_key, sample_keys
from ..verdict import Category, Outcome, RepairProtocol, Verdict


@dataclass(frozen=True)
class ProtocolConfig:
    """The protocol knobs of a run (DESIGN §6): what the fixer is shown and how often it may try."""

    input_arm: str = "code"
    iterations: int = 5
    history: int = 4
    feedback: str = "L3"
    seed: int = 0
    repo_feedback: bool = False  # tree kinds (repository cases): one more round with the failing test's log

    def key_part(self, protocol: RepairProtocol) -> dict[str, Any]:
        """What of the protocol decides a sample's result: part of its key."""
        cfg: dict[str, Any] = {"protocol": protocol.value, "input": self.input_arm}
        if protocol is RepairProtocol.ITERATIVE:
            cfg.update(iterations=self.iterations, history=self.history, feedback=self.feedback)
        if self.repo_feedback:
            cfg["repo_feedback"] = True
        return cfg

    def attempts(self, protocol: RepairProtocol) -> int:
        return self.iterations if protocol is RepairProtocol.ITERATIVE else 1


@dataclass(frozen=True)
class Sample:
    """Which sample an item stands for, and its key (hash of what decides its result, DESIGN §10)."""

    case: Case
    bug: Bug
    label: str  # the fixer's label in node ids; records carry the fixer's name
    index: int
    protocol: RepairProtocol
    key: str = ""
    nodeid: str = ""

    @classmethod
    def make(cls, case: Case, bug: Bug, label: str, fixer: Fixer, index: int, protocol: RepairProtocol,
             config: ProtocolConfig, nodeid: str = "") -> Sample:
        key = sample_key(**_key_parts(case, bug, fixer, protocol, config), sample=index)
        return cls(case, bug, label, index, protocol, key, nodeid)

    @classmethod
    def make_all(cls, case: Case, bug: Bug, label: str, fixer: Fixer, count: int, protocol: RepairProtocol,
                 config: ProtocolConfig, parent: str = "") -> list[Sample]:
        """Samples 0..count-1 of one bug and fixer, as `make` gives each, the shared part of their keys made once;
        with `parent` (a case file's node id), each with the node id of its item (`parent::name`)."""
        keys = sample_keys(**_key_parts(case, bug, fixer, protocol, config), samples=range(count))
        return [cls(case, bug, label, index, protocol, key,
                    f"{parent}::{item_name(bug.id, label, protocol, index)}" if parent else "")
                for index, key in enumerate(keys)]

    @property
    def name(self) -> str:
        """The item's name in node ids (contract): `SHFT-01[claude-s3]`, `SHFT-01[claude-t3]` for a trajectory."""
        return item_name(self.bug.id, self.label, self.protocol, self.index)

    @property
    def case_ref(self) -> str:
        return f"{self.case.domain}/{self.case.suite}/{self.case.id}"

    @property
    def fixer(self) -> str:
        """The fixer label (the name conftest overrides of `hwrepair_fixer` have used)."""
        return self.label

    @property
    def sample(self) -> int:
        return self.index

    def task(self, config: ProtocolConfig, attempt: int = 0, history: tuple[Attempt, ...] = (),
             buggy: dict[str, str] | None = None) -> RepairTask:
        """What the fixer sees for one attempt; under the spec-only arm, no code at all."""
        case, bug, arm = self.case, self.bug, config.input_arm
        domain = domain_of(case.domain)
        files = dict(buggy if buggy is not None else case.buggy_files(bug))
        if arm == "spec" and case.repo is None:  # a repository issue is always repaired from its code
            files = {name: "" for name in files}
        return RepairTask(
            case=case.id, bug=bug.id, domain=case.domain, suite=case.suite, files=files, target=case.target_of(bug),
            prompt_kind=arm, spec=case.spec_text if arm != "code" or domain.always_show_spec else None,
            error_log=case.files.get(bug.error_log) if bug.error_log else None,
            interface=domain.interface(case.files[case.target]) if arm == "spec" and case.repo is None else None,
            attempt=attempt,
            sample=self.index, seed=config.seed * 100003 + self.index, history=history,
            feedback_level=config.feedback, issue=case.repo.issues[bug.id] if case.repo is not None else None,
        )


def item_name(bug: str, label: str, protocol: RepairProtocol, index: int) -> str:
    letter = "t" if protocol is RepairProtocol.ITERATIVE else "s"
    return f"{bug}[{label}-{letter}{index}]"


def _key_parts(case: Case, bug: Bug, fixer: Fixer, protocol: RepairProtocol, config: ProtocolConfig) -> dict[str, Any]:
    """What of a sample, besides its number, decides its key."""
    return {"case_digest": case.digest, "bug": bug.id, "oracle": case.oracle.model_dump(mode="json"),
            "fixer": dict(fixer.config) or {"name": fixer.name}, "protocol": config.key_part(protocol)}


# The name the `hwrepair_case` fixture's value has had.
SampleSpec = Sample


FEEDBACK_CAP = 2000  # characters of details; feedback carries what candidate code printed: it stays capped


def feedback_message(verdict: Verdict, level: str) -> str:
    """L0 none; L1 "did not pass"; L2 + build errors; L3 + the category's test feedback; L4 + metrics."""
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
        extra = {k: v for k, v in verdict.metrics.items() if k != "strong"}
        if extra:
            parts.append("Details: " + json.dumps(plain(extra), sort_keys=True)[:FEEDBACK_CAP])
    return "\n\n".join(parts)


def signature(verdict: Verdict) -> str:
    """Category and error text with numbers blanked: the same failure again means no progress."""
    first = next((line for line in verdict.log_tail.splitlines() if line.strip()), "")
    return verdict.category.value + "|" + re.sub(r"\d+(\.\d+)?", "N", verdict.summary + "|" + first)


def _error_lines(log: str, limit: int = 25) -> str:
    lines = [line for line in log.splitlines() if re.search(r"error|Error|ERROR|%Error|warning", line)]
    return "\n".join((lines or log.splitlines())[:limit])


def plain(value: Any) -> Any:
    """Only plain JSON data crosses the xdist wire."""
    return json.loads(json.dumps(value, default=str))


STOP_SIGNALS = ("duplicate_code", "code_cycle", "category_oscillation", "no_progress")


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


@dataclass
class Progress:
    """What a trajectory has seen so far: decides whether and why it stops."""

    iterative: bool
    limit: int
    hashes: list[str | None] = field(default_factory=list)
    categories: list[str] = field(default_factory=list)
    signatures: list[str] = field(default_factory=list)
    history: list[Attempt] = field(default_factory=list)

    def observe(self, verdict: Verdict, text: str | None) -> str | None:
        self.hashes.append(patch_sha(text) if text is not None else None)
        self.categories.append(verdict.category.value)
        self.signatures.append(signature(verdict))
        return self.hashes[-1]

    def stop(self, attempt: int, verdict: Verdict) -> tuple[bool, str | None]:
        """(is this the last attempt, the stop reason recorded with it)."""
        last = attempt == self.limit - 1 or verdict.outcome is not Outcome.FAILED
        if not self.iterative:
            return last, None
        reason = None if last else stagnation(self.hashes, self.categories, self.signatures)
        if reason is None and last:
            reason = "passed" if verdict.passed else ("budget" if verdict.outcome is Outcome.FAILED
                                                      else verdict.outcome.value)
        return last or reason is not None, reason
