"""Acceptance tests of the plugin, each run without and with xdist (-n 2)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from ..conftest import SUM_C, SUM_TOML, agent_python, write_case

XDIST = [pytest.param([], id="n0"), pytest.param(["-n", "2"], id="n2")]


def run(pt: pytest.Pytester, *args: str) -> pytest.RunResult:
    return pt.runpytest_subprocess("-p", "no:cacheprovider", "-p", "no:randomly", *args)


def records(run_dir: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (run_dir / "samples.jsonl").read_text().splitlines()]


def summary(run_dir: Path) -> dict[str, Any]:
    data = json.loads((run_dir / "summary.json").read_text())
    data.pop("run")
    return data


@pytest.mark.parametrize("xdist", XDIST)
def test_reference_passes_and_noop_fails(demo_pytester: pytest.Pytester, xdist: list[str]) -> None:
    result = run(demo_pytester, "cases", "--fixer", "reference", "--fixer", "noop", "--hwrepair-run", "r", *xdist)
    result.assert_outcomes(passed=3, failed=3)
    rows = {row["fixer"]: row for row in summary(demo_pytester.path / "r")["fixers"]}
    assert rows["reference"]["pass_at"]["1"] == 1.0 and rows["noop"]["pass_at"]["1"] == 0.0
    assert rows["reference"]["pass_at"]["5"] is None  # one sample per bug: pass@5 is n/a, never dropped
    result.stdout.fnmatch_lines(["*hwrepair summary*", "noop *hls *0.000*", "results: r"])


def test_summary_is_identical_with_and_without_xdist(demo_pytester: pytest.Pytester) -> None:
    run(demo_pytester, "cases", "--fixer", "reference", "--fixer", "noop", "--hwrepair-run", "a")
    run(demo_pytester, "cases", "--fixer", "reference", "--fixer", "noop", "--hwrepair-run", "b", "-n", "2")
    assert summary(demo_pytester.path / "a") == summary(demo_pytester.path / "b")


def test_node_ids_are_sorted_and_deterministic(demo_pytester: pytest.Pytester) -> None:
    result = run(demo_pytester, "cases", "--collect-only", "-q", "--fixer", "noop", "--hwrepair-samples", "2")
    ids = [line for line in result.stdout.lines if "::" in line]
    assert ids == [
        "cases/hls/demo/dump/case.toml::USE-01[noop-s0]",
        "cases/hls/demo/dump/case.toml::USE-01[noop-s1]",
        "cases/hls/demo/sum/case.toml::MLU-01[noop-s0]",
        "cases/hls/demo/sum/case.toml::MLU-01[noop-s1]",
        "cases/hls/demo/sum/case.toml::SHFT-01[noop-s0]",
        "cases/hls/demo/sum/case.toml::SHFT-01[noop-s1]",
    ]


@pytest.mark.parametrize(("selector", "expected"), [
    (["-k", "SHFT"], 1), (["-k", "sum and not SHFT"], 1), (["-k", "dump"], 1), (["-m", "hls"], 3),
    (["-m", "rtl"], 0), (["-k", "demo"], 3), (["-k", "USE"], 1)])
def test_keywords_and_markers_select_what_a_user_expects(demo_pytester: pytest.Pytester, selector: list[str],
                                                         expected: int) -> None:
    result = run(demo_pytester, "cases", "--collect-only", "-q", "--fixer", "noop", *selector)
    assert sum("::" in line for line in result.stdout.lines) == expected


def test_failure_shows_category_diff_and_log_tail(demo_pytester: pytest.Pytester) -> None:
    result = run(demo_pytester, "cases", "--fixer", "noop", "-k", "SHFT", "-v")  # by default: one line
    result.stdout.fnmatch_lines(["*[[]test_fail[]] self-check failed (exit 1)*",
                                 "*candidate diff: (the candidate equals the buggy file)*",
                                 "*oracle log (tail):*", "*mismatches = 1*", "*artifacts:*"])


@pytest.mark.parametrize("xdist", XDIST)
def test_malformed_case_is_one_line_and_the_rest_still_runs(demo_pytester: pytest.Pytester,
                                                            xdist: list[str]) -> None:
    write_case(demo_pytester.path, "bad", {"case.toml": SUM_TOML.replace('find = "i < 10"', 'find = "nope"'),
                                            "sum.c": SUM_C})
    result = run(demo_pytester, "cases", "--fixer", "reference", *xdist)
    result.assert_outcomes(passed=3, errors=1)
    result.stdout.fnmatch_lines(["*cases/hls/demo/bad/case.toml: [[]MLU-01[]] find: snippet not found in sum.c"])


def test_bad_option_is_a_usage_error_naming_the_flag(demo_pytester: pytest.Pytester) -> None:
    result = run(demo_pytester, "cases", "--hwrepair-samples", "many")
    assert result.ret == 4
    result.stderr.fnmatch_lines(["*--hwrepair-samples: 'many' is not a valid int*"])
    unknown = run(demo_pytester, "cases", "--fixer", "oracle-of-delphi")
    assert unknown.ret == 4
    unknown.stderr.fnmatch_lines(["*--fixer 'oracle-of-delphi': unknown fixer*known: *noop*"])


def test_bad_ini_value_names_the_ini_key(demo_pytester: pytest.Pytester) -> None:
    demo_pytester.makeini("[pytest]\nhwrepair_protocol = sideways\n")
    result = run(demo_pytester, "cases")
    assert result.ret == 4
    result.stderr.fnmatch_lines(["*ini hwrepair_protocol: 'sideways' is not one of auto, repeated, iterative*"])


def test_help_lists_the_options(pytester: pytest.Pytester) -> None:
    result = run(pytester, "--help")
    result.stdout.fnmatch_lines(["*hardware repair benchmark*", "*--fixer=SPEC*", "*--hwrepair-samples=*",
                                 "*--hwrepair-oracle-jobs=*", "*--hwrepair-gate=EXPR*", "*hwrepair_samples*"])


def test_markers_are_registered(pytester: pytest.Pytester) -> None:
    result = run(pytester, "--markers")
    result.stdout.fnmatch_lines(["@pytest.mark.hls: HLS-style C kernel repair*", "@pytest.mark.rtl: *",
                                 "@pytest.mark.cuda: *", "@pytest.mark.gpu: needs a CUDA device*",
                                 "@pytest.mark.slow: *"])


@pytest.mark.parametrize("xdist", XDIST)
def test_gates_decide_the_exit_status(demo_pytester: pytest.Pytester, xdist: list[str]) -> None:
    ok = run(demo_pytester, "cases", "--fixer", "reference", "--hwrepair-gate", "pass@1>=0.9", *xdist)
    assert ok.ret == 0
    ok.stdout.fnmatch_lines(["*all gates hold: pass@1>=0.9*"])
    bad = run(demo_pytester, "cases", "--fixer", "noop", "--hwrepair-gate", "hls/demo:pass@1>=0.5", *xdist)
    assert bad.ret == 6
    bad.stdout.fnmatch_lines(["*gate 'hls/demo:pass@1>=0.5' not met for noop: pass@1 = 0.000*"])
    rejected_without_gate = run(demo_pytester, "cases", "--fixer", "noop", *xdist)
    assert rejected_without_gate.ret == 1


@pytest.mark.parametrize(("gate", "said"), [
    ("hsl:pass@1>=0.5", "*'hsl:pass@1>=0.5': 'hsl' names nothing in this run (it holds: hls, hls/demo)*"),
    ("hls/dmeo,fixer=reference:pass@1<=0", "*'hls/dmeo' names nothing in this run*"),
    ("fixer=claude:pass@1>=0.5", "*no fixer 'claude' in this run (labels: reference)*")])
def test_a_gate_whose_scope_names_nothing_in_the_run_exits_4_before_any_item(demo_pytester: pytest.Pytester,
                                                                            gate: str, said: str) -> None:
    result = run(demo_pytester, "cases", "--fixer", "reference", "--hwrepair-gate", gate, "--hwrepair-run", "gated")
    assert result.ret == 4
    result.stderr.fnmatch_lines([said])
    assert not (demo_pytester.path / "gated" / "samples.jsonl").exists()


@pytest.mark.parametrize("xdist", XDIST)
def test_a_junit_file_of_a_gated_run_carries_the_gate_verdicts(demo_pytester: pytest.Pytester,
                                                               xdist: list[str]) -> None:
    import xml.etree.ElementTree as ET

    gates = ("--hwrepair-gate", "fixer=noop:pass@1<=0", "--hwrepair-gate", "fixer=noop:pass@1>=0.5")
    result = run(demo_pytester, "cases", "--fixer", "noop", *gates, "--junitxml", "out.xml", *xdist)
    assert result.ret == 6
    suite = ET.parse(demo_pytester.path / "out.xml").getroot().find("testsuite")
    assert suite is not None
    props = [p.get("value") for p in suite.iter("property") if p.get("name") == "hwrepair_gate"]
    assert props == ["fixer=noop:pass@1<=0: holds",
                     "fixer=noop:pass@1>=0.5: gate 'fixer=noop:pass@1>=0.5' not met for noop: pass@1 = 0.000"]
    gate_cases = {c.get("name"): c for c in suite.iter("testcase") if c.get("classname") == "hwrepair.gates"}
    assert gate_cases["fixer=noop:pass@1<=0"].find("failure") is None
    assert gate_cases["fixer=noop:pass@1>=0.5"].find("failure") is not None
    samples = [c for c in suite.iter("testcase") if c.get("classname") != "hwrepair.gates"]
    assert samples and all(c.find("failure") is not None for c in samples)  # rejected repairs: failures
    assert int(suite.get("failures", "0")) == len(samples) + 1
    # The gate decides: rejected repairs become skipped test cases, the gate's test case carries the verdict.
    held = run(demo_pytester, "cases", "--fixer", "noop", gates[0], gates[1], "--junitxml", "held.xml",
               "--hwrepair-junit-rejected", "skipped", "--hwrepair-run", "held", *xdist)
    assert held.ret == 0
    suite = ET.parse(demo_pytester.path / "held.xml").getroot().find("testsuite")
    assert suite is not None and suite.get("failures") == "0" and int(suite.get("skipped", "0")) == len(samples)
    assert all(c.find("skipped") is not None for c in suite.iter("testcase") if c.get("classname") != "hwrepair.gates")


def test_gate_syntax_error_is_a_usage_error(demo_pytester: pytest.Pytester) -> None:
    result = run(demo_pytester, "cases", "--hwrepair-gate", "pass@one>=1")
    assert result.ret == 4
    result.stderr.fnmatch_lines(["*--hwrepair-gate: 'pass@one>=1' is not*pass@K OP VALUE*"])


ERRORING_CONFTEST = """
import pytest
from pytest_hwrepair.fixers.base import FixerError

