"""Plain-text rendering of a summary: the tables a user reads at the end of a run."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from ..repo.summary import render_repo

LABEL_WIDTH = 24
# Every column a summary table can show, as the legend explains it.
COLUMNS = {
    "bugs": "bugs with a sample in the row",
    "samples": "samples counted in pass@k (passed + rejected); errors and skips are not",
    "pass@k": "chance that one of k samples passes (unbiased, from n samples per bug), mean over bugs; "
              "n/a: a bug has < k",
    "correct@k": "as pass@k, a sample counting only when the strong oracle passes it too",
    "plausible": "samples that pass the suite oracle and fail the strong one",
    "undecided": "samples that pass with no strong verdict (n/a in correct@k: the case has no strong oracle)",
    "mult": "solution multiplicity: distinct candidates / samples (whitespace aside), mean over bugs",
    "under": "underconstrained bugs: multiplicity >= 0.8 and no sample passed",
    "errors": "harness errors (sandbox, toolchain, API outage): not counted; --hwrepair-retry-errors reruns them",
    "skips": "samples not run here (no GPU, tool missing, cost limit): not counted",
    "failures": "the leading failure categories, share of the row's samples",
}
ITERATIVE_MARK = "*"


def fmt(value: Any) -> str:
    if value is None:
        return "n/a"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]], text_columns: int = 4) -> list[str]:
    cells = [[fmt(c) for c in row] for row in rows]
    widths = [max(len(h), *(len(r[i]) for r in cells)) if cells else len(h) for i, h in enumerate(headers)]
    line = "  ".join(h.ljust(w) for h, w in zip(headers, widths))
    out = [line.rstrip(), "  ".join("-" * w for w in widths)]
    out += ["  ".join(c.rjust(w) if i >= text_columns else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths)))
            .rstrip() for r in cells]
    return out


def top_categories(categories: dict[str, float], n: int = 3) -> str:
    ranked = sorted(((v or 0.0, c) for c, v in categories.items() if c != "pass"), reverse=True)[:n]
    return " ".join(f"{c}:{v:.0%}" for v, c in ranked if v) or "-"


def shown_fixer(name: str, labels: Mapping[str, str]) -> str:
    """The label the user gave the fixer; else its name (`openai:gpt-4.1`), or its label when the name is long
    (a whole `cmd:` line); cut to a table's width."""
    label = labels.get(name, name)
    given = label not in (name, name.split(":")[0])
    shown = label if given or len(name) > LABEL_WIDTH else name
    return shown if len(shown) <= LABEL_WIDTH else shown[:LABEL_WIDTH - 3] + "..."


def render(summary: dict[str, Any], *, labels: Mapping[str, str] | None = None, breakdown: bool = True) -> list[str]:
    """The totals and their legend, then the breakdown (when asked) and the extra tables that apply."""
    names = labels or {}
    ks = measured_ks(summary)
    headers = ["fixer", "domain", "bugs", "samples", *score_headers(ks), "mult", "under", "errors", "skips"]
    iterative = summary.get("iterative_domains", {})
    rows = [_row(d, iterative.get(d["domain"], []), names, ks) for d in summary["domains"]]
    out = table(headers, [row for row, _ in rows], text_columns=2) + legend(headers, any(star for _, star in rows))
    if dropped := [k for k in summary["k"] if k not in ks]:
        shown = ", ".join(f"pass@{k}, correct@{k}" for k in dropped)
        out.append(f"  left out: {shown}: no fixer has {min(dropped)} samples of a bug (--hwrepair-samples)")
    if breakdown:
        out += ["", "by suite x bug type:", *_breakdown(summary, names, ks), *_rtl_classes(summary, names, ks)]
    out += _rtl_tiers(summary, names) + render_repo(summary, table)
    out += _iterative(summary, names) + _cuda(summary, names) + _costs(summary, names)
    return out


def measured_ks(summary: dict[str, Any]) -> list[int]:
    """The k whose pass@k some row of the totals has (k above every fixer's samples per bug is left out)."""
    rows = summary["domains"]
    iterative = [it for its in summary.get("iterative_domains", {}).values() for it in its]
    return [k for k in summary["k"] if not rows or any(d["pass_at"].get(str(k)) is not None for d in rows)
            or any(it["pass_within"].get(str(k)) is not None for it in iterative)]


def _row(row: dict[str, Any], iterative: Sequence[dict[str, Any]], names: Mapping[str, str], ks: Sequence[int],
         keys: Sequence[str] = ()) -> tuple[list[Any], bool]:
    """The cells of a summary row (its `keys` after fixer and domain), and whether it is an iterative row: its
    pass@k is then pass within k attempts (its pass@1: the first attempt)."""
    it = next((it for it in iterative if it["fixer"] == row["fixer"] and it["trajectories"] == row["samples"]
               and row["samples"]), None)
    passes = [row["pass_at"][str(k)] for k in ks] if it is None else [it["pass_within"].get(str(k)) for k in ks]
    correct = row.get("correct_at") or {}  # rows of older runs lack the strong-oracle counts
    cells = [shown_fixer(row["fixer"], names), row["domain"] + (ITERATIVE_MARK if it else ""), *[row[k] for k in keys],
             row["bugs"], row["samples"], *passes, *[correct.get(str(k)) for k in ks], row.get("plausible", 0),
             row.get("undecided", 0), row["multiplicity"], row["underconstrained"], row["errors"], row["skipped"]]
    return cells, it is not None


