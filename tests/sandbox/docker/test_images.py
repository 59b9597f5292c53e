"""The docker sandbox's pure parts: recipe tags, build contexts, workspace transfer, seccomp, owners."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import tarfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_hwrepair.sandbox.docker import images
from pytest_hwrepair.sandbox.docker.agent import changes, decode_meta, encode_meta
from pytest_hwrepair.sandbox.docker.engine import DockerSandboxError, owner_alive, owner_label, seccomp_profile
from pytest_hwrepair.sandbox.docker.sandbox import apply_changes
from pytest_hwrepair.sandbox.local.transfer import pack


@pytest.fixture
def recipes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A private copy of the package's recipes that a test may edit."""
    copy = tmp_path / "docker"
    shutil.copytree(images.RECIPES, copy)
    monkeypatch.setattr(images, "RECIPES", copy)
    images.recipe_hash.cache_clear()
    yield copy
    images.recipe_hash.cache_clear()


def tags() -> dict[str, str]:
    images.recipe_hash.cache_clear()
    return {name: images.image_tag(name) for name in images.PARENTS}


def test_tags_are_a_hash_of_the_recipe(recipes: Path) -> None:
    before = tags()
    assert before == tags()
    assert all(tag.startswith(f"{images.REPOSITORY}/{name}:") for name, tag in before.items())
    with (recipes / "hls" / "Dockerfile").open("a") as fh:
        fh.write("# another line\n")
    after = tags()
    assert after["base"] == before["base"]
    assert all(after[name] != before[name] for name in ("hls", "rtl", "cuda"))


def test_caches_and_hidden_files_are_not_part_of_a_recipe(recipes: Path) -> None:
    before = tags()
    (recipes / "base" / "__pycache__").mkdir()
    (recipes / "base" / "__pycache__" / "x.pyc").write_bytes(b"\0")
    (recipes / "base" / ".notes").write_text("scratch")
    assert tags() == before


def test_the_build_context_is_exactly_the_recipe() -> None:
    with tarfile.open(fileobj=images.context_tar("rtl")) as tar:
        names = tar.getnames()
    assert names == [rel for rel, _ in images.recipe_files("rtl")] == ["Dockerfile"]


def test_every_recipe_builds_on_its_parent_by_build_argument() -> None:
    for name, parent in images.PARENTS.items():
        text = (images.RECIPES / name / "Dockerfile").read_text()
        assert ("FROM ${ROOT}" if parent is None else "FROM ${BASE}") in text


def test_a_chain_lists_parents_first_and_once() -> None:
    assert images.chain(["rtl", "cuda"]) == ["base", "hls", "rtl", "cuda"]
    assert images.chain(["hls"]) == ["base", "hls"]


def test_an_unknown_image_is_an_error() -> None:
    with pytest.raises(images.ImageError, match="no image 'vhdl'"):
        images.chain(["vhdl"])


def test_the_seccomp_profile_denies_namespaces_and_allows_personality() -> None:
    profile = json.loads(seccomp_profile("x86_64"))
    denied = {n for rule in profile["syscalls"] if "args" not in rule for n in rule["names"]}
    assert {"unshare", "setns", "mount", "bpf", "keyctl", "userfaultfd"} <= denied
    assert "personality" not in denied
    clone_masks = {rule["args"][0]["value"] for rule in profile["syscalls"] if rule["names"] == ["clone"]}
    assert 0x10000000 in clone_masks  # CLONE_NEWUSER
    assert profile["defaultAction"] == "SCMP_ACT_ALLOW"
    assert "SCMP_ARCH_X86" in profile["architectures"]


def test_the_workspace_round_trips_through_a_tar(tmp_path: Path) -> None:
    source = tmp_path / "src"
    (source / "sub").mkdir(parents=True)
    (source / "a.c").write_text("int x;\n")
    (source / "sub" / "run.sh").write_text("echo\n")
    (source / "sub" / "run.sh").chmod(0o755)
    target = tmp_path / "dst"
    target.mkdir()
    apply_changes(target, pack(source, links=True), [])
    assert (target / "a.c").read_text() == "int x;\n"
    assert (target / "sub" / "run.sh").stat().st_mode & 0o111


def test_deleted_paths_leave_the_workspace(tmp_path: Path) -> None:
    (tmp_path / "gone.txt").write_text("x")
    (tmp_path / "dir").mkdir()
    (tmp_path / "dir" / "f").write_text("y")
    apply_changes(tmp_path, b"", ["dir", "dir/f", "gone.txt"])
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", ["../escape", "/etc/passwd", "a/../../b"])
def test_paths_outside_the_workspace_are_refused(tmp_path: Path, name: str) -> None:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        info = tarfile.TarInfo(name)
        info.size = 1
        tar.addfile(info, io.BytesIO(b"x"))
    with pytest.raises(DockerSandboxError, match=r"unsafe path|outside the workspace"):
        apply_changes(tmp_path / "ws", buf.getvalue(), [])


def test_a_symlink_in_the_workspace_is_replaced_not_followed(tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("keep")
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "out.txt").symlink_to(outside)
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        info = tarfile.TarInfo("out.txt")
        info.size = 3
        tar.addfile(info, io.BytesIO(b"new"))
    apply_changes(ws, buf.getvalue(), [])
    assert outside.read_text() == "keep"
    assert not (ws / "out.txt").is_symlink() and (ws / "out.txt").read_text() == "new"


def test_the_agent_copies_back_only_new_and_changed_files() -> None:
    before = {"a.c": (1, 10, 5, 0o644), "prog": (1, 100, 5, 0o755), "old": (1, 1, 5, 0o644), "d": (0, 0, 5, 0o755)}
    after = {"a.c": (1, 10, 5, 0o644), "prog": (1, 200, 9, 0o755), "new": (1, 5, 9, 0o644),
             "huge": (1, 10**9, 9, 0o644), "link": (2, 3, 9, 0o777), "d": (0, 0, 5, 0o755)}
    copy, deleted, skipped = changes(before, after, limit=1 << 20)
    assert copy == ["new", "prog"]
    assert deleted == ["old"]
    assert skipped == [f"{10**9}\thuge", "-1\tlink"]


def test_agent_metadata_round_trips() -> None:
    meta = {"argv": "gcc -o prog a.c && ./prog 'x=y'", "timeout": "5.000", "empty": ""}
    assert decode_meta(encode_meta(meta)) == meta


def test_an_owner_is_alive_until_its_process_exits() -> None:
    assert owner_alive(owner_label())
    done = subprocess.Popen(["true"])
    done.wait()
    assert not owner_alive(owner_label().split(":")[0] + f":{done.pid}:0")
    assert owner_alive(f"another-host:{done.pid}:0")  # not ours to judge


def test_docker_without_an_engine_is_a_usage_error(pytester: pytest.Pytester, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DOCKER_HOST", f"unix://{tmp_path}/no-engine.sock")
    result = pytester.runpytest_subprocess("--hwrepair-sandbox", "docker", "-p", "no:cacheprovider",
                                           "--hwrepair-run", str(tmp_path / "run"))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--hwrepair-sandbox docker: no Docker engine answers at unix://*"])


def test_the_docker_options_are_documented_in_help(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest_subprocess("--help")
    result.stdout.fnmatch_lines(["*--hwrepair-docker-mode={worker,sample}*", "*--hwrepair-docker-cpus=N*",
                                 "*--hwrepair-docker-timeout=SECONDS*"])
