"""RTLRepairBench's record files, read as its own evaluation code reads them.

Synthetic sets (`data/repairbench_lint.jsonl`, `data/repairbench_sem85.jsonl`, or both buckets in
`repairbench_heldout.jsonl`): chat records whose user message holds the broken module (a fenced
`systemverilog` block after "Broken RTL (`NAME`)") and the checker's report, and whose assistant message is
the repair as a unified diff; the golden design is the broken one with the diff applied. Real bugs
(`data/repairbench_realbugs.jsonl`): `broken_rtl` (module TopModule), `golden_rtl` (the VerilogEval reference,
module `<task>_ref`), `spec`, joined by `task` to a VerilogEval testbench: `data/eval_tasks.jsonl` records
(`meta.testbench`, `meta.pass_regex`, `meta.top_module`), or a VerilogEval checkout's
`dataset_spec-to-rtl/<task>_test.sv` with its `<task>_ref.sv`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..repo import patch
from .base import ImporterError
from .rtl_probe import first_module

SETS = ("lint", "semantic", "real")
FILES = {"lint": "repairbench_lint.jsonl", "semantic": "repairbench_sem85.jsonl", "real": "repairbench_realbugs.jsonl"}
BOTH_SYNTHETIC = "repairbench_heldout.jsonl"
PASS_REGEX = r"Mismatches: 0 in \d+ samples"
_RTL = re.compile(r"```(?:systemverilog|verilog|sv)?\n(.*?)```", re.DOTALL)
_NAME = re.compile(r"Broken RTL \(`([^`]+)`\)")
_REPORT = re.compile(r"reported:\s*```\n?(.*?)```", re.DOTALL)
_FILE_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]*\.s?v$")


@dataclass(frozen=True, slots=True)
class Record:
    """One benchmark instance: what it is called upstream, the broken and golden design, what the fixer reads."""

    id: str
    set: str
    kind: str  # the mutation operator, or the model that wrote a real bug
    name: str  # the design's file name
    broken: str
    golden: str
    report: str = ""  # the checker's diagnostic the upstream prompt shows
    spec: str = ""
    task: str = ""  # the VerilogEval task (real bugs; the seed's task for synthetic ones)


@dataclass(frozen=True, slots=True)
class Testbench:
    """A VerilogEval testbench: its text (with the reference module it compares against), its top, its verdict."""

    text: str
    top: str = "tb"
    pass_regex: str = PASS_REGEX


def read_jsonl(path: Path) -> Iterator[tuple[int, dict[str, Any] | str]]:
    """(line number, record) per line; a line that is not a JSON object gives its problem instead."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ImporterError(f"{path}: unreadable: {exc}") from None
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            yield number, f"not JSON: {exc.msg}"
            continue
        yield number, data if isinstance(data, dict) else "not a JSON object"


def record_files(data: Path, set_name: str) -> tuple[Path, str | None]:
    """The file holding a set's records, and the bucket to keep when it holds several sets."""
    own = data / FILES[set_name]
    if own.is_file():
        return own, None
    both = data / BOTH_SYNTHETIC
    if set_name != "real" and both.is_file():  # its records say their set in `bucket`
        return both, set_name
    raise ImporterError(f"{data}: no {FILES[set_name]} (not an RTLRepairBench checkout, or the {set_name} set is "
                        "missing)")


