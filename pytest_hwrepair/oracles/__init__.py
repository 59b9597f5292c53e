"""Oracle kinds: one registry line for each built-in kind, then the `hwrepair.oracles` entry points."""

from __future__ import annotations

import importlib
from dataclasses import replace
from functools import cache
from importlib.metadata import entry_points
from typing import Any

from ..cases.case import Case
from .base import Oracle, OracleContext, OracleKind, OracleOptions

# The built-in kinds by name: the module defining each, imported when a case names the kind (a corpus of one
# domain does not import the other domains' oracles; tests check each module defines the kind named here).
BUILTIN_MODULES: dict[str, tuple[str, str]] = {
    "exit-code": ("hls.oracle", "EXIT_CODE"), "output-diff": ("hls.oracle", "OUTPUT_DIFF"),
    "rtl-lint": ("rtl.oracle", "RTL_LINT"), "rtl-sim": ("rtl.oracle", "RTL_SIM"),
    "rtl-equiv": ("rtl.oracle", "RTL_EQUIV"),
    "cuda": ("cuda.oracle", "CUDA"), "hls-diff": ("hls.oracle", "HLS_DIFF"), "cuda-diff": ("cuda.diff", "CUDA_DIFF"),
    "rtl-repo": ("rtl.repo_tests", "RTL_REPO"), "rtl-tb": ("rtl.oracle", "RTL_TB"),
}


@cache
def builtin_kind(name: str) -> OracleKind | None:
    """A built-in kind by name, its module imported on first use."""
    where = BUILTIN_MODULES.get(name)
    if where is None:
        return None
    kind = getattr(importlib.import_module(f".{where[0]}", __name__), where[1])
    if not isinstance(kind, OracleKind) or kind.name != name:
        raise TypeError(f"pytest_hwrepair.oracles.{where[0]}.{where[1]} is not the oracle kind {name!r}")
    return kind


@cache
def oracle_kinds() -> dict[str, OracleKind]:
    """Built-in kinds, then plug-ins: each entry point of `hwrepair.oracles` names an `OracleKind`."""
    found = {name: kind for name in BUILTIN_MODULES if (kind := builtin_kind(name)) is not None}
    for ep in entry_points(group="hwrepair.oracles"):
        kind = ep.load()
        if not isinstance(kind, OracleKind):
            raise TypeError(f"entry point hwrepair.oracles:{ep.name} is a {type(kind).__name__}, not an OracleKind")
        found.setdefault(kind.name, kind)
    return found


def kind_of(name: str) -> OracleKind | None:
    """The kind of this name: a built-in one (which plug-ins cannot replace) without looking at plug-ins."""
    return builtin_kind(name) or oracle_kinds().get(name)


def __getattr__(name: str) -> Any:
    if name == "ORACLES":  # name -> factory, for callers that build an oracle directly (every kind imported)
        return {kind_name: kind.factory for kind_name, kind in oracle_kinds().items()}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _context(case: Case, ctx: OracleContext) -> OracleContext:
    # The toolchain hint lets container sandboxes pick the image for the case's domain.
    return replace(ctx, limits=replace(ctx.limits, toolchain=case.domain))


def make_oracle(case: Case, ctx: OracleContext) -> Oracle:
    """The suite oracle of a case."""
    kind = kind_of(case.oracle.kind)
    if kind is None:
        raise ValueError(f"{case.path}: oracle.kind: no oracle {case.oracle.kind!r} is installed "
                         f"(known: {', '.join(sorted(oracle_kinds()))})")
    return kind.factory(case, _context(case, ctx))


def make_strong_oracle(case: Case, ctx: OracleContext) -> tuple[OracleKind, Oracle] | None:
    """The strong oracle of a case and its kind, or None when the case declares none."""
    strong = case.model.strong_oracle
    if strong is None:
        return None
    kind = kind_of(strong.kind)
    if kind is None:
        raise ValueError(f"{case.path}: strong_oracle.kind: no oracle {strong.kind!r} is installed")
    return kind, kind.factory(case, _context(case, ctx))


__all__ = ["BUILTIN_MODULES", "ORACLES", "Oracle", "OracleContext", "OracleKind", "OracleOptions", "builtin_kind",
           "kind_of", "make_oracle", "make_strong_oracle", "oracle_kinds"]
