"""Loading a case file: the generic schema, then its domain's rules and its oracle kinds' own specs."""

from __future__ import annotations

import contextlib
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Union

from pydantic import ValidationError, create_model

from .cases import Case, CaseModel, OracleSpec, StrongSpec, check_unknown, describe, find_case_files, inject, read_files
from .domains import DOMAINS
from .oracles import kind_of, oracle_kinds
from .verdict import CaseError

try:  # the standard library's TOML 1.0 parser as a compiled wheel (pinned to a TOML 1.0 release): 2x faster
    from tomli import TOMLDecodeError
    from tomli import loads as toml_loads
except ImportError:  # pragma: no cover - the same parser, in pure Python
    from tomllib import TOMLDecodeError  # type: ignore[assignment]
    from tomllib import loads as toml_loads

# Cases the fork server read before forking the workers (forkserver.py): path -> what was read and when.
_PRELOADED: dict[Path, _ReadAhead] = {}
# A file changed less than this long before it was read ahead may change again within its timestamps' resolution
# and keep them: its content is compared (as git treats a "racy" index entry).
RACY_NS = 2_000_000_000


@dataclass(frozen=True)
class _ReadAhead:
    """A case read ahead, with the status of its case.toml and of every file it names at that time."""

    case: Case
    text: str  # the case.toml
    stamps: tuple[tuple[str | None, tuple[int, ...]], ...]  # (name, or None for case.toml; file status)
    racy: frozenset[str | None]  # the files changed just before they were read: their timestamps cannot tell

    def unchanged(self, path: Path) -> bool:
        for name, stamp in self.stamps:
            file = path if name is None else path.parent / name
            if _stamp(file) != stamp:
                return False
            if name in self.racy:
                text = self.text if name is None else self.case.files[name]
                if file.read_text(encoding="utf-8") != text:
                    return False
        return True


def _stamp(file: Path) -> tuple[int, ...]:
    """Which file this is and when it last changed (following links, as reading it does)."""
    info = os.stat(file)
    return info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns


def preload_cases(paths: list[str]) -> None:
    """Read the case files under these command-line paths ahead of the workers that will collect them."""
    roots = [Path(os.path.abspath(p.split("::")[0])) for p in paths]
    for path in find_case_files(roots):
        with contextlib.suppress(CaseError, OSError, UnicodeDecodeError):
            at_ns = time.time_ns()
            before = _stamp(path)
            text = path.read_text(encoding="utf-8")
            case = load_case(path)
            if case.repo is None:
                stamps = ((None, before), *((name, _stamp(path.parent / name)) for name in case.files))
                racy = frozenset(name for name, (*_, mtime_ns, ctime_ns) in stamps
                                 if at_ns - max(mtime_ns, ctime_ns) < RACY_NS)
                _PRELOADED[path] = _ReadAhead(case, text, stamps, racy)


def _preloaded(path: Path) -> Case | None:
    """A case read ahead, once, if its case.toml and every file it names are the files read then, unchanged
    since: same file, size and change times, and the same text for a file changed just before it was read."""
    hit = _PRELOADED.pop(path, None)
    if hit is None:
        return None
    try:
        return hit.case if hit.unchanged(path) else None
    except (OSError, UnicodeDecodeError):
        return None


