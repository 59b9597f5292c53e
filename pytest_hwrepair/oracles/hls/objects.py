"""Objects of a case's unchanged C files, compiled once per machine and linked into each candidate's build.

Most of an HLS build compiles files no candidate changed: the testbench, the harness, the glue. A build
that is one plain gcc command (`gcc FLAGS a.c tb.c -o prog -lm`: no shell syntax, only flags this module
knows) links an object of each C file the workspace holds exactly as the case has it (the target is always
compiled afresh): `gcc FLAGS a.c hwrepair_obj_1_tb.o -o prog -lm`, the program gcc would have built.

An object is keyed by the compiler (its path, size, time and version), the compile flags, the file's name,
the bytes of every workspace file except the C files compiled afresh, and the names of all of them. It is
compiled in a closed step of its own, in a copy of the workspace made before anything of the candidate ran,
with `-MMD`: an object whose dependencies name a file compiled afresh, a file outside the workspace or
anything unreadable is never kept, and the build is left as it was. Objects are kept under the cache
directory (0700), which no step sees. Only the local sandbox's builds link them: its steps run the host's
compiler, the one the key names. `--hwrepair-no-object-reuse` turns this off.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import stat
import subprocess
from dataclasses import dataclass
from pathlib import Path

from ...cases.case import Case
from ...sandbox import scratch
from ...sandbox.base import Limits, Sandbox
from ...sandbox.local.sandbox import LocalSandbox
from ..base import OracleContext, content_hash, remove_tree, resolve_asset
from .builds import copy_tree, workspace_key

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
class GccBuild:
    """A build that is one gcc command: its words, its C files, its compile flags."""

    words: tuple[str, ...]
    sources: tuple[str, ...]
    flags: tuple[str, ...]

    @property
    def compiler(self) -> str:
        return self.words[0]

    def linking(self, objects: dict[str, str]) -> str:
        """The build with each C file in `objects` replaced by its object's name."""
        return " ".join(objects.get(word, word) for word in self.words)


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
    """The build to run in `workspace`: with objects of the case's unchanged C files laid out there and linked,
    or `build` itself where that cannot be done soundly (see the module's text)."""
    parsed = parse_build(build)
    if parsed is None or not ctx.options.reuse_objects or type(sandbox) is not LocalSandbox:
        return build
    identity = compiler_identity(parsed.compiler)
    reusable = _unchanged(case, workspace, parsed)
    if identity is None or not reusable:
        return build
    fresh = set(parsed.sources) - set(reusable)
    base = workspace_key(workspace, unread=frozenset(fresh))
    if base is None:
        return build
    names = {source: f"{PREFIX}{number}_{Path(source).stem}.o" for number, source in enumerate(reusable, 1)}
    if any(os.path.lexists(workspace / name) for name in names.values()):
        return build
    folder = ctx.cache_dir / "objects"
    objects: dict[str, bytes] = {}
    pending: list[tuple[str, Path]] = []
    for source in reusable:
        path = folder / f"{content_hash('object', identity, *parsed.flags, source, base)}.o"
        data = _read_regular(path, MAX_OBJECT)
        if data is None:
            pending.append((source, path))
        else:
            objects[source] = data
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
            _keep(path, made[source])
    for source, name in names.items():
        (workspace / name).write_bytes(objects[source])
    return parsed.linking(names)


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
    found = []
    for source in parsed.sources:
        if source == case.target or source not in own:
            continue
        try:
            info = os.lstat(workspace / source)
            if stat.S_ISREG(info.st_mode) and (workspace / source).read_bytes() == own[source]:
                found.append(source)
        except OSError:
            continue
    return found


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
        text = deps.decode("ascii")
    except UnicodeDecodeError:
        return False
    text = text.replace("\\\n", " ")
    if "\\" in text or "$" in text or text.count(":") != 1:
        return False
    _, _, rest = text.partition(":")
    names = rest.split()
    if not names or names[0] != source:
        return False
    for name in names:
        parts = name.split("/")
        if name.startswith("/") or ".." in parts or name in fresh or not (workspace / name).is_file():
            return False
    return True


def _read_regular(path: Path, cap: int) -> bytes | None:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
            return None
        data = fh.read(cap + 1)
    return data if len(data) <= cap else None


def _keep(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


__all__ = ["GccBuild", "compiler_identity", "linked_build", "parse_build"]
