"""The probe the harness gives the search fixer: only the suite oracle, never the golden files."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path
from typing import Any

import pytest

from pytest_hwrepair.cases.case import Case
from pytest_hwrepair.cases.load import load_case
from pytest_hwrepair.oracles import OracleContext
from pytest_hwrepair.oracles.rtl.oracle import RtlEquivOracle
from pytest_hwrepair.run.probe import CountingSandbox, HarnessProbe, ProbeError
from pytest_hwrepair.sandbox.base import Limits
from pytest_hwrepair.sandbox.local.sandbox import LocalSandbox
from pytest_hwrepair.verdict import Category

from ..search_helpers import CORPUS, HELDOUT, harness_verdict, heldout, search

_OPENED: list[str] | None = None


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if _OPENED is not None and event == "open" and isinstance(args[0], (str, bytes, os.PathLike)):
        _OPENED.append(os.path.abspath(os.fsdecode(args[0])))


sys.addaudithook(_audit)


def planted_case(tmp: Path) -> tuple[Case, list[Path]]:
    """A copy of a held-out case with copies of its golden target planted where a fixer could look."""
    root = tmp / "case"
    shutil.copytree(HELDOUT / "hls" / "demo" / "clamp_sum", root)
    case = load_case(root / "case.toml")
    assert case.digest  # as at collection, where each sample's key reads the case file before any fixer runs
    golden = case.files[case.target]
    planted = [root / "golden" / case.target, root / f"{case.target}.orig", tmp / "work" / case.target]
    for path in planted:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(golden, encoding="utf-8")
    return case, planted


def test_search_never_opens_a_golden_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    global _OPENED
    case, planted = planted_case(tmp_path)
    monkeypatch.chdir(tmp_path / "work")
    _OPENED = []
    try:
        candidate = search(case, "SHFT-01", tmp_path / "cache", budget=40)
    finally:
        opened, _OPENED = _OPENED, None
    assert opened, "the audit hook saw no file at all"
    assert candidate.metrics["candidates"] > 1
    case_dir = str(case.root.resolve())
    assert not [p for p in opened if p.startswith(case_dir + os.sep)]
    assert not set(opened) & {str(p.resolve()) for p in planted}


SEARCH_SCRIPT = textwrap.dedent("""
    import sys
    from pathlib import Path
    sys.path.insert(0, {tests!r})
    from pytest_hwrepair.cases.load import load_case
    from tests.search_helpers import search
    case = load_case(Path({case!r}))  # the harness reads the case; the search starts after the marker
    assert case.digest  # as at collection: each sample's key reads the case file before any fixer runs
    open({marker!r}, "w").close()
    print(search(case, "SHFT-01", Path({cache!r}), budget=12).metrics["candidates"])
