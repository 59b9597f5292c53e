"""The report's plots as standalone SVG written as text (no plotting library, no script, every label escaped).

`--png` rasterises them with a headless Chromium driven over `--remote-debugging-pipe` (the DevTools protocol
on two file descriptors, no port): its `--screenshot` flag crops small windows, a clipped capture does not.
"""

from __future__ import annotations

import base64
import json
import math
import os
import re
import select
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any, cast

from ..sandbox.process import kill_group
from ..settings import SettingsError
from .formats import num, pval
from .model import Report

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#7f7f7f",
           "#bcbd22")
FONT = "font-family=\"DejaVu Sans, Arial, sans-serif\""


def color(i: int) -> str:
    return PALETTE[i % len(PALETTE)]


def esc(text: object) -> str:
    """Text safe in an element and in a quoted attribute."""
    return escape(str(text), quote=True)


@dataclass(frozen=True, slots=True)
class Point:
    x: float
    y: float
    series: int
    title: str


@dataclass(frozen=True, slots=True)
class Whisker:
    row: int
    value: float
    low: float | None
    high: float | None
    series: int
    hollow: bool
    title: str


class Canvas:
    """An SVG document of a fixed size with a plot area; coordinates in data units map into that area."""

    def __init__(self, width: int, height: int, title: str, *, left: int = 60, right: int = 20, top: int = 40,
                 bottom: int = 50) -> None:
        self.width, self.height = width, height
        self.left, self.top = left, top
        self.plot_w, self.plot_h = float(width - left - right), float(height - top - bottom)
        self.parts: list[str] = [
            f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>',
            f'<text x="{width / 2:.1f}" y="22" text-anchor="middle" font-size="15" font-weight="bold">{esc(title)}'
            "</text>"]

    def add(self, part: str) -> None:
        self.parts.append(part)

    def text(self, x: float, y: float, text: object, *, size: int = 11, anchor: str = "middle",
             rotate: float | None = None, fill: str = "#222") -> None:
        transform = f' transform="rotate({rotate} {x:.1f} {y:.1f})"' if rotate is not None else ""
        self.add(f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" fill="{fill}"'
                 f"{transform}>{esc(text)}</text>")

    def line(self, x1: float, y1: float, x2: float, y2: float, *, stroke: str = "#999", width: float = 1) -> None:
        self.add(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{stroke}" '
                 f'stroke-width="{width}"/>')

    def x_tick(self, x: float, text: str) -> None:
        """A vertical gridline at x with its value under the plot area."""
        self.line(x, self.top, x, self.top + self.plot_h, stroke="#e5e5e5")
        self.text(x, self.top + self.plot_h + 14, text)

    def x_label(self, text: str) -> None:
        self.text(self.left + self.plot_w / 2, self.top + self.plot_h + 30, text)

    def legend(self, names: Sequence[str], *, y: float | None = None) -> None:
        x = float(self.left)
        y = float(self.height - 12) if y is None else y
        for i, name in enumerate(names):
            self.add(f'<rect x="{x:.1f}" y="{y - 9:.1f}" width="10" height="10" fill="{color(i)}"/>')
            self.text(x + 14, y, name, anchor="start")
            x += 24 + 7 * len(name)

    def render(self, plot_id: str) -> str:
        return (f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" data-plot="{esc(plot_id)}" '
                f'width="{self.width}" height="{self.height}" viewBox="0 0 {self.width} {self.height}" {FONT}>'
                + "".join(self.parts) + "</svg>")


def _unit_axis(c: Canvas, *, vertical: bool, label: str) -> Callable[[float], float]:
    """A 0..1 axis with gridlines every 0.2; returns the data-to-pixel map."""

    def to_px(v: float) -> float:  # a 4 % inset keeps marks at 0 and 1 off the frame and the tick labels
        return c.top + c.plot_h * (0.04 + 0.92 * (1 - v)) if vertical else c.left + c.plot_w * (0.04 + 0.92 * v)

    for v in (i / 5 for i in range(6)):
        if vertical:
            c.line(c.left, to_px(v), c.left + c.plot_w, to_px(v), stroke="#e5e5e5")
            c.text(c.left - 6, to_px(v) + 4, f"{v:.1f}", anchor="end")
        else:
            c.x_tick(to_px(v), f"{v:.1f}")
    if vertical:
        c.text(16, c.top + c.plot_h / 2, label, rotate=-90)
    else:
        c.x_label(label)
    return to_px


