"""`hwrepair import rtlrepairbench`: RTLRepairBench's lint, semantic and real-bug sets as rtl cases.

The oracles and the two contracts (`seeded`, `published`) are described in docs/importers.md. Records are read
as the benchmark's code reads them: synthetic sets are chat records (the user message holds the broken module
after "Broken RTL (`NAME`)" and the checker's report, the assistant message the repair diff); real bugs have
`broken_rtl`, `golden_rtl` (module `<task>_ref`), `spec` and `task`, whose testbench comes from
`data/eval_tasks.jsonl` or a VerilogEval checkout's `dataset_spec-to-rtl/<task>_test.sv` with its `<task>_ref.sv`.
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..repo import patch
from .base import Entry, ImporterError, ImportReport, Reason, Status, prepare_out, split, write_report
from .check import Staged, add_common_arguments, admit
from .rtl_probe import Probe, first_module, lint_warnings, probe

CONTRACTS = ("seeded", "published")
GATING_STYLE = ["BLKSEQ", "UNDRIVEN"]  # the benchmark's gating warning classes Verilator leaves off by default
CYCLES = 200
TIMEOUT = 60.0
_CASE_ID = re.compile(r"[^A-Za-z0-9_.-]+")

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


class RtlRepairBenchImporter:
    name = "rtlrepairbench"
    help = "RTLRepairBench's lint, semantic and real-bug repair sets (a checkout of its repository)"

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        add_common_arguments(parser, "RTLRepairBench (or its data/)")
        parser.add_argument("--set", dest="sets", action="append", choices=SETS,
                            help="import only this set (repeatable; default: all three)")
        parser.add_argument("--contract", choices=(*CONTRACTS, "both"), default="seeded",
                            help="seeded: this project's contract; published: the benchmark's own reading; both")
        parser.add_argument("--verilogeval", type=Path, metavar="DIR",
                            help="a VerilogEval checkout for real-bug tasks eval_tasks.jsonl does not carry")
        parser.add_argument("--limit", type=int, metavar="N", help="only the first N records of each set")

    def run(self, ns: argparse.Namespace) -> ImportReport:
        data = ns.checkout / "data" if (ns.checkout / "data").is_dir() else ns.checkout
        if not data.is_dir():
            raise ImporterError(f"{ns.checkout}: not a directory")
        contracts = list(CONTRACTS) if ns.contract == "both" else [ns.contract]
        specs, benches = eval_tasks(data)
        found: list[Staged | Entry] = []
        for set_name in ns.sets or list(SETS):
            for contract in (["testbench"] if set_name == "real" else contracts):
                found += stage_set(data, set_name, contract, specs, benches, ns)
        staged, entries = split(found)
        prepare_out(ns.out, self.name, ["rrb_real", *(suite_of(s, c) for s in ("lint", "semantic") for c in CONTRACTS)])
        written, notes, decided = admit(staged, ns)
        if not ns.no_check:
            kept = sum(1 for why in decided.values() if not why)
            notes.append(f"Tier F kept on {kept} of {len(decided)} golden designs checked")
        entries += written
        entries.sort(key=lambda e: (e.suite, e.source))
        return write_report(ImportReport(self.name, ns.out, tuple(entries), tuple(notes),
                                         {"contracts": contracts, "sets": ns.sets or list(SETS)}))


def suite_of(set_name: str, contract: str) -> str:
    return f"rrb_{set_name}" + ("_published" if contract == "published" else "")


def stage_set(data: Path, set_name: str, contract: str, specs: dict[str, str], benches: dict[str, Testbench],
              ns: argparse.Namespace) -> list[Staged | Entry]:
    """Every record of one set as a staged case, or its rejection."""
    path, bucket = record_files(data, set_name)
    suite = suite_of(set_name, contract)
    found: list[Staged | Entry] = []
    probes: dict[str, Probe] = {}
    count = 0
    for number, raw in read_jsonl(path):
        if isinstance(raw, dict) and bucket is not None and raw.get("bucket") != bucket:
            continue
        count += 1
        if ns.limit is not None and count > ns.limit:
            break
        source = str(raw.get("id") or f"{path.name}:{number}") if isinstance(raw, dict) else f"{path.name}:{number}"
        entry = Entry(source, suite, Status.IMPORTED)
        found.append(stage_record(raw, set_name, contract, entry, specs, benches, ns.verilogeval, probes))
    return found


def stage_record(raw: dict[str, Any] | str, set_name: str, contract: str, entry: Entry, specs: dict[str, str],
                 benches: dict[str, Testbench], verilogeval: Path | None, probes: dict[str, Probe]) -> Staged | Entry:
    if isinstance(raw, str):
        return entry.rejected(Reason.NOT_IMPORTABLE, raw)
    try:
        record = realbug(raw) if set_name == "real" else synthetic(raw, set_name)
    except patch.PatchError as exc:
        return entry.rejected(Reason.PATCH_FAILS, f"the record's repair diff does not apply to its broken RTL: {exc}")
    except ValueError as exc:
        return entry.rejected(Reason.NOT_IMPORTABLE, f"unreadable record: {exc}")
    entry = Entry(entry.source, entry.suite, entry.status, group=record.kind or "unknown")
    if record.golden == record.broken:
        return entry.rejected(Reason.NO_OP, "the broken design is the golden design")
    if (top := first_module(record.golden)) is None:
        return entry.rejected(Reason.NOT_IMPORTABLE, "the golden design defines no module")
    key = f"{record.name}\0{record.golden}"
    seen = probes.get(key) or probes.setdefault(key, probe({record.name: record.golden}, top))
    if seen.rules:
        return entry.rejected(Reason.REFERENCE_FAILS, f"the golden design breaks the rtl candidate rules: {seen.rules}")
    bench = None
    if set_name == "real":
        bench = benches.get(record.task) or verilogeval_testbench(verilogeval, record.task)
        if bench is None:
            return entry.rejected(Reason.NO_TESTBENCH, f"no VerilogEval testbench for task {record.task}")
    oracle, strong, problem = oracle_of(record, contract, seen, bench)
    if problem:
        return entry.rejected(Reason.NOT_IMPORTABLE, problem)
    return build(record, contract, entry, oracle, strong, specs, bench)


def oracle_of(record: Record, contract: str, seen: Probe, bench: Testbench | None
              ) -> tuple[dict[str, Any], dict[str, Any] | None, str]:
    """The suite oracle, the strong one (Tier F where it can run) and a problem ('' when none)."""
    waive = list(seen.waivers)
    base: dict[str, Any] = {"top": seen.top, "timeout": TIMEOUT}
    clocking = seen.clocking(reset=contract != "published")
    # Tier F judges lint repairs too: one that lints clean but changes behaviour is plausible, not correct.
    strong = {"kind": "rtl-equiv", "timeout": 120.0} if seen.tier_f else None
    if record.set == "lint":
        return {"kind": "rtl-lint", **base, **clocking, "lint_warn": GATING_STYLE if contract == "published" else None,
                "lint_waive": waive or None}, strong, ""
    if seen.stateful and seen.clock is None:
        return base, None, "a sequential design without one clock input the stimulus can drive"
    if record.set == "semantic":
        runs = {"seeds": 1, "corners": 0} if contract == "published" else {"seeds": 10, "corners": 2}
        return {"kind": "rtl-sim", **base, **clocking, "compare_from": 0, "cycles": CYCLES, **runs,
                "lint_waive": waive or None}, strong, ""
    assert bench is not None
    # A real bug is the model's own code: warnings it raises are no fault upstream either (only the testbench is).
    waive = sorted(set(waive) | set(lint_warnings({record.name: record.broken}, seen.top)))
    return {"kind": "rtl-tb", **base, **clocking, "testbench": [f"testbench/{record.task}_test.sv"],
            "tb_top": bench.top, "pass_regex": bench.pass_regex, "lint_waive": waive or None}, strong, ""


def build(record: Record, contract: str, entry: Entry, oracle: dict[str, Any], strong: dict[str, Any] | None,
          specs: dict[str, str], bench: Testbench | None) -> Staged:
    suite = entry.suite
    case_id = _CASE_ID.sub("_", record.id.replace(":", "_")).strip("_.-") or "record"
    kind = _CASE_ID.sub("_", record.kind).upper().strip("_") or "BUG"
    if not kind[0].isalpha():
        kind = f"B{kind}"
    files = {record.name: record.golden, f"broken/{record.name}": record.broken,
             "spec.md": spec_text(record, specs.get(record.task, ""))}
    if bench is not None:
        files[f"testbench/{record.task}_test.sv"] = bench.text
    fields = {"schema": 1, "id": case_id, "domain": "rtl", "suite": suite,
              "title": f"RTLRepairBench {record.id} ({record.set}, {contract} contract)",
              "sources": [record.name], "target": record.name, "spec": "spec.md", "oracle": oracle,
              "strong_oracle": strong,
              "bug": [{"id": f"{kind}-01", "type": kind, "broken": f"broken/{record.name}",
                       "class": "syntactic" if record.set == "lint" else "behavioural",
                       "note": f"RTLRepairBench {record.id} ({record.kind}; {contract} contract)"}]}
    return Staged(f"{suite}/{case_id}", fields, files, entry, f"{suite}/{record.name}/{record.golden}")


def spec_text(record: Record, instruction: str) -> str:
    """The record's spec (real bugs) or its task's instruction, with the checker's report the upstream prompt shows."""
    text = record.spec or instruction
    parts = [text.strip() if text else f"Repair the module `{first_module(record.golden)}` in `{record.name}`."]
    if record.set != "real" and instruction:
        parts.append(f"In this benchmark the module is named `{first_module(record.golden)}` (file `{record.name}`).")
    if record.report:
        parts.append(f"The benchmark's checker reported:\n\n```\n{record.report}\n```")
    return "\n\n".join(parts) + "\n"


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
    return Record(str(raw.get("id", "")), set_name, str(raw.get("mutation", "")), name.group(1), rtl.group(1),
                  apply_repair(rtl.group(1), diff), report.group(1).strip() if report else "", "",
                  str(raw.get("seed_id", "")).removesuffix("_ref"))


def realbug(raw: dict[str, Any]) -> Record:
    """A real-bug record; raises ValueError when a field is missing."""
    missing = [k for k in ("id", "task", "broken_rtl", "golden_rtl") if not isinstance(raw.get(k), str) or not raw[k]]
    if missing:
        raise ValueError(f"{missing[0]}: missing")
    if (top := first_module(raw["broken_rtl"])) is None:
        raise ValueError("broken_rtl defines no module")
    trace = raw.get("divergence_trace")
    report = ""
    if isinstance(trace, dict) and trace.get("output"):
        report = (f"The VerilogEval testbench reported {trace.get('mismatches')} mismatched samples of "
                  f"{trace.get('samples')} (output {trace.get('output')}, first at time "
                  f"{trace.get('first_mismatch_time')}).")
    return Record(raw["id"], "real", str(raw.get("source_model", "")), f"{top}.sv", raw["broken_rtl"],
                  rename_first_module(raw["golden_rtl"], top), report, str(raw.get("spec") or ""), raw["task"])


def rename_first_module(text: str, name: str) -> str:
    """The reference module under the name the broken design (and the testbench) use."""
    if (old := first_module(text)) is None:
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
