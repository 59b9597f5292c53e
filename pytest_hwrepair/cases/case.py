"""The case file schema (DESIGN §3), loading with one-line errors, and bug injection."""

from __future__ import annotations

import hashlib
import re
import warnings
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path, PurePosixPath
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from ..verdict import CaseError

MAX_TOLERANCE = 1e12
MAX_TIMEOUT = 86_400.0  # one day: any larger timeout is a typo, and `inf` would never end a step
_BUG_ID = re.compile(r"^[A-Z][A-Z0-9_]*-[0-9]{2,}$")


class SpecModel(BaseModel):
    # Unknown keys are collected, then rejected or warned about by `check_unknown`.
    model_config = ConfigDict(extra="allow", frozen=True)


class OracleSpec(SpecModel):
    """What every oracle spec has; each oracle kind extends it with its own fields (DESIGN §3)."""

    kind: str
    assets: list[str] = []
    timeout: float = Field(10.0, gt=0, le=MAX_TIMEOUT, allow_inf_nan=False)

    @field_validator("assets")
    @classmethod
    def _assets_stay_inside(cls, assets: list[str]) -> list[str]:
        for asset in assets:
            if problem := path_problem(asset):
                raise ValueError(f"assets: {asset!r} {problem.replace('case directory', 'oracles/ directory')}")
        return assets

    def case_files(self, where: str) -> list[tuple[str, str]]:
        """Files of the case directory this spec names (read with the case; e.g. an expected output)."""
        return []


class StrongSpec(SpecModel):
    """The `[strong_oracle]` table; each strong oracle kind extends it with its own fields."""

    kind: str
    timeout: float = Field(30.0, gt=0, le=MAX_TIMEOUT, allow_inf_nan=False)
    runs: int = Field(20, gt=0, le=10_000)

    def case_files(self, where: str) -> list[tuple[str, str]]:
        return []


class Bug(SpecModel):
    """One benchmark instance: an injected edit or a whole broken file."""

    id: str
    type: str | None = None
    file: str | None = None
    find: str | None = None
    replace: str | None = None
    occurrence: int | None = Field(None, ge=1, le=1_000_000)
    broken: str | None = None
    error_log: str | None = None
    bucket: str | None = None
    note: str = ""
    class_: str | None = Field(None, alias="class")

    @property
    def bug_type(self) -> str:
        """The declared type, else the id's prefix (`OPSWAP-01` -> `OPSWAP`)."""
        return self.type or self.id.rsplit("-", 1)[0]

    @model_validator(mode="after")
    def _check_edit(self) -> Bug:
        if not _BUG_ID.match(self.id):
            raise ValueError(f"id: {self.id!r} must look like TYPE-NN (e.g. SHFT-01)")
        has_edit = self.find is not None or self.replace is not None
        if has_edit and self.broken is not None:
            raise ValueError("broken: give either find/replace or broken, not both")
        if not has_edit and self.broken is None:
            raise ValueError("find: a bug needs find/replace or broken")
        if has_edit and (self.find is None or self.replace is None):
            missing = "find" if self.find is None else "replace"
            raise ValueError(f"{missing}: find and replace go together")
        if self.find is not None and self.find == self.replace:
            raise ValueError("replace: the edit changes nothing")
        if self.find == "":
            raise ValueError("find: must not be empty")
        if self.class_ is not None and self.class_ not in ("syntactic", "behavioural"):
            raise ValueError(f"class: {self.class_!r} is not one of syntactic, behavioural")
        return self


