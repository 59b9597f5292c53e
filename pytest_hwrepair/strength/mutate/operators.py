"""The operator families: expressions, Verilog processes, values, statements and names.

Each operator is a function of a `Source` that yields its edits; at one site the likeliest come first.
"""

from __future__ import annotations

import bisect
import difflib
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import cast

from .source import C_TYPES, Edit, Kind, Op, Source, Statement, StmtKind, Token, words

RELATIONAL = {
    "<": ("<=", ">", "!=", ">=", "=="), "<=": ("<", ">=", "==", ">", "!="),
    ">": (">=", "<", "!=", "<=", "=="), ">=": (">", "<=", "==", "<", "!="),
    "==": ("!=", "<=", ">=", "<", ">"), "!=": ("==", "<", ">", "<=", ">="),
    "===": ("!==",), "!==": ("===",),
}
ARITHMETIC = {"+": ("-", "*"), "-": ("+",), "*": ("/", "+"), "/": ("*", "%"), "%": ("/",),
              "+=": ("-=",), "-=": ("+=",), "*=": ("/=",), "/=": ("*=",), "++": ("--",), "--": ("++",)}
LOGICAL = {"&&": ("||",), "||": ("&&",), "&": ("|", "^"), "|": ("&", "^"), "^": ("|", "&"),
           "&=": ("|=",), "|=": ("&=", "^="), "^=": ("|=",), "~^": ("^",)}
SHIFT = {"<<": (">>",), ">>": ("<<",), "<<=": (">>=",), ">>=": ("<<=",), "<<<": (">>>",), ">>>": (">>", "<<<")}
NON_COMMUTATIVE = words("- / % << >> < > <= >=")
_CAST_HEADS = words("reinterpret_cast static_cast const_cast dynamic_cast template")


def token_edit(src: Source, i: int, new: str, op: Op) -> Edit:
    t = src.tokens[i]
    return Edit(t.start, t.text, new, op)


def is_assignment(src: Source, i: int) -> bool:
    """Whether the `=`/`<=` token at i assigns (its statement's lvalue ends right before it)."""
    if (stmt := src.statement_at(i)) is None or stmt.kind not in (StmtKind.EXPR, StmtKind.ASSIGN):
        return False
    first = stmt.first + (1 if stmt.kind is StmtKind.ASSIGN else 0)
    return src.operand_right(first - 1) == i - 1


def _binary_ops(src: Source, table: dict[str, tuple[str, ...]], op: Op, *, need_binary: frozenset[str]) \
        -> Iterator[Edit]:
    for i, t in enumerate(src.tokens):
        if t.kind is not Kind.PUNCT or t.text not in table or (t.text in need_binary and not src.is_binary(i)) \
                or (src.verilog and t.text == "<=" and is_assignment(src, i)) or _template_bracket(src, i):
            continue
        for new in table[t.text]:
            if not (src.verilog and new in ("++", "--", "+=", "-=", "*=", "/=", "%=")):
                yield token_edit(src, i, new, op)


def _template_bracket(src: Source, i: int) -> bool:
    if src.verilog:
        return False
    if (prev := src.tok(i - 1)) is not None and src.tokens[i].text == "<" and prev.text in _CAST_HEADS:
        return True
    if src.tokens[i].text == ">":
        for j in range(i - 1, max(i - 8, 0), -1):
            t = src.tokens[j]
            if t.text == "<":
                before = src.tok(j - 1)
                return before is not None and before.text in _CAST_HEADS
            if t.text in (";", "{", "}"):
                break
    return False


def relational(src: Source) -> Iterator[Edit]:
    yield from _binary_ops(src, RELATIONAL, Op.RELATIONAL, need_binary=frozenset())


def arithmetic(src: Source) -> Iterator[Edit]:
    yield from _binary_ops(src, ARITHMETIC, Op.ARITHMETIC, need_binary=frozenset("+-*"))
    if not src.verilog:
        yield from compound(src, frozenset(["+", "-", "*", "/"]), Op.ARITHMETIC)
    for i, t in enumerate(src.tokens):  # a unary minus dropped: `-v` -> `v`
        if t.text == "-" and t.kind is Kind.PUNCT and not src.is_binary(i) and src.operand_right(i) is not None:
            yield token_edit(src, i, "", Op.ARITHMETIC)


