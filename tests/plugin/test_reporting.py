"""The terminal a researcher reads: one line per rejected repair, the summary last, a legend, a progress line."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_hwrepair.controller import summarize
from pytest_hwrepair.report.terminal import COLUMNS, render
from pytest_hwrepair.reporting import PLAIN_EVERY_S, PLAIN_MIN_S, Tally, plain_line_due
from pytest_hwrepair.results.rundir import SampleRecord

from ..conftest import SUM_C, SUM_TOML, write_case

ROOT = Path(__file__).resolve().parents[2]
WORKERS = pytest.mark.parametrize("workers", ["0", "2"])


def run(pt: pytest.Pytester, *args: str) -> pytest.RunResult:
    return pt.runpytest_subprocess("-p", "no:cacheprovider", "-p", "no:randomly", "cases", *args)


def section(lines: list[str], title: str) -> list[str]:
    """The lines of one `=== title ===` section, up to the next one."""
    start = next(i for i, line in enumerate(lines) if line.startswith("=") and f" {title} " in line)
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("==")), len(lines))
    return lines[start + 1:end]


@WORKERS
def test_a_rejected_repair_takes_at_most_three_lines_by_default(demo_pytester: pytest.Pytester,
                                                                workers: str) -> None:
    result = run(demo_pytester, "--fixer", "noop", "-n", workers)
    result.assert_outcomes(failed=3)
    lines = result.stdout.lines
    failures, short = section(lines, "FAILURES"), section(lines, "short test summary info")
    assert len(failures) == 2 * 3 and len(short) == 3, failures  # a header and one line each, one FAILED line
    assert all(line.startswith("[") and "| artifacts: " in line for line in failures[1::2])
    assert "candidate diff" not in result.stdout.str() and "[gw" not in "\n".join(failures)


def test_v_shows_the_diff_and_the_log(demo_pytester: pytest.Pytester) -> None:
    result = run(demo_pytester, "--fixer", "noop", "-k", "SHFT", "-v")
    result.stdout.fnmatch_lines(["*candidate diff: (the candidate equals the buggy file)*", "*oracle log (tail):*"])


def test_failure_headers_name_the_design(demo_pytester: pytest.Pytester) -> None:
    other = SUM_TOML.replace('suite = "demo"', 'suite = "other"')
    write_case(demo_pytester.path, "sum", {"case.toml": other, "sum.c": SUM_C}, suite="other")
    result = run(demo_pytester, "--fixer", "noop", "-k", "MLU")
    result.stdout.fnmatch_lines_random(["_* hls/demo/sum::MLU-01[[]noop-s0[]] _*",
                                        "_* hls/other/sum::MLU-01[[]noop-s0[]] _*"])


def test_the_summary_comes_last_totals_first_with_a_legend(demo_pytester: pytest.Pytester) -> None:
    result = run(demo_pytester, "--fixer", "noop", "--fixer", "reference")
    lines = result.stdout.lines
    titles = [line.strip("= ") for line in lines if line.startswith("====")]
    assert titles.index("hwrepair summary") > titles.index("short test summary info")
    summary = section(lines, "hwrepair summary")
    assert summary[0].split() == ["fixer", "domain", "bugs", "samples", "pass@1", "correct@1",
                                  "plausible", "undecided", "mult", "under", "errors", "skips"]
    # One sample per bug: pass@5 cannot be measured, so its columns are left out, saying why in one line.
    assert "  left out: pass@5, correct@5: no fixer has 5 samples of a bug (--hwrepair-samples)" in summary
    assert summary[2].split()[:2] == ["noop", "hls"] and summary[3].split()[:2] == ["reference", "hls"]
    defined = [line.split(":")[0].strip() for line in summary if line.startswith("  ")]
    assert {"bugs", "samples", "pass@k", "mult", "under", "errors", "skips"} <= set(defined)
    assert len(lines) - lines.index(summary[0]) <= 40
    assert "by suite x bug type" not in result.stdout.str()


def test_the_breakdown_is_behind_an_option(demo_pytester: pytest.Pytester) -> None:
    result = run(demo_pytester, "--fixer", "noop", "--hwrepair-breakdown")
    result.stdout.fnmatch_lines(["by suite x bug type:", "fixer*domain*suite*type*failures", "*",
                                 "noop*hls*demo*MLU*0.000*test_fail:100%"])


def test_tables_show_the_label_not_the_command(demo_pytester: pytest.Pytester) -> None:
    result = run(demo_pytester, "--fixer", "mine=cmd:true --an-option-no-one-reads", "-k", "SHFT")
    summary = section(result.stdout.lines, "hwrepair summary")
    assert summary[2].split()[0] == "mine" and "cmd:" not in "\n".join(summary)


def test_the_settings_header_is_short(demo_pytester: pytest.Pytester) -> None:
    result = run(demo_pytester, "--fixer", "noop", "--hwrepair-seed", "3", "--collect-only", "-q")
    plain = run(demo_pytester, "--fixer", "noop", "--collect-only")
    (line,) = [x for x in plain.stdout.lines if x.startswith("hwrepair: fixers")]
    assert "options: defaults" in line and "None" not in line and len(line) < 160
    changed = run(demo_pytester, "--fixer", "noop", "--hwrepair-seed", "3", "--collect-only")
    changed.stdout.fnmatch_lines(["hwrepair: fixers noop; options: --hwrepair-seed=3; run directory *"])
    assert result.ret == 0


def _iterative(iteration: int, outcome: str, final: bool) -> SampleRecord:
    return SampleRecord(run="r", key="k", case="cuda/s/c", bug="LOGIC-01", domain="cuda", suite="s",
                        bug_type="logic_error", fixer="m", protocol="iterative", sample=0, iteration=iteration,
                        outcome=outcome, category="pass" if outcome == "passed" else "test_fail", final=final,
                        exec_id="e", patch_sha=str(iteration))


def test_an_iterative_run_shows_one_pass_at_1() -> None:
    # Failed on the first attempt, passed on the second: pass@1 (first attempt) is 0, pass within 2 is 1.
    summary = summarize([_iterative(0, "failed", False), _iterative(1, "passed", True)], [1, 2])
    lines = render(summary)
    row = lines[2].split()
    assert row[:2] == ["m", "cuda*"] and row[4:6] == ["0.000", "1.000"]
    assert [line for line in lines if "1.000" in line and "pass within" in line] == []
    breakdown = lines[lines.index("by suite x bug type:") + 3].split()
    assert breakdown[1] == "cuda*" and breakdown[6:8] == ["0.000", "1.000"]  # the same pass@1 everywhere


def test_the_legend_defines_every_column_a_table_can_show() -> None:
    assert {"bugs", "samples", "pass@k", "correct@k", "plausible", "mult", "under", "errors", "skips",
            "failures"} <= set(COLUMNS)


def test_no_user_facing_text_cites_the_design_notes() -> None:
    texts = [ROOT / "README.md", *(ROOT / "cases").glob("*/README.md"), *(ROOT / "docs").glob("*.md")]
    for path in texts:
        assert "DESIGN" not in path.read_text(), path
    for args in (["--help"], ["report", "--help"], ["validate", "--help"]):
        out = subprocess.run([sys.executable, "-m", "pytest_hwrepair.cli", *args], capture_output=True, text=True,
                             check=False).stdout
        assert "DESIGN" not in out and "§" not in out, args


def test_a_log_gets_plain_lines_and_no_carriage_return(demo_pytester: pytest.Pytester) -> None:
    result = run(demo_pytester, "--fixer", "noop", "-n", "2")
    assert "\r" not in result.stdout.str() and "\x1b" not in result.stdout.str()


def test_plain_lines_come_at_tenths_and_never_for_the_last_sample() -> None:
    tally = Tally(total=100, done=10)
    assert plain_line_due(tally, True, PLAIN_MIN_S) and not plain_line_due(tally, True, PLAIN_MIN_S / 2)
    assert not plain_line_due(tally, False, PLAIN_MIN_S) and plain_line_due(tally, False, PLAIN_EVERY_S)
    assert not plain_line_due(Tally(total=100, done=100), True, PLAIN_EVERY_S)


def test_the_progress_line_counts_outcomes_and_cost() -> None:
    tally = Tally(total=4)
    for outcome, cost in (("passed", 0.5), ("failed", 0.25), ("error", 0.0), ("skipped", 0.0)):
        tally.add([{"outcome": outcome, "cost_usd": cost}])
    assert tally.line() == ("hwrepair: 4/4 samples done, pass rate so far 50.0% (1 of 2), 1 errors, 1 skipped, "
                            "$0.7500")


def plain_env() -> dict[str, str]:
    """This environment without what forces or forbids colours (a test runner may set them)."""
    return {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "PY_COLORS", "FORCE_COLOR", "TERM")}


def on_a_terminal(pt: pytest.Pytester, **env: str) -> str:
    """The bytes a pytest run writes to a pseudo-terminal, as text."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:randomly", "cases",
                             "--fixer", "noop", "--hwrepair-run", "r"], cwd=pt.path, stdout=slave, stderr=slave,
                            stdin=subprocess.DEVNULL, env={**plain_env(), "COLUMNS": "160", "TERM": "xterm", **env})
    os.close(slave)
    out = b""
    while True:
        try:
            chunk = os.read(master, 1 << 16)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    proc.wait()
    os.close(master)
    return out.decode(errors="replace")


def test_a_terminal_gets_the_live_progress_line(demo_pytester: pytest.Pytester) -> None:
    text = on_a_terminal(demo_pytester)
    assert "3/3 done | pass 0.0% | 0 err | 0 skip | $0.00" in text
    assert text.index("3/3 done") < text.index("hwrepair summary")


def test_a_terminal_without_escape_sequences_gets_none(demo_pytester: pytest.Pytester) -> None:
    text = on_a_terminal(demo_pytester, NO_COLOR="1")
    assert "hwrepair summary" in text and "\x1b" not in text


def test_a_long_command_shows_as_its_label_and_a_model_name_stays() -> None:
    from pytest_hwrepair.report.terminal import shown_fixer

    command = "cmd:python3 /opt/agents/fix.py --task {task} --model big --tries 3"
    assert shown_fixer(command, {command: "cmd"}) == "cmd"
    assert shown_fixer("openai:gpt-4.1", {"openai:gpt-4.1": "openai"}) == "openai:gpt-4.1"
    assert shown_fixer("cmd:true", {"cmd:true": "mine"}) == "mine"
