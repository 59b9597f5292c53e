"""The case file schema (DESIGN §3), loading with one-line errors, and bug injection."""

from __future__ import annotations

import hashlib
import re
import tomllib
import warnings
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from .verdict import CaseError

HLS_BUG_TYPES = ("OOB", "SHFT", "INF", "MLU", "ZERO", "USE", "BUF", "INIT")
CUDA_BUCKETS = ("compile_error", "logic_error", "memory_crash", "timeout", "perf_broken")
ORACLE_KINDS = {
    "hls": ("exit-code", "output-diff"),
    "rtl": ("rtl-lint", "rtl-sim", "rtl-equiv"),
    "cuda": ("cuda",),
}
_BUG_ID = re.compile(r"^[A-Z][A-Z0-9_]*-[0-9]{2,}$")


class _Model(BaseModel):
    # Unknown keys are collected, then rejected or warned about by `check_unknown`.
    model_config = ConfigDict(extra="allow", frozen=True)


class Reset(_Model):
    signal: str
    active: Literal[0, 1] = 0
    cycles: int = Field(2, ge=0)


class AntiCheat(_Model):
    blocked: list[str] = []
    required: list[str] = []


class OracleSpec(_Model):
    """The suite oracle; fields beyond `kind` depend on the kind."""

    kind: str
    build: str | None = None
    run: str | None = None
    assets: list[str] = []
    timeout: float = Field(10.0, gt=0, allow_inf_nan=False)
    stdout: str | None = None
    compare: str = "stdout"
    tolerance: float = Field(0.0, ge=0, allow_inf_nan=False)
    rel_tolerance: float = Field(0.0, ge=0, allow_inf_nan=False)
    expected: str | None = None
    # rtl
    top: str | None = None
    modules: list[str] = []
    clock: str | None = None
    reset: Reset | None = None
    compare_from: int = Field(0, ge=0)
    cycles: int = Field(200, gt=0)
    seeds: int = Field(10, gt=0)
    init: str = "reset"
    # cuda
    min_sm: int | None = None
    requires: list[str] = []
    timing: str | None = None
    anti_cheat: AntiCheat = AntiCheat()
    perf_gate: float | None = None

    @model_validator(mode="after")
    def _check_fields(self) -> OracleSpec:
        if self.compare != "stdout" and self.compare != "stderr" and not self.compare.startswith("file:"):
            raise ValueError("compare: must be stdout, stderr or file:NAME")
        if self.stdout is not None:
            _compile_regex(self.stdout, "stdout")
        if self.timing is not None:
            _compile_regex(self.timing, "timing")
        return self


class StrongOracle(_Model):
    kind: str
    timeout: float = Field(30.0, gt=0, allow_inf_nan=False)
    runs: int = Field(20, gt=0)
    # hls-diff (its oracle module checks what depends on the kind)
    seeds: int = Field(8, ge=1, le=1000)
    run: str | None = None
    build: str | None = None
    compare: str | None = None
    tolerance: float | None = Field(None, ge=0, allow_inf_nan=False)
    rel_tolerance: float | None = Field(None, ge=0, allow_inf_nan=False)
    sanitize: bool = False
    variants: list[dict[str, str]] = []


class Bug(_Model):
    """One benchmark instance: an injected edit or a whole broken file."""

    id: str
    type: str | None = None
    file: str | None = None
    find: str | None = None
    replace: str | None = None
    occurrence: int | None = Field(None, ge=1)
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
        if self.bucket is not None and self.bucket not in CUDA_BUCKETS:
            raise ValueError(f"bucket: {self.bucket!r} is not one of {', '.join(CUDA_BUCKETS)}")
        return self


