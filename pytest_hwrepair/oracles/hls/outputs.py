"""What HLS oracles read from a run: its compared output, read as untrusted data, and the comparison."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path

from ...sandbox.base import Execution
from ...sandbox.untrusted import READ_CAP, UntrustedFileError, read_untrusted

SHOWN_TOKEN = 40
_NUMBER = re.compile(r"^[-+]?(\d+\.?\d*([eE][-+]?\d+)?|\.\d+([eE][-+]?\d+)?|inf|nan|infinity)$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Output:
    """The compared output of one run, or why there is none that may be compared."""

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
    count = 0
    number = 0
    for number, line in enumerate(text.splitlines(), 1):
        count += len(line.split())
        if count > token_index:
            return number
    return number


def _section_of(text: str, line: int) -> str | None:
    """The `@name` header above a line, for outputs written in sections (the mach data format)."""
    for row in reversed(text.splitlines()[:line]):
        if row.startswith("@"):
            return row.split()[0]
    return None
