"""Extraction of the target file from model answers, prompt templates and the output budget."""

from __future__ import annotations

import pytest

from pytest_hwrepair.fixers.base import Attempt, FixerError, RepairTask
from pytest_hwrepair.fixers.llm.text import Templates, extract, output_budget, render

ORIGINAL = "".join(f"int f{i}(int x) {{ return x + {i}; }}\n" for i in range(30))
FIXED = ORIGINAL.replace("x + 7;", "x - 7;")


def task(domain: str = "hls", **kw: object) -> RepairTask:
    base: dict[str, object] = {"case": "k", "bug": "OOB-01", "domain": domain, "suite": "s",
                               "files": {"k.c": ORIGINAL}, "target": "k.c"}
    base.update(kw)
    return RepairTask(**base)  # type: ignore[arg-type]


def test_single_fenced_block_is_the_file() -> None:
    got = extract(f"Fixed:\n\n```c\n{FIXED}```\nThe bug was a sign.", "k.c", ORIGINAL)
    assert got.text == FIXED


def test_block_named_for_the_target_wins_over_a_longer_one() -> None:
    other = ORIGINAL * 2
    raw = f"**harness.c**\n```c\n{other}```\n\n**k.c**\n```c\n{FIXED}```\n"
    got = extract(raw, "k.c", ORIGINAL, ("k.c", "harness.c"))
    assert got.text == FIXED


def test_among_unnamed_blocks_the_one_most_like_the_target_is_chosen() -> None:
    raw = f"The wrong line:\n```c\nreturn x + 7;\n```\nThe whole file:\n```c\n{FIXED}```\n```sh\ngcc k.c\n```"
    assert extract(raw, "k.c", ORIGINAL).text == FIXED


def test_file_tagged_output_is_extracted() -> None:
    raw = f'<file name="k.c">\n{FIXED}</file>'
    assert extract(raw, "k.c", ORIGINAL).text == FIXED


def test_bare_code_after_a_line_of_prose_is_extracted() -> None:
    got = extract("Here it is:\n" + FIXED, "k.c", ORIGINAL)
    assert got.text == FIXED and got.how == "bare code"


def test_prose_without_code_is_a_parse_failure() -> None:
    got = extract("I believe the bug is in f7, which adds instead of subtracting.", "k.c", ORIGINAL)
    assert not got.ok and "no code" in got.error


def test_a_fragment_is_not_taken_for_the_complete_file() -> None:
    got = extract("```c\nint f7(int x) { return x - 7; }\n```", "k.c", ORIGINAL)
    assert not got.ok and "fragment" in got.error


def test_an_answer_cut_off_at_the_output_limit_is_a_parse_failure() -> None:
    got = extract("```c\n" + FIXED[:200], "k.c", ORIGINAL, truncated=True)
    assert not got.ok and "cut off" in got.error


def test_a_unified_diff_is_returned_as_a_diff() -> None:
    diff = "--- a/k.c\n+++ b/k.c\n@@ -8 +8 @@\n-int f7(int x) { return x + 7; }\n+int f7(int x) { return x - 7; }"
    got = extract(f"```diff\n{diff}\n```", "k.c", ORIGINAL)
    assert got.text is None and got.diff == diff + "\n"


def test_hls_prompt_is_the_zero_shot_prompt_of_the_study() -> None:
    text = Templates.load().first_turn(task())
    assert text == ("The following C source file contains bugs. Fix all of them and return the complete "
                    f"corrected file.\n\n```c\n{ORIGINAL}```\n")


def test_cuda_prompt_shows_the_broken_start_error_log() -> None:
    t = task("cuda", files={"k.cu": "__global__ void k() {}\n", "main.cu": "int main() {}\n"}, target="k.cu",
             error_log="k.cu(3): error: identifier undefined")
    text = Templates.load().first_turn(t)
    assert "identifier undefined" in text and "main.cu" in text and "```cuda" in text


def test_spec_only_arm_shows_spec_and_interface_and_no_code() -> None:
    t = task("rtl", files={"m.v": ""}, target="m.v", prompt_kind="spec", spec="A 4-bit counter.",
             interface="module m(input clk);")
    text = Templates.load().first_turn(t)
    assert "A 4-bit counter." in text and "module m(input clk);" in text and "contains bugs" not in text


def test_iterative_history_becomes_alternating_turns_with_feedback() -> None:
    history = (Attempt("int a;", "compile_fail", "error: expected ';'"), Attempt("int b;", "test_fail", ""))
    messages = Templates.load().messages(task(history=history))
    assert [m["role"] for m in messages] == ["user", "assistant", "user", "assistant", "user"]
    assert "expected ';'" in messages[2]["content"] and "Please try again." in messages[4]["content"]


def test_values_are_never_read_as_template_tags() -> None:
    assert render("x {{source}} y", {"source": "{{#spec}}{{2{a}}}{{/spec}}"}) == "x {{#spec}}{{2{a}}}{{/spec}} y"


def test_a_prompt_file_with_an_unknown_placeholder_is_refused(tmp_path: object) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "p.md"
    path.write_text("Fix {{sorce}}\n")
    with pytest.raises(FixerError, match=r"unknown placeholder \{\{sorce\}\}"):
        Templates.load(str(path))


def test_output_budget_follows_the_target_length_within_bounds() -> None:
    assert output_budget(task(files={"k.c": "x"})) == 1024
    assert output_budget(task(files={"k.c": "x" * 100_000})) == 16384
    assert 1024 < output_budget(task(files={"k.c": "x" * 6000})) < 16384


def test_a_prompt_directory_overrides_one_domain_and_changes_the_digest(tmp_path: object) -> None:
    from pathlib import Path

    folder = Path(str(tmp_path))
    (folder / "hls.md").write_text("Repair {{target}}:\n{{source}}\n")
    custom, shipped = Templates.load(str(folder)), Templates.load()
    assert custom.first_turn(task()) == f"Repair k.c:\n{ORIGINAL}"
    assert custom.texts["rtl"] == shipped.texts["rtl"] and custom.digest != shipped.digest
