"""The attempts of one sample: one under `repeated`, up to K under `iterative` with stagnation stops."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..fixers.base import Attempt
from ..results.rundir import patch_sha
from ..verdict import Outcome, Verdict

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

    def observe(self, verdict: Verdict, text: str | None, signature: str) -> str | None:
        self.hashes.append(patch_sha(text) if text is not None else None)
        self.categories.append(verdict.category.value)
        self.signatures.append(signature)
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


__all__ = ["STOP_SIGNALS", "Progress", "stagnation"]
