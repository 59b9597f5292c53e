"""The in-house agent path: a `cmd:` agent is checked once before the first item, grants that would show it the
cases are refused, a failing agent is one line per item, and nothing it prints reaches the terminal raw."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from ...conftest import agent_python

XDIST = [pytest.param([], id="n0"), pytest.param(["-n", "2"], id="n2")]
PYTHON = agent_python()[0]
AGENT = """\
import json, os, pathlib, sys
pathlib.Path(os.environ["HWREPAIR_WORKSPACE"], "called").write_text("x")
task = json.load(open(os.environ["HWREPAIR_TASK"]))
target = pathlib.Path(os.environ["HWREPAIR_WORKSPACE"], task["target"])
if "sum" in task["target"]:
    target.write_text(target.read_text().replace("i < 9", "i < 10") + "/* \\x1b[2J\\x1b[H 17 passed */\\n")
print("\\x1b[2J\\x1b[H===== 17 passed in 0.01s =====", file=sys.stderr)
sys.exit(int(os.environ.get("AGENT_EXIT", "0")))
"""


def run(pytester: pytest.Pytester, *args: str) -> tuple[pytest.RunResult, list[dict[str, object]]]:
    run_dir = pytester.path.parent / f"{pytester.path.name}-run"  # outside the directory a test may grant
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-p", "no:randomly", "--color=no", "cases",
                                           "--hwrepair-run", str(run_dir), "--hwrepair-samples", "1", *args,
                                           timeout=300)
    samples = run_dir / "samples.jsonl"
    records = [json.loads(line) for line in samples.read_text().splitlines()] if samples.exists() else []
    return result, records


def searchable(path: Path) -> None:
    """The agent runs under a uid of its own: a directory it is granted must be reachable by other users."""
    for folder in [path, *path.parents]:
        if folder in (Path("/tmp"), Path("/")):
            break
        folder.chmod(folder.stat().st_mode | 0o011)


def write_agent(folder: Path, name: str = "agent.py", source: str = AGENT) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o755)
    path = folder / name
    path.write_text(source)
    path.chmod(0o755)
    return path


def assert_stopped_before_any_item(result: pytest.RunResult, records: list[dict[str, object]], *words: str) -> None:
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    err = result.stderr.str()
    assert [line for line in err.splitlines() if line.startswith("ERROR:")] and "Traceback" not in err
    for word in words:
        assert word in err, err
    assert records == []  # no item ran: no fixer call


@pytest.mark.parametrize("xdist", XDIST)
def test_a_relative_agent_path_stops_the_run_with_one_line(demo_pytester: pytest.Pytester, agent_dir: Path,
                                                           xdist: list[str]) -> None:
    write_agent(demo_pytester.path, "agent")
    result, records = run(demo_pytester, "--fixer=cmd:./agent --task {task}", *xdist)
    assert_stopped_before_any_item(result, records, "./agent does not exist where the agent runs",
                                   "--hwrepair-agent-mount")


def test_a_missing_interpreter_stops_the_run(demo_pytester: pytest.Pytester, agent_dir: Path) -> None:
    agent = write_agent(agent_dir, source="#!/opt/no-such-python/bin/python3\n" + AGENT)
    result, records = run(demo_pytester, f"--fixer=cmd:{agent} --task {{task}}", "--hwrepair-agent-mount",
                          str(agent_dir))
    assert_stopped_before_any_item(result, records, "/opt/no-such-python/bin/python3 (the interpreter of")


def test_an_agent_file_outside_the_grants_stops_the_run(demo_pytester: pytest.Pytester, agent_dir: Path) -> None:
    agent = write_agent(agent_dir)
    result, records = run(demo_pytester, f"--fixer=cmd:{PYTHON} {agent} --task {{task}}")
    assert_stopped_before_any_item(result, records, f"{agent} does not exist where the agent runs",
                                   f"--hwrepair-agent-mount {agent_dir}")


def test_a_mount_holding_the_evaluated_cases_is_refused(demo_pytester: pytest.Pytester) -> None:
    agent = write_agent(demo_pytester.path / "tools")
    searchable(demo_pytester.path)
    cache = demo_pytester.path.parent / f"{demo_pytester.path.name}-cache"  # the cache is guarded too: not here
    result, records = run(demo_pytester, f"--fixer=cmd:{PYTHON} {agent}", "--hwrepair-agent-mount",
                          str(demo_pytester.path), "--hwrepair-cache-dir", str(cache))
    assert_stopped_before_any_item(result, records, "would show the agent", "golden sources")


DOCS = Path(__file__).resolve().parents[3] / "docs" / "fixers.md"
LAYOUT_ROW = re.compile(r"^\| the agent (?P<name>[^|]+?) \| "
                        r"`--fixer '(?P<fixer>cmd:[^']+)' --hwrepair-agent-mount (?P<grant>\S+)`")


def _layouts(root: Path, agent_dir: Path) -> dict[str, tuple[str, str]]:
    """(fixer, grant) of each layout docs/fixers.md shows, its paths moved under scratch folders, with the agent
    files the layout names written there: a `python3 FILE` script, an entry point with a `#!` line."""
    rows = {m["name"]: m for line in DOCS.read_text(encoding="utf-8").splitlines() if (m := LAYOUT_ROW.match(line))}
    moved = {"/opt/agent": str(agent_dir / "opt" / "agent"), "/src/repo": str(root)}
    out = {}
    for name, m in rows.items():
        fixer, grant = m["fixer"], m["grant"]
        for old, new in moved.items():
            fixer, grant = fixer.replace(old, new), grant.replace(old, new)
        program = fixer.removeprefix("cmd:").split()
        script = Path(program[1] if program[0] == "python3" else program[0])
        shebang = "" if program[0] == "python3" else "#!/usr/bin/env python3\n"
        write_agent(script.parent, script.name, shebang + AGENT)
        out[name] = (fixer, grant)
    return out


def test_the_docs_show_the_three_layouts_this_file_runs() -> None:
    rows = [m["name"] for line in DOCS.read_text(encoding="utf-8").splitlines() if (m := LAYOUT_ROW.match(line))]
    assert rows == ["in its own directory", "in a virtualenv (an entry-point script with a `#!` line)",
                    "inside the repository under test"]


@pytest.mark.skipif(not Path("/usr/bin/env").exists() or not Path("/usr/bin/python3").exists(),
                    reason="the layouts use the system python3")
@pytest.mark.parametrize("layout", ["in its own directory", "in a virtualenv (an entry-point script with a `#!` line)",
                                    "inside the repository under test"])
def test_a_granted_agent_runs_in_each_documented_layout(demo_pytester: pytest.Pytester, agent_dir: Path,
                                                        layout: str) -> None:
    searchable(demo_pytester.path)
    fixer, grant = _layouts(demo_pytester.path, agent_dir)[layout]
    result, records = run(demo_pytester, f"--fixer={fixer}", "--hwrepair-agent-mount", grant)
    assert result.ret == pytest.ExitCode.TESTS_FAILED  # the dump bug stays unrepaired
    outcomes = {(r["case"], r["bug"]): r["outcome"] for r in records}
    assert outcomes[("hls/demo/sum", "MLU-01")] == "passed", records


@pytest.mark.parametrize("verbose", [[], ["-v"]], ids=["quiet", "verbose"])
@pytest.mark.parametrize("xdist", XDIST)
def test_a_failing_agent_is_one_line_per_item_without_traceback_or_escapes(
        demo_pytester: pytest.Pytester, agent_dir: Path, monkeypatch: pytest.MonkeyPatch, xdist: list[str],
        verbose: list[str]) -> None:
    agent = write_agent(agent_dir)
    monkeypatch.setenv("AGENT_EXIT", "3")
    result, records = run(demo_pytester, f"--fixer=cmd:{PYTHON} {agent}", "--hwrepair-agent-mount", str(agent_dir),
                          "--hwrepair-agent-env", "AGENT_EXIT", *xdist, *verbose)
    out = result.stdout.str() + result.stderr.str()
    assert records and all(r["outcome"] == "error" for r in records)
    assert "Traceback" not in out and "hwrepair_outcome" not in out and "raise HarnessError" not in out
    lines = [line for line in out.splitlines() if line.startswith("[harness error]")]
    assert len(lines) == len(records) and all("| artifacts: " in line for line in lines), out
    assert "\x1b" not in out and "\\x1b[2J" in out


@pytest.mark.parametrize("verbose", [[], ["-v"]], ids=["quiet", "verbose"])
def test_a_candidate_and_agent_printing_escapes_leave_no_escape_on_the_terminal(
        demo_pytester: pytest.Pytester, agent_dir: Path, verbose: list[str]) -> None:
    agent = write_agent(agent_dir)
    result, records = run(demo_pytester, f"--fixer=cmd:{PYTHON} {agent}", "--hwrepair-agent-mount", str(agent_dir),
                          *verbose)
    out = result.stdout.str() + result.stderr.str()
    assert records and "\x1b" not in out


def test_the_debug_flag_shows_the_traceback(demo_pytester: pytest.Pytester, agent_dir: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    agent = write_agent(agent_dir)
    monkeypatch.setenv("AGENT_EXIT", "3")
    result, _ = run(demo_pytester, f"--fixer=cmd:{PYTHON} {agent}", "--hwrepair-agent-mount", str(agent_dir),
                    "--hwrepair-agent-env", "AGENT_EXIT", "--hwrepair-debug")
    assert "HarnessError" in result.stdout.str()
