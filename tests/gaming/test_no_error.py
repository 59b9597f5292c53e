"""Nothing a candidate controls yields a harness error: hostile candidates (huge, odd bytes, deep nesting, many
files with odd names, constructs that stop the tools) thrown at one case of every oracle kind are rejections
(or passes), never `error`, which would take them out of the pass@k and correct@k denominators."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from pytest_hwrepair.cases.case import Case
from pytest_hwrepair.cases.load import load_case
from pytest_hwrepair.oracles import ORACLES, OracleContext
from pytest_hwrepair.oracles.rtl.repo_tests import RepoOracle, write_files
from pytest_hwrepair.sandbox.base import Execution, Limits
from pytest_hwrepair.sandbox.local.sandbox import LocalSandbox
from pytest_hwrepair.verdict import Outcome

from ..conftest import DUMP_C, DUMP_TOML, SUM_C, SUM_TOML, write_case
from ..hls_diff_helpers import make_case as hls_diff_case
from ..oracles.cuda.test_oracle import SOLUTION
from ..oracles.cuda.test_oracle import make_case as cuda_case
from ..oracles.rtl.test_oracle import COUNTER, COUNTER_ORACLE
from ..oracles.rtl.test_oracle import make_case as rtl_case

REPO = Path(__file__).resolve().parents[2] / "cases" / "rtl" / "repo" / "uartio"
MANY_FILES_C = ("#include <stdio.h>\n__attribute__((constructor)) static void litter(void) {\n"
                "    char name[64];\n    for (int i = 0; i < 700; i++) {\n"
                "        snprintf(name, sizeof name, \"f\\001\\033[2J%d\\n\", i);\n"
                "        FILE *f = fopen(name, \"w\"); if (f) fclose(f);\n    }\n}\n")


class BytesSandbox:
    """Steps as plain subprocesses (nvcc is not in the closed sandbox's toolchain here), output read as bytes."""

    name = "subprocess"

    def run(self, workdir: Path, argv: str, *, timeout: float, limits: Limits) -> Execution:
        try:
            done = subprocess.run(argv, shell=True, cwd=workdir, capture_output=True, timeout=timeout, check=False)
        except subprocess.TimeoutExpired:
            return Execution(argv, None, "", "", timeout, timed_out=True)
        return Execution(argv, done.returncode, done.stdout.decode(errors="replace"),
                         done.stderr.decode(errors="replace"), 0.0)


def hostile(golden: str, language: str) -> st.SearchStrategy[bytes]:
    """Candidates built from the golden target and from nothing, in the ways a candidate can hurt a harness."""
    text = golden.encode()
    deep = ("(" * 5000 + "0" + ")" * 5000) if language == "c" else ("{" * 3000 + "1'b0" + "}" * 3000)
    extra = {"c": MANY_FILES_C, "verilog": "module pad; " + "wire w; " * 2000 + "endmodule\n",
             "cuda": "#include <cstdio>\n"}[language]
    return st.one_of(
        st.binary(max_size=3000),
        st.sampled_from([
            b"", b"\x00" * 64, b"\xff\xfe" + text, text + b"\x00\x1b[2J", text * 200,
            b"/*" + b"x" * (3 << 20) + b"*/" + text,  # over the readers' caps
            (f"int deep = {deep};\n" if language != "verilog" else f"wire deep = {deep};\n").encode() + text,
            extra.encode() + text, text.replace(b";", b"", 1), text[: len(text) // 2],
        ]),
        st.binary(max_size=200).map(lambda junk: text + b"\n" + junk),
    )


def _judge(check: Callable[[Path], object], workspace: Path, files: dict[str, str], target: str,
           candidate: bytes) -> object:
    shutil.rmtree(workspace, ignore_errors=True)
    workspace.mkdir(parents=True)
    workspace.chmod(0o755)
    for name, text in files.items():
        (workspace / name).parent.mkdir(parents=True, exist_ok=True)
        (workspace / name).write_text(text)
    (workspace / target).write_bytes(candidate)
    return check(workspace)


def _kinds(root: Path) -> dict[str, tuple[Case, Callable[[Path], object], str]]:
    write_case(root / "hls", "sum", {"case.toml": SUM_TOML, "sum.c": SUM_C})
    write_case(root / "hls", "dump", {"case.toml": DUMP_TOML, "dump.c": DUMP_C})
    sum_case = load_case(root / "hls" / "cases" / "hls" / "demo" / "sum" / "case.toml")
    dump_case = load_case(root / "hls" / "cases" / "hls" / "demo" / "dump" / "case.toml")
    clip = hls_diff_case(root / "clip", "clip", strong="seeds = 1\nsanitize = true")
    counter = {kind: rtl_case(root / kind, COUNTER, {**COUNTER_ORACLE, "seeds": 1, "cycles": 20}, kind=kind)
               for kind in ("rtl-lint", "rtl-sim", "rtl-equiv")}
    cuda = cuda_case(root / "cuda")
    ctx = OracleContext(root / "cache")
    local = LocalSandbox()
    found: dict[str, tuple[Case, Callable[[Path], object], str]] = {
        "exit-code": (sum_case, lambda ws: ORACLES["exit-code"](sum_case, ctx).check(ws, local), "c"),
        "output-diff": (dump_case, lambda ws: ORACLES["output-diff"](dump_case, ctx).check(ws, local), "c"),
        "hls-diff": (clip, lambda ws: ORACLES["hls-diff"](clip, ctx).check(ws, local), "c"),
        "cuda": (cuda, lambda ws: ORACLES["cuda"](cuda, OracleContext(root / "cache", options={"gpu": False}))
                 .check(ws, BytesSandbox()), "cuda"),
    }
    for kind, case in counter.items():
        found[kind] = (case, lambda ws, k=kind, c=case: ORACLES[k](c, ctx).check(ws, local), "verilog")
    return found


@pytest.fixture(scope="module")
def kinds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Case, Callable[[Path], object], str]]:
    root = tmp_path_factory.mktemp("kinds")
    root.chmod(0o755)
    return _kinds(root)


