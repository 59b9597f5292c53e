"""What a report accepts in a record: the JSON types of the fields it reads, checked fast."""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

from ..bugstats import View
from ..results import SampleRecord, decode_line
from ..verdict import Category, RepairProtocol

OUTCOMES = ("passed", "failed", "error", "skipped")
# What a report reads from each record, and the JSON types it accepts there.
FIELD_TYPES: dict[str, tuple[type, ...]] = {
    "run": (str,), "key": (str,), "case": (str,), "bug": (str,), "domain": (str,), "suite": (str,),
    "bug_type": (str,), "fixer": (str,), "protocol": (str,), "sample": (int,), "iteration": (int, type(None)),
    "category": (str,), "patch_sha": (str, type(None)), "loc": (dict,), "tokens": (dict,), "cost_usd": (int, float),
    "speedup": (int, float, type(None)), "strong": (bool, type(None)), "final": (bool,), "exec_id": (str,),
    "label": (str,), "bug_class": (str, type(None)), "summary": (str,), "artifact": (str, type(None)),
    "metrics": (dict,), "stop_reason": (str, type(None)), "nodeid": (str,),
}


class RecordError(ValueError):
    """A record of samples.jsonl holds a value of the wrong type."""


# The same as exact types (a record holds its protocol as the enum): a record whose values all have one
# of them passes without a closer look.
_VALUES = operator.attrgetter(*FIELD_TYPES)
_ENUMS: dict[str, type] = {"protocol": RepairProtocol, "category": Category}
_EXACT = tuple(frozenset(types) | ({_ENUMS[name]} if name in _ENUMS else set()) for name, types in FIELD_TYPES.items())


def check_record(r: SampleRecord) -> None:
    """Raise RecordError naming the first field whose value a report cannot use."""
    if not all(map(frozenset.__contains__, _EXACT, map(type, _VALUES(r)))):
        for name, types in FIELD_TYPES.items():
            value = getattr(r, name)
            if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
                allowed = " or ".join("null" if t is type(None) else t.__name__ for t in types)
                raise RecordError(f"record {r.key!r}: field {name!r} is {value!r}, expected {allowed}")
    if r.outcome not in OUTCOMES:
        raise RecordError(f"record {r.key!r}: field 'outcome' is {r.outcome!r}, expected one of {', '.join(OUTCOMES)}")
    if not all(v.__class__ is int for v in r.loc.values()):
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in r.loc.values()):
            raise RecordError(f"record {r.key!r}: field 'loc' is {r.loc!r}, expected an object of integers")


# A record's JSON takes the fast way when it holds every field a report reads, each with exactly one of
# these types, and known enum values; anything else goes through SampleRecord and check_record, which
# decide and explain.
_ITEMS = operator.itemgetter(*FIELD_TYPES, "cached", "outcome")
_JSON_EXACT = (*(frozenset(types) for types in FIELD_TYPES.values()), frozenset({bool}), frozenset({str}))
_PROTOCOLS, _OUTCOMES, _CATEGORIES = (frozenset(m.value for m in RepairProtocol), frozenset(OUTCOMES),
                                      frozenset(m.value for m in Category))
# The type signatures (the type of each value, in _ITEMS order) already found exact: a run's records share
# a handful, so most records are checked with one lookup.
_SIGNATURES: set[tuple[type, ...]] = set()


def _fast(d: dict[str, Any]) -> bool:
    try:
        values = _ITEMS(d)
    except KeyError:  # a field left to its default: the slow way fills and checks it
        return False
    signature = tuple(map(type, values))
    if signature not in _SIGNATURES:
        if not all(map(frozenset.__contains__, _JSON_EXACT, signature)):
            return False
        if len(_SIGNATURES) < 1024:
            _SIGNATURES.add(signature)
    return (d["protocol"] in _PROTOCOLS and d["outcome"] in _OUTCOMES and d["category"] in _CATEGORIES
            and all(v.__class__ is int for v in d["loc"].values()))


