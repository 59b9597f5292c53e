"""A repository case (`kind = "repo"`): its `case.toml` schema, and loading the fixed tree, each issue, each gold
patch and the snapshot it reverses to.

The broken snapshot of an instance is the fixed tree with its gold patch reversed; the patch must apply
back exactly, may not touch harness-owned testbench paths and must change at least one HDL file.

```toml
schema = 1
kind = "repo"
id = "uartio"                      # the repository
domain = "rtl"
suite = "repo"
tree = "tree"                      # the fixed repository, relative to the case directory
readme = "README.md"               # inside the tree: what the repository says about itself
testbenches = ["tb"]               # harness-owned paths of the tree: rewritten at judging, edits discarded
timeout = 30                       # seconds per build or run step (a test may set its own)

[[test]]
name = "fifo"
build = "iverilog -g2012 -o fifo.vvp -y rtl tb/tb_fifo.v"
run = "vvp -n fifo.vvp"

[[bug]]
id = "XMOD-01"                     # TYPE-NN; TYPE one of REPO_BUG_TYPES
issue = "issues/XMOD-01.md"        # what a user reported: the symptom, not the fix
patch = "patches/XMOD-01.diff"     # unified diff turning the snapshot into the fixed tree
f2p = ["loopback"]                 # fail on the snapshot, pass once fixed
p2p = ["fifo"]                     # pass on both
note = "the cause, for maintainers; never shown to a fixer"
```
"""

from __future__ import annotations

import os
import re
import stat
import warnings
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from ..cases.case import Bug, Case, CaseModel, OracleSpec, describe
from ..verdict import CaseError
from .patch import PatchError, apply, changed_paths, check_path, parse, reverse

HDL_SUFFIXES = (".v", ".sv", ".vh", ".svh")
MAX_TREE_FILES = 2000
MAX_FILE_BYTES = 1 << 20

REPO_BUG_TYPES = {
    "XMOD": "the symptom shows in a different module from the cause",
    "WIDTH": "a port or width mismatch across the hierarchy",
    "RESET": "a clock or reset issue",
    "FSM": "an FSM control bug",
    "PROTO": "a protocol bug visible at a testbench interface",
    "LOGIC": "a datapath or control logic bug",
}
_NAME = r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$"
_BUG_ID = re.compile(r"^([A-Z][A-Z0-9_]*)-[0-9]{2,}$")


class _Model(BaseModel):
    # Unknown keys are collected, then rejected or warned about by the loader.
    model_config = ConfigDict(extra="allow", frozen=True)


class RepoTest(_Model):
    """One harness-owned testbench run: a build step, then a run step in the staged repository."""

    name: str = Field(pattern=_NAME)
    build: str = Field(min_length=1)
    run: str = Field(min_length=1)
    timeout: float | None = Field(None, gt=0, le=600)


class RepoBug(_Model):
    """One repository instance: an issue, its gold patch and its fail-to-pass / pass-to-pass tests."""

    id: str
    issue: str
    patch: str
    f2p: list[str] = Field(min_length=1)
    p2p: list[str] = []
    note: str = ""

    @property
    def bug_type(self) -> str:
        return self.id.rsplit("-", 1)[0]

    @model_validator(mode="after")
    def _check(self) -> RepoBug:
        if not (m := _BUG_ID.match(self.id)):
            raise ValueError(f"id: {self.id!r} must look like TYPE-NN (e.g. XMOD-01)")
        if m.group(1) not in REPO_BUG_TYPES:
            raise ValueError(f"id: type {m.group(1)!r} is not one of {', '.join(REPO_BUG_TYPES)}")
        if both := sorted(set(self.f2p) & set(self.p2p)):
            raise ValueError(f"p2p: test {both[0]!r} is also listed in f2p")
        for name, tests in (("f2p", self.f2p), ("p2p", self.p2p)):
            if len(set(tests)) != len(tests):
                raise ValueError(f"{name}: a test is listed twice")
        return self


class RepoCaseModel(_Model):
    """The whole `case.toml` of a repository case."""

    schema_: Literal[1] = Field(alias="schema")
    kind: Literal["repo"]
    id: str = Field(pattern=_NAME)
    domain: Literal["rtl"]
    suite: str = Field(pattern=_NAME)
    title: str = ""
    tree: str = "tree"
    readme: str = "README.md"
    testbenches: list[str] = ["tb"]
    timeout: float = Field(30.0, gt=0, le=600)
    test: list[RepoTest] = Field(min_length=1)
    bug: list[RepoBug] = Field(min_length=1)

    @model_validator(mode="after")
    def _check(self) -> RepoCaseModel:
        names = [t.name for t in self.test]
        duplicate = next((n for n in names if names.count(n) > 1), None)
        if duplicate is not None:
            raise ValueError(f"test: duplicate test name {duplicate!r}")
        seen: set[str] = set()
        for bug in self.bug:
            if bug.id in seen:
                raise ValueError(f"[{bug.id}] id: duplicate bug id")
            seen.add(bug.id)
            unknown = [t for t in [*bug.f2p, *bug.p2p] if t not in names]
            if unknown:
                raise ValueError(f"[{bug.id}] f2p: test {unknown[0]!r} is not declared (tests: {', '.join(names)})")
        return self

    def test_by_name(self, name: str) -> RepoTest:
        return next(t for t in self.test if t.name == name)


