"""Quality gates and baseline regressions (DESIGN §10): checked on the controller after a run."""

from __future__ import annotations

import operator
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from pathlib import Path

from .metrics import mean_pass_at_k
from .rundir import SampleRecord
from .tally import BugStats, bug_stats, correct_at_k

_GATE = re.compile(r"^\s*(?:(?P<scope>[A-Za-z0-9_./=,-]+):)?(?P<metric>pass|correct)@(?P<k>\d+)\s*"
                   r"(?P<op>>=|<=|>|<|==)\s*(?P<value>[0-9.]+)\s*$")


@dataclass(frozen=True)
class Gate:
    text: str
    scope: str | None
    metric: str
    k: int
    op: str
    value: float


def parse_gate(text: str) -> Gate:
    """`[domain[/suite]:]pass@K OP VALUE`; raises ValueError with what is allowed."""
    m = _GATE.match(text)
    if not m:
        raise ValueError(f"--hwrepair-gate: {text!r} is not [SCOPE:]pass@K OP VALUE (SCOPE: comma-separated "
                         "DOMAIN, DOMAIN/SUITE or fixer=NAME; OP one of >= <= > < ==; metric pass or correct), "
                         "e.g. 'pass@1>=0.6', 'hls/chs:pass@5>=0.3' or 'fixer=noop:pass@1<=0'")
    k, value = int(m["k"]), float(m["value"])
    if k < 1:
        raise ValueError(f"--hwrepair-gate: {text!r}: k must be at least 1 (pass@1 is one sample per bug)")
    if not 0 <= value <= 1:
        raise ValueError(f"--hwrepair-gate: {text!r}: the value is a rate between 0 and 1, got {value}")
    return Gate(text, m["scope"], m["metric"], k, m["op"], value)


def gate_problem(gate: Gate, fixers: dict[str, tuple[str, bool]], samples: int | None) -> str | None:
    """Why a gate can never be checked with these fixers (label -> (name, deterministic)), or None."""
    names = [s.removeprefix("fixer=") for s in (gate.scope or "").split(",") if s.startswith("fixer=")]
    known = {n for label, (name, _) in fixers.items() for n in (label, name, name.split(":")[0])}
    for name in names:
        if name not in known:
            return (f"--hwrepair-gate: {gate.text!r}: no fixer {name!r} in this run "
                    f"(labels: {', '.join(sorted(fixers))})")
    scoped = [label for label, (name, _) in fixers.items()
              if not names or {label, name, name.split(":")[0]} & set(names)]
    for label in scoped:
        most = samples if samples is not None else (1 if fixers[label][1] else None)
        if most is not None and gate.k > most:
            return (f"--hwrepair-gate: {gate.text!r}: {gate.metric}@{gate.k} needs at least {gate.k} samples per bug; "
                    f"{label} has {most} (set --hwrepair-samples)")
    return None


def scope_problem(gate: Gate, present: set[tuple[str, str]]) -> str | None:
    """Why the gate's DOMAIN or DOMAIN/SUITE selectors name nothing among the (domain, suite) pairs run, or None."""
    for selector in (gate.scope or "").split(","):
        if not selector or selector.startswith("fixer="):
            continue
        domain, _, suite = selector.partition("/")
        if not any(d == domain and (not suite or s == suite) for d, s in present):
            shown = ", ".join(sorted({d for d, _ in present} | {f"{d}/{s}" for d, s in present})) or "no cases"
            return f"--hwrepair-gate: {gate.text!r}: {selector!r} names nothing in this run (it holds: {shown})"
    return None


