"""Statement and name operators: deletion, missing initialisation, missing guard, identifiers, types."""

from __future__ import annotations

import difflib
from collections.abc import Iterator

from .edit import Edit, Op
from .structure import Source, Statement, StmtKind
from .tokens import C_TYPES, Kind, Token

MAX_NAMES = 12
MAX_GUARDS = 8
C_TYPE_ALTERNATIVES = {
    "int8_t": ("int16_t", "int32_t", "int"), "uint8_t": ("uint16_t", "uint32_t", "int"),
    "int16_t": ("int32_t", "int"), "uint16_t": ("uint32_t", "int"),
    "int32_t": ("int64_t", "uint32_t", "int16_t"), "uint32_t": ("uint64_t", "int32_t", "uint16_t"),
    "int64_t": ("uint64_t", "int32_t"), "uint64_t": ("int64_t", "uint32_t"),
    "float": ("double",), "double": ("float",), "short": ("int",), "char": ("int",),
    "int": ("long", "unsigned", "short"), "long": ("int",), "unsigned": ("int",),
}
VERILOG_TYPE_ALTERNATIVES = {"wire": ("reg",), "reg": ("wire",)}
_ACCUMULATE = {"+=": "0", "-=": "0", "|=": "0", "^=": "0", "*=": "1"}


def _line_span(src: Source, start: int, end: int) -> tuple[int, int]:
    """Widen [start, end) to whole lines when nothing else shares them."""
    text = src.text
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    if text[line_start:start].strip() == "" and text[end:line_end].strip() == "":
        return line_start, min(line_end + 1, len(text))
    return start, end


def delete(src: Source) -> Iterator[Edit]:
    """A simple statement removed (an empty statement left where the grammar needs one)."""
    kinds = (StmtKind.EXPR, StmtKind.ASSIGN) if src.verilog else (StmtKind.EXPR, StmtKind.JUMP)
    for stmt in src.statements:
        if stmt.kind not in kinds or (not src.verilog and src.block_of(stmt.first) is None):
            continue
        start, old = src.span(stmt.first, stmt.last)
        prev = src.tok(stmt.first - 1)
        if prev is not None and prev.text in (")", "else", ":", "do"):
            yield Edit(start, old, ";", Op.DELETE)
            continue
        a, b = _line_span(src, start, start + len(old))
        yield Edit(a, src.text[a:b], "", Op.DELETE)


def _lvalue(src: Source, stmt: Statement) -> tuple[int, str] | None:
    """The last token index and text of the statement's leading lvalue."""
    end = src.operand_right(stmt.first - 1)
    if end is None or end >= stmt.last:
        return None
    return end, src.span(stmt.first, end)[1]


def _accumulator(src: Source, stmt: Statement) -> tuple[str, str] | None:
    """(lvalue, neutral value) of `x += e`, `x = x + e`, `x++`; None for anything else."""
    if stmt.kind is not StmtKind.EXPR:
        return None
    found = _lvalue(src, stmt)
    if found is None:
        return None
    end, lvalue = found
    op = src.tokens[end + 1]
    if op.text in _ACCUMULATE:
        return lvalue, _ACCUMULATE[op.text]
    if op.text in ("++", "--"):
        return lvalue, "0"
    if op.text == "=":
        rhs_end = src.operand_right(end + 1)
        after = src.tok(rhs_end + 1) if rhs_end is not None else None
        if rhs_end is not None and src.span(end + 2, rhs_end)[1] == lvalue and after is not None \
                and after.text in ("+", "-", "|", "^", "*"):
            return lvalue, "1" if after.text == "*" else "0"
    return None


def init(src: Source) -> Iterator[Edit]:
    """A missing initialisation: `T x;` -> `T x = 0;`, or `x = 0;` before a loop that accumulates into x."""
    for stmt in src.statements:
        if src.block_of(stmt.first) is None:
            continue
        if stmt.kind is StmtKind.DECL:
            yield from _declarator_inits(src, stmt)
            continue
        acc = _accumulator(src, stmt)
        if acc is None:
            continue
        lvalue, value = acc
        for loop in src.loops_around(stmt.first)[:3]:
            t = src.tokens[loop]
            indent = src.text[src.text.rfind("\n", 0, t.start) + 1:t.start]
            sep = "\n" + indent if indent.strip() == "" else " "
            yield Edit(t.start, "", f"{lvalue} = {value};{sep}", Op.INIT)


def _declarator_inits(src: Source, stmt: Statement) -> Iterator[Edit]:
    first = src.tokens[stmt.first]
    if first.text in ("typedef", "extern", "struct", "enum", "union") and first.kind is Kind.KEYWORD:
        return
    j = stmt.first
    while j < stmt.last:
        t = src.tokens[j]
        if t.text in ("(", "[", "{") and j in src.match:
            close = src.match[j]
            if t.text == "[" and src.tokens[close + 1].text in (",", ";"):
                yield Edit(src.tokens[close].end, "", " = {0}", Op.INIT)
            j = close + 1
            continue
        if t.text == "=":
            j = src.expr_end(j + 1, frozenset()) + 1
            continue
        nxt = src.tokens[j + 1]
        if t.kind is Kind.IDENT and nxt.text in (",", ";") and j > stmt.first:
            yield Edit(t.end, "", " = 0", Op.INIT)
        j += 1


