"""HLS outputs are untrusted data: planted links, FIFOs and huge files fail the candidate, unread."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_hwrepair.cases.case import Case
from pytest_hwrepair.oracles.hls.golden import compare_outputs
from pytest_hwrepair.verdict import Category, Outcome, Verdict

from ...hls_diff_helpers import edited, make_case, searchable_tmp, strong, suite


@pytest.fixture
def tmp_path() -> Iterator[Path]:
    yield from searchable_tmp()


SECRET = "TOPSECRET-7f3a"
FILE_OUTPUT = {"build": '"gcc -O0 -DOUT_FILE=\'\\"out.txt\\"\' clip.c driver.c -o prog"', "compare": '"file:out.txt"'}
# Each attack runs when the candidate's program exits, after the driver wrote out.txt.
ATTACKS = {
    "symlink": 'unlink("out.txt"); if (symlink("{secret}", "out.txt")) _exit(9);',
    "fifo": 'unlink("out.txt"); if (mkfifo("out.txt", 0644)) _exit(9);',
    "huge": 'int fd = open("out.txt", O_WRONLY); if (fd < 0 || ftruncate(fd, 200L << 20)) _exit(9);',
    "directory": 'unlink("out.txt"); if (mkdir("out.txt", 0755)) _exit(9);',
}
REFUSALS = {
    "symlink": "output 'out.txt' is a symbolic link, not a regular file; it is not read",
    "fifo": "output 'out.txt' is not a regular file (a FIFO); it is not read",
    "huge": "output 'out.txt' has 209715200 bytes, more than the 8388608-byte read cap; it is not read",
    "directory": "output 'out.txt' is not a regular file (a directory); it is not read",
}


def attacking(case: Case, attack: str, secret: Path) -> str:
    body = ATTACKS[attack].replace("{secret}", str(secret))
    return ("#include <fcntl.h>\n#include <sys/stat.h>\n#include <unistd.h>\n"
            f"__attribute__((destructor)) static void attack(void) {{ {body} }}\n" + case.files[case.target])


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    path = tmp_path / "secret.txt"
    path.write_text(f"{SECRET}\n", encoding="utf-8")
    return path


# The closed sandbox brings back only directories and regular files: a planted link, FIFO or huge file
# may already have stayed behind in the step, and then the output is simply missing.
DROPPED_BY_THE_SANDBOX = "output file 'out.txt' missing"


def assert_refused(verdict: Verdict, attack: str) -> None:
    assert verdict.outcome is Outcome.FAILED and verdict.category is Category.TEST_FAIL, verdict.summary
    assert verdict.summary.endswith(REFUSALS[attack]) or verdict.summary.startswith(DROPPED_BY_THE_SANDBOX) \
        or DROPPED_BY_THE_SANDBOX.removeprefix("output") in verdict.summary, verdict.summary
    assert SECRET not in json.dumps(verdict.to_json())


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_planted_output_fails_the_suite_oracle_unread(tmp_path: Path, secret: Path, attack: str,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    case = make_case(tmp_path, "clip", oracle=FILE_OUTPUT)
    assert suite(tmp_path, case).passed  # the reference comes from the golden build's own out.txt
    read: list[int] = []
    real_read = os.read

    def spy(fd: int, n: int) -> bytes:
        if os.readlink(f"/proc/self/fd/{fd}").endswith(("out.txt", "secret.txt")):
            read.append(n)
        return real_read(fd, n)

    monkeypatch.setattr(os, "read", spy)  # every read, so also the harness's own
    assert_refused(suite(tmp_path, case, attacking(case, attack, secret)), attack)
    assert read == []


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_planted_output_fails_the_strong_oracle_unread(tmp_path: Path, secret: Path, attack: str) -> None:
    case = make_case(tmp_path, "clip", oracle=FILE_OUTPUT, strong="seeds = 2")
    assert strong(tmp_path, case).passed
    verdict = strong(tmp_path, case, attacking(case, attack, secret))
    assert_refused(verdict, attack)
    assert verdict.summary.startswith("seed 1: ")


def test_stale_output_of_an_earlier_seed_is_not_judged(tmp_path: Path) -> None:
    case = make_case(tmp_path, "clip", oracle=FILE_OUTPUT, strong="seeds = 2")
    # Runs only the first time; a later run would leave the first run's out.txt behind.
    lazy = ("#include <fcntl.h>\n#include <unistd.h>\n__attribute__((constructor)) static void lazy(void) "
            '{ if (access("seen", F_OK) == 0) _exit(0); close(creat("seen", 0644)); }\n' + case.files["clip.c"])
    verdict = strong(tmp_path, case, lazy)
    assert verdict.summary == "seed 2: output file 'out.txt' missing"


def test_exit_code_requires_stdout_equal_to_the_golden_run(tmp_path: Path) -> None:
    case = make_case(tmp_path, "selfcheck")
    assert suite(tmp_path, case).passed
    forged = edited(case, 'printf("mismatches = %d\\n", got != want);\n    return got != want;',
                    'printf("mismatches = 0\\n");\n    return 0;')
    bug = edited(case, "i < n; i++", "i <= n; i++")
    verdict = suite(tmp_path, case, forged.replace("i < n; i++", "i <= n; i++"))
    assert verdict.outcome is Outcome.FAILED and verdict.category is Category.TEST_FAIL
    assert verdict.summary == ("stdout differs from the golden run: first mismatch at token 3 (line 1): "
                               "expected '2470', got '2870'")
    assert suite(tmp_path, case, bug).summary == "self-check failed (exit 1)"


def test_exit_code_rejects_a_constructor_printing_the_success_line(tmp_path: Path) -> None:
    case = make_case(tmp_path, "selfcheck")
    fake = ("#include <unistd.h>\n__attribute__((constructor)) static void f(void) "
            '{ printf("mismatches = 0\\n"); fflush(stdout); _exit(0); }\n')
    candidate = edited(case, "#include <stdio.h>\n", "#include <stdio.h>\n" + fake)
    verdict = suite(tmp_path, case, candidate.replace("i < n; i++", "i <= n; i++"))
    assert verdict.outcome is Outcome.FAILED
    assert verdict.summary.startswith("stdout differs from the golden run: first mismatch at token 1")


def test_exit_code_golden_stdout_is_cached(tmp_path: Path) -> None:
    case = make_case(tmp_path, "selfcheck")
    assert suite(tmp_path, case).passed and suite(tmp_path, case).passed
    cached = list((tmp_path / "cache" / "golden").glob("*.txt"))
    assert len(cached) == 1 and json.loads(cached[0].read_text()) == {"run": "sum = 2470\nmismatches = 0\n"}


def test_summary_shows_a_capped_token(tmp_path: Path) -> None:
    case = make_case(tmp_path, "selfcheck")
    long_token = edited(case, 'printf("sum = %ld\\n", got);', 'printf("sum = %ld%0500d\\n", got, 7);')
    verdict = suite(tmp_path, case, long_token)
    assert verdict.outcome is Outcome.FAILED and len(verdict.summary) < 200 and "...'" in verdict.summary


def test_mismatch_in_a_sectioned_output_names_the_section() -> None:
    expected = "@keys i32 3\n1\n2\n3\n@count i32 1\n3\n"
    assert compare_outputs(expected, expected.replace("\n3\n@", "\n4\n@"), 0, 0) == (
        "first mismatch at token 6 (line 4, in @keys): expected '3', got '4'")
    assert compare_outputs(expected, expected.replace("i32 1", "i32 2"), 0, 0) == (
        "first mismatch at token 9 (line 5, in @count): expected '1', got '2'")


@given(st.lists(st.sampled_from(["1", "1.0", "nan", "-inf", "x", "@sec", "0x1p3", " ", "\n", "\t", "  "]), max_size=40),
       st.floats(0, 1), st.floats(0, 1))
def test_an_output_equal_to_the_golden_one_matches_however_it_is_spaced_and_whatever_its_tokens(
        parts: list[str], tol: float, rel: float) -> None:
    text = "".join(parts)
    assert compare_outputs(text, text, tol, rel) is None  # read as the same text, not split
    assert compare_outputs(text, " ".join(text.split()) + "\n", tol, rel) is None  # split and compared token-wise
    if text.split():
        assert compare_outputs(text, text + " extra", tol, rel) == \
            f"output has {len(text.split()) + 1} tokens, the reference has {len(text.split())}"