def unknown_keys(model: RepoCaseModel) -> list[str]:
    """Every key the schema does not know, with its place (`test[fifo].x`, `[XMOD-01] y`)."""
    found = [str(k) for k in (model.model_extra or {})]
    found += [f"test[{t.name}].{k}" for t in model.test for k in (t.model_extra or {})]
    found += [f"[{b.id}] {k}" for b in model.bug for k in (b.model_extra or {})]
    return found


def case_file_schema(design: dict[str, Any]) -> dict[str, Any]:
    """The schema of `case.toml`: one of the design-case schema (strict form given) and the repository-case model
    in the strict form (unknown keys are errors under strict, warnings otherwise)."""
    repo = RepoCaseModel.model_json_schema(by_alias=True)
    for node in [repo, *repo.get("$defs", {}).values()]:
        if node.get("type") == "object":
            node["additionalProperties"] = False
    schemas = {"CaseModel": dict(design), "RepoCaseModel": repo}
    defs = {k: v for s in schemas.values() for k, v in s.pop("$defs", {}).items()}
    one_of = [{"$ref": f"#/$defs/{name}"} for name in schemas]
    return {"title": "case.toml", "oneOf": one_of, "$defs": {**defs, **schemas}}


def is_hdl(path: str) -> bool:
    return PurePosixPath(path).suffix.lower() in HDL_SUFFIXES


@dataclass(frozen=True)
class RepoParts:
    """A loaded repository case: the fixed tree and, per instance, its issue, gold patch and snapshot."""

    model: RepoCaseModel
    tree: dict[str, str]
    snapshots: dict[str, dict[str, str]]
    issues: dict[str, str]
    patches: dict[str, str]

    @property
    def testbenches(self) -> tuple[str, ...]:
        return tuple(p.rstrip("/") for p in self.model.testbenches)

    def is_testbench(self, path: str) -> bool:
        """A harness-owned path: the harness writes its own copy, candidate edits to it are discarded."""
        return any(path == tb or path.startswith(tb + "/") for tb in self.testbenches)

    def snapshot(self, bug_id: str) -> dict[str, str]:
        return dict(self.snapshots[bug_id])

    def bug(self, bug_id: str) -> RepoBug:
        return next(b for b in self.model.bug if b.id == bug_id)

    def tests(self, bug_id: str | None) -> list[tuple[str, RepoTest]]:
        """(`f2p` | `p2p`, test) of one instance, or ("all", test) for every test of the repository."""
        if bug_id is None:
            return [("all", t) for t in self.model.test]
        bug = self.bug(bug_id)
        return ([("f2p", self.model.test_by_name(n)) for n in bug.f2p]
                + [("p2p", self.model.test_by_name(n)) for n in bug.p2p])

    def timeout(self, test: RepoTest) -> float:
        return test.timeout or self.model.timeout

    def case_files(self) -> dict[str, str]:
        """Every text of the case, for its digest: the tree, then issues and patches under `../` (never a tree path)."""
        files = dict(self.tree)
        for bug in self.model.bug:
            files[f"../{bug.issue}"] = self.issues[bug.id]
            files[f"../{bug.patch}"] = self.patches[bug.id]
        return files


def load_repo_case(path: Path, raw: dict[str, Any], *, strict: bool = False) -> Case:
    """A repository case as a core `Case`: the tree as sources, the README as target and spec, `repo` set, each
    instance a bug of class `repo`, the oracle `rtl-repo` with the longest test timeout."""
    try:
        model = RepoCaseModel.model_validate(raw)
    except ValidationError as exc:
        raise CaseError(f"{path}: {describe(exc, raw)}") from None
    parts = load_repo(path, model, strict=strict)
    oracle = OracleSpec.model_validate({"kind": "rtl-repo", "timeout": max(parts.timeout(t) for t in model.test)})
    # No find/replace: the snapshot is the bug.
    bugs = [Bug.model_construct(id=b.id, type=b.bug_type, note=b.note, class_="repo") for b in model.bug]
    core = CaseModel.model_construct(schema_=1, id=model.id, domain=model.domain, suite=model.suite, title=model.title,
                                     sources=sorted(parts.tree), target=model.readme, spec=model.readme,
                                     oracle=oracle, bug=bugs)
    return Case(path, core, parts.case_files(), parts)


