"""The CUDA screen on preprocessed code: each bypass of a regex-only screen is caught."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_hwrepair.cases.case import Case
from pytest_hwrepair.cases.load import load_case
from pytest_hwrepair.oracles.base import OracleContext, populate
from pytest_hwrepair.oracles.cuda.checks import NO_DEVICE, anti_cheat_violation
from pytest_hwrepair.oracles.cuda.oracle import CudaOracle
from pytest_hwrepair.oracles.cuda.screen import (
    Preprocessed,
    candidate_part,
    clean,
    directive_violation,
    normalise,
    preprocess_commands,
    screen_preprocessed,
)
from pytest_hwrepair.sandbox.local.sandbox import LocalSandbox
from pytest_hwrepair.verdict import Category, Outcome

REPO = Path(__file__).resolve().parents[3]
VECTOR_ADD = REPO / "cases" / "cuda" / "elementwise" / "vector_add" / "case.toml"
needs_nvcc = pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc is not installed")

KERNEL = """
__global__ void vector_add_kernel(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
"""
LAUNCH = """
void launch_vector_add(const float* a, const float* b, float* c, int n)
{
    vector_add_kernel<<<(n + 255) / 256, 256>>>(a, b, c, n);
}
"""

# Each attack builds with nvcc and, before this screen, passed the regex screen of the task.
ATTACKS = {
    "static_constructor_with_extern_c_write_and_exit": KERNEL + LAUNCH + r"""
extern "C" long write(int, const void*, unsigned long);
extern "C" void _exit(int);
struct Fake { Fake() { write(1, "Kernel time: 0.0010 ms\nPASSED\n", 29); _exit(0); } };
static Fake fake;
""",
    "raw_string_hides_code_from_the_comment_stripper": KERNEL + LAUNCH + r'''
static const char* a = R"x(" /* )x";
static int fake = (std::printf("Kernel time: 0.0010 ms\nPASSED\n"), 0);
static const char* b = R"x( */ ")x";
''',
    "token_pasting_builds_a_blocked_name": KERNEL + """
#define GLUE(a, b) a##b
void launch_vector_add(const float* a, const float* b, float* c, int n)
{
    vector_add_kernel<<<(n + 255) / 256, 256>>>(a, b, c, n);
    GLUE(ex, it)(0);
}
""",
    "macro_built_include": """
#define STR(x) #x
#define XSTR(x) STR(x)
#define HEADER XSTR(unistd.h)
#include HEADER
""" + KERNEL + LAUNCH,
    "digraph_include": "%:include <cstdlib>\n" + KERNEL + LAUNCH,
    "required_pattern_in_a_string_literal": """
static const char* decoy = "__global__";
void launch_vector_add(const float* a, const float* b, float* c, int n)
{
    cudaMemcpy(c, a, n * sizeof(float), cudaMemcpyDeviceToDevice);
}
""",
    "required_pattern_in_dead_code": "#if 0\n" + KERNEL + "#endif\n" + """
void launch_vector_add(const float* a, const float* b, float* c, int n)
{
    cudaMemcpy(c, a, n * sizeof(float), cudaMemcpyDeviceToDevice);
}
""",
    "line_directive_passes_code_off_as_the_harness": KERNEL + LAUNCH + """
# 1 "hwrepair_check.cuh" 1
static int fake = (exit(0), 0);
""",
    "device_only_branch_hides_a_print": """
__global__ void vector_add_kernel(const float* a, const float* b, float* c, int n)
{
#ifdef __CUDA_ARCH__
#define SAY pri##ntf
    if (threadIdx.x == 0 && blockIdx.x == 0) SAY("PASSED\\n");
#endif
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
""" + LAUNCH,
    "function_pointer_to_exit": KERNEL + """
void launch_vector_add(const float* a, const float* b, float* c, int n)
{
    void (*leave)(int) = &::exit;
    vector_add_kernel<<<(n + 255) / 256, 256>>>(a, b, c, n);
    leave(0);
}
""",
    "calls_the_harness_helpers": KERNEL + """
void launch_vector_add(const float* a, const float* b, float* c, int n)
{
    hwr_finish(0, 0.001f);
}
""",
    "inline_assembly_system_call": KERNEL + LAUNCH + """
static int fake = [] { __asm__ volatile("mov $60, %eax; xor %edi, %edi; syscall"); return 0; }();
""",
}


@pytest.fixture(scope="module")
def case() -> Case:
    return load_case(VECTOR_ADD)


@pytest.fixture
def scratch() -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix="hwrepair-screen-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


def judge(case: Case, scratch: Path, solution: str) -> object:
    ws = scratch / "ws"
    ws.mkdir()
    populate(ws, case, {**{n: case.files[n] for n in case.model.sources}, case.target: solution})
    oracle = CudaOracle(case, OracleContext(scratch / "cache", options={"gpu": False}))
    return oracle.check(ws, LocalSandbox(None))


@needs_nvcc
@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_each_bypass_is_rejected_at_the_screen(case: Case, scratch: Path, attack: str) -> None:
    verdict = judge(case, scratch, ATTACKS[attack])
    assert verdict.category is Category.TEST_FAIL, verdict  # type: ignore[attr-defined]
    assert verdict.metrics["cuda_stage"] == "anti_cheat", verdict  # type: ignore[attr-defined]
    assert "anti-cheat" in verdict.summary  # type: ignore[attr-defined]


@needs_nvcc
def test_the_reference_passes_the_screen_and_builds(case: Case, scratch: Path) -> None:
    verdict = judge(case, scratch, case.files[case.target])
    assert verdict.outcome is Outcome.SKIPPED and verdict.summary == NO_DEVICE, verdict  # type: ignore[attr-defined]
    assert "screen" in verdict.durations  # type: ignore[attr-defined]


@needs_nvcc
def test_a_plain_kernel_with_attributes_passes(case: Case, scratch: Path) -> None:
    solution = """
__device__ __forceinline__ float add(float x, float y) { return x + y; }
__global__ void __launch_bounds__(256) vector_add_kernel(const float* __restrict__ a, const float* b, float* c,
                                                         int n)
{
    __shared__ float unused[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = add(a[i], b[i]);
    if (n < 0) unused[0] = 0.0f;
}
""" + LAUNCH
    verdict = judge(case, scratch, solution)
    assert verdict.outcome is Outcome.SKIPPED, verdict  # type: ignore[attr-defined]


def test_raw_strings_are_one_literal() -> None:
    code = 'a = R"x(" /* )x"; b(); c = R"x( */ ")x";'
    assert "b()" in clean(code)
    assert "/*" not in clean(code)


def test_digit_separators_are_not_character_literals() -> None:
    assert "exit" in clean("int n = 1'000'000; exit(0); char c = 'x';")


def test_literals_do_not_satisfy_a_required_pattern() -> None:
    assert anti_cheat_violation('const char* s = "__global__";\n', [], ["__global__"]) is not None


def test_digraph_include_is_an_include() -> None:
    rule = r'#\s*include\s*[<"](?!cmath)'
    assert anti_cheat_violation("%:include <cstdlib>\n__global__ void k(){}\n", [rule], []) is not None


def test_line_markers_and_line_directives_are_rejected() -> None:
    assert directive_violation('# 12 "x.cuh" 1\n') is not None
    assert directive_violation('#line 3 "x.cuh"\n') is not None
    assert directive_violation('%:line 3\n') is not None
    assert directive_violation('#\\\nline 3\n') is not None
    assert directive_violation('#include <cmath>\n// # 1 "x"\n') is None


def test_the_candidate_part_follows_line_markers() -> None:
    out = ('# 1 "test_main.cu"\nint harness;\n# 1 "solution.cu" 1\nint mine;\n# 1 "/usr/include/cmath" 1\n'
           'int header;\n# 5 "solution.cu" 2\nint mine_too;\n# 9 "test_main.cu" 2\nint after;\n')
    part = candidate_part(out, "solution.cu")
    assert part.text.split() == ["int", "mine;", "int", "mine_too;"]
    assert part.includes == ["/usr/include/cmath"]


def test_cuda_keywords_come_back_from_their_expansions() -> None:
    code = ("__attribute__((global)) void __attribute__((launch_bounds(256, 2))) k() "
            "{ __attribute__((shared)) float s[2]; } __inline__ __attribute__((always_inline)) int f(); "
            "struct __attribute__((aligned(2*sizeof(long)))) A {};")
    assert normalise(code) == ("__global__ void __launch_bounds__(256, 2) k() { __shared__ float s[2]; } "
                               "__forceinline__ int f(); struct __align__(2*sizeof(long)) A {};")
    assert "__attribute__" in normalise("__attribute__((constructor)) void f();")


def test_includes_are_checked_by_the_file_they_resolved_to() -> None:
    part = Preprocessed("__global__ void k();", ["/usr/include/stdlib.h"])
    rule = r'#\s*include\s*[<"](?!(?:cmath|cuda_runtime)(?:\.h)?[>"])'
    assert screen_preprocessed(part, [rule], [], "host pass") is not None
    harness = Preprocessed("__global__ void k();", ["hwrepair_check.cuh"])
    assert "workspace file" in (screen_preprocessed(harness, [], ["hwrepair_check.cuh"], "host pass") or "")


def test_preprocess_commands_keep_the_build_flags_and_add_the_device_pass() -> None:
    commands = preprocess_commands("nvcc -O2 -arch=sm_80 -Iinc -DX=1 -o test test_main.cu -lcublas", "solution.cu")
    assert commands == [("host pass", "nvcc -O2 -arch=sm_80 -Iinc -DX=1 -E test_main.cu"),
                        ("device pass", "nvcc -O2 -arch=sm_80 -Iinc -DX=1 -E test_main.cu -D__CUDA_ARCH__=800 "
                         "-DCUDA_DOUBLE_MATH_FUNCTIONS")]
