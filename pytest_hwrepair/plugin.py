"""The pytest plugin: options, hooks and fixtures, each a few lines calling plain modules."""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
import tomllib
import warnings
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

import pytest

from .cases.case import find_case_files
from .cases.load import load_case
from .controller import Scoreboard
from .fixers import Fixer, FixerError
from .fixers.llm.prefetch import Ahead, shared_cache
from .items import CASE_ITEM, RUN_KEY, SAMPLE_KEY, CaseFile
from .lastfailed import SELECTED_KEY, LastFailed
from .oracles import Oracle, make_oracle
from .report.terminal import render
from .reporting import RECORDS, LiveStatus, compact_failures, header_lines
from .results.gates import annotate_junit, scope_problem
from .run.runner import SampleResult, execute
from .run.sample import Sample
from .sandbox.base import Sandbox
from .session import Run
from .settings import Settings, SettingsError, flag_of, parse_shard
from .verdict import CaseError, HarnessError, Outcome
from .workers import (
    ARTIFACTS,
    Receiver,
    configure_node,
    pack,
    remote_worker,
    worker_run_dir,
)

MARKERS = {
    "hls": "HLS-style C kernel repair (gcc oracles)",
    "rtl": "Verilog RTL repair (lint, simulation, equivalence oracles)",
    "cuda": "CUDA kernel repair (nvcc build, test harness, perf gate)",
    "gpu": "needs a CUDA device for its runtime stage",
    "repo": "repository-level RTL issue (multi-file repair judged by fail-to-pass / pass-to-pass testbenches)",
    "slow": "long-running item (iterative trajectory or long oracle timeout)",
}


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("hwrepair", "hardware repair benchmark")
    for f in dataclasses.fields(Settings):
        meta = f.metadata
        help_text = meta["help"].replace("%", "%%")  # argparse formats help strings
        kwargs: dict[str, Any] = {"dest": f"hwrepair_{f.name}", "help": help_text, "default": None,
                                  **{name: meta[name] for name in ("metavar", "choices") if meta[name]}}
        if meta["multi"]:
            kwargs["action"] = "append"
        elif str(f.type).startswith("bool"):
            kwargs.update(action="store_const", const=True)
        group.addoption(flag_of(f), *([meta["alias"]] if meta.get("alias") else []), **kwargs)
        ini_type: Literal["linelist", "string"] = "linelist" if meta.get("multi") else "string"
        parser.addini(f"hwrepair_{f.name}", meta["help"], type=ini_type, default=[] if meta.get("multi") else None)
        if meta.get("alias"):  # the former flag's ini key still works too
            parser.addini(_alias_ini(meta["alias"]), f"same as hwrepair_{f.name}", type=ini_type, default=None)


def _alias_ini(flag: str) -> str:
    return flag.removeprefix("--").replace("-", "_")


def pytest_configure(config: pytest.Config) -> None:
    for name, text in MARKERS.items():
        config.addinivalue_line("markers", f"{name}: {text}")
    cli = {f.name: config.getoption(f"hwrepair_{f.name}") for f in dataclasses.fields(Settings)}
    ini = {f.name: config.getini(f"hwrepair_{f.name}") for f in dataclasses.fields(Settings)}
    for f in dataclasses.fields(Settings):
        if f.metadata.get("alias") and ini[f.name] in (None, "", []):
            ini[f.name] = config.getini(_alias_ini(f.metadata["alias"]))
    workerinput = getattr(config, "workerinput", None)
    try:
        settings = Settings.from_sources(cli, ini)
        run_dir = Path(workerinput["hwrepair_run"]) if workerinput and "hwrepair_run" in workerinput else None
        run_dir = (worker_run_dir(workerinput) if workerinput else None) or run_dir
        run = Run.create(settings, run_dir, strict=_pytest_strict(config), is_worker=workerinput is not None)
    except (SettingsError, FixerError) as exc:
        raise pytest.UsageError(str(exc)) from None
    config.stash[RUN_KEY] = run
    config.pluginmanager.register(LastFailed(config), "hwrepair-lastfailed")
    if not settings.no_prefetch and shared_cache(config):
        config.pluginmanager.register(Ahead(run, config), "hwrepair-ahead")
    if config.pluginmanager.hasplugin("xdist"):
        config.pluginmanager.register(XdistHooks(run), "hwrepair-xdist")
    if workerinput is None:
        _preflight(config, run)
        config.pluginmanager.register(Controller(run), "hwrepair-controller")
        config.pluginmanager.register(LiveStatus(config), "hwrepair-progress")