def score_headers(ks: Sequence[int]) -> list[str]:
    return [*[f"pass@{k}" for k in ks], *[f"correct@{k}" for k in ks], "plausible", "undecided"]


def legend(headers: Sequence[str], iterative: bool) -> list[str]:
    """One line per column shown (pass@k once for every k)."""
    shown = sorted({"pass@k" if h.startswith("pass@") else "correct@k" if h.startswith("correct@") else h
                    for h in headers} & set(COLUMNS), key=list(COLUMNS).index)
    out = ["", "legend:"] + [f"  {name}: {COLUMNS[name]}" for name in shown]
    if iterative:
        out.append(f"  {ITERATIVE_MARK} iterative protocol: one trajectory per bug; pass@k = passed within k attempts "
                   "(pass@1: on the first attempt)")
    return out


def _breakdown(summary: dict[str, Any], names: Mapping[str, str], ks: Sequence[int]) -> list[str]:
    headers = ["fixer", "domain", "suite", "type", "bugs", "samples", *score_headers(ks), "mult", "under", "errors",
               "skips", "failures"]
    iterative = summary.get("iterative_groups", {})
    rows = [[*_row(g, iterative.get(f"{g['domain']}/{g['suite']}/{g['bug_type']}", []), names, ks,
                   ("suite", "bug_type"))[0], top_categories(g["categories"])] for g in summary["groups"]]
    return table(headers, rows)


def _rtl_classes(summary: dict[str, Any], names: Mapping[str, str], ks: Sequence[int]) -> list[str]:
    rtl = summary.get("rtl")
    if not rtl:
        return []
    return ["", "rtl by bug class:"] + table(
        ["fixer", "class", "bugs", "samples", *[f"pass@{k}" for k in ks]],
        [[shown_fixer(c["fixer"], names), c["bug_class"], c["bugs"], c["samples"],
          *[c["pass_at"][str(k)] for k in ks]] for c in rtl["classes"]], text_columns=2)


def _rtl_tiers(summary: dict[str, Any], names: Mapping[str, str]) -> list[str]:
    tiers = (summary.get("rtl") or {}).get("tiers") or []
    if not tiers:
        return []
    return ["", "rtl samples by Tier S (simulation) x Tier F (equivalence):"] + [
        f"  {shown_fixer(t['fixer'], names)}: both pass {t['both_pass']}, S pass F fail {t['s_pass_f_fail']}, "
        f"S fail F pass {t['s_fail_f_pass']}, both fail {t['both_fail']}" for t in tiers]


def _iterative(summary: dict[str, Any], names: Mapping[str, str]) -> list[str]:
    out: list[str] = []
    for row in summary.get("iterative", []):
        out += ["", f"iterative [{shown_fixer(row['fixer'], names)}]: {row['trajectories']} trajectories; "
                "debug_rate (first attempt failed, solved within k): "
                + ", ".join(f"@{k} {fmt(v)}" for k, v in row["debug_rate"].items()),
                "  fix_rate by first category: " + (", ".join(f"{c} {fmt(v)}" for c, v in row["fix_rate"].items())
                                                    or "-")
                + "; stop reasons: " + ", ".join(f"{s} {n}" for s, n in row["stop_reasons"].items())]
    return out


def _cuda(summary: dict[str, Any], names: Mapping[str, str]) -> list[str]:
    out: list[str] = []
    for row in summary.get("cuda", []):
        if row["timed"]:
            out += ["", f"cuda [{shown_fixer(row['fixer'], names)}]: degeneration rate "
                    f"{fmt(row['degeneration_rate'])}; pass vs perf gate p: "
                    + ", ".join(f"p={p} {fmt(v)}" for p, v in row["pass_vs_p"].items())]
    build: dict[str, Counter[str]] = defaultdict(Counter)  # each fixer's build-stage counts over its suites
    for r in summary.get("cuda_build", []):
        build[r["fixer"]].update({name: r[name] for name in ("judged", "built", "compile_fail", "runtime_skipped",
                                                             "not_judged")})
    if any(t["runtime_skipped"] or t["not_judged"] for t in build.values()):
        out += ["", "cuda build stage (no CUDA device here: the runtime stage was not judged; per suite in "
                "summary.json):"] + table(
            ["fixer", "judged", "built", "compile_fail", "build rate", "runtime skipped", "not run"],
            [[shown_fixer(fixer, names), t["judged"], t["built"], t["compile_fail"],
              round(t["built"] / t["judged"], 4) if t["judged"] else None, t["runtime_skipped"], t["not_judged"]]
             for fixer, t in build.items()], text_columns=1)
        out += ["  judged: candidates whose build ran (built + compile_fail); build rate: built / judged; runtime "
                "skipped: built, not run here; not run: starts that build already (logic, memory, timeout, perf "
                "buckets), skipped before the fixer was called"]
    return out


def _costs(summary: dict[str, Any], names: Mapping[str, str]) -> list[str]:
    rows = [c for c in summary.get("costs", []) if c["cost_usd"] or c["tokens"]["input"]]
    spent = "; ".join(f"{shown_fixer(c['fixer'], names)} ${c['cost_usd']:.4f} ({c['tokens']['input']} in, "
                      f"{c['tokens']['output']} out, {c['cached']} cached)" for c in rows)
    out = ["", f"cost: {spent}"] if rows else []
    if summary.get("retries"):
        out.append("api retries: " + ", ".join(f"{k} {v}" for k, v in summary["retries"].items()))
    return out
