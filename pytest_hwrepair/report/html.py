"""The self-contained HTML report: one file, no network, plots as inline SVG, a per-sample browser.

Texts from runs are escaped where they become HTML and embedded as JSON the browser script reads with
textContent; a Content-Security-Policy allows only the report's own script (by hash). Artifacts were written
from model answers and candidate programs: each is read with `read_untrusted` (no links, regular files only,
capped), shown only as text, and stored once however many samples share it.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Sequence
from importlib.resources import files
from pathlib import Path
from typing import Any

from ..results.rundir import SampleRecord
from ..sandbox.untrusted import UntrustedFileError, read_untrusted, truncation_marker
from .formats import Section, card_lines, est, sections
from .load import Merged
from .model import Report
from .plots import Missing, Plot, esc, plots

# field -> (artifact file names tried in order, characters kept)
ARTIFACTS: dict[str, tuple[tuple[str, ...], int]] = {
    "diff": (("candidate.diff",), 20_000),
    "log": (("oracle.log",), 8_000),
    "prompt": (("prompt.txt",), 12_000),
    "response": (("response.txt", "response.diff"), 20_000),
}
TEXT_BUDGET = 24 << 20  # characters of artifact text one report embeds at most
SPENT = "[not embedded: this report's budget for artifact text is spent; open the run directory]"


class TextPool:
    """Interned texts, in the order added: the browser refers to each by its index."""

    def __init__(self) -> None:
        self.index: dict[str, int] = {"": 0}
        self.budget = TEXT_BUDGET

    def add(self, text: str) -> int:
        if text not in self.index and len(text) > self.budget:
            text = SPENT
        if text not in self.index:
            self.budget -= len(text)
            self.index[text] = len(self.index)
        return self.index[text]


def read_artifact(artifacts: Path, folder: str | None, names: tuple[str, ...], cap: int) -> str:
    """The first of `names` in the sample's artifact folder, as capped text ('' when none exists)."""
    if not folder:
        return ""
    for name in names:
        try:
            got = read_untrusted(artifacts, f"{folder}/{name}", cap)
        except FileNotFoundError:
            continue
        except UntrustedFileError as exc:
            return f"[not shown: {exc}]"
        except OSError as exc:
            return f"[not readable: {name}: {exc.strerror or exc}]"
        return got.text + (truncation_marker(got.dropped) if got.truncated else "")
    return ""


def _entry(r: SampleRecord, origin: Path, pool: TextPool) -> dict[str, Any]:
    return {
        "fixer": r.fixer, "domain": r.domain, "suite": r.suite, "type": r.bug_type, "case": r.case, "bug": r.bug,
        "sample": r.sample, "iteration": r.iteration, "final": r.final, "outcome": r.outcome,
        "category": r.category, "strong": r.strong, "verdict": verdict(r), "summary": pool.add(r.summary),
        "nodeid": r.nodeid, "key": r.key, "run": r.run, "speedup": r.speedup, "cost_usd": r.cost_usd,
        "stop": r.stop_reason,
        **{field: pool.add(read_artifact(origin / "artifacts", r.artifact, names, cap))
           for field, (names, cap) in ARTIFACTS.items()},
    }


def verdict(r: SampleRecord) -> str:
    """correct | plausible | passed (no strong verdict) | the outcome."""
    if r.outcome != "passed":
        return r.outcome
    return "passed" if r.strong is None else "correct" if r.strong else "plausible"


def browser_data(merged: Merged) -> dict[str, Any]:
    """Every record (each iteration of a trajectory too) with interned artifact texts."""
    pool = TextPool()
    pairs = sorted(merged.counted,
                   key=lambda p: (p[0].fixer, p[0].case, p[0].bug, p[0].sample, p[0].iteration or 0, not p[0].final))
    return {"samples": [_entry(r, origin, pool) for r, origin in pairs], "texts": list(pool.index)}


FILTERS = (("fixer", "fixer"), ("suite", "suite"), ("type", "bug type"), ("outcome", "outcome"),
           ("verdict", "verdict"), ("category", "category"))


def asset(name: str) -> str:
    return files("pytest_hwrepair.report").joinpath("assets", name).read_text(encoding="utf-8")


def script_json(data: Any) -> str:
    """JSON that cannot end its <script> element: every <, > and & (and JS line separators) escaped."""
    text = json.dumps(data, separators=(",", ":"), sort_keys=True)
    for char, code in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"), ("\u2028", "\\u2028"),
                       ("\u2029", "\\u2029")):
        text = text.replace(char, code)
    return text


def _csp(script: str) -> str:
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode()
    return f"default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'sha256-{digest}'"


