#!/usr/bin/env python3
"""Cache pytest's rewritten bytecode of every pytest_hwrepair module, and the plain bytecode of each.

pytest rewrites the asserts of a plugin's modules each time it starts (every xdist worker too) unless
their rewritten bytecode is cached next to them; with PYTHONDONTWRITEBYTECODE=1 (set in many
container images) it never is, and each worker spends about half a CPU second rewriting and compiling
the package. `./dev setup` runs this once with bytecode writing allowed; the workers then read the
cache (pytest reads it whatever PYTHONDONTWRITEBYTECODE says). The `hwrepair` command imports the
package without pytest: its plain bytecode is cached too (an editable install has none of its own), about
0.1 s of every `hwrepair report`.

    env -u PYTHONDONTWRITEBYTECODE python scripts/warm_bytecode.py
"""

from __future__ import annotations

import compileall
import importlib
import pkgutil
import sys
import tempfile
from pathlib import Path

import pytest

# As in a run from the checkout (pytest puts the rootdir of conftest.py on sys.path): the rewrite hook
# finds the package's files there, and caches exactly the bytecode such a run reads.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


class _ImportEverything:
    """Imports each module of the package while pytest's rewrite hook is installed."""

    def __init__(self) -> None:
        self.failed: list[str] = []

    def pytest_configure(self, config: pytest.Config) -> None:
        import pytest_hwrepair

        for info in pkgutil.walk_packages(pytest_hwrepair.__path__, "pytest_hwrepair."):
            try:
                importlib.import_module(info.name)
            except Exception as exc:  # an optional dependency that is not installed: nothing to cache
                self.failed.append(f"{info.name}: {type(exc).__name__}: {exc}")


def main() -> int:
    if sys.dont_write_bytecode:
        print("warm_bytecode: bytecode writing is off (PYTHONDONTWRITEBYTECODE or -B): nothing cached",
              file=sys.stderr)
        return 0
    plugin = _ImportEverything()
    with tempfile.TemporaryDirectory(prefix="hwrepair-warm-") as empty:
        code = pytest.main(["--collect-only", "-q", "-p", "no:cacheprovider", "--rootdir", empty, empty],
                           plugins=[plugin])
    for line in plugin.failed:
        print(f"warm_bytecode: not imported: {line}", file=sys.stderr)
    import pytest_hwrepair  # only now: imported before pytest.main, the package would miss the rewrite hook

    plain = compileall.compile_dir(Path(pytest_hwrepair.__file__).parent, quiet=1)
    if code not in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED):
        return int(code)
    return 0 if plain else 1


if __name__ == "__main__":
    raise SystemExit(main())
