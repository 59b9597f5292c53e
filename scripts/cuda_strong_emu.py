#!/usr/bin/env python3
"""Check the cuda-diff plumbing without a GPU: every task's reference on the CPU emulator at each
strong-oracle configuration (HWR_SHAPE=N HWR_SEED=N), and which configurations catch its logic starts.

    python3 scripts/cuda_strong_emu.py [CASE_DIRS...] [--runs 6] [--jobs 2]

Prints one row per task: the sizes the reference saw at each configuration (its first HWR_SIZE
values, printed by the emulator build only), PASS/FAIL of the reference per configuration, and per
logic_error start the configurations that fail it. Exit status 1 when a reference fails anywhere.
The emulator runs blocks one after another and cannot show races or GPU faults: this checks the
size and seed plumbing and the harness's own checks at the generated sizes, not the kernels on a GPU.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "scripts"))
from validate_cuda_gpu import EMULATOR, rewrite_launches  # noqa: E402

HEADER = REPO / "oracles" / "cuda" / "hwrepair_check.cuh"
# Prints the sizes HWR_SIZE returned, so the table shows that the configurations really differ.
SIZE_PROBE = '#define HWR_SIZE(gpu, small) hwr_probe(hwr_size((gpu), (small), 1))\n'
PROBE_FN = ('static int hwr_probe(int v) { fprintf(stderr, "HWR-SIZE %d\\n", v); return v; }\n')


def build(folder: Path, solution: str, scratch: Path, tag: str) -> Path | None:
    ws = scratch / tag
    ws.mkdir(parents=True)
    for name in ("test_main.cu",):
        (ws / name).write_text(rewrite_launches((folder / name).read_text(encoding="utf-8")), encoding="utf-8")
    (ws / "solution.cu").write_text(rewrite_launches(solution), encoding="utf-8")
    header = HEADER.read_text(encoding="utf-8").replace(
        "#define HWR_SIZE(gpu, small) hwr_size((gpu), (small), 1)\n"
        "#define HWR_SIZE_MULTIPLE(gpu, small, m) hwr_size((gpu), (small), (m))",
        PROBE_FN + SIZE_PROBE + "#define HWR_SIZE_MULTIPLE(gpu, small, m) hwr_probe(hwr_size((gpu), (small), (m)))\n")
    (ws / "hwrepair_check.cuh").write_text(header, encoding="utf-8")
    cmd = f"g++ -std=c++17 -O1 -w -DHWR_EMULATE -I{EMULATOR} -x c++ test_main.cu -o test_emu -lm"
    done = subprocess.run(cmd, shell=True, cwd=ws, capture_output=True, text=True, timeout=600)
    return ws / "test_emu" if done.returncode == 0 else None


def run(binary: Path, config: int, timeout: float) -> tuple[bool, list[int], str]:
    env = {**os.environ, "HWR_SHAPE": str(config), "HWR_SEED": str(config)}
    try:
        done = subprocess.run([str(binary)], cwd=binary.parent, env=env, capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return False, [], "timeout"
    sizes = [int(line.split()[1]) for line in done.stderr.splitlines() if line.startswith("HWR-SIZE ")]
    ok = done.returncode == 0 and "PASSED" in done.stdout
    last = (done.stdout.strip().splitlines() or [""])[-1]
    return ok, sizes, last[:80]


def check(folder: Path, runs: int, timeout: float) -> tuple[str, bool]:
    case = tomllib.loads((folder / "case.toml").read_text(encoding="utf-8"))
    configs = list(range(0, runs + 1))
    lines, good = [], True
    with tempfile.TemporaryDirectory(prefix="cuda-strong-emu-") as tmp:
        scratch = Path(tmp)
        ref = build(folder, (folder / case["target"]).read_text(encoding="utf-8"), scratch, "ref")
        if ref is None:
            return f"{folder}: reference does not build on the emulator", False
        cells = []
        for config in configs:
            ok, sizes, last = run(ref, config, timeout)
            good &= ok
            cells.append(f"{config}:{'PASS' if ok else 'FAIL ' + last} {sizes[:4]}")
        lines.append(f"{case['suite']}/{case['id']}: reference " + "; ".join(cells))
        for bug in case["bug"]:
            if bug.get("bucket") != "logic_error":
                continue
            start = build(folder, (folder / bug["broken"]).read_text(encoding="utf-8"), scratch, bug["id"])
            if start is None:
                lines.append(f"  {bug['id']}: does not build on the emulator")
                continue
            caught = [c for c in configs if not run(start, c, timeout)[0]]
            lines.append(f"  {bug['id']} (logic_error): failed at configurations {caught or 'none'}")
    return "\n".join(lines), good


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="*", type=Path, default=[REPO / "cases" / "cuda"])
    parser.add_argument("--runs", type=int, default=6, help="configurations 1..RUNS (0, the suite's, is added)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=120.0)
    args = parser.parse_args()
    if shutil.which("g++") is None:
        print("g++ not found", file=sys.stderr)
        return 2
    folders = sorted({p.parent for root in args.paths for p in root.rglob("case.toml")})
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(lambda f: check(f, args.runs, args.timeout), folders))
    for text, _ in results:
        print(text, flush=True)
    bad = sum(not ok for _, ok in results)
    print(f"{len(folders)} tasks, {bad} with a reference failing some configuration")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
