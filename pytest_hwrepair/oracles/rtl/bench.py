"""The scratch bench rtl oracles work in, and tool steps run there as one sandboxed script."""

from __future__ import annotations

import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ...cases.case import Case
from ...sandbox.base import Execution, Limits, Sandbox
from ...sandbox.untrusted import UntrustedFileError, read_untrusted, truncation_marker
from .preflight import rename_modules

GOLDEN_PREFIX = "golden_"
VERILOG_SUFFIXES = (".v", ".sv", ".vh", ".svh")
STEPS = ".steps"
LOG_CAP = 4 << 20
SOURCE_CAP = 4 << 20
# Each step's output and status land in files, so one sandbox call can run several tools in order.
_STEP_FUNCTION = (f'step() {{ sh "{STEPS}/$1.sh" > "{STEPS}/$1.log" 2>&1; rc=$?; '
                  f'echo "$rc" > "{STEPS}/$1.rc"; return "$rc"; }}\n')


@dataclass(frozen=True, slots=True)
class Bench:
    """A scratch directory with the renamed golden design and a copy of the candidate."""

    root: Path
    candidate: tuple[str, ...]
    texts: dict[str, str]
    golden: str = "golden.v"

    @property
    def sources(self) -> tuple[str, ...]:
        return (self.golden, *self.candidate)


@dataclass(frozen=True, slots=True)
class Step:
    """One tool run inside a script: its status (None when it did not finish) and its output."""

    name: str
    returncode: int | None
    log: str

    @property
    def ok(self) -> bool:
        return self.returncode == 0

    def tail(self, lines: int = 20) -> str:
        return "\n".join(self.log.splitlines()[-lines:])


class CandidateMissing(Exception):
    """A source file the case declares is not in the workspace."""


def stage_bench(case: Case, modules: list[str], workspace: Path, root: Path) -> Bench:
    """Write the golden design, its declared modules renamed, and copy the candidate's sources into the bench."""
    names = [n for n in case.model.sources if n.endswith(VERILOG_SUFFIXES)]
    golden = "\n".join(rename_modules(case.files[n], modules, GOLDEN_PREFIX) for n in names)
    (root / "golden.v").write_text(golden, encoding="utf-8")
    texts: dict[str, str] = {}
    for name in names:
        try:
            texts[name] = read_untrusted(workspace, name, SOURCE_CAP).text
        except (OSError, UntrustedFileError):
            raise CandidateMissing(f"{name} is missing from the candidate (or not a regular file)") from None
        copy = root / "cand" / name
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_text(texts[name], encoding="utf-8")
    return Bench(root, tuple(f"cand/{n}" for n in names), texts)


def linear(names: Sequence[str]) -> str:
    """A flow that runs the steps in order and stops at the first failure."""
    return "".join(f"step {n} || exit 0\n" for n in names)


def run_steps(bench: Bench, sandbox: Sandbox, steps: Mapping[str, str], flow: str, *, timeout: float,
              limits: Limits) -> tuple[Execution, dict[str, Step]]:
    """Run `flow` (shell calling `step NAME`) in one sandbox call; the steps that ran, by name."""
    folder = bench.root / STEPS
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir()
    for name, command in steps.items():
        (folder / f"{name}.sh").write_text(command + "\n", encoding="utf-8")
    (folder / "flow.sh").write_text(_STEP_FUNCTION + flow, encoding="utf-8")
    ex = sandbox.run(bench.root, f"sh {STEPS}/flow.sh", timeout=timeout, limits=limits)
    return ex, {name: step for name in steps if (step := _read_step(folder, name)) is not None}


def _read_step(folder: Path, name: str) -> Step | None:
    """A step's log and status as the sandboxed script left them: written by tools the candidate drives."""
    if (log := read_capped(folder, f"{name}.log", LOG_CAP)) is None:
        return None
    rc_text = (read_capped(folder, f"{name}.rc", 32) or "").strip()
    return Step(name, int(rc_text) if rc_text.lstrip("-").isdigit() else None, log)


def read_capped(folder: Path, name: str, cap: int) -> str | None:
    """A file a sandboxed step wrote, read without following links and capped; None when it is not there."""
    try:
        got = read_untrusted(folder, name, cap)
    except (OSError, UntrustedFileError):
        return None
    return got.text + (truncation_marker(got.dropped) if got.truncated else "")
