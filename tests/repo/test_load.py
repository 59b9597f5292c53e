"""Repository case files: loading, one-line errors, the two-sided check, the schema and the stats tables."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_hwrepair.cases.load import json_schema, load_case
from pytest_hwrepair.verdict import CaseError

DEMO = Path(__file__).parents[1] / "data" / "repo_demo"
needs_iverilog = pytest.mark.skipif(shutil.which("iverilog") is None, reason="needs iverilog")


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    folder = tmp_path / "cases" / "rtl" / "repo" / "demo"
    shutil.copytree(DEMO, folder)
    return folder


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def error_of(folder: Path, strict: bool = False) -> str:
    with pytest.raises(CaseError) as info:
        load_case(folder / "case.toml", strict=strict)
    return str(info.value)


def test_snapshot_is_the_tree_with_the_gold_patch_reversed(demo: Path) -> None:
    case = load_case(demo / "case.toml", strict=True)
    assert case.repo is not None
    snapshot = case.buggy_files(case.bug("LOGIC-01"))
    assert "a + 2'd2" in snapshot["rtl/counter.v"] and "a + 1'b1" in case.repo.tree["rtl/counter.v"]
    assert {k: v for k, v in snapshot.items() if k != "rtl/counter.v"} == \
        {k: v for k, v in case.repo.tree.items() if k != "rtl/counter.v"}
    assert case.target == "README.md" and case.bug("WIDTH-01").class_ == "repo"


def test_a_changed_issue_text_changes_the_case_digest(demo: Path) -> None:
    before = load_case(demo / "case.toml").digest
    (demo / "issues" / "LOGIC-01.md").write_text("something else\n")
    assert load_case(demo / "case.toml").digest != before


@pytest.mark.parametrize("change, message", [
    (("patches/LOGIC-01.diff", "+    assign y = a + 1'b1;", "+    assign y = a + 1'b0;"),
     "[LOGIC-01] patch: does not reverse-apply to the tree: rtl/counter.v: hunk 1 (@@ -3) does not apply"),
    (("patches/LOGIC-01.diff", "--- a/rtl/counter.v\n+++ b/rtl/counter.v", "--- a/../x.v\n+++ b/../x.v"),
     "[LOGIC-01] patch: path '../x.v' is not a relative path inside the repository"),
    (("case.toml", 'f2p = ["counter", "top"]', 'f2p = ["counter", "nosuch"]'),
     "[LOGIC-01] f2p: test 'nosuch' is not declared"),
    (("case.toml", 'p2p = ["pulse"]', 'p2p = ["pulse", "top"]'), "[LOGIC-01] p2p: test 'top' is also listed in f2p"),
    (("case.toml", 'id = "LOGIC-01"', 'id = "OOPS-01"'), "[OOPS-01] id: type 'OOPS' is not one of XMOD"),
    (("case.toml", 'issue = "issues/LOGIC-01.md"', 'issue = "../../../../etc/passwd"'),
     "[LOGIC-01] issue: '../../../../etc/passwd' points outside the case directory"),
    (("case.toml", 'testbenches = ["tb"]', 'testbenches = ["bench"]'), "testbenches: 'bench' names no file"),
    (("case.toml", 'name = "pulse"', 'name = "top"'), "test: duplicate test name 'top'"),
])
def test_broken_repository_cases_are_one_line_errors(demo: Path, change: tuple[str, str, str], message: str) -> None:
    edit(demo / change[0], change[1], change[2])
    text = error_of(demo)
    assert message in text and "\n" not in text and text.startswith(str(demo / "case.toml"))


def test_a_gold_patch_may_not_touch_the_testbenches(demo: Path) -> None:
    (demo / "patches" / "LOGIC-01.diff").write_text(
        "--- a/tb/tb_pulse.v\n+++ b/tb/tb_pulse.v\n@@ -1 +1 @@\n-// old\n+`timescale 1ns/1ps\n")
    assert "touches the harness-owned testbench path 'tb/tb_pulse.v'" in error_of(demo)


def test_links_in_the_tree_are_refused(demo: Path) -> None:
    (demo / "tree" / "rtl" / "secret.v").symlink_to("/etc/passwd")
    assert "tree: 'rtl/secret.v' is not a regular file" in error_of(demo)


def test_unknown_keys_warn_and_fail_under_strict(demo: Path) -> None:
    edit(demo / "case.toml", 'note = "incr adds two"', 'note = "incr adds two"\nseverity = 3')
    with pytest.warns(UserWarning, match=r"\[LOGIC-01\] severity: unknown field"):
        load_case(demo / "case.toml")
    assert "[LOGIC-01] severity: unknown field" in error_of(demo, strict=True)


def test_schema_offers_the_repository_kind() -> None:
    schema = json_schema()
    assert {"$ref": "#/$defs/RepoCaseModel"} in schema["oneOf"]
    repo = schema["$defs"]["RepoCaseModel"]
    assert repo["additionalProperties"] is False
    assert {"kind", "tree", "testbenches", "test", "bug"} <= set(repo["properties"])
    assert {"issue", "patch", "f2p", "p2p"} <= set(schema["$defs"]["RepoBug"]["properties"])
    out = subprocess.run([sys.executable, "-m", "pytest_hwrepair.cli", "schema"], capture_output=True, text=True,
                         check=True).stdout
    assert "RepoCaseModel" in json.loads(out)["$defs"]


def validate(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pytest_hwrepair.cli", "validate", str(root / "cases"), "-j", "2",
                           "--cache-dir", str(root / "cache")], capture_output=True, text=True, check=False)


@needs_iverilog
def test_validate_accepts_two_sided_instances(demo: Path) -> None:
    result = validate(demo.parents[3])
    assert result.returncode == 0, result.stdout + result.stderr
    assert "1 case files, 2 bugs: 2 accepted, 0 rejected" in result.stdout


@needs_iverilog
@pytest.mark.parametrize("old, new, reason", [
    ('f2p = ["counter", "top"]\np2p = ["pulse"]', 'f2p = ["counter", "top", "pulse"]\np2p = []',
     "[LOGIC-01] F2P test passes on the snapshot: pulse"),
    ('f2p = ["top"]\np2p = ["counter", "pulse"]', 'f2p = ["counter"]\np2p = ["top", "pulse"]',
     "[WIDTH-01] F2P test passes on the snapshot: counter"),
    ('f2p = ["counter", "top"]\np2p = ["pulse"]', 'f2p = ["counter"]\np2p = ["pulse", "top"]',
     "[LOGIC-01] P2P test fails on the snapshot: top (fail)"),
])
def test_validate_rejects_instances_that_are_not_two_sided(demo: Path, old: str, new: str, reason: str) -> None:
    edit(demo / "case.toml", old, new)
    result = validate(demo.parents[3])
    assert result.returncode == 1 and reason in result.stdout, result.stdout


@needs_iverilog
def test_a_test_without_trace_lines_on_the_fixed_tree_is_a_harness_error(demo: Path) -> None:
    edit(demo / "tree" / "tb" / "tb_pulse.v", '$display("TRACE %0d d=%0d rise=%0d", i, d, rise);', "")
    result = validate(demo.parents[3])
    assert "harness error on reference" in result.stdout and "prints no TRACE lines" in result.stdout


def test_stats_prints_the_repository_tables(demo: Path) -> None:
    out = subprocess.run([sys.executable, "-m", "pytest_hwrepair.cli", "stats", str(demo)], capture_output=True,
                         text=True, check=True).stdout
    assert "| demo | 3 | 4 | 54 | 2 | 1/1.5/2 | 1/1.5/2 | 1 | 1 | 0 | LOGIC 1 WIDTH 1 |" in out
    assert "| demo | WIDTH-01 | WIDTH | 2 | 2 | 2 | T2 | 1 | 2 |" in out


def test_a_design_case_cannot_borrow_the_repository_oracle(tmp_path: Path) -> None:
    # rtl-repo judges repository snapshots only: a design case naming it is a one-line case error.
    (tmp_path / "case.toml").write_text('schema = 1\nid = "x"\ndomain = "rtl"\nsuite = "s"\nsources = ["a.v"]\n'
                                        'target = "a.v"\nspec = "a.md"\n[oracle]\nkind = "rtl-repo"\n'
                                        '[[bug]]\nid = "OP-01"\nclass = "behavioural"\nfind = "a"\nreplace = "b"\n')
    message = error_of(tmp_path)
    assert "oracle.kind: 'rtl-repo' is not one of" in message and "rtl-repo," not in message
