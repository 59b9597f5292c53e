"""The pytest plugin: options, hooks and fixtures, each a few lines calling plain modules."""

from __future__ import annotations

import dataclasses
import hashlib
from pathlib import Path
from typing import Any

import pytest

from .fixers import Fixer, FixerError
from .items import SESSION_KEY, SPEC_KEY, CaseFile
from .oracles import Oracle, make_oracle
from .run import SampleResult, SampleSpec, execute
from .sandbox.base import Sandbox
from .session import HwrepairSession
from .settings import Settings, SettingsError, flag_of, parse_shard
from .terminal import render
from .verdict import HarnessError, Outcome

MARKERS = {
    "hls": "HLS-style C kernel repair (gcc oracles)",
    "rtl": "Verilog RTL repair (lint, simulation, equivalence oracles)",
    "cuda": "CUDA kernel repair (nvcc build, test harness, perf gate)",
    "gpu": "needs a CUDA device for its runtime stage",
    "slow": "long-running item (iterative trajectory or long oracle timeout)",
}
RECORDS = "hwrepair_records"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("hwrepair", "hardware repair benchmark")
    for f in dataclasses.fields(Settings):
        meta = f.metadata
        help_text = meta["help"].replace("%", "%%")  # argparse formats help strings
        kwargs: dict[str, Any] = {"dest": f"hwrepair_{f.name}", "help": help_text, "default": None}
        if meta.get("multi"):
            kwargs["action"] = "append"
        elif str(f.type).startswith("bool"):
            kwargs["action"] = "store_const"
            kwargs["const"] = True
        if meta.get("metavar"):
            kwargs["metavar"] = meta["metavar"]
        if meta.get("choices"):
            kwargs["choices"] = meta["choices"]
        group.addoption(flag_of(f), **kwargs)
        parser.addini(f"hwrepair_{f.name}", meta["help"], type="linelist" if meta.get("multi") else "string",
                      default=[] if meta.get("multi") else None)


def pytest_configure(config: pytest.Config) -> None:
    for name, text in MARKERS.items():
        config.addinivalue_line("markers", f"{name}: {text}")
    cli = {f.name: config.getoption(f"hwrepair_{f.name}") for f in dataclasses.fields(Settings)}
    ini = {f.name: config.getini(f"hwrepair_{f.name}") for f in dataclasses.fields(Settings)}
    workerinput = getattr(config, "workerinput", None)
    try:
        settings = Settings.from_sources(cli, ini)
        run_dir = Path(workerinput["hwrepair_run"]) if workerinput and "hwrepair_run" in workerinput else None
        session = HwrepairSession.create(settings, run_dir, strict=_pytest_strict(config),
                                         is_worker=workerinput is not None)
    except (SettingsError, FixerError) as exc:
        raise pytest.UsageError(str(exc)) from None
    config.stash[SESSION_KEY] = session
    if config.pluginmanager.hasplugin("xdist"):
        config.pluginmanager.register(XdistHooks(session), "hwrepair-xdist")
    if workerinput is None:
        config.pluginmanager.register(Controller(session), "hwrepair-controller")


def _pytest_strict(config: pytest.Config) -> bool:
    """pytest's own strict mode (the `strict` ini key or `--strict`, where this pytest has them)."""
    try:
        if config.getini("strict"):
            return True
    except ValueError:  # a pytest without the `strict` ini key
        pass
    return bool(getattr(config.option, "strict", False))


class XdistHooks:
    """Hands the controller's run directory to every worker."""

    def __init__(self, session: HwrepairSession) -> None:
        self.session = session

    def pytest_configure_node(self, node: Any) -> None:
        node.workerinput["hwrepair_run"] = str(self.session.run_dir.path)


def pytest_report_header(config: pytest.Config) -> list[str]:
    session = config.stash[SESSION_KEY]
    shown = ", ".join(f"{k}={v}" for k, v in session.settings.header_items() if k != "fixer")
    fixers = ", ".join(f"{label}={f.name}" for label, f in session.fixers.items())
    return [f"hwrepair: fixers {fixers}", f"hwrepair: {shown}", f"hwrepair: run directory {session.run_dir.path}"]


def pytest_sessionstart(session: pytest.Session) -> None:
    session.config.stash[SESSION_KEY].start_run()


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if file_path.name == "case.toml":
        return CaseFile.from_parent(parent, path=file_path)
    return None