def _log_axis(c: Canvas, lo: float, hi: float, label: str) -> Callable[[float], float]:
    lo, hi = math.log10(max(lo, 1.0)), math.log10(max(hi, 10.0))
    if hi - lo < 1e-9:
        hi = lo + 1

    def to_px(v: float) -> float:
        return c.left + c.plot_w * (0.04 + 0.92 * (math.log10(max(v, 1.0)) - lo) / (hi - lo))

    for e in range(math.floor(lo), math.ceil(hi) + 1):
        for m in (1, 2, 5):
            v = m * 10**e
            if lo - 1e-9 <= math.log10(v) <= hi + 1e-9:
                c.x_tick(to_px(v), f"{v:g}")
    c.x_label(label)
    return to_px


def scatter(points: Sequence[Point], names: Sequence[str], *, title: str, x_label: str, y_label: str,
            log_x: bool = False, plot_id: str, width: int = 560, height: int = 380) -> str:
    """Points coloured by series; x on [0, 1] or logarithmic; y on [0, 1]."""
    c = Canvas(width, height, title, bottom=66)
    y_px = _unit_axis(c, vertical=True, label=y_label)
    xs = [p.x for p in points] or [1.0]
    x_px = _log_axis(c, min(xs), max(xs), x_label) if log_x else _unit_axis(c, vertical=False, label=x_label)
    # Points that coincide are drawn once, their area growing with their count.
    stacks: dict[tuple[float, float, int], list[Point]] = {}
    for p in points:
        stacks.setdefault((round(x_px(p.x), 1), round(y_px(p.y), 1), p.series), []).append(p)
    for (cx, cy, series), same in stacks.items():
        tip = same[0].title if len(same) == 1 else f"{len(same)} bugs, e.g. {same[0].title}"
        c.add(f'<circle class="point" cx="{cx:.1f}" cy="{cy:.1f}" r="{min(3.5 * len(same) ** 0.35, 10.0):.1f}" '
              f'fill="{color(series)}" fill-opacity="0.45" stroke="{color(series)}" data-count="{len(same)}">'
              f"<title>{esc(tip)}</title></circle>")
    c.legend(names)
    return c.render(plot_id)


def whiskers(rows: Sequence[str], marks: Sequence[Whisker], names: Sequence[str], *, title: str, x_label: str,
             plot_id: str, width: int = 640) -> str:
    """One line per row label; a dot per mark at its value with its interval as a horizontal whisker."""
    step = 18
    height = 40 + 56 + step * max(len(rows), 1)
    c = Canvas(width, height, title, left=170, bottom=56)
    x_px = _unit_axis(c, vertical=False, label=x_label)
    for i, label in enumerate(rows):
        c.text(c.left - 8, c.top + step * i + step / 2 + 4, label, anchor="end")
    series = max(len(names), 1)
    for m in marks:
        y = c.top + step * m.row + step * (m.series + 1) / (series + 1)
        if m.low is not None and m.high is not None:
            c.line(x_px(m.low), y, x_px(m.high), y, stroke=color(m.series), width=1.5)
        fill = "#ffffff" if m.hollow else color(m.series)
        c.add(f'<circle class="mark" cx="{x_px(m.value):.1f}" cy="{y:.1f}" r="3.5" fill="{fill}" '
              f'stroke="{color(m.series)}" stroke-width="1.5"><title>{esc(m.title)}</title></circle>')
    c.legend(names)
    return c.render(plot_id)


