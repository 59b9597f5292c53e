"""The upstream HLS programs as cases: CHStone, MachSuite and PolyBench/C (3.x or 4.x), each with its suite oracle."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .base import ImporterError, read_text
from .snippets import find_definitions

DATASETS = ("MINI", "SMALL", "MEDIUM", "STANDARD", "LARGE", "EXTRALARGE")
# PolyBench/C 4.x has MEDIUM where 3.x has STANDARD (its default); a kernel given the other release's size
# (-DSTANDARD_DATASET for 4.x) silently builds its default size instead.
_DATASETS_OF = {"3": ("MINI", "SMALL", "STANDARD", "LARGE", "EXTRALARGE"),
                "4": ("MINI", "SMALL", "MEDIUM", "LARGE", "EXTRALARGE")}
_TIMEOUTS = {"MINI": 10.0, "SMALL": 10.0, "MEDIUM": 30.0, "STANDARD": 120.0, "LARGE": 120.0, "EXTRALARGE": 600.0}
_VERSION = re.compile(r"PolyBench/C\s+(\d+(?:\.\d+)*)")
STEP_TIMEOUT = 10.0
# CHStone programs print `main_result` last and return it: the last line must be 0 (the exit
# status must be 0 too, and statuses wrap at 256, so both matter).
CHSTONE_STDOUT = r"^0\s*\Z"
DRIVER = "hwrepair_driver.c"
# A driver for MachSuite's per-benchmark API: input.data in, output.data out. The upstream harness compares with
# check.data inside the candidate's process; here the harness compares output.data with it, outside the workspace.
MACHSUITE_DRIVER = """\
/* Runs one MachSuite benchmark: reads the input file, runs it, writes the output file. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "support.h"

int main(int argc, char **argv) {
  char *data;
  int fd;
  if (argc != 3) {
    fprintf(stderr, "usage: %s INPUT OUTPUT\\n", argv[0]);
    return 2;
  }
  data = calloc(1, INPUT_SIZE);
  fd = open(argv[1], O_RDONLY);
  if (data == NULL || fd < 0) {
    fprintf(stderr, "cannot read %s\\n", argv[1]);
    return 2;
  }
  input_to_data(fd, data);
  close(fd);
  run_benchmark(data);
  fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) {
    fprintf(stderr, "cannot write %s\\n", argv[2]);
    return 2;
  }
  data_to_output(fd, data);
  close(fd);
  free(data);
  return 0;
}
"""


@dataclass(frozen=True)
class Program:
    """One upstream program: its files, where functions are looked up, and its oracle."""

    suite: str
    name: str
    title: str
    files: dict[str, str]  # sources: copied into the workspace and shown to the fixer
    search: tuple[str, ...]  # the files whose functions bugs may live in, in lookup order
    oracle: dict[str, Any]
    data: dict[str, str] = field(default_factory=dict)  # copied into the workspace, not shown
    expected: dict[str, str] = field(default_factory=dict)  # kept out of the workspace
    version: str = ""  # the upstream release, where the suite has several (PolyBench/C 3.2, 4.2.1)

    def definitions(self, function: str) -> list[tuple[str, int, int]]:
        """(file, start, end) of every definition of `function` in this program."""
        return [(name, s.start, s.end) for name in self.search for s in find_definitions(self.files[name], function)]


def chstone(root: Path, timeout: float | None = None) -> list[Program]:
    """One program per CHStone folder; the file defining `main` is built and includes the rest."""
    if not root.is_dir():
        raise ImporterError(f"{root}: not a directory")
    programs = []
    for folder in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".") and any(p.glob("*.c"))):
        files = {p.name: text for p in sorted(folder.iterdir()) if p.is_file() and (text := read_text(p)) is not None
                 and not p.name.startswith(".")}
        entry = next((n for n in sorted(files) if n.endswith(".c") and find_definitions(files[n], "main")), None)
        if entry is None:
            continue
        search = (entry, *sorted(n for n in files if n != entry and not n.endswith((".txt", ".md"))))
        oracle = {"kind": "exit-code", "build": f"gcc -O0 {entry} -o prog -lm", "run": "./prog",
                  "timeout": timeout or STEP_TIMEOUT, "stdout": CHSTONE_STDOUT}
        programs.append(Program("chstone", folder.name, f"CHStone {folder.name}", files, search, oracle))
    return _must(programs, root, "--chstone", "no program folder with a .c file defining main")


def machsuite(root: Path, timeout: float | None = None) -> list[Program]:
    """One program per MachSuite benchmark folder (`<kernel>/<algorithm>/` with local_support.c)."""
    common = root / "common"
    support = {n: read_text(common / n) for n in ("support.c", "support.h")}
    if any(v is None for v in support.values()):
        raise ImporterError(f"--machsuite {root}: common/support.c and common/support.h are required")
    programs = []
    for local in sorted(root.glob("*/*/local_support.c")):
        folder = local.parent
        # generate.c and test programs (aes_test.c) have their own main: the driver is the only one.
        own = {p.name: text for p in sorted(folder.iterdir()) if p.suffix in (".c", ".h")
               and (text := read_text(p)) is not None and not (p.suffix == ".c" and find_definitions(text, "main"))}
        kernel = _make_var(folder / "Makefile", "KERN") or folder.parent.name
        check, given = read_text(folder / "check.data"), read_text(folder / "input.data")
        if check is None or given is None or f"{kernel}.c" not in own:
            continue
        # A benchmark that includes the shared header by its upstream path (backprop's
        # "../../common/support.h") keeps the upstream layout; the others are laid out flat.
        here, shared = (f"{folder.parent.name}/{folder.name}/", "common/") if any(
            '"../../common/' in text for text in own.values()) else ("", "")
        files = {**{here + n: t for n, t in own.items()},
                 **{shared + n: t for n, t in support.items() if t is not None}}
        sources = " ".join(n for n in files if n.endswith(".c"))
        includes = f"-I{shared.rstrip('/')}" if shared else "-I."
        oracle = {"kind": "output-diff", "build": f"gcc -O0 {includes} {sources} {DRIVER} -o prog -lm",
                  "run": "./prog input.data output.data", "timeout": timeout or STEP_TIMEOUT,
                  "compare": "file:output.data",
                  "expected": "check.data", "tolerance": _epsilon(own.get("local_support.c", ""))}
        main = here + f"{kernel}.c"
        search = (main, *sorted(n for n in files if n != main))
        name = f"{folder.parent.name}_{folder.name}"
        programs.append(Program("machsuite", name, f"MachSuite {folder.parent.name}/{folder.name}", files, search,
                                oracle, {"input.data": given, DRIVER: MACHSUITE_DRIVER}, {"check.data": check}))
    return _must(programs, root, "--machsuite",
                 "no <kernel>/<algorithm>/local_support.c with input.data and check.data")


