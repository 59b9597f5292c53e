"""The package's shape: no module over 400 lines, no import circles between its modules."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "pytest_hwrepair"
LIMIT = 400


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set[str]:
    """Modules of the package this module imports, at module level or in a function (not for type checking)."""
    tree = ast.parse(path.read_text())
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    guarded = [n for n in ast.walk(tree) if isinstance(n, ast.If) and "TYPE_CHECKING" in ast.unparse(n.test)]
    skipped = {id(n) for node in guarded for n in ast.walk(node)}
    for node in [tree]:
        for sub in (n for n in ast.walk(node) if id(n) not in skipped):
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
    return {name: {m for m in imports(path) if m in modules and m != name} for name, path in modules.items()}


def test_no_module_is_over_400_lines() -> None:
    long = {str(p.relative_to(PACKAGE)): n for p in PACKAGE.rglob("*.py")
            if (n := len(p.read_text().splitlines())) > LIMIT}
    assert long == {}


def test_no_import_circles() -> None:
    edges = graph()
    # A package's __init__ importing its own submodules is how a package exports them, not a circle.
    for name in edges:
        edges[name] = {m for m in edges[name] if not m.startswith(name + ".")}
    cycles = []
    state: dict[str, int] = {}

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(edges[node]):
            if state.get(nxt) == 1:
                cycles.append(path[path.index(nxt):] + [nxt] if nxt in path else [node, nxt])
            elif nxt not in state:
                visit(nxt, [*path, nxt])
        state[node] = 2

    for start in sorted(edges):
        if start not in state:
            visit(start, [start])
    assert cycles == []
