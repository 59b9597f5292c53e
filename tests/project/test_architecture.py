"""The package's shape: folders by stage, a root of faces, no import circle, no private internals."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "pytest_hwrepair"
DOMAINS = frozenset({"hls", "rtl", "cuda"})
# Where a domain's name may be compared: its own folders, and the registries that list the domains.
DOMAIN_HOMES = ("oracles/hls/", "oracles/rtl/", "oracles/cuda/", "repo/", "cases/domains.py", "importers/")
FORBIDDEN = ("_pytest", "execnet", "threading._shutdown", "atexit._run_exitfuncs", "gc.freeze", "gc.disable",
             "os.fork", "os.forkpty")
# Private attributes of pytest's nodes, config and fixtures, reached by name or through getattr.
PYTEST_PRIVATE = ("_fixtureinfo", "_fixturemanager", "_pytestfixturefunction", "_request", "_initrequest", "_obj",
                  "_getconftestmodules", "_conftest_plugins", "_inicache", "_store")


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set[str]:
    """Modules of the package this module imports anywhere: at module level, in a function, for type checking."""
    tree = ast.parse(path.read_text())
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for sub in ast.walk(tree):
        if isinstance(sub, ast.ImportFrom):
            base = sub.module or ""
            if sub.level:
                anchor = package.split(".")[: len(package.split(".")) - (sub.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            if base.startswith("pytest_hwrepair"):
                found.add(base)
                found.update(f"{base}.{a.name}" for a in sub.names)
        elif isinstance(sub, ast.Import):
            found.update(a.name for a in sub.names if a.name.startswith("pytest_hwrepair"))
    return found


def graph() -> dict[str, set[str]]:
    modules = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    edges = {name: {m for m in imports(path) if m in modules and m != name} for name, path in modules.items()}
    # A package's __init__ importing its own submodules is how a package exports them, not a circle.
    return {name: {m for m in found if not m.startswith(name + ".")} for name, found in edges.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    found: list[list[str]] = []
    state: dict[str, int] = {}

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(edges[node]):
            if state.get(nxt) == 1:
                found.append(path[path.index(nxt):] + [nxt] if nxt in path else [node, nxt])
            elif nxt not in state:
                visit(nxt, [*path, nxt])
        state[node] = 2

    for start in sorted(edges):
        if start not in state:
            visit(start, [start])
    return found


def test_no_import_circle_counting_type_only_imports() -> None:
    assert cycles(graph()) == []


def test_the_circle_check_finds_a_type_only_circle() -> None:
    assert cycles({"a": {"b"}, "b": {"a"}}) == [["a", "b", "a"]]


def test_the_package_root_holds_only_the_faces() -> None:
    root = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(root) <= 12, root


def _domain_comparisons(path: Path) -> list[str]:
    tree = ast.parse(path.read_text())
    hits = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        for part in [node.left, *node.comparators]:
            values = part.elts if isinstance(part, ast.Tuple | ast.List | ast.Set) else [part]
            if any(isinstance(v, ast.Constant) and v.value in DOMAINS for v in values):
                hits.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: {ast.unparse(node)}")
    return hits


def test_no_domain_name_is_compared_outside_its_domain() -> None:
    hits = [hit for p in sorted(PACKAGE.rglob("*.py"))
            if not str(p.relative_to(PACKAGE)).startswith(DOMAIN_HOMES) for hit in _domain_comparisons(p)]
    assert hits == []


def test_no_private_internals_of_pytest_xdist_execnet_or_cpython() -> None:
    used = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Attribute):
                names = [ast.unparse(node)] + ([f"_pytest.{node.attr}"] if node.attr in PYTEST_PRIVATE else [])
            elif isinstance(node, ast.Constant) and node.value in PYTEST_PRIVATE:
                names = [f"_pytest.{node.value}"]
            used += [f"{path.relative_to(PACKAGE)}:{node.lineno}: {n}" for n in names
                     if any(n == f or n.startswith(f + ".") for f in FORBIDDEN)]
    assert used == []
