"""The harness side of the search fixer's probe: the suite oracle on candidates, a syntax pass, coverage.

The fixer sees only the `SuiteProbe` methods; each check runs in a fresh workspace laid out as for a candidate,
through the run's sandbox (an oracle semaphore slot each), never with the strong oracle or the golden files.
CPU seconds are the fixer's cost: usage inside bubblewrap's pid namespace never reaches this process, so each
step runs in a subshell followed by the shell's `times`.
"""

from __future__ import annotations

import re
import shlex
import tempfile
import threading
import traceback
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from ..cases.case import Bug, Case
from ..cases.domains import domain_of
from ..oracles import Oracle, OracleContext, make_oracle
from ..oracles.base import populate
from ..oracles.hls.oracle import BuildRunOracle
from ..sandbox.base import Execution, Limits, Sandbox
from ..sandbox.untrusted import UntrustedFileError, read_untrusted
from ..strength.mutate import Language
from ..verdict import Category, Verdict

SYNTAX_TIMEOUT = 20.0
COMPILERS = ("gcc", "cc", "clang")
_SHELL = re.compile(r"[;&|<>`$(){}\\\n]")
TIMES_FILE = ".hwrepair-times"
_TIME = re.compile(r"(\d+)m([\d.]+)s")
_GCOV_LINE = re.compile(r"^\s*([0-9]+|#####|=====|-)\*?:\s*([0-9]+):")
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


class ProbeError(ValueError):
    """A fixer handed the probe something a candidate cannot be: a file other than the target."""


class HarnessProbe:
    """The suite oracle of one (case, bug), as the search fixer may use it."""

    def __init__(self, case: Case, bug: Bug, sandbox: Sandbox, ctx: OracleContext, jobs: int, *,
                 reuse_objects: bool = True) -> None:
        self._case, self._sandbox, self._ctx = case, CountingSandbox(sandbox), ctx
        self._buggy = case.buggy_files(bug)
        self._target = case.target_of(bug)  # the file the bug lives in, which the search edits
        self._oracle = make_oracle(case, ctx)
        self._jobs = max(1, jobs)
        self._language = Language.of(self._target)
        self._build = c_build(case) if domain_of(case.domain).language == "c" else None
        self._reuse = reuse_objects
        self._prebuilt: tuple[Oracle, dict[str, bytes]] | None = None
        self._prebuild_tried = False
        self._warm = False
        self._lock = threading.Lock()

    @property
    def jobs(self) -> int:
        return self._jobs

    @property
    def language(self) -> str:
        return self._language.value

    @property
    def reuses_objects(self) -> bool:
        """Whether checks link harness objects compiled once instead of compiling them again."""
        return self._prebuilt is not None

    @property
    def cpu_seconds(self) -> float:
        return self._sandbox.seconds

    def check(self, files: dict[str, str]) -> Verdict:
        text = self._candidate(files)
        oracle, extra = self._oracle, dict[str, bytes]()
        if self._warm and self._reuse and self._build is not None:
            oracle, extra = self._prebuilt_objects() or (oracle, extra)
        verdict = self._in_workspace(text, lambda ws: oracle.check(ws, self._sandbox), extra)
        self._warm = True  # the first check made any reference output the oracle caches
        return verdict

    def syntax(self, files: dict[str, str]) -> Verdict | None:
        text = self._candidate(files)
        argv = self._syntax_command()
        if argv is None:
            return None

        def run(ws: Path) -> Verdict:
            ex = self._sandbox.run(ws, argv, timeout=SYNTAX_TIMEOUT, limits=self._ctx.limits)
            if ex.ok:
                return Verdict.ok("parses")
            category = Category.LINT_FAIL if self._language is Language.VERILOG else Category.COMPILE_FAIL
            return Verdict.fail(category, "syntax-only pass failed", log_tail=ex.tail(40))

        verdict = self._in_workspace(text, run, {})
        return None if verdict.passed else verdict

    def coverage(self, files: dict[str, str]) -> dict[int, int] | None:
        if self._build is None:
            return None
        text = self._candidate(files)
        timeout = self._case.oracle.timeout
        # The build with `--coverage` after the compiler and the counter-dump helper linked in.
        build = self._build.command(prefix=("--coverage",), extra=(GCOV_HELPER,))
        helper = _GCOV_HELPER_SOURCE % max(1, int(timeout * 0.6))
        found: dict[int, int] | None = None

        def run(ws: Path) -> Verdict:
            nonlocal found
            (ws / GCOV_HELPER).write_text(helper, encoding="utf-8")
            made = self._sandbox.run(ws, build, timeout=timeout + 30, limits=self._ctx.limits)
            if not made.ok:
                return Verdict.fail(Category.COMPILE_FAIL, "coverage build failed")
            run = getattr(self._case.oracle, "run", None)
            assert isinstance(run, str)
            self._sandbox.run(ws, run, timeout=timeout + 2, limits=self._ctx.limits)
            report = self._sandbox.run(ws, gcov_command(self._target), timeout=30, limits=self._ctx.limits)
            found = parse_gcov(report.stdout, self._target)
            return Verdict.ok("coverage")

        self._in_workspace(text, run, {})
        return found or None

    def _candidate(self, files: dict[str, str]) -> str:
        extra = sorted(set(files) - {self._target})
        if extra or self._target not in files:
            raise ProbeError(f"probe: a candidate holds exactly the target file {self._target!r}"
                             + (f", not {', '.join(repr(n) for n in extra)}" if extra else ""))
        return files[self._target]

    def _in_workspace(self, text: str, check: Callable[[Path], Verdict], extra: dict[str, bytes]) -> Verdict:
        with tempfile.TemporaryDirectory(prefix="hwrepair-probe-") as tmp:
            ws = Path(tmp)
            populate(ws, self._case, {**self._buggy, self._target: text})
            for name, data in extra.items():
                (ws / name).write_bytes(data)
            try:
                return check(ws)
            except Exception as exc:  # an oracle crash is the harness's fault, never the candidate's
                return Verdict.error(f"probe: oracle raised {type(exc).__name__}: {exc}",
                                     log_tail=traceback.format_exc(limit=6))

    def _prebuilt_objects(self) -> tuple[Oracle, dict[str, bytes]] | None:
        """The oracle that links the case's other C files and their objects, made once; None when it cannot."""
        with self._lock:
            if not self._prebuild_tried and self._build is not None:
                self._prebuild_tried = True
                self._prebuilt = prebuild(self._case, self._build, self._target, self._buggy, self._sandbox,
                                          self._ctx)
            return self._prebuilt

    def _syntax_command(self) -> str | None:
        if self._build is not None:
            flags = " ".join(shlex.quote(f) for f in self._build.compile_flags)
            return f"{self._build.compiler} -fsyntax-only {flags} {shlex.quote(self._target)}"
        if self._language is Language.VERILOG:
            sources = [n for n in self._case.model.sources if re.search(r"\.s?v$", n)]
            return "iverilog -g2012 -t null " + " ".join(shlex.quote(n) for n in sources)
        return None


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
    for a in args:  # skip: `a` is the output file that the `-o` before it names
        if not skip and a != "-o" and a.startswith("-") and not a.startswith(("-l", "-L", "-c")):
            flags.append(a)
        skip = not skip and a == "-o"
    return CBuild(argv[0], args, sources, tuple(flags)) if case.target in sources else None