@pytest.hookimpl(trylast=True)  # after -k/-m deselection: batch mode submits only what will run
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    session = config.stash[SESSION_KEY]
    session.specs = [i.stash[SPEC_KEY] for i in items if SPEC_KEY in i.stash]
    if session.settings.shard is not None:
        index, count = parse_shard(session.settings.shard)
        keep = [i for i in items if SPEC_KEY not in i.stash or _shard_of(i.nodeid, count) == index]
        dropped = [i for i in items if i not in keep]
        if dropped:
            config.hook.pytest_deselected(items=dropped)
            items[:] = keep
            session.specs = [i.stash[SPEC_KEY] for i in keep if SPEC_KEY in i.stash]
    if config.pluginmanager.hasplugin("timeout") and not config.getoption("timeout", None):
        for item in items:
            if SPEC_KEY in item.stash and item.get_closest_marker("timeout") is None:
                item.add_marker(pytest.mark.timeout(_backstop(session, item.stash[SPEC_KEY]), method="signal"))


def _shard_of(nodeid: str, count: int) -> int:
    return int(hashlib.sha256(nodeid.encode()).hexdigest()[:12], 16) % count


def _backstop(session: HwrepairSession, spec: SampleSpec) -> float:
    """Above every deadline the item's own steps have: the fixer's and four oracle steps per attempt."""
    attempts = session.settings.iterations if spec.protocol == "iterative" else 1
    fixer = 0.0 if getattr(session.fixers[spec.fixer], "deterministic", False) else session.settings.fixer_timeout
    return attempts * (fixer + 4 * spec.case.oracle.timeout + 60) + 60


class Controller:
    """Controller-side aggregation (DESIGN §10): records arrive as plain dicts in user_properties."""

    def __init__(self, session: HwrepairSession) -> None:
        self.hw = session
        self.collect_errors = 0

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if report.failed:
            self.collect_errors += 1

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        for name, value in report.user_properties:
            if name == RECORDS and isinstance(value, list):
                self.hw.add_records(report.nodeid, value)

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        errors = self.collect_errors + sum(1 for rs in self.hw.records.values()
                                           if rs and rs[-1].get("outcome") == "error")
        try:
            status = self.hw.finish(errors)
        except OSError as exc:
            session.config.get_terminal_writer().line(f"hwrepair: could not write the summary: {exc}", red=True)
            return
        if status is not None and exitstatus not in (2, 3, 4):
            session.exitstatus = status

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        hw = self.hw
        if hw.summary is None or not hw.records:
            return
        terminalreporter.section("hwrepair summary")
        for line in render(hw.summary):
            terminalreporter.write_line(line)
        for line in hw.gate_failures:
            terminalreporter.write_line(line, red=True)
        if hw.gates and not hw.gate_failures:
            terminalreporter.write_line("all gates hold: " + ", ".join(g.text for g in hw.gates), green=True)
        terminalreporter.write_line(f"results: {hw.run_dir.path}")


# ---------------------------------------------------------------- fixtures


@pytest.fixture
def hwrepair_case(request: pytest.FixtureRequest) -> SampleSpec:
    """The case, bug, fixer label and sample index this item stands for."""
    spec: SampleSpec = request.node.stash[SPEC_KEY]
    return spec


@pytest.fixture
def hwrepair_fixer(request: pytest.FixtureRequest, hwrepair_case: SampleSpec) -> Fixer:
    """The fixer that repairs this item (override to plug in your own)."""
    return request.config.stash[SESSION_KEY].fixers[hwrepair_case.fixer]


@pytest.fixture(scope="session")
def hwrepair_sandbox(pytestconfig: pytest.Config) -> Sandbox:
    """Where candidate code runs."""
    harness = pytestconfig.stash[SESSION_KEY].harness
    assert harness is not None
    return harness.sandbox


@pytest.fixture
def hwrepair_oracle(request: pytest.FixtureRequest, hwrepair_case: SampleSpec) -> Oracle:
    """The suite oracle of this item's case."""
    harness = request.config.stash[SESSION_KEY].harness
    assert harness is not None
    return make_oracle(hwrepair_case.case, harness.oracle_ctx)


@pytest.fixture
def hwrepair_outcome(request: pytest.FixtureRequest, hwrepair_case: SampleSpec, hwrepair_fixer: Fixer,
                     hwrepair_sandbox: Sandbox, hwrepair_oracle: Oracle) -> SampleResult:
    """Runs the sample (or resumes it): harness failures surface here, as errors, not failures."""
    hw = request.config.stash[SESSION_KEY]
    assert hw.harness is not None
    harness = dataclasses.replace(hw.harness, sandbox=hwrepair_sandbox)
    result = execute(hwrepair_case, hwrepair_fixer, harness, hwrepair_oracle)
    request.node.user_properties.append((RECORDS, [r.to_json() for r in result.records]))
    if result.verdict.outcome is Outcome.SKIPPED:
        pytest.skip(result.verdict.summary)
    if result.verdict.outcome is Outcome.ERROR:
        detail = f"\n{result.verdict.log_tail}" if result.verdict.log_tail else ""
        raise HarnessError(f"{result.verdict.summary}{detail}")
    return result
