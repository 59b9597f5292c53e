"""Text, markdown, LaTeX, CSV and JSON renderings of a report; every table is first a plain `Section`."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .model import TABLE_KEYS, Card, Estimate, Report, TableRow
from .terminal import render as render_summary
from .terminal import table


@dataclass(frozen=True, slots=True)
class Section:
    title: str
    headers: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    note: str = ""


def num(value: float | None, digits: int = 3) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def pval(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3g}"


def est(e: Estimate) -> str:
    """`0.600 [0.300, 0.900]`, or the value alone where no interval exists."""
    if e.value is None:
        return "n/a"
    if e.low is None or e.high is None:
        return num(e.value)
    return f"{num(e.value)} [{num(e.low)}, {num(e.high)}]"


def metric_section(title: str, rows: Sequence[TableRow], keys: Sequence[str], ks: Sequence[int]) -> Section:
    """A table of pass@k and correct@k; a column no row can fill is left out, and the note says why."""
    pass_ks = [k for k in ks if any(r.pass_at[str(k)].value is not None for r in rows)] or list(ks[:1])
    correct_ks = [k for k in ks if any(r.correct_at[str(k)].value is not None for r in rows)]
    headers = (*keys, "bugs", "samples", *[f"pass@{k}" for k in pass_ks], *[f"correct@{k}" for k in correct_ks],
               "plausible", "undecided", "mult", "errors", "skips")
    left = [f"pass@{k} (no bug has {k} samples)" for k in ks if k not in pass_ks]
    if not correct_ks and rows:
        left.append("correct@k (no bug here has a strong oracle)")
    elif len(correct_ks) < len(ks):
        left += [f"correct@{k} (no bug with a strong oracle has {k} samples)" for k in ks if k not in correct_ks]
    cells = tuple((*[r.group.get(k, "") for k in keys], r.bugs, r.samples,
                   *[est(r.pass_at[str(k)]) for k in pass_ks], *[est(r.correct_at[str(k)]) for k in correct_ks],
                   r.plausible, r.undecided, num(r.multiplicity), r.errors, r.skipped) for r in rows)
    return Section(title, tuple(headers), cells,
                   "pass@k and correct@k: mean over bugs [95 % bootstrap interval]; plausible: passed the suite "
                   "oracle, failed the strong one; undecided: passed, no strong verdict (not correct); n/a: some bug "
                   "of the row has n < k, or no bug of the row has a strong oracle"
                   + (f"; left out: {', '.join(left)}" if left else ""))


def stat_sections(report: Report) -> list[Section]:
    out = [Section("Spearman rho of per-bug pass@1", ("fixer", "against", "bugs", "rho", "p", "note"),
                   tuple((c.fixer, c.x, c.n, num(c.rho), pval(c.p), c.note or "") for c in report.correlations))]
    if report.splits:
        out.append(Section("bug-class splits (Mann-Whitney U on per-bug pass@1)",
                           ("fixer", "domain", "class a", "class b", "bugs a", "bugs b", "mean a", "mean b", "U",
                            "p", "note"),
                           tuple((s.fixer, s.domain, s.a, s.b, s.n_a, s.n_b, num(s.mean_a), num(s.mean_b),
                                  num(s.u, 1), pval(s.p), s.note or "") for s in report.splits)))
    if report.paired:
        out.append(Section("fixer pairs on the same bugs (Wilcoxon signed-rank on per-bug pass@1)",
                           ("fixer a", "fixer b", "bugs", "mean a", "mean b", "a better", "b better", "ties", "W",
                            "p", "note"),
                           tuple((p.a, p.b, p.bugs, num(p.mean_a), num(p.mean_b), p.wins_a, p.wins_b, p.ties,
                                  num(p.w, 1), pval(p.p), p.note or "") for p in report.paired)))
    return out


def comparison_sections(report: Report) -> list[Section]:
    cmp = report.comparison
    if cmp is None:
        return []
    axes = tuple((axis, *[values.get(run, "") for run in cmp.runs]) for axis, values in sorted(cmp.axes.items()))
    return [
        Section("protocol axes that differ between the runs", ("axis", *cmp.runs), axes,
                "" if axes else "the runs have the same protocol settings"),
        Section(f"pass@1 per run over the bugs every run holds ({cmp.bugs} bugs in all runs)",
                ("fixer", *cmp.runs, "swing Δ"),
                tuple((s.fixer, *[num(s.scores.get(run)) for run in cmp.runs], num(s.swing)) for s in cmp.scores),
                cmp.note or "swing Δ: best minus worst score of a fixer across runs"),
        Section("ranking agreement (Kendall tau of fixer scores)", ("run a", "run b", "fixers", "tau", "p", "note"),
                tuple((r.a, r.b, r.fixers, num(r.tau), pval(r.p), r.note or "") for r in cmp.rankings)),
    ]


def sections(report: Report) -> list[Section]:
    return [
        *[metric_section("by " + " x ".join(keys).replace("_", " "), getattr(report.tables, name), keys, report.k)
          for name, keys in TABLE_KEYS.items()],
        *stat_sections(report),
        *comparison_sections(report),
    ]


def card_stack(c: Card) -> str:
    """The protocol stack on one line, for formats whose rows travel alone (CSV)."""
    fields = {"case_set": c.corpus.get("case_set"), "fixers": ",".join(f"{k}={v}" for k, v in c.fixers.items()),
              "protocol": c.protocol.split(" (")[0], "samples": c.samples.split(" (")[0],
              "K": c.iterative.get("K (iterations)"), "H": c.iterative.get("H (history)"),
              "feedback": c.iterative.get("feedback"), "input": c.input_arm, "perf_gate": c.perf_gate,
              "temperature": c.sampling.get("temperature"), "seed": c.sampling.get("seed"),
              "sandbox": c.sandbox.get("sandbox"), "hwrepair": c.versions.get("hwrepair", "-")}
    return "; ".join(f"{k}={v}" for k, v in fields.items())


def card_lines(c: Card) -> list[str]:
    """The card as `name: value` lines, shared by the text, markdown and latex renderings."""
    return [
        f"run: {c.run} ({c.path}), {c.started} .. {c.ended}",
        "fixers: " + ", ".join(f"{k} = {v}" for k, v in c.fixers.items()),
        f"protocol: {c.protocol}",
        f"samples: {c.samples}",
        "sampling: " + ", ".join(f"{k} {v}" for k, v in c.sampling.items()),
        "iterative: " + ", ".join(f"{k} {v}" for k, v in c.iterative.items()),
        f"input arm: {c.input_arm}; perf gate p: {c.perf_gate}",
        "corpus: " + ", ".join(f"{k} {v}" for k, v in c.corpus.items()),
        "sandbox: " + ", ".join(f"{k} {v}" for k, v in c.sandbox.items()),
        "versions: " + ("; ".join(f"{k} {v}" for k, v in c.versions.items()) or "-"),
        *[f"note: {n}" for n in c.notes],
    ]


def render_text(report: Report) -> str:
    """The scoreboard's tables, then notes, the evaluation cards and the statistics."""
    out = render_summary(report.summary)
    out += ["", *[f"note: {n}" for n in report.notes]]
    for c in report.cards:
        out += ["", "evaluation card", *[f"  {line}" for line in card_lines(c)]]
    for s in sections(report):
        out += ["", s.title + ":"]
        out += table(s.headers, s.rows) if s.rows else ["  (none)"]
        if s.note:
            out.append(f"  {s.note}")
    return "\n".join(out) + "\n"