def _preflight(config: pytest.Config, run: Run) -> None:
    """An agent that cannot start, or a gate whose domain or suite names no case here, stops the run in one line,
    before any item (and any fixer call)."""
    if config.getoption("collectonly", False) or config.getoption("help", False):
        return
    from .fixers.agent import preflight

    evaluated = [Path(os.path.abspath(str(a).split("::")[0])) for a in config.args] or [config.rootpath]
    try:
        problem = preflight(run.fixers, [Path(os.path.realpath(p)) for p in evaluated])
    except FixerError as exc:
        problem = str(exc)
    scoped = [g for g in run.gates if any(not s.startswith("fixer=") for s in (g.scope or "").split(",") if s)]
    if scoped and not problem:
        present = {_domain_suite(path) for path in find_case_files(evaluated)}
        problem = next(filter(None, (scope_problem(gate, present) for gate in scoped)), None)
    if problem:
        raise pytest.UsageError(problem)


def _domain_suite(path: Path) -> tuple[str, str]:
    """A case file's declared domain and suite ("" where unreadable: the item reports that)."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return "", ""
    return str(data.get("domain", "")), str(data.get("suite", ""))


def _pytest_strict(config: pytest.Config) -> bool:
    """pytest's own strict mode (the `strict` ini key or `--strict`, where this pytest has them)."""
    with contextlib.suppress(ValueError):  # a pytest without the `strict` ini key
        if config.getini("strict"):
            return True
    return bool(getattr(config.option, "strict", False))


class XdistHooks:
    """Hands the controller's run directory to every worker."""

    def __init__(self, run: Run) -> None:
        self.run = run

    def pytest_configure_node(self, node: Any) -> None:
        node.workerinput["hwrepair_run"] = str(self.run.run_dir.path.resolve())  # a `popen//chdir=` worker too
        configure_node(node.gateway.spec, node.workerinput, self.run.run_dir, self.run.harness.finished)


def pytest_report_header(config: pytest.Config) -> list[str]:
    run = config.stash[RUN_KEY]
    notices = [f"hwrepair: {line}" for f in run.fixers.values() for line in getattr(f, "notices", ())]
    return header_lines(run.settings, {label: f.name for label, f in run.fixers.items()}, str(run.run_dir.path)) \
        + notices


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if file_path.name == "case.toml":
        return CaseFile.from_parent(parent, path=file_path)
    return None


@pytest.hookimpl(trylast=True)  # after -k/-m deselection: batch mode submits only what will run
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    run = config.stash[RUN_KEY]
    if run.settings.shard is not None:
        index, count = parse_shard(run.settings.shard)
        keep = [i for i in items if SAMPLE_KEY not in i.stash or _shard_of(i.nodeid, count) == index]
        dropped = [i for i in items if i not in keep]
        if dropped:
            config.hook.pytest_deselected(items=dropped)
            items[:] = keep
    run.corpus.select(i.stash[SAMPLE_KEY] for i in items if SAMPLE_KEY in i.stash)
    config.stash[SELECTED_KEY] = [i for i in items if SAMPLE_KEY in i.stash]
    if config.pluginmanager.hasplugin("timeout") and not config.getoption("timeout", None):
        marks: dict[float, pytest.MarkDecorator] = {}  # one per backstop: a run has a handful
        for item in items:
            if SAMPLE_KEY in item.stash and item.get_closest_marker("timeout") is None:
                seconds = _backstop(run, item.stash[SAMPLE_KEY])
                if seconds not in marks:
                    marks[seconds] = pytest.mark.timeout(seconds, method="signal")
                item.add_marker(marks[seconds])


