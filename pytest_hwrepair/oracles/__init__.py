"""Oracle kinds: one module each, one registry line each."""

from __future__ import annotations

from ..cases import Case
from .base import Oracle, OracleContext, OracleFactory
from .hls import ExitCodeOracle, OutputDiffOracle

ORACLES: dict[str, OracleFactory] = {
    "exit-code": ExitCodeOracle,
    "output-diff": OutputDiffOracle,
}


def make_oracle(case: Case, ctx: OracleContext) -> Oracle:
    """The suite oracle of a case."""
    try:
        factory = ORACLES[case.oracle.kind]
    except KeyError:
        raise ValueError(f"{case.path}: oracle.kind: no oracle {case.oracle.kind!r} is installed "
                         f"(known: {', '.join(sorted(ORACLES))})") from None
    return factory(case, ctx)


__all__ = ["ORACLES", "Oracle", "OracleContext", "make_oracle"]
