"""Where a Chrysalis-HLS spec applies: its function's home program and file, and the one span it edits.

A spec names its function, so the function decides where the original code is: its own body first,
then the code it calls (depth first, in call order: a Chrysalis design unit is a function with its
callees). Where the code occurs several times there, the first occurrence in source order is taken,
the reading every injector of these specs uses, one spelt exactly as the spec spells it before one
that matches only up to spacing. Only code the function does not reach is looked for
in its file and then its program, and there it must occur once.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from .base import Entry, Reason
from .chrysalis_specs import Spec
from .hls_programs import Program
from .snippets import Span, calls, find_snippet, same_code, tokens

_NUMBERED = re.compile(r"^(.+)_(\d+)$")


@dataclass(frozen=True, slots=True)
class Edit:
    """A spec placed in an upstream file: replace text[start:end] by the faulty code."""

    spec: Spec
    program: Program
    file: str
    start: int
    end: int
    where: str = ""  # how the spec's function led to this place, for the import log and the bug's note

    @property
    def find(self) -> str:
        return self.program.files[self.file][self.start:self.end]

    @property
    def key(self) -> tuple[str, str, str, str]:
        """Equal for two edits that leave the same program behind (up to whitespace between tokens)."""
        text = self.program.files[self.file]
        edited = text[:self.start] + self.spec.faulty + text[self.end:]
        return (self.program.suite, self.program.name, self.file, hashlib.sha256(tokens(edited).encode()).hexdigest())


Home = tuple[Program, str, Span, str]  # program, file, definition, the name it is defined under


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
    return [(p, name, Span(start, end), function) for p in programs for name, start, end in p.definitions(function)]


def unit(program: Program, function: str, file: str, span: Span) -> Iterator[tuple[str, str, Span]]:
    """(function, file, body) of `function` and then of every function it calls that the program defines,
    depth first in call order, each once."""
    seen = {function}

    def walk(name: str, where: str, body: Span) -> Iterator[tuple[str, str, Span]]:
        yield name, where, body
        for callee in calls(program.files[where], body):
            if callee not in seen:
                seen.add(callee)
                for cfile, start, end in program.definitions(callee):
                    yield from walk(callee, cfile, Span(start, end))

    return walk(function, file, span)


def locate(spec: Spec, programs: list[Program]) -> Edit | Entry:
    """The edit, or the rejection saying why the spec cannot be placed."""
    found = homes(spec.function, programs)
    if not found:
        return spec.entry().rejected(Reason.NOT_FOUND, f"function {spec.function} is not defined in any "
                                                       f"{spec.suite} program here")
    for home in found:
        placed = _in_unit(spec, *home)
        if placed is not None:
            return placed
    for scope in ("file", "program"):
        for program, name, _, _ in found:
            hits = _hits(spec, program, name, scope)
            if len(hits) == 1:
                return _edit(spec, program, *hits[0], f"not in {spec.function} or the code it calls; the only "
                                                      f"occurrence in its {scope}")
            if hits:
                where = ", ".join(sorted({f"{program.name}/{n}" for n, _ in hits}))
                return spec.entry().rejected(Reason.AMBIGUOUS, f"the original code is not in {spec.function} or "
                                             f"the code it calls, and occurs {len(hits)} times in its {scope} "
                                             f"({where})")
    first = found[0]
    return spec.entry().rejected(Reason.NOT_FOUND, f"the original code does not occur in {spec.function} "
                                 f"({first[0].name}/{first[1]}), the code it calls or anywhere in its program")


def _in_unit(spec: Spec, program: Program, file: str, span: Span, defined: str) -> Edit | Entry | None:
    """The first occurrence in the function's body, else in the first callee (depth first) holding one."""
    for function, where, body in unit(program, defined, file, span):
        text = program.files[where]
        hits = find_snippet(text, spec.original, body)
        if hits:
            # Spacing tells recurring statements apart where tokens cannot (MachSuite's stencil3d writes its
            # boundary loop `i<height_size-1` and its stencil loop `i < height_size - 1`): a spec copied
            # from the code spells its statement as the code does, so an exact occurrence comes first.
            exact = [h for h in hits if text[h.start:h.end] == spec.original.strip()]
            pick = (exact or hits)[0]
            said = f"in {function}" if function == defined else f"in {function}, which {defined} calls"
            if len(hits) > 1:
                said = f"the first of {len(hits)} occurrences {said}" + (
                    "" if pick == hits[0] else " spelt as the spec spells it")
            return _edit(spec, program, where, pick, said)
    return None


def _hits(spec: Spec, program: Program, name: str, scope: str) -> list[tuple[str, Span]]:
    files = [name] if scope == "file" else list(program.search)
    return [(n, s) for n in files for s in find_snippet(program.files[n], spec.original)]


def _edit(spec: Spec, program: Program, name: str, span: Span, where: str) -> Edit | Entry:
    edit = Edit(spec, program, name, span.start, span.end, where)
    if same_code(edit.find, spec.faulty):
        return spec.entry().rejected(Reason.NO_OP, "the faulty code equals the original up to whitespace")
    return edit


def twins(edits: list[Edit], preferred: Callable[[Edit], bool] = lambda edit: True) -> dict[str, str]:
    """For every edit that leaves the same program behind as another, the source of the one that stands
    for their group: the first `preferred` one (say, the one that passed its check), else the first."""
    groups: dict[tuple[str, str, str, str], list[Edit]] = {}
    for edit in edits:
        groups.setdefault(edit.key, []).append(edit)
    same: dict[str, str] = {}
    for group in groups.values():
        first = next((e for e in group if preferred(e)), group[0])
        same.update({e.spec.source: first.spec.source for e in group if e is not first})
    return same


def dedupe(edits: list[Edit], preferred: Callable[[Edit], bool] = lambda edit: True) -> tuple[list[Edit], list[Entry]]:
    """One edit of each group that leaves the same program behind (see `twins`); the others are rejected
    as duplicates of it."""
    same = twins(edits, preferred)
    kept = [e for e in edits if e.spec.source not in same]
    dropped = [e.spec.entry().rejected(Reason.DUPLICATE, f"the same edit as {same[e.spec.source]}")
               for e in edits if e.spec.source in same]
    return kept, dropped
