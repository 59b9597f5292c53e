"""Builds not run again: a candidate's whole build within a process, and objects of unchanged C files across runs.

Whole builds: the hls-diff strong oracle builds a candidate with the suite oracle's command, from the same files,
moments after the suite oracle did (whose build is copied back apart: a batch's snapshot, sandbox/base.py). A
successful build is kept, its Execution and the workspace after it, keyed by the content hash of everything the
workspace held before it (paths, modes, bytes), the command, the limits and the sandbox; a later build of that
key, whose deadline the kept one met, gets that workspace back. A few copies at most, in a 0700 scratch directory
no step sees; a workspace holding anything but directories and regular files is never keyed.

Objects: a build that is one plain gcc command (`gcc FLAGS a.c tb.c -o prog -lm`, only flags known here) links
an object of each C file the workspace holds exactly as the case has it (never the target): `gcc FLAGS a.c
hwrepair_obj_1_tb.o -o prog -lm`. An object is keyed by the compiler (path, size, time, version), the flags, the
file's name and the bytes of every workspace file but those compiled afresh. It is compiled in a closed step in
a copy of the workspace made before anything of the candidate ran, with `-MMD`: one whose dependencies name a
file compiled afresh, outside the workspace or unreadable is never kept. Objects live under the cache directory
(0700). Only the local sandbox links them (its steps run the host's compiler, the one the key names);
`--hwrepair-no-object-reuse` turns this off.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import stat
import subprocess
import tempfile
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

from ...cases.case import Case
from ...sandbox import scratch
from ...sandbox.base import SNAPSHOT, Command, Execution, Limits, Sandbox, run_commands
from ...sandbox.local import transfer
from ...sandbox.local.sandbox import LocalSandbox
from ...sandbox.local.transfer import remove, walk
from ..base import OracleContext, content_hash, remove_tree, resolve_asset

KEPT = 4
MAX_BYTES = 32 << 20  # a workspace larger than this before or after its build is not kept
COMPILERS = frozenset({"gcc", "cc"})
PREFIX = "hwrepair_obj_"
MAX_OBJECT = 16 << 20
# Compile flags whose meaning does not depend on compiling the files together; anything else (-flto,
# -include, -x, -MD, @file, a two-word option) leaves the build as it is.
_COMPILE = re.compile(r"-(?:O[0-3sgz]?|std=[\w+]+|g[0-3]?|w|W[\w=+,-]+|pedantic(?:-errors)?|ansi|pthread"
                      r"|D\w+(?:=[\w.+-]*)?|U\w+|I(?!/)(?:[\w+-]+/?)+|m[\w=+,.-]+"
                      r"|f(?!lto|whole-program|profile|auto-profile|branch-probabilities|dump|coverage|test-coverage"
                      r"|save|plugin)[\w=+,.-]+)")
_LINK = re.compile(r"-(?:l[\w+.-]+|L(?!/)(?:[\w+-]+/?)+)")
_SOURCE = re.compile(r"(?:[\w+-][\w.+-]*/)*[\w+-][\w.+-]*\.c")
_NAME = re.compile(r"[\w.+-]+")
_REFUSED: set[str] = set()


@dataclass(frozen=True, slots=True)
class Built:
    ex: Execution
    reused: bool = False


class BuildCache:
    """The last few successful builds of this process."""

    def __init__(self, size: int = KEPT) -> None:
        self.size = size
        # key -> (the sandbox that built it, its Execution, the kept workspace); a build is only ever reused
        # through the very sandbox that ran it.
        self.entries: OrderedDict[str, tuple[Sandbox, Execution, Path]] = OrderedDict()

    def build(self, sandbox: Sandbox, workspace: Path, argv: str, *, timeout: float, limits: Limits,
              keep: bool = True) -> Built:
        """Run `argv` as the build step in `workspace`, or restore the workspace a same build left; `keep`
        False for a build that only takes one (nothing later builds those files again)."""
        key = workspace_key(workspace, sandbox.name, argv, repr(limits))
        hit = self._restored(key, sandbox, timeout, workspace)
        if hit is not None:
            return Built(hit, reused=True)
        ex = sandbox.run(workspace, argv, timeout=timeout, limits=limits)
        if keep and key is not None and ex.ok:
            self._keep(key, sandbox, ex, workspace)
        return Built(ex)

    def build_and_run(self, sandbox: Sandbox, workspace: Path, argv: str, run: str, *, timeout: float,
                      limits: Limits) -> list[Execution]:
        """`build`, then `run` in the workspace it built (one Execution each, up to the first that failed): one
        closed step where the sandbox runs batches, the built workspace copied back apart to be kept."""
        key = workspace_key(workspace, sandbox.name, argv, repr(limits))
        hit = self._restored(key, sandbox, timeout, workspace)
        if hit is not None:
            return [hit, sandbox.run(workspace, run, timeout=timeout, limits=limits)]
        kept = Path(tempfile.mkdtemp(prefix=".hwrepair-kept-", dir=workspace.parent))
        try:
            done = run_commands(sandbox, workspace, [Command(argv, snapshot=True), Command(run)], timeout=timeout,
                                limits=limits, kept=kept)
            shot = kept / SNAPSHOT.format(1)
            if key is not None and done and done[0].ok and shot.is_dir():
                self._keep(key, sandbox, done[0], shot)
            return done
        finally:
            remove(kept)

    def _restored(self, key: str | None, sandbox: Sandbox, timeout: float, workspace: Path) -> Execution | None:
        """The kept build of this key made through this sandbox within `timeout`, its workspace restored."""
        hit = self.entries.get(key) if key is not None else None
        if hit is None or hit[0] is not sandbox or hit[1].duration > timeout:
            return None
        self.entries.move_to_end(key)  # type: ignore[arg-type]
        restore_tree(hit[2], workspace)
        return hit[1]

    def _keep(self, key: str, sandbox: Sandbox, ex: Execution, workspace: Path) -> None:
        copy = scratch.make("hwrepair-build-")
        if not copy_tree(workspace, copy):
            remove(copy)
            return
        old = self.entries.pop(key, None)
        if old is not None:
            remove(old[2])
        self.entries[key] = (sandbox, ex, copy)
        while len(self.entries) > self.size:
            remove(self.entries.popitem(last=False)[1][2])

    def clear(self) -> None:
        while self.entries:
            remove(self.entries.popitem()[1][2])


def workspace_key(workspace: Path, *parts: str, unread: frozenset[str] = frozenset()) -> str | None:
    """The content hash of a workspace (paths, modes, bytes) and `parts`, None if it holds anything else; the
    files named in `unread` count by path and mode only."""
    items: list[str | bytes] = list(parts)
    total = 0
    for name, info in walk(workspace):
        mode = oct(stat.S_IMODE(info.st_mode))
        if stat.S_ISDIR(info.st_mode):
            items += ["d", name, mode]
        elif not stat.S_ISREG(info.st_mode):
            return None
        elif name in unread:
            items += ["f", name, mode]
        else:
            total += info.st_size
            if total > MAX_BYTES:
                return None
            items += ["f", name, mode, _read(workspace, name)]
    return content_hash(*items)


def _read(root: Path, name: str) -> bytes:
    fd = os.open(root / name, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    with os.fdopen(fd, "rb") as fh:
        return fh.read()


def copy_tree(source: Path, dest: Path) -> bool:
    """Copy directories and regular files (modes and times kept); False if there is anything else or too much."""
    return transfer.copy_tree(source, dest, MAX_BYTES)


def restore_tree(kept: Path, workspace: Path) -> None:
    for entry in os.scandir(workspace):
        remove(Path(entry.path))
    copy_tree(kept, workspace)


BUILDS = BuildCache()


@dataclass(frozen=True, slots=True)
class GccBuild:
    words: tuple[str, ...]
    sources: tuple[str, ...]
    flags: tuple[str, ...]

    @property
    def compiler(self) -> str:
        return self.words[0]


def parse_build(build: str) -> GccBuild | None:
    """The build as a GccBuild, or None when it is anything but one plain gcc command of known flags."""
    words = tuple(build.split())
    if len(words) < 2 or words[0] not in COMPILERS or words.count("-o") != 1:
        return None
    sources: list[str] = []
    flags: list[str] = []
    out = words.index("-o") + 1
    if out >= len(words) or not _NAME.fullmatch(words[out]):
        return None
    for index, word in enumerate(words[1:], 1):
        if index in (out - 1, out):
            continue
        if _SOURCE.fullmatch(word) and ".." not in word.split("/"):
            sources.append(word)
        elif _COMPILE.fullmatch(word):
            flags.append(word)
        elif not _LINK.fullmatch(word):
            return None
    if len(set(sources)) != len(sources) or any(".." in f.split("/") for f in flags):
        return None
    return GccBuild(words, tuple(sources), tuple(flags))


def linked_build(case: Case, ctx: OracleContext, sandbox: Sandbox, workspace: Path, build: str, *,
                 timeout: float, limits: Limits) -> str:
    """The build to run in `workspace`: linking objects of the case's unchanged C files, laid out there, or
    `build` itself where that cannot be done soundly."""
    parsed = parse_build(build)
    if parsed is None or not ctx.options.reuse_objects or type(sandbox) is not LocalSandbox:
        return build
    identity = compiler_identity(parsed.compiler)
    reusable = _unchanged(case, workspace, parsed)
    if identity is None or not reusable:
        return build
    fresh = set(parsed.sources) - set(reusable)
    base = workspace_key(workspace, unread=frozenset(fresh))
    names = {source: f"{PREFIX}{number}_{Path(source).stem}.o" for number, source in enumerate(reusable, 1)}
    if base is None or any(os.path.lexists(workspace / name) for name in names.values()):
        return build
    folder = ctx.cache_dir / "objects"
    paths = {source: folder / f"{content_hash('object', identity, *parsed.flags, source, base)}.o"
             for source in reusable}
    objects = {source: data for source, path in paths.items()
               if (data := _read_regular(path, MAX_OBJECT)) is not None}
    pending = [(source, path) for source, path in paths.items() if source not in objects]
    if pending:
        refused = content_hash(*(str(path) for _, path in pending))
        if refused in _REFUSED:
            return build
        made = _compile(workspace, sandbox, parsed, [s for s, _ in pending], fresh, timeout=timeout, limits=limits)
        if made is None:
            _REFUSED.add(refused)  # this process does not try these again
            return build
        folder.mkdir(parents=True, exist_ok=True)
        folder.chmod(0o700)
        for source, path in pending:
            objects[source] = made[source]
            tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")  # written whole, then renamed
            tmp.write_bytes(made[source])
            os.replace(tmp, path)
    for source, name in names.items():
        (workspace / name).write_bytes(objects[source])
    return " ".join(names.get(word, word) for word in parsed.words)


@functools.cache
def compiler_identity(compiler: str) -> str | None:
    """The host compiler's driver and cc1 (path, size, time) and version, or None when it cannot be told."""
    path = shutil.which(compiler)
    if path is None:
        return None
    real = os.path.realpath(path)
    try:
        version = subprocess.run([real, "-dumpfullversion", "-dumpmachine"], capture_output=True, text=True,
                                 timeout=20, check=True).stdout
        cc1 = subprocess.run([real, "-print-prog-name=cc1"], capture_output=True, text=True, timeout=20,
                             check=True).stdout.strip()
        parts = [version.strip()]
        for tool in (real, cc1):
            info = os.stat(tool)
            parts.append(f"{tool}:{info.st_size}:{info.st_mtime_ns}")
    except (OSError, subprocess.SubprocessError):
        return None
    return "|".join(parts)


