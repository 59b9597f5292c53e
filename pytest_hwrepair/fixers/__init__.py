"""Fixer registry: built-ins plus the `hwrepair.fixers` entry-point group.

A built-in's module is imported when its factory runs: a run of the reference fixer does not import the model
clients (httpx), the agent's sandbox or the search baseline, which every pytest process (a worker, a
collection) would otherwise pay for at start.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from importlib.metadata import entry_points

from .base import (
    Attempt,
    Candidate,
    Corpus,
    Fixer,
    FixerContext,
    FixerError,
    FixerUnavailable,
    ProbeFactory,
    RepairTask,
    SuiteProbe,
    Usage,
)
from .control import NoopFixer, ReferenceFixer, ReplayFixer

FixerFactory = Callable[[str | None, FixerContext], Fixer]


def _reference(arg: str | None, ctx: FixerContext) -> Fixer:
    return ReferenceFixer(ctx.corpus.golden)


def _noop(arg: str | None, ctx: FixerContext) -> Fixer:
    return NoopFixer()


def _replay(arg: str | None, ctx: FixerContext) -> Fixer:
    if not arg:
        raise FixerError("replay: needs a run directory, e.g. --fixer replay:.hwrepair/runs/20260101-120000")
    return ReplayFixer(arg)


def _cmd(arg: str | None, ctx: FixerContext) -> Fixer:
    if not arg:
        raise FixerError('cmd: needs a command, e.g. --fixer cmd:"./agent --task {task}"')
    from .agent import CommandFixer

    return CommandFixer(arg, ctx)


def _model(kind: str, arg: str | None, ctx: FixerContext) -> Fixer:
    from .llm.fixer import make_model_fixer

    return make_model_fixer(kind, arg, ctx)


def _search(arg: str | None, ctx: FixerContext) -> Fixer:
    from .search.fixer import SearchFixer, parse_options

    return SearchFixer(parse_options(arg, ctx.settings), ctx.probe)


BUILTIN: dict[str, FixerFactory] = {
    "reference": _reference,
    "noop": _noop,
    "replay": _replay,
    "cmd": _cmd,
    "claude": partial(_model, "claude"),
    "openai": partial(_model, "openai"),
    "search": _search,
}


def registry() -> dict[str, FixerFactory]:
    """Built-in factories, then plug-ins from the `hwrepair.fixers` entry-point group."""
    found = dict(BUILTIN)
    for ep in entry_points(group="hwrepair.fixers"):
        found.setdefault(ep.name, ep.load())
    return found


_LABEL = re.compile(r"^([A-Za-z0-9_.-]+)=(.+)$")


def split_spec(spec: str) -> tuple[str, str, str | None]:
    """`label=kind:arg` -> (label, kind, arg); the label defaults to the kind."""
    label = None
    m = _LABEL.match(spec)
    if m and ":" not in m.group(1):
        label, spec = m.group(1), m.group(2)
    kind, sep, arg = spec.partition(":")
    return label or kind, kind, arg if sep else None


def make_fixers(specs: list[str], ctx: FixerContext) -> dict[str, Fixer]:
    """One fixer per `--fixer` value, keyed by a unique label used in node ids."""
    known = registry()
    fixers: dict[str, Fixer] = {}
    for spec in specs:
        label, kind, arg = split_spec(spec)
        if kind not in known:
            raise FixerError(f"--fixer {spec!r}: unknown fixer {kind!r} (known: {', '.join(sorted(known))})")
        unique, n = label, 2
        while unique in fixers:
            unique, n = f"{label}{n}", n + 1
        fixers[unique] = known[kind](arg, replace(ctx, label=unique))
    return fixers


__all__ = ["Attempt", "Candidate", "Corpus", "Fixer", "FixerContext", "FixerError", "FixerUnavailable",
           "ProbeFactory", "RepairTask", "SuiteProbe", "Usage", "make_fixers", "registry",
           "split_spec"]
