"""Every item ends with a record; a harness crash or a lost worker makes the gates fail closed (exit 7)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ..conftest import write_case

XDIST = [pytest.param([], id="n0"), pytest.param(["-n", "2"], id="n2")]

DEEP_C = """\
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
int main(void) {
    for (int i = 0; i < 3000; i++) {           /* a tree deeper than any recursive cleanup goes */
        if (mkdir("d", 0700) != 0 || chdir("d") != 0) break;
    }
    int s = 0;
    for (int i = 0; i < 10; i++) s += i;
    printf("%d\\n", s);
    return 0;
}
"""

DEEP_TOML = """\
schema = 1
id = "deep"
domain = "hls"
suite = "attack"
sources = ["deep.c"]
target = "deep.c"

[oracle]
kind = "output-diff"
build = "gcc -O0 deep.c -o prog"
run = "./prog"
timeout = 10

[[bug]]
id = "MLU-01"
type = "MLU"
find = "i < 10"
replace = "i < 9"
"""

CRASHING_SANDBOX = """
import pytest

class Exploding:
    name = "exploding"
    def run(self, workdir, argv, *, timeout, limits):
        raise RecursionError("maximum recursion depth exceeded")

@pytest.fixture(scope="session")
def hwrepair_sandbox():
    return Exploding()
"""

KILLING_FIXER = """
import os, signal
import pytest
from pytest_hwrepair.fixers import NoopFixer

class Killer:
    name = "killer"
    deterministic = True
    config = {"fixer": "killer"}
    def repair(self, task):
        os.kill(os.getpid(), signal.SIGKILL)

@pytest.fixture
def hwrepair_fixer(hwrepair_case):
    return Killer() if hwrepair_case.bug.id == "SHFT-01" else NoopFixer()
"""


def run(pt: pytest.Pytester, *args: str) -> pytest.RunResult:
    return pt.runpytest_subprocess("-p", "no:cacheprovider", "-p", "no:randomly", *args)


def records(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in (path / "samples.jsonl").read_text().splitlines()]


@pytest.mark.parametrize("xdist", XDIST)
def test_a_3000_deep_tree_is_cleaned_up_and_the_bug_still_fails(pytester: pytest.Pytester,
                                                                 xdist: list[str]) -> None:
    write_case(pytester.path, "deep", {"case.toml": DEEP_TOML, "deep.c": DEEP_C}, suite="attack")
    result = run(pytester, "cases", "--fixer", "noop", "--hwrepair-run", "r", "--hwrepair-gate", "pass@1>=1", *xdist)
    result.assert_outcomes(failed=1)
    assert result.ret == 6  # the gate does not hold: the bug was not repaired
    (record,) = records(pytester.path / "r")
    assert record["outcome"] == "failed" and record["category"] == "test_fail"


@pytest.mark.parametrize("xdist", XDIST)
def test_a_crash_while_judging_is_an_error_with_a_record(demo_pytester: pytest.Pytester, xdist: list[str]) -> None:
    demo_pytester.makeconftest(CRASHING_SANDBOX)
    result = run(demo_pytester, "cases", "--fixer", "reference", "--hwrepair-run", "r",
                 "--hwrepair-gate", "pass@1>=0", *xdist)
    result.assert_outcomes(errors=3)
    assert result.ret == 7
    saved = records(demo_pytester.path / "r")
    assert len(saved) == 3 and {r["outcome"] for r in saved} == {"error"}
    assert all("RecursionError" in str(r["summary"]) for r in saved)


def test_a_killed_worker_makes_the_gates_fail_closed(demo_pytester: pytest.Pytester) -> None:
    demo_pytester.makeconftest(KILLING_FIXER)
    result = run(demo_pytester, "cases", "--fixer", "noop", "--hwrepair-run", "r", "--hwrepair-gate", "pass@1>=0",
                 "-n", "2")
    assert result.ret == 7  # the lost sample could have been the one that breaks the gate


def test_the_corpus_hash_is_the_same_at_n0_under_xdist_and_in_shards(demo_pytester: pytest.Pytester) -> None:
    """run.json's case_set names the cases whose samples ran, whoever collected them (an xdist controller
    collects nothing itself)."""
    import json as _json

    runs = iter(range(100))

    def case_set(*args: str) -> tuple[str, int] | None:
        run = demo_pytester.path / f"hwrepair-run-{next(runs)}"
        demo_pytester.runpytest_subprocess("-p", "no:cacheprovider", "-p", "no:randomly", "cases", "--fixer=reference",
                                           "--hwrepair-samples", "1", "--hwrepair-run", str(run), *args, timeout=300)
        if not (run / "run.json").exists():  # a shard that drew no sample
            return None
        info = _json.loads((run / "run.json").read_text())
        return info["case_set"], info["cases"]

    serial = case_set()
    assert serial is not None and serial == case_set("-n", "2") and serial[1] == 2
    assert serial[0] != "e3b0c44298fc1c149afb"  # not the hash of nothing
    shards = [got for got in (case_set("--hwrepair-shard", f"{i}/2") for i in (1, 2)) if got is not None]
    assert shards and all(count >= 1 for _, count in shards)
