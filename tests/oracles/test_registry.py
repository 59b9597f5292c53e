"""The built-in oracle kinds are found by name, each module imported when a case names its kind."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys

import pytest

from pytest_hwrepair import oracles
from pytest_hwrepair.oracles import BUILTIN_MODULES, OracleKind, builtin_kind, kind_of, oracle_kinds


@pytest.mark.parametrize("name", sorted(BUILTIN_MODULES))
def test_each_built_in_name_is_the_kind_its_module_defines(name: str) -> None:
    module, attribute = BUILTIN_MODULES[name]
    kind = getattr(importlib.import_module(f"pytest_hwrepair.oracles.{module}"), attribute)
    assert isinstance(kind, OracleKind) and kind.name == name
    assert builtin_kind(name) is kind and kind_of(name) is kind and oracle_kinds()[name] is kind


def test_every_oracle_kind_defined_in_the_package_is_registered() -> None:
    """A kind added to a module without its registry line would never be found by name."""
    import pkgutil

    defined = set()
    for info in pkgutil.walk_packages(oracles.__path__, "pytest_hwrepair.oracles."):
        module = importlib.import_module(info.name)
        defined |= {v.name for v in vars(module).values() if isinstance(v, OracleKind)}
    assert defined == set(BUILTIN_MODULES)


def test_an_unknown_name_is_none_and_the_factories_map_lists_every_kind() -> None:
    assert kind_of("no-such-kind") is None and builtin_kind("no-such-kind") is None
    assert set(BUILTIN_MODULES) <= set(oracles.ORACLES)
    with pytest.raises(AttributeError, match="no attribute 'NOT_THERE'"):
        oracles.NOT_THERE  # noqa: B018


def test_a_registry_line_naming_the_wrong_object_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BUILTIN_MODULES, "exit-code-typo", ("hls.oracle", "OUTPUT_DIFF"))
    try:
        with pytest.raises(TypeError, match="is not the oracle kind 'exit-code-typo'"):
            builtin_kind("exit-code-typo")
    finally:
        builtin_kind.cache_clear()


def test_loading_an_hls_case_imports_no_rtl_or_cuda_oracle() -> None:
    code = (
        "import sys, tempfile, textwrap\n"
        "from pathlib import Path\n"
        "import pytest_hwrepair.plugin\n"
        "from pytest_hwrepair.cases.load import load_case\n"
        "d = Path(tempfile.mkdtemp())\n"
        "(d / 'k.c').write_text('int main(void) { return 0; }\\n')\n"
        "(d / 'case.toml').write_text(textwrap.dedent('''\n"
        "    schema = 1\n    id = \"k\"\n    domain = \"hls\"\n    suite = \"s\"\n    title = \"t\"\n"
        "    sources = [\"k.c\"]\n    target = \"k.c\"\n    [oracle]\n    kind = \"exit-code\"\n"
        "    build = \"gcc k.c -o prog\"\n    run = \"./prog\"\n    [strong_oracle]\n    kind = \"hls-diff\"\n"
        "    [[bug]]\n    id = \"ZERO-01\"\n    type = \"ZERO\"\n"
        "    find = \"return 0\"\n    replace = \"return 1\"\n'''))\n"
        "load_case(d / 'case.toml')\n"
        "print(sorted(n for n in sys.modules if n.startswith('pytest_hwrepair.oracles.')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    loaded = set(ast.literal_eval(out.strip()))
    assert "pytest_hwrepair.oracles.hls.oracle" in loaded
    assert not loaded & {"pytest_hwrepair.oracles.rtl.oracle", "pytest_hwrepair.oracles.cuda.oracle",
                         "pytest_hwrepair.oracles.cuda.diff", "pytest_hwrepair.oracles.rtl.repo_tests",
                         "pytest_hwrepair.oracles.cuda.classify"}
