"""Repairs guided by a compiler or lint log: missing tokens, misspelt keywords and names, CUDA qualifiers."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator

from ...strength.mutate import Edit, Language, Op, Source
from ...strength.mutate.ops_stmt import C_TYPE_ALTERNATIVES
from ...strength.mutate.tokens import C_KEYWORDS, C_TYPES, VERILOG_KEYWORDS, Kind, Token
from .rank import log_lines

_QUOTED = re.compile(r"""['"`‘]([A-Za-z_][A-Za-z0-9_$]*)['"’]""")
_NO_SEMI_AFTER = frozenset(["{", "}", ";", "begin", "end", "else", "endcase", "endmodule", ",", "(", "do", ":"])
_END_WORDS = ("end", "endcase", "endmodule")
END_REACH = 8
MAX_NAMES = 5
MAX_CLOSERS = 12


def syntax_edits(text: str, language: Language, log: str, target: str) -> list[Edit]:
    """Edits proposed by the log's complaints, most specific first; empty when the log names no line."""
    src = Source(text, language)
    lines = log_lines(log, target)[:4]
    out: list[Edit] = []
    if language is Language.CUDA:
        out += list(_cuda(src, log, lines))
    out += list(_names(src, log, lines))
    for line in lines:
        out += list(_missing_tokens(src, line))
    if language is Language.VERILOG:
        out += list(_missing_ends(src, lines))
    return list(dict.fromkeys(e for e in out if e.applies_to(text) and e.old != e.new))  # first of each, in order


def _line_tokens(src: Source, line: int) -> list[tuple[int, Token]]:
    return [(i, t) for i, t in enumerate(src.tokens) if t.line == line]


def _missing_tokens(src: Source, line: int) -> Iterator[Edit]:
    """`;` at the end of the line or the one before it; `)` where the line opens more than it closes."""
    for at in (line - 1, line):
        toks = _line_tokens(src, at)
        if toks and toks[-1][1].text not in _NO_SEMI_AFTER:
            yield Edit(toks[-1][1].end, "", ";", Op.SYNTAX)
    toks = _line_tokens(src, line)
    unmatched = [k for k, (i, t) in enumerate(toks) if t.text == "(" and i not in src.match]
    if unmatched:  # a `)` after each token that follows the unclosed `(`, from the end of the line back
        after = [t for _, t in toks[unmatched[-1] + 1:]]
        ends = [t.end for t in after if t.text != ";"]
        for end in reversed(ends[-MAX_CLOSERS:]):
            yield Edit(end, "", ")", Op.SYNTAX)


def _missing_ends(src: Source, lines: list[int]) -> Iterator[Edit]:
    """`end` / `endcase` / `endmodule` inserted at the start of a line shortly before the complaint."""
    starts = [0] + [m.end() for m in re.finditer("\n", src.text)]
    for line in lines[:2]:
        for at in range(line, max(line - END_REACH, 1) - 1, -1):
            if at > len(starts):
                continue
            offset = starts[at - 1]
            indent = re.match(r"[ \t]*", src.text[offset:]).group(0)  # type: ignore[union-attr]
            for word in _END_WORDS[:2]:
                yield Edit(offset, "", f"{indent}{word}\n", Op.SYNTAX)
    text = src.text
    if text.count("endmodule") < len(re.findall(r"\bmodule\b", text)):
        yield Edit(len(text.rstrip()), "", "\nendmodule", Op.SYNTAX)


def _names(src: Source, log: str, lines: list[int]) -> Iterator[Edit]:
    """A name the log quotes, or a near-keyword on a flagged line, replaced by the nearest known word."""
    keywords = VERILOG_KEYWORDS if src.verilog else C_KEYWORDS
    counts: dict[str, int] = {}
    for t in src.tokens:
        if t.kind in (Kind.IDENT, Kind.KEYWORD):
            counts[t.text] = counts.get(t.text, 0) + 1
    quoted = {m.group(1) for m in _QUOTED.finditer(log)}
    flagged = {ln + d for ln in lines for d in (-1, 0, 1)}
    for t in src.tokens:
        if t.kind is not Kind.IDENT or not (t.text in quoted or t.line in flagged):
            continue
        if t.line in flagged and counts[t.text] == 1:
            for word in difflib.get_close_matches(t.text, keywords, n=2, cutoff=0.7):
                yield Edit(t.start, t.text, word, Op.SYNTAX)
        if t.text in quoted:
            pool = [n for n in counts if n != t.text and n not in keywords and n not in C_TYPES]
            for name in difflib.get_close_matches(t.text, pool, n=MAX_NAMES, cutoff=0.3):
                yield Edit(t.start, t.text, name, Op.SYNTAX)
    missing = [q for q in quoted if q not in counts and q not in keywords]
    for name in missing:  # the log expects a name the file lacks (a renamed port): rename the nearest
        for old in difflib.get_close_matches(name, [n for n in counts if n not in keywords], n=2, cutoff=0.3):
            yield _rename(src, old, name)


