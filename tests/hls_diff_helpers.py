"""Small HLS cases for the hls-diff tests: copied from tests/data/hls_diff, their strong oracle rewritten."""

from __future__ import annotations

import re
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from pytest_hwrepair.cases.case import Case
from pytest_hwrepair.cases.load import load_case
from pytest_hwrepair.oracles import ORACLES, OracleContext, make_oracle
from pytest_hwrepair.oracles.base import populate
from pytest_hwrepair.sandbox.base import Execution, Limits
from pytest_hwrepair.sandbox.local.sandbox import LocalSandbox
from pytest_hwrepair.verdict import Verdict

DATA = Path(__file__).parent / "data" / "hls_diff"
_STRONG = re.compile(r"\[strong_oracle\]\n.*?\n\n(?=\[\[bug\]\])", re.DOTALL)


def searchable_tmp() -> Iterator[Path]:
    """A world-searchable temporary directory, like the harness's own workspaces (the step uid enters it)."""
    path = Path(tempfile.mkdtemp(prefix="hwrepair-test-"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def make_case(root: Path, name: str, strong: str | None = None, oracle: dict[str, str] | None = None) -> Case:
    """The case `name` under root; `strong` replaces the body of its [strong_oracle] table."""
    folder = root / "cases" / name
    shutil.copytree(DATA / name, folder, dirs_exist_ok=True)
    text = (folder / "case.toml").read_text(encoding="utf-8")
    if strong is not None:
        text = _STRONG.sub(lambda _: f'[strong_oracle]\nkind = "hls-diff"\n{strong.strip()}\n\n', text)
    for key, value in (oracle or {}).items():
        line = f"{key} = {value}"
        text, found = re.subn(rf"(?m)^{key} = .*$", line.replace("\\", "\\\\"), text, count=1)
        if not found:
            text = text.replace("[oracle]\n", f"[oracle]\n{line}\n", 1)
    (folder / "case.toml").write_text(text, encoding="utf-8")
    return load_case(folder / "case.toml", strict=True)


@dataclass
class SpySandbox:
    """The local sandbox, recording the directory and command of every step."""

    inner: LocalSandbox = field(default_factory=LocalSandbox)
    steps: list[tuple[Path, str]] = field(default_factory=list)
    name: str = "spy"

    def run(self, workdir: Path, argv: str, *, timeout: float, limits: Limits) -> Execution:
        self.steps.append((workdir.resolve(), argv))
        return self.inner.run(workdir, argv, timeout=timeout, limits=limits)


def workspace_for(root: Path, case: Case, target: str | None) -> Path:
    """A fresh workspace holding the case's files with `target` as the candidate (default: golden)."""
    ws = Path(tempfile.mkdtemp(prefix="ws-", dir=root))
    ws.chmod(0o755)
    files = {n: case.files[n] for n in case.model.sources}
    if target is not None:
        files[case.target] = target
    populate(ws, case, files)
    return ws


def edited(case: Case, find: str, replace: str) -> str:
    """The golden target with one edit (the snippet must occur exactly once)."""
    text = case.files[case.target]
    assert text.count(find) == 1, f"{find!r} occurs {text.count(find)} times in {case.target}"
    return text.replace(find, replace)


def strong(root: Path, case: Case, target: str | None = None, sandbox: SpySandbox | None = None,
           cache: Path | None = None) -> Verdict:
    """The hls-diff verdict on a candidate target (default: the golden one)."""
    ctx = OracleContext(cache or root / "cache")
    return ORACLES["hls-diff"](case, ctx).check(workspace_for(root, case, target), sandbox or SpySandbox())


def suite(root: Path, case: Case, target: str | None = None, sandbox: SpySandbox | None = None,
          cache: Path | None = None) -> Verdict:
    """The suite oracle's verdict on a candidate target."""
    ctx = OracleContext(cache or root / "cache")
    return make_oracle(case, ctx).check(workspace_for(root, case, target), sandbox or SpySandbox())