def _md_cell(value: Any) -> str:
    return str(value).replace("|", "\\|").replace("\n", " ")


def _md_table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[str]:
    out = ["| " + " | ".join(_md_cell(h) for h in headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    return out + ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in rows]


def render_markdown(report: Report) -> str:
    out = ["# hwrepair report", ""]
    for c in report.cards:
        out += [f"## Evaluation card: {_md_cell(c.run)}", ""]
        out += _md_table(("item", "value"), [line.split(": ", 1) for line in card_lines(c)]) + [""]
    out += ["## Notes", "", *[f"* {_md_cell(n)}" for n in report.notes], ""]
    for s in sections(report):
        out += [f"## {s.title}", ""]
        out += _md_table(s.headers, s.rows) if s.rows else ["(none)"]
        out += ["", f"*{_md_cell(s.note)}*", ""] if s.note else [""]
    return "\n".join(out)


_TEX = {"&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}",
        "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "\\": r"\textbackslash{}", "<": r"\textless{}",
        ">": r"\textgreater{}", "|": r"\textbar{}", "Δ": r"$\Delta$", "ρ": r"$\rho$", "τ": r"$\tau$",
        "≥": r"$\geq$", "≤": r"$\leq$", "×": r"$\times$", "±": r"$\pm$", "·": r"$\cdot$", "→": r"$\rightarrow$",
        "—": "---", "–": "--", "…": r"\ldots{}", "≈": r"$\approx$", "µ": r"$\mu$"}
_TEX_RE = re.compile("|".join(re.escape(k) for k in _TEX) + r"|[^\x00-\x7f]")
_NUMERIC = re.compile(r"-?\d+(\.\d+)?( \[-?\d+(\.\d+)?, -?\d+(\.\d+)?\])?|n/a|")


def tex(value: Any) -> str:
    """Text that pdflatex sets as written: specials escaped, known symbols in math mode, other non-ASCII as ?."""
    return _TEX_RE.sub(lambda m: _TEX.get(m.group(0), "?"), str(value))


def _breakable(value: Any) -> str:
    """tex() with break points after path separators and underscores, for wrapped columns."""
    return tex(value).replace("/", r"/\allowbreak{}").replace(r"\_", r"\_\allowbreak{}")


def _label(title: str, seen: set[str]) -> str:
    """A label made of the title, unique in the document."""
    base = "tab:hwrepair-" + (re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:60] or "table")
    label, n = base, 1
    while label in seen:
        n += 1
        label = f"{base}-{n}"
    seen.add(label)
    return label