def _rename(src: Source, old: str, new: str) -> Edit:
    hits = [t for t in src.tokens if t.text == old and t.kind is Kind.IDENT]
    start, end = hits[0].start, hits[-1].end
    body = src.text[start:end]
    replaced = re.sub(rf"(?<![A-Za-z0-9_$]){re.escape(old)}(?![A-Za-z0-9_$])", new, body)
    return Edit(start, body, replaced, Op.SYNTAX)


def _cuda(src: Source, log: str, lines: list[int]) -> Iterator[Edit]:
    """nvcc's complaints mapped to token edits: qualifiers, const, casts, widths, host-only calls."""
    for m in re.finditer(r'calling a (?:constexpr )?__host__ function\("([A-Za-z_]\w*)', log):
        yield from _device_qualifier(src, m.group(1))
    for i, t in enumerate(src.tokens):
        if t.line not in lines:
            continue
        nxt = src.tok(i + 1)
        if t.text == "std" and nxt is not None and nxt.text == "::" and (fn := src.tok(i + 2)) is not None:
            end = i + 2
            after = src.tok(end + 1)
            if after is not None and after.text == "<":
                close = next((k for k in range(end + 1, min(end + 6, len(src.tokens))) if src.tokens[k].text == ">"),
                             None)
                end = close if close is not None else end
            yield Edit(t.start, src.text[t.start:src.tokens[end].end], fn.text, Op.SYNTAX)
    if "cast away const" in log:
        for line in lines:
            yield from _add_const(src, line)
    for m in re.finditer(r'a value of type "[^"]+" cannot be used to initialize an entity of type "([^"]+)"', log):
        for line in lines:
            yield from _wrap_cast(src, line, m.group(1))
    if "expression must have a constant value" in log:
        yield from _constant_names(src, lines)
    for m in re.finditer(r'identifier "([A-Za-z_]\w*)" is undefined in device code', log):
        yield from _constexpr(src, m.group(1))
    if "no instance of overloaded function" in log:
        yield from _widen_declarations(src, lines)


def _device_qualifier(src: Source, name: str) -> Iterator[Edit]:
    for i, t in enumerate(src.tokens):
        nxt = src.tok(i + 1)
        if t.text != name or nxt is None or nxt.text != "(":
            continue
        line = [x for x in src.tokens[:i] if x.line == t.line]
        host = next((x for x in line if x.text == "__host__"), None)
        if host is not None:
            yield Edit(host.start, host.text, "__device__", Op.SYNTAX)
            yield Edit(host.start, host.text, "__host__ __device__", Op.SYNTAX)
        elif line and not any(x.text == "__device__" for x in line):
            yield Edit(line[0].start, "", "__device__ ", Op.SYNTAX)
        return


def _add_const(src: Source, line: int) -> Iterator[Edit]:
    toks = _line_tokens(src, line)
    if not toks:
        return
    start, end = toks[0][1].start, toks[-1][1].end
    body = src.text[start:end]
    made = re.sub(r"(?<!const )\b(float4|float2|float|int|double|half)\s*\*", r"const \1*", body)
    if made != body:
        yield Edit(start, body, made, Op.SYNTAX)


def _wrap_cast(src: Source, line: int, to: str) -> Iterator[Edit]:
    toks = _line_tokens(src, line)
    eq = next((k for k, (_, t) in enumerate(toks) if t.text == "="), None)
    semi = next((k for k, (_, t) in enumerate(toks) if t.text == ";"), None)
    if eq is None or semi is None or semi <= eq + 1:
        return
    a, b = toks[eq + 1][1].start, toks[semi - 1][1].end
    expr = src.text[a:b]
    yield Edit(a, expr, f"reinterpret_cast<{to.replace(' *', '*')}>({expr})", Op.SYNTAX)


def _constant_names(src: Source, lines: list[int]) -> Iterator[Edit]:
    constants = sorted({src.tokens[i + 2].text for i, t in enumerate(src.tokens[:-2])
                        if t.text in ("constexpr", "define") and src.tokens[i + 2].kind is Kind.IDENT}
                       | {src.tokens[i + 1].text for i, t in enumerate(src.tokens[:-1])
                          if t.text == "define" and src.tokens[i + 1].kind is Kind.IDENT})
    for _, t in (x for line in lines for x in _line_tokens(src, line)):
        if t.kind is Kind.IDENT and t.text not in constants:
            for name in constants:
                yield Edit(t.start, t.text, name, Op.SYNTAX)


def _constexpr(src: Source, name: str) -> Iterator[Edit]:
    for i, t in enumerate(src.tokens):
        if t.text == name and i >= 2 and src.tokens[i - 2].text == "const":
            yield Edit(src.tokens[i - 2].start, "const", "constexpr", Op.SYNTAX)
            yield Edit(src.tokens[i - 2].start, "const", "__device__ const", Op.SYNTAX)
            return


def _widen_declarations(src: Source, lines: list[int]) -> Iterator[Edit]:
    used = {t.text for line in lines for _, t in _line_tokens(src, line) if t.kind is Kind.IDENT}
    for i, t in enumerate(src.tokens):
        nxt = src.tok(i + 1)
        if t.text in C_TYPE_ALTERNATIVES and nxt is not None and nxt.text in used:
            for new in C_TYPE_ALTERNATIVES[t.text]:
                yield Edit(t.start, t.text, new, Op.SYNTAX)
