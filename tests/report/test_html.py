"""The HTML report's sample browser against hostile artifacts, and the plots of every protocol and domain."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from pytest_hwrepair.report.build import build_report
from pytest_hwrepair.report.html import ARTIFACTS, browser_data, render_html
from pytest_hwrepair.report.load import load_runs, merge
from pytest_hwrepair.report.plots import plots

from ..report_helpers import llm_run, plant, record

INJECTION = '</script><script>document.title="pwned"</script><img src=x onerror="document.title=1">'


def html_of(run: Path) -> str:
    merged = merge(load_runs([run]))
    return render_html(build_report(merged, [1], resamples=200), merged)


def data_of(html: str) -> dict[str, Any]:
    m = re.search(r'<script type="application/json" id="hwrepair-data">(.*?)</script>', html, re.DOTALL)
    assert m is not None
    parsed: dict[str, Any] = json.loads(m.group(1))
    return parsed


def planted_with_artifacts(root: Path, files: dict[str, str], **fields: Any) -> Path:
    r = record(key="sample1", artifact="sample1", **fields)
    run = plant(root / "run", [r])
    folder = run / "artifacts" / "sample1"
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text)
    return run


def texts_of(run: Path) -> dict[str, str]:
    data = browser_data(merge(load_runs([run])))
    sample = data["samples"][0]
    return {field: data["texts"][sample[field]] for field in ARTIFACTS}


def test_a_linked_artifact_is_not_followed(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("API_KEY=sk-live-123")
    run = planted_with_artifacts(tmp_path, {"oracle.log": "log"})
    (run / "artifacts" / "sample1" / "candidate.diff").symlink_to(secret)
    os.mkfifo(run / "artifacts" / "sample1" / "prompt.txt")  # a FIFO would block a naive reader forever
    texts = texts_of(run)
    assert "sk-live-123" not in json.dumps(texts)
    assert texts["diff"].startswith("[not shown:") and "symbolic link" in texts["diff"]
    assert texts["prompt"].startswith("[not shown:") and "not a regular file" in texts["prompt"]
    assert texts["log"] == "log"


def test_an_artifact_path_leaving_the_run_directory_is_refused(tmp_path: Path) -> None:
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "candidate.diff").write_text("outside the run")
    run = plant(tmp_path / "run", [record(artifact="../../outside")])
    assert texts_of(run)["diff"].startswith("[not shown:")


def test_a_huge_response_is_capped_with_a_marker(tmp_path: Path) -> None:
    run = planted_with_artifacts(tmp_path, {"response.txt": "x" * 1_000_000})
    text = texts_of(run)["response"]
    cap = ARTIFACTS["response"][1]
    assert text.startswith("x" * cap) and "truncated" in text and len(text) < cap + 200


def test_injected_markup_stays_text(tmp_path: Path) -> None:
    run = planted_with_artifacts(tmp_path, {"response.txt": INJECTION, "candidate.diff": INJECTION},
                                 summary=INJECTION, fixer="<b>evil</b>")
    html = html_of(run)
    assert html.count("<script") == 2 and html.count("</script>") == 2
    assert "<img src=x" not in html and "<b>evil</b>" not in html
    data = data_of(html)
    assert data["texts"][data["samples"][0]["response"]] == INJECTION  # kept, literally, as data


def test_the_csp_allows_exactly_the_report_script(tmp_path: Path) -> None:
    html = html_of(plant(tmp_path / "run", [record()]))
    script = html.rsplit("<script>", 1)[1].split("</script>", 1)[0]
    digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    assert f"script-src 'sha256-{digest}'" in html and "default-src 'none'" in html


def _trajectory(fixer: str, bug: str, outcomes: list[str], stop: str | None) -> list[Any]:
    out = []
    for i, outcome in enumerate(outcomes):
        last = i == len(outcomes) - 1
        out.append(record(fixer, "cuda/k/vadd", bug, outcome, f"h{i}", key=f"{fixer}{bug}", exec_id=f"{fixer}{bug}",
                          domain="cuda", suite="k", protocol="iterative", iteration=i, final=last,
                          stop_reason=stop if last else None, speedup=1.4 if outcome == "passed" else None,
                          category="pass" if outcome == "passed" else "compile_fail"))
    return out


def test_iterative_cuda_and_rtl_runs_get_their_plots(tmp_path: Path) -> None:
    records = _trajectory("m", "COMPILE-01", ["failed", "passed"], "passed")
    records += _trajectory("m", "LOGIC-01", ["failed", "failed", "failed"], "no_progress")
    records += [record("m", "rtl/seq/fifo", "OPSWAP-01", "passed", "r1", domain="rtl", suite="seq",
                       bug_class="behavioural", strong=False),
                record("m", "rtl/seq/fifo", "SEMI-01", "passed", "r2", domain="rtl", suite="seq",
                       bug_class="syntactic", strong=True)]
    found, missing = plots(build_report(merge(load_runs([plant(tmp_path / "run", records)])), [1], resamples=200))
    ids = {p.id for p in found}
    assert {"iterative-curve", "iterative-stops", "cuda-perf", "rtl-tiers", "correct-at-1"} <= ids
    assert not missing
    stops = next(p for p in found if p.id == "iterative-stops").svg
    assert "m: no_progress 50.0%" in stops and "m: passed 50.0%" in stops


def test_an_llm_run_shows_prompt_and_response_per_sample(pytester: pytest.Pytester,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    run = llm_run(pytester, monkeypatch, answer="reference", samples=1)
    data = data_of(html_of(run))
    model = [s for s in data["samples"] if s["fixer"].startswith("openai")]
    assert len(model) == 3 and all(s["outcome"] == "passed" for s in model)
    for s in model:
        assert data["texts"][s["prompt"]].startswith("The following C source file contains bugs.")
        assert "Here is the corrected file." in data["texts"][s["response"]]
    noop = [s for s in data["samples"] if s["fixer"] == "noop"]
    assert all(data["texts"][s["prompt"]] == "" for s in noop)  # no prompt saved: none shown


def test_stacked_bars_end_at_the_axis_end(tmp_path: Path) -> None:
    run = plant(tmp_path / "run", [record(outcome="passed"), record(outcome="failed", sha="b", sample=1)])
    found, _ = plots(build_report(merge(load_runs([run])), [1], resamples=200))
    svg = next(p for p in found if p.id == "categories").svg
    one = float(re.search(r'<text x="([0-9.]+)" y="[0-9.]+" font-size="11" text-anchor="middle" fill="#222">1\.0<',
                          svg).group(1))  # type: ignore[union-attr]
    bars = [(float(x), float(w)) for x, w in re.findall(r'class="bar" x="([0-9.]+)" y="[0-9.]+" width="([0-9.]+)"',
                                                         svg)]
    assert len(bars) == 2 and abs(bars[-1][0] + bars[-1][1] - one) < 0.2
