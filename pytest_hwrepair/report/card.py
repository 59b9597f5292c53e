"""The evaluation card: the protocol stack of a run, from run.json, so a number never travels alone."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from .load import Run
from .model import Card

UNKNOWN = "unknown (not in run.json)"


def _text(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value) or "-"
    return str(value)


def _endpoint(url: Any) -> str:
    """The base URL without user info, query or fragment (a URL may carry credentials)."""
    if not url:
        return "-"
    parts = urlsplit(str(url))
    host = parts.hostname or ""
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{host}{port}{parts.path}" if parts.scheme else "-"


def _observed(run: Run) -> tuple[str, str]:
    """Protocols and samples per bug seen in the records (what `auto` and defaults became)."""
    protocols = run.scan.tally.protocols
    per_bug = sorted({s.n + s.errors + s.skipped for s in run.scan.tally.bug_stats()})
    shown = "-" if not per_bug else str(per_bug[0]) if len(per_bug) == 1 else f"{per_bug[0]}-{per_bug[-1]}"
    return ", ".join(sorted(protocols)) or "-", shown


def card(run: Run) -> Card:
    """The card of one run; fields run.json lacks say so."""
    info = run.info
    s: dict[str, Any] = info.get("settings") or {}
    protocols, per_bug = _observed(run)
    notes = [] if info else ["run.json is missing: the protocol stack of these samples is unknown"]
    versions = info.get("versions") or {}
    return Card(
        run=run.name, path=str(run.path),
        fixers={str(k): str(v) for k, v in (info.get("fixers") or {}).items()} or {"-": UNKNOWN},
        protocol=f"{_text(s.get('protocol', UNKNOWN))} (samples show: {protocols})",
        samples=f"{_text(s.get('samples')) if s.get('samples') is not None else 'default'} "
                f"(samples per bug: {per_bug})" if s else UNKNOWN,
        sampling={"temperature": _text(s.get("temperature")), "top_p": _text(s.get("top_p")),
                  "max_tokens": _text(s.get("max_tokens")), "seed": _text(s.get("seed")),
                  "claude_model": _text(s.get("claude_model")), "openai_model": _text(s.get("openai_model")),
                  "endpoint": _endpoint(s.get("base_url")), "prompt": _text(s.get("prompt")),
                  "k": _text(s.get("k"))},
        iterative={"K (iterations)": _text(s.get("iterations")), "H (history)": _text(s.get("history")),
                   "feedback": _text(s.get("feedback"))},
        input_arm=_text(s.get("input", UNKNOWN)),
        perf_gate=_text(s.get("perf_gate")) if s else UNKNOWN,
        corpus={"case_set": _text(info.get("case_set", UNKNOWN)), "cases": _text(info.get("cases", UNKNOWN))},
        versions={str(k): str(v) for k, v in sorted(versions.items())},
        sandbox={"sandbox": _text(s.get("sandbox", UNKNOWN)), "isolation": _text(s.get("isolation")),
                 "simulator": _text(s.get("simulator")), "timing_runs": _text(s.get("timing_runs"))},
        started=_text(info.get("start")), ended=_text(info.get("end")), notes=notes,
    )


def card_stack(c: Card) -> str:
    """The protocol stack on one line, for formats whose rows travel alone (CSV)."""
    fields = {"case_set": c.corpus.get("case_set"), "fixers": ",".join(f"{k}={v}" for k, v in c.fixers.items()),
              "protocol": c.protocol.split(" (")[0], "samples": c.samples.split(" (")[0],
              "K": c.iterative.get("K (iterations)"), "H": c.iterative.get("H (history)"),
              "feedback": c.iterative.get("feedback"), "input": c.input_arm, "perf_gate": c.perf_gate,
              "temperature": c.sampling.get("temperature"), "seed": c.sampling.get("seed"),
              "sandbox": c.sandbox.get("sandbox"), "hwrepair": c.versions.get("hwrepair", "-")}
    return "; ".join(f"{k}={v}" for k, v in fields.items())


def card_lines(c: Card) -> list[str]:
    """The card as `name: value` lines, shared by the text, markdown and latex renderings."""
    return [
        f"run: {c.run} ({c.path}), {c.started} .. {c.ended}",
        "fixers: " + ", ".join(f"{k} = {v}" for k, v in c.fixers.items()),
        f"protocol: {c.protocol}",
        f"samples: {c.samples}",
        "sampling: " + ", ".join(f"{k} {v}" for k, v in c.sampling.items()),
        "iterative: " + ", ".join(f"{k} {v}" for k, v in c.iterative.items()),
        f"input arm: {c.input_arm}; perf gate p: {c.perf_gate}",
        "corpus: " + ", ".join(f"{k} {v}" for k, v in c.corpus.items()),
        "sandbox: " + ", ".join(f"{k} {v}" for k, v in c.sandbox.items()),
        "versions: " + ("; ".join(f"{k} {v}" for k, v in c.versions.items()) or "-"),
        *[f"note: {n}" for n in c.notes],
    ]


__all__ = ["card", "card_lines", "card_stack"]