def polybench(root: Path, dataset: str, timeout: float | None = None) -> list[Program]:
    """One program per PolyBench/C kernel (3.x or 4.x), dumping its live-out arrays at the chosen dataset size."""
    utilities = root / "utilities"
    util = {n: read_text(utilities / n) for n in ("polybench.c", "polybench.h")}
    if any(v is None for v in util.values()):
        raise ImporterError(f"--polybench {root}: utilities/polybench.c and utilities/polybench.h are required")
    version = polybench_version(root)
    sizes = _DATASETS_OF.get(version.split(".")[0], _DATASETS_OF["4"])
    if dataset not in sizes:
        raise ImporterError(f"--dataset {dataset}: PolyBench/C {version} ({root}) has the datasets {', '.join(sizes)}")
    listed = utilities / "benchmark_list"
    paths = ([root / line.strip() for line in listed.read_text(encoding="utf-8").splitlines() if line.strip()]
             if listed.is_file() else sorted(p for p in root.glob("*/**/*.c") if p.parent.name == p.stem))
    programs = []
    for path in sorted(paths, key=lambda p: p.stem):
        header = path.with_suffix(".h")
        text, head = read_text(path), read_text(header)
        if text is None or head is None:
            continue
        files = {path.name: text, header.name: head, **{n: t for n, t in util.items() if t is not None}}
        oracle = {"kind": "output-diff", "timeout": timeout or _TIMEOUTS[dataset], "compare": "stderr",
                  "tolerance": 0.0,
                  "build": f"gcc -O0 -I. -DPOLYBENCH_DUMP_ARRAYS -D{dataset}_DATASET polybench.c {path.name} "
                           "-o prog -lm", "run": "./prog"}
        programs.append(Program("polybench", path.stem, f"PolyBench/C {version} {path.stem} ({dataset} dataset)",
                                files, (path.name, "polybench.c"), oracle, version=version))
    return _must(programs, root, "--polybench", "no kernel sources (utilities/benchmark_list or <kernel>/<kernel>.c)")


def polybench_version(root: Path) -> str:
    """The release a PolyBench/C checkout says it is (README or utilities), else what its dump macros show:
    4.x names its dump target (POLYBENCH_DUMP_TARGET), 3.x prints to stderr directly."""
    for path in (root / "README", root / "utilities" / "polybench.h", root / "utilities" / "polybench.c"):
        if m := _VERSION.search(read_text(path) or ""):
            return m.group(1)
    return "4.x" if "POLYBENCH_DUMP_TARGET" in (read_text(root / "utilities" / "polybench.h") or "") else "3.x"


def _must(programs: list[Program], root: Path, option: str, what: str) -> list[Program]:
    if not programs:
        raise ImporterError(f"{option} {root}: {what}")
    return programs


def _make_var(makefile: Path, name: str) -> str | None:
    m = re.search(rf"^{name}\s*[:?]?=\s*(\S+)", read_text(makefile) or "", re.MULTILINE)
    return m.group(1) if m else None


def _epsilon(text: str) -> float:
    """The benchmark's own check_data tolerance (`#define EPSILON ...`), else exact."""
    m = re.search(r"^#define\s+EPSILON\s+[(\s]*(?:\(\s*\w+\s*\))?\s*([0-9.]+(?:[eE][-+]?\d+)?)", text, re.MULTILINE)
    return float(m.group(1)) if m else 0.0
