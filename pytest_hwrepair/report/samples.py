"""The per-sample browser's data: every record with its artifacts (diff, oracle log, prompt, response).

Artifacts were written from model answers and candidate programs, so every file is read with
`read_untrusted` (no links, regular files only, capped) and the report only ever shows it as text.
Equal texts are stored once: many samples share a prompt, and control fixers share their diffs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..results.rundir import SampleRecord
from ..sandbox.untrusted import UntrustedFileError, read_untrusted, truncation_marker
from .load import Merged

# field -> (artifact file names tried in order, characters kept)
ARTIFACTS: dict[str, tuple[tuple[str, ...], int]] = {
    "diff": (("candidate.diff",), 20_000),
    "log": (("oracle.log",), 8_000),
    "prompt": (("prompt.txt",), 12_000),
    "response": (("response.txt", "response.diff"), 20_000),
}
TEXT_BUDGET = 24 << 20  # characters of artifact text one report embeds at most
SPENT = "[not embedded: this report's budget for artifact text is spent; open the run directory]"


class TextPool:
    """Interned texts: the browser refers to each by its index."""

    def __init__(self, budget: int = TEXT_BUDGET) -> None:
        self.texts: list[str] = [""]
        self.index: dict[str, int] = {"": 0}
        self.budget = budget

    def add(self, text: str) -> int:
        if text not in self.index and len(text) > self.budget:
            text = SPENT
        if text not in self.index:
            self.budget -= len(text)
            self.index[text] = len(self.texts)
            self.texts.append(text)
        return self.index[text]


def read_artifact(artifacts: Path, folder: str | None, names: tuple[str, ...], cap: int) -> str:
    """The first of `names` in the sample's artifact folder, as capped text ('' when none exists)."""
    if not folder:
        return ""
    for name in names:
        try:
            got = read_untrusted(artifacts, f"{folder}/{name}", cap)
        except FileNotFoundError:
            continue
        except UntrustedFileError as exc:
            return f"[not shown: {exc}]"
        except OSError as exc:
            return f"[not readable: {name}: {exc.strerror or exc}]"
        return got.text + (truncation_marker(got.dropped) if got.truncated else "")
    return ""


def _entry(r: SampleRecord, origin: Path, pool: TextPool) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "fixer": r.fixer, "domain": r.domain, "suite": r.suite, "type": r.bug_type, "case": r.case, "bug": r.bug,
        "sample": r.sample, "iteration": r.iteration, "final": r.final, "outcome": r.outcome,
        "category": r.category, "strong": r.strong, "verdict": verdict(r), "summary": pool.add(r.summary),
        "nodeid": r.nodeid, "key": r.key, "run": r.run, "speedup": r.speedup, "cost_usd": r.cost_usd,
        "stop": r.stop_reason,
    }
    for field, (names, cap) in ARTIFACTS.items():
        entry[field] = pool.add(read_artifact(origin / "artifacts", r.artifact, names, cap))
    return entry


def verdict(r: SampleRecord) -> str:
    """correct | plausible | passed (no strong verdict) | the outcome."""
    if r.outcome != "passed":
        return r.outcome
    return "passed" if r.strong is None else "correct" if r.strong else "plausible"


def browser_data(merged: Merged) -> dict[str, Any]:
    """Every record (each iteration of a trajectory too) with interned artifact texts."""
    pool = TextPool()
    pairs = sorted(merged.counted,
                   key=lambda p: (p[0].fixer, p[0].case, p[0].bug, p[0].sample, p[0].iteration or 0, not p[0].final))
    samples = [_entry(r, origin, pool) for r, origin in pairs]
    return {"samples": samples, "texts": pool.texts}


__all__ = ["ARTIFACTS", "TextPool", "browser_data", "read_artifact", "verdict"]
