"""Where a Chrysalis-HLS spec applies: its function's home program and file, and the one span it edits."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass

from .base import Entry, Reason
from .chrysalis_specs import Spec
from .hls_programs import Program
from .snippets import Span, find_snippet, same_code, tokens

_NUMBERED = re.compile(r"^(.+)_(\d+)$")


@dataclass(frozen=True, slots=True)
class Edit:
    """A spec placed in an upstream file: replace text[start:end] by the faulty code."""

    spec: Spec
    program: Program
    file: str
    start: int
    end: int

    @property
    def find(self) -> str:
        return self.program.files[self.file][self.start:self.end]

    @property
    def key(self) -> tuple[str, str, str, str]:
        """Equal for two edits that leave the same program behind (up to whitespace between tokens)."""
        text = self.program.files[self.file]
        edited = text[:self.start] + self.spec.faulty + text[self.end:]
        return (self.program.suite, self.program.name, self.file, hashlib.sha256(tokens(edited).encode()).hexdigest())


Home = tuple[Program, str, Span]


def homes(function: str, programs: list[Program]) -> list[Home]:
    """The definitions of `function`, preferred first: programs in name order, so a helper shared by
    several programs (softfloat in dfadd/dfdiv/dfmul/dfsin) always lands in the same one. Chrysalis
    names a second function of the same name `<name>_1` (bfs in bfs/bulk, bfs_1 in bfs/queue), and
    PolyBench 4 dropped the `_imper` suffix of its 3.x stencils."""
    found = _defined(function, programs)
    if found:
        return found
    if function.endswith("_imper"):
        found = _defined(function.removesuffix("_imper"), programs)
        if found:
            return found
    m = _NUMBERED.match(function)
    if m:
        found, n = _defined(m.group(1), programs), int(m.group(2))
        return found[n:] + found[:n] if n < len(found) else []
    return []


def _defined(function: str, programs: list[Program]) -> list[Home]:
    return [(p, name, Span(start, end)) for p in programs for name, start, end in p.definitions(function)]


def locate(spec: Spec, programs: list[Program]) -> Edit | Entry:
    """The edit, or the rejection saying why the spec cannot be placed."""
    found = homes(spec.function, programs)
    if not found:
        return spec.entry().rejected(Reason.NOT_FOUND, f"function {spec.function} is not defined in any "
                                                       f"{spec.suite} program here")
    for scope in ("function", "file", "program"):
        for program, name, span in found:
            hits = _hits(spec, program, name, span, scope)
            if len(hits) == 1:
                return _edit(spec, program, *hits[0])
            if hits:
                where = ", ".join(sorted({f"{program.name}/{n}" for n, _ in hits}))
                return spec.entry().rejected(Reason.AMBIGUOUS, f"the original code occurs {len(hits)} times in "
                                             f"the {scope} of {spec.function} ({where})")
    first = found[0]
    return spec.entry().rejected(Reason.NOT_FOUND, f"the original code does not occur in {spec.function} "
                                 f"({first[0].name}/{first[1]}) or anywhere in its program")


def _hits(spec: Spec, program: Program, name: str, span: Span, scope: str) -> list[tuple[str, Span]]:
    if scope == "function":
        return [(name, s) for s in find_snippet(program.files[name], spec.original, span)]
    files = [name] if scope == "file" else list(program.search)
    return [(n, s) for n in files for s in find_snippet(program.files[n], spec.original)]


def _edit(spec: Spec, program: Program, name: str, span: Span) -> Edit | Entry:
    edit = Edit(spec, program, name, span.start, span.end)
    if same_code(edit.find, spec.faulty):
        return spec.entry().rejected(Reason.NO_OP, "the faulty code equals the original up to whitespace")
    return edit


def dedupe(edits: list[Edit], preferred: Callable[[Edit], bool] = lambda edit: True) -> tuple[list[Edit], list[Entry]]:
    """One edit of each group that leaves the same program behind: the first `preferred` one (say, the
    one whose label passed the check: a spec labelled INF that does not hang may be a good MLU), else
    the first. The others are rejected as duplicates of it."""
    groups: dict[tuple[str, str, str, str], list[Edit]] = {}
    for edit in edits:
        groups.setdefault(edit.key, []).append(edit)
    kept: list[Edit] = []
    dropped: list[Entry] = []
    for group in groups.values():
        first = next((e for e in group if preferred(e)), group[0])
        kept.append(first)
        dropped += [e.spec.entry().rejected(Reason.DUPLICATE, f"the same edit as {first.spec.source}")
                    for e in group if e is not first]
    return kept, dropped