# A plain record: one a tally folds with others a column at a time (`Tally.fold_plain`). It takes
# `record_view`'s fast way (every field a report reads, each with its exact type, known enum values) and is moreover
# final, no iteration of a trajectory, no repository sample (no record a tally keeps), with ints for its token counts
# and retries (where a tally takes `int()`). msgspec decodes a chunk of lines straight into these fields and checks
# their types as it goes, at less than orjson's cost for the dict alone; a line it refuses goes the usual way, one by
# one (orjson and `record_view`), which decides what the line is and explains a wrongly typed field.
ROW = (*FIELD_TYPES, "cached", "outcome")
_JSON_INT = "int"  # orjson reads an integer beyond 64 bits as a float: such a value is left to the usual way
_PLAIN_TYPES: dict[str, Any] = {
    **dict.fromkeys(("run", "key", "case", "bug", "domain", "suite", "bug_type", "fixer", "exec_id", "label", "summary",
                     "nodeid"), str),
    **dict.fromkeys(("patch_sha", "bug_class", "artifact", "stop_reason"), "str | None"),
    "protocol": "protocol", "category": "category", "outcome": "outcome", "sample": _JSON_INT, "iteration": None,
    "loc": "dict[str, int]", "tokens": "dict[str, int]", "cost_usd": "int | float", "speedup": "int | float | None",
    "strong": "bool | None", "final": bool, "cached": bool, "metrics": "object",
}


def _plain_decoder() -> Any:
    try:
        import msgspec
    except ImportError:  # pragma: no cover - msgspec is a dependency; without it every record goes the usual way
        return None
    from typing import Annotated, Literal

    exact = Annotated[int, msgspec.Meta(ge=-(2**63), le=2**63 - 1)]
    known = {
        "str | None": str | None, "int | float": exact | float, "int | float | None": exact | float | None,
        "bool | None": bool | None, "dict[str, int]": dict[str, exact], _JSON_INT: exact,
        "object": dict[str, msgspec.Raw],
        "protocol": Literal[tuple(sorted(_PROTOCOLS))], "category": Literal[tuple(sorted(_CATEGORIES))],
        "outcome": Literal[tuple(sorted(_OUTCOMES))],
    }
    fields = [(name, known.get(kind, kind) if isinstance(kind, str) else kind)
              for name, kind in ((n, _PLAIN_TYPES[n]) for n in ROW)]
    return msgspec.json.Decoder(msgspec.defstruct("PlainRecord", fields, array_like=False, gc=False)), \
        msgspec.structs.astuple, msgspec.MsgspecError


_DECODER = _plain_decoder()


def plain_columns(lines: Sequence[bytes]) -> dict[str, Sequence[Any]] | None:
    """The fields of these lines by name (a tuple of values each) when every line is a plain record; else None.

    The "metrics" column holds each record's metrics decoded by orjson, as the usual way would."""
    if _DECODER is None or not lines:
        return None
    decode, astuple, error = _DECODER
    try:
        records = list(map(decode.decode, lines))
    except error:
        return None
    cols: dict[str, Sequence[Any]] = dict(zip(ROW, zip(*map(astuple, records))))
    if not all(cols["final"]):
        return None
    raws = cols["metrics"]
    if any(raws):  # metrics beyond {}: their values as orjson reads them
        metrics = _metrics(raws)
        if metrics is None:
            return None
        cols["metrics"] = metrics
    return cols


def _metrics(raws: Sequence[dict[str, Any]]) -> list[dict[str, Any]] | None:
    """The records' metrics as orjson reads them, when none is that of a record a tally keeps."""
    out = []
    for raw in raws:
        try:
            metrics = {name: decode_line(bytes(value)) for name, value in raw.items()}
        except ValueError:
            return None
        if metrics.get("repo"):
            return None
        retries = metrics.get("retries")
        if retries and not (retries.__class__ is dict and all(v.__class__ is int for v in retries.values())):
            return None
        out.append(metrics)
    return out


def record_view(d: Any) -> tuple[View, Any] | None:
    """(view, the record or a maker of it) of one decoded line; None for a line that is not a record.

    Raises RecordError for a record holding a value of the wrong type."""
    if not isinstance(d, dict):
        return None
    if _fast(d):
        return d, lambda: SampleRecord.from_json(d)  # every field a view reads is there
    try:
        r = SampleRecord.from_json(d)
    except (ValueError, TypeError, KeyError):
        return None
    check_record(r)
    from ..bugstats import view_of

    return view_of(r), r


__all__ = ["FIELD_TYPES", "OUTCOMES", "ROW", "RecordError", "check_record", "plain_columns", "record_view"]
