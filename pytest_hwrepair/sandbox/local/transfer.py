"""Moving a workspace into a closed step and its results back out, within limits.

A step never sees the host workspace: its files go in as a tar, and what it left comes back as a tar its own
processes could have written. The way back accepts only directories and regular files, at bounded depth, path
length, count and size (links, FIFOs and devices stay behind with a note), so the harness can walk, read and
delete the host workspace without meeting anything a candidate built to trip it up.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import shutil
import stat
import subprocess
import tarfile
import tempfile
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import IO


@dataclass(frozen=True, slots=True)
class CopyLimits:
    """What the way back accepts."""

    total: int = 256 << 20
    files: int = 512
    depth: int = 24
    path: int = 1024


@dataclass
class Accepted:
    """The result of reading a step's archive: what was kept and what was left behind."""

    complete: bool = False
    kept: int = 0
    bytes: int = 0
    skipped: list[str] = field(default_factory=list)
    problem: str | None = None

    def notes(self) -> str:
        """Lines for the step's stderr: what the harness did not copy back, and why."""
        lines = [f"[hwrepair: {item}]" for item in self.skipped[:20]]
        if len(self.skipped) > 20:
            lines.append(f"[hwrepair: ... and {len(self.skipped) - 20} more entries left behind]")
        if self.problem:
            lines.append(f"[hwrepair: {self.problem}]")
        return "".join(f"\n{line}" for line in lines) + ("\n" if lines else "")


def walk(root: Path) -> Iterator[tuple[str, os.stat_result]]:
    """Every entry under root, parents first, without following links and without recursion."""
    stack = [""]
    while stack:
        rel = stack.pop()
        with os.scandir(root / rel if rel else root) as entries:
            for entry in sorted(entries, key=lambda e: e.name):
                name = f"{rel}/{entry.name}" if rel else entry.name
                info = entry.stat(follow_symlinks=False)
                yield name, info
                if stat.S_ISDIR(info.st_mode):
                    stack.append(name)


def pack(root: Path, *, links: bool = False) -> bytes:
    """The workspace as a tar (directories and regular files, and symlinks with `links`; owner-neutral)."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.GNU_FORMAT) as tar:
        for name, info in sorted(walk(root)):
            member = tarfile.TarInfo(name)
            member.mode = info.st_mode & 0o777
            member.mtime = int(info.st_mtime)
            if stat.S_ISDIR(info.st_mode):
                member.type = tarfile.DIRTYPE
                tar.addfile(member)
            elif links and stat.S_ISLNK(info.st_mode):
                member.type, member.linkname = tarfile.SYMTYPE, os.readlink(root / name)
                tar.addfile(member)
            elif stat.S_ISREG(info.st_mode):
                member.size = info.st_size
                with open(root / name, "rb") as fh:
                    tar.addfile(member, fh)
    return buf.getvalue()


def memfd_of(data: bytes, name: str) -> int:
    """An in-memory file holding `data`, positioned at its start (inherited by a child as input)."""
    fd = os.memfd_create(name, 0)
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


def receive(stream: IO[bytes], staging: Path, limits: CopyLimits) -> Accepted:
    """Read a step's archive from `stream` into the empty directory `staging`; never raises for its content.
    Files past the byte budget are read over (the step's tmpfs caps the stream) and left behind."""
    result = Accepted()
    try:
        with tarfile.open(fileobj=stream, mode="r|") as tar:
            for member in tar:
                _accept(tar, member, staging, limits, result)
        result.complete = True
    except (tarfile.TarError, OSError, UnicodeError, ValueError) as exc:
        result.problem = f"the step's workspace could not be copied back ({type(exc).__name__})"
    finally:
        with contextlib.suppress(OSError, ValueError):
            while stream.read(1 << 20):
                pass
    return result


def _accept(tar: tarfile.TarFile, member: tarfile.TarInfo, staging: Path, limits: CopyLimits,
            result: Accepted) -> None:
    rel = PurePosixPath(member.name)
    parts = [p for p in rel.parts if p not in ("", ".")]
    if not parts:
        return
    if rel.is_absolute() or ".." in parts:
        why = "not a path inside the workspace"
    elif len(parts) > limits.depth or len(member.name) > limits.path or any(len(p) > 255 for p in parts):
        why = f"deeper than {limits.depth} levels or a path over {limits.path} characters"
    elif not (member.isdir() or member.isreg()):
        why = "not a regular file or directory"
    elif result.kept >= limits.files:
        why = f"over {limits.files} entries"
    elif member.isreg() and result.bytes + member.size > limits.total:
        why = f"{member.size} bytes, over the copy-back limit of {limits.total} bytes"
    elif not _parents_are_dirs(staging, parts):
        why = "its parent is not a directory"
    else:
        result.kept += 1
        result.bytes += member.size if member.isreg() else 0
        target = staging.joinpath(*parts)
        if member.isdir():
            target.mkdir(exist_ok=True)
            target.chmod(member.mode & 0o755 | 0o700)
        else:
            write_member(tar, member, target, 0o755)
        return
    result.skipped.append(f"{'/'.join(parts)[:120]}: {why}")


def write_member(tar: tarfile.TarFile, member: tarfile.TarInfo, target: Path, modes: int) -> None:
    """Write a regular file of an archive to `target`, never through a link there; mode bits within `modes`."""
    source = tar.extractfile(member)
    assert source is not None
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
    with os.fdopen(fd, "wb") as out:
        shutil.copyfileobj(source, out, 1 << 20)
    target.chmod(member.mode & modes | 0o600)


def _parents_are_dirs(staging: Path, parts: list[str]) -> bool:
    folder = staging
    for part in parts[:-1]:
        folder = folder / part
        if not folder.is_dir() or folder.is_symlink():
            if folder.exists() or folder.is_symlink():
                return False
            folder.mkdir(mode=0o700)
    return True


def copy_tree(source: Path, dest: Path, limit: int | None = None) -> bool:
    """Copy directories and regular files into the directory `dest` (modes and times kept); False if there is
    anything else, or more than `limit` bytes."""
    total = 0
    for name, info in walk(source):
        if stat.S_ISDIR(info.st_mode):
            (dest / name).mkdir()
            continue
        total += info.st_size
        if not stat.S_ISREG(info.st_mode) or (limit is not None and total > limit):
            return False
        shutil.copy2(source / name, dest / name, follow_symlinks=False)
    for name, info in walk(source):  # modes of directories last: a read-only one would refuse its files
        if stat.S_ISDIR(info.st_mode):
            os.chmod(dest / name, stat.S_IMODE(info.st_mode) | 0o700)
    return True


def replace_contents(workspace: Path, staging: Path) -> None:
    """Make the workspace hold exactly what `staging` holds (both on the same filesystem)."""
    for entry in os.scandir(workspace):
        remove(Path(entry.path))
    for entry in os.scandir(staging):
        os.rename(entry.path, workspace / entry.name)
    staging.rmdir()


def _parent_fd(root: Path, parts: tuple[str, ...], *, create: bool = False) -> int | None:
    """An fd of the directory holding `root/parts`, reached without following a link; None when a parent is
    missing or not a real directory (with `create`, missing ones are made)."""
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    for part in parts[:-1]:
        if create:
            with contextlib.suppress(FileExistsError):
                os.mkdir(part, 0o700, dir_fd=fd)
        try:
            nxt = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=fd)
        except OSError:
            os.close(fd)
            return None
        os.close(fd)
        fd = nxt
    return fd