def _conditions(src: Source, block: tuple[int, int]) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    for i in range(block[0], block[1]):
        close = src.group_after(i)
        if src.tokens[i].is_("if", "while") and close is not None and close > i + 2:
            found.append((i, src.span(i + 2, close - 1)[1]))
    return found


def guard(src: Source) -> Iterator[Edit]:
    """A missing guard: `s;` -> `if (c) s;` with a condition `c` the same function already tests."""
    by_block: dict[tuple[int, int], list[tuple[int, str]]] = {}
    for stmt in src.statements:
        block = src.block_of(stmt.first)
        if stmt.kind is not StmtKind.EXPR or block is None:
            continue
        if block not in by_block:
            by_block[block] = _conditions(src, block)
        conds = sorted(by_block[block], key=lambda c: abs(c[0] - stmt.first))
        for cond in list(dict.fromkeys(c for _, c in conds))[:MAX_GUARDS]:
            yield Edit(src.tokens[stmt.first].start, "", f"if ({cond}) ", Op.GUARD)


def _replaceable(src: Source, i: int) -> bool:
    t = src.tokens[i]
    if t.kind is not Kind.IDENT or t.text in C_TYPES:
        return False
    prev, nxt = src.tok(i - 1), src.tok(i + 1)
    if (nxt is not None and nxt.text == "(") or (prev is not None and prev.text in (".", "->", "`")):
        return False
    stmt = src.statement_at(i)
    if stmt is None:
        return src.in_header(i) if src.verilog else src.block_of(i) is not None
    if stmt.kind is StmtKind.DECL:
        eq = next((k for k in range(stmt.first, stmt.last) if src.tokens[k].text == "="), None)
        return eq is not None and i > eq and nxt is not None and nxt.text != "="
    return True


def identifier(src: Source) -> Iterator[Edit]:
    """A name used in place of another: an identifier replaced by a similar one from the same scope."""
    yield from _variables(src)
    yield from members(src)


def _variables(src: Source) -> Iterator[Edit]:
    names_by_block: dict[tuple[int, int], list[str]] = {}
    ranked: dict[tuple[tuple[int, int], str, int], list[str]] = {}
    for i, t in enumerate(src.tokens):
        if not _replaceable(src, i):
            continue
        block = src.block_of(i)
        if block is None:
            continue
        if block not in names_by_block:
            names_by_block[block] = _name_pool(src, block)
        key = (block, t.text, t.line)
        if key not in ranked:
            arrays = _indexed_names(src, block)
            shape = t.text in arrays
            ranked[key] = _ranked(src, t, [n for n in names_by_block[block] if (n in arrays) == shape])
        for name in ranked[key]:
            yield Edit(t.start, t.text, name, Op.IDENTIFIER)


def _ranked(src: Source, t: Token, names: list[str]) -> list[str]:
    """The names likeliest meant where `t` stands (similar spelling, used on nearby lines), at most MAX_NAMES."""
    near = _names_near(src, t.line)

    def likeness(name: str) -> float:
        return difflib.SequenceMatcher(None, name, t.text).ratio() + (0.5 if name in near else 0.0)

    return sorted((n for n in names if n != t.text), key=lambda n: (-likeness(n), n))[:MAX_NAMES]


def _names_near(src: Source, line: int, reach: int = 2) -> frozenset[str]:
    found = src.memo.setdefault("names_by_line", {})
    assert isinstance(found, dict)
    if not found:
        for t in src.tokens:
            if t.kind is Kind.IDENT:
                found.setdefault(t.line, set()).add(t.text)
    return frozenset(n for d in range(-reach, reach + 1) for n in found.get(line + d, ()))


def _name_pool(src: Source, block: tuple[int, int]) -> list[str]:
    """Every variable-like name of a scope, its C parameter list included."""
    first = block[0]
    if not src.verilog and first - 1 in src.match:
        first = src.match[first - 1]
    names = set()
    for k in range(first, block[1] + 1):
        t, prev, nxt = src.tokens[k], src.tok(k - 1), src.tok(k + 1)
        if t.kind is not Kind.IDENT or t.text in C_TYPES or nxt is None or nxt.text == "(":
            continue
        if nxt.kind is Kind.IDENT or (prev is not None and (prev.text in (".", "->") or prev.is_("module"))):
            continue
        names.add(t.text)
    return sorted(names)