def synthetic(raw: dict[str, Any], set_name: str) -> Record:
    """A lint or semantic record; raises ValueError when it cannot be read, PatchError when its diff fails."""
    messages = raw.get("messages")
    if not isinstance(messages, list):
        raise ValueError("no messages")
    user = next((str(m.get("content", "")) for m in messages if isinstance(m, dict) and m.get("role") == "user"), "")
    diff = next((str(m.get("content", "")) for m in messages if isinstance(m, dict) and m.get("role") == "assistant"),
                "")
    rtl, name = _RTL.search(user), _NAME.search(user)
    if rtl is None or name is None:
        raise ValueError("the user message holds no broken RTL block")
    if not _FILE_NAME.match(name.group(1)):
        raise ValueError(f"file name {name.group(1)!r} is not a plain Verilog file name")
    report = _REPORT.search(user)
    broken = rtl.group(1)
    golden = apply_repair(broken, diff)
    seed = str(raw.get("seed_id", ""))
    return Record(str(raw.get("id", "")), set_name, str(raw.get("mutation", "")), name.group(1), broken, golden,
                  report.group(1).strip() if report else "", "", seed.removesuffix("_ref"))


def realbug(raw: dict[str, Any]) -> Record:
    """A real-bug record; raises ValueError when a field is missing."""
    missing = [k for k in ("id", "task", "broken_rtl", "golden_rtl") if not isinstance(raw.get(k), str) or not raw[k]]
    if missing:
        raise ValueError(f"{missing[0]}: missing")
    top = first_module(raw["broken_rtl"])
    if top is None:
        raise ValueError("broken_rtl defines no module")
    golden = rename_first_module(raw["golden_rtl"], top)
    trace = raw.get("divergence_trace")
    report = ""
    if isinstance(trace, dict) and trace.get("output"):
        report = (f"The VerilogEval testbench reported {trace.get('mismatches')} mismatched samples of "
                  f"{trace.get('samples')} (output {trace.get('output')}, first at time "
                  f"{trace.get('first_mismatch_time')}).")
    return Record(raw["id"], "real", str(raw.get("source_model", "")), f"{top}.sv", raw["broken_rtl"], golden, report,
                  str(raw.get("spec") or ""), raw["task"])


def rename_first_module(text: str, name: str) -> str:
    """The reference module under the name the broken design (and the testbench) use."""
    old = first_module(text)
    if old is None:
        raise ValueError("golden_rtl defines no module")
    return re.sub(rf"\bmodule(\s+){re.escape(old)}\b", rf"module\g<1>{name}", text, count=1)


def eval_tasks(data: Path) -> tuple[dict[str, str], dict[str, Testbench]]:
    """Specs and testbenches by task id from `eval_tasks.jsonl` (empty when the file is absent)."""
    path = data / "eval_tasks.jsonl"
    specs: dict[str, str] = {}
    benches: dict[str, Testbench] = {}
    if not path.is_file():
        return specs, benches
    for _, raw in read_jsonl(path):
        if isinstance(raw, str):
            continue
        task = str(raw.get("id", "")).split(":")[-1]
        if raw.get("instruction"):
            specs[task] = str(raw["instruction"]).strip()
        meta = raw.get("meta")
        if isinstance(meta, dict) and meta.get("testbench"):
            benches[task] = Testbench(str(meta["testbench"]), str(meta.get("top_module") or "tb"),
                                      str(meta.get("pass_regex") or PASS_REGEX))
    return specs, benches


def verilogeval_testbench(checkout: Path | None, task: str) -> Testbench | None:
    """A task's testbench from a VerilogEval checkout (the test bench and the reference module it instantiates)."""
    if checkout is None:
        return None
    folder = checkout / "dataset_spec-to-rtl"
    test, ref = folder / f"{task}_test.sv", folder / f"{task}_ref.sv"
    if not (test.is_file() and ref.is_file()) or test.is_symlink() or ref.is_symlink():
        return None
    return Testbench(test.read_text(encoding="utf-8") + "\n" + ref.read_text(encoding="utf-8"))


def apply_repair(broken: str, diff: str) -> str:
    """The broken file with the record's repair (a unified diff of that one file) applied; PatchError otherwise."""
    patches = patch.parse(diff)
    if len(patches) != 1 or None in (patches[0].old_path, patches[0].new_path):
        raise patch.PatchError("the repair diff does not change exactly one existing file")
    return patch.apply({patches[0].path: broken}, patches)[patches[0].path]
