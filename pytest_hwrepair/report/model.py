"""The report as data: what `hwrepair report --format json` writes and `hwrepair schema --results` publishes.

Every other format renders this model, so the numbers agree across formats.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

REPORT_SCHEMA = 1
BOOTSTRAP_RESAMPLES = 2000


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Estimate(_Model):
    """A mean over bugs with its 95 % percentile bootstrap interval (resampling bugs)."""

    value: float | None = Field(description="the point estimate; null is n/a (e.g. some bug has n < k)")
    low: float | None = None
    high: float | None = None


class TableRow(_Model):
    """One row of a table: a group of bugs of one fixer."""

    group: dict[str, str] = Field(description="the grouping keys of this row, e.g. fixer, domain, suite, bug_type")
    bugs: int
    samples: int = Field(description="passed + failed samples (errors and skips are not counted)")
    passed: int
    correct: int = Field(description="samples that passed and whose strong oracle passed too")
    plausible: int = Field(description="samples that passed the suite oracle and failed the strong one")
    undecided: int = Field(description="passed samples whose strong oracle gave no verdict (or none exists)")
    strong_bugs: int = Field(description="bugs whose case has a strong oracle (correct@k is n/a without one)")
    errors: int
    skipped: int
    pass_at: dict[str, Estimate]
    correct_at: dict[str, Estimate]
    multiplicity: float | None
    underconstrained: int
    categories: dict[str, int] = Field(description="counted samples per failure category (pass included)")


class BugRow(_Model):
    """One bug of one fixer: the CSV row."""

    fixer: str
    domain: str
    suite: str
    case: str
    bug: str
    bug_type: str
    bug_class: str | None
    loc: int
    n: int
    c: int
    correct: int
    plausible: int
    undecided: int
    strong_n: int
    strong_oracle: bool = Field(False, description="the bug's case has a strong oracle")
    errors: int
    skipped: int
    pass_at: dict[str, float | None]
    correct_at: dict[str, float | None]
    multiplicity: float | None
    underconstrained: bool
    categories: dict[str, int]
    runs: list[str]


class Correlation(_Model):
    """Spearman ρ of per-bug pass@1 against a bug property, per fixer or pooled over fixers."""

    fixer: str = Field(description="a fixer, or '(pooled)' for every fixer's bugs together")
    x: str = Field(description="multiplicity | loc")
    y: str = "pass@1"
    n: int
    rho: float | None
    p: float | None
    note: str | None = None


class Split(_Model):
    """Mann-Whitney U of per-bug pass@1 between two bug classes of one domain."""

    fixer: str
    domain: str
    a: str
    b: str
    n_a: int
    n_b: int
    mean_a: float | None
    mean_b: float | None
    u: float | None
    p: float | None
    note: str | None = None


class Paired(_Model):
    """Two fixers on the same bugs: per-bug pass@1, Wilcoxon signed-rank test."""

    a: str
    b: str
    bugs: int
    mean_a: float | None
    mean_b: float | None
    wins_a: int
    wins_b: int
    ties: int
    w: float | None
    p: float | None
    note: str | None = None


class RunScore(_Model):
    """A fixer's pass@1 in each run (over the bugs every run holds) and its swing across them."""

    fixer: str
    scores: dict[str, float | None]
    swing: float | None


class RankAgreement(_Model):
    """Kendall τ between the fixer rankings of two runs."""

    a: str
    b: str
    fixers: int
    tau: float | None
    p: float | None
    note: str | None = None


class Comparison(_Model):
    """Several runs side by side: protocol axes, per-fixer swing Δ and ranking agreement."""

    runs: list[str]
    axes: dict[str, dict[str, str]] = Field(description="protocol axis -> run -> value, for the axes that differ")
    bugs: int = Field(description="bugs every run holds: the scores are means over these")
    scores: list[RunScore]
    rankings: list[RankAgreement]
    note: str | None = None


class Card(_Model):
    """The evaluation card of one run: the protocol stack a number needs to travel with."""

    run: str
    path: str
    fixers: dict[str, str] = Field(description="label -> fixer and model")
    protocol: str
    samples: str
    sampling: dict[str, str]
    iterative: dict[str, str] = Field(description="K iterations, H history, feedback level")
    input_arm: str
    perf_gate: str
    corpus: dict[str, str] = Field(description="case-set hash and number of cases")
    versions: dict[str, str]
    sandbox: dict[str, str]
    started: str
    ended: str
    notes: list[str] = Field(default_factory=list)


# Each table of `Tables` and the row fields it groups by.
TABLE_KEYS = {"fixers": ("fixer",), "domains": ("fixer", "domain"), "groups": ("fixer", "domain", "suite", "bug_type"),
              "classes": ("fixer", "domain", "bug_class")}


class Tables(_Model):
    fixers: list[TableRow]
    domains: list[TableRow]
    groups: list[TableRow] = Field(description="fixer x domain x suite x bug type")
    classes: list[TableRow] = Field(description="fixer x domain x bug class (syntactic, semantic, behavioural, ...)")


class Merge(_Model):
    runs: list[str]
    samples: int
    duplicates: int = Field(description="samples present in more than one run directory, counted once")


class Report(_Model):
    """The whole report."""

    schema_version: int = REPORT_SCHEMA
    k: list[int]
    merge: Merge
    notes: list[str]
    cards: list[Card]
    tables: Tables
    bugs: list[BugRow]
    correlations: list[Correlation]
    splits: list[Split]
    paired: list[Paired]
    comparison: Comparison | None
    summary: dict[str, Any] = Field(description="the scoreboard summary (the body of summary.json) of these samples")


def results_schema() -> dict[str, Any]:
    """JSON Schema of `hwrepair report --format json`."""
    schema = Report.model_json_schema()
    schema["$id"] = f"urn:pytest-hwrepair:report:{REPORT_SCHEMA}"
    schema["title"] = "hwrepair report"
    return schema
