"""Unified diffs over file sets: round trips, foreign headers, offsets, and diffs that try to leave the tree."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_hwrepair.repo.patch import PatchError, apply, check_path, hunk_count, parse, reverse, write

LINE = st.sampled_from(["a\n", "b\n", "c\n", "module m;\n", "endmodule\n", "\n", "x", "\f\n"])
TEXT = st.lists(LINE, max_size=12).map("".join)
FILESET = st.dictionaries(st.sampled_from(["rtl/a.v", "rtl/b.v", "tb/t.v", "README.md"]), TEXT, max_size=4)


@settings(max_examples=200, deadline=None)
@given(FILESET, FILESET)
def test_written_diff_applies_and_reverses(before: dict[str, str], after: dict[str, str]) -> None:
    diff = write(before, after)
    if before == after:
        assert diff == ""
        return
    patches = parse(diff)
    assert apply(before, patches) == after
    assert apply(after, reverse(patches)) == before


def test_git_and_diff_ruN_headers_both_read(tmp_path: Path) -> None:
    left, right = tmp_path / "left", tmp_path / "right"
    for root, text in ((left, "one\ntwo\nthree\n"), (right, "one\n2\nthree\n")):
        (root / "rtl").mkdir(parents=True)
        (root / "rtl" / "x.v").write_text(text)
    (right / "rtl" / "new.v").write_text("module n;\nendmodule\n")
    proc = subprocess.run(["diff", "-ruN", "left", "right"], cwd=tmp_path, capture_output=True, text=True,
                          check=False)
    files = {"rtl/x.v": "one\ntwo\nthree\n"}
    # diff -ruN writes timestamps after a tab and `left/`, `right/` prefixes.
    assert apply(files, parse(proc.stdout)) == {"rtl/x.v": "one\n2\nthree\n", "rtl/new.v": "module n;\nendmodule\n"}
    git = "diff --git a/rtl/x.v b/rtl/x.v\nindex 1..2 100644\n--- a/rtl/x.v\n+++ b/rtl/x.v\n@@ -2 +2 @@\n-two\n+2\n"
    assert apply(files, parse(git))["rtl/x.v"] == "one\n2\nthree\n"


def test_hunk_moves_to_its_nearest_clean_match() -> None:
    files = {"f.v": "".join(f"l{i}\n" for i in range(20))}
    diff = "--- a/f.v\n+++ b/f.v\n@@ -3,3 +3,3 @@\n l12\n-l13\n+X\n l14\n"
    assert "l12\nX\nl14\n" in apply(files, parse(diff))["f.v"]


def test_a_hunk_that_does_not_match_names_file_and_hunk() -> None:
    diff = "--- a/f.v\n+++ b/f.v\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n"
    with pytest.raises(PatchError, match=r"f.v: hunk 1 \(@@ -1\) does not apply"):
        apply({"f.v": "one\nTWO\n"}, parse(diff))


def test_missing_newline_at_end_of_file_round_trips() -> None:
    before, after = {"f.v": "a\nb"}, {"f.v": "a\nc"}
    diff = write(before, after)
    assert "\\ No newline at end of file" in diff
    assert apply(before, parse(diff)) == after


@pytest.mark.parametrize("path", ["../secret", "/etc/passwd", "a/../../b", "rtl\\x.v", "", "rtl/\x00x"])
def test_paths_outside_the_tree_are_refused(path: str) -> None:
    with pytest.raises(PatchError, match="not a relative path inside the repository"):
        check_path(path)
    with pytest.raises(PatchError):
        parse(f"--- {path}\n+++ {path}\n@@ -1 +1 @@\n-a\n+b\n")


@pytest.mark.parametrize("text, message", [
    ("just prose", "not a unified diff"),
    ("@@ -1 +1 @@\n-a\n+b\n", "hunk without its ---/\\+\\+\\+ file header"),
    ("--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n", "ends early"),
    ("--- a/x\n+++ b/y\n@@ -1 +1 @@\n-a\n+b\n", "renames are not supported"),
    ("--- a/x\n+++ b/x\n@@ bogus @@\n", "malformed hunk header"),
])
def test_malformed_diffs_are_one_line_errors(text: str, message: str) -> None:
    with pytest.raises(PatchError, match=message):
        parse(text)


def test_creating_an_existing_file_or_changing_a_missing_one_fails() -> None:
    create = "--- /dev/null\n+++ b/x.v\n@@ -0,0 +1 @@\n+a\n"
    with pytest.raises(PatchError, match="creates a file that already exists"):
        apply({"x.v": "a\n"}, parse(create))
    with pytest.raises(PatchError, match="changes a file that does not exist"):
        apply({}, parse("--- a/x.v\n+++ b/x.v\n@@ -1 +1 @@\n-a\n+b\n"))


def test_hunk_count_uses_three_lines_of_context() -> None:
    before = "".join(f"l{i}\n" for i in range(30))
    near = before.replace("l3\n", "X\n").replace("l6\n", "Y\n")
    far = before.replace("l3\n", "X\n").replace("l20\n", "Y\n")
    assert (hunk_count(before, before), hunk_count(before, near), hunk_count(before, far)) == (0, 1, 2)