def annotate_junit(path: Path, verdicts: Sequence[tuple[str, str | None]], rejected: Collection[str],
                   rejected_as: str) -> None:
    """Add the gate and baseline verdicts (name, failure line or None) to pytest's JUnit XML file: a property
    `hwrepair_gate` and a test case (class `hwrepair.gates`) each. With `rejected_as="skipped"`, the test cases
    of rejected repairs (node ids in `rejected`) are skipped, not failed: the gates' own test cases decide."""
    tree = ET.parse(path)
    root = tree.getroot()
    suite = root if root.tag == "testsuite" else root.find("testsuite")
    if suite is None:
        return
    props = suite.find("properties")
    if props is None:
        props = ET.Element("properties")
        suite.insert(0, props)
    counts = {name: int(suite.get(name, "0")) for name in ("tests", "failures", "skipped")}
    for name, failure in verdicts:
        ET.SubElement(props, "property", name="hwrepair_gate", value=f"{name}: {failure or 'holds'}")
        case = ET.SubElement(suite, "testcase", classname="hwrepair.gates", name=name, time="0")
        counts["tests"] += 1
        if failure:
            ET.SubElement(case, "failure", message=failure).text = failure
            counts["failures"] += 1
    if rejected_as == "skipped":
        addresses = {_junit_address(nodeid) for nodeid in rejected}
        for case in suite.iter("testcase"):
            element = case.find("failure")
            if element is not None and (case.get("classname"), case.get("name")) in addresses:
                case.remove(element)
                ET.SubElement(case, "skipped", type="hwrepair.rejected", message=element.get("message", ""))
                counts["failures"] -= 1
                counts["skipped"] += 1
    for name, value in counts.items():
        suite.set(name, str(value))
    tree.write(path, encoding="utf-8", xml_declaration=True)


def _junit_address(nodeid: str) -> tuple[str, str]:
    """(classname, name) pytest's JUnit XML gives a node id."""
    path, bracket, params = nodeid.partition("[")
    names = path.split("::")
    names[0] = re.sub(r"\.py$", "", names[0].replace("/", "."))
    return ".".join(names[:-1]), names[-1] + bracket + params


def check_gates(gates: Sequence[Gate], records: Sequence[SampleRecord]) -> list[str]:
    """One line per gate that does not hold (n/a values fail: the gate cannot be verified)."""
    stats = bug_stats(records)
    failures = []
    ops: dict[str, Callable[[float, float], bool]] = {
        ">=": operator.ge, "<=": operator.le, ">": operator.gt, "<": operator.lt, "==": lambda a, b: abs(a - b) < 1e-12}
    for gate in gates:
        scoped = [s for s in stats if _in_scope(s, gate.scope)]
        for fixer in sorted({s.fixer for s in scoped}) or ["(no samples)"]:
            rows = [s for s in scoped if s.fixer == fixer]
            if gate.metric == "pass":
                value = mean_pass_at_k([(s.n, s.c) for s in rows if s.n > 0], gate.k)
            else:
                value = correct_at_k(rows, gate.k)
            if value is None or not ops[gate.op](value, gate.value):
                shown = "n/a" if value is None else f"{value:.3f}"
                failures.append(f"gate {gate.text!r} not met for {fixer}: {gate.metric}@{gate.k} = {shown}")
    return failures


def _in_scope(s: BugStats, scope: str | None) -> bool:
    """Every selector must hold: `fixer=NAME` (label or name), `DOMAIN` or `DOMAIN/SUITE`."""
    for selector in filter(None, (scope or "").split(",")):
        if selector.startswith("fixer="):
            if selector.removeprefix("fixer=") not in (s.label, s.fixer, s.fixer.split(":")[0]):
                return False
        else:
            parts = selector.split("/")
            if s.domain != parts[0] or (len(parts) > 1 and s.suite != parts[1]):
                return False
    return True


def regressions(current: Sequence[SampleRecord], baseline: Sequence[SampleRecord]) -> list[str]:
    """Bugs a fixer repaired in the baseline (some sample passed) and no longer repairs at all."""
    before = {(s.case, s.bug, s.fixer): s for s in bug_stats(baseline)}
    now = bug_stats(current)
    single = len({s.fixer for s in now}) == 1 and len({k[2] for k in before}) == 1
    lines = []
    for s in now:
        old = before.get((s.case, s.bug, s.fixer))
        if old is None and single:
            old = next((b for (c, bug, _), b in before.items() if c == s.case and bug == s.bug), None)
        if old is not None and old.n and old.c > 0 and s.n and s.c == 0:
            lines.append(f"regression: {s.case}::{s.bug} [{s.fixer}] passed {old.c}/{old.n} in the baseline, "
                         f"now 0/{s.n}")
    return lines
