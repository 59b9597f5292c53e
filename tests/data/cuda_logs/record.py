"""Re-record the nvcc and harness logs in this directory (needs nvcc; no GPU).

Each scenario is a small task in the corpus layout (test_main.cu declares the entry point and
#includes solution.cu at its end) with one edit, built or run exactly as the oracle would;
the output is saved with a header the classifier tests read. Logs marked `source: written`
are not produced here: they were written from the documented message formats.

    python3 tests/data/cuda_logs/record.py
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
HEADER = Path(__file__).resolve().parents[3] / "oracles" / "cuda" / "hwrepair_check.cuh"
BUILD = "nvcc -O2 -arch=sm_80 -o test test_main.cu"

SOLUTION = """\
__global__ void scale_kernel(float* x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= a;
}

void launch_scale(float* x, float a, int n)
{
    scale_kernel<<<(n + 255) / 256, 256>>>(x, a, n);
}
"""

TEST_MAIN = """\
#include "hwrepair_check.cuh"

void launch_scale(float* x, float a, int n);

int main()
{
    const int n = 1 << 20;
    std::vector<float> x = hwr_uniform(n, 1, -1.0f, 1.0f), want(n);
    for (int i = 0; i < n; ++i) want[i] = 2.0f * x[i];
    HwrBuffer<float> d(x);
    float ms = hwr_time_ms([&] { d.upload(x); launch_scale(d.ptr, 2.0f, n); });
    return hwr_finish(hwr_check_close("x", d.download(), want, 1e-6, 1e-6), ms);
}