class CaseModel(SpecModel):
    """The whole `case.toml`."""

    schema_: Literal[1] = Field(alias="schema")
    id: str = Field(pattern=r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$")
    domain: str
    suite: str = Field(pattern=r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$")
    title: str = ""
    sources: list[str] = Field(min_length=1)
    target: str
    spec: str | None = None
    data: list[str] = []
    entry: str | None = None
    oracle: OracleSpec
    strong_oracle: StrongSpec | None = None
    bug: list[Bug] = Field(min_length=1)

    @model_validator(mode="after")
    def _check_case(self) -> CaseModel:
        if self.target not in self.sources:
            raise ValueError(f"target: {self.target!r} is not listed in sources")
        seen: set[str] = set()
        for bug in self.bug:
            if bug.id in seen:
                raise ValueError(f"[{bug.id}] id: duplicate bug id")
            seen.add(bug.id)
        return self


def compile_regex(pattern: str, name: str) -> None:
    """Raise ValueError (`name: invalid regex: ...`) when the pattern does not compile."""
    try:
        re.compile(pattern)
    except re.error as exc:
        raise ValueError(f"{name}: invalid regex: {exc}") from None


class RepoInstances(Protocol):
    """What a case reads of its repository parts (a repository case's `RepoParts`, repo/load.py)."""

    @property
    def issues(self) -> dict[str, str]: ...

    def snapshot(self, bug_id: str) -> dict[str, str]: ...


@dataclass(frozen=True)
class Case:
    """A loaded, checked case: the model plus its directory and file texts."""

    path: Path
    model: CaseModel
    files: dict[str, str]
    repo: RepoInstances | None = None  # a repository case (kind = "repo"): its tree, snapshots, patches and tests

    @property
    def root(self) -> Path:
        return self.path.parent

    @property
    def id(self) -> str:
        return self.model.id

    @property
    def domain(self) -> str:
        return self.model.domain

    @property
    def suite(self) -> str:
        return self.model.suite

    @property
    def target(self) -> str:
        return self.model.target

    def target_of(self, bug: Bug) -> str:
        """The file a fixer returns for one bug: the bug's own file (a design over several files), else the target."""
        return bug.file or self.target

    @property
    def oracle(self) -> OracleSpec:
        return self.model.oracle

    @property
    def bugs(self) -> list[Bug]:
        return self.model.bug

    def bug(self, bug_id: str) -> Bug:
        for bug in self.model.bug:
            if bug.id == bug_id:
                return bug
        raise KeyError(bug_id)

    @cached_property
    def digest(self) -> str:
        """Hash of the case file and every file it names: a changed case gives new keys."""
        h = hashlib.sha256(self.path.read_bytes())
        for name in sorted(self.files):
            h.update(name.encode() + b"\0" + self.files[name].encode() + b"\0")
        return h.hexdigest()

    def golden_files(self) -> dict[str, str]:
        """The known-good visible files: ground truth, never shown to a fixer but `reference`."""
        return {name: self.files[name] for name in self.model.sources}

    def buggy_files(self, bug: Bug) -> dict[str, str]:
        """The visible files with the bug injected (a repository case: the instance's whole snapshot)."""
        if self.repo is not None:
            return self.repo.snapshot(bug.id)
        return {**self.golden_files(), self.target_of(bug): inject(self, bug)}

    def loc(self, name: str | None = None) -> int:
        """Non-blank lines of a source file (default: the target)."""
        return sum(1 for line in self.files[name or self.target].splitlines() if line.strip())

    @property
    def spec_text(self) -> str | None:
        return self.files.get(self.model.spec) if self.model.spec else None


def inject(case: Case, bug: Bug) -> str:
    """The bug's file after the edit; raises CaseError on a missing or ambiguous snippet."""
    name = case.target_of(bug)
    if bug.broken is not None:
        return case.files[bug.broken]
    text = case.files[name]
    assert bug.find is not None and bug.replace is not None
    count = text.count(bug.find)
    where = f"{case.path}: [{bug.id}] find"
    if count == 0:
        raise CaseError(f"{where}: snippet not found in {name}")
    if bug.occurrence is None and count > 1:
        raise CaseError(f"{where}: snippet occurs {count} times in {name}; make it unique or set occurrence")
    index = bug.occurrence or 1
    if index > count:
        raise CaseError(f"{case.path}: [{bug.id}] occurrence: {index} but the snippet occurs {count} times in {name}")
    start = -1
    for _ in range(index):
        start = text.index(bug.find, start + 1)
    return text[:start] + bug.replace + text[start + len(bug.find):]


def describe(exc: ValidationError, raw: dict[str, Any], where: str = "") -> str:
    """A validation error as one line: `[bug id] field: problem` (fields under `where.`)."""
    err = exc.errors()[0]
    loc = [str(part) for part in err["loc"]]
    prefix = ""
    if len(loc) >= 2 and loc[0] == "bug" and loc[1].isdigit():
        bugs = raw.get("bug") or []
        index = int(loc[1])
        entry = bugs[index] if index < len(bugs) else None
        bug_id = entry.get("id", f"#{index + 1}") if isinstance(entry, dict) else f"#{index + 1}"
        prefix = f"[{bug_id}] "
        loc = loc[2:]
    msg = err["msg"].removeprefix("Value error, ")
    if err["type"] == "missing":
        msg = "missing required field"
    elif err["type"] == "literal_error" and loc == ["schema"]:
        msg = f"unsupported schema version {err.get('input')!r}; this version reads schema = 1"
    field = ".".join([where, *loc] if where else loc)
    if not field or re.match(r"^(\[[^\]]+\] )?[a-z_.]+: ", msg):
        return f"{prefix}{msg}"
    return f"{prefix}{field}: {msg}"


def check_unknown(path: Path, model: CaseModel, strict: bool) -> None:
    """Unknown keys: an error under strict, a warning otherwise (DESIGN §3)."""
    problems = _unknown(model) + [f"[{bug.id}] {p}" for bug in model.bug for p in _unknown(bug)]
    for problem in problems:
        message = f"{path}: {problem}: unknown field"
        if strict:
            raise CaseError(message)
        warnings.warn(message, UserWarning, stacklevel=2)


def _unknown(model: BaseModel, prefix: str = "") -> list[str]:
    found = [f"{prefix}{key}" for key in (model.model_extra or {})]
    for name in type(model).model_fields:
        value = getattr(model, name)
        if isinstance(value, BaseModel) and not isinstance(value, Bug):
            found += _unknown(value, f"{prefix}{name}.")
    return found


def read_files(path: Path, model: CaseModel) -> dict[str, str]:
    """The text of every file the case names, each checked to stay inside the case directory."""
    names: list[tuple[str, str]] = [(n, "sources") for n in model.sources]
    names += [(n, "data") for n in model.data]
    if model.spec:
        names.append((model.spec, "spec"))
    names += model.oracle.case_files("oracle")
    if model.strong_oracle is not None:
        names += model.strong_oracle.case_files("strong_oracle")
    for bug in model.bug:
        if bug.file is not None and bug.file not in model.sources:
            raise CaseError(f"{path}: [{bug.id}] file: {bug.file!r} is not listed in sources")
        names += [(getattr(bug, f), f"[{bug.id}] {f}") for f in ("broken", "error_log") if getattr(bug, f) is not None]
    files: dict[str, str] = {}
    root = path.parent.resolve()
    for name, field_name in names:
        if problem := path_problem(name):
            raise CaseError(f"{path}: {field_name}: {name!r} {problem}")
        file = (root / name).resolve()
        if not file.is_relative_to(root):
            raise CaseError(f"{path}: {field_name}: {name!r} points outside the case directory")
        try:
            files[name] = file.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise CaseError(f"{path}: {field_name}: file {name!r} does not exist") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise CaseError(f"{path}: {field_name}: cannot read {name!r}: {exc}") from None
    return files


def path_problem(name: str) -> str | None:
    """Why a path named by a case file may not be used (absolute, `..`, empty), or None."""
    if not name or not name.strip():
        return "is empty"
    if PurePosixPath(name).is_absolute():
        return "points outside the case directory (an absolute path)"
    if ".." in PurePosixPath(name).parts:
        return "points outside the case directory ('..' is not allowed)"
    return None


def find_case_files(paths: list[Path]) -> list[Path]:
    """Every case.toml under the given files or directories, sorted."""
    found: set[Path] = set()
    for p in paths:
        if p.is_file() and p.name == "case.toml":
            found.add(p)
        elif p.is_dir():
            found.update(q for q in p.rglob("case.toml") if not any(part.startswith(".") for part in q.parts))
    return sorted(found)
