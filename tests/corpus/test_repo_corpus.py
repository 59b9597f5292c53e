"""The repository corpus, checked without simulating: size, spread, tiers, issue texts and README table."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from pytest_hwrepair.cases.case import Case, find_case_files
from pytest_hwrepair.cases.load import load_case
from pytest_hwrepair.repo.load import REPO_BUG_TYPES
from pytest_hwrepair.repo.localise import Gold, Tier

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "cases" / "rtl" / "repo"
CASES = [load_case(p, strict=True) for p in find_case_files([CORPUS])]
GOLD = {(c.id, b.id): Gold.between(c.buggy_files(b), c.repo.tree) for c in CASES if c.repo for b in c.bugs}


def test_at_least_twenty_instances_across_five_repositories() -> None:
    assert len(CASES) >= 5 and all(c.repo is not None for c in CASES)
    assert len(GOLD) >= 20


def test_fixes_span_one_to_six_files_and_tiers_mix_like_the_seed() -> None:
    files = Counter(len(g.files) for g in GOLD.values())
    assert min(files) == 1 and max(files) == 6
    tiers = Counter(g.tier for g in GOLD.values())
    assert set(tiers) == set(Tier) and 0.2 <= tiers[Tier.T1] / len(GOLD) <= 0.3


def test_every_bug_type_appears() -> None:
    types = Counter(key[1].rsplit("-", 1)[0] for key in GOLD)
    assert set(types) == set(REPO_BUG_TYPES)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_issues_report_symptoms_and_never_quote_the_fix(case: Case) -> None:
    assert case.repo is not None
    for bug in case.bugs:
        issue = case.repo.issues[bug.id]
        added = [line[1:].strip() for line in case.repo.patches[bug.id].splitlines()
                 if line.startswith("+") and not line.startswith("+++") and len(line[1:].strip()) > 12]
        assert 80 < len(issue) < 800, bug.id
        assert not [line for line in added if line in issue], bug.id


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_every_test_is_used_and_verilator_runs_somewhere(case: Case) -> None:
    assert case.repo is not None
    used = {t for b in case.repo.model.bug for t in [*b.f2p, *b.p2p]}
    assert used == {t.name for t in case.repo.model.test}
    assert any("verilator" in t.build for t in case.repo.model.test)


def test_corpus_readme_holds_the_current_stats_table() -> None:
    out = subprocess.run([sys.executable, "-m", "pytest_hwrepair.cli", "stats", str(CORPUS)], capture_output=True,
                         text=True, check=True, cwd=ROOT).stdout
    assert out.strip() in (CORPUS / "README.md").read_text()
