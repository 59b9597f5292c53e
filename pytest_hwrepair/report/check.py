"""What a report accepts in a record: the JSON types of the fields it reads, checked fast."""

from __future__ import annotations

import operator
from typing import Any

from ..results.bugstats import View, view_of
from ..results.rundir import SampleRecord
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


def check_record(r: SampleRecord) -> None:
    """Raise RecordError naming the first field whose value a report cannot use."""
    for name, types in FIELD_TYPES.items():
        value = getattr(r, name)
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            allowed = " or ".join("null" if t is type(None) else t.__name__ for t in types)
            raise RecordError(f"record {r.key!r}: field {name!r} is {value!r}, expected {allowed}")
    if r.outcome not in OUTCOMES:
        raise RecordError(f"record {r.key!r}: field 'outcome' is {r.outcome!r}, expected one of {', '.join(OUTCOMES)}")
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
    return view_of(r), r


__all__ = ["FIELD_TYPES", "OUTCOMES", "RecordError", "check_record", "record_view"]
