"""`hwrepair import rtlrepairbench`: RTLRepairBench's lint, semantic and real-bug sets as rtl cases.

Each record becomes a case: the golden design (the broken module with the record's repair diff applied, or the
real bug's VerilogEval reference), the broken file as the bug's start, and a spec (the VerilogEval task's
instruction, with the checker's report the upstream prompt shows). Lint-class bugs are judged by `rtl-lint`,
semantic ones by differential simulation against the golden design (`rtl-sim`) with Tier F as the strong
oracle, real bugs by their VerilogEval testbench (`rtl-tb`, harness-owned) with Tier F.

Two readings of the benchmark's oracle contract, chosen with `--contract` and recorded in each case's suite:

* `seeded` (suite `rrb_<set>`): this project's contract: Verilator's default lint classes; the reset held
  for 2 cycles and released, outputs compared from release, 200 cycles x 10 seeds plus 2 directed corner runs.
* `published` (suite `rrb_<set>_published`): the benchmark's own reading: lint also fails on its gating style
  classes (BLKSEQ, UNDRIVEN); random stimulus on every input including the reset, compared from the first
  cycle, 200 cycles, one run. (Its Icarus `$random` sequence and its strict X comparison are not reproduced:
  the seeded generator and the golden-X rule of Tier S stand in.)

Real bugs have one contract, their testbench. Warning classes the golden design itself raises are waived in
both readings, as the benchmark's gate never saw them as faults.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import Any

from ..repo.patch import PatchError
from .base import Entry, ImporterError, ImportReport, Reason, Status, prepare_out, split, write_report
from .rtl_check import Staged, add_common_arguments, admit
from .rtl_probe import Probe, first_module, lint_warnings, probe
from .rtlrepairbench_records import (
    SETS,
    Record,
    Testbench,
    eval_tasks,
    read_jsonl,
    realbug,
    record_files,
    synthetic,
    verilogeval_testbench,
)

CONTRACTS = ("seeded", "published")
GATING_STYLE = ["BLKSEQ", "UNDRIVEN"]  # the benchmark's gating warning classes Verilator leaves off by default
CYCLES = 200
TIMEOUT = 60.0
_CASE_ID = re.compile(r"[^A-Za-z0-9_.-]+")


class RtlRepairBenchImporter:
    """RTLRepairBench (lint, semantic and real-bug sets) under its published or this project's contract."""

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
        staged: list[Staged] = []
        entries: list[Entry] = []
        for set_name in ns.sets or list(SETS):
            for contract in (["testbench"] if set_name == "real" else contracts):
                found, rejected = stage_set(data, set_name, contract, specs, benches, ns)
                staged += found
                entries += rejected
        prepare_out(ns.out, self.name, suite_dirs())
        written, notes, decided = admit(staged, ns)
        if not ns.no_check:
            kept = sum(1 for why in decided.values() if not why)
            notes.append(f"Tier F kept on {kept} of {len(decided)} golden designs checked")
        entries += written
        entries.sort(key=lambda e: (e.suite, e.source))
        return write_report(ImportReport(self.name, ns.out, tuple(entries), tuple(notes),
                                         {"contracts": contracts, "sets": ns.sets or list(SETS)}))


def suite_dirs() -> list[str]:
    """Every suite directory this importer writes (a new import replaces them all)."""
    return ["rrb_real", *(suite_of(s, c) for s in ("lint", "semantic") for c in CONTRACTS)]


def suite_of(set_name: str, contract: str) -> str:
    return f"rrb_{set_name}" + ("_published" if contract == "published" else "")


def stage_set(data: Path, set_name: str, contract: str, specs: dict[str, str], benches: dict[str, Testbench],
              ns: argparse.Namespace) -> tuple[list[Staged], list[Entry]]:
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
    return split(found)


def stage_record(raw: dict[str, Any] | str, set_name: str, contract: str, entry: Entry, specs: dict[str, str],
                 benches: dict[str, Testbench], verilogeval: Path | None, probes: dict[str, Probe]) -> Staged | Entry:
    if isinstance(raw, str):
        return entry.rejected(Reason.NOT_IMPORTABLE, raw)
    try:
        record = realbug(raw) if set_name == "real" else synthetic(raw, set_name)
    except PatchError as exc:
        return entry.rejected(Reason.PATCH_FAILS, f"the record's repair diff does not apply to its broken RTL: {exc}")
    except ValueError as exc:
        return entry.rejected(Reason.NOT_IMPORTABLE, f"unreadable record: {exc}")
    entry = Entry(entry.source, entry.suite, entry.status, group=record.kind or "unknown")
    if record.golden == record.broken:
        return entry.rejected(Reason.NO_OP, "the broken design is the golden design")
    top = first_module(record.golden)
    if top is None:
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
    """The staged case of one record."""
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
