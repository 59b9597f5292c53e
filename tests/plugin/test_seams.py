"""A new oracle kind and a new fixer, each one module outside the package, plugged in by entry points."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest

XDIST = [pytest.param([], id="n0"), pytest.param(["-n", "2"], id="n2")]

TOY_ORACLE = '''
"""A toy oracle kind: the candidate passes when its target holds the spec's `expect` word."""

from __future__ import annotations

import shlex
from pathlib import Path

from pytest_hwrepair.cases.case import OracleSpec
from pytest_hwrepair.oracles.base import OracleKind, typed_spec
from pytest_hwrepair.verdict import Category, Verdict


class WordSpec(OracleSpec):
    expect: str


class WordOracle:
    def __init__(self, case, ctx):
        self.case, self.ctx, self.spec = case, ctx, typed_spec(case.oracle, WordSpec)

    def check(self, workspace: Path, sandbox) -> Verdict:
        cmd = f"grep -q {shlex.quote(self.spec.expect)} {shlex.quote(self.case.target)}"
        ex = sandbox.run(workspace, cmd, timeout=self.spec.timeout, limits=self.ctx.limits)
        if ex.returncode == 0:
            return Verdict.ok(f"the target says {self.spec.expect}")
        return Verdict.fail(Category.TEST_FAIL, f"the target does not say {self.spec.expect}")


KIND = OracleKind("toy-word", ("hls",), WordOracle, WordSpec)
'''

TOY_FIXER = '''
"""A toy fixer: swaps every BAD for GOOD in the target."""

from __future__ import annotations

from pytest_hwrepair.fixers.base import Candidate


class SwapFixer:
    name = "toy-swap"
    deterministic = True
    config = {"fixer": "toy-swap"}

    def __init__(self, word: str) -> None:
        self.word = word

    def repair(self, task):
        return Candidate(files={task.target: task.source.replace("BAD", self.word)})


def factory(arg, ctx):
    return SwapFixer(arg or "GOOD")
'''

CASE = '''
schema = 1
id = "word"
domain = "hls"
suite = "toy"
sources = ["w.c"]
target = "w.c"

[oracle]
kind = "toy-word"
expect = "GOOD"
timeout = 5

[[bug]]
id = "MLU-01"
type = "MLU"
find = "GOOD"
replace = "BAD"
'''


@pytest.fixture
def outside(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    """A distribution on PYTHONPATH that is not the package: two modules and their entry points."""
    site = pytester.path / "site"
    (site / "toy_hw-0.1.dist-info").mkdir(parents=True)
    (site / "toy_oracle.py").write_text(TOY_ORACLE)
    (site / "toy_fixer.py").write_text(TOY_FIXER)
    (site / "toy_hw-0.1.dist-info" / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-hw\nVersion: 0.1\n")
    (site / "toy_hw-0.1.dist-info" / "entry_points.txt").write_text(textwrap.dedent("""\
        [hwrepair.oracles]
        toy-word = toy_oracle:KIND

        [hwrepair.fixers]
        toy = toy_fixer:factory
        """))
    case = pytester.path / "cases" / "hls" / "toy" / "word"
    case.mkdir(parents=True)
    (case / "case.toml").write_text(CASE)
    (case / "w.c").write_text("/* GOOD */\n")
    monkeypatch.setenv("PYTHONPATH", str(site))
    return pytester


@pytest.mark.parametrize("xdist", XDIST)
def test_toy_oracle_and_fixer_from_entry_points_run_end_to_end(outside: pytest.Pytester, xdist: list[str]) -> None:
    result = outside.runpytest_subprocess("-p", "no:cacheprovider", "-p", "no:randomly", "cases", "--fixer", "toy",
                                          "--fixer", "noop", "--hwrepair-run", "r", *xdist)
    result.assert_outcomes(passed=1, failed=1)
    lines = (outside.path / "r" / "samples.jsonl").read_text().splitlines()
    got = {r["fixer"]: (r["outcome"], r["category"]) for r in map(json.loads, lines)}
    assert got == {"toy-swap": ("passed", "pass"), "noop": ("failed", "test_fail")}


def test_toy_oracle_spec_is_checked_by_its_own_model(outside: pytest.Pytester) -> None:
    path = Path(outside.path / "cases" / "hls" / "toy" / "word" / "case.toml")
    path.write_text(CASE.replace('expect = "GOOD"\n', ""))
    result = outside.runpytest_subprocess("-p", "no:cacheprovider", "cases", "--fixer", "toy")
    result.stdout.fnmatch_lines(["*oracle.expect: missing required field*"])


def test_toy_oracle_kind_is_in_the_published_schema(outside: pytest.Pytester) -> None:
    result = outside.run(sys.executable, "-m", "pytest_hwrepair.cli", "schema")
    assert result.ret == 0
    assert "WordSpec" in json.loads(result.stdout.str())["$defs"]