def _table(s: Section) -> str:
    head = "".join(f"<th>{esc(h)}</th>" for h in s.headers)
    body = "".join("<tr>" + "".join(f'<td{" class=num" if isinstance(c, (int, float)) else ""}>{esc(c)}</td>'
                                    for c in row) + "</tr>" for row in s.rows)
    note = f'<p class="note">{esc(s.note)}</p>' if s.note else ""
    empty = "" if s.rows else '<p class="note">(none)</p>'
    return f"<h3>{esc(s.title)}</h3><table class=\"data\"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>" \
           f"{empty}{note}"


def headline(report: Report) -> Section:
    """Fixers x domains at the smallest k with their intervals; correct@k only where some bug has a strong oracle."""
    k = str(min(report.k)) if report.k else "1"
    rows = report.tables.domains
    strong = any(r.correct_at[k].value is not None for r in rows)
    note = "mean over bugs [95 % bootstrap interval]; " + (
        "correct: the repair also passes the strong oracle" if strong
        else f"correct@{k} left out: no bug here has a strong oracle")
    return Section(f"pass@{k}{f' and correct@{k}' if strong else ''} by fixer and domain",
                   ("fixer", "domain", "bugs", f"pass@{k}", *((f"correct@{k}",) if strong else ())),
                   tuple((r.group.get("fixer", ""), r.group.get("domain", ""), r.bugs, est(r.pass_at[k]),
                          *((est(r.correct_at[k]),) if strong else ())) for r in rows), note)


def _cards(report: Report) -> str:
    out = []
    for c in report.cards:
        rows = "".join(f"<tr><th>{esc(k)}</th><td>{esc(v)}</td></tr>"
                       for k, v in (line.split(": ", 1) for line in card_lines(c)))
        out.append(f'<table class="card" data-run="{esc(c.run)}">{rows}</table>')
    return '<div class="cards">' + "".join(out) + "</div>"


def _plots(found: Sequence[Plot], missing: Sequence[Missing]) -> str:
    figs = "".join(f'<figure class="plot" id="plot-{esc(p.id)}">{p.svg}<figcaption>{esc(p.caption)}</figcaption>'
                   "</figure>" for p in found)
    gone = "".join(f"<li>{esc(m.title)}: {esc(m.reason)}</li>" for m in missing)
    return f'<div class="plots">{figs}</div>' + (f'<p>Not drawn:</p><ul class="missing">{gone}</ul>' if gone else "")


def _browser() -> str:
    selects = "".join(f'<label>{esc(label)}<select id="f-{name}"><option value="">all</option></select></label>'
                      for name, label in FILTERS)
    heads = "".join(f"<th>{h}</th>" for h in ("fixer", "suite", "type", "bug", "sample", "iteration", "outcome",
                                               "verdict", "category", "summary"))
    return (f'<div class="filters">{selects}<label>case or bug<input id="f-text" type="search"></label>'
            '<label><span>final attempts only</span><input id="f-final" type="checkbox"></label></div>'
            '<p id="count"></p><table id="sample-table"><thead><tr>' + heads + '</tr></thead>'
            '<tbody id="sample-rows"></tbody></table><button id="more" type="button" hidden>show more</button>'
            '<div id="detail" hidden></div>')


def render_html(report: Report, merged: Merged) -> str:
    found, missing = plots(report)
    script = asset("browser.js")
    runs = ", ".join(report.merge.runs)
    notes = "".join(f"<li>{esc(n)}</li>" for n in report.notes)
    tables = "".join(_table(s) for s in sections(report))
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f'<meta http-equiv="Content-Security-Policy" content="{_csp(script)}">'
        f"<title>hwrepair report: {esc(runs)}</title><style>{asset('report.css')}</style></head><body>"
        f"<header><h1>hwrepair report</h1><p>runs: {esc(runs)}; {report.merge.samples} samples; "
        f"k = {esc(', '.join(str(k) for k in report.k))}</p>"
        '<nav><a href="#headline">headline</a><a href="#card">evaluation card</a><a href="#plots">plots</a>'
        '<a href="#tables">tables</a><a href="#samples">samples</a></nav></header>'
        f'<section id="headline"><h2>Headline</h2>{_table(headline(report))}</section>'
        f'<section id="card"><h2>Evaluation card</h2>{_cards(report)}</section>'
        f'<section id="notes"><h2>Notes</h2><ul>{notes}</ul></section>'
        f'<section id="plots"><h2>Plots</h2>{_plots(found, missing)}</section>'
        f'<section id="tables"><h2>Tables</h2>{tables}</section>'
        f'<section id="samples"><h2>Samples</h2>{_browser()}</section>'
        f'<script type="application/json" id="hwrepair-data">{script_json(browser_data(merged))}</script>'
        f"<script>{script}</script></body></html>\n"
    )
