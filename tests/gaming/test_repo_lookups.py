"""Gaming a repository instance through the testbench's own lookups: a header, a library module or a unit named
as the harness's would be found first (the working directory and the design's libraries come before `tb/`). Each
such candidate is a rejection of its own, never a pass and never an error."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_hwrepair.cases.load import load_case
from pytest_hwrepair.oracles.base import OracleContext
from pytest_hwrepair.oracles.rtl.repo_tests import RepoOracle, write_files
from pytest_hwrepair.sandbox.local.sandbox import LocalSandbox
from pytest_hwrepair.verdict import Category

REPO = Path(__file__).resolve().parents[2] / "cases" / "rtl" / "repo" / "uartio"
CASE = load_case(REPO / "case.toml")
BUG = CASE.bugs[0].id
assert CASE.repo is not None
SNAP = CASE.repo.snapshot(BUG)
# What a shadowing header does: every check the testbench makes passes and no error is ever counted.
FORGED = "task check; input x; begin end endtask\n"

ATTACKS = {
    "header-at-root": {"uart_tb.vh": FORGED},
    "header-in-a-library-folder": {"rtl/uart_tb.vh": FORGED},
    "header-under-another-case": {"rtl/phy/UART_TB.vh": FORGED, "rtl/phy/uart_tb.vh": FORGED},
    "testbench-module-in-a-library": {"rtl/tb_regs.v": "module tb_regs; endmodule\n"},
    "testbench-module-inside-a-design-file": {
        "rtl/uart_top.v": SNAP.get("rtl/uart_top.v", "") + "\nmodule tb_tx; endmodule\n"},
}


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_a_candidate_file_that_would_shadow_the_testbench_is_rejected(tmp_path: Path, attack: str) -> None:
    write_files(tmp_path, {**SNAP, **ATTACKS[attack]})
    oracle = RepoOracle(CASE, OracleContext(cache_dir=tmp_path / "cache")).for_bug(BUG)
    verdict = oracle.check(tmp_path, LocalSandbox(None))
    assert verdict.category is Category.LINT_FAIL, verdict.summary
    assert verdict.metrics.get("preflight") == "shadows-testbench", verdict.summary


def test_the_header_the_testbench_includes_is_the_harness_own() -> None:
    owned = [p for p in CASE.repo.tree if p.startswith("tb/")] if CASE.repo else []
    assert "tb/uart_tb.vh" in owned
    assert any('`include "uart_tb.vh"' in CASE.repo.tree[p] for p in owned if p.endswith(".v")) if CASE.repo else False
