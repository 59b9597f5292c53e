"""Small SVG charts written as text: no plotting library, no script, every label escaped.

Each chart is a standalone `<svg>` element that works inline in the HTML report and as a file.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape

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
                  'height="18" '
                  f'fill="{color(j)}"><title>{esc(f"{label}: {cat} {share:.1%}")}</title></rect>')
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


__all__ = ["PALETTE", "Canvas", "Point", "Whisker", "color", "esc", "grid", "lines", "scatter", "stacked", "whiskers"]
