"""What the gaming tests share: an attack fixer, planted canaries and the containment checks.

Each attack is a candidate (or a `cmd:` agent) that tries to pass without repairing, to read what
it must not, or to take the harness down. A test runs it through pytest (at -n0 and -n 2, in each
sandbox) and then checks three things: the verdict has the right category, no canary planted
outside the workspace appears anywhere in the run directory or the terminal output, and no
process or file of the attack outlives the run.
"""

from __future__ import annotations

import json
import secrets
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data" / "gaming"
XDIST = [pytest.param([], id="n0"), pytest.param(["-n", "2"], id="n2")]
SANDBOXES = [pytest.param("local", id="local"), pytest.param("docker", id="docker")]

ATTACK_CONFTEST = '''
import pathlib

import pytest

from pytest_hwrepair.fixers.base import Candidate


class AttackFixer:
    """Returns the attack as the candidate for every item."""

    deterministic = True

    def __init__(self, text):
        self.text = text
        self.name = "attack"
        self.config = {"fixer": "attack", "text": text}

    def repair(self, task):
        return Candidate(files={task.target: self.text})


@pytest.fixture
def hwrepair_fixer():
    return AttackFixer(pathlib.Path(__file__).with_name("attack.txt").read_text())
'''


@dataclass(frozen=True)
class Canaries:
    """Secrets planted outside every workspace: in pytest's environment and in a file beside the cases."""

    env: str
    file: str
    path: Path
    marker: str

    def fill(self, text: str, **more: str) -> str:
        values = {"CANARY_FILE": str(self.path), "MARKER": self.marker, **more}
        for key, value in values.items():
            text = text.replace(f"@@{key}@@", value)
        return text


@dataclass
class Outcome:
    """One attack run: pytest's result, the records and where the run directory is."""

    result: pytest.RunResult
    run_dir: Path
    records: list[dict[str, Any]]

    @property
    def categories(self) -> list[str]:
        return [r["category"] for r in self.records if r.get("final", True)]


def docker_or_skip(sandbox: str, toolchain: str = "hls") -> None:
    if sandbox != "docker":
        return
    docker = pytest.importorskip("docker")
    try:
        client = docker.from_env(timeout=10)
        client.api.ping()
    except Exception as exc:
        pytest.skip(f"no Docker engine is running ({type(exc).__name__}); scripts/ci_docker.sh starts one in CI")
    from pytest_hwrepair.sandbox.docker.images import exists, image_tag

    if not exists(client.api, image_tag(toolchain)):
        pytest.skip(f"the Docker engine has no {image_tag(toolchain)}: run `hwrepair images build {toolchain}`")


@pytest.fixture
def canaries(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> Canaries:
    """Plants the canaries and gives the run a private TMPDIR, so leftovers can be counted."""
    env = f"sk-canary-env-{secrets.token_hex(8)}"
    file = f"canary-file-{secrets.token_hex(8)}"
    path = pytester.path / "secret.txt"
    path.write_text(file + "\n")
    path.chmod(0o644)
    monkeypatch.setenv("OPENAI_API_KEY", env)
    monkeypatch.setenv("GAMING_CANARY", env)
    tmp = pytester.path / "private-tmp"
    tmp.mkdir()
    tmp.chmod(0o755)
    monkeypatch.setenv("TMPDIR", str(tmp))
    return Canaries(env, file, path, f"{secrets.randbelow(9000) + 1000}.{secrets.randbelow(90) + 10}")


def copy_case(pytester: pytest.Pytester, source: Path, domain: str, suite: str) -> Path:
    """A case copied under the pytester directory; the oracle assets resolve to the repository's."""
    target = pytester.path / "cases" / domain / suite / source.name
    shutil.copytree(source, target)
    return target


def run_attack(pytester: pytest.Pytester, attack: str, xdist: list[str], sandbox: str, *args: str) -> Outcome:
    """Run every item under `cases` with the attack as each candidate."""
    pytester.makeconftest(ATTACK_CONFTEST)
    (pytester.path / "attack.txt").write_text(attack)
    return run_cases(pytester, xdist, sandbox, "--fixer", "reference", *args)


def run_cases(pytester: pytest.Pytester, xdist: list[str], sandbox: str, *args: str) -> Outcome:
    run_dir = pytester.path / f"run-{secrets.token_hex(3)}"
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-p", "no:randomly", "cases",
                                           "--hwrepair-run", str(run_dir), "--hwrepair-sandbox", sandbox,
                                           "--hwrepair-samples", "1", *xdist, *args, timeout=600)
    lines = (run_dir / "samples.jsonl").read_text().splitlines() if (run_dir / "samples.jsonl").exists() else []
    return Outcome(result, run_dir, [json.loads(line) for line in lines])


def assert_contained(outcome: Outcome, canaries: Canaries, pytester: pytest.Pytester) -> None:
    """No canary in the run directory or the terminal, no process or file of the attack left."""
    leaked = [str(p) for p in _files(outcome.run_dir) if _has(p, (canaries.env, canaries.file))]
    assert not leaked, f"canary in {leaked}"
    terminal = outcome.result.stdout.str() + outcome.result.stderr.str()
    assert canaries.env not in terminal and canaries.file not in terminal
    assert not surviving(canaries.marker), surviving(canaries.marker)
    tmp = pytester.path / "private-tmp"
    left = sorted(p.name for p in tmp.iterdir()) if tmp.exists() else []
    assert not [n for n in left if "hwrepair" in n], left


def _files(root: Path) -> list[Path]:
    return [p for p in root.rglob("*") if p.is_file() and not p.is_symlink()] if root.exists() else []


def _has(path: Path, needles: tuple[str, ...]) -> bool:
    data = path.read_bytes()
    return any(n.encode() in data for n in needles)


def surviving(marker: str) -> list[str]:
    """Processes whose command line holds the marker (attacks run `sleep MARKER`)."""
    out = subprocess.run(["ps", "-eo", "pid,args"], capture_output=True, text=True, check=True).stdout
    return [line for line in out.splitlines() if marker in line and "ps -eo" not in line]


def one_category(outcome: Outcome) -> str:
    cats = outcome.categories
    assert len(cats) == 1, (cats, outcome.result.stdout.str()[-3000:])
    return cats[0]