def compound(src: Source, ops: frozenset[str], op: Op) -> Iterator[Edit]:
    """A lost assignment: `e >> 1` standing alone (a statement or a for step) -> `e >>= 1`; `=+` -> `+=`."""
    for i, t in enumerate(src.tokens):
        if t.kind is not Kind.PUNCT:
            continue
        nxt = src.tok(i + 1)
        if t.text == "=" and nxt is not None and nxt.text in ops and nxt.text in ("+", "-") and nxt.start == t.end:
            yield Edit(t.start, t.text + nxt.text, nxt.text + "=", op)
        if t.text not in ops or not src.is_binary(i):
            continue
        left = src.operand_left(i)
        before = src.tok(left - 1) if left is not None else None
        if left is None or before is None or before.text not in (";", "{", "}", "("):
            continue
        if _step_or_statement(src, left):
            yield token_edit(src, i, t.text + "=", op)


def _step_or_statement(src: Source, left: int) -> bool:
    if (stmt := src.statement_at(left)) is not None:
        return stmt.first == left and not any(src.tokens[k].text.endswith("=") and src.tokens[k].text not in
                                              ("==", "!=", "<=", ">=") for k in range(stmt.first, stmt.last))
    return src.in_header(left) and src.tokens[left - 1].text == ";"


def logical(src: Source) -> Iterator[Edit]:
    yield from _binary_ops(src, LOGICAL, Op.LOGICAL, need_binary=frozenset("&|^"))


def shift(src: Source) -> Iterator[Edit]:
    table = SHIFT if src.verilog else {k: v for k, v in SHIFT.items() if k not in ("<<<", ">>>")}
    yield from _binary_ops(src, table, Op.SHIFT, need_binary=frozenset())
    if not src.verilog:
        yield from compound(src, frozenset(["<<", ">>"]), Op.SHIFT)


def swap(src: Source) -> Iterator[Edit]:
    """Operands of non-commutative operators, adjacent subscripts, two-element concatenations."""
    for i, t in enumerate(src.tokens):
        if t.kind is Kind.PUNCT and t.text in NON_COMMUTATIVE and src.is_binary(i):
            if src.verilog and t.text == "<=" and is_assignment(src, i):
                continue
            left, right = src.operand_left(i), src.operand_right(i)
            if left is not None and right is not None:
                yield _swap_spans(src, (left, i - 1), (i + 1, right), Op.SWAP)
        if t.text == "]" and (nxt := src.tok(i + 1)) is not None and nxt.text == "[" and i in src.match \
                and i + 1 in src.match:
            a, b = (src.match[i] + 1, i - 1), (i + 2, src.match[i + 1] - 1)
            if a[0] <= a[1] and b[0] <= b[1]:
                yield _swap_spans(src, a, b, Op.SWAP)
        if src.verilog and t.text == "{" and i in src.match:
            yield from _concat_swap(src, i)
        if t.text == "[" and t.kind is Kind.PUNCT and i in src.match:
            yield from _swap_names(src, i + 1, src.match[i] - 1)
    for stmt in src.statements:
        if stmt.kind in (StmtKind.EXPR, StmtKind.ASSIGN) and stmt.last - stmt.first <= MAX_SWAP_TOKENS:
            yield from _swap_names(src, stmt.first, stmt.last)


MAX_SWAP_TOKENS = 40
MAX_SWAP_PAIRS = 15


def _swap_names(src: Source, first: int, last: int) -> Iterator[Edit]:
    """Two names exchanged within a subscript or a statement: `f[fr * N + fc]` -> `f[fc * N + fr]`."""
    names = [k for k in range(first, last + 1) if src.tokens[k].kind is Kind.IDENT
             and (nxt := src.tok(k + 1)) is not None and nxt.text != "("
             and (prev := src.tok(k - 1)) is not None and prev.text not in (".", "->")]
    counts = Counter(src.tokens[k].text for k in names)
    once = [k for k in names if counts[src.tokens[k].text] == 1]
    for a, b in [(a, b) for n, a in enumerate(once) for b in once[n + 1:]][:MAX_SWAP_PAIRS]:
        yield _swap_spans(src, (a, a), (b, b), Op.SWAP)


def _concat_swap(src: Source, i: int) -> Iterator[Edit]:
    close = src.match[i]
    commas = [j for j in range(i + 1, close) if src.tokens[j].text == ","
              and not any(a < j < src.match[a] for a in range(i + 1, j) if a in src.match and src.match[a] > a)]
    if len(commas) == 1:
        yield _swap_spans(src, (i + 1, commas[0] - 1), (commas[0] + 1, close - 1), Op.SWAP)


