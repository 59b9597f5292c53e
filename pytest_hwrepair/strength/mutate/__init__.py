"""Deterministic single-edit operators for C, CUDA and Verilog, shared by repair search and mutation analysis.

Operators work on tokens, so they never edit inside a comment, a string or character literal, or a whole-line
directive (`#include`, `` `timescale ``); `candidate_edits` and `seeded_order` give the same edits in the same
order every time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from . import operators as ops
from .source import Edit, Language, Op, Source, apply_all, seeded_order, tokenize

OperatorFn = Callable[[Source], Iterator[Edit]]

OPERATORS: dict[Op, OperatorFn] = {
    Op.RELATIONAL: ops.relational,
    Op.ARITHMETIC: ops.arithmetic,
    Op.LOGICAL: ops.logical,
    Op.SHIFT: ops.shift,
    Op.CONSTANT: ops.constant,
    Op.BOUND: ops.bound,
    Op.INDEX: ops.index,
    Op.SWAP: ops.swap,
    Op.TERNARY: ops.ternary,
    Op.NEGATE: ops.negate,
    Op.IDENTIFIER: ops.identifier,
    Op.DELETE: ops.delete,
    Op.TYPE: ops.type_,
    Op.INIT: ops.init,
    Op.GUARD: ops.guard,
    Op.BLOCKING: ops.blocking,
    Op.SENSITIVITY: ops.sensitivity,
    Op.RESET: ops.reset,
    Op.BIT_INDEX: ops.bit_index,
    Op.WIDTH: ops.width,
    Op.SPECIAL: ops.special,
}

# Operators that apply to one language only: `candidate_edits` never runs them on the other.
C_ONLY = frozenset({Op.INDEX, Op.INIT, Op.GUARD, Op.SPECIAL})
# Edits that make a program pass by special-casing an input: mutants that a strong oracle must kill, never
# candidates the repair search proposes.
MUTANT_ONLY = frozenset({Op.SPECIAL})
VERILOG_ONLY = frozenset({Op.BLOCKING, Op.SENSITIVITY, Op.RESET, Op.BIT_INDEX, Op.WIDTH})
# The single-edit mutants of mutation analysis.
MUTANT_OPERATORS = (Op.RELATIONAL, Op.ARITHMETIC, Op.LOGICAL, Op.CONSTANT, Op.BOUND, Op.SHIFT, Op.INDEX,
                    Op.BIT_INDEX, Op.DELETE)


def _applies(op: Op, language: Language) -> bool:
    return op not in (VERILOG_ONLY if language is not Language.VERILOG else C_ONLY)


def operators_for(language: Language) -> tuple[Op, ...]:
    """The repair operators that apply to a language, in registry order."""
    return tuple(op for op in OPERATORS if _applies(op, language) and op not in MUTANT_ONLY)


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
    chosen = [op for op in (operators if operators is not None else operators_for(language))
              if _applies(op, language)]
    found: dict[tuple[int, str, str], Edit] = {}  # the first of equal edits stays
    for op in chosen:
        for edit in OPERATORS[op](src):
            if edit.old != edit.new:
                found.setdefault((edit.offset, edit.old, edit.new), edit)
    order = {op: n for n, op in enumerate(OPERATORS)}
    return sorted(found.values(), key=lambda e: (e.offset, order.get(e.operator, len(order))))


def mutants(text: str, language: Language, n: int, seed: int, operators: Iterable[Op] = MUTANT_OPERATORS) \
        -> list[Edit]:
    """Up to n single-edit mutants in a seeded order (mutation analysis), then every special-casing mutant
    of the text (a few per function; kept apart so that the seeded sample stays what it was)."""
    return seeded_order(candidate_edits(text, language, operators), seed)[:n] + \
        candidate_edits(text, language, MUTANT_ONLY)


__all__ = ["MUTANT_ONLY", "MUTANT_OPERATORS", "OPERATORS", "Edit", "Language", "Op", "Source", "apply_all",
           "candidate_edits", "mutants", "operators_for", "parse_operators", "seeded_order", "tokenize"]
