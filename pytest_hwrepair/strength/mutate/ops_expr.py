"""Expression operators: operator swaps, shift direction, swapped operands, ternary arms, negation."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from .edit import Edit, Op
from .structure import Source, StmtKind
from .tokens import Kind, words

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
    stmt = src.statement_at(i)
    if stmt is None or stmt.kind not in (StmtKind.EXPR, StmtKind.ASSIGN):
        return False
    first = stmt.first + (1 if stmt.kind is StmtKind.ASSIGN else 0)
    return src.operand_right(first - 1) == i - 1


def _binary_ops(src: Source, table: dict[str, tuple[str, ...]], op: Op, *, need_binary: frozenset[str]) \
        -> Iterator[Edit]:
    for i, t in enumerate(src.tokens):
        if t.kind is not Kind.PUNCT or t.text not in table:
            continue
        if t.text in need_binary and not src.is_binary(i):
            continue
        if src.verilog and t.text == "<=" and is_assignment(src, i):
            continue
        if t.text in ("<", ">") and _template_bracket(src, i):
            continue
        for new in table[t.text]:
            if src.verilog and new in ("++", "--", "+=", "-=", "*=", "/=", "%="):
                continue
            yield token_edit(src, i, new, op)


def _template_bracket(src: Source, i: int) -> bool:
    if src.verilog:
        return False
    prev = src.tok(i - 1)
    if prev is not None and src.tokens[i].text == "<" and prev.text in _CAST_HEADS:
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


_COMPOUND = frozenset(["+", "-", "*", "/", "<<", ">>", "&", "|", "^"])


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
    stmt = src.statement_at(left)
    if stmt is not None:
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
    pairs = [(a, b) for n, a in enumerate(once) for b in once[n + 1:]][:MAX_SWAP_PAIRS]
    for a, b in pairs:
        ta, tb = src.tokens[a], src.tokens[b]
        middle = src.text[ta.end:tb.start]
        yield Edit(ta.start, src.text[ta.start:tb.end], tb.text + middle + ta.text, Op.SWAP)


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
        if t.text != "?" or t.kind is not Kind.PUNCT:
            continue
        colon = _matching_colon(src, q)
        if colon is None or colon == q + 1:
            continue
        end = src.expr_end(colon + 1, frozenset())
        if end > colon:
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
