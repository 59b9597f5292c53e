"""Small fakes shared by the tests: a corpus a fixer factory can be given without a pytest run."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

from pytest_hwrepair.fixers.base import FixerContext, RepairTask
from pytest_hwrepair.settings import Settings


class FakeCorpus:
    """Answers `pending` from a callable and `golden` from a mapping; populates nothing."""

    def __init__(self, pending: Callable[[str], list[RepairTask]] | None = None,
                 golden: dict[str, str] | None = None) -> None:
        self._pending = pending or (lambda label: [])
        self._golden = golden or {}

    def golden(self, task: RepairTask) -> dict[str, str]:
        return dict(self._golden)

    def populate(self, workspace: Path, task: RepairTask) -> None:
        return None

    def pending(self, label: str) -> list[RepairTask]:
        return self._pending(label)


def fixer_context(settings: Settings, run_dir: Path, cache_dir: Path,
                  pending: Callable[[str], list[RepairTask]] | None = None, label: str = "") -> FixerContext:
    return FixerContext(settings, run_dir, cache_dir, FakeCorpus(pending), label)


def searchable_dir() -> Iterator[Path]:
    """A temporary directory others may enter (0755), like the harness's own workspaces; removed after."""
    path = Path(tempfile.mkdtemp(prefix="hwrepair-test-"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)
