"""The same verdicts from the local and the docker sandbox on a small HLS and RTL case set."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pytest_hwrepair.sandbox.docker import images

docker = pytest.importorskip("docker")

ROOT = Path(__file__).resolve().parents[3]
# Exit-code and output-diff HLS oracles with passes, wrong answers, crashes and a timeout among the
# noop candidates; an RTL design with lint failures, simulation mismatches and the equivalence check.
PARITY_SET = ("cases/hls/mach/spmv_crs", "cases/hls/poly/trmm", "cases/rtl/seq/updown_counter")


@pytest.fixture(scope="module")
def engine() -> Any:
    try:
        client = docker.from_env(timeout=10)
        client.api.ping()
    except Exception as exc:
        where = os.environ.get("DOCKER_HOST") or "the default socket"
        pytest.skip(f"no Docker engine reachable at {where}: {type(exc).__name__}")
    for name in ("hls", "rtl"):
        if not images.exists(client.api, images.image_tag(name)):
            pytest.fail(f"the Docker engine has no {images.image_tag(name)}: run `hwrepair images build` first")
    return client


def run_corpus(paths: list[str], where: Path, sandbox: str) -> dict[tuple[str, str, str], tuple[Any, ...]]:
    run_dir = where / "run"
    cmd = [sys.executable, "-m", "pytest", *paths, "-q", "-p", "no:cacheprovider", "-n", "2",
           "--fixer=reference", "--fixer=noop", "--hwrepair-sandbox", sandbox, "--hwrepair-run", str(run_dir),
           "--hwrepair-cache-dir", str(where / "cache")]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert done.returncode == 1, done.stdout[-3000:] + done.stderr[-3000:]  # noop candidates are rejected
    found = {}
    for line in (run_dir / "samples.jsonl").read_text().splitlines():
        r = json.loads(line)
        found[(r["case"], r["bug"], r["fixer"])] = (r["outcome"], r["category"], r["strong"])
    return found


def test_local_and_docker_give_the_same_outcome_and_category_per_item(engine: Any, tmp_path: Path) -> None:
    paths = [p for p in PARITY_SET if (ROOT / p / "case.toml").is_file()]
    if not paths:
        pytest.skip(f"none of the parity cases is in this checkout: {', '.join(PARITY_SET)}")
    local = run_corpus(paths, tmp_path / "local", "local")
    in_docker = run_corpus(paths, tmp_path / "docker", "docker")
    assert local == in_docker
    categories = {v[1] for v in local.values()}
    assert "pass" in categories and len(categories) >= 3, categories  # the set exercises more than one path