class Broken:
    name = "broken"
    config = {"fixer": "broken"}
    def repair(self, task):
        raise FixerError("API outage after retries")

@pytest.fixture
def hwrepair_fixer(hwrepair_case):
    if hwrepair_case.bug.id == "SHFT-01":
        return Broken()
    from pytest_hwrepair.fixers import NoopFixer
    return NoopFixer()
"""


@pytest.mark.parametrize("xdist", XDIST)
def test_harness_errors_are_errors_excluded_and_exit_7_under_a_gate(demo_pytester: pytest.Pytester,
                                                                   xdist: list[str]) -> None:
    demo_pytester.makeconftest(ERRORING_CONFTEST)
    result = run(demo_pytester, "cases", "--fixer", "noop", "--hwrepair-run", "r", "--hwrepair-gate", "pass@1>=0",
                 *xdist)
    result.assert_outcomes(failed=2, errors=1)
    assert result.ret == 7
    result.stdout.fnmatch_lines(["*fixer error: API outage after retries*"])
    rows = {row["fixer"]: row for row in summary(demo_pytester.path / "r")["fixers"]}
    assert rows["broken"]["errors"] == 1 and rows["broken"]["samples"] == 0  # not in any denominator
    assert rows["broken"]["pass_at"]["1"] is None and rows["noop"]["samples"] == 2


def test_retry_errors_reruns_only_errors(demo_pytester: pytest.Pytester) -> None:
    demo_pytester.makeconftest(ERRORING_CONFTEST)
    run(demo_pytester, "cases", "--fixer", "noop", "--hwrepair-run", "r")
    assert len(records(demo_pytester.path / "r")) == 3
    again = run(demo_pytester, "cases", "--fixer", "noop", "--hwrepair-run", "r")
    again.assert_outcomes(failed=2, errors=1)
    assert len(records(demo_pytester.path / "r")) == 3  # nothing re-executed
    demo_pytester.makeconftest("")
    retried = run(demo_pytester, "cases", "--fixer", "noop", "--hwrepair-run", "r", "--hwrepair-retry-errors")
    retried.assert_outcomes(failed=3)
    assert len(records(demo_pytester.path / "r")) == 4  # only the error sample ran again


@pytest.mark.parametrize("xdist", XDIST)
def test_rerun_into_the_same_run_directory_executes_only_missing_samples(demo_pytester: pytest.Pytester,
                                                                         xdist: list[str]) -> None:
    args = ["cases", "--fixer", "reference", "--fixer", "noop", *xdist]
    run(demo_pytester, *args, "--hwrepair-run", "fresh")
    run(demo_pytester, *args, "--hwrepair-run", "r", "-k", "MLU")
    assert len(records(demo_pytester.path / "r")) == 2
    result = run(demo_pytester, *args, "--hwrepair-run", "r")
    result.assert_outcomes(passed=3, failed=3)
    assert len(records(demo_pytester.path / "r")) == 6
    assert summary(demo_pytester.path / "r") == summary(demo_pytester.path / "fresh")


def test_sigkill_then_rerun_loses_nothing_and_repeats_nothing(pytester: pytest.Pytester) -> None:
    slow = SUM_TOML.replace('run = "./prog"', 'run = "sleep 1; ./prog"').replace("timeout = 2", "timeout = 5")
    for n in range(3):
        write_case(pytester.path, f"slow{n}", {"case.toml": slow.replace('id = "sum"', f'id = "slow{n}"'),
                                                "sum.c": SUM_C})
    cmd = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "cases", "--fixer", "noop",
           "--hwrepair-run", "r", "-q"]
    proc = subprocess.Popen(cmd, cwd=pytester.path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    samples = pytester.path / "r" / "samples.jsonl"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (not samples.exists() or len(samples.read_text().splitlines()) < 2):
        time.sleep(0.2)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    done = len(records(pytester.path / "r"))
    assert 2 <= done < 6
    result = run(pytester, "cases", "--fixer", "noop", "--hwrepair-run", "r")
    result.assert_outcomes(failed=6)
    assert len(records(pytester.path / "r")) == 6  # finished samples were not executed again
    run(pytester, "cases", "--fixer", "noop", "--hwrepair-run", "fresh")
    assert summary(pytester.path / "r") == summary(pytester.path / "fresh")


AGENT = """
import json, sys, pathlib
task = json.load(open(sys.argv[1]))
path = pathlib.Path(task["workspace"]) / task["target"]
text = path.read_text()
fixes = {"MLU-01": ("i < 9", "i < 10"), "SHFT-01": ("s += i << 1;", "s += i;")}
old, new = fixes.get(task["bug"], ("", ""))
if old:
    path.write_text(text.replace(old, new))
