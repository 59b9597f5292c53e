"""Deterministic single-edit operators for C, CUDA and Verilog, shared by repair search and mutation analysis.

Every operator works on tokens, so it never edits inside a comment, a string or character literal,
or a whole-line directive (`#include`, `` `timescale ``). Each yields `Edit(offset, old, new,
operator)`; `candidate_edits` collects them in source order and `seeded_order` shuffles them for a
seed, so a caller can enumerate the same candidates in the same order every time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from . import ops_expr, ops_stmt, ops_value, ops_verilog
from .edit import Edit, Op, apply_all, seeded_order
from .structure import Source
from .tokens import Language, tokenize

OperatorFn = Callable[[Source], Iterator[Edit]]

OPERATORS: dict[Op, OperatorFn] = {
    Op.RELATIONAL: ops_expr.relational,
    Op.ARITHMETIC: ops_expr.arithmetic,
    Op.LOGICAL: ops_expr.logical,
    Op.SHIFT: ops_expr.shift,
    Op.CONSTANT: ops_value.constant,
    Op.BOUND: ops_value.bound,
    Op.INDEX: ops_value.index,
    Op.SWAP: ops_expr.swap,
    Op.TERNARY: ops_expr.ternary,
    Op.NEGATE: ops_expr.negate,
    Op.IDENTIFIER: ops_stmt.identifier,
    Op.DELETE: ops_stmt.delete,
    Op.TYPE: ops_stmt.type_,
    Op.INIT: ops_stmt.init,
    Op.GUARD: ops_stmt.guard,
    Op.BLOCKING: ops_verilog.blocking,
    Op.SENSITIVITY: ops_verilog.sensitivity,
    Op.RESET: ops_verilog.reset,
    Op.BIT_INDEX: ops_value.bit_index,
    Op.WIDTH: ops_value.width,
}

C_ONLY = frozenset({Op.INDEX, Op.INIT, Op.GUARD})
VERILOG_ONLY = frozenset({Op.BLOCKING, Op.SENSITIVITY, Op.RESET, Op.BIT_INDEX, Op.WIDTH})
# The single-edit mutants of mutation analysis: operator swap, constant ±1, bound off-by-one,
# shift direction, index ±1, statement deletion.
MUTANT_OPERATORS = (Op.RELATIONAL, Op.ARITHMETIC, Op.LOGICAL, Op.CONSTANT, Op.BOUND, Op.SHIFT, Op.INDEX,
                    Op.BIT_INDEX, Op.DELETE)


def operators_for(language: Language) -> tuple[Op, ...]:
    """The operators that apply to a language, in registry order."""
    skip = VERILOG_ONLY if language is not Language.VERILOG else C_ONLY
    return tuple(op for op in OPERATORS if op not in skip)


def parse_operators(names: Iterable[str]) -> tuple[Op, ...]:
    """Operator names from user input; ValueError naming the unknown one and the allowed names."""
    out = []
    for name in names:
        try:
            out.append(Op(name.strip()))
        except ValueError:
            raise ValueError(f"unknown mutation operator {name.strip()!r} "
                             f"(allowed: {', '.join(op.value for op in Op)})") from None
    return tuple(out)


def candidate_edits(text: str, language: Language, operators: Iterable[Op] | None = None) -> list[Edit]:
    """Every edit the operators propose, deduplicated, sorted by offset then operator; at one site an
    operator's edits keep the order it proposed them in (likeliest first)."""
    src = Source(text, language)
    allowed = operators_for(language)
    chosen = [op for op in (operators if operators is not None else allowed) if op in allowed]
    seen: set[tuple[int, str, str]] = set()
    out: list[Edit] = []
    for op in chosen:
        for edit in OPERATORS[op](src):
            key = (edit.offset, edit.old, edit.new)
            if key in seen or edit.old == edit.new:
                continue
            seen.add(key)
            out.append(edit)
    order = {op: n for n, op in enumerate(OPERATORS)}
    return sorted(out, key=lambda e: (e.offset, order.get(e.operator, len(order))))


def mutants(text: str, language: Language, n: int, seed: int, operators: Iterable[Op] = MUTANT_OPERATORS) \
        -> list[Edit]:
    """Up to n single-edit mutants in a seeded order (mutation analysis)."""
    return seeded_order(candidate_edits(text, language, operators), seed)[:n]


__all__ = ["MUTANT_OPERATORS", "OPERATORS", "Edit", "Language", "Op", "Source", "apply_all", "candidate_edits",
           "mutants", "operators_for", "parse_operators", "seeded_order", "tokenize"]