def _shard_of(nodeid: str, count: int) -> int:
    return int(hashlib.sha256(nodeid.encode()).hexdigest()[:12], 16) % count


def _backstop(run: Run, sample: Sample) -> float:
    """Above every deadline the item's own steps have: the fixer's, four oracle steps and the strong check, per try."""
    attempts = run.harness.protocol.attempts(sample.protocol)
    fixer = 0.0 if run.fixers[sample.label].deterministic else run.settings.fixer_timeout
    strong = sample.case.model.strong_oracle
    return attempts * (fixer + 4 * sample.case.oracle.timeout + (strong.timeout if strong else 0.0) + 60) + 60


class Controller:
    """Controller-side aggregation (DESIGN §10): records arrive as plain dicts in user_properties."""

    def __init__(self, run: Run) -> None:
        self.run = run
        self.board = Scoreboard(run.settings.k, run.gates, run.settings.baseline)
        self.collect_errors = 0
        self.lost: set[str] = set()  # hwrepair items that failed without a record: a crashed worker
        self.receiver = Receiver(run.run_dir)  # what remote workers send back
        self.case_files: set[str] = set()  # the case files of the samples that reported a record
        self.begun = False  # the session is listed in run.json

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        if any(SAMPLE_KEY in item.stash for item in session.items):
            self._begin()

    @pytest.hookimpl(optionalhook=True)  # xdist: the controller collects nothing, its workers report node ids
    def pytest_xdist_node_collection_finished(self, node: Any, ids: Sequence[str]) -> None:
        if any(CASE_ITEM in nodeid for nodeid in ids):
            self._begin()

    def _begin(self) -> None:
        """List the session in run.json once hwrepair items are known to run: a killed session stays listed."""
        if self.begun:
            return
        self.begun = True
        try:
            self.run.run_dir.begin_session(self.run.info())
        except OSError as exc:  # the run goes on; the summary at the end says again if the directory stays unwritable
            warnings.warn(f"hwrepair: could not list this session in {self.run.run_dir.path}/run.json: {exc}",
                          stacklevel=1)

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if report.failed:
            self.collect_errors += 1

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        found = False
        for name, value in report.user_properties:
            if name == RECORDS and isinstance(value, str):
                self.board.add(report.nodeid, json.loads(value))
                self.case_files.add(report.nodeid.split("::")[0])
                self.receiver.receive(report.nodeid, report.user_properties, value)
                found = True
        if report.failed and not found and CASE_ITEM in report.nodeid:
            self.lost.add(report.nodeid)  # the gates cannot count a sample whose result never arrived

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        errors = self.collect_errors + self.board.errors() + len(self.lost - set(self.board.records))
        try:
            self.run.corpus.record_ran([session.config.rootpath / f for f in sorted(self.case_files)], load_case)
        except (CaseError, OSError) as exc:
            session.config.get_terminal_writer().line(f"hwrepair: the corpus hash: {exc}", red=True)
        try:
            status = self.board.finish(self.run.run_dir, self.run.info(), collected=bool(self.run.corpus.samples),
                                       errors=errors)
        except OSError as exc:
            session.config.get_terminal_writer().line(f"hwrepair: could not write the summary: {exc}", red=True)
            return
        if status is not None and exitstatus not in (2, 3, 4):
            session.exitstatus = status

    @pytest.hookimpl(wrapper=True, tryfirst=True)  # around pytest's own sections: the summary comes last
    def pytest_terminal_summary(self, terminalreporter: Any) -> Any:
        compact_failures(terminalreporter, terminalreporter.config.get_verbosity() > 0)
        result = yield
        self._summary(terminalreporter)
        return result

    def _summary(self, terminalreporter: Any) -> None:
        board = self.board
        if board.summary is None or not board.records:
            return
        terminalreporter.section("hwrepair summary")
        labels = {f.name: label for label, f in reversed(list(self.run.fixers.items()))}
        for line in render(board.summary, labels=labels, breakdown=self.run.settings.breakdown):
            terminalreporter.write_line(line)
        for line in board.gate_failures:
            terminalreporter.write_line(line, red=True)
        if board.gates and not board.gate_failures:
            terminalreporter.write_line("all gates hold: " + ", ".join(g.text for g in board.gates), green=True)
        terminalreporter.write_line(f"results: {self.run.run_dir.path}")