print("agent log line for", task["bug"])
"""


@pytest.mark.parametrize("xdist", XDIST)
def test_cmd_fixer_edits_a_workspace_copy_and_keeps_its_logs(demo_pytester: pytest.Pytester, agent_dir: Path,
                                                             xdist: list[str]) -> None:
    agent = agent_dir / "agent.py"
    agent.write_text(AGENT)
    python, *mounts = agent_python(agent)
    result = run(demo_pytester, "cases", f"--fixer=cmd:{python} {agent} {{task}}", *mounts, "--hwrepair-run", "r",
                 "--hwrepair-samples", "1", *xdist)
    result.assert_outcomes(passed=2, failed=1)
    recs = {r["bug"]: r for r in records(demo_pytester.path / "r")}
    assert recs["MLU-01"]["outcome"] == "passed" and recs["USE-01"]["outcome"] == "failed"
    log = demo_pytester.path / "r" / "artifacts" / recs["MLU-01"]["artifact"] / "agent.stdout"
    assert "agent log line for MLU-01" in log.read_text()


def test_replay_rescores_saved_candidates(demo_pytester: pytest.Pytester, agent_dir: Path) -> None:
    agent = agent_dir / "agent.py"
    agent.write_text(AGENT)
    python, *mounts = agent_python(agent)
    run(demo_pytester, "cases", f"--fixer=cmd:{python} {agent} {{task}}", *mounts, "--hwrepair-run", "orig",
        "--hwrepair-samples", "1")
    result = run(demo_pytester, "cases", "--fixer", "replay:orig", "--hwrepair-run", "again", "--hwrepair-samples", "1")
    result.assert_outcomes(passed=2, failed=1)
    fixer = f"replay:cmd:{python} {agent} {{task}}"
    assert [r["fixer"] for r in records(demo_pytester.path / "again")] == [fixer] * 3


def test_fixture_override_from_a_conftest(demo_pytester: pytest.Pytester) -> None:
    demo_pytester.makeconftest("""
