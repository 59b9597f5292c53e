"""The closed local sandbox: what exists inside a step, what comes back out, and the step's limits."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_hwrepair.sandbox.base import Execution, Limits
from pytest_hwrepair.sandbox.local.sandbox import Cgroups, LocalSandbox, own_path


@pytest.fixture
def ws() -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix="hwrepair-closed-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


def run(ws: Path, argv: str, timeout: float = 30, **limits: object) -> Execution:
    if shutil.which("bwrap") is None:
        pytest.skip("bubblewrap is not installed")
    return LocalSandbox(None, isolate=True).run(ws, argv, timeout=timeout, limits=Limits(**limits))  # type: ignore[arg-type]


def test_only_the_system_the_workspace_tmp_proc_and_dev_exist(ws: Path) -> None:
    ex = run(ws, "ls -A /; echo; ls -A /etc; echo; cat /etc/passwd")
    top, etc, passwd = ex.stdout.split("\n\n")
    allowed = {"bin", "sbin", "lib", "lib32", "lib64", "libx32", "usr", "etc", "proc", "dev", "tmp", "sandbox"}
    assert set(top.split()) <= allowed, top
    assert "shadow" not in etc.split() and "hostname" not in etc.split()
    assert [line.split(":")[0] for line in passwd.splitlines() if line] == ["root", "hwrepair"]


def test_the_checkout_home_and_other_workspaces_are_invisible(ws: Path) -> None:
    here = Path(__file__).resolve()
    other = Path(tempfile.mkdtemp(prefix="hwrepair-ws-"))
    try:
        ex = run(ws, f"cat {here}; ls {other}; ls /root; ls {Path.home()}; ls /tmp")
        assert "closed local sandbox" not in ex.stdout
        assert ex.stdout.strip() == ""  # the private /tmp is empty, every other path is missing
    finally:
        other.rmdir()


def test_proc_shows_only_the_steps_own_processes(ws: Path) -> None:
    ex = run(ws, "ls /proc | grep -E '^[0-9]+$' | wc -l")
    assert int(ex.stdout) < 10, ex.stdout


@pytest.mark.parametrize("tool", ["gcc", "iverilog", "verilator", "yosys", "nvcc"])
def test_every_toolchain_runs_with_the_minimal_etc(ws: Path, tool: str) -> None:
    if shutil.which(tool) is None:
        pytest.skip(f"{tool} is not installed")
    sources = {"gcc": ("t.c", "int main(void){return 0;}", "gcc t.c -o t && ./t"),
               "iverilog": ("t.v", "module t; initial $display(\"ok\"); endmodule", "iverilog -o t t.v && vvp t"),
               "verilator": ("t.v", "module t(input a, output b); assign b = a; endmodule",
                             '"$(command -v verilator_bin || command -v verilator)" --cc t.v -Mdir obj'),
               "yosys": ("t.v", "module t(input a, output b); assign b = ~a; endmodule",
                         "yosys -q -p 'read_verilog t.v; synth -top t; abc; write_rtlil t.il'"),
               "nvcc": ("t.cu", "__global__ void k(float* x){x[0]=1;}\nint main(){return 0;}",
                        "nvcc -arch=sm_80 -c t.cu -o t.o")}
    name, text, cmd = sources[tool]
    (ws / name).write_text(text)
    ex = run(ws, cmd, timeout=120)
    assert ex.returncode == 0, ex.tail()


def test_outputs_come_back_and_links_fifos_and_deep_trees_stay_behind(ws: Path) -> None:
    ex = run(ws, "echo data > out.txt; mkdir -p sub/dir; echo x > sub/dir/f; ln -s /etc/passwd link; "
                 "mkfifo fifo; d=0; while [ $d -lt 40 ]; do mkdir deep; cd deep; d=$((d+1)); done")
    assert ex.returncode == 0, ex.tail()
    assert (ws / "out.txt").read_text() == "data\n" and (ws / "sub" / "dir" / "f").read_text() == "x\n"
    assert not (ws / "link").exists() and not (ws / "link").is_symlink() and not (ws / "fifo").exists()
    assert "link: not a regular file or directory" in ex.stderr
    depth = len((max(ws.rglob("*"), key=lambda p: len(p.parts))).relative_to(ws).parts)
    assert depth <= 24
    shutil.rmtree(ws / "deep")


def test_deleted_files_are_deleted_in_the_workspace(ws: Path) -> None:
    (ws / "gone.txt").write_text("x")
    run(ws, "rm gone.txt")
    assert not (ws / "gone.txt").exists()


def test_the_private_tmp_is_capped(ws: Path) -> None:
    ex = run(ws, "for i in 1 2 3; do head -c 200000000 /dev/zero > /tmp/f$i; done; du -sb /tmp")
    assert "No space left" in ex.stderr
    assert int(ex.stdout.split()[0]) <= 512 << 20


def test_the_workspace_is_capped_by_size_and_copy_back(ws: Path) -> None:
    ex = run(ws, "for i in 1 2 3; do head -c 150000000 /dev/zero > f$i; done; echo small > keep.txt",
             file_size=200 << 20)
    assert (ws / "keep.txt").exists()
    kept = sum(p.stat().st_size for p in ws.iterdir())
    assert kept <= 200 << 20, kept
    assert "over the copy-back limit" in ex.stderr


def test_a_timed_out_step_still_returns_what_it_wrote(ws: Path) -> None:
    ex = run(ws, "echo partial > part.txt; sleep 30", timeout=1)
    assert ex.timed_out
    assert (ws / "part.txt").read_text() == "partial\n"


def test_an_early_exit_with_124_is_not_a_timeout(ws: Path) -> None:
    ex = run(ws, "exit 124", timeout=20)
    assert not ex.timed_out and ex.returncode == 124


@pytest.mark.skipif(os.geteuid() != 0 or Cgroups().kind == "none", reason="needs a writable cgroup hierarchy")
def test_memory_is_limited_for_the_step_as_a_whole(ws: Path) -> None:
    # Each process stays below the per-process address-space limit; together they exceed the step's memory.
    hog = "python3 -c 'import time; b = bytearray(150 << 20); time.sleep(3); print(\"survived\")'"
    ex = run(ws, f"for i in 1 2 3 4; do {hog} & done; wait", memory=400 << 20, timeout=60)
    assert ex.stdout.count("survived") < 4, ex.tail()


def test_cgroup_v2_is_preferred_where_it_has_the_controllers(tmp_path: Path) -> None:
    root = tmp_path / "cg"
    mine = root / "user.slice" / "me"
    mine.mkdir(parents=True)
    (root / "cgroup.controllers").write_text("cpu memory pids\n")
    (mine / "cgroup.subtree_control").write_text("memory pids\n")
    cgroups = Cgroups(root, proc_cgroup="0::/user.slice/me\n")
    assert cgroups.kind == "v2"
    with cgroups.step(123 << 20, 77) as group:
        assert group is not None
        folder = group.dirs[0]
        assert (folder / "memory.max").read_text() == str(123 << 20)
        assert (folder / "pids.max").read_text() == "77"
        (folder / "cgroup.procs").write_text("")


def test_cgroup_v1_is_the_fallback(tmp_path: Path) -> None:
    root = tmp_path / "cg"
    for controller, path in (("memory", "a/b"), ("pids", "")):
        (root / controller / path).mkdir(parents=True)
    cgroups = Cgroups(root, proc_cgroup="4:memory:/a/b\n8:pids:/\n0::/\n")
    assert cgroups.kind == "v1"
    with cgroups.step(64 << 20, 9) as group:
        assert group is not None
        mem, pids = group.dirs
        assert mem.parent == root / "memory" / "a" / "b" and pids.parent == root / "pids"
        assert (mem / "memory.limit_in_bytes").read_text() == str(64 << 20)
        for folder in group.dirs:
            (folder / "cgroup.procs").write_text("")


def test_own_cgroup_paths_are_read_per_controller() -> None:
    text = "12:pids:/x\n4:memory,foo:/y/z\n0::/unified\n"
    assert own_path("pids", text) == "/x" and own_path("memory", text) == "/y/z" and own_path("", text) == "/unified"


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_without_bubblewrap_the_same_transfer_runs_in_a_private_scratch_directory(ws: Path) -> None:
    (ws / "in.txt").write_text("in\n")
    ex = LocalSandbox(None, isolate=False).run(ws, "cat in.txt > out.txt; pwd; ln -s /etc/passwd link",
                                               timeout=20, limits=Limits())
    assert ex.returncode == 0, ex.tail()
    assert (ws / "out.txt").read_text() == "in\n" and not (ws / "link").is_symlink()
    scratch = Path(ex.stdout.strip())
    assert scratch != ws and not scratch.exists()
