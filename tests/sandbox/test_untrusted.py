"""Reading files a candidate wrote: links, FIFOs, devices and huge files never reach the harness."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pytest_hwrepair.sandbox.untrusted import UntrustedFileError, cap_text, read_untrusted


def test_regular_file_is_read(tmp_path: Path) -> None:
    (tmp_path / "out.txt").write_text("hello")
    assert read_untrusted(tmp_path, "out.txt").text == "hello"


def test_symlink_to_a_secret_is_refused(tmp_path: Path) -> None:
    os.symlink("/etc/shadow", tmp_path / "output.data")
    with pytest.raises(UntrustedFileError, match="symbolic link"):
        read_untrusted(tmp_path, "output.data")


def test_symlinked_directory_on_the_way_is_refused(tmp_path: Path) -> None:
    os.symlink("/etc", tmp_path / "d")
    with pytest.raises(OSError):
        read_untrusted(tmp_path, "d/passwd")


def test_fifo_does_not_block(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "output.data")
    with pytest.raises(UntrustedFileError, match="not a regular file"):
        read_untrusted(tmp_path, "output.data")


def test_directory_in_place_of_a_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "output.data").mkdir()
    with pytest.raises(UntrustedFileError):
        read_untrusted(tmp_path, "output.data")


def test_huge_file_is_read_up_to_the_cap(tmp_path: Path) -> None:
    (tmp_path / "big").write_bytes(b"x" * 1000)
    got = read_untrusted(tmp_path, "big", cap=10)
    assert got.text == "x" * 10 and got.dropped == 990 and got.truncated


@pytest.mark.parametrize("name", ["../etc/passwd", "/etc/passwd", ""])
def test_names_outside_the_workspace_are_refused(tmp_path: Path, name: str) -> None:
    with pytest.raises(UntrustedFileError):
        read_untrusted(tmp_path, name)


def test_cap_text_marks_the_cut() -> None:
    assert cap_text("abc", 5) == "abc"
    assert cap_text("abcdef", 3).startswith("abc\n[... output truncated: 3 more bytes")


def test_whole_refuses_a_file_over_the_cap_before_reading(tmp_path: Path) -> None:
    with open(tmp_path / "big", "wb") as fh:
        fh.truncate(200 << 20)
    with pytest.raises(UntrustedFileError, match="has 209715200 bytes, more than the 1024-byte read cap"):
        read_untrusted(tmp_path, "big", cap=1024, whole=True)
    assert read_untrusted(tmp_path, "big", cap=1024).dropped == (200 << 20) - 1024