import pytest
from pytest_hwrepair.fixers import NoopFixer

@pytest.fixture
def hwrepair_fixer():
    fixer = NoopFixer()
    return fixer
""")
    result = run(demo_pytester, "cases", "--fixer", "reference")
    result.assert_outcomes(failed=3)


def test_shards_partition_the_items(demo_pytester: pytest.Pytester) -> None:
    def ids(shard: str) -> set[str]:
        out = run(demo_pytester, "cases", "--collect-only", "-q", "--fixer", "noop", "--hwrepair-samples", "3",
                  "--hwrepair-shard", shard)
        return {line for line in out.stdout.lines if "::" in line}
    a, b = ids("0/2"), ids("1/2")
    assert a and b and not a & b and len(a | b) == 9


def test_baseline_regression_fails_the_run(demo_pytester: pytest.Pytester) -> None:
    run(demo_pytester, "cases", "--fixer", "reference", "--hwrepair-run", "base")
    result = run(demo_pytester, "cases", "--fixer", "noop", "--hwrepair-baseline", "base")
    assert result.ret == 6
    result.stdout.fnmatch_lines(["*regression: hls/demo/sum::MLU-01*passed 1/1 in the baseline, now 0/1*"])


HOSTILE = {
    "fork": "#include <unistd.h>\nint main(void){ for(;;) fork(); }\n",
    "sleep": "#include <unistd.h>\nint main(void){ for(;;) sleep(1); }\n",
    "flood": "#include <stdio.h>\nint main(void){ for(;;) fputs(\"yyyyyyyyyyyyyyyyyyyyyyyyyyyyyy\\n\", stdout); }\n",
    "net": ("#include <sys/socket.h>\n#include <netinet/in.h>\n#include <arpa/inet.h>\n#include <stdio.h>\n"
            "int main(void){ int s=socket(AF_INET,SOCK_STREAM,0); struct sockaddr_in a={0}; a.sin_family=AF_INET;"
            " a.sin_port=htons(53); inet_pton(AF_INET,\"1.1.1.1\",&a.sin_addr);"
            " if(connect(s,(struct sockaddr*)&a,sizeof a)!=0){perror(\"connect\");return 2;}"
            " puts(\"mismatches = 0\"); return 0; }\n"),
}

HOSTILE_AGENT = """
import json, sys, pathlib
task = json.load(open(sys.argv[1]))
programs = json.loads(pathlib.Path(sys.argv[2]).read_text())
kind = {"MLU-01": "fork", "SHFT-01": "sleep", "INIT-01": "flood", "BUF-01": "net"}[task["bug"]]
(pathlib.Path(task["workspace"]) / task["target"]).write_text(programs[kind])
"""


@pytest.mark.parametrize("xdist", XDIST)
def test_hostile_candidates_are_contained_and_categorised(demo_pytester: pytest.Pytester, agent_dir: Path,
                                                          xdist: list[str]) -> None:
    toml = SUM_TOML + """
