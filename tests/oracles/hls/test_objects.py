"""Objects of a case's unchanged C files, linked into each candidate's build: same verdicts, never stale."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_hwrepair.cases.case import Case
from pytest_hwrepair.cases.load import load_case
from pytest_hwrepair.oracles import ORACLES, OracleContext, make_oracle
from pytest_hwrepair.oracles.base import OracleOptions
from pytest_hwrepair.oracles.hls.builds import PREFIX, linked_build, parse_build
from pytest_hwrepair.sandbox.base import Limits
from pytest_hwrepair.sandbox.local.sandbox import LocalSandbox
from pytest_hwrepair.verdict import Outcome, Verdict

from ...hls_diff_helpers import SpySandbox, edited, make_case, searchable_tmp, workspace_for


@pytest.fixture
def tmp_path() -> Iterator[Path]:
    yield from searchable_tmp()


def _suite(root: Path, case: Case, ws: Path, sandbox: LocalSandbox) -> Verdict:
    return make_oracle(case, OracleContext(root / "cache")).check(ws, sandbox)


def _link(root: Path, case: Case, ws: Path, sandbox: LocalSandbox | SpySandbox) -> str:
    build = "gcc -O0 clip.c driver.c -o prog"  # the case's build
    return linked_build(case, OracleContext(root / "cache"), sandbox, ws, build, timeout=10,
                        limits=Limits())


def test_the_unchanged_driver_is_compiled_once_and_linked(tmp_path: Path) -> None:
    case = make_case(tmp_path, "clip")
    sandbox = LocalSandbox()
    first = _link(tmp_path, case, workspace_for(tmp_path, case, None), sandbox)
    assert first == f"gcc -O0 clip.c {PREFIX}1_driver.o -o prog"
    kept = sorted((tmp_path / "cache" / "objects").iterdir())
    assert len(kept) == 1 and (tmp_path / "cache" / "objects").stat().st_mode & 0o777 == 0o700
    ws = workspace_for(tmp_path, case, edited(case, "i < n; i++", "i < n - 1; i++"))
    assert _link(tmp_path, case, ws, sandbox) == first  # the target changed: the same object
    assert sorted((tmp_path / "cache" / "objects").iterdir()) == kept
    assert (ws / f"{PREFIX}1_driver.o").read_bytes() == kept[0].read_bytes()


def test_verdicts_are_the_same_with_and_without_objects(tmp_path: Path) -> None:
    case = make_case(tmp_path, "clip", strong="seeds = 2\nsanitize = true")
    wrong = edited(case, "i < n; i++", "i < n - 1; i++")
    oob = edited(case, "    return sum;", "    y[n] = 0;\n    return sum;")
    sandbox = LocalSandbox()
    for target in (None, wrong, oob, None, wrong, oob):
        verdicts = []
        for reuse in (True, False):
            ctx = OracleContext(tmp_path / "cache", options=OracleOptions(reuse_objects=reuse))
            suite = make_oracle(case, ctx).check(workspace_for(tmp_path, case, target), sandbox)
            strong = ORACLES["hls-diff"](case, ctx).check(workspace_for(tmp_path, case, target), sandbox)
            verdicts.append((suite.outcome, suite.summary, strong.outcome, strong.summary.split(":")[0]))
        assert verdicts[0] == verdicts[1]
    objects = tmp_path / "cache" / "objects"
    assert len(list(objects.iterdir())) == 2  # the driver, plain and with the sanitizer


def test_a_changed_header_gets_its_own_object(tmp_path: Path) -> None:
    case = make_case(tmp_path, "clip")
    sandbox = LocalSandbox()
    assert _suite(tmp_path, case, workspace_for(tmp_path, case, None), sandbox).passed
    ws = workspace_for(tmp_path, case, None)
    header = (ws / "clip.h").read_text()
    (ws / "clip.h").write_text(header.replace("#define HI 100", "#define HI 100\n#define N 3"))  # the driver's N
    verdict = _suite(tmp_path, case, ws, sandbox)
    assert verdict.outcome is Outcome.FAILED, verdict.summary  # a stale driver object would still print 8 values
    assert len(list((tmp_path / "cache" / "objects").iterdir())) == 2


def test_a_new_file_in_the_workspace_gets_its_own_object(tmp_path: Path) -> None:
    case = make_case(tmp_path, "clip")
    sandbox = LocalSandbox()
    _link(tmp_path, case, workspace_for(tmp_path, case, None), sandbox)
    ws = workspace_for(tmp_path, case, None)
    (ws / "stdlib.h").write_text("/* would shadow a header included with quotes */\n")
    _link(tmp_path, case, ws, sandbox)
    assert len(list((tmp_path / "cache" / "objects").iterdir())) == 2


def test_a_file_including_the_target_is_never_linked(tmp_path: Path) -> None:
    case = make_case(tmp_path, "clip")
    driver = case.path.parent / "driver.c"
    driver.write_text(driver.read_text().replace(
        '#include "clip.h"', '#define clip clip_in_driver\n#include "clip.h"\n#include "clip.c"'))
    case = load_case(case.path, strict=True)
    ws = workspace_for(tmp_path, case, None)
    assert _link(tmp_path, case, ws, LocalSandbox()) == "gcc -O0 clip.c driver.c -o prog"
    assert not list((tmp_path / "cache" / "objects").glob("*.o"))
    assert not any(name.startswith(PREFIX) for name in os.listdir(ws))
    assert _suite(tmp_path, case, ws, LocalSandbox()).passed


def test_a_changed_driver_is_compiled_afresh(tmp_path: Path) -> None:
    case = make_case(tmp_path, "clip")
    ws = workspace_for(tmp_path, case, None)
    (ws / "driver.c").write_text((ws / "driver.c").read_text() + "\n/* a bug in the driver's file */\n")
    assert _link(tmp_path, case, ws, LocalSandbox()) == "gcc -O0 clip.c driver.c -o prog"


def test_only_the_local_sandbox_and_only_when_asked(tmp_path: Path) -> None:
    case = make_case(tmp_path, "clip")
    ws = workspace_for(tmp_path, case, None)
    assert _link(tmp_path, case, ws, SpySandbox()) == "gcc -O0 clip.c driver.c -o prog"  # another sandbox
    ctx = OracleContext(tmp_path / "cache", options=OracleOptions(reuse_objects=False))
    assert linked_build(case, ctx, LocalSandbox(), ws, "gcc -O0 clip.c driver.c -o prog", timeout=10,
                        limits=Limits()) == "gcc -O0 clip.c driver.c -o prog"


def test_a_name_taken_in_the_workspace_leaves_the_build_alone(tmp_path: Path) -> None:
    case = make_case(tmp_path, "clip")
    ws = workspace_for(tmp_path, case, None)
    (ws / f"{PREFIX}1_driver.o").write_bytes(b"the candidate's own")
    assert _link(tmp_path, case, ws, LocalSandbox()) == "gcc -O0 clip.c driver.c -o prog"
    assert (ws / f"{PREFIX}1_driver.o").read_bytes() == b"the candidate's own"


@pytest.mark.parametrize("build", [
    "gcc -O0 clip.c driver.c -o prog; rm -rf /",
    "gcc -O0 clip.c driver.c -o prog && ./prog",
    "gcc -flto clip.c driver.c -o prog",
    "gcc -include evil.h clip.c driver.c -o prog",
    "gcc -x c clip.c driver.c -o prog",
    "gcc @flags clip.c driver.c -o prog",
    "gcc -I/etc clip.c driver.c -o prog",
    "gcc -I../up clip.c driver.c -o prog",
    "gcc ../clip.c driver.c -o prog",
    "gcc -O0 clip.c driver.c",
    "gcc -O0 clip.c driver.c -o prog -o other",
    "gcc -MD clip.c driver.c -o prog",
    "gcc -save-temps clip.c driver.c -o prog",
    "gcc -fprofile-generate clip.c driver.c -o prog",
    "gcc -O0 clip.c clip.c -o prog",
    "clang -O0 clip.c driver.c -o prog",
    "make prog",
])
def test_builds_other_than_one_plain_gcc_command_are_left_alone(build: str) -> None:
    assert parse_build(build) is None


def test_known_flags_and_libraries_parse() -> None:
    parsed = parse_build("gcc -fsanitize=address,undefined -fno-sanitize-recover=all -O2 -std=c99 -DN=12 -Iinc "
                         "-ftrivial-auto-var-init=pattern -Wall a.c sub/b.c -o prog -lm -Llib")
    assert parsed is not None
    assert parsed.sources == ("a.c", "sub/b.c")
    assert "-lm" not in parsed.flags and "-DN=12" in parsed.flags and "-o" not in parsed.flags


@pytest.mark.skipif(os.geteuid() != 0, reason="steps run under their own uid only when the harness is root")
def test_a_step_cannot_read_the_kept_objects(tmp_path: Path) -> None:
    case = make_case(tmp_path, "clip")
    sandbox = LocalSandbox()
    _link(tmp_path, case, workspace_for(tmp_path, case, None), sandbox)
    folder = tmp_path / "cache" / "objects"
    ex = sandbox.run(workspace_for(tmp_path, case, None), f"ls {folder} || cat {folder}/*.o", timeout=10,
                     limits=Limits())
    assert not ex.ok and ".o" not in ex.stdout