def load_case(path: Path, *, strict: bool = False) -> Case:
    """Parse, validate and read every file a case names; raises CaseError with one line."""
    if _PRELOADED and not strict:
        case = _preloaded(path)
        if case is not None:
            return case
    raw = _read_toml(path)
    if raw.get("kind") == "repo":  # a repository case: its own sub-model and loader (DESIGN §3)
        from .repo.load import load_repo_case

        return load_repo_case(path, raw, strict=strict)
    try:
        model = CaseModel.model_validate(raw)
    except ValidationError as exc:
        raise CaseError(f"{path}: {describe(exc, raw)}") from None
    problem = _domain_problem(model)
    if problem:
        raise CaseError(f"{path}: {problem}")
    model = model.model_copy(update=_typed_oracles(path, model, raw))
    for name, field in model.oracle.case_files("oracle"):
        if name in (*model.sources, *model.data):
            raise CaseError(f"{path}: {field}: {name!r} is also a source or data file; the expected output "
                            "must never be copied into the workspace")
    check_unknown(path, model, strict)
    case = Case(path, model, read_files(path, model))
    for bug in model.bug:
        inject(case, bug)
    return case


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        return toml_loads(path.read_text(encoding="utf-8"))
    except TOMLDecodeError as exc:
        raise CaseError(f"{path}: TOML syntax: {exc}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CaseError(f"{path}: cannot read: {exc}") from None


def _domain_problem(model: CaseModel) -> str | None:
    domain = DOMAINS.get(model.domain)
    if domain is None:
        return f"domain: {model.domain!r} is not one of {', '.join(DOMAINS)}"
    # The named kind alone is looked up (its module imported); every kind only to say which are allowed.
    kind = kind_of(model.oracle.kind)
    if kind is None or not kind.suite or model.domain not in kind.domains:
        kinds = [k.name for k in oracle_kinds().values() if k.suite and model.domain in k.domains]
        return f"oracle.kind: {model.oracle.kind!r} is not one of {', '.join(kinds)} for domain {model.domain}"
    strong = model.strong_oracle
    if strong is not None:
        kind = kind_of(strong.kind)
        if kind is None or not kind.strong or model.domain not in kind.domains:
            allowed = [k.name for k in oracle_kinds().values() if k.strong and model.domain in k.domains]
            return (f"strong_oracle.kind: {strong.kind!r} is not one of {', '.join(allowed) or '(none installed)'} "
                    f"for domain {model.domain}")
    if domain.requires_spec and model.spec is None:
        return f"spec: required for {model.domain} cases"
    return next((p for p in (domain.bug_problem(bug) for bug in model.bug) if p), None)


def _typed_oracles(path: Path, model: CaseModel, raw: dict[str, Any]) -> dict[str, Any]:
    """The `[oracle]` and `[strong_oracle]` tables validated by their kinds' own spec models."""
    suite = kind_of(model.oracle.kind)
    assert suite is not None  # _domain_problem found it
    update: dict[str, Any] = {"oracle": _validate(path, suite.spec, raw, "oracle")}
    if model.strong_oracle is not None:
        strong = kind_of(model.strong_oracle.kind)
        assert strong is not None
        update["strong_oracle"] = _validate(path, strong.strong_spec, raw, "strong_oracle")
    return update


def _validate(path: Path, spec: type[OracleSpec] | type[StrongSpec], raw: dict[str, Any], table: str) -> Any:
    body = raw.get(table) or {}
    try:
        return spec.model_validate(body)
    except ValidationError as exc:
        raise CaseError(f"{path}: {describe(exc, body, table)}") from None


def json_schema() -> dict[str, Any]:
    """The JSON Schema of `case.toml` (printed by `hwrepair schema`): a design case with every installed oracle
    kind's spec, or a repository case."""
    kinds = oracle_kinds().values()
    suite: Any = Union[tuple(dict.fromkeys(k.spec for k in kinds if k.suite))]  # noqa: UP007 (built at run time)
    strong: Any = Union[tuple(dict.fromkeys(k.strong_spec for k in kinds if k.strong))]  # noqa: UP007
    published = create_model("CaseFile", __base__=CaseModel, oracle=(suite, ...), strong_oracle=(strong | None, None))
    schema: dict[str, Any] = published.model_json_schema(by_alias=True)
    # Unknown keys are rejected under strict (and warned about otherwise): publish the strict form.
    for node in [schema, *schema.get("$defs", {}).values()]:
        if node.get("type") == "object":
            node["additionalProperties"] = False
    from .repo.schema import case_file_schema

    return case_file_schema(schema)


__all__ = ["json_schema", "load_case"]