[[bug]]
id = "INIT-01"
type = "INIT"
find = "int s = 0;"
replace = "int s;"

[[bug]]
id = "BUF-01"
type = "BUF"
find = "int s = 0;"
replace = "char s = 0;"
"""
    name = f"hostileprog{os.getpid()}"  # its own name: the other variant of this test may run beside it
    toml = toml.replace("-o prog", f"-o {name}").replace('run = "./prog"', f'run = "./{name}"')
    write_case(demo_pytester.path, "sum", {"case.toml": toml, "sum.c": SUM_C})
    (agent_dir / "programs.json").write_text(json.dumps(HOSTILE))
    (agent_dir / "agent.py").write_text(HOSTILE_AGENT)
    here = agent_dir
    python, *mounts = agent_python(here / "agent.py", here / "programs.json")
    fixer = f"--fixer=cmd:{python} {here / 'agent.py'} {{task}} {here / 'programs.json'}"
    start = time.monotonic()
    result = run(demo_pytester, "cases/hls/demo/sum", fixer, *mounts, "--hwrepair-run", "r", "--hwrepair-samples", "1",
                 *xdist)
    cats = {r["bug"]: r["category"] for r in records(demo_pytester.path / "r")}
    assert result.parseoutcomes().get("failed") == 4, cats
    assert cats["SHFT-01"] == "timeout"  # sleeps forever
    assert cats["MLU-01"] in ("timeout", "runtime_crash")  # forks endlessly
    assert cats["INIT-01"] in ("timeout", "test_fail")  # prints without end
    assert cats["BUF-01"] in ("test_fail", "runtime_crash")  # no network: connect fails
    assert time.monotonic() - start < 120
    ps = subprocess.run(["ps", "-eo", "user,args"], capture_output=True, text=True, check=True).stdout
    assert name not in ps


def test_gates_scoped_to_one_fixer_make_the_two_sided_check(demo_pytester: pytest.Pytester) -> None:
    args = ["cases", "--fixer", "reference", "--fixer", "noop", "--hwrepair-gate", "fixer=reference:pass@1>=1"]
    assert run(demo_pytester, *args, "--hwrepair-gate", "fixer=noop:pass@1<=0").ret == 0
    broken = run(demo_pytester, *args, "--hwrepair-gate", "fixer=noop:pass@1>=0.5")
    assert broken.ret == 6
    broken.stdout.fnmatch_lines(["*gate 'fixer=noop:pass@1>=0.5' not met for noop*"])
    assert "not met for reference" not in broken.stdout.str()


def test_identical_candidates_reuse_their_verdict_unless_told_not_to(demo_pytester: pytest.Pytester) -> None:
    run(demo_pytester, "cases", "--fixer", "reference", "--hwrepair-run", "a")
    reused = [r["bug"] for r in records(demo_pytester.path / "a") if r["metrics"].get("verdict_reused")]
    assert len(reused) == 1 and reused[0] in ("MLU-01", "SHFT-01")  # both bugs of `sum` get the same golden file
    run(demo_pytester, "cases", "--fixer", "reference", "--hwrepair-run", "b", "--hwrepair-no-verdict-cache")
    assert not [r for r in records(demo_pytester.path / "b") if r["metrics"].get("verdict_reused")]
    assert summary(demo_pytester.path / "a") == summary(demo_pytester.path / "b")


def test_unknown_case_keys_warn_by_default_and_fail_collection_under_strict(demo_pytester: pytest.Pytester) -> None:
    toml = SUM_TOML.replace('title = "sum of 0..9"', 'title = "x"\nowner = "me"')
    write_case(demo_pytester.path, "sum", {"case.toml": toml, "sum.c": SUM_C})
    lenient = run(demo_pytester, "cases", "--fixer", "reference")
    lenient.assert_outcomes(passed=3, warnings=1)
    lenient.stdout.fnmatch_lines(["*sum/case.toml: owner: unknown field*"])
    strict = run(demo_pytester, "cases", "--fixer", "reference", "--hwrepair-strict")
    strict.assert_outcomes(passed=1, errors=1)
    strict.stdout.fnmatch_lines(["*sum/case.toml: owner: unknown field"])


MARKS_OF_ITEMS = """
import json

