"""Loading a case file: the generic schema, then its domain's rules and its oracle kinds' own specs."""

from __future__ import annotations

from pathlib import Path
from tomllib import TOMLDecodeError
from tomllib import loads as toml_loads
from typing import Any, Union

from pydantic import ValidationError, create_model

from ..oracles import kind_of, oracle_kinds
from ..verdict import CaseError
from .case import Case, CaseModel, OracleSpec, StrongSpec, check_unknown, describe, inject, read_files
from .domains import DOMAINS


def load_case(path: Path, *, strict: bool = False) -> Case:
    """Parse, validate and read every file a case names; raises CaseError with one line."""
    raw = _read_toml(path)
    if raw.get("kind") == "repo":  # a repository case: its own sub-model and loader (DESIGN §3)
        from ..repo.load import load_repo_case

        return load_repo_case(path, raw, strict=strict)
    try:
        model = CaseModel.model_validate(raw)
    except ValidationError as exc:
        raise CaseError(f"{path}: {describe(exc, raw)}") from None
    if problem := _domain_problem(model):
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
    if (domain := DOMAINS.get(model.domain)) is None:
        return f"domain: {model.domain!r} is not one of {', '.join(DOMAINS)}"
    # The named kind alone is looked up (its module imported); every kind only to say which are allowed.
    for table, spec, role in (("oracle", model.oracle, "suite"), ("strong_oracle", model.strong_oracle, "strong")):
        if spec is None:
            continue
        kind = kind_of(spec.kind)
        if kind is None or not getattr(kind, role) or model.domain not in kind.domains:
            allowed = [k.name for k in oracle_kinds().values() if getattr(k, role) and model.domain in k.domains]
            return (f"{table}.kind: {spec.kind!r} is not one of {', '.join(allowed) or '(none installed)'} "
                    f"for domain {model.domain}")
    if domain.requires_spec and model.spec is None:
        return f"spec: required for {model.domain} cases"
    return next((p for p in (domain.bug_problem(bug) for bug in model.bug) if p), None)


def _typed_oracles(path: Path, model: CaseModel, raw: dict[str, Any]) -> dict[str, Any]:
    """The `[oracle]` and `[strong_oracle]` tables validated by their kinds' own spec models."""
    update: dict[str, Any] = {}
    for table, given in (("oracle", model.oracle), ("strong_oracle", model.strong_oracle)):
        kind = kind_of(given.kind) if given is not None else None
        if kind is None:  # no strong oracle (_domain_problem found every kind named)
            continue
        spec: type[OracleSpec] | type[StrongSpec] = kind.spec if table == "oracle" else kind.strong_spec
        body = raw.get(table) or {}
        try:
            update[table] = spec.model_validate(body)
        except ValidationError as exc:
            raise CaseError(f"{path}: {describe(exc, body, table)}") from None
    return update


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
    from ..repo.load import case_file_schema

    return case_file_schema(schema)
