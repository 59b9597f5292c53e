"""Oracle kinds: one module each, one registry line each (plus the `hwrepair.oracles` entry points)."""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from importlib.metadata import entry_points

from ..cases import Case
from .base import Oracle, OracleContext, OracleFactory, OracleKind, OracleOptions
from .cuda import CUDA
from .cuda_diff import CUDA_DIFF
from .hls import EXIT_CODE, OUTPUT_DIFF
from .hls_diff import HLS_DIFF
from .rtl import RTL_EQUIV, RTL_LINT, RTL_SIM
from .rtl_repo import RTL_REPO

BUILTIN: tuple[OracleKind, ...] = (EXIT_CODE, OUTPUT_DIFF, RTL_LINT, RTL_SIM, RTL_EQUIV, CUDA, HLS_DIFF, CUDA_DIFF,
                                   RTL_REPO)


@cache
def oracle_kinds() -> dict[str, OracleKind]:
    """Built-in kinds, then plug-ins: each entry point of `hwrepair.oracles` names an `OracleKind`."""
    found = {kind.name: kind for kind in BUILTIN}
    for ep in entry_points(group="hwrepair.oracles"):
        kind = ep.load()
        if not isinstance(kind, OracleKind):
            raise TypeError(f"entry point hwrepair.oracles:{ep.name} is a {type(kind).__name__}, not an OracleKind")
        found.setdefault(kind.name, kind)
    return found


def kind_of(name: str) -> OracleKind | None:
    return oracle_kinds().get(name)


# name -> factory, for callers that build an oracle directly.
ORACLES: dict[str, OracleFactory] = {name: kind.factory for name, kind in oracle_kinds().items()}


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


__all__ = ["ORACLES", "Oracle", "OracleContext", "OracleKind", "OracleOptions", "kind_of", "make_oracle",
           "make_strong_oracle", "oracle_kinds"]