""")


@pytest.mark.skipif(shutil.which("strace") is None, reason="strace is not installed")
def test_no_process_of_the_search_opens_a_golden_file(tmp_path: Path) -> None:
    case, planted = planted_case(tmp_path)
    marker = str(tmp_path / "search-starts-here")
    script = SEARCH_SCRIPT.format(tests=str(Path(__file__).parents[2]), case=str(case.path),
                                  cache=str(tmp_path / "cache"), marker=marker)
    log = tmp_path / "strace.log"
    proc = subprocess.run(["strace", "-f", "-qq", "-e", "trace=open,openat,openat2,execve", "-o", str(log),
                           sys.executable, "-c", script], cwd=tmp_path / "work", capture_output=True, text=True,
                          timeout=900, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert int(proc.stdout.split()[-1]) > 1
    trace = log.read_text(errors="replace").split(marker, 1)[1]
    assert "execve(" in trace and "gcc" in trace  # the candidates' builds were traced too
    assert str(case.root.resolve()) + "/" not in trace
    for path in planted:
        assert str(path.resolve()) not in trace


def probe_for(case: Case, bug: str, cache: Path) -> HarnessProbe:
    return HarnessProbe(case, case.bug(bug), LocalSandbox(None), OracleContext(cache), 2)


def test_probe_takes_exactly_the_target_file(tmp_path: Path) -> None:
    case = heldout("clamp_sum")
    probe = probe_for(case, "SHFT-01", tmp_path)
    with pytest.raises(ProbeError, match=r"exactly the target file 'clamp_sum\.c', not 'extra\.c'"):
        probe.check({case.target: "", "extra.c": ""})
    with pytest.raises(ProbeError, match="exactly the target file"):
        probe.check({})


def test_probe_never_runs_the_strong_oracle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def forbidden(*args: object, **kwargs: object) -> None:
        raise AssertionError("the strong oracle ran")
    monkeypatch.setattr(RtlEquivOracle, "check", forbidden)
    case = load_case(CORPUS / "rtl" / "seq" / "updown_counter" / "case.toml")
    assert case.model.strong_oracle is not None
    candidate = search(case, "OPSWAP-01", tmp_path / "cache", budget=40)
    assert candidate.metrics["suite_pass"] is True


@pytest.mark.parametrize(("where", "bug"), [("mach/kmp", "MLU-01"), ("poly/atax", "BUF-01")])
def test_prebuilt_harness_objects_give_the_declared_build_verdicts(tmp_path: Path, where: str, bug: str) -> None:
    # kmp compares with a check file; atax with the golden build's output, which must still come from the
    # case's own build (the linked objects exist only in the candidate's workspace).
    case = load_case(CORPUS / "hls" / where / "case.toml")
    probe = probe_for(case, bug, tmp_path)
    buggy = case.buggy_files(case.bug(bug))[case.target]
    first = probe.check({case.target: buggy})
    assert not probe.reuses_objects
    for text in (buggy, case.files[case.target]):
        fast = probe.check({case.target: text})
        plain = harness_verdict(case, bug, text, tmp_path)
        assert (fast.outcome, fast.category, fast.summary) == (plain.outcome, plain.category, plain.summary)
    assert probe.reuses_objects and not first.passed


def test_coverage_of_a_hang_counts_the_spinning_loop(tmp_path: Path) -> None:
    case = load_case(CORPUS / "hls" / "mach" / "kmp" / "case.toml")
    buggy = case.buggy_files(case.bug("INF-01"))[case.target]
    counts = probe_for(case, "INF-01", tmp_path).coverage({case.target: buggy})
    assert counts
    hottest = max(counts, key=lambda line: counts[line])
    assert "next[k]" in buggy.splitlines()[hottest - 1] or "while" in buggy.splitlines()[hottest - 1]


def test_syntax_pass_rejects_what_does_not_parse(tmp_path: Path) -> None:
    c_case, v_case = heldout("clamp_sum"), heldout("acc")
    c_probe, v_probe = probe_for(c_case, "SHFT-01", tmp_path), probe_for(v_case, "SEMI-01", tmp_path)
    good_c, good_v = c_case.files[c_case.target], v_case.files[v_case.target]
    assert c_probe.syntax({c_case.target: good_c}) is None
    broken = c_probe.syntax({c_case.target: good_c.replace("int32_t sum = 0;", "int32_t sum = 0")})
    assert broken is not None and broken.category is Category.COMPILE_FAIL
    assert v_probe.syntax({v_case.target: good_v}) is None
    broken = v_probe.syntax({v_case.target: good_v.replace("total <= 8'd0;", "total <= 8'd0", 1)})
    assert broken is not None and broken.category is Category.LINT_FAIL


def test_counting_sandbox_keeps_output_status_and_signal() -> None:
    inner = LocalSandbox(None)
    counting = CountingSandbox(inner)
    with tempfile.TemporaryDirectory() as tmp:
        for argv in ("echo out; echo err >&2; exit 3", "kill -SEGV $$", "true"):
            plain = inner.run(Path(tmp), argv, timeout=10, limits=Limits())
            counted = counting.run(Path(tmp), argv, timeout=10, limits=Limits())
            assert (counted.stdout, counted.stderr, counted.signal, counted.timed_out, counted.argv) == \
                   (plain.stdout, plain.stderr, plain.signal, plain.timed_out, plain.argv)
            assert (counted.returncode == 0) == (plain.returncode == 0)
            assert sorted(os.listdir(tmp)) == []
        spin = counting.run(Path(tmp), "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done", timeout=30,
                            limits=Limits())
    assert spin.ok and counting.seconds > 0


@pytest.mark.parametrize("bug", ["BUF-02", "INF-01"])  # in a header every source includes; in another source
def test_probe_takes_the_file_the_bug_lives_in(tmp_path: Path, bug: str) -> None:
    case = load_case(CORPUS / "hls" / "hard" / "deflate" / "case.toml")
    name = case.target_of(case.bug(bug))
    assert name != case.target
    probe = probe_for(case, bug, tmp_path)
    assert not probe.check({name: case.buggy_files(case.bug(bug))[name]}).passed
    for _ in range(2):  # the second check links prebuilt objects where that is safe
        assert probe.check({name: case.files[name]}).passed
    # objects compiled once would hold the header as it was: a header's probe compiles everything each time
    assert probe.reuses_objects is name.endswith(".c")
    with pytest.raises(ProbeError, match=f"exactly the target file '{name}'"):
        probe.check({case.target: case.files[case.target]})