def _swap_spans(src: Source, a: tuple[int, int], b: tuple[int, int], op: Op) -> Edit:
    a_start, a_text = src.span(*a)
    b_start, b_text = src.span(*b)
    middle = src.text[a_start + len(a_text):b_start]
    return Edit(a_start, src.text[a_start:b_start + len(b_text)], b_text + middle + a_text, op)


def ternary(src: Source) -> Iterator[Edit]:
    """`c ? a : b` -> `c ? b : a`."""
    for q, t in enumerate(src.tokens):
        colon = _matching_colon(src, q) if t.text == "?" and t.kind is Kind.PUNCT else None
        if colon is not None and colon > q + 1 and (end := src.expr_end(colon + 1, frozenset())) > colon:
            yield _swap_spans(src, (q + 1, colon - 1), (colon + 1, end), Op.TERNARY)


def _matching_colon(src: Source, q: int) -> int | None:
    j, depth = q + 1, 0
    while j < len(src.tokens):
        t = src.tokens[j]
        if t.kind is Kind.PUNCT and t.text in "([{" and j in src.match:
            j = src.match[j] + 1
            continue
        if t.text in (";", ")", "]", "}", ","):
            return None
        if t.text == "?":
            depth += 1
        elif t.text == ":":
            if depth == 0:
                return j
            depth -= 1
        j += 1
    return None


def negate(src: Source) -> Iterator[Edit]:
    """Conditions of `if`/`while` inverted, and a logical or bitwise not dropped."""
    for i, t in enumerate(src.tokens):
        if t.is_("if", "while") and (close := src.group_after(i)) is not None and close > i + 2:
            start, cond = src.span(i + 2, close - 1)
            if cond.startswith(("!", "~")) and src.operand_right(i + 2) == close - 1:
                continue  # `if (!x)`: dropping the `!` below covers it
            yield Edit(start, cond, f"!({cond})", Op.NEGATE)
        if t.text in ("!", "~") and t.kind is Kind.PUNCT and src.operand_right(i) is not None:
            yield token_edit(src, i, "", Op.NEGATE)


_EDGES = {"posedge": "negedge", "negedge": "posedge"}
RESET_LOOKAHEAD = 12


def blocking(src: Source) -> Iterator[Edit]:
    """`q <= d;` <-> `q = d;` in procedural blocks."""
    for i, t in enumerate(src.tokens):
        if t.kind is Kind.PUNCT and t.text in ("<=", "=") and is_assignment(src, i) \
                and (stmt := src.statement_at(i)) is not None and stmt.kind is StmtKind.EXPR:
            yield token_edit(src, i, "=" if t.text == "<=" else "<=", Op.BLOCKING)


def sensitivity(src: Source) -> Iterator[Edit]:
    """An incomplete sensitivity list made `@*`; `posedge` <-> `negedge`."""
    for i, t in enumerate(src.tokens):
        if t.text in _EDGES and t.kind is Kind.KEYWORD:
            yield token_edit(src, i, _EDGES[t.text], Op.SENSITIVITY)
        if t.text == "@" and (close := src.group_after(i)) is not None:
            inner = src.tokens[i + 2:close]
            if inner and not any(x.text in _EDGES or x.text == "*" for x in inner):
                start, old = src.span(i + 1, close)
                yield Edit(start, old, "*", Op.SENSITIVITY)


def reset(src: Source) -> Iterator[Edit]:
    """Reset polarity flipped as a whole: the edge in the sensitivity list and the test that follows."""
    for i, t in enumerate(src.tokens):
        signal = src.tok(i + 1)
        if t.text not in _EDGES or signal is None or signal.kind is not Kind.IDENT:
            continue
        if (test := _reset_test(src, i + 2, signal.text)) is None:
            continue
        first, last = test
        flipped = signal.text if last > first else f"!{signal.text}"  # `!R` -> `R`, `R` -> `!R`
        start, old = src.span(i, last)
        middle = src.text[signal.end:src.tokens[first].start]
        yield Edit(start, old, f"{_EDGES[t.text]} {signal.text}{middle}{flipped}", Op.RESET)


