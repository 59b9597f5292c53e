"""Fixer registry: built-ins plus the `hwrepair.fixers` entry-point group."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from ..settings import Settings
from .base import Attempt, Candidate, Fixer, FixerError, FixerUnavailable, RepairTask, Usage
from .command import CommandFixer
from .control import GoldenLookup, NoopFixer, ReferenceFixer, ReplayFixer
from .llm import make_model_fixer
from .search import SearchFixer, parse_options
from .search_probe import ProbeFactory, SuiteProbe


@dataclass(frozen=True)
class FixerContext:
    """What a fixer factory may use: the settings, the run directory, and (for `reference`) the golden files."""

    settings: Settings
    run_dir: Path
    cache_dir: Path
    golden: GoldenLookup
    populate: Callable[[Path, RepairTask], None] | None = None
    # Every first-attempt task this process will ask the fixer for (after collection): batch mode
    # submits them at once. Takes the fixer's label.
    pending_tasks: Callable[[str], list[RepairTask]] | None = None
    # The suite oracle of one task, for fixers that validate their own candidates (`search`).
    probe: ProbeFactory | None = None


FixerFactory = Callable[[str | None, FixerContext], Fixer]


def _reference(arg: str | None, ctx: FixerContext) -> Fixer:
    return ReferenceFixer(ctx.golden)


def _noop(arg: str | None, ctx: FixerContext) -> Fixer:
    return NoopFixer()


def _replay(arg: str | None, ctx: FixerContext) -> Fixer:
    if not arg:
        raise FixerError("replay: needs a run directory, e.g. --fixer replay:.hwrepair/runs/20260101-120000")
    return ReplayFixer(arg)


def _cmd(arg: str | None, ctx: FixerContext) -> Fixer:
    if not arg:
        raise FixerError('cmd: needs a command, e.g. --fixer cmd:"./agent --task {task}"')
    return CommandFixer(arg, ctx.settings.fixer_timeout, ctx.populate)


def _claude(arg: str | None, ctx: FixerContext) -> Fixer:
    return make_model_fixer("claude", arg, ctx.settings, ctx.run_dir, ctx.cache_dir, ctx.pending_tasks)


def _openai(arg: str | None, ctx: FixerContext) -> Fixer:
    return make_model_fixer("openai", arg, ctx.settings, ctx.run_dir, ctx.cache_dir, ctx.pending_tasks)


def _search(arg: str | None, ctx: FixerContext) -> Fixer:
    return SearchFixer(parse_options(arg, ctx.settings), ctx.probe)


BUILTIN: dict[str, FixerFactory] = {
    "reference": _reference,
    "noop": _noop,
    "replay": _replay,
    "cmd": _cmd,
    "claude": _claude,
    "openai": _openai,
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
        fixer = known[kind](arg, ctx)
        bind = getattr(fixer, "bind_label", None)
        if callable(bind):  # a fixer that needs its node-id label (batch mode asks for that label's tasks)
            bind(unique)
        fixers[unique] = fixer
    return fixers


def fixer_config(fixer: Fixer) -> dict[str, Any]:
    return dict(getattr(fixer, "config", None) or {"name": fixer.name})


__all__ = ["Attempt", "Candidate", "Fixer", "FixerContext", "FixerError", "FixerUnavailable", "ProbeFactory",
           "RepairTask", "SuiteProbe", "Usage", "fixer_config", "make_fixers", "registry", "split_spec"]
