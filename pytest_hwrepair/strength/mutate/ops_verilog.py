"""Verilog operators: blocking <-> non-blocking, sensitivity lists and edges, reset polarity."""

from __future__ import annotations

from collections.abc import Iterator

from .edit import Edit, Op
from .ops_expr import is_assignment, token_edit
from .structure import Source, StmtKind
from .tokens import Kind

_EDGES = {"posedge": "negedge", "negedge": "posedge"}
RESET_LOOKAHEAD = 12


def blocking(src: Source) -> Iterator[Edit]:
    """`q <= d;` <-> `q = d;` in procedural blocks."""
    for i, t in enumerate(src.tokens):
        if t.kind is not Kind.PUNCT or t.text not in ("<=", "=") or not is_assignment(src, i):
            continue
        stmt = src.statement_at(i)
        if stmt is not None and stmt.kind is StmtKind.EXPR:
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
        test = _reset_test(src, i + 2, signal.text)
        if test is None:
            continue
        first, last = test
        cond = src.tokens[first:last + 1]
        flipped = signal.text if len(cond) == 2 else f"!{signal.text}"
        start, old = src.span(i, last)
        middle = src.text[signal.end:src.tokens[first].start]
        yield Edit(start, old, f"{_EDGES[t.text]} {signal.text}{middle}{flipped}", Op.RESET)


def _reset_test(src: Source, j: int, name: str) -> tuple[int, int] | None:
    """Tokens of the `R` / `!R` / `~R` condition of the first `if` after j that tests R."""
    for k in range(j, min(j + RESET_LOOKAHEAD, len(src.tokens) - 2)):
        if src.tokens[k].is_("if") and (close := src.group_after(k)) is not None:
            inner = src.tokens[k + 2:close]
            texts = [x.text for x in inner]
            if texts == [name] or texts in (["!", name], ["~", name]):
                return k + 2, close - 1
            return None
    return None
