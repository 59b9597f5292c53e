"""Reproducible installs: pinned dev and test tools, and the oracle assets shipped inside the package."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from pytest_hwrepair.cases.load import load_case
from pytest_hwrepair.oracles.base import OWN_ASSETS, oracle_assets_dirs, resolve_asset

ROOT = Path(__file__).resolve().parents[2]
CONSTRAINTS = ROOT / ".ci" / "constraints.txt"
CASE = """\
schema = 1
id = "k"
domain = "hls"
suite = "s"
sources = ["k.c"]
target = "k.c"

[oracle]
kind = "exit-code"
build = "gcc k.c -o prog"
run = "./prog"
assets = ["mach/harness.h"]

[[bug]]
id = "OOB-01"
type = "OOB"
find = "return 0;"
replace = "return 1;"
"""


def pins() -> dict[str, str]:
    lines = [line.split("#")[0].strip() for line in CONSTRAINTS.read_text().splitlines()]
    found = [re.fullmatch(r"([A-Za-z0-9_.-]+)==([^\s=]+)", line) for line in lines if line]
    assert all(found), "every constraint pins one exact release"
    return {m[1].lower().replace("_", "-"): m[2] for m in found if m}


def requirement_names(specs: list[str]) -> set[str]:
    return {re.split(r"[<>=!~\[;\s]", spec, maxsplit=1)[0].lower().replace("_", "-") for spec in specs}


def test_every_dev_and_test_tool_has_an_exact_release() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    wanted = requirement_names(extras["dev"] + extras["test"]) - {"pytest-hwrepair"}
    wanted |= {"pytest", "ruff", "mypy", "pytest-xdist", "hypothesis", "pydantic"}  # pydantic: mypy's plugin
    assert wanted <= set(pins()), wanted - set(pins())
    assert "setuptools" not in pins()  # the build environment brings the release pyproject.toml asks for


def test_dev_and_ci_install_with_the_constraints() -> None:
    dev = (ROOT / "dev").read_text()
    assert dev.count('-c "$CONSTRAINTS"') == 2 and "CONSTRAINTS=.ci/constraints.txt" in dev
    assert "./dev setup" in (ROOT / ".ci" / "run").read_text()
    tox = (ROOT / "tox.ini").read_text()
    assert tox.count("-c{toxinidir}/.ci/constraints.txt") == 3 and ">=" not in tox


def test_the_package_ships_every_oracle_asset() -> None:
    shipped = sorted(p.relative_to(OWN_ASSETS) for p in OWN_ASSETS.rglob("*") if p.is_file())
    source = sorted(p.relative_to(ROOT / "oracles") for p in (ROOT / "oracles").rglob("*") if p.is_file())
    assert shipped == source and source


def test_a_case_outside_any_checkout_finds_the_packaged_assets(tmp_path: Path) -> None:
    (tmp_path / "case").mkdir()
    (tmp_path / "case" / "case.toml").write_text(CASE)
    (tmp_path / "case" / "k.c").write_text("int main(void) { return 0; }\n")
    case = load_case(tmp_path / "case" / "case.toml")
    assert oracle_assets_dirs(case) == [OWN_ASSETS.resolve()]
    assert resolve_asset(case, "mach/harness.h").read_bytes() == (ROOT / "oracles" / "mach" / "harness.h").read_bytes()


@pytest.mark.slow
def test_the_wheel_holds_the_oracle_assets_as_files(tmp_path: Path) -> None:
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-q", "-w", str(tmp_path)],
                           capture_output=True, text=True, check=False)
    if built.returncode != 0:
        pytest.skip(f"no wheel could be built here (needs setuptools from an index): {built.stderr[-300:]}")
    (wheel,) = tmp_path.glob("*.whl")
    with zipfile.ZipFile(wheel) as z:
        names = {n for n in z.namelist() if n.startswith("pytest_hwrepair/oracle_assets/")}
    source = {f"pytest_hwrepair/oracle_assets/{p.relative_to(ROOT / 'oracles')}"
              for p in (ROOT / "oracles").rglob("*") if p.is_file()}
    assert names == source