def pytest_collection_finish(session):
    marks = [[item.nodeid, [(m.args, m.kwargs) for m in item.iter_markers("timeout")]] for item in session.items]
    with open("marks.json", "w") as fh:
        json.dump(marks, fh)
"""


def test_each_sample_gets_a_backstop_timeout_under_its_own_deadlines(demo_pytester: pytest.Pytester) -> None:
    # pytest-timeout's signal method stops an item that outlives every deadline of its own steps; the user's own
    # --timeout replaces it.
    demo_pytester.makeconftest(MARKS_OF_ITEMS)
    demo_pytester.runpytest_subprocess("cases", "--fixer", "noop", "--collect-only", "-p", "no:cacheprovider")
    marks = json.loads((demo_pytester.path / "marks.json").read_text())
    assert len(marks) == 3
    for nodeid, found in marks:
        assert len(found) == 1, nodeid
        (args, kwargs), = found
        assert kwargs == {"method": "signal"} and args[0] == 4 * 2 + 60 + 60, (nodeid, args)  # the demo cases: 2 s
    demo_pytester.runpytest_subprocess("cases", "--fixer", "noop", "--collect-only", "-p", "no:cacheprovider",
                                       "--timeout", "5")
    assert all(found == [] for _, found in json.loads((demo_pytester.path / "marks.json").read_text()))


def test_backstop_timeout_allows_the_strong_oracle_its_own_budget(demo_pytester: pytest.Pytester) -> None:
    demo_pytester.makeconftest(MARKS_OF_ITEMS)
    toml = demo_pytester.path / "cases" / "hls" / "demo" / "dump" / "case.toml"
    toml.write_text(toml.read_text().replace("[[bug]]", '[strong_oracle]\nkind = "hls-diff"\ntimeout = 500\n\n[[bug]]'))
    demo_pytester.runpytest_subprocess("cases", "--fixer", "noop", "--collect-only", "-p", "no:cacheprovider")
    marks = dict(json.loads((demo_pytester.path / "marks.json").read_text()))
    assert [args[0] for (args, _), in [marks["cases/hls/demo/dump/case.toml::USE-01[noop-s0]"]]] == [4 * 2 + 500 + 120]