def _indexed_names(src: Source, block: tuple[int, int]) -> frozenset[str]:
    """Names that only stand in for names of their own shape: C arrays, Verilog parameters."""
    if src.verilog:
        params = [s for s in src.statements if block[0] <= s.first <= block[1]
                  and src.tokens[s.first].is_("localparam", "parameter")]
        return frozenset(src.tokens[k].text for s in params for k in range(s.first, s.last)
                         if src.tokens[k].kind is Kind.IDENT and src.tokens[k + 1].text == "=")
    return frozenset(src.tokens[k].text for k in range(block[0], block[1])
                     if src.tokens[k].kind is Kind.IDENT and src.tokens[k + 1].text == "[")


def members(src: Source) -> Iterator[Edit]:
    """A field used in place of another: `p->sz` -> `p->sp` (fields named anywhere in the file)."""
    if src.verilog:
        return
    fields = sorted({t.text for i, t in enumerate(src.tokens) if t.kind is Kind.IDENT and i > 0
                     and src.tokens[i - 1].text in (".", "->")})
    for i, t in enumerate(src.tokens):
        if t.kind is Kind.IDENT and i > 0 and src.tokens[i - 1].text in (".", "->") and src.block_of(i) is not None:
            for name in _ranked(src, t, fields):
                yield Edit(t.start, t.text, name, Op.IDENTIFIER)


def type_(src: Source) -> Iterator[Edit]:
    """Types of another width or precision (`float` <-> `double`, `uint8_t` -> `uint32_t`, `wire` <-> `reg`)."""
    table = VERILOG_TYPE_ALTERNATIVES if src.verilog else C_TYPE_ALTERNATIVES
    for i, t in enumerate(src.tokens):
        if t.text not in table or t.kind is Kind.STRING:
            continue
        nxt = src.tok(i + 1)
        if not src.verilog and (nxt is None or not (nxt.kind in (Kind.IDENT, Kind.KEYWORD) or nxt.text in "*)")):
            continue
        for new in table[t.text]:
            yield Edit(t.start, t.text, new, Op.TYPE)


_INTEGER = frozenset({"char", "short", "int", "long", "unsigned", "signed", "size_t", "int8_t", "int16_t",
                      "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t"})
_QUALIFIERS = frozenset({"static", "inline", "const", "extern", "__global__", "__device__", "__host__",
                         "__forceinline__", "register", "volatile"})
SPECIAL_VALUES = ("0", "1")


def _return_of(src: Source, name: int) -> str | None:
    """`return;` or `return 0;` for the function named at token `name`; None where its type is not plain."""
    words: list[str] = []
    k = name - 1
    while k >= 0 and (src.tokens[k].kind in (Kind.KEYWORD, Kind.IDENT) or src.tokens[k].text == "*"):
        words.append(src.tokens[k].text)
        k -= 1
    types = [w for w in words if w not in _QUALIFIERS]
    if not types or any(w not in C_TYPES and w != "*" for w in types):
        return None  # a struct, a typedef'd name: no fixed value to return
    return "return;" if types == ["void"] else "return 0;"


def _integer_params(src: Source, open_: int, close: int) -> list[str]:
    """Names of the scalar integer parameters in the `(...)` group open_..close."""
    out: list[str] = []
    part: list[Token] = []
    depth = 0
    for k in range(open_ + 1, close + 1):
        t = src.tokens[k]
        depth += (t.text in "([{") - (t.text in ")]}") if t.kind is Kind.PUNCT else 0
        if k == close or (t.text == "," and depth == 0):
            texts = [p.text for p in part]
            if part and part[-1].kind is Kind.IDENT and "*" not in texts and "[" not in texts and "&" not in texts \
                    and any(w in _INTEGER for w in texts[:-1]):
                out.append(part[-1].text)
            part = []
        else:
            part.append(t)
    return out


def _called(src: Source) -> frozenset[str]:
    """Names called inside some function body of the text."""
    return frozenset(t.text for a, b in src.blocks for k in range(a, b) if (t := src.tokens[k]).kind is Kind.IDENT
                     and src.tokens[k + 1].text == "(")


def special(src: Source) -> Iterator[Edit]:
    """A special case: `if (n == 0) return 0;` first in an interface function (one the text defines and never
    calls: what its driver calls), for each scalar integer parameter and the values 0 and 1 — what a patch
    that special-cases a test input looks like (a mutant, never a repair)."""
    called = _called(src)
    for open_brace, _ in src.blocks:
        close = open_brace - 1
        start = src.match.get(close)
        if start is None or start < 1 or src.tokens[start - 1].kind is not Kind.IDENT \
                or src.tokens[start - 1].text in called:
            continue
        returned = _return_of(src, start - 1)
        if returned is None:
            continue
        for name in _integer_params(src, start, close):
            for value in SPECIAL_VALUES:
                yield Edit(src.tokens[open_brace].end, "", f" if ({name} == {value}) {returned}", Op.SPECIAL)