def _unchanged(case: Case, workspace: Path, parsed: GccBuild) -> list[str]:
    """The build's C files, other than the target, that the workspace holds exactly as the case has them."""
    own: dict[str, bytes] = {name: case.files[name].encode() for name in case.model.sources}
    for asset in case.oracle.assets:
        own.setdefault(Path(asset).name, resolve_asset(case, asset).read_bytes())
    return [source for source in parsed.sources if source != case.target and source in own
            and _read_regular(workspace / source, len(own[source])) == own[source]]


def _compile(workspace: Path, sandbox: Sandbox, parsed: GccBuild, sources: list[str], fresh: set[str], *,
             timeout: float, limits: Limits) -> dict[str, bytes] | None:
    """Each source's object, compiled in a copy of the workspace; None when one fails or depends on what it
    must not."""
    copy = scratch.make("hwrepair-objects-")
    try:
        if not copy_tree(workspace, copy):
            return None
        commands = [" ".join([parsed.compiler, *parsed.flags, "-c", source, "-o", f"{PREFIX}{number}.o", "-MMD",
                              "-MF", f"{PREFIX}{number}.d"]) for number, source in enumerate(sources, 1)]
        ex = sandbox.run(copy, " && ".join(commands), timeout=timeout, limits=limits)
        if not ex.ok:
            return None
        made: dict[str, bytes] = {}
        for number, source in enumerate(sources, 1):
            deps = _read_regular(copy / f"{PREFIX}{number}.d", 1 << 20)
            data = _read_regular(copy / f"{PREFIX}{number}.o", MAX_OBJECT)
            if deps is None or data is None or not _deps_allowed(deps, source, fresh, workspace):
                return None
            made[source] = data
        return made
    finally:
        remove_tree(copy)


def _deps_allowed(deps: bytes, source: str, fresh: set[str], workspace: Path) -> bool:
    """Whether a `-MMD` rule names only files inside the workspace that are not compiled afresh."""
    try:
        text = deps.decode("ascii").replace("\\\n", " ")
    except UnicodeDecodeError:
        return False
    if "\\" in text or "$" in text or text.count(":") != 1:
        return False
    names = text.partition(":")[2].split()
    if not names or names[0] != source:
        return False
    return not any(name.startswith("/") or ".." in name.split("/") or name in fresh or not (workspace / name).is_file()
                   for name in names)


def _read_regular(path: Path, cap: int) -> bytes | None:
    try:  # non-blocking: opening a FIFO must not wait for a writer
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
            return None
        data = fh.read(cap + 1)
    return data if len(data) <= cap else None
