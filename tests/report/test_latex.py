"""The LaTeX report pastes into a paper: it compiles in the standard article class with booktabs (where a TeX
engine is installed) and always passes a structural check: balanced environments and braces, one label per
table, the column count of every row, numbers right-aligned, ASCII only, every special character escaped."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

import pytest_hwrepair.report.build  # noqa: F401  (numpy before any pytester run; see test_browser)
from pytest_hwrepair.cli import main
from pytest_hwrepair.report.formats import tex

from ..report_helpers import bug_samples, five_bugs, plant

HOSTILE = "b_&%$#~^\\{x}<y>|≥ρ×é"  # a fixer label with every LaTeX special and some non-ASCII


def two_fixer_latex(tmp_path: Path) -> str:
    """A two-fixer report whose run directory has a long path (it is printed in the evaluation card)."""
    tmp_path = tmp_path / ("a_rather_long_directory_name_" * 4).rstrip("_") / "nested_results_of_runs"
    records = five_bugs()
    for bug, spec in (("OOB-01", "Pg Fa Fa Fa Fa"), ("SHFT-01", "Pg Pg Fa Fa Fa"), ("INIT-01", "Fa Fa Fa Fa Fa"),
                      ("USE-01", "Pg Pg Pg Fa Fa"), ("BUF-01", "Fa Fa Fa Fa Fa")):
        records += bug_samples(HOSTILE, bug, spec)
    run = plant(tmp_path / "run_with_underscores", records)
    out = tmp_path / "report.tex"
    assert main(["report", str(run), "--format", "latex", "--out", str(out), "--bootstrap", "200"]) == 0
    return out.read_text(encoding="utf-8")


def _cells(line: str) -> int:
    return len(re.findall(r"(?<!\\)&", line)) + 1


def structure(text: str) -> list[str]:
    """What would keep the text from compiling or reading right; empty when it is sound."""
    problems = []
    if not text.isascii():
        problems.append("non-ASCII characters")
    body = re.sub(r"(?m)^%.*$", "", text).replace("{%\n", "{\n")  # comment lines, and {% ending a line
    if re.search(r"(?<!\\)[#%]", body) or re.search(r"(?<![\\{])[_^~](?!\{)", body):
        problems.append("an unescaped special character")
    depth = 0
    for char in re.sub(r"\\[{}]", "", body):
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth < 0:
            problems.append("a } closes nothing")
            break
    if depth > 0:
        problems.append("an unclosed {")
    envs = re.findall(r"\\(begin|end)\{(\w+)\}", body)
    stack: list[str] = []
    for kind, name in envs:
        if kind == "begin":
            stack.append(name)
        elif not stack or stack.pop() != name:
            problems.append(f"\\end{{{name}}} does not close its \\begin")
    tables = body.split(r"\begin{table}")[1:]
    labels = re.findall(r"\\label\{([^}]*)\}", body)
    if len(labels) != len(tables) or len(set(labels)) != len(labels):
        problems.append(f"{len(tables)} tables but labels {labels}")
    for t in tables:
        spec = re.search(r"\\begin\{tabular\}\{((?:[^{}]|\{[^{}]*\})*)\}", t)
        if spec is None:
            problems.append("a table without a tabular")
            continue
        columns = len(re.sub(r"p\{[^}]*\}", "p", spec.group(1)))
        rows = t.split(r"\midrule", 1)[1].split(r"\bottomrule", 1)[0].strip().splitlines()
        head = t.split(r"\toprule", 1)[1].split(r"\midrule", 1)[0].strip()
        for line in [head, *rows]:
            if _cells(line) != columns:
                problems.append(f"{_cells(line)} cells under {columns} columns: {line[:80]}")
        if any(_cells(line) != columns for line in rows):
            continue
        for i, col in enumerate(re.sub(r"p\{[^}]*\}", "p", spec.group(1))):
            values = [re.split(r"(?<!\\)&", line.removesuffix(r" \\"))[i].strip() for line in rows]
            numeric = values and all(re.fullmatch(r"-?\d+(\.\d+)?( \[-?[\d.]+, -?[\d.]+\])?|n/a", v) for v in values)
            if numeric and col != "r":
                problems.append(f"numeric column {i} aligned {col!r}")
    return problems


def test_latex_of_a_two_fixer_run_is_structurally_sound(tmp_path: Path) -> None:
    text = two_fixer_latex(tmp_path)
    assert structure(text) == []
    assert tex(HOSTILE) in text  # the label, escaped, never dropped
    assert r"$\geq$$\rho$$\times$?" in tex(HOSTILE)
    assert r"\begin{tabular}{lp{0.7\linewidth}}" in text  # the card's long values wrap
    assert r"\resizebox{\ifdim\width>\linewidth\linewidth\else\width\fi}{!}{%" in text  # wide tables fit
    assert "\\label{tab:hwrepair-by-fixer}" in text


@pytest.mark.parametrize("broken", [r"a & b & c \\", "x_y", r"\begin{table}", "{", "é"])
def test_the_structural_check_finds_what_breaks_a_document(tmp_path: Path, broken: str) -> None:
    text = two_fixer_latex(tmp_path)
    where = text.index(r"\midrule") + len(r"\midrule") + 1
    assert structure(text[:where] + broken + "\n" + text[where:]) != []


@pytest.mark.skipif(shutil.which("pdflatex") is None,
                    reason="no TeX engine (apt-get install texlive-latex-base texlive-latex-recommended); "
                           "the structural check above still runs")
def test_latex_of_a_two_fixer_run_compiles_in_the_article_class(tmp_path: Path) -> None:
    (tmp_path / "tables.tex").write_text(two_fixer_latex(tmp_path), encoding="utf-8")
    (tmp_path / "paper.tex").write_text("\\documentclass{article}\n\\usepackage{booktabs}\n\\usepackage{graphicx}\n"
                                        "\\begin{document}\nSee Table~\\ref{tab:hwrepair-by-fixer}.\n"
                                        "\\input{tables}\n\\end{document}\n", encoding="utf-8")
    for _ in range(2):  # the second pass resolves the reference
        done = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "paper.tex"],
                              cwd=tmp_path, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stdout[-3000:]
    log = (tmp_path / "paper.log").read_text(errors="replace")
    assert (tmp_path / "paper.pdf").stat().st_size > 1000
    for warning in ("Overfull \\hbox", "undefined", "multiply defined", "Missing character"):
        assert warning not in log, warning


def test_columns_no_row_can_fill_are_left_out_with_the_reason(tmp_path: Path) -> None:
    run = plant(tmp_path / "run", bug_samples("a", "OOB-01", "Pg Fa") + bug_samples("a", "SHFT-01", "Fa Fa"))
    out = tmp_path / "r.md"
    assert main(["report", str(run), "--format", "markdown", "--out", str(out), "-k", "1,5",
                 "--bootstrap", "200"]) == 0
    page = out.read_text()
    table = page.split("## by fixer\n\n", 1)[1].split("\n\n", 2)
    assert table[0].startswith("| fixer | bugs | samples | pass@1 | plausible |")  # no pass@5, no correct@k
    assert "left out: pass@5 (no bug has 5 samples), correct@k (no bug here has a strong oracle)" in table[1]
