"""Oracle kinds: one module each, one registry line each."""

from __future__ import annotations

from dataclasses import replace

from ..cases import Case
from .base import Oracle, OracleContext, OracleFactory
from .cuda import CudaOracle
from .hls import ExitCodeOracle, OutputDiffOracle
from .hls_diff import HlsDiffOracle
from .rtl import RtlEquivOracle, RtlLintOracle, RtlSimOracle

ORACLES: dict[str, OracleFactory] = {
    "exit-code": ExitCodeOracle,
    "output-diff": OutputDiffOracle,
    "rtl-lint": RtlLintOracle,
    "rtl-sim": RtlSimOracle,
    "rtl-equiv": RtlEquivOracle,
    "cuda": CudaOracle,
    "hls-diff": HlsDiffOracle,
}
# Strong oracles that judge only candidates the suite oracle passed (the others also judge failures).
STRONG_ON_PASS_ONLY = frozenset({"hls-diff"})


def make_oracle(case: Case, ctx: OracleContext) -> Oracle:
    """The suite oracle of a case."""
    try:
        factory = ORACLES[case.oracle.kind]
    except KeyError:
        raise ValueError(f"{case.path}: oracle.kind: no oracle {case.oracle.kind!r} is installed "
                         f"(known: {', '.join(sorted(ORACLES))})") from None
    # The toolchain hint lets container sandboxes pick the image for the case's domain.
    return factory(case, replace(ctx, limits=replace(ctx.limits, toolchain=case.domain)))


__all__ = ["ORACLES", "STRONG_ON_PASS_ONLY", "Oracle", "OracleContext", "make_oracle"]
