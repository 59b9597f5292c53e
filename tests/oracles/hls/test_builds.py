"""A build is reused only for the same files, command, limits and sandbox, and only as the build left it:
whatever the candidate's program does after its build never reaches the strong oracle's copy."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from pytest_hwrepair.oracles.hls.builds import BuildCache, workspace_key
from pytest_hwrepair.sandbox.base import Command, Execution, Limits
from pytest_hwrepair.sandbox.local.sandbox import LocalSandbox

from ...fakes import searchable_dir
from ...hls_diff_helpers import SpySandbox

LIMITS = Limits()
BUILD = "gcc -O0 main.c -o prog"
MAIN = '#include <stdio.h>\nint main(void) { puts("built"); return 0; }\n'


@pytest.fixture
def tmp_path() -> Iterator[Path]:  # world-searchable, like the harness's own workspaces
    yield from searchable_dir()


def workspace(root: Path, name: str, text: str = MAIN) -> Path:
    ws = root / name
    ws.mkdir()
    ws.chmod(0o755)
    (ws / "main.c").write_text(text)
    return ws


def test_the_same_build_of_the_same_files_is_reused(tmp_path: Path) -> None:
    cache, box = BuildCache(), SpySandbox()
    first = cache.build(box, workspace(tmp_path, "a"), BUILD, timeout=30, limits=LIMITS)
    second_ws = workspace(tmp_path, "b")
    second = cache.build(box, second_ws, BUILD, timeout=30, limits=LIMITS)
    assert first.ex.ok and not first.reused and second.reused and [argv for _, argv in box.steps] == [BUILD]
    assert sorted(p.name for p in second_ws.iterdir()) == ["main.c", "prog"]
    assert os.access(second_ws / "prog", os.X_OK)
    assert box.inner.run(second_ws, "./prog", timeout=10, limits=LIMITS).stdout == "built\n"
    cache.clear()


def test_other_files_another_command_limits_or_sandbox_build_again(tmp_path: Path) -> None:
    cache, box = BuildCache(), SpySandbox()
    cache.build(box, workspace(tmp_path, "a"), BUILD, timeout=30, limits=LIMITS)
    changed = workspace(tmp_path, "b", MAIN.replace("built", "other"))
    assert not cache.build(box, changed, BUILD, timeout=30, limits=LIMITS).reused
    assert not cache.build(box, workspace(tmp_path, "c"), BUILD + " -g", timeout=30, limits=LIMITS).reused
    assert not cache.build(box, workspace(tmp_path, "d"), BUILD, timeout=30, limits=Limits(processes=64)).reused
    assert not cache.build(SpySandbox(), workspace(tmp_path, "e"), BUILD, timeout=30, limits=LIMITS).reused
    mode = workspace(tmp_path, "f")
    (mode / "main.c").chmod(0o600)
    assert not cache.build(box, mode, BUILD, timeout=30, limits=LIMITS).reused
    cache.clear()


def test_a_failed_build_is_never_kept(tmp_path: Path) -> None:
    cache, box = BuildCache(), SpySandbox()
    assert not cache.build(box, workspace(tmp_path, "a", "int main(void) { return }"), BUILD, timeout=30,
                           limits=LIMITS).ex.ok
    assert not cache.build(box, workspace(tmp_path, "b", "int main(void) { return }"), BUILD, timeout=30,
                           limits=LIMITS).reused
    assert len(box.steps) == 2


def test_a_build_slower_than_the_new_deadline_runs_again(tmp_path: Path) -> None:
    cache, box = BuildCache(), SpySandbox()
    cache.build(box, workspace(tmp_path, "a"), BUILD, timeout=30, limits=LIMITS)
    assert not cache.build(box, workspace(tmp_path, "b"), BUILD, timeout=0.0001, limits=LIMITS).reused


def test_a_workspace_with_a_link_is_never_keyed(tmp_path: Path) -> None:
    ws = workspace(tmp_path, "a")
    assert workspace_key(ws, "x") is not None
    (ws / "link").symlink_to("/etc/passwd")
    assert workspace_key(ws, "x") is None


def test_what_the_program_does_after_its_build_is_not_reused(tmp_path: Path) -> None:
    # The candidate's run rewrites its own binary and leaves a file behind; the kept build is the build's.
    cache, box = BuildCache(), SpySandbox()
    ws = workspace(tmp_path, "a")
    cache.build(box, ws, BUILD, timeout=30, limits=LIMITS)
    box.inner.run(ws, "printf '#!/bin/sh\\necho forged\\n' > prog; touch planted", timeout=10, limits=LIMITS)
    again = workspace(tmp_path, "b")
    assert cache.build(box, again, BUILD, timeout=30, limits=LIMITS).reused
    assert sorted(p.name for p in again.iterdir()) == ["main.c", "prog"]
    assert box.inner.run(again, "./prog", timeout=10, limits=LIMITS).stdout == "built\n"
    cache.clear()


def test_only_a_few_builds_are_kept(tmp_path: Path) -> None:
    cache, box = BuildCache(size=2), SpySandbox()
    for n in range(4):
        cache.build(box, workspace(tmp_path, f"w{n}", MAIN.replace("built", f"b{n}")), BUILD, timeout=30,
                    limits=LIMITS)
    kept = [entry[2] for entry in cache.entries.values()]
    assert len(kept) == 2 and all(path.is_dir() for path in kept)
    cache.clear()
    assert not any(path.exists() for path in kept)


def test_a_step_cannot_see_the_kept_builds(tmp_path: Path) -> None:
    cache, box = BuildCache(), SpySandbox()
    cache.build(box, workspace(tmp_path, "a"), BUILD, timeout=30, limits=LIMITS)
    kept = next(iter(cache.entries.values()))[2]
    ex = box.inner.run(workspace(tmp_path, "b"), f"ls {kept} || ls {kept.parent}", timeout=10, limits=LIMITS)
    assert not ex.ok and "prog" not in ex.stdout
    cache.clear()



class Recording(LocalSandbox):
    """The local sandbox, noting the commands of each closed step."""

    name = "recording"

    def __init__(self) -> None:
        super().__init__()
        self.steps: list[list[str]] = []

    def run(self, workdir: Path, argv: str, *, timeout: float, limits: Limits) -> Execution:
        self.steps.append([argv])
        return super().run(workdir, argv, timeout=timeout, limits=limits)

    def run_batch(self, workdir: Path, commands: Sequence[Command], *, timeout: float, limits: Limits,
                  kept: Path | None = None) -> list[Execution]:
        self.steps.append([c.argv for c in commands])
        return super().run_batch(workdir, commands, timeout=timeout, limits=limits, kept=kept)


FORGE = "./prog; printf '#!/bin/sh\\necho forged\\n' > prog; touch planted"


@pytest.mark.parametrize("batches", [True, False], ids=["one step", "one step each"])
def test_a_build_and_its_run_keep_the_build_as_it_left_the_workspace(tmp_path: Path, batches: bool) -> None:
    # The run rewrites the binary and leaves a file (in the same closed step): the kept build is the build's.
    cache, spy = BuildCache(), SpySandbox()
    box: Recording | SpySandbox = Recording() if batches else spy
    ws = workspace(tmp_path, "a")
    done = cache.build_and_run(box, ws, BUILD, FORGE, timeout=30, limits=LIMITS)  # type: ignore[arg-type]
    assert [ex.ok for ex in done] == [True, True] and done[1].stdout == "built\n"
    assert sorted(p.name for p in ws.iterdir()) == ["main.c", "planted", "prog"]
    assert steps(box) == ([[BUILD, FORGE]] if batches else [[BUILD], [FORGE]])
    again = workspace(tmp_path, "b")
    assert cache.build(box, again, BUILD, timeout=30, limits=LIMITS).reused  # type: ignore[arg-type]
    assert sorted(p.name for p in again.iterdir()) == ["main.c", "prog"]
    assert spy.inner.run(again, "./prog", timeout=10, limits=LIMITS).stdout == "built\n"
    # The same files once more: the kept build is restored, and only the run runs.
    done = cache.build_and_run(box, workspace(tmp_path, "c"), BUILD, "./prog", timeout=30,  # type: ignore[arg-type]
                               limits=LIMITS)
    assert [ex.ok for ex in done] == [True, True] and done[1].stdout == "built\n"
    assert steps(box)[-1] == ["./prog"]
    cache.clear()


def steps(box: Recording | SpySandbox) -> list[list[str]]:
    return box.steps if isinstance(box, Recording) else [[argv] for _, argv in box.steps]


def test_a_build_that_fails_with_its_run_is_never_kept(tmp_path: Path) -> None:
    cache, box = BuildCache(), Recording()
    done = cache.build_and_run(box, workspace(tmp_path, "a", "int main(void) { return }"), BUILD, "./prog",
                               timeout=30, limits=LIMITS)
    assert len(done) == 1 and not done[0].ok and not cache.entries