#include "solution.cu"
"""

# name: (expected category, [(find, replace) in solution.cu], extra build flags, note)
BUILD_SCENARIOS: dict[str, tuple[str, list[tuple[str, str]], str, str]] = {
    "build_missing_semicolon": ("buildability", [("x[i] *= a;", "x[i] *= a")], "", "a statement lost its ';'"),
    "build_undefined_identifier": ("buildability", [("int i = ", "int j = ")], "", "index variable renamed"),
    "build_device_function_launch": (
        "buildability", [("__global__ void scale_kernel", "__device__ void scale_kernel")], "",
        "kernel declared __device__ but launched with <<<>>>"),
    "build_misspelled_intrinsic": (
        "buildability", [("if (i < n) x[i] *= a;", "if (i < n) x[i] *= a;\n    __syncthread();")], "",
        "__syncthreads misspelled"),
    "build_shuffle_wrong_arity": (
        "buildability",
        [("if (i < n) x[i] *= a;", "float v = __shfl_down_sync(x[i], 1);\n    if (i < n) x[i] = v * a;")], "",
        "__shfl_down_sync without its mask argument: notes point into the CUDA headers"),
    "build_too_few_kernel_args": (
        "buildability", [("(x, a, n);", "(x, n);")], "", "kernel launched with a missing argument"),
    "build_unclosed_brace": (
        "buildability", [("(float* x, float a, int n)\n{", "(float* x, float a, int n)\n{ {")],
        "", "an unbalanced brace: nvcc reports it 'At end of source'"),
    "build_signature_mismatch": (
        "integration", [("void launch_scale(float* x, float a", "void launch_scale(float* x, double a")],
        "", "the entry point's signature no longer matches the harness's declaration: a link error"),
    "build_renamed_entry_point": (
        "integration", [("void launch_scale(", "void launch_scale_v2(")], "", "the entry point was renamed"),
    "build_missing_cublas_header": (
        "environment_dependency", [("__global__", "#include <cublas_v2.h>\n__global__")], "",
        "the candidate includes a library header this toolkit does not ship"),
    "build_missing_library": ("environment_dependency", [], " -lcublas_missing", "a library that is not installed"),
    "build_ptxas_shared_overflow": (
        "out_of_memory",
        [("if (i < n) x[i] *= a;", "__shared__ float big[20000];\n    big[threadIdx.x] = x[i];\n    __syncthreads();\n"
          "    if (i < n) x[i] = big[(threadIdx.x + 1) % 256] * a;")],
        "", "static shared memory over the 48 KiB limit"),
    "build_warning_only": (
        "passed", [("if (i < n) x[i] *= a;", "for (int s = 128; s > 0; s >> 1) x[i] *= a;")], "",
        "compiles with a warning (and would hang at run time): the build passes"),
}


def run(cmd: str, cwd: Path) -> tuple[int, str]:
    env = {**os.environ, "TMPDIR": ".tmp", "LC_ALL": "C"}
    (cwd / ".tmp").mkdir(exist_ok=True)
    done = subprocess.run(cmd, shell=True, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    return done.returncode, done.stdout + done.stderr


def layout(cwd: Path, solution: str, test_main: str = TEST_MAIN) -> None:
    (cwd / "solution.cu").write_text(solution)
    (cwd / "test_main.cu").write_text(test_main)
    (cwd / "hwrepair_check.cuh").write_text(HEADER.read_text())


def save(name: str, text: str, **header: object) -> None:
    lines = [f"# {key}: {value}" for key, value in header.items()]
    (HERE / f"{name}.log").write_text("\n".join(lines) + "\n---\n" + text)
    print(f"{name}: {header.get('exit')}")


def record_builds(cwd: Path) -> None:
    for name, (expect, edits, flags, note) in BUILD_SCENARIOS.items():
        solution = SOLUTION
        for find, replace in edits:
            assert find in solution, (name, find)
            solution = solution.replace(find, replace, 1)
        layout(cwd, solution)
        rc, text = run(BUILD + flags, cwd)
        save(name, text, stage="build", exit=rc, target="solution.cu", expect=expect,
             source=f"recorded: {BUILD + flags}", note=note)


def record_special_builds(cwd: Path) -> None:
    layout(cwd, SOLUTION)
    rc, text = run("nvcc -O2 -arch=sm_50 -o test test_main.cu", cwd)
    save("build_unsupported_arch", text, stage="build", exit=rc, target="solution.cu", expect="environment_dependency",
         harness_fault=True, source="recorded: nvcc -O2 -arch=sm_50 -o test test_main.cu",
         note="an architecture CUDA 13 dropped: the build command, not the candidate, is at fault")
    rc, text = run(f"PATH=/nonexistent {BUILD}", cwd)
    save("build_nvcc_not_found", text, stage="build", exit=rc, target="solution.cu", expect="environment_dependency",
         harness_fault=True, source=f"recorded: sh -c '{BUILD}' without nvcc on PATH", note="no toolkit")
    (cwd / "solution.cu").unlink()
    rc, text = run(BUILD, cwd)
    save("build_missing_candidate_file", text, stage="build", exit=rc, target="solution.cu", expect="integration",
         source=f"recorded: {BUILD}", note="the candidate file is absent: the harness cannot include it")
    record_harness_file_error(cwd)
    record_multiple_definition(cwd)


def record_harness_file_error(cwd: Path) -> None:
    """Two-file layout: the harness uses a struct the candidate's header declares."""
    params = "#pragma once\nstruct ScaleParams {\n    float* data;\n    float factor;\n    int count;\n};\n"
    (cwd / "params.cuh").write_text(params)
    (cwd / "solution.cu").write_text('#include "params.cuh"\n__global__ void k(ScaleParams p) {}\n')
    main = ('#include "params.cuh"\nint main()\n{\n    ScaleParams p{};\n    p.n = 4;\n    return 0;\n}\n'
            '#include "solution.cu"\n')
    (cwd / "test_main.cu").write_text(main)
    rc, text = run(BUILD, cwd)
    save("build_harness_file_error", text, stage="build", exit=rc, target="params.cuh", expect="integration",
         source=f"recorded: {BUILD}",
         note="the candidate (params.cuh) renamed a member the harness uses: the error is in test_main.cu")


