"""What an rtl importer learns about an upstream golden design before writing its case: the top module's ports
(yosys), whether it holds state, the Verilator warning classes it raises (waived in the case's lint: upstream
designs were never written to be warning-free), and its clock and reset inputs by their conventional names. The
tools run on the user's own checkout files in a scratch directory; candidates never run here.
"""

from __future__ import annotations

import re
import shlex
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..oracles.rtl.preflight import Port, PreflightRejection, check_source_rules, module_names, parse_interface
from ..sandbox import scratch

PROBE_TIMEOUT = 120.0
_WARNING = re.compile(r"^%Warning-([A-Z][A-Z0-9_]*)", re.MULTILINE)
_CLOCK = re.compile(r"^(?:clk|clock|[a-z0-9_]*_a?clk|a?clk_[a-z0-9_]*|[a-z0-9_]*_clock)$", re.IGNORECASE)
_RESET = re.compile(r"^(?:[a-z0-9_]*_)?(?:a?rst|a?reset)(_?n|_ni|b)?$", re.IGNORECASE)
_FLOP = re.compile(r"\$_?(?:\w*dff\w*|\w*latch\w*|sr|ff)\b")


@dataclass(frozen=True, slots=True)
class Probe:
    """The golden design as the tools see it."""

    top: str
    modules: tuple[str, ...]
    ports: tuple[Port, ...] = ()
    stateful: bool = False
    waivers: tuple[str, ...] = ()
    problem: str = ""  # why yosys cannot read the design ('' when it can)
    rules: str = ""  # the first candidate rule the golden breaks ('' when none)

    @property
    def clock(self) -> str | None:
        """The one clock input by name (None when there is none, or more than one)."""
        found = [p.name for p in self.inputs if p.width == 1 and _CLOCK.match(p.name)]
        return found[0] if len(found) == 1 else None

    @property
    def reset(self) -> tuple[str, int] | None:
        """The reset input by name and its active level (a trailing n: active low)."""
        for port in self.inputs:
            m = _RESET.match(port.name)
            if port.width == 1 and m:
                return port.name, 0 if m.group(1) else 1
        return None

    def clocking(self, reset: bool = True) -> dict[str, Any]:
        """The oracle's clock, and its reset held for 2 cycles (with `reset`, where there is a clock)."""
        held = self.reset if reset and self.clock else None
        return {"clock": self.clock, "reset": {"signal": held[0], "active": held[1], "cycles": 2} if held else None}

    @property
    def inputs(self) -> list[Port]:
        return [p for p in self.ports if p.direction == "input"]

    @property
    def tier_f(self) -> bool:
        """Tier F can run: yosys reads the design, its ports are plain, and a stateful one has a clock."""
        plain = all(p.direction in ("input", "output") for p in self.ports)
        return not self.problem and plain and (self.clock is not None or not self.stateful)


def first_module(text: str) -> str | None:
    return next(iter(module_names(text)), None)


def rule_problem(files: dict[str, str]) -> str:
    """The first rtl candidate rule a golden file breaks (directives, system tasks, ...), or ''."""
    for name, text in files.items():
        try:
            check_source_rules(name, text)
        except PreflightRejection as exc:
            return str(exc)
    return ""


def probe(files: dict[str, str], top: str) -> Probe:
    """Ports, state and lint warnings of the golden design `files` (name -> text) with top module `top`."""
    modules = tuple(m for text in files.values() for m in module_names(text))
    rules = rule_problem(files)
    waivers = lint_warnings(files, top)
    with scratch.directory("hwrepair-probe-") as root:
        names = _write(root, files)
        script = (f"read_verilog -sv {names}; hierarchy -check -top {shlex.quote(top)}; write_rtlil ports.il; "
                  "proc; flatten; stat")
        synth = _run(root, f"yosys -q -p {shlex.quote(script)} -l yosys.log")
        ports_file, log = root / "ports.il", root / "yosys.log"
        if synth.returncode != 0 or not ports_file.is_file():
            problem = _first_error(log.read_text(errors="replace") if log.is_file() else synth.stdout)
            return Probe(top, modules, waivers=waivers, problem=problem or "yosys cannot read it", rules=rules)
        ports = parse_interface(ports_file.read_text(errors="replace")).get(top, ())
        stat = log.read_text(errors="replace")
    return Probe(top, modules, ports, bool(_FLOP.search(stat)), waivers, rules=rules)


def lint_problem(files: dict[str, str], top: str, waive: tuple[str, ...] = ()) -> str:
    """The first Verilator diagnostic that fails lint as the rtl oracles run it ('' when it lints clean)."""
    ran = _lint(files, top, waive)
    if ran.returncode == 0:
        return ""
    found = re.search(r"^%(?:Error|Warning).*$", ran.stdout, re.MULTILINE)
    return found.group(0)[:300] if found else f"verilator exits {ran.returncode}"


def lint_warnings(files: dict[str, str], top: str) -> tuple[str, ...]:
    """Every Verilator warning class the design raises under the rtl oracles' lint."""
    return tuple(sorted(set(_WARNING.findall(_lint(files, top, ()).stdout))))


def _lint(files: dict[str, str], top: str, waive: tuple[str, ...]) -> subprocess.CompletedProcess[str]:
    with scratch.directory("hwrepair-lint-") as root:
        names = _write(root, files)
        flags = "".join(f" -Wno-{w}" for w in waive)
        return _run(root, f"verilator --cc --no-timing{flags} -Mdir lintobj --top-module {shlex.quote(top)} {names}")


def preprocess(folder: Path, name: str) -> tuple[str | None, str]:
    """`folder/name` through the Icarus preprocessor (macros expanded, includes from `folder` inlined): the
    text, or None and the preprocessor's complaint."""
    with scratch.directory("hwrepair-pp-") as tmp:
        out = tmp / "out.v"
        ran = _run(folder, f"iverilog -E -I . -o {shlex.quote(str(out))} {shlex.quote(name)}")
        if ran.returncode != 0 or not out.is_file():
            return None, _first_error(ran.stdout) or f"iverilog -E exits {ran.returncode}"
        return out.read_text(encoding="utf-8", errors="replace"), ""


def _write(root: Path, files: dict[str, str]) -> str:
    """Write the files under `root`; their names quoted for a command line."""
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return " ".join(shlex.quote(n) for n in files)


def _run(root: Path, command: str) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(command, shell=True, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, timeout=PROBE_TIMEOUT, check=False, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(command, 124, "", f"timed out after {PROBE_TIMEOUT:.0f}s")


def _first_error(log: str) -> str:
    return next((line.strip()[:300] for line in log.splitlines() if "error" in line.lower()), "")
