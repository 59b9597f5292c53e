"""The `case.toml` of a repository case (`kind = "repo"`): its own sub-model of the case schema.

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

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

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
        m = _BUG_ID.match(self.id)
        if not m:
            raise ValueError(f"id: {self.id!r} must look like TYPE-NN (e.g. XMOD-01)")
        if m.group(1) not in REPO_BUG_TYPES:
            raise ValueError(f"id: type {m.group(1)!r} is not one of {', '.join(REPO_BUG_TYPES)}")
        both = sorted(set(self.f2p) & set(self.p2p))
        if both:
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

    def bug_by_id(self, bug_id: str) -> RepoBug:
        return next(b for b in self.bug if b.id == bug_id)

    def test_by_name(self, name: str) -> RepoTest:
        return next(t for t in self.test if t.name == name)


def unknown_keys(model: RepoCaseModel) -> list[str]:
    """Every key the schema does not know, with its place (`test[fifo].x`, `[XMOD-01] y`)."""
    found = [str(k) for k in (model.model_extra or {})]
    found += [f"test[{t.name}].{k}" for t in model.test for k in (t.model_extra or {})]
    found += [f"[{b.id}] {k}" for b in model.bug for k in (b.model_extra or {})]
    return found


def strict_schema(model: type[BaseModel]) -> dict[str, Any]:
    """A model's JSON Schema in the strict form: unknown keys are errors under strict, warnings otherwise."""
    schema = model.model_json_schema(by_alias=True)
    for node in [schema, *schema.get("$defs", {}).values()]:
        if node.get("type") == "object":
            node["additionalProperties"] = False
    return schema


def case_file_schema(design: dict[str, Any]) -> dict[str, Any]:
    """The schema of `case.toml`: one of the design-case schema (strict form given) and the repository-case model."""
    schemas = {"CaseModel": dict(design), "RepoCaseModel": strict_schema(RepoCaseModel)}
    defs = {k: v for s in schemas.values() for k, v in s.pop("$defs", {}).items()}
    one_of = [{"$ref": f"#/$defs/{name}"} for name in schemas]
    return {"title": "case.toml", "oneOf": one_of, "$defs": {**defs, **schemas}}


__all__ = ["REPO_BUG_TYPES", "RepoBug", "RepoCaseModel", "RepoTest", "case_file_schema", "strict_schema",
           "unknown_keys"]
