"""`hwrepair report` on run directories made by real pytest runs: every format, merging, the card, errors."""

from __future__ import annotations

import csv
import io
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

# Imported before any pytester run: pytester forgets modules first imported inside a test, and numpy
# (under the report's statistics) refuses to be imported twice in one process.
import pytest_hwrepair.report.build  # noqa: F401
from pytest_hwrepair.cli import main
from pytest_hwrepair.report.model import Report
from pytest_hwrepair.report.terminal import render

from ..conftest import DUMP_C, DUMP_TOML, SUM_C, SUM_TOML, write_case
from ..report_helpers import llm_run

FORMATS = ("text", "markdown", "latex", "csv", "json", "html")


def run_pytest(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:randomly", "-q",
                           "cases", *args], cwd=root, capture_output=True, text=True, check=False, timeout=600)


@pytest.fixture(scope="module")
def control_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A run of the two control fixers, two samples each, on the three demo bugs."""
    root = tmp_path_factory.mktemp("control")
    write_case(root, "sum", {"case.toml": SUM_TOML, "sum.c": SUM_C})
    write_case(root, "dump", {"case.toml": DUMP_TOML, "dump.c": DUMP_C})
    done = run_pytest(root, "--fixer=reference", "--fixer=noop", "--hwrepair-samples", "2", "--hwrepair-run", "run")
    assert "6 failed, 6 passed" in done.stdout, done.stdout[-2000:]
    return root / "run"


def report(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    status = main(["report", *args])
    out = capsys.readouterr()
    return status, out.out, out.err


def summary_json(run: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((run / "summary.json").read_text())
    data.pop("run", None)
    return data


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_is_written_and_carries_the_evaluation_card(control_run: Path, tmp_path: Path, fmt: str,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / f"report.{fmt}"
    status, _, err = report(capsys, str(control_run), "--format", fmt, "--out", str(out), "--bootstrap", "200")
    assert status == 0 and f"wrote {out}" in err
    text = out.read_text()
    case_set = json.loads((control_run / "run.json").read_text())["case_set"]
    assert case_set in text  # the corpus hash travels with the numbers in every format
    assert "feedback" in text and "reference" in text and "noop" in text


def test_csv_rows_agree_with_summary_json(control_run: Path, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    check_csv(control_run, tmp_path / "bugs.csv", capsys)


def check_csv(run: Path, out: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report(capsys, str(run), "--format", "csv", "--out", str(out), "--bootstrap", "200")
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    expected = summary_json(run)["bugs"]
    assert len(rows) == len(expected) == 6
    for row, bug in zip(rows, expected):
        assert (row["fixer"], row["case"], row["bug"]) == (bug["fixer"], bug["case"], bug["bug"])
        assert (int(row["n"]), int(row["c"]), int(row["errors"]), int(row["skipped"])) == \
            (bug["n"], bug["c"], bug["errors"], bug["skipped"])
        assert float(row["multiplicity"]) == bug["multiplicity"]
        assert float(row["pass@1"]) == round(bug["c"] / bug["n"], 4)
        assert row["pass@5"] == ""  # n < 5: n/a, never a number
        assert int(row["category:pass"]) == bug["c"]
        assert row["suite"] == "demo" and row["bug_type"] in row["bug"] and int(row["loc"]) > 0
        assert "protocol=auto" in row["protocol_stack"] and "feedback=L3" in row["protocol_stack"]


def test_json_report_follows_the_published_schema(control_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = report(capsys, str(control_run), "--format", "json", "--bootstrap", "200")
    assert status == 0
    data = json.loads(out)
    parsed = Report.model_validate(data)  # extra keys are forbidden: the schema is exactly what is written
    assert parsed.summary == summary_json(control_run)
    assert main(["schema", "--results"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert set(schema["required"]) <= set(data) and set(data) <= set(schema["properties"])
    assert schema["$defs"]["BugRow"]["additionalProperties"] is False
    fixers = {r["group"]["fixer"]: r for r in data["tables"]["fixers"]}
    assert fixers["reference"]["pass_at"]["1"] == {"value": 1.0, "low": 1.0, "high": 1.0}
    assert fixers["noop"]["pass_at"]["1"]["value"] == 0.0


def test_text_is_the_scoreboard_tables_first_then_the_statistics(control_run: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = report(capsys, str(control_run), "--bootstrap", "200")
    lines = out.splitlines()
    expected = render(summary_json(control_run))
    assert status == 0 and lines[:len(expected)] == expected
    assert "evaluation card" in out and "Spearman rho" in out and "Wilcoxon" in out
    assert main(["report", str(control_run), "--json"]) == 0  # the old --json still prints the summary
    assert json.loads(capsys.readouterr().out) == summary_json(control_run)


def test_merging_shards_gives_the_whole_run(control_run: Path, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    lines = (control_run / "samples.jsonl").read_text().splitlines()
    for i, name in enumerate(("s0", "s1")):
        shard = tmp_path / name
        shard.mkdir()
        (shard / "samples.jsonl").write_text("\n".join(lines[i::2]) + "\n")
    _, whole, _ = report(capsys, str(control_run), "--json")
    _, merged, _ = report(capsys, str(tmp_path / "s0"), str(tmp_path / "s1"), "--json")
    assert json.loads(merged) == json.loads(whole)
    _, text, _ = report(capsys, str(tmp_path / "s0"), str(tmp_path / "s1"), "--bootstrap", "200")
    assert "merged 2 run directories into 12 samples; no sample is present in more than one" in text
    assert "run.json is missing" in text  # a shard without run.json says its protocol is unknown


@pytest.mark.parametrize("xdist", [[], ["-n", "2"]], ids=["n0", "n2"])
def test_a_sample_in_two_run_directories_counts_once(demo_pytester: pytest.Pytester, xdist: list[str],
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """Regression: `hwrepair report A B` counted samples present in both twice, halving multiplicity."""
    args = ["-p", "no:cacheprovider", "-p", "no:randomly", "cases", "--fixer=reference", "--hwrepair-samples", "2"]
    demo_pytester.runpytest_subprocess(*args, "--hwrepair-run", "A", *xdist).assert_outcomes(passed=6)
    demo_pytester.runpytest_subprocess(*args, "--hwrepair-run", "B", *xdist).assert_outcomes(passed=6)
    a, b = demo_pytester.path / "A", demo_pytester.path / "B"
    _, alone, _ = report(capsys, str(a), "--json")
    _, both, _ = report(capsys, str(a), str(b), "--json")
    assert json.loads(both) == json.loads(alone)
    bugs = json.loads(both)["bugs"]
    assert [(x["n"], x["multiplicity"]) for x in bugs] == [(2, 0.5)] * 3  # not (4, 0.25)
    _, text, _ = report(capsys, str(a), str(b), "--bootstrap", "200")
    assert "6 samples present in more than one (same sample key) counted once" in text
    _, kept, _ = report(capsys, str(a), str(b), "--by-run", "--json")
    assert {x["fixer"] for x in json.loads(kept)["bugs"]} == {"A:reference", "B:reference"}


def test_a_rerun_verdict_replaces_an_error_from_another_directory(control_run: Path, tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    records = [json.loads(line) for line in (control_run / "samples.jsonl").read_text().splitlines()]
    broken = tmp_path / "broken"
    broken.mkdir()
    errored = [{**r, "outcome": "error", "category": "infra_error"} for r in records]
    (broken / "samples.jsonl").write_text("".join(json.dumps(r) + "\n" for r in errored))
    _, out, _ = report(capsys, str(broken), str(control_run), "--json")
    assert json.loads(out) == summary_json(control_run)  # the decided verdicts win, whichever comes first


def _html_data(html: str) -> dict[str, Any]:
    start = html.index('<script type="application/json" id="hwrepair-data">') + len(
        '<script type="application/json" id="hwrepair-data">')
    data: dict[str, Any] = json.loads(html[start:html.index("</script>", start)])
    return data


def test_html_is_self_contained_with_plots_and_every_sample(control_run: Path, tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.html"
    report(capsys, str(control_run), "--format", "html", "--out", str(out), "--bootstrap", "200")
    html = out.read_text()
    for plot in ("pass-at-1", "multiplicity-scatter", "loc-scatter", "categories"):
        assert f'data-plot="{plot}"' in html
    assert "cuda: pass rate vs perf gate p: no timed cuda samples" in html  # what is not drawn says why
    assert "http://" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "") and "https://" not in html
    assert "script-src 'sha256-" in html and html.count("<script") == 2
    data = _html_data(html)
    assert len(data["samples"]) == 12
    noop = next(s for s in data["samples"] if s["fixer"] == "noop" and s["bug"] == "SHFT-01")
    assert noop["outcome"] == "failed" and "mismatches" in data["texts"][noop["log"]]
    ref = next(s for s in data["samples"] if s["fixer"] == "reference" and s["bug"] == "SHFT-01")
    assert "+    for (int i = 0; i < 10; i++) s += i;" in data["texts"][ref["diff"]]


def test_plots_are_written_as_svg_files(control_run: Path, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = report(capsys, str(control_run), "--format", "csv", "--out", str(tmp_path / "x.csv"),
                            "--plots", str(tmp_path / "plots"), "--bootstrap", "200")
    assert f"wrote {tmp_path / 'plots' / 'loc-scatter.svg'}" in err
    names = sorted(p.name for p in (tmp_path / "plots").iterdir())
    assert status == 0 and names == ["categories.svg", "loc-scatter.svg", "multiplicity-scatter.svg", "pass-at-1.svg"]
    assert (tmp_path / "plots" / "loc-scatter.svg").read_text().count('class="point"') >= 2


@pytest.mark.parametrize(("args", "message"), [
    (["-k", "one"], "-k: 'one' is not a comma-separated list of integers"),
    (["-k", "0"], "-k: '0' must list integers of at least 1"),
    (["--bug-class", "INF"], "--bug-class: 'INF' is not TYPE=CLASS"),
    (["--png"], "--png: needs --plots DIR"),
    (["--bootstrap", "5"], "--bootstrap: 5 resamples are too few"),
])
def test_bad_arguments_are_one_line_errors(control_run: Path, args: list[str], message: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = report(capsys, str(control_run), *args)
    assert status == 2 and err.startswith(f"hwrepair: {message}") and err.count("\n") == 1


def test_a_folder_without_samples_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = report(capsys, str(tmp_path))
    assert status == 2 and err == f"hwrepair: {tmp_path}: no samples.jsonl (not a run directory)\n"


def test_copied_control_run_keeps_its_artifacts(control_run: Path, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(control_run, copy)
    out = tmp_path / "r.html"
    report(capsys, str(copy), "--format", "html", "--out", str(out), "--bootstrap", "200")
    data = _html_data(out.read_text())
    assert all(data["texts"][s["log"]] for s in data["samples"] if s["outcome"] == "failed")


@pytest.mark.parametrize(("field", "value", "expected"), [
    ("loc", 5, "field 'loc' is 5, expected dict"),
    ("iteration", "two", "field 'iteration' is 'two', expected int or null"),
    ("strong", "yes", "field 'strong' is 'yes', expected bool or null"),
    ("sample", True, "field 'sample' is True, expected int"),
    ("patch_sha", 7, "field 'patch_sha' is 7, expected str or null"),
])
def test_a_malformed_record_is_a_one_line_error(control_run: Path, tmp_path: Path, field: str, value: Any,
                                                expected: str, capsys: pytest.CaptureFixture[str]) -> None:
    lines = (control_run / "samples.jsonl").read_text().splitlines()
    bad = {**json.loads(lines[0]), field: value}
    (tmp_path / "samples.jsonl").write_text("\n".join([*lines[1:], json.dumps(bad)]) + "\n")
    status, _, err = report(capsys, str(tmp_path))
    assert status == 2 and err.count("\n") == 1
    assert err.startswith(f"hwrepair: {tmp_path / 'samples.jsonl'}: record {bad['key']!r}: {expected}")


def test_every_format_from_an_offline_model_run(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch,
                                                tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = llm_run(pytester, monkeypatch, answer="mixed", samples=4)
    for fmt in FORMATS:
        out = tmp_path / f"r.{fmt}"
        assert main(["report", str(run), "--format", fmt, "--out", str(out), "--bootstrap", "200"]) == 0
        assert "openai:gpt-4.1" in out.read_text()
    check_csv(run, tmp_path / "bugs.csv", capsys)
    data = json.loads((tmp_path / "r.json").read_text())
    model = next(r for r in data["tables"]["fixers"] if r["group"]["fixer"] == "openai:gpt-4.1")
    assert 0 < model["pass_at"]["1"]["value"] < 1  # the mixed answers repair some samples, not all
    assert data["cards"][0]["fixers"] == {"noop": "noop", "openai": "openai:gpt-4.1"}


def test_report_help_lists_the_formats(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["report", "--help"])
    out = capsys.readouterr().out
    assert stop.value.code == 0
    assert "{text,markdown,latex,csv,json,html}" in out and "--out PATH" in out and "--plots DIR" in out