def _tex_table(title: str, headers: Sequence[str], rows: Sequence[Sequence[Any]], labels: set[str], note: str = "",
               spec: str = "") -> list[str]:
    """A booktabs table: numeric columns right-aligned, a label, shrunk to the text width when wider."""
    if not spec:
        spec = "".join("r" if rows and all(isinstance(row[i], (int, float)) or _NUMERIC.fullmatch(str(row[i]))
                                          for row in rows) else "l" for i in range(len(headers)))
    cell = _breakable if "p{" in spec else tex  # a wrapped column may break a long path or name
    tabular = [r"\begin{tabular}{" + spec + "}", r"\toprule", " & ".join(tex(h) for h in headers) + r" \\",
               r"\midrule", *[" & ".join(cell(c) for c in row) + r" \\" for row in rows], r"\bottomrule",
               r"\end{tabular}"]
    if "p{" not in spec:  # shrunk to the text width where wider, never enlarged
        tabular = [r"\resizebox{\ifdim\width>\linewidth\linewidth\else\width\fi}{!}{%", *tabular, "}"]
    out = [r"\begin{table}[ht]", r"\centering\small", rf"\caption{{{tex(title)}}}",
           rf"\label{{{_label(title, labels)}}}", *tabular]
    if note:
        out.append(rf"\par\footnotesize {tex(note)}")
    return [*out, r"\end{table}", ""]


def render_latex(report: Report) -> str:
    """booktabs tables, one per section, ready to \\input into a paper."""
    out = [r"% generated by hwrepair report --format latex; needs \usepackage{booktabs} and \usepackage{graphicx}",
           ""]
    labels: set[str] = set()
    for c in report.cards:  # long values wrap in their column
        out += _tex_table(f"Evaluation card: {c.run}", ("item", "value"),
                          [line.split(": ", 1) for line in card_lines(c)], labels, spec=r"lp{0.7\linewidth}")
    for s in sections(report):
        out += _tex_table(s.title, s.headers, s.rows, labels, s.note)
    return "\n".join(out)


def render_csv(report: Report) -> str:
    """One row per bug x fixer; empty cells are n/a; each row carries the protocol stack of its runs."""
    ks = report.k
    cats = sorted({c for b in report.bugs for c in b.categories})
    stacks = {Path(c.path).name: card_stack(c) for c in report.cards}
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    plain = ("fixer", "domain", "suite", "case", "bug", "bug_type", "bug_class", "loc", "n", "c", "correct",
             "plausible", "undecided", "strong_n", "errors", "skipped")  # BugRow fields, each its own column
    writer.writerow([*plain, *[f"pass@{k}" for k in ks], *[f"correct@{k}" for k in ks], "multiplicity",
                     "underconstrained", *[f"category:{c}" for c in cats], "runs", "protocol_stack"])
    for b in report.bugs:  # csv writes None as ""
        writer.writerow([*[getattr(b, name) for name in plain], *[b.pass_at[str(k)] for k in ks],
                         *[b.correct_at[str(k)] for k in ks], b.multiplicity, int(b.underconstrained),
                         *[b.categories.get(c, 0) for c in cats], ";".join(b.runs),
                         " | ".join(stacks.get(run, f"{run}: no run.json") for run in b.runs)])
    return buf.getvalue()


def render_json(report: Report) -> str:
    return json.dumps(report.model_dump(mode="json"), indent=2, sort_keys=True) + "\n"
