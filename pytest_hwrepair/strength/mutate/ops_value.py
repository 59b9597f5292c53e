"""Value operators: constants (±1, nearby values, bit flips), loop bounds, array indices, bit selects, widths."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import cast

from .edit import Edit, Op
from .ops_expr import RELATIONAL, is_assignment, token_edit
from .structure import Source
from .tokens import Kind, Token, words

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
        m = _V_SIZED.match(text)
        if m:
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
    m = _C_INT.match(text)
    if m is None:
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
    for i, t in enumerate(src.tokens):
        if t.kind is not Kind.NUMBER:
            continue
        lit = parse_literal(t, src.verilog)
        if lit is None:
            continue
        for value in _constant_values(src, i, lit):
            new = lit.write(value)
            if new != t.text:
                yield token_edit(src, i, new, Op.CONSTANT)
        if not src.verilog and lit.base == "" and _next_to_division(src, i):
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
    block = src.block_of(i)
    if block is None:
        return []
    found = sorted((abs(k - i), src.tokens[k].text) for k in range(block[0], block[1])
                   if src.tokens[k].kind is Kind.IDENT and _MACRO.match(src.tokens[k].text)
                   and src.tokens[k + 1].text != "(")
    return list(dict.fromkeys(name for _, name in found))[:POOL]


def _next_to_division(src: Source, i: int) -> bool:
    prev, nxt = src.tok(i - 1), src.tok(i + 1)
    return (prev is not None and prev.text == "/") or (nxt is not None and nxt.text == "/")


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
                yield Edit(start, amount, f"({amount} - 1)", Op.BOUND)
                yield Edit(start, amount, f"({amount} + 1)", Op.BOUND)
            continue
        if t.text not in RELATIONAL or (src.verilog and t.text == "<=" and is_assignment(src, i)):
            continue
        end = src.expr_end(i + 1, _BOUND_STOPS)
        if end <= i:
            continue
        last, op = src.tokens[end], src.tok(end - 1)
        if end - 1 > i + 1 and op is not None and op.text in ("+", "-") and _is_one(last, src.verilog):
            continue  # the dropped term above covers it
        yield Edit(last.end, "", " - 1", Op.BOUND)
        yield Edit(last.end, "", " + 1", Op.BOUND)


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
        yield Edit(last.end, "", " - 1", Op.INDEX)
        yield Edit(last.end, "", " + 1", Op.INDEX)


def _selects(src: Source) -> Iterator[tuple[int, int, bool]]:
    """Verilog `[...]` groups with numeric contents: (open, close, is a declaration range)."""
    for i, t in enumerate(src.tokens):
        if t.text != "[" or t.kind is not Kind.PUNCT or i not in src.match:
            continue
        prev = src.tok(i - 1)
        decl = prev is not None and (prev.text in _DECL_KW or (prev.text == "]" and _decl_before(src, i)))
        yield i, src.match[i], decl


def _decl_before(src: Source, i: int) -> bool:
    j = src.match.get(i - 1, i - 1) - 1
    t = src.tok(j)
    return t is not None and t.text in _DECL_KW


def declared_msb(src: Source) -> dict[str, int]:
    """Verilog signal -> the MSB of its declared `[M:0]` range."""
    found: dict[str, int] = {}
    for open_, close, decl in _selects(src):
        inner = src.tokens[open_ + 1:close]
        name = src.tok(close + 1)
        if decl and len(inner) == 3 and inner[1].text == ":" and name is not None and name.kind is Kind.IDENT:
            msb = parse_literal(inner[0], True)
            if msb is not None:
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
        hi = parse_literal(inner[0], True)
        lo = parse_literal(inner[2], True)
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
