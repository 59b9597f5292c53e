"""Mutation analysis of every Verilog file of a multi-file rtl design, not only its target.

`hwrepair validate --mutants` mutates a case's target file. For a design over several files this
script runs it once per source file, on a scratch copy of the case whose target is that file; the
arguments for mutants shown equivalent by hand come from `mutants.toml` for the case's own target and
from `mutants.<file stem>.toml` for the other files. The per-file results files can be merged into one
table with `hwrepair stats --mutants FILE...`.

Usage: python scripts/mutants_by_file.py CASE_DIR OUT_DIR [--mutants N] [--mutant-seed S] [-j J]
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path


def scratch_case(case_dir: Path, target: str, root: Path) -> Path:
    """A copy of the case whose target is `target`, with that file's equivalence arguments."""
    copy = root / case_dir.name
    shutil.copytree(case_dir, copy)
    text = (copy / "case.toml").read_text(encoding="utf-8")
    own = tomllib.loads(text)["target"]
    (copy / "case.toml").write_text(re.sub(r'(?m)^target = ".*"$', f'target = "{target}"', text, count=1),
                                    encoding="utf-8")
    notes = case_dir / ("mutants.toml" if target == own else f"mutants.{Path(target).stem}.toml")
    (copy / "mutants.toml").unlink(missing_ok=True)
    if notes.is_file():
        shutil.copy(notes, copy / "mutants.toml")
    for extra in copy.glob("mutants.*.toml"):
        extra.unlink()
    return copy


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("case_dir", type=Path)
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--mutants", type=int, default=40)
    parser.add_argument("--mutant-seed", type=int, default=0)
    parser.add_argument("-j", "--jobs", type=int, default=1)
    ns = parser.parse_args(argv)
    sources = [s for s in tomllib.loads((ns.case_dir / "case.toml").read_text(encoding="utf-8"))["sources"]
               if s.endswith(".v")]
    ns.out_dir.mkdir(parents=True, exist_ok=True)
    status = 0
    for source in sources:
        # The scratch copy sits next to the case's suite folder name, so results keep the case's domain/suite/id.
        with tempfile.TemporaryDirectory(prefix="hwrepair-mutants-by-file-") as tmp:
            suite = Path(tmp) / ns.case_dir.parent.name
            suite.mkdir()
            copy = scratch_case(ns.case_dir, source, suite)
            out = ns.out_dir / f"{ns.case_dir.name}.{Path(source).stem}.json"
            cmd = [sys.executable, "-m", "pytest_hwrepair.cli", "validate", "--mutants", str(ns.mutants),
                   "--mutant-seed", str(ns.mutant_seed), "-j", str(ns.jobs), "--mutants-out", str(out), str(copy)]
            print(f"== {source}: {' '.join(cmd[1:])}", flush=True)
            status |= subprocess.run(cmd, check=False).returncode
    return status


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