def stacked(rows: Sequence[str], shares: Sequence[dict[str, float]], categories: Sequence[str], *, title: str,
            plot_id: str, width: int = 640) -> str:
    """One horizontal bar per row, split into category shares (each row sums to 1)."""
    height = 40 + 70 + 26 * max(len(rows), 1)
    c = Canvas(width, height, title, left=170, bottom=70)
    x_px = _unit_axis(c, vertical=False, label="share of counted samples")
    for i, (label, row) in enumerate(zip(rows, shares)):
        y, x = c.top + 26 * i + 4, 0.0
        c.text(c.left - 8, y + 13, label, anchor="end")
        for j, cat in enumerate(categories):
            share = row.get(cat, 0.0)
            if share <= 0:
                continue
            c.add(f'<rect class="bar" x="{x_px(x):.1f}" y="{y:.1f}" width="{x_px(x + share) - x_px(x):.1f}" '
                  f'height="18" fill="{color(j)}"><title>{esc(f"{label}: {cat} {share:.1%}")}</title></rect>')
            x += share
    c.legend(categories, y=float(height - 12))
    return c.render(plot_id)


def lines(xs: Sequence[str], series: Sequence[Sequence[float | None]], names: Sequence[str], *, title: str,
          x_label: str, y_label: str, plot_id: str, width: int = 560, height: int = 360) -> str:
    """One polyline per series over categorical x positions; y on [0, 1]; gaps where a value is n/a."""
    c = Canvas(width, height, title, bottom=66)
    y_px = _unit_axis(c, vertical=True, label=y_label)
    step = c.plot_w / max(len(xs) - 1, 1)
    for i, x in enumerate(xs):
        c.text(c.left + step * i, c.top + c.plot_h + 14, x)
    c.x_label(x_label)
    for s, values in enumerate(series):
        pts = [(c.left + step * i, y_px(v)) for i, v in enumerate(values) if v is not None]
        if len(pts) > 1:
            path = " ".join(f"{px:.1f},{py:.1f}" for px, py in pts)
            c.add(f'<polyline class="curve" points="{path}" fill="none" stroke="{color(s)}" stroke-width="2"/>')
        for px, py in pts:
            c.add(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="3" fill="{color(s)}"/>')
    c.legend(names)
    return c.render(plot_id)


def grid(rows: Sequence[str], cols: Sequence[str], cells: Sequence[Sequence[int]], *, title: str, plot_id: str,
         width: int = 560) -> str:
    """A table of counts shaded by their share of the row."""
    height = 40 + 40 + 30 * max(len(rows), 1)
    c = Canvas(width, height, title, left=170, bottom=20, top=60)
    cw = c.plot_w / max(len(cols), 1)
    for j, col in enumerate(cols):
        c.text(c.left + cw * j + cw / 2, c.top - 8, col)
    for i, (label, row) in enumerate(zip(rows, cells)):
        total = sum(row) or 1
        y = c.top + 30 * i
        c.text(c.left - 8, y + 19, label, anchor="end")
        for j, count in enumerate(row):
            shade = 1 - 0.7 * count / total
            fill = f"rgb({int(255 * shade)},{int(255 * shade)},255)"
            c.add(f'<rect class="cell" x="{c.left + cw * j:.1f}" y="{y:.1f}" width="{cw - 2:.1f}" height="26" '
                  f'fill="{fill}"/>')
            c.text(c.left + cw * j + cw / 2, y + 18, count, size=12)
    return c.render(plot_id)


@dataclass(frozen=True, slots=True)
class Plot:
    id: str
    title: str
    svg: str
    caption: str


@dataclass(frozen=True, slots=True)
class Missing:
    title: str
    reason: str


def _fixers(report: Report) -> list[str]:
    return [r.group["fixer"] for r in report.tables.fixers]


def _rho_text(report: Report, x: str) -> str:
    return "; ".join(f"{c.fixer}: rho {num(c.rho)} (p {pval(c.p)}, {c.n} bugs)" if c.rho is not None
                     else f"{c.fixer}: rho n/a ({c.note})" for c in report.correlations if c.x == x)


def metric_plot(report: Report, metric: str, k: int) -> Plot | Missing:
    """pass@k or correct@k per suite x type, one mark per fixer, with its bootstrap interval."""
    title = f"{metric}@{k} by suite x bug type"
    fixers = _fixers(report)
    names = [f"{g.group['domain']}/{g.group['suite']} {g.group['bug_type']}" for g in report.tables.groups]
    labels = sorted(set(names))
    marks = []
    for g, label in zip(report.tables.groups, names):
        e = (g.pass_at if metric == "pass" else g.correct_at)[str(k)]
        if e.value is None:
            continue
        marks.append(Whisker(labels.index(label), e.value, e.low, e.high, fixers.index(g.group["fixer"]),
                             metric == "correct", f"{g.group['fixer']} {label}: {metric}@{k} {num(e.value)} "
                             f"[{num(e.low)}, {num(e.high)}], {g.bugs} bugs"))
    if not marks:
        why = "no strong-oracle verdicts" if metric == "correct" else f"every group has a bug with n < {k}"
        return Missing(title, why)
    svg = whiskers(labels, marks, fixers, title=title, x_label=f"{metric}@{k} (mean over bugs, 95 % interval)",
                   plot_id=f"{metric}-at-{k}")
    return Plot(f"{metric}-at-{k}", title, svg, "dots: mean over bugs; whiskers: 95 % bootstrap interval over bugs"
                + ("; hollow: correct@k (passes the strong oracle too)" if metric == "correct" else ""))


def scatter_plot(report: Report, x: str) -> Plot | Missing:
    title = "solution multiplicity vs pass@1" if x == "multiplicity" else "target LOC vs pass@1"
    fixers = _fixers(report)
    points = [Point(xv, b.c / b.n, fixers.index(b.fixer),
                    f"{b.fixer} {b.case}::{b.bug}: {x} {xv:g}, pass@1 {b.c}/{b.n}") for b in report.bugs
              if b.n and (xv := b.multiplicity if x == "multiplicity" else float(b.loc)) is not None]
    if not points:
        return Missing(title, "no bug with a counted sample")
    svg = scatter(points, fixers, title=title, x_label="solution multiplicity (distinct candidates / n)"
                  if x == "multiplicity" else "non-blank lines of the target file (log scale)",
                  y_label="pass@1 of the bug", log_x=x == "loc", plot_id=f"{x}-scatter")
    return Plot(f"{x}-scatter", title, svg, "one point per bug and fixer; Spearman " + _rho_text(report, x))


def categories_plot(report: Report) -> Plot | Missing:
    title = "failure categories per fixer"
    rows = [r for r in report.tables.fixers if r.samples]
    if not rows:
        return Missing(title, "no counted sample")
    cats = sorted({c for r in rows for c in r.categories})
    shares = [{c: v / r.samples for c, v in r.categories.items()} for r in rows]
    svg = stacked([r.group["fixer"] for r in rows], shares, cats, title=title, plot_id="categories")
    return Plot("categories", title, svg, "share of passed + failed samples per category (errors and skips apart)")


def cuda_plot(summary: dict[str, Any]) -> Plot | Missing:
    title = "cuda: pass rate vs perf gate p"
    rows = [r for r in summary.get("cuda", []) if r.get("pass_vs_p")]
    if not rows:
        return Missing(title, "no timed cuda samples in these runs")
    ps = list(rows[0]["pass_vs_p"])
    svg = lines(ps, [[r["pass_vs_p"].get(p) for p in ps] for r in rows], [r["fixer"] for r in rows], title=title,
                x_label="perf gate p (speedup = reference_ms / candidate_ms >= p)", y_label="share of samples passing",
                plot_id="cuda-perf")
    return Plot("cuda-perf", title, svg, "a sample passes at p when it is correct and its speedup is at least p")


def iterative_plots(summary: dict[str, Any]) -> list[Plot | Missing]:
    rows = summary.get("iterative", [])
    if not rows:
        why = "no iterative trajectories in these runs"
        return [Missing("iterative: pass within k attempts", why), Missing("iterative: stop reasons", why)]
    ks = sorted({int(k) for r in rows for k in r["pass_within"]})
    xs = ["1", *[str(k) for k in ks if k != 1]]
    series = [[r["pass@1"] if x == "1" else r["pass_within"].get(x) for x in xs] for r in rows]
    names = [r["fixer"] for r in rows]
    curve = lines(xs, series, names, title="iterative: pass within k attempts", x_label="attempts k",
                  y_label="share of trajectories solved", plot_id="iterative-curve")
    reasons = sorted({s for r in rows for s in r["stop_reasons"]})
    shares = [{s: n / max(r["trajectories"], 1) for s, n in r["stop_reasons"].items()} for r in rows]
    stops = stacked(names, shares, reasons, title="iterative: stop reasons", plot_id="iterative-stops")
    return [Plot("iterative-curve", "iterative: pass within k attempts", curve, "debug curve per fixer"),
            Plot("iterative-stops", "iterative: stop reasons", stops, "why each trajectory ended")]


def tiers_plot(summary: dict[str, Any]) -> Plot | Missing:
    title = "rtl: Tier S (simulation) x Tier F (equivalence)"
    tiers = (summary.get("rtl") or {}).get("tiers") or []
    if not tiers:
        return Missing(title, "no rtl samples with a Tier F verdict in these runs")
    cols = ("both_pass", "s_pass_f_fail", "s_fail_f_pass", "both_fail")
    svg = grid([t["fixer"] for t in tiers], ["S pass F pass", "S pass F fail", "S fail F pass", "S fail F fail"],
               [[int(t[c]) for c in cols] for t in tiers], title=title, plot_id="rtl-tiers")
    return Plot("rtl-tiers", title, svg, "counted rtl samples; S pass F fail are plausible but not equivalent")


def plots(report: Report) -> tuple[list[Plot], list[Missing]]:
    """Every plot the report draws, and those it cannot draw with the reason."""
    made: list[Plot | Missing] = []
    for k in report.k:
        made += [metric_plot(report, "pass", k), metric_plot(report, "correct", k)]
    made += [scatter_plot(report, "multiplicity"), scatter_plot(report, "loc"), categories_plot(report),
             cuda_plot(report.summary), *iterative_plots(report.summary), tiers_plot(report.summary)]
    return [p for p in made if isinstance(p, Plot)], [m for m in made if isinstance(m, Missing)]


# Flags for a Chromium that touches nothing outside its own fresh profile and asks the network nothing.
CHROMIUM_FLAGS = ("--headless", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--hide-scrollbars")
CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "chrome")
_SIZE = re.compile(r'<svg[^>]*\swidth="(\d+)"[^>]*\sheight="(\d+)"')


class RenderError(Exception):
    """Chromium is missing or failed to write the picture."""


def find_chromium() -> str | None:
    """$HWREPAIR_CHROMIUM, else the first Chromium on PATH."""
    named = os.environ.get("HWREPAIR_CHROMIUM")
    if named:
        return shutil.which(named) or (named if Path(named).is_file() else None)
    return next((found for name in CANDIDATES if (found := shutil.which(name))), None)


def chromium_argv(binary: str, profile: Path) -> list[str]:
    """The command line prefix: the fixed flags, a fresh profile, and no sandbox only where root requires it."""
    root = ["--no-sandbox"] if os.geteuid() == 0 else []
    return [binary, *CHROMIUM_FLAGS, *root, f"--user-data-dir={profile}"]


class _Pipe:
    """DevTools protocol messages over Chromium's fds 3 (commands in) and 4 (replies out), NUL-terminated."""

    def __init__(self, argv: list[str], deadline: float) -> None:
        self.deadline = deadline
        cmd_r, self.cmd_w = os.pipe()
        self.out_r, out_w = os.pipe()

        def wire() -> None:  # in the child: the protocol's fixed descriptors
            os.dup2(cmd_r, 3)
            os.dup2(out_w, 4)

        # 3 and 4 are kept open too: the child closes every descriptor not listed after `wire` has run.
        self.proc = subprocess.Popen([*argv, "--remote-debugging-pipe", "about:blank"], stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                     pass_fds=(3, 4, cmd_r, out_w), preexec_fn=wire, start_new_session=True)
        os.close(cmd_r)
        os.close(out_w)
        self.buffer, self.next_id = b"", 0

    def call(self, method: str, session: str | None = None, **params: Any) -> dict[str, Any]:
        self.next_id += 1
        message: dict[str, Any] = {"id": self.next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        os.write(self.cmd_w, json.dumps(message).encode() + b"\0")
        while (reply := self._read()).get("id") != self.next_id:
            pass
        if "error" in reply:
            raise RenderError(f"chromium: {method}: {reply['error'].get('message')}")
        return cast("dict[str, Any]", reply.get("result", {}))

    def wait_event(self, method: str) -> None:
        while self._read().get("method") != method:
            pass

    def _read(self) -> dict[str, Any]:
        while b"\0" not in self.buffer:
            left = self.deadline - time.monotonic()
            if left <= 0 or not select.select([self.out_r], [], [], left)[0]:
                raise RenderError("chromium did not answer in time")
            chunk = os.read(self.out_r, 1 << 20)
            if not chunk:
                raise RenderError("chromium closed its pipe")
            self.buffer += chunk
        raw, self.buffer = self.buffer.split(b"\0", 1)
        return cast("dict[str, Any]", json.loads(raw))

    def close(self) -> None:
        for fd in (self.cmd_w, self.out_r):
            os.close(fd)
        if self.proc.poll() is None:
            kill_group(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                kill_group(self.proc.pid)
                self.proc.wait()


def svg_to_png(svg_file: Path, png_file: Path, *, scale: int = 2, timeout: float = 60.0) -> None:
    """Capture one SVG file at exactly its own size (times `scale`) into `png_file`."""
    binary = find_chromium()
    if binary is None:
        raise RenderError("needs Chromium: install it (apt-get install chromium) or set HWREPAIR_CHROMIUM")
    size = _SIZE.search(svg_file.read_text(encoding="utf-8"))
    if not size:
        raise RenderError("the SVG has no width and height")
    width, height = int(size.group(1)), int(size.group(2))
    with tempfile.TemporaryDirectory(prefix="hwrepair-chromium-") as profile:
        pipe = _Pipe(chromium_argv(binary, Path(profile)), time.monotonic() + timeout)
        try:
            target = pipe.call("Target.createTarget", url="about:blank")["targetId"]
            session = pipe.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
            pipe.call("Page.enable", session)
            pipe.call("Emulation.setDeviceMetricsOverride", session, width=width, height=height,
                      deviceScaleFactor=scale, mobile=False)
            pipe.call("Page.navigate", session, url=svg_file.resolve().as_uri())
            pipe.wait_event("Page.loadEventFired")
            shot = pipe.call("Page.captureScreenshot", session, format="png", captureBeyondViewport=True,
                             clip={"x": 0, "y": 0, "width": width, "height": height, "scale": 1})
        finally:
            pipe.close()
    png_file.write_bytes(base64.b64decode(shot["data"]))


def write_plots(report: Report, folder: Path, *, png: bool) -> list[Path]:
    """Every plot as a standalone DIR/<plot>.svg (`--plots DIR`), and a .png beside it with `png`."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for p in plots(report)[0]:
        path = folder / f"{p.id}.svg"
        path.write_text('<?xml version="1.0" encoding="UTF-8"?>\n' + p.svg + "\n", encoding="utf-8")
        written.append(path)
        if png:
            try:
                svg_to_png(path, path.with_suffix(".png"))
            except RenderError as exc:
                raise SettingsError(f"--png: {exc}") from None
            written.append(path.with_suffix(".png"))
    return written
