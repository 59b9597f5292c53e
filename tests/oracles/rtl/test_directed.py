"""Tier S directed runs: harness-owned stimulus files that reach what random and corner stimuli miss."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pytest_hwrepair.cases.case import Case
from pytest_hwrepair.cases.load import load_case
from pytest_hwrepair.oracles.rtl.sim import DIRECTED_BASE, describe_seed, directed_seeds, directed_stimulus
from pytest_hwrepair.verdict import CaseError, Category

from .test_oracle import TOOLS, check, make_case

pytestmark = pytest.mark.skipif(any(shutil.which(t) is None for t in TOOLS),
                                reason="needs iverilog, verilator and yosys on PATH")

# A 16-bit key compare: random and corner stimuli never present the key.
KEY = """\
module key (
    input  wire        clk,
    input  wire        rst_n,
    input  wire [15:0] a,
    output reg         hit
);
    always @(posedge clk or negedge rst_n)
        if (!rst_n) hit <= 1'b0;
        else hit <= (a == 16'h1234);
endmodule
"""
WRONG_KEY = KEY.replace("16'h1234", "16'h1235")
# A stimulus that presents the key and its neighbours in turn.
PRESENT_KEY = "in_a = 16'h1233 + (cycle % 3);\n"

# An accumulator whose input a directed run takes from the golden output: a feedback loop.
ACC = """\
module acc (
    input  wire       clk,
    input  wire       rst_n,
    input  wire [7:0] d,
    output reg  [7:0] q
);
    always @(posedge clk or negedge rst_n)
        if (!rst_n) q <= 8'd0;
        else q <= q + d;
endmodule
"""
# Wrong only when 1 is added to 200: a stimulus that steers q by the golden output gets there.
ACC_LATE = ACC.replace("else q <= q + d;", "else q <= (q == 8'd200 && d == 8'd1) ? 8'd0 : q + d;")
FOLLOW = "in_d = (gold_q < 8'd199) ? 8'd2 : 8'd1;\n"
# State kept from cycle to cycle in the file's own block: the key once, in cycle 150 from power-up.
ONCE = """\
integer n;
if (cycle == 0) n = 0; else n = n + 1;
in_a = (n == 150) ? 16'h1234 : 16'h0000;
"""

ORACLE = {"top": "key", "clock": "clk", "reset": {"signal": "rst_n", "active": 0, "cycles": 2},
          "compare_from": 0, "cycles": 300, "seeds": 2, "timeout": 60}


@pytest.fixture
def tmp_path() -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix="hwrepair-test-"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def with_stimuli(root: Path, source: str, oracle: dict[str, Any], stimuli: dict[str, str]) -> Case:
    """A one-file case whose oracle names the given stimulus files (written into the case directory)."""
    (root / "stim").mkdir(parents=True, exist_ok=True)
    for name, text in stimuli.items():
        (root / name).write_text(text, encoding="utf-8")
    return make_case(root, source, {**oracle, "stimuli": list(stimuli)})


def test_directed_run_finds_what_random_and_corner_runs_miss(tmp_path: Path) -> None:
    plain = make_case(tmp_path / "a", KEY, ORACLE)
    assert check("rtl-sim", plain, WRONG_KEY, tmp_path).passed
    case = with_stimuli(tmp_path / "b", KEY, ORACLE, {"stim/key.v": PRESENT_KEY})
    verdict = check("rtl-sim", case, WRONG_KEY, tmp_path)
    assert verdict.category is Category.TEST_FAIL
    assert verdict.metrics["seed"] == DIRECTED_BASE + 1 and "of directed run 1" in verdict.summary


def test_golden_passes_its_directed_runs_and_the_contract_names_the_files(tmp_path: Path) -> None:
    case = with_stimuli(tmp_path / "a", KEY, ORACLE, {"stim/key.v": PRESENT_KEY, "stim/again.v": PRESENT_KEY})
    verdict = check("rtl-sim", case, KEY, tmp_path)
    assert verdict.summary == "outputs match the golden design on 2 seeds and 2 corner runs and 2 directed runs"
    assert "+ 2 directed runs from the case's stimulus files (stim/key.v, stim/again.v)" in verdict.metrics["contract"]


def test_directed_run_may_answer_from_the_golden_outputs_and_keep_state(tmp_path: Path) -> None:
    oracle = {**ORACLE, "top": "acc", "seeds": 1, "corners": 0}
    plain = make_case(tmp_path / "a", ACC, oracle)
    assert check("rtl-sim", plain, ACC_LATE, tmp_path).passed
    case = with_stimuli(tmp_path / "b", ACC, oracle, {"stim/follow.v": FOLLOW})
    assert check("rtl-sim", case, ACC, tmp_path).passed
    verdict = check("rtl-sim", case, ACC_LATE, tmp_path)
    assert verdict.category is Category.TEST_FAIL and verdict.metrics["cycle"] == 101  # q = 0, 2, ..., 200; then d = 1
    assert (verdict.metrics["expected"], verdict.metrics["actual"]) == ("8'hc9", "8'h0")


def test_directed_run_keeps_its_own_state_from_cycle_to_cycle(tmp_path: Path) -> None:
    case = with_stimuli(tmp_path / "a", KEY, {**ORACLE, "seeds": 1, "corners": 0}, {"stim/once.v": ONCE})
    verdict = check("rtl-sim", case, WRONG_KEY, tmp_path)
    # The key is presented in cycle 150 from power-up (148 after the 2 reset cycles); hit shows it one edge later.
    assert verdict.category is Category.TEST_FAIL and verdict.metrics["cycle"] == 149
    assert (verdict.metrics["expected"], verdict.metrics["actual"]) == ("1'h1", "1'h0")


@pytest.mark.parametrize("name", ["../outside.v", "/abs/stim.v"])
def test_stimulus_outside_the_case_directory_is_a_case_error(tmp_path: Path, name: str) -> None:
    with pytest.raises(CaseError, match="stimuli"):
        make_case(tmp_path / "a", KEY, {**ORACLE, "stimuli": [name]})


def test_missing_stimulus_file_is_a_case_error(tmp_path: Path) -> None:
    with pytest.raises(CaseError, match=r"oracle\.stimuli: file 'stim/none\.v' does not exist"):
        make_case(tmp_path / "a", KEY, {**ORACLE, "stimuli": ["stim/none.v"]})


def test_stimulus_file_is_part_of_the_case_digest(tmp_path: Path) -> None:
    first = with_stimuli(tmp_path / "a", KEY, ORACLE, {"stim/key.v": PRESENT_KEY})
    (tmp_path / "a" / "stim" / "key.v").write_text("in_a = 16'h1234;\n", encoding="utf-8")
    second = load_case(tmp_path / "a" / "case.toml", strict=True)
    assert first.digest != second.digest


def test_directed_seeds_sit_above_every_random_seed_and_read_as_directed_runs() -> None:
    assert directed_seeds(2) == [DIRECTED_BASE + 1, DIRECTED_BASE + 2] and directed_seeds(0) == []
    assert describe_seed(DIRECTED_BASE + 3) == "directed run 3" and describe_seed(10_000) == "seed 10000"


def test_each_file_gets_its_own_named_block_after_the_random_drive() -> None:
    code = directed_stimulus("next_random;", "OTHER", ["reg [3:0] m;\nin_a = m;\n", "in_a = 1;\n"])
    assert "1: begin : directed_1\n      reg [3:0] m;\n      in_a = m;\n    end" in code
    assert code.index("next_random;") < code.index("directed_1") and "end else begin\n  OTHER\nend" in code
    assert directed_stimulus("R", "OTHER", []) == "OTHER"