class CaseModel(_Model):
    """The whole `case.toml`."""

    schema_: Literal[1] = Field(alias="schema")
    id: str = Field(pattern=r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$")
    domain: Literal["hls", "rtl", "cuda"]
    suite: str = Field(pattern=r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$")
    title: str = ""
    sources: list[str] = Field(min_length=1)
    target: str
    spec: str | None = None
    data: list[str] = []
    entry: str | None = None
    oracle: OracleSpec
    strong_oracle: StrongOracle | None = None
    bug: list[Bug] = Field(min_length=1)

    @model_validator(mode="after")
    def _check_case(self) -> CaseModel:
        if self.target not in self.sources:
            raise ValueError(f"target: {self.target!r} is not listed in sources")
        kinds = ORACLE_KINDS[self.domain]
        if self.oracle.kind not in kinds:
            raise ValueError(f"oracle.kind: {self.oracle.kind!r} is not one of {', '.join(kinds)} "
                             f"for domain {self.domain}")
        if self.domain == "rtl" and self.spec is None:
            raise ValueError("spec: required for rtl cases")
        if self.domain == "hls":
            for bug in self.bug:
                if bug.bug_type not in HLS_BUG_TYPES:
                    raise ValueError(f"[{bug.id}] type: {bug.bug_type!r} is not one of {', '.join(HLS_BUG_TYPES)}")
        if self.domain == "rtl":
            for bug in self.bug:
                if bug.class_ is None:
                    raise ValueError(f"[{bug.id}] class: required for rtl bugs (syntactic | behavioural)")
        if self.domain == "cuda":
            for bug in self.bug:
                if bug.bucket is None:
                    raise ValueError(f"[{bug.id}] bucket: required for cuda bugs ({', '.join(CUDA_BUCKETS)})")
        if self.oracle.expected is not None and self.oracle.expected in (*self.sources, *self.data):
            raise ValueError(f"oracle.expected: {self.oracle.expected!r} is also a source or data file; "
                             "the expected output must never be copied into the workspace")
        needs_cmd = self.oracle.kind in ("exit-code", "output-diff", "cuda")
        if needs_cmd and not (self.oracle.build and self.oracle.run):
            raise ValueError("oracle.build: build and run commands are required for this oracle kind")
        if self.oracle.kind.startswith("rtl") and self.oracle.top is None:
            raise ValueError("oracle.top: required for rtl oracles")
        seen: set[str] = set()
        for bug in self.bug:
            if bug.id in seen:
                raise ValueError(f"[{bug.id}] id: duplicate bug id")
            seen.add(bug.id)
        return self


def _compile_regex(pattern: str, name: str) -> None:
    try:
        re.compile(pattern)
    except re.error as exc:
        raise ValueError(f"{name}: invalid regex: {exc}") from None


@dataclass(frozen=True)
class Case:
    """A loaded, checked case: the model plus its directory and file texts."""

    path: Path
    model: CaseModel
    files: dict[str, str]

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

    def text(self, name: str) -> str:
        return self.files[name]

    def buggy_files(self, bug: Bug) -> dict[str, str]:
        """The visible files with the bug injected."""
        files = {name: self.files[name] for name in self.model.sources}
        name = bug.file or self.target
        files[name] = inject(self, bug)
        return files

    def loc(self, name: str | None = None) -> int:
        """Non-blank lines of a source file (default: the target)."""
        return sum(1 for line in self.files[name or self.target].splitlines() if line.strip())

    @property
    def spec_text(self) -> str | None:
        return self.files.get(self.model.spec) if self.model.spec else None


def inject(case: Case, bug: Bug) -> str:
    """The bug's file after the edit; raises CaseError on a missing or ambiguous snippet."""
    name = bug.file or case.target
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
    index = (bug.occurrence or 1)
    if index > count:
        raise CaseError(f"{case.path}: [{bug.id}] occurrence: {index} but the snippet occurs {count} times in {name}")
    start = -1
    for _ in range(index):
        start = text.index(bug.find, start + 1)
    return text[:start] + bug.replace + text[start + len(bug.find):]


def load_case(path: Path, *, strict: bool = False) -> Case:
    """Parse, validate and read every file a case names; raises CaseError with one line."""
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise CaseError(f"{path}: TOML syntax: {exc}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CaseError(f"{path}: cannot read: {exc}") from None
    try:
        model = CaseModel.model_validate(raw)
    except ValidationError as exc:
        raise CaseError(f"{path}: {_describe(exc, raw)}") from None
    check_unknown(path, model, strict)
    case = Case(path, model, _read_files(path, model))
    for bug in model.bug:
        inject(case, bug)
    return case


def _describe(exc: ValidationError, raw: dict[str, Any]) -> str:
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
    field = ".".join(loc)
    if not field or re.match(r"^(\[[^\]]+\] )?[a-z_.]+: ", msg):
        return f"{prefix}{msg}"
    return f"{prefix}{field}: {msg}"


def check_unknown(path: Path, model: CaseModel, strict: bool) -> None:
    """Unknown keys: an error under strict, a warning otherwise (DESIGN §3)."""
    problems = list(_unknown(model, ""))
    for bug in model.bug:
        problems += [f"[{bug.id}] {p}" for p in _unknown(bug, "")]
    for problem in problems:
        message = f"{path}: {problem}: unknown field"
        if strict:
            raise CaseError(message)
        warnings.warn(message, UserWarning, stacklevel=2)


def _unknown(model: BaseModel, prefix: str) -> list[str]:
    found = [f"{prefix}{key}" for key in (model.model_extra or {})]
    for name in type(model).model_fields:
        value = getattr(model, name)
        if isinstance(value, BaseModel) and not isinstance(value, Bug):
            found += _unknown(value, f"{prefix}{name}.")
    return found


def _read_files(path: Path, model: CaseModel) -> dict[str, str]:
    names: list[tuple[str, str]] = [(n, "sources") for n in model.sources]
    names += [(n, "data") for n in model.data]
    if model.spec:
        names.append((model.spec, "spec"))
    if model.oracle.expected:
        names.append((model.oracle.expected, "oracle.expected"))
    for bug in model.bug:
        if bug.file is not None and bug.file not in model.sources:
            raise CaseError(f"{path}: [{bug.id}] file: {bug.file!r} is not listed in sources")
        for field_name in ("broken", "error_log"):
            value = getattr(bug, field_name)
            if value is not None:
                names.append((value, f"[{bug.id}] {field_name}"))
    files: dict[str, str] = {}
    root = path.parent.resolve()
    for name, field_name in names:
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


def json_schema() -> dict[str, Any]:
    """The JSON Schema of `case.toml` (printed by `hwrepair schema`)."""
    schema = CaseModel.model_json_schema(by_alias=True)
    # Unknown keys are rejected under strict (and warned about otherwise): publish the strict form.
    for node in [schema, *schema.get("$defs", {}).values()]:
        if node.get("type") == "object":
            node["additionalProperties"] = False
    return schema


def find_case_files(paths: list[Path]) -> list[Path]:
    """Every case.toml under the given files or directories, sorted."""
    found: set[Path] = set()
    for p in paths:
        if p.is_file() and p.name == "case.toml":
            found.add(p)
        elif p.is_dir():
            found.update(q for q in p.rglob("case.toml") if not any(part.startswith(".") for part in q.parts))
    return sorted(found)