@pytest.hookimpl(trylast=True)  # after pytest's junitxml has written its file
def pytest_sessionfinish(session: pytest.Session) -> None:
    controller = session.config.pluginmanager.get_plugin("hwrepair-controller")
    xml = session.config.getoption("xmlpath", None)
    board = getattr(controller, "board", None)
    if not xml or controller is None or board is None or board.summary is None or not (board.gates or board.baseline):
        return
    verdicts: list[tuple[str, str | None]] = [
        (g.text, next((f for f in board.gate_failures if f.startswith(f"gate {g.text!r}")), None)) for g in board.gates]
    if board.baseline:
        lost = [f for f in board.gate_failures if not f.startswith("gate ")]
        verdicts.append((f"baseline {board.baseline}", "; ".join(lost) or None))
    rejected = {nodeid for nodeid, records in board.records.items()
                if records and records[-1].get("outcome") == Outcome.FAILED.value}
    try:
        annotate_junit(Path(xml), verdicts, rejected, controller.run.settings.junit_rejected)
    except (OSError, ET.ParseError) as exc:
        session.config.get_terminal_writer().line(f"hwrepair: could not add the gates to {xml}: {exc}", red=True)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """A harness error reads as one line, as a rejection does, unless --hwrepair-debug or --full-trace asks."""
    report = yield
    if call.excinfo is not None and isinstance(call.excinfo.value, HarnessError) \
            and not (item.config.stash[RUN_KEY].settings.debug or item.config.getoption("fulltrace", False)):
        report.longrepr = call.excinfo.value.line()
    return report


# ---------------------------------------------------------------- fixtures


@pytest.fixture
def hwrepair_case(request: pytest.FixtureRequest) -> Sample:
    """The case, bug, fixer label, sample index and key this item stands for."""
    sample: Sample = request.node.stash[SAMPLE_KEY]
    return sample


@pytest.fixture
def hwrepair_fixer(request: pytest.FixtureRequest, hwrepair_case: Sample) -> Fixer:
    """The fixer that repairs this item (override to plug in your own)."""
    return request.config.stash[RUN_KEY].fixers[hwrepair_case.label]


@pytest.fixture(scope="session")
def hwrepair_sandbox(pytestconfig: pytest.Config) -> Sandbox:
    """Where candidate code runs."""
    return pytestconfig.stash[RUN_KEY].sandbox


@pytest.fixture
def hwrepair_oracle(request: pytest.FixtureRequest, hwrepair_case: Sample) -> Oracle:
    """The suite oracle of this item's case."""
    return make_oracle(hwrepair_case.case, request.config.stash[RUN_KEY].harness.oracle_ctx)


@pytest.fixture
def hwrepair_outcome(request: pytest.FixtureRequest, hwrepair_case: Sample, hwrepair_fixer: Fixer,
                     hwrepair_sandbox: Sandbox, hwrepair_oracle: Oracle) -> SampleResult:
    """Runs the sample (or resumes it): harness failures surface here, as errors, not failures."""
    run = request.config.stash[RUN_KEY]
    result = execute(hwrepair_case, hwrepair_fixer, run.harness, hwrepair_sandbox, hwrepair_oracle)
    # JSON text: it crosses the xdist wire as plain data and reads as JSON in a JUnit report's properties.
    request.node.user_properties.append((RECORDS, json.dumps([r.to_json() for r in result.records], sort_keys=True)))
    if remote_worker(getattr(request.config, "workerinput", None)) and not result.resumed:
        request.node.user_properties.append((ARTIFACTS, pack(run.run_dir, result.records)))
    if result.verdict.outcome is Outcome.SKIPPED:
        pytest.skip(result.verdict.summary)
    if result.verdict.outcome is Outcome.ERROR:
        detail = f"\n{result.verdict.log_tail}" if result.verdict.log_tail else ""
        raise HarnessError(f"{result.verdict.summary}{detail}", result.artifact)
    return result
