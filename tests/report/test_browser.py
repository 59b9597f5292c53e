"""The HTML report in a real headless Chromium: it renders, its plots are there, filtering works, nothing
errs, nothing is fetched, and injected markup stays text. A screenshot is kept as a test artifact."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

# Imported before any pytester run: pytester forgets modules first imported inside a test, and numpy
# (under the report's statistics) refuses to be imported twice in one process. scipy itself, imported only by
# the statistics, is imported by tests/conftest.py's `pytester` before pytester is made.
import pytest_hwrepair.report.build  # noqa: F401
from pytest_hwrepair.cli import main
from pytest_hwrepair.report.plots import find_chromium

from ..report_helpers import llm_run

CHROMIUM = find_chromium()
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (apt-get install chromium): "
                                "the HTML report's browser test needs it")
websocket = pytest.importorskip("websocket", reason="websocket-client (the test extra) drives Chromium")

from ..cdp import Page  # noqa: E402  (needs websocket-client, checked above)

INJECTION = '</script><script>document.title="pwned"</script><img src=x onerror="document.title=\'pwned\'">'
PLOTS = ("pass-at-1", "multiplicity-scatter", "loc-scatter", "categories")  # demo cases: no strong oracle


def artifacts_dir(config: pytest.Config) -> Path:
    """Where screenshots go: $HWREPAIR_TEST_ARTIFACTS, else test-artifacts/ under the project root."""
    path = Path(os.environ.get("HWREPAIR_TEST_ARTIFACTS") or config.rootpath / "test-artifacts")
    path.mkdir(parents=True, exist_ok=True)
    return path


def select(page: Page, name: str, value: str) -> None:
    page.evaluate(f"(() => {{ const s = document.getElementById('f-{name}'); s.value = {json.dumps(value)}; "
                  "s.dispatchEvent(new Event('change')); })()")


def rows(page: Page) -> list[list[str]]:
    value: list[list[str]] = page.evaluate(
        "Array.from(document.querySelectorAll('#sample-rows tr')).map("
        "r => Array.from(r.cells).map(c => c.textContent))")
    return value


def screenshot(page: Page, path: Path) -> None:
    import base64

    shot = page.call("Page.captureScreenshot", format="png", captureBeyondViewport=True)
    path.write_bytes(base64.b64decode(shot["data"]))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def report_html(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> tuple[Path, Any]:
    run = llm_run(pytester, monkeypatch, answer="mixed", samples=4)
    records = [json.loads(line) for line in (run / "samples.jsonl").read_text().splitlines()]
    target = next(r for r in records if r["fixer"].startswith("openai"))
    (run / "artifacts" / target["artifact"] / "response.txt").write_text(INJECTION)
    out = tmp_path / "report.html"
    assert main(["report", str(run), "--format", "html", "--out", str(out), "--bootstrap", "300"]) == 0
    return out, records


def test_html_report_renders_filters_and_stays_offline(report_html: tuple[Path, Any], tmp_path: Path,
                                                       request: pytest.FixtureRequest) -> None:
    html, records = report_html
    assert CHROMIUM is not None
    with Page(CHROMIUM, tmp_path / "profile") as page:
        for domain in ("Runtime", "Log", "Page", "Network"):
            page.call(f"{domain}.enable")
        page.call("Emulation.setDeviceMetricsOverride", width=1400, height=1800, deviceScaleFactor=1, mobile=False)
        page.call("Page.navigate", url=html.as_uri())
        page.wait_for("Page.loadEventFired")
        assert page.evaluate("document.body.dataset.ready") == "1"  # the script ran: the CSP hash matches it

        drawn = page.evaluate("Object.fromEntries(Array.from(document.querySelectorAll('svg.chart')).map("
                              "s => [s.dataset.plot, s.getBoundingClientRect().width]))")
        for plot in PLOTS:
            assert drawn.get(plot, 0) > 100, (plot, drawn)
        assert page.evaluate("document.querySelectorAll('svg[data-plot=multiplicity-scatter] circle.point')"
                             ".length") >= 2

        total = len(records)
        assert page.evaluate("document.getElementById('count').textContent") == f"{total} of {total} samples"
        assert len(rows(page)) == total

        select(page, "fixer", "noop")
        assert {r[0] for r in rows(page)} == {"noop"} and len(rows(page)) == 12
        select(page, "fixer", "")
        select(page, "outcome", "passed")
        passed = sum(r["outcome"] == "passed" for r in records)
        assert 0 < passed < total and len(rows(page)) == passed and {r[6] for r in rows(page)} == {"passed"}
        assert page.evaluate("document.getElementById('count').textContent") == f"{passed} of {total} samples"
        select(page, "outcome", "")
        page.evaluate("(() => { const t = document.getElementById('f-text'); t.value = 'SHFT';"
                      " t.dispatchEvent(new Event('input')); })()")
        assert rows(page) and all("SHFT-01" in r[3] for r in rows(page))
        page.evaluate("(() => { const t = document.getElementById('f-text'); t.value = '';"
                      " t.dispatchEvent(new Event('input')); })()")

        index = next(i for i, r in enumerate(rows(page)) if r[0].startswith("openai"))
        page.evaluate(f"document.querySelectorAll('#sample-rows tr')[{index}].click()")
        detail = page.evaluate("document.getElementById('detail').innerText")
        assert "candidate diff" in detail and "raw response" in detail
        assert "The following C source file contains bugs." in detail  # the prompt, from the artifacts
        screenshot(page, artifacts_dir(request.config) / "report-browser.png")

        assert page.evaluate("document.title") == "hwrepair report: llm"  # no injected script ran
        assert page.evaluate("document.querySelectorAll('script').length") == 2
        assert page.errors() == []
        assert {u for u in page.requests()} == {html.as_uri()}  # nothing fetched but the page itself


def test_headline_opens_the_page_and_a_sample_link_scrolls_to_its_sample(report_html: tuple[Path, Any],
                                                                         tmp_path: Path) -> None:
    html, records = report_html
    assert CHROMIUM is not None
    far = records[-1]["key"]  # listed last: far below the first screen
    with Page(CHROMIUM, tmp_path / "profile") as page:
        for domain in ("Runtime", "Log", "Page"):
            page.call(f"{domain}.enable")
        page.call("Emulation.setDeviceMetricsOverride", width=1280, height=800, deviceScaleFactor=1, mobile=False)
        page.call("Page.navigate", url=html.as_uri())
        page.wait_for("Page.loadEventFired")
        head = page.evaluate("(() => { const t = document.querySelector('table');"
                             " const r = t.getBoundingClientRect();"
                             " return {inHeadline: t.closest('section').id, top: r.top, bottom: r.bottom,"
                             " height: window.innerHeight,"
                             " rows: Array.from(t.tBodies[0].rows).map("
                             "x => Array.from(x.cells).map(c => c.textContent))};"
                             " })()")
        assert head["inHeadline"] == "headline"  # the first table of the page
        assert head["top"] >= 0 and head["bottom"] <= head["height"], head  # in the first screen
        assert {(r[0], r[1]) for r in head["rows"]} == {(r["fixer"], "hls") for r in records}
        assert all("[" in r[3] and len(r) == 4 for r in head["rows"]), head["rows"]  # pass@1 with its interval
        # the demo cases have no strong oracle: correct@1 is left out with a note, not printed as n/a
        assert "correct@1 left out" in page.evaluate("document.querySelector('#headline p.note').textContent")
        widths = page.evaluate("(() => { const s = document.querySelector('#plots').getBoundingClientRect().width;"
                               " return Array.from(document.querySelectorAll('svg.chart')).map("
                               "c => c.getBoundingClientRect().width / s); })()")
        assert widths and min(widths) > 0.95, widths  # every plot at the page's full width
        assert page.evaluate("window.scrollY") == 0

        page.call("Page.navigate", url=html.as_uri() + "#sample=" + far)
        page.evaluate("new Promise(r => setTimeout(r, 300))")
        seen = page.evaluate("(() => { const row = document.querySelector('#sample-rows tr.selected');"
                             " const r = row.getBoundingClientRect();"
                             " const data = JSON.parse(document.getElementById('hwrepair-data').textContent);"
                             " return {key: data.samples[Number(row.dataset.index)].key, top: r.top,"
                             " height: window.innerHeight, scrolled: window.scrollY,"
                             " detail: document.getElementById('detail').innerText}; })()")
        # scrolled so that its row is at the top of the screen
        assert seen["key"] == far and seen["scrolled"] > 0 and -1 <= seen["top"] < seen["height"], seen
        assert far in seen["detail"]
        other = records[0]["key"]
        page.evaluate(f"window.location.hash = 'sample=' + {json.dumps(other)}")
        page.evaluate("new Promise(r => setTimeout(r, 300))")
        assert page.evaluate("JSON.parse(document.getElementById('hwrepair-data').textContent).samples["
                             "Number(document.querySelector('#sample-rows tr.selected').dataset.index)].key") == other
        link = page.evaluate("document.querySelector('#detail a.permalink').getAttribute('href')")
        assert link == "#sample=" + other
        assert page.errors() == []


def test_injected_response_is_shown_as_text(report_html: tuple[Path, Any], tmp_path: Path) -> None:
    html, records = report_html
    target = next(r for r in records if r["fixer"].startswith("openai"))
    assert CHROMIUM is not None
    with Page(CHROMIUM, tmp_path / "profile") as page:
        for domain in ("Runtime", "Log", "Page"):
            page.call(f"{domain}.enable")
        page.call("Page.navigate", url=html.as_uri())
        page.wait_for("Page.loadEventFired")
        found = page.evaluate(
            "(() => { const rows = Array.from(document.querySelectorAll('#sample-rows tr'));"
            f" const key = {json.dumps(target['key'])};"
            " const data = JSON.parse(document.getElementById('hwrepair-data').textContent);"
            " const i = data.samples.findIndex(s => s.key === key && s.final);"
            " rows[i].click();"
            " return Array.from(document.querySelectorAll('#detail pre')).map(p => p.textContent); })()")
        assert INJECTION + "\n" in found
        assert page.evaluate("document.title") == "hwrepair report: llm"
        assert page.evaluate("document.querySelectorAll('#detail img, #detail script').length") == 0
        assert page.errors() == []


def test_plots_are_rasterised_to_png_at_twice_their_size(tmp_path: Path) -> None:
    import struct

    from ..report_helpers import five_bugs, plant

    run = plant(tmp_path / "run", five_bugs())
    assert main(["report", str(run), "--format", "csv", "--out", str(tmp_path / "x.csv"), "--plots",
                 str(tmp_path / "plots"), "--png", "--bootstrap", "200"]) == 0
    svg = (tmp_path / "plots" / "multiplicity-scatter.svg").read_text()
    png = (tmp_path / "plots" / "multiplicity-scatter.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])  # the IHDR chunk
    assert f'width="{width // 2}" height="{height // 2}"' in svg