def _reset_test(src: Source, j: int, name: str) -> tuple[int, int] | None:
    """Tokens of the `R` / `!R` / `~R` condition of the first `if` after j that tests R."""
    for k in range(j, min(j + RESET_LOOKAHEAD, len(src.tokens) - 2)):
        if src.tokens[k].is_("if") and (close := src.group_after(k)) is not None:
            texts = [x.text for x in src.tokens[k + 2:close]]
            if texts == [name] or texts in (["!", name], ["~", name]):
                return k + 2, close - 1
            return None
    return None


POOL = 6
POOL_WINDOW = 24  # literals either side searched for nearby values
MAX_FLIP_WIDTH = 16
_C_INT = re.compile(r"^(0[xX][0-9a-fA-F]+|[1-9][0-9]*|0)([uUlL]*)$")
_V_SIZED = re.compile(r"^(\d+)?\s*'([sS]?)([bBoOdDhH])\s*([0-9a-fA-F_]+)$")
_DECL_KW = words("reg wire logic input output inout signed integer localparam parameter")
_BOUND_STOPS = frozenset(("&&", "||", "?", "and", "or"))
_RADIX = {"b": 2, "o": 8, "d": 10, "h": 16}


@dataclass(frozen=True, slots=True)
class Literal:
    """An integer literal: its value and how to write another value the same way."""

    value: int
    width: int | None
    base: str
    signed: str
    digits: int
    suffix: str
    upper: bool

    def write(self, value: int) -> str:
        if self.width is not None:
            value &= (1 << self.width) - 1
            body = _digits(value, self.base, self.digits if self.base in "bh" else 0, self.upper)
            return f"{self.width}'{self.signed}{self.base}{body}" if self.base else str(value)
        if self.base == "h":
            return ("0X" if self.upper else "0x") + _digits(value, "h", 0, self.upper) + self.suffix
        return str(value) + self.suffix


def _digits(value: int, base: str, pad: int, upper: bool) -> str:
    spec = {"b": "b", "o": "o", "h": "X" if upper else "x"}.get(base, "d")
    return format(value, spec).rjust(pad, "0")


def parse_literal(token: Token, verilog: bool) -> Literal | None:
    """The integer literal a token holds, or None (floats, x/z digits, anything else)."""
    text = token.text
    if verilog:
        if m := _V_SIZED.match(text):
            width = int(m.group(1)) if m.group(1) else None
            base = m.group(3).lower()
            digits = m.group(4).replace("_", "")
            try:
                value = int(digits, _RADIX[base])
            except ValueError:
                return None
            upper = digits.upper() == digits and any(c.isalpha() for c in digits)
            return Literal(value, width, base, m.group(2), len(digits), "", upper or (base == "h" and digits.isdigit()))
        if re.fullmatch(r"\d[\d_]*", text):
            return Literal(int(text.replace("_", "")), None, "", "", 0, "", False)
        return None
    if (m := _C_INT.match(text)) is None:
        return None
    body = m.group(1)
    if body.lower().startswith("0x"):
        return Literal(int(body, 16), None, "h", "", 0, m.group(2), body[1] == "X")
    return Literal(int(body), None, "", "", 0, m.group(2), False)


def _literals(src: Source) -> list[tuple[int, Literal]]:
    """(token index, literal) of every integer literal, parsed once per source."""
    if "literals" not in src.memo:
        src.memo["literals"] = [(i, lit) for i, t in enumerate(src.tokens) if t.kind is Kind.NUMBER
                                and (lit := parse_literal(t, src.verilog)) is not None]
    return cast("list[tuple[int, Literal]]", src.memo["literals"])


def _nearby_values(src: Source, i: int, lit: Literal) -> list[int]:
    """Values of other literals of the same kind within a window of tokens, nearest first."""
    literals = _literals(src)
    at = bisect.bisect_left(literals, i, key=lambda x: x[0])
    window = literals[max(at - POOL_WINDOW, 0):at + POOL_WINDOW + 1]
    found = sorted((abs(j - i), other.value) for j, other in window
                   if j != i and other.width == lit.width and other.value != lit.value)
    return list(dict.fromkeys(v for _, v in found))[:POOL]


def constant(src: Source) -> Iterator[Edit]:
    for i, lit in _literals(src):
        for value in _constant_values(src, i, lit):
            if (new := lit.write(value)) != src.tokens[i].text:
                yield token_edit(src, i, new, Op.CONSTANT)
        beside = (src.tok(i - 1), src.tok(i + 1))
        if not src.verilog and lit.base == "" and any(n is not None and n.text == "/" for n in beside):
            yield token_edit(src, i, f"{lit.value}.0", Op.CONSTANT)
        if not src.verilog and lit.value in (0, 1):
            for name in _named_constants(src, i):
                yield token_edit(src, i, name, Op.CONSTANT)