def gcov_command(target: str) -> str:
    stem = shlex.quote(Path(target).stem)
    return f'for f in *.gcda; do case "$f" in *{stem}.gcda) gcov -t "$f" 2>/dev/null;; esac; done'


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


def prebuild(case: Case, build: CBuild, target: str, buggy: dict[str, str], sandbox: Sandbox,
             ctx: OracleContext) -> tuple[Oracle, dict[str, bytes]] | None:
    """The case's other C files compiled once, and the oracle whose build links them instead of recompiling."""
    others = [s for s in build.sources if s != target]
    if not others or target not in build.sources:  # a header or an #included file: every object may hold it
        return None
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
                return None
            objects[obj] = data
    command = build.command({s: _object_name(s) for s in others})
    fast = case.model.model_copy(update={"oracle": case.oracle.model_copy(update={"build": command})})
    oracle, declared = make_oracle(Case(case.path, fast, case.files), ctx), make_oracle(case, ctx)
    if isinstance(oracle, BuildRunOracle) and isinstance(declared, BuildRunOracle):
        oracle.golden_build = declared.spec.build  # the golden output still comes from the case's own build
    return oracle, objects


def _object_name(source: str) -> str:
    return "hwrepair_" + Path(source).stem + ".o"


def _read_object(ws: Path, name: str) -> bytes | None:
    try:
        read_untrusted(ws, name, cap=1)  # no link, a regular file
    except (UntrustedFileError, OSError):
        return None
    data = (ws / name).read_bytes()
    return data if len(data) < (64 << 20) else None


class CountingSandbox:
    """Runs every step through `inner`, adding up the CPU seconds it used."""

    def __init__(self, inner: Sandbox) -> None:
        self.inner = inner
        self.name = inner.name
        self._lock = threading.Lock()
        self._seconds = 0.0

    @property
    def seconds(self) -> float:
        with self._lock:
            return self._seconds

    def run(self, workdir: Path, argv: str, *, timeout: float, limits: Limits) -> Execution:
        wrapped = f"( {argv}\n); __hwrepair_rc=$?; times > {TIMES_FILE}; exit $__hwrepair_rc"
        ex = self.inner.run(workdir, wrapped, timeout=timeout, limits=limits)
        used = _read_times(workdir)
        with self._lock:
            self._seconds += ex.duration if used is None else used
        return replace(ex, argv=argv)


def _read_times(workdir: Path) -> float | None:
    """Children's user + system seconds from the `times` report (its second line), or None."""
    try:
        text = read_untrusted(workdir, TIMES_FILE, cap=4096).text
    except (UntrustedFileError, OSError):
        return None
    finally:
        (workdir / TIMES_FILE).unlink(missing_ok=True)
    lines = text.strip().splitlines()
    found = _TIME.findall(lines[-1]) if lines else []
    return sum(int(m) * 60 + float(s) for m, s in found) if len(found) == 2 else None
