"""`hwrepair validate`: every rejected bug is listed with its reason, then the counts."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from .conftest import DUMP_C, DUMP_TOML, SUM_C, SUM_TOML, write_case

UNOBSERVABLE = SUM_TOML + """
[[bug]]
id = "USE-01"
type = "USE"
find = "s += i;"
replace = "s = s + i;"
note = "the same sum written differently: not a bug at all"

[[bug]]
id = "INF-01"
type = "INF"
find = "i < 10"
replace = "i < 11"
note = "claims to hang but only miscounts"
"""


def validate(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pytest_hwrepair.cli", "validate", str(root / "cases"), "-j", "2",
                           "--cache-dir", str(root / "cache"), *args],
                          capture_output=True, text=True, cwd=root, check=False)


def test_clean_cases_report_zero_rejected(demo_cases: Path) -> None:
    result = validate(demo_cases)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "2 case files, 3 bugs: 3 accepted, 0 rejected, 0 unverified here" in result.stdout


def test_rejections_name_each_bug_and_reason(tmp_path: Path) -> None:
    write_case(tmp_path, "sum", {"case.toml": UNOBSERVABLE, "sum.c": SUM_C})
    write_case(tmp_path, "dump", {"case.toml": DUMP_TOML, "dump.c": DUMP_C.replace("return 0;", "return 3;")})
    write_case(tmp_path, "bad", {"case.toml": SUM_TOML.replace('find = "i < 10"', 'find = "i<10"'), "sum.c": SUM_C})
    result = validate(tmp_path)
    assert result.returncode == 1
    out = result.stdout
    assert "[USE-01] bug not observable: the buggy version passes" in out
    assert "[INF-01] INF bug does not fail by timeout (fails with test_fail)" in out
    assert "[USE-01] reference fails: [runtime_crash] run exited with status 3" in out
    assert "bad/case.toml [-] case file problem:" in out and "[MLU-01] find: snippet not found" in out
    assert "6 bugs: 2 accepted, 4 rejected" in out
    assert "rejected - bug not observable: 1" in out and "rejected - reference fails: 1" in out


def test_json_output_has_one_object_per_bug(demo_cases: Path) -> None:
    result = validate(demo_cases, "--json")
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 3 and all('"status": "accepted"' in line for line in lines)