def _constant_values(src: Source, i: int, lit: Literal) -> list[int]:
    v = lit.value
    limit = (1 << lit.width) - 1 if lit.width else None
    values = [v + 1, v - 1] + ([v // 2] if v >= 2 else []) + [2 * v, 0, 1]
    if limit is not None:
        values += [limit]
        if lit.width is not None and lit.width <= MAX_FLIP_WIDTH:
            values += [v ^ (1 << b) for b in range(lit.width)]
    values += _nearby_values(src, i, lit)
    return list(dict.fromkeys(x for x in values if x >= 0 and x != v and (limit is None or x <= limit)))


_MACRO = re.compile(r"^[A-Z][A-Z0-9_]*$")


def _named_constants(src: Source, i: int) -> list[str]:
    """ALL-CAPS names (macros, enumerators) of the same function, nearest first: a zeroed constant's value."""
    if (block := src.block_of(i)) is None:
        return []
    found = sorted((abs(k - i), src.tokens[k].text) for k in range(block[0], block[1])
                   if src.tokens[k].kind is Kind.IDENT and _MACRO.match(src.tokens[k].text)
                   and src.tokens[k + 1].text != "(")
    return list(dict.fromkeys(name for _, name in found))[:POOL]


def _is_one(token: Token, verilog: bool) -> bool:
    lit = parse_literal(token, verilog) if token.kind is Kind.NUMBER else None
    return lit is not None and lit.value == 1


def bound(src: Source) -> Iterator[Edit]:
    """Off-by-one bounds and amounts: the right side of a comparison or a shift one more or one less
    (`i < N` -> `i < N - 1`, `x << k` -> `x << (k - 1)`), and a `- 1` / `+ 1` term dropped anywhere."""
    for i, t in enumerate(src.tokens):
        if t.kind is not Kind.PUNCT:
            continue
        if t.text in ("+", "-") and src.is_binary(i) and (one := src.tok(i + 1)) is not None \
                and _is_one(one, src.verilog) and _ends_term(src, i + 1):
            yield from _drop_term(src, i)
            continue
        if t.text in _SHIFT_OPS and src.is_binary(i) and (end := src.operand_right(i)) is not None:
            start, amount = src.span(i + 1, end)
            if parse_literal(src.tokens[end], src.verilog) is None or end > i + 1:
                yield from (Edit(start, amount, f"({amount} {sign} 1)", Op.BOUND) for sign in "-+")
            continue
        if t.text not in RELATIONAL or (src.verilog and t.text == "<=" and is_assignment(src, i)):
            continue
        if (end := src.expr_end(i + 1, _BOUND_STOPS)) <= i:
            continue
        last, op = src.tokens[end], src.tok(end - 1)
        if end - 1 > i + 1 and op is not None and op.text in ("+", "-") and _is_one(last, src.verilog):
            continue  # the dropped term above covers it
        yield from (Edit(last.end, "", f" {sign} 1", Op.BOUND) for sign in "-+")


_SHIFT_OPS = frozenset(["<<", ">>", "<<<", ">>>"])


def _ends_term(src: Source, j: int) -> bool:
    """Whether the `1` at token j ends its additive term (nothing binds tighter after it)."""
    nxt = src.tok(j + 1)
    return nxt is None or nxt.text in (")", "]", ";", ",", "}", "?", ":", "+", "-", "<", ">", "<=", ">=", "==",
                                       "!=", "&&", "||", "<<", ">>", "&", "|", "^")


def _drop_term(src: Source, i: int) -> Iterator[Edit]:
    """`X - 1` -> `X`; a group that held only `(X - 1)` loses its parentheses too."""
    before, one = src.tokens[i - 1], src.tokens[i + 1]
    open_ = src.match.get(i + 2) if (close := src.tok(i + 2)) is not None and close.text == ")" else None
    if open_ is not None and src.operand_left(i) == open_ + 1 and (head := src.tok(open_ - 1)) is not None \
            and head.kind is not Kind.IDENT and head.text not in ("if", "while", "for"):
        inner = src.span(open_ + 1, i - 1)[1]
        yield Edit(src.tokens[open_].start, src.text[src.tokens[open_].start:src.tokens[i + 2].end], inner,
                   Op.BOUND)
        return
    yield Edit(before.end, src.text[before.end:one.end], "", Op.BOUND)


def index(src: Source) -> Iterator[Edit]:
    """Array subscripts one off: `a[i]` -> `a[i - 1]`, `a[i + 1]`; `a[i - 1]` -> `a[i]`."""
    for i, t in enumerate(src.tokens):
        if t.text != "[" or t.kind is not Kind.PUNCT or i not in src.match or src.match[i] <= i + 1:
            continue
        close = src.match[i]
        last, op = src.tokens[close - 1], src.tokens[close - 2]
        if close - 2 > i and op.text in ("+", "-") and _is_one(last, False):
            before = src.tokens[close - 3]
            yield Edit(before.end, src.text[before.end:last.end], "", Op.INDEX)
            continue
        yield from (Edit(last.end, "", f" {sign} 1", Op.INDEX) for sign in "-+")


def _selects(src: Source) -> Iterator[tuple[int, int, bool]]:
    """Verilog `[...]` groups: (open, close, is a declaration range)."""
    for i, t in enumerate(src.tokens):
        if t.text != "[" or t.kind is not Kind.PUNCT or i not in src.match:
            continue
        prev = src.tok(i - 1)
        # a range right after a declaration's range (`logic [3:0][7:0] x`) is one too
        before = src.tok(src.match.get(i - 1, i - 1) - 1)
        decl = prev is not None and (prev.text in _DECL_KW or (prev.text == "]" and before is not None
                                                               and before.text in _DECL_KW))
        yield i, src.match[i], decl


def declared_msb(src: Source) -> dict[str, int]:
    """Verilog signal -> the MSB of its declared `[M:0]` range."""
    found: dict[str, int] = {}
    for open_, close, decl in _selects(src):
        inner = src.tokens[open_ + 1:close]
        name = src.tok(close + 1)
        if decl and len(inner) == 3 and inner[1].text == ":" and name is not None and name.kind is Kind.IDENT \
                and (msb := parse_literal(inner[0], True)) is not None:
            found[name.text] = msb.value
    return found


def bit_index(src: Source) -> Iterator[Edit]:
    """Verilog bit and part selects moved: `x[3]` -> `x[2]`, `x[4]`, `x[0]`, `x[MSB]`; `[7:4]` -> `[6:3]`."""
    msb = declared_msb(src)
    for open_, close, decl in _selects(src):
        inner = src.tokens[open_ + 1:close]
        if decl or not all(t.kind is Kind.NUMBER or t.text == ":" for t in inner):
            continue
        nums = [parse_literal(t, True) for t in inner if t.kind is Kind.NUMBER]
        if any(n is None or n.width is not None for n in nums):
            continue
        values = [n.value for n in nums if n is not None]
        name = src.tok(open_ - 1)
        top = msb.get(name.text) if name is not None else None
        start, old = src.span(open_ + 1, close - 1)
        if len(values) == 1:
            options = [values[0] - 1, values[0] + 1, 0] + ([top] if top is not None else [])
            for v in dict.fromkeys(x for x in options if x >= 0 and x != values[0]):
                yield Edit(start, old, str(v), Op.BIT_INDEX)
        elif len(values) == 2 and len(inner) == 3:
            hi, lo = values
            for d in (-1, 1):
                if lo + d >= 0:
                    yield Edit(start, old, f"{hi + d}:{lo + d}", Op.BIT_INDEX)


def width(src: Source) -> Iterator[Edit]:
    """Verilog widths one off: declared ranges `[11:0]`, part selects `[7:1]`, sized literals `5'b0`."""
    for open_, close, decl in _selects(src):
        inner = src.tokens[open_ + 1:close]
        if len(inner) != 3 or inner[1].text != ":":
            continue
        hi, lo = parse_literal(inner[0], True), parse_literal(inner[2], True)
        if hi is None or lo is None or hi.width is not None:
            continue
        for d in (-1, 1):
            if hi.value + d >= lo.value:
                yield token_edit(src, open_ + 1, str(hi.value + d), Op.WIDTH)
            if not decl and 0 <= lo.value + d <= hi.value:
                yield token_edit(src, open_ + 3, str(lo.value + d), Op.WIDTH)
    for i, t in enumerate(src.tokens):
        lit = parse_literal(t, True) if t.kind is Kind.NUMBER else None
        if lit is None or lit.width is None:
            continue
        for w in (lit.width - 1, lit.width + 1):
            if w >= 1 and lit.value < (1 << w):
                resized = replace(lit, width=w, digits=w if lit.base == "b" else lit.digits, suffix="")
                yield token_edit(src, i, resized.write(lit.value), Op.WIDTH)


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
        if (prev := src.tok(stmt.first - 1)) is not None and prev.text in (")", "else", ":", "do"):
            yield Edit(start, old, ";", Op.DELETE)
            continue
        a, b = _line_span(src, start, start + len(old))
        yield Edit(a, src.text[a:b], "", Op.DELETE)


def _accumulator(src: Source, stmt: Statement) -> tuple[str, str] | None:
    """(lvalue, neutral value) of `x += e`, `x = x + e`, `x++`; None for anything else."""
    if stmt.kind is not StmtKind.EXPR or (end := src.operand_right(stmt.first - 1)) is None or end >= stmt.last:
        return None
    lvalue = src.span(stmt.first, end)[1]
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
        if (acc := _accumulator(src, stmt)) is None:
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
        if t.kind is Kind.IDENT and src.tokens[j + 1].text in (",", ";") and j > stmt.first:
            yield Edit(t.end, "", " = 0", Op.INIT)
        j += 1


def guard(src: Source) -> Iterator[Edit]:
    """A missing guard: `s;` -> `if (c) s;` with a condition `c` the same function already tests."""
    by_block: dict[tuple[int, int], list[tuple[int, str]]] = {}
    for stmt in src.statements:
        if stmt.kind is not StmtKind.EXPR or (block := src.block_of(stmt.first)) is None:
            continue
        if block not in by_block:
            by_block[block] = [(i, src.span(i + 2, close - 1)[1]) for i in range(*block)
                               if src.tokens[i].is_("if", "while") and (close := src.group_after(i)) is not None
                               and close > i + 2]
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
    if (stmt := src.statement_at(i)) is None:
        return src.in_header(i) if src.verilog else src.block_of(i) is not None
    if stmt.kind is StmtKind.DECL:
        eq = next((k for k in range(stmt.first, stmt.last) if src.tokens[k].text == "="), None)
        return eq is not None and i > eq and nxt is not None and nxt.text != "="
    return True


def identifier(src: Source) -> Iterator[Edit]:
    """A name used in place of another: an identifier replaced by a similar one from the same scope."""
    names_by_block: dict[tuple[int, int], list[str]] = {}
    ranked: dict[tuple[tuple[int, int], str, int], list[str]] = {}
    for i, t in enumerate(src.tokens):
        if not _replaceable(src, i) or (block := src.block_of(i)) is None:
            continue
        if block not in names_by_block:
            names_by_block[block] = _name_pool(src, block)
        key = (block, t.text, t.line)
        if key not in ranked:
            arrays = _indexed_names(src, block)  # an array stands in only for an array
            ranked[key] = _ranked(src, t, [n for n in names_by_block[block] if (n in arrays) == (t.text in arrays)])
        for name in ranked[key]:
            yield Edit(t.start, t.text, name, Op.IDENTIFIER)
    yield from members(src)


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
        nxt = src.tok(i + 1)
        declares = src.verilog or (nxt is not None and (nxt.kind in (Kind.IDENT, Kind.KEYWORD) or nxt.text in "*)"))
        if t.text in table and t.kind is not Kind.STRING and declares:
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


def special(src: Source) -> Iterator[Edit]:
    """A special case: `if (n == 0) return 0;` first in an interface function (one the text defines and never
    calls: what its driver calls), for each scalar integer parameter and the values 0 and 1 — what a patch
    that special-cases a test input looks like (a mutant, never a repair)."""
    called = frozenset(t.text for a, b in src.blocks for k in range(a, b)
                       if (t := src.tokens[k]).kind is Kind.IDENT and src.tokens[k + 1].text == "(")
    for open_brace, _ in src.blocks:
        close = open_brace - 1
        start = src.match.get(close)
        if start is None or start < 1 or src.tokens[start - 1].kind is not Kind.IDENT \
                or src.tokens[start - 1].text in called:
            continue
        if (returned := _return_of(src, start - 1)) is None:
            continue
        for name in _integer_params(src, start, close):
            for value in SPECIAL_VALUES:
                yield Edit(src.tokens[open_brace].end, "", f" if ({name} == {value}) {returned}", Op.SPECIAL)
