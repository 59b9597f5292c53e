"""C builds as the probe reuses them: the declared gcc command split into parts, prebuilt harness objects,
and the coverage build used for fault localisation."""

from __future__ import annotations

import re
import shlex
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from ..cases.case import Case
from ..oracles import Oracle, OracleContext, make_oracle
from ..oracles.base import populate
from ..oracles.hls.oracle import BuildRunOracle
from ..sandbox.base import Sandbox
from ..sandbox.untrusted import UntrustedFileError, read_untrusted

COMPILERS = ("gcc", "cc", "clang")
_SHELL = re.compile(r"[;&|<>`$(){}\\\n]")
GCOV_HELPER = "hwrepair_gcov_dump.c"
# Harness-owned: dumps the coverage counters when the run is about to be killed (a hang or a crash),
# so the lines of an infinite loop are counted too.
_GCOV_HELPER_SOURCE = """\
#include <signal.h>
#include <unistd.h>
extern void __gcov_dump(void);
static void hwrepair_dump(int sig) { (void)sig; __gcov_dump(); _exit(124); }
__attribute__((constructor)) static void hwrepair_arm(void)
{
    signal(SIGALRM, hwrepair_dump);
    signal(SIGSEGV, hwrepair_dump);
    signal(SIGBUS, hwrepair_dump);
    signal(SIGFPE, hwrepair_dump);
    signal(SIGABRT, hwrepair_dump);
    alarm(%d);
}
"""


@dataclass(frozen=True, slots=True)
class CBuild:
    """A one-line gcc build: compiler, arguments in order, and which are sources, compile flags, link flags."""

    compiler: str
    args: tuple[str, ...]
    sources: tuple[str, ...]
    compile_flags: tuple[str, ...]

    def command(self, replace: dict[str, str] | None = None, prefix: tuple[str, ...] = (),
                extra: tuple[str, ...] = ()) -> str:
        args = [(replace or {}).get(a, a) for a in self.args]
        return " ".join(shlex.quote(a) for a in (self.compiler, *prefix, *args, *extra))


def c_build(case: Case) -> CBuild | None:
    """The case's build as a CBuild, or None when it is not one plain gcc command."""
    build = getattr(case.oracle, "build", None)  # oracle kinds with a build command (hls, cuda)
    if not isinstance(build, str) or not build or _SHELL.search(build):
        return None
    argv = shlex.split(build)
    if not argv or argv[0] not in COMPILERS:
        return None
    args = tuple(argv[1:])
    sources = tuple(a for a in args if a.endswith(".c"))
    flags, skip = [], False
    for a in args:
        if skip:
            skip = False
            continue
        if a == "-o":
            skip = True
            continue
        if a.startswith("-") and not a.startswith(("-l", "-L", "-c")):
            flags.append(a)
    return CBuild(argv[0], args, sources, tuple(flags)) if case.target in sources else None


@dataclass(frozen=True)
class CoverageBuild:
    command: str
    helpers: dict[str, str] = field(default_factory=dict)


def coverage_command(build: CBuild, timeout: float) -> CoverageBuild:
    """The build with `--coverage` after the compiler and the counter-dump helper linked in."""
    alarm = max(1, int(timeout * 0.6))
    return CoverageBuild(build.command(prefix=("--coverage",), extra=(GCOV_HELPER,)),
                         {GCOV_HELPER: _GCOV_HELPER_SOURCE % alarm})


def gcov_command(target: str) -> str:
    stem = shlex.quote(Path(target).stem)
    return f'for f in *.gcda; do case "$f" in *{stem}.gcda) gcov -t "$f" 2>/dev/null;; esac; done'


_GCOV_LINE = re.compile(r"^\s*([0-9]+|#####|=====|-)\*?:\s*([0-9]+):")


def parse_gcov(report: str, target: str) -> dict[int, int]:
    """Line -> execution count for the target's section of `gcov -t` output (non-code lines left out)."""
    counts: dict[int, int] = {}
    inside = False
    for line in report.splitlines():
        m = _GCOV_LINE.match(line)
        if m is None:
            continue
        number = int(m.group(2))
        if number == 0:
            source = line.split(":", 2)[-1].strip()
            if source.startswith("Source:"):
                inside = Path(source.removeprefix("Source:")).name == Path(target).name
            continue
        if inside and m.group(1) != "-":
            counts[number] = 0 if m.group(1) in ("#####", "=====") else int(m.group(1))
    return counts


class PrebuiltObjects:
    """The case's other C files compiled once; candidates then link them instead of recompiling."""

    def __init__(self, oracle: Oracle | None, objects: dict[str, bytes]) -> None:
        self.oracle_or_none, self.objects = oracle, objects

    @property
    def usable(self) -> bool:
        return self.oracle_or_none is not None

    @property
    def oracle(self) -> Oracle:
        assert self.oracle_or_none is not None
        return self.oracle_or_none

    @classmethod
    def make(cls, case: Case, build: CBuild, target: str, buggy: dict[str, str], sandbox: Sandbox,
             ctx: OracleContext) -> PrebuiltObjects:
        others = [s for s in build.sources if s != target]
        if not others or target not in build.sources:  # a header or an #included file: every object may hold it
            return cls(None, {})
        objects: dict[str, bytes] = {}
        with tempfile.TemporaryDirectory(prefix="hwrepair-objects-") as tmp:
            ws = Path(tmp)
            populate(ws, case, buggy)
            for source in others:
                obj = _object_name(source)
                flags = " ".join(shlex.quote(f) for f in build.compile_flags)
                ex = sandbox.run(ws, f"{build.compiler} {flags} -c {shlex.quote(source)} -o {shlex.quote(obj)}",
                                 timeout=case.oracle.timeout + 30, limits=ctx.limits)
                data = _read_object(ws, obj) if ex.ok else None
                if data is None:
                    return cls(None, {})
                objects[obj] = data
        command = build.command({s: _object_name(s) for s in others})
        fast = case.model.model_copy(update={"oracle": case.oracle.model_copy(update={"build": command})})
        oracle, declared = make_oracle(Case(case.path, fast, case.files), ctx), make_oracle(case, ctx)
        if isinstance(oracle, BuildRunOracle) and isinstance(declared, BuildRunOracle):
            oracle.golden_build = declared.spec.build  # the golden output still comes from the case's own build
        return cls(oracle, objects)


def _object_name(source: str) -> str:
    return "hwrepair_" + Path(source).stem + ".o"


def _read_object(ws: Path, name: str) -> bytes | None:
    try:
        read_untrusted(ws, name, cap=1)  # no link, a regular file
    except (UntrustedFileError, OSError):
        return None
    data = (ws / name).read_bytes()
    return data if len(data) < (64 << 20) else None
