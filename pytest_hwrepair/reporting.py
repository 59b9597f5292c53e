"""What hwrepair adds to pytest's terminal: a short header, a live progress line, compact failure sections."""

from __future__ import annotations

import dataclasses
import json
import math
import time
from collections.abc import Sequence
from typing import Any

import pytest

from .items import CASE_ITEM, SAMPLE_KEY
from .settings import Settings, flag_of

RECORDS = "hwrepair_records"
# No terminal (a CI log): a plain line at each tenth of the run (at most every PLAIN_MIN_S), or every PLAIN_EVERY_S.
PLAIN_EVERY_S = 300.0
PLAIN_MIN_S = 10.0


def header_lines(settings: Settings, fixers: dict[str, str], run_dir: str) -> list[str]:
    """The fixers, the options that differ from their defaults, the run directory."""
    shown = ", ".join(label if label == name else f"{label}={name}" for label, name in fixers.items())
    defaults = Settings()
    changed = [f"{flag_of(f)}={_short(getattr(settings, f.name))}" for f in dataclasses.fields(Settings)
               if f.metadata["header"] and f.name != "fixer" and getattr(settings, f.name) != getattr(defaults, f.name)]
    options = " ".join(changed) if changed else "defaults"
    return [f"hwrepair: fixers {shown}; options: {options}; run directory {run_dir}"]


def _short(value: Any) -> str:
    if isinstance(value, list):
        return ",".join(str(v) for v in value)
    text = str(value)
    return text if len(text) <= 40 else text[:37] + "..."


@dataclasses.dataclass
class Tally:
    """Samples finished so far, by outcome, and what they cost."""

    total: int = 0
    done: int = 0
    passed: int = 0
    rejected: int = 0
    errors: int = 0
    skipped: int = 0
    cost: float = 0.0

    def add(self, records: Sequence[dict[str, Any]]) -> None:
        self.done += 1
        outcome = records[-1].get("outcome") if records else "error"
        name = {"passed": "passed", "failed": "rejected", "skipped": "skipped"}.get(str(outcome), "errors")
        setattr(self, name, getattr(self, name) + 1)
        self.cost = math.fsum([self.cost, *(float(r.get("cost_usd") or 0.0) for r in records)])

    def line(self) -> str:
        """A log line: what is done, the pass rate so far, errors, skips, cost."""
        return (f"hwrepair: {self.done}/{self.total} samples done, pass rate so far {self._rate()} "
                f"({self.passed} of {self.passed + self.rejected}), {self.errors} errors, {self.skipped} skipped, "
                f"${self.cost:.4f}")

    def compact(self) -> str:
        """The same, short enough to follow pytest's progress characters on a terminal line."""
        return (f"{self.done}/{self.total} done | pass {self._rate()} | {self.errors} err | {self.skipped} skip | "
                f"${self.cost:.2f}")

    def _rate(self) -> str:
        judged = self.passed + self.rejected
        return f"{self.passed / judged:.1%}" if judged else "n/a"


class LiveStatus:
    """Controller side: the progress line (updated in place on a terminal, plain lines in a log)."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.tally = Tally()
        self.last_plain = time.monotonic()
        self.last_tenth = 0

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.tally.total = max(self.tally.total, sum(SAMPLE_KEY in item.stash for item in session.items))

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: Any, ids: Sequence[str]) -> None:
        self.tally.total = max(self.tally.total, sum(CASE_ITEM in nodeid for nodeid in ids))

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when != "teardown" or CASE_ITEM not in report.nodeid:
            return
        self.tally.add(next((json.loads(value) for name, value in reversed(report.user_properties)
                             if name == RECORDS and isinstance(value, str)), []))
        self.show()

    def show(self) -> None:
        reporter = self.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is None or self.config.get_verbosity() < -1 or not self.tally.total:  # -qq: none
            return
        # In place only where escape sequences are understood (a terminal, colours on: not TERM=dumb, NO_COLOR).
        if getattr(reporter, "isatty", False) and self.config.get_terminal_writer().hasmarkup:
            self._in_place(reporter)
        else:
            self._plain(reporter)

    def _in_place(self, reporter: Any) -> None:
        """After pytest's progress characters, without moving pytest's cursor: its next character overwrites it."""
        writer = self.config.get_terminal_writer()
        room = writer.fullwidth - max(writer.width_of_current_line, 0) - len(" [100%]") - 3
        if self.config.get_verbosity() > 0 or room < 24:
            return
        text = self.tally.compact()
        text = text if len(text) <= room else text[:room - 3] + "..."
        writer.write_raw(f"\x1b7\x1b[K  \x1b[2m{text}\x1b[0m\x1b8", flush=True)  # save, erase, write, restore

    def _plain(self, reporter: Any) -> None:
        tenth = self.tally.done * 10 // self.tally.total
        now = time.monotonic()
        if plain_line_due(self.tally, tenth > self.last_tenth, now - self.last_plain):
            self.last_tenth, self.last_plain = tenth, now
            if self.config.get_terminal_writer().width_of_current_line:
                reporter.write("\n")  # end pytest's row of progress characters first
            reporter.write_line(self.tally.line())

    def pytest_sessionfinish(self) -> None:
        reporter = self.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None and getattr(reporter, "isatty", False) and self.config.get_terminal_writer().hasmarkup:
            # Nothing of the live line stays behind pytest's own output.
            self.config.get_terminal_writer().write_raw("\x1b[K", flush=True)


def plain_line_due(tally: Tally, new_tenth: bool, since: float) -> bool:
    """In a log: at each new tenth of the run (not more often than PLAIN_MIN_S), or every PLAIN_EVERY_S; the
    last sample needs none (the summary follows)."""
    if tally.done >= tally.total:
        return False
    return (new_tenth and since >= PLAIN_MIN_S) or since >= PLAIN_EVERY_S


def compact_failures(reporter: Any, verbose: bool) -> None:
    """Under xdist, drop the worker line from hwrepair failure sections (header, one line, the FAILED line)."""
    if verbose:
        return
    for report in reporter.stats.get("failed", []):
        if CASE_ITEM in getattr(report, "nodeid", "") and hasattr(report, "node"):
            del report.node