def unlink_inside(root: Path, name: str) -> None:
    """Delete the file `root/name` (a relative path) without following any link on the way."""
    parts = Path(name).parts
    fd = _parent_fd(root, parts)
    if fd is None:
        return  # no such directory (or not a real one): nothing of ours to remove
    try:
        os.unlink(parts[-1], dir_fd=fd)
    except OSError as exc:
        # A directory in its place stays; reading it later is refused.
        if exc.errno not in (errno.ENOENT, errno.EISDIR, errno.EPERM, errno.ENOTDIR):
            raise
    finally:
        os.close(fd)


def move_inside(root: Path, name: str, dest: Path, dest_name: str) -> None:
    """Move whatever is at `root/name` (a link stays a link) to `dest/dest_name`, parents made; no link on the
    way is followed and a missing entry moves nothing. Both must be on one filesystem."""
    src_parts, dest_parts = Path(name).parts, Path(dest_name).parts
    src = _parent_fd(root, src_parts)
    if src is None:
        return
    try:
        dst = _parent_fd(dest, dest_parts, create=True)
        if dst is None:
            return
        try:
            with contextlib.suppress(FileNotFoundError):
                os.rename(src_parts[-1], dest_parts[-1], src_dir_fd=src, dst_dir_fd=dst)
        finally:
            os.close(dst)
    finally:
        os.close(src)


def remove(path: Path) -> None:
    """Delete a file or a tree of any depth and permissions (`rm -rf` walks without recursion)."""
    if not path.is_dir() or path.is_symlink():
        path.unlink(missing_ok=True)
        return
    if subprocess.run(["rm", "-rf", "--", str(path)], stderr=subprocess.DEVNULL, check=False).returncode:
        subprocess.run(["chmod", "-R", "u+rwx", "--", str(path)], stderr=subprocess.DEVNULL, check=False)
        subprocess.run(["rm", "-rf", "--", str(path)], stderr=subprocess.DEVNULL, check=False)


class Receiver:
    """Reads the step's workspace archive on a thread into a staging directory beside the workspace."""

    def __init__(self, stream: IO[bytes], workdir: Path, limits: CopyLimits, *, marked: bool = True) -> None:
        self.stream, self.workdir, self.limits, self.marked = stream, workdir, limits, marked
        self.staging = Path(tempfile.mkdtemp(prefix=".hwrepair-back-", dir=workdir.parent))
        self.started = False
        self.accepted = Accepted(problem="the step ended before its workspace was copied back")
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        # A step's archive follows a 'U' written once its workspace is unpacked; a snapshot is only the archive.
        try:
            self.started = not self.marked or self.stream.read(1) == b"U"
            if self.started:
                self.accepted = receive(self.stream, self.staging, self.limits)
        finally:
            self.stream.close()

    def join(self) -> Accepted:
        self.thread.join()
        return self.accepted

    def apply(self) -> None:
        replace_contents(self.workdir, self.staging)

    def discard(self) -> None:
        remove(self.staging)
