"""Write the gold patch of a repository instance: the diff that turns a broken snapshot into the fixed tree.

    python scripts/repo_gold_patch.py SNAPSHOT_DIR FIXED_TREE > cases/rtl/repo/NAME/patches/ID.diff

Both directories are read as file sets (every regular file); the diff has a/ b/ headers and three lines of
context, the form `hwrepair validate` reverses to rebuild the snapshot.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pytest_hwrepair.repo.load import read_tree
from pytest_hwrepair.repo.patch import write


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("snapshot", type=Path)
    parser.add_argument("fixed", type=Path)
    ns = parser.parse_args(argv)
    diff = write(read_tree(ns.snapshot, ns.snapshot), read_tree(ns.fixed, ns.fixed))
    if not diff:
        print("the two trees are identical", file=sys.stderr)
        return 1
    sys.stdout.write(diff)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