def load_repo(path: Path, model: RepoCaseModel, *, strict: bool = False) -> RepoParts:
    """Read and check everything a repository case names; raises CaseError with one line."""
    for problem in unknown_keys(model):
        message = f"{path}: {problem}: unknown field"
        if strict:
            raise CaseError(message)
        warnings.warn(message, UserWarning, stacklevel=3)
    parts = RepoParts(model, read_tree(path, _inside(path, model.tree, "tree")), {}, {}, {})
    _check_layout(path, parts)
    for bug in model.bug:
        parts.issues[bug.id] = _read_text(path, bug.issue, f"[{bug.id}] issue")
        if not parts.issues[bug.id].strip():
            raise CaseError(f"{path}: [{bug.id}] issue: {bug.issue!r} is empty")
        parts.patches[bug.id] = _read_text(path, bug.patch, f"[{bug.id}] patch")
        parts.snapshots[bug.id] = _snapshot(path, parts, bug)
    return parts


def _check_layout(path: Path, parts: RepoParts) -> None:
    if parts.model.readme not in parts.tree:
        raise CaseError(f"{path}: readme: {parts.model.readme!r} is not a file of the tree")
    for tb in parts.testbenches:
        if not tb or not any(p == tb or p.startswith(tb + "/") for p in parts.tree):
            raise CaseError(f"{path}: testbenches: {tb!r} names no file of the tree")
    if not any(is_hdl(p) and not parts.is_testbench(p) for p in parts.tree):
        raise CaseError(f"{path}: tree: no HDL design file outside the testbench paths")


def _snapshot(path: Path, parts: RepoParts, bug: RepoBug) -> dict[str, str]:
    where = f"{path}: [{bug.id}] patch"
    try:
        patches = parse(parts.patches[bug.id])
    except PatchError as exc:
        raise CaseError(f"{where}: {exc}") from None
    owned = sorted(fp.path for fp in patches if parts.is_testbench(fp.path))
    if owned:
        raise CaseError(f"{where}: touches the harness-owned testbench path {owned[0]!r}")
    try:
        snapshot = apply(parts.tree, reverse(patches))
        forward = apply(snapshot, patches)
    except PatchError as exc:
        raise CaseError(f"{where}: does not reverse-apply to the tree: {exc}") from None
    if forward != parts.tree:
        raise CaseError(f"{where}: applied to its snapshot, it does not give the fixed tree back")
    if not any(is_hdl(p) for p in changed_paths(snapshot, parts.tree)):
        raise CaseError(f"{where}: changes no HDL file")
    return snapshot


def read_tree(path: Path, root: Path) -> dict[str, str]:
    """Every file under `root` by POSIX path: regular UTF-8 text files only, no links, bounded."""
    if not root.is_dir():
        raise CaseError(f"{path}: tree: {root.name!r} is not a directory")
    files: dict[str, str] = {}
    for folder, dirs, names in os.walk(root):
        dirs.sort()
        for name in sorted(names) + [d for d in dirs if (Path(folder) / d).is_symlink()]:
            full = Path(folder) / name
            rel = full.relative_to(root).as_posix()
            info = os.lstat(full)
            if not stat.S_ISREG(info.st_mode):
                raise CaseError(f"{path}: tree: {rel!r} is not a regular file (links are not allowed)")
            if info.st_size > MAX_FILE_BYTES:
                raise CaseError(f"{path}: tree: {rel!r} has {info.st_size} bytes; at most {MAX_FILE_BYTES}")
            try:
                files[check_path(rel)] = full.read_text(encoding="utf-8")
            except (UnicodeDecodeError, PatchError) as exc:
                raise CaseError(f"{path}: tree: cannot read {rel!r}: {exc}") from None
            if len(files) > MAX_TREE_FILES:
                raise CaseError(f"{path}: tree: more than {MAX_TREE_FILES} files")
    if not files:
        raise CaseError(f"{path}: tree: the directory is empty")
    return files


def _inside(path: Path, name: str, field: str) -> Path:
    root = path.parent.resolve()
    target = (root / name).resolve()
    if not target.is_relative_to(root) or target == root:
        raise CaseError(f"{path}: {field}: {name!r} points outside the case directory")
    return target


def _read_text(path: Path, name: str, field: str) -> str:
    file = _inside(path, name, field)
    try:
        return file.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CaseError(f"{path}: {field}: file {name!r} does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CaseError(f"{path}: {field}: cannot read {name!r}: {exc}") from None
