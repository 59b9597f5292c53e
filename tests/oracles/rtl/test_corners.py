"""Tier S corner runs: equal operands, extremes, back-to-back inputs, a reset asserted mid-stream."""

from __future__ import annotations

import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_hwrepair.cases.case import Case
from pytest_hwrepair.cases.load import load_case
from pytest_hwrepair.oracles.rtl.preflight import Port
from pytest_hwrepair.oracles.rtl.sim import MODES, Contract, corner_seeds, corner_stimulus, extremes
from pytest_hwrepair.verdict import Category, Outcome

from ...oracles.rtl.test_oracle import COUNTER, COUNTER_ORACLE, TOOLS, check, make_case

pytestmark = pytest.mark.skipif(any(shutil.which(t) is None for t in TOOLS),
                                reason="needs iverilog, verilator and yosys on PATH")
ALU = Path(__file__).resolve().parents[3] / "cases" / "rtl" / "comb" / "alu"
# The plausible example: unsigned less-than made less-or-equal differs only where a == b.
LESS_EQUAL = ("4'd10: y = (a < b)", "4'd10: y = (a <= b)")
# The enable takes priority over the reset: only a reset while the enable is held shows it.
ENABLE_FIRST = COUNTER.replace("""        if (!rst_n)
            q <= 4'd0;
        else if (en)
            q <= q + 4'd1;""", """        if (en)
            q <= q + 4'd1;
        else if (!rst_n)
            q <= 4'd0;""")


@pytest.fixture
def tmp_path() -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix="hwrepair-test-"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def alu(root: Path, corners: int | None = None) -> Case:
    """The corpus alu case, with its corner runs set (None: as the case declares them)."""
    folder = root / "alu"
    shutil.copytree(ALU, folder)
    if corners is not None:
        toml = folder / "case.toml"
        toml.write_text(re.sub(r"(?m)^seeds = 3$", f"seeds = 3\ncorners = {corners}", toml.read_text()),
                        encoding="utf-8")
    return load_case(folder / "case.toml", strict=True)


def less_equal(case: Case) -> str:
    text = case.files[case.target]
    assert text.count(LESS_EQUAL[0]) == 1
    return text.replace(*LESS_EQUAL)


def test_alu_less_or_equal_passes_random_stimuli_and_fails_a_corner_run(tmp_path: Path) -> None:
    random_only = alu(tmp_path / "a", corners=0)
    assert check("rtl-sim", random_only, less_equal(random_only), tmp_path).outcome is Outcome.PASSED
    case = alu(tmp_path / "b")
    verdict = check("rtl-sim", case, less_equal(case), tmp_path)
    assert verdict.category is Category.TEST_FAIL
    assert verdict.metrics["seed"] < 0 and "of corner run" in verdict.summary
    assert (verdict.metrics["expected"], verdict.metrics["actual"]) == ("8'h0", "8'h1")


def test_alu_less_or_equal_is_a_tier_f_counterexample_too(tmp_path: Path) -> None:
    case = alu(tmp_path / "a")
    verdict = check("rtl-equiv", case, less_equal(case), tmp_path)
    assert verdict.category is Category.EQUIV_FAIL and verdict.metrics["equiv"] == "COUNTEREXAMPLE"


def test_golden_alu_passes_its_corner_runs(tmp_path: Path) -> None:
    case = alu(tmp_path / "a")
    verdict = check("rtl-sim", case, case.files[case.target], tmp_path)
    assert verdict.passed and verdict.summary == "outputs match the golden design on 3 seeds and 2 corner runs"
    assert "+ 2 directed corner runs" in verdict.metrics["contract"]


def test_reset_asserted_mid_stream_catches_an_enable_that_overrides_the_reset(tmp_path: Path) -> None:
    oracle = {**COUNTER_ORACLE, "cycles": 200, "reset": {"signal": "rst_n", "active": 0, "cycles": 3}}
    random_only = make_case(tmp_path / "a", COUNTER, {**oracle, "corners": 0})
    assert check("rtl-sim", random_only, ENABLE_FIRST, tmp_path).passed
    verdict = check("rtl-sim", make_case(tmp_path / "b", COUNTER, oracle), ENABLE_FIRST, tmp_path)
    assert verdict.category is Category.TEST_FAIL and "corner run" in verdict.summary
    assert verdict.metrics["expected"] == "4'h0"


def test_outputs_are_not_compared_while_the_mid_stream_reset_is_held(tmp_path: Path) -> None:
    # Differs from the golden design only while the reset is asserted.
    masked = COUNTER.replace("assign top = (q == 4'd15);", "assign top = (q == 4'd15) | !rst_n;")
    case = make_case(tmp_path / "a", COUNTER, {**COUNTER_ORACLE, "cycles": 200, "corners": 3})
    verdict = check("rtl-sim", case, masked, tmp_path)
    assert verdict.passed, verdict.summary


def _ports(*spec: tuple[str, int]) -> list[Port]:
    return [Port(name, "input", width) for name, width in spec]


def test_equal_width_inputs_share_a_value_and_a_lone_narrow_select_sweeps() -> None:
    contract = Contract("alu", None, None, 0, 0, 0, 100, 1, 2)
    code = corner_stimulus(contract, _ports(("op", 4), ("a", 8), ("b", 8)))
    equal = code.split("// equal\n", 1)[1].split("end\n", 1)[0]
    assert "in_op = corner_pos[3:0];" in equal and "in_b = in_a;" in equal
    assert f"% {len(MODES)};" in code and "hold" not in code  # no reset: never held


def test_reset_phase_asserts_the_reset_and_holds_comparison_for_compare_from() -> None:
    contract = Contract("cnt", "clk", "rst_n", 0, 2, 1, 100, 1, 2)
    code = corner_stimulus(contract, _ports(("en", 1)))
    assert "in_rst_n = 1'b0;\n  hold = 2;" in code and "in_rst_n = 1'b1;" in code


def test_extremes_are_the_edges_of_each_width_without_repeats() -> None:
    assert extremes(1) == ["1'h0", "1'h1"]
    assert extremes(2) == ["2'h0", "2'h1", "2'h3", "2'h2"]
    assert extremes(8) == ["8'h0", "8'h1", "8'hff", "8'hfe", "8'h80", "8'h7f"]
    assert corner_seeds(2) == [-1, -2] and corner_seeds(0) == []
