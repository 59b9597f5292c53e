"""Shared helpers for the project's own tests: tiny cases written into temporary directories."""

from __future__ import annotations

import functools
import shutil
import sys
import tempfile
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

SUM_C = """\
#include <stdio.h>
int main(void) {
    int s = 0;
    for (int i = 0; i < 10; i++) s += i;
    printf("mismatches = %d\\n", s != 45);
    return s != 45;
}
"""

SUM_TOML = """\
schema = 1
id = "sum"
domain = "hls"
suite = "demo"
title = "sum of 0..9"
sources = ["sum.c"]
target = "sum.c"

[oracle]
kind = "exit-code"
build = "gcc -O0 sum.c -o prog"
run = "./prog"
timeout = 2
stdout = 'mismatches = 0'

[[bug]]
id = "MLU-01"
type = "MLU"
find = "i < 10"
replace = "i < 9"
note = "drops the last term"

[[bug]]
id = "SHFT-01"
type = "SHFT"
find = "s += i;"
replace = "s += i << 1;"
note = "doubles every term"
"""

DUMP_C = """\
#include <stdio.h>
int main(void) {
    double a[4];
    for (int i = 0; i < 4; i++) a[i] = i * 0.5;
    for (int i = 0; i < 4; i++) printf("%.17g\\n", a[i] * 3.0);
    return 0;
}
"""

DUMP_TOML = """\
schema = 1
id = "dump"
domain = "hls"
suite = "demo"
sources = ["dump.c"]
target = "dump.c"

[oracle]
kind = "output-diff"
build = "gcc -O0 dump.c -o prog"
run = "./prog"
timeout = 2

[[bug]]
id = "USE-01"
type = "USE"
find = "a[i] * 3.0"
replace = "a[0] * 3.0"
note = "prints the first element four times"
"""


def agent_python(*files: Path) -> list[str]:
    """`cmd:` agents run in the sandbox: an interpreter it shows, and mounts for the agent's own files."""
    python = "/usr/bin/python3" if Path("/usr/bin/python3").exists() else sys.executable
    mounts = [] if python.startswith("/usr/") else [sys.base_prefix, sys.prefix]
    return [python, *(arg for path in [*mounts, *map(str, files)] for arg in ("--hwrepair-agent-mount", path))]


@functools.cache
def _statistics_imported() -> None:
    """Import scipy and run each rank statistic the report uses once (scipy imports parts of itself, numpy.fft
    among them, at a statistic's first call)."""
    from pytest_hwrepair.report import build as stats

    a, b = [0.1, 0.5, 0.9, 0.3, 0.7], [0.2, 0.4, 0.8, 0.35, 0.6]
    stats.spearman(a, b)
    stats.kendall(a, b)
    stats.mann_whitney(a, b)
    stats.wilcoxon(a, b)


@pytest.fixture
def _statistics() -> None:
    _statistics_imported()


@pytest.fixture
def pytester(_statistics: None, pytester: pytest.Pytester) -> pytest.Pytester:
    """pytester forgets the modules first imported after it was made, and numpy's compiled modules refuse a
    second import in one process: what the report's statistics import is imported before pytester is made."""
    return pytester


@pytest.fixture
def agent_dir() -> Iterator[Path]:
    """A world-readable directory for a `cmd:` agent's files: as root, the agent runs under a uid of its own."""
    path = Path(tempfile.mkdtemp(prefix="hwrepair-agent-test-", dir="/tmp"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def write_case(root: Path, design: str, files: dict[str, str], suite: str = "demo") -> Path:
    folder = root / "cases" / "hls" / suite / design
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(textwrap.dedent(text) if name.endswith(".toml") else text)
    return folder / "case.toml"


@pytest.fixture
def demo_cases(tmp_path: Path) -> Path:
    """Two tiny HLS designs (one per oracle kind), three bugs in all."""
    write_case(tmp_path, "sum", {"case.toml": SUM_TOML, "sum.c": SUM_C})
    write_case(tmp_path, "dump", {"case.toml": DUMP_TOML, "dump.c": DUMP_C})
    return tmp_path


@pytest.fixture
def demo_pytester(pytester: pytest.Pytester) -> pytest.Pytester:
    """A pytester directory holding the demo cases."""
    write_case(pytester.path, "sum", {"case.toml": SUM_TOML, "sum.c": SUM_C})
    write_case(pytester.path, "dump", {"case.toml": DUMP_TOML, "dump.c": DUMP_C})
    return pytester


TESTS = Path(__file__).resolve().parent
# End-to-end and toolchain-heavy tests: every pytest run in a subprocess (pytester), the gaming suite, the
# built-in corpora, containers, remote workers and the browser. `./dev test -m "not slow"` runs the rest.
SLOW_FOLDERS = frozenset({"gaming", "corpus", "docker"})
SLOW_FILES = frozenset({"test_remote_workers.py", "test_browser.py", "test_oracle.py", "test_diff.py",
                        "test_corners.py", "test_fixer.py", "test_mutants.py"})


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        parts = item.path.resolve().relative_to(TESTS).parts if item.path.resolve().is_relative_to(TESTS) else ()
        if ("pytester" in getattr(item, "fixturenames", ()) or SLOW_FOLDERS.intersection(parts[:-1])
                or (parts and parts[-1] in SLOW_FILES)):
            item.add_marker(pytest.mark.slow)