@pytest.mark.parametrize("kind", ["exit-code", "output-diff", "hls-diff", "rtl-lint", "rtl-sim", "rtl-equiv",
                                  "cuda"])
def test_no_hostile_candidate_yields_an_error(kinds: dict[str, tuple[Case, Callable[[Path], object], str]],
                                              tmp_path_factory: pytest.TempPathFactory, kind: str) -> None:
    if kind == "cuda" and shutil.which("nvcc") is None:
        pytest.skip("nvcc is not installed")
    case, check, language = kinds[kind]
    golden = SOLUTION if kind == "cuda" else case.files[case.target]
    files = {name: case.files[name] for name in case.model.sources}
    workspace = tmp_path_factory.mktemp(f"ws-{kind}")

    @settings(max_examples=6, deadline=None, derandomize=True, phases=[Phase.explicit, Phase.generate],
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.data_too_large,
                                     HealthCheck.too_slow])
    @given(candidate=hostile(golden, language))
    def judged(candidate: bytes) -> None:
        verdict = _judge(check, workspace / "ws", files, case.target, candidate)
        assert getattr(verdict, "outcome", None) is not Outcome.ERROR, verdict

    judged()


def test_no_hostile_repository_candidate_yields_an_error(tmp_path: Path) -> None:
    case = load_case(REPO / "case.toml")
    assert case.repo is not None
    bug = case.bugs[0].id
    snapshot = case.repo.snapshot(bug)
    oracle = RepoOracle(case, OracleContext(tmp_path / "cache")).for_bug(bug)
    design = next(p for p in sorted(snapshot) if p.startswith("rtl/") and p.endswith(".v"))
    for candidate in ({design: "\x00\xff garbage"}, {design: snapshot[design] * 50},
                      {f"rtl/new{i}.v": f"module new{i}; endmodule\n" for i in range(300)},
                      {"rtl/\x1b[2J.v": "module odd; endmodule\n"}):
        ws = tmp_path / "ws"
        shutil.rmtree(ws, ignore_errors=True)
        write_files(ws, {**snapshot, **candidate})
        verdict = oracle.check(ws, LocalSandbox(None))
        assert verdict.outcome is not Outcome.ERROR, verdict
