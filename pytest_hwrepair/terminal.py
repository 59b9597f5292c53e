"""Plain-text rendering of a summary: the tables a user reads at the end of a run."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def fmt(value: Any) -> str:
    if value is None:
        return "n/a"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[str]:
    cells = [[fmt(c) for c in row] for row in rows]
    widths = [max(len(h), *(len(r[i]) for r in cells)) if cells else len(h) for i, h in enumerate(headers)]
    line = "  ".join(h.ljust(w) for h, w in zip(headers, widths))
    out = [line, "  ".join("-" * w for w in widths)]
    out += ["  ".join(c.rjust(w) if i >= 4 else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths)))
            for r in cells]
    return out


def top_categories(categories: dict[str, float], n: int = 3) -> str:
    ranked = sorted(((v or 0.0, c) for c, v in categories.items() if c != "pass"), reverse=True)[:n]
    return " ".join(f"{c}:{v:.0%}" for v, c in ranked if v) or "-"


def render(summary: dict[str, Any]) -> list[str]:
    """The main table (fixer x domain x suite x bug type) plus the extra tables that apply."""
    ks = summary["k"]
    scores = [*[f"pass@{k}" for k in ks], *[f"correct@{k}" for k in ks], "plausible", "undecided"]
    headers = ["fixer", "domain", "suite", "type", "bugs", "samples", *scores, "mult", "under", "errors", "skips",
               "failures"]
    rows = [[g["fixer"], g["domain"], g["suite"], g["bug_type"], g["bugs"], g["samples"], *_scores(g, ks),
             g["multiplicity"], g["underconstrained"], g["errors"], g["skipped"], top_categories(g["categories"])]
            for g in summary["groups"]]
    out = table(headers, rows)
    out += [""] + table(["fixer", "domain", "", "", "bugs", "samples", *scores, "mult", "under", "errors", "skips"],
                        [[d["fixer"], d["domain"], "", "", d["bugs"], d["samples"], *_scores(d, ks),
                          d["multiplicity"], d["underconstrained"], d["errors"], d["skipped"]]
                         for d in summary["domains"]])
    out += ["correct@k: a sample counts only when it passes the strong oracle too; plausible: passes the suite "
            "oracle, fails the strong one; undecided: passes, no strong verdict (n/a: no strong oracle)"]
    out += _rtl(summary, ks) + _iterative(summary) + _cuda(summary) + _costs(summary)
    return out


def _scores(row: dict[str, Any], ks: Sequence[int]) -> list[Any]:
    """pass@k, correct@k, plausible and undecided counts of a summary row (rows of older runs lack some)."""
    correct = row.get("correct_at") or {}
    return [*[row["pass_at"][str(k)] for k in ks], *[correct.get(str(k)) for k in ks], row.get("plausible", 0),
            row.get("undecided", 0)]


def _rtl(summary: dict[str, Any], ks: Sequence[int]) -> list[str]:
    rtl = summary.get("rtl")
    if not rtl:
        return []
    out = ["", "rtl (each case declares its simulation contract: clock, reset, first compared cycle, cycles x seeds; "
           "X rule: a golden X matches anything, a candidate X where the golden bit is defined is a mismatch)",
           "rtl by bug class:"] + table(
        ["fixer", "class", "", "", "bugs", "samples", *[f"pass@{k}" for k in ks]],
        [[c["fixer"], c["bug_class"], "", "", c["bugs"], c["samples"], *[c["pass_at"][str(k)] for k in ks]]
         for c in rtl["classes"]])
    if rtl["tiers"]:
        out += ["", "rtl Tier S (simulation) x Tier F (equivalence):"] + table(
            ["fixer", "", "", "", "both pass", "S pass F fail", "S fail F pass", "both fail"],
            [[t["fixer"], "", "", "", t["both_pass"], t["s_pass_f_fail"], t["s_fail_f_pass"], t["both_fail"]]
             for t in rtl["tiers"]])
    return out


def _iterative(summary: dict[str, Any]) -> list[str]:
    out: list[str] = []
    for row in summary.get("iterative", []):
        out += ["", f"iterative [{row['fixer']}]: {row['trajectories']} trajectories, pass@1 {fmt(row['pass@1'])}, "
                + ", ".join(f"pass within {k}: {fmt(v)}" for k, v in row["pass_within"].items()),
                "  debug_rate: " + ", ".join(f"@{k} {fmt(v)}" for k, v in row["debug_rate"].items())
                + "; fix_rate: " + (", ".join(f"{c} {fmt(v)}" for c, v in row["fix_rate"].items()) or "-"),
                "  stop reasons: " + ", ".join(f"{s} {n}" for s, n in row["stop_reasons"].items())]
    return out


def _cuda(summary: dict[str, Any]) -> list[str]:
    out: list[str] = []
    for row in summary.get("cuda", []):
        if row["timed"]:
            out += ["", f"cuda [{row['fixer']}]: degeneration rate {fmt(row['degeneration_rate'])}; "
                    "pass vs perf gate p: "
                    + ", ".join(f"p={p} {fmt(v)}" for p, v in row["pass_vs_p"].items())]
    return out


def _costs(summary: dict[str, Any]) -> list[str]:
    rows = [c for c in summary.get("costs", []) if c["cost_usd"] or c["tokens"]["input"]]
    spent = "; ".join(f"{c['fixer']} ${c['cost_usd']:.4f} ({c['tokens']['input']} in, "
                      f"{c['tokens']['output']} out, {c['cached']} cached)" for c in rows)
    out = ["", f"cost: {spent}"] if rows else []
    if summary.get("retries"):
        out.append("api retries: " + ", ".join(f"{k} {v}" for k, v in summary["retries"].items()))
    return out
