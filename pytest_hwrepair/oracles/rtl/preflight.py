"""Candidate preflight for rtl oracles: source rules, module set and port interface (fail closed)."""

from __future__ import annotations

import re
from dataclasses import dataclass

# System functions a synthesizable repair may need; every other `$` task is rejected (DESIGN §8):
# display tasks could forge testbench output, file tasks could read the golden design.
ALLOWED_SYSTEM_FUNCTIONS = frozenset({"$signed", "$unsigned", "$clog2", "$bits"})
ALLOWED_DIRECTIVES = frozenset({"timescale", "default_nettype"})
# Constructs that reach outside the module or override what the testbench drives.
FORBIDDEN_KEYWORDS = ("force", "release", "deassign", "defparam", "bind", "import", "export",
                      "primitive", "interface", "package", "program", "class", "config", "checker")
# Comment pragmas that change what lint or synthesis sees.
PRAGMA = re.compile(r"^(//|/\*)\s*(verilator|synopsys|synthesis|pragma|yosys)\b"
                    r"|\b(lint_off|lint_on|translate_off|translate_on|full_case|parallel_case)\b", re.IGNORECASE)

_COMMENT_OR_STRING = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"', re.DOTALL)
_MODULE = re.compile(r"\b(?:macro)?module\s+([A-Za-z_][A-Za-z0-9_$]*)")
_SYSTEM_CALL = re.compile(r"\$[A-Za-z_][A-Za-z0-9_$]*")
_DIRECTIVE = re.compile(r"`([A-Za-z_][A-Za-z0-9_]*)")
_HIERARCHICAL = re.compile(r"(?<![\w$'.])([A-Za-z_][A-Za-z0-9_$]*)\s*\.\s*([A-Za-z_][A-Za-z0-9_$]*)")
_ATTRIBUTE = re.compile(r"\(\*\s*[A-Za-z_]")
_ESCAPED_IDENT = re.compile(r"\\\S")
_RTLIL_MODULE = re.compile(r"^module \\(\S+)$")
_RTLIL_PORT = re.compile(r"^\s*wire\s+(?:width\s+(\d+)\s+)?(?:(?:upto|signed|offset\s+-?\d+)\s+)*"
                         r"(input|output|inout)\s+(\d+)\s+\\(\S+)\s*$")


@dataclass(frozen=True, slots=True)
class Port:
    """One port of a module: name, direction and width in bits."""

    name: str
    direction: str
    width: int


Interface = dict[str, tuple[Port, ...]]


class PreflightRejection(Exception):
    """The candidate breaks a preflight rule; `rule` names it, the message says where."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule


def strip_comments(text: str) -> str:
    """The text with comments and string literals blanked (line numbers kept)."""
    return _COMMENT_OR_STRING.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def module_names(text: str) -> list[str]:
    """Names of the modules a Verilog text defines, in order."""
    return _MODULE.findall(strip_comments(text))


def check_source_rules(name: str, text: str) -> None:
    """Reject pragmas, preprocessor tricks, system tasks, hierarchical references, force and friends."""
    for match in _COMMENT_OR_STRING.finditer(text):
        if not match.group(0).startswith('"') and PRAGMA.search(match.group(0)):
            _reject("pragma", name, text, match.start(), "tool pragma in a comment")
    code = strip_comments(text)
    for rule, pattern, what in (("attribute", _ATTRIBUTE, "synthesis attribute (* ... *)"),
                                ("escaped-identifier", _ESCAPED_IDENT, "escaped identifier")):
        if found := pattern.search(code):
            _reject(rule, name, text, found.start(), what)
    for match in _DIRECTIVE.finditer(code):
        if match.group(1) not in ALLOWED_DIRECTIVES:
            _reject("preprocessor", name, text, match.start(), f"compiler directive `{match.group(1)}")
    for match in _SYSTEM_CALL.finditer(code):
        if match.group(0) not in ALLOWED_SYSTEM_FUNCTIONS:
            _reject("system-task", name, text, match.start(), f"system task {match.group(0)} is not allowed "
                    f"(allowed: {', '.join(sorted(ALLOWED_SYSTEM_FUNCTIONS))})")
    for word in FORBIDDEN_KEYWORDS:
        if found := re.search(rf"(?<![\w$]){word}(?![\w$])", code):
            _reject(word, name, text, found.start(), f"`{word}` is not allowed in a repair")
    if found := _HIERARCHICAL.search(code):
        _reject("hierarchical-reference", name, text, found.start(),
                f"hierarchical reference {found.group(1)}.{found.group(2)}")


def _reject(rule: str, name: str, text: str, offset: int, what: str) -> None:
    line = text.count("\n", 0, offset) + 1
    raise PreflightRejection(rule, f"{name}:{line}: {what}")


def check_module_set(found: list[str], declared: list[str]) -> None:
    """The candidate defines exactly the declared modules, each once."""
    if dupes := sorted({m for m in found if found.count(m) > 1}):
        raise PreflightRejection("module-set", f"module {dupes[0]} is defined more than once")
    for names, what in ((set(found) - set(declared), "is not part of the design"),
                        (set(declared) - set(found), "is missing")):
        if names:
            raise PreflightRejection("module-set", f"module {min(names)} {what} "
                                     f"(expected exactly: {', '.join(declared)})")


def parse_interface(rtlil: str) -> Interface:
    """Module name -> ports (in declaration order) from `yosys write_rtlil` output."""
    interface: Interface = {}
    module: str | None = None
    ports: list[tuple[int, Port]] = []
    for line in rtlil.splitlines():
        if head := _RTLIL_MODULE.match(line):
            module, ports = head.group(1), []
        elif line.strip() == "end" and module is not None and line.startswith("end"):
            interface[module] = tuple(p for _, p in sorted(ports, key=lambda item: item[0]))
            module = None
        elif module is not None and (wire := _RTLIL_PORT.match(line)):
            width, direction, index, name = wire.groups()
            ports.append((int(index), Port(name, direction, int(width or 1))))
    return interface


def compare_interfaces(golden: Interface, candidate: Interface, modules: list[str]) -> None:
    """Same port names, directions and widths in every declared module."""
    for module in modules:
        want = {p.name: p for p in golden.get(module, ())}
        got = {p.name: p for p in candidate.get(module, ())}
        for pname, port in want.items():
            other = got.get(pname)
            if other is None:
                raise PreflightRejection("ports", f"module {module}: port {pname} is missing")
            for have, says, unit in ((other.direction, port.direction, ""), (other.width, port.width, " bits wide")):
                if have != says:
                    raise PreflightRejection("ports", f"module {module}: port {pname} is {have}{unit}, "
                                             f"the interface says {says}")
        if extra := sorted(set(got) - set(want)):
            raise PreflightRejection("ports", f"module {module}: port {extra[0]} is not in the interface")


def rename_modules(text: str, names: list[str], prefix: str) -> str:
    """Prefix every declared module name (definitions and instantiations) so two copies can coexist."""
    if not names:
        return text
    pattern = re.compile(r"(?<![\w$.])(" + "|".join(re.escape(n) for n in names) + r")(?![\w$])")
    return pattern.sub(lambda m: prefix + m.group(1), text)