def record_multiple_definition(cwd: Path) -> None:
    layout(cwd, SOLUTION)
    (cwd / "extra.cu").write_text(SOLUTION.split("void launch_scale")[0] + "void launch_scale(float*, float, int) {}\n")
    cmd = "nvcc -O2 -arch=sm_80 -o test test_main.cu extra.cu"
    rc, text = run(cmd, cwd)
    save("build_multiple_definition", text, stage="build", exit=rc, target="solution.cu", expect="integration",
         source=f"recorded: {cmd}", note="two translation units define the entry point")


CHECK_DEMO = """\
#include "hwrepair_check.cuh"
int main(int argc, char** argv)
{
    if (argc > 1) CUDA_CHECK((cudaError_t)atoi(argv[1]));
    std::vector<float> want = hwr_uniform(1000, 7, -1.0f, 1.0f), got = want;
    got[3] += 0.5f;
    got[998] = NAN;
    return hwr_finish(hwr_check_close("out", got, want, 1e-5, 1e-5), 0.25f);
}
"""

CODES = {
    "illegal_address": (700, "illegal_memory_access"),
    "misaligned_address": (716, "illegal_memory_access"),
    "launch_failure": (719, "illegal_memory_access"),
    "out_of_memory": (2, "out_of_memory"),
    "launch_timeout": (702, "timeout"),
    "invalid_configuration": (9, "integration"),
    "launch_out_of_resources": (701, "integration"),
    "device_assert": (710, "functional_correctness"),
    "no_kernel_image": (209, "environment_dependency"),
    "no_device": (100, "environment_dependency"),
}


def record_runs(cwd: Path) -> None:
    layout(cwd, SOLUTION)
    run(BUILD, cwd)
    rc, text = run("./test", cwd)
    save("run_no_driver", text, stage="run", exit=rc, target="solution.cu", expect="environment_dependency",
         harness_fault=True, source="recorded: ./test on a machine with the toolkit but no GPU driver",
         note="what a test prints where no device is usable")
    (cwd / "demo.cu").write_text(CHECK_DEMO)
    run("nvcc -O2 -arch=sm_80 -o demo demo.cu", cwd)
    rc, text = run("./demo", cwd)
    save("run_harness_mismatch", text, stage="run", exit=rc, target="solution.cu", expect="functional_correctness",
         source="recorded: the shared harness header's tolerance check on a host buffer with two wrong values",
         note="the harness's own mismatch report")
    for name, (code, expect) in CODES.items():
        rc, text = run(f"./demo {code}", cwd)
        save(f"run_check_{name}", text, stage="run", exit=rc, target="solution.cu", expect=expect,
             harness_fault=expect == "environment_dependency",
             source=f"recorded: the harness's CUDA_CHECK given error code {code} directly (cudart's own message "
                    "text; no GPU here, so the fault itself was not produced)",
             note="the line a test prints when a CUDA call or kernel fails")


ERROR_TABLE = """\
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>
int main()
{
    for (int e = 0; e < 1000; ++e) {
        cudaError_t err = (cudaError_t)e;
        if (strstr(cudaGetErrorName(err), "unrecognized") == nullptr)
            printf("%d\\t%s\\t%s\\n", e, cudaGetErrorName(err), cudaGetErrorString(err));
    }
}
"""


def record_error_table(cwd: Path) -> None:
    """cudaGetErrorName / cudaGetErrorString for every code: needs libcudart, not a device."""
    (cwd / "errors.cu").write_text(ERROR_TABLE)
    run("nvcc -o errors errors.cu", cwd)
    _, text = run("./errors", cwd)
    release = subprocess.run(["nvcc", "--version"], capture_output=True, text=True, check=False).stdout
    version = release.strip().splitlines()[-1] if release.strip() else "unknown"
    head = f"# cudaGetErrorName / cudaGetErrorString for every code, printed by libcudart ({version})\n"
    (HERE / "cudart_error_strings.tsv").write_text(head + text)


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        cwd = Path(tmp)
        record_builds(cwd)
        record_special_builds(cwd)
        for f in cwd.iterdir():
            if f.is_file():
                f.unlink()
        record_runs(cwd)
        record_error_table(cwd)
    return 0


if __name__ == "__main__":
    sys.exit(main())
