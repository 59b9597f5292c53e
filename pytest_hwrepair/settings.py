"""One frozen dataclass drives the command-line flags, the ini keys and the report header."""

from __future__ import annotations

import dataclasses
import math
import operator
import os
from dataclasses import dataclass, field
from typing import Any


class SettingsError(ValueError):
    """A bad option or ini value; the message says what, where it came from, and what is allowed."""


def opt(default: Any, help: str, *, flag: str | None = None, choices: tuple[str, ...] | None = None,
        multi: bool = False, metavar: str | None = None, header: bool = True, alias: str | None = None) -> Any:
    """A settings field with what addoption and the ini parser need (`alias`: a former flag that still works)."""
    meta = {"help": help, "flag": flag, "choices": choices, "multi": multi, "metavar": metavar,
            "header": header, "alias": alias}
    if isinstance(default, (list, dict)):
        return field(default_factory=lambda: type(default)(default), metadata=meta)
    return field(default=default, metadata=meta)


@dataclass(frozen=True)
class Settings:
    """Every hwrepair option; `--hwrepair-<kebab>` on the command line, `hwrepair_<snake>` in ini."""

    fixer: list[str] = opt(["reference"], "fixer to evaluate, repeatable: reference, noop, replay:RUN_DIR, "
                           "cmd:COMMAND, claude[:MODEL], openai[:MODEL], or NAME=SPEC to label it",
                           flag="--fixer", multi=True, metavar="SPEC")
    samples: int | None = opt(None, "samples per bug (repeated protocol; default 5, 1 for deterministic fixers)")
    protocol: str = opt("auto", "repair protocol (auto: iterative for cuda, repeated otherwise)",
                        choices=("auto", "repeated", "iterative"))
    iterations: int = opt(5, "attempts per trajectory (iterative protocol)")
    history: int = opt(4, "rounds of history kept in the prompt (iterative protocol)")
    feedback: str = opt("L3", "feedback level of the iterative protocol",
                        choices=("L0", "L1", "L2", "L3", "L4"))
    input: str = opt("code", "what the fixer sees (rtl arms): the code, code and spec, or only the spec",
                     choices=("code", "code+spec", "spec"))
    k: list[int] = opt([1, 5], "pass@k values reported, comma separated", metavar="K[,K...]")
    run: str | None = opt(None, "run directory (default .hwrepair/runs/<timestamp>); reuse it to resume",
                          metavar="DIR", header=False)
    cache_dir: str = opt(".hwrepair/cache", "cache for reference outputs and model responses", metavar="DIR",
                         header=False)
    sandbox: str = opt("local", "where candidate code runs", choices=("local", "docker"))
    docker_mode: str = opt("worker", "docker sandbox: one warm container per worker and toolchain, a fresh work "
                           "directory per step (worker), or one container per sample (sample)",
                           choices=("worker", "sample"), header=False)
    docker_cpus: float = opt(1.0, "docker sandbox: CPUs each container may use (0: no limit)", metavar="N",
                             header=False)
    docker_timeout: float = opt(30.0, "docker sandbox: seconds any Docker engine call may take beyond the step's own "
                                "timeout; a slower engine makes the sample an error", metavar="SECONDS",
                                header=False)
    docker_cuda_home: str | None = opt(None, "docker sandbox: host CUDA toolkit mounted read-only at /usr/local/cuda "
                                       "in the cuda image (local engines only)", metavar="DIR", header=False)
    isolation: str = opt("auto", "local sandbox isolation: bubblewrap when installed (auto), required, or none",
                         choices=("auto", "bwrap", "none"))
    oracle_jobs: int = opt(os.cpu_count() or 1, "oracle steps running at once across all workers")
    fixer_timeout: float = opt(900.0, "seconds a fixer may take for one candidate (cmd fixers are killed)")
    agent_network: bool = opt(False, "cmd fixers: give the agent network access (to call its model); off by default")
    agent_mount: list[str] = opt([], "cmd fixers: a directory (or file) the agent sees read-only at its own path, "
                                 "e.g. the agent's code or virtualenv; repeatable", multi=True, metavar="PATH")
    agent_env: list[str] = opt([], "cmd fixers: an environment variable passed to the agent (e.g. its API key); "
                               "repeatable; nothing else of pytest's environment reaches it", multi=True,
                               metavar="NAME", header=False)
    retry_errors: bool = opt(False, "re-run samples whose recorded outcome is a harness error")
    no_verdict_cache: bool = opt(False, "judge every candidate afresh, even one identical to a candidate already "
                                 "judged in this run (cuda candidates always are)")
    gate: list[str] = opt([], "quality gate, repeatable: [SCOPE:]pass@K OP VALUE, e.g. 'pass@1>=0.6', "
                          "'hls/chs:pass@5>=0.3', 'fixer=noop:pass@1<=0'",
                          multi=True, metavar="EXPR")
    baseline: str | None = opt(None, "compare per-bug pass rates with an earlier run; regressions fail the gate",
                               metavar="RUN_DIR")
    shard: str | None = opt(None, "run only shard I of N (stable hash of the node id)", metavar="I/N")
    simulator: str = opt("iverilog", "rtl simulator", choices=("iverilog", "verilator"))
    repo_feedback: bool = opt(False, "repository cases: one extra round carrying the failing test's log (F2P "
                              "first) for every sample whose first candidate does not resolve the issue")
    perf_gate: float | None = opt(None, "cuda: required speedup over the reference (default 0.7)")
    gpu: str = opt("auto", "cuda: run the runtime stage (auto: when a CUDA device is present)",
                   choices=("auto", "yes", "no"))
    timing_runs: int = opt(5, "cuda: timed runs per candidate and reference (after a warm-up)")
    breakdown: bool = opt(False, "show the fixer x domain x suite x bug type table in the terminal summary (always in "
                          "summary.json and `hwrepair report`)", header=False)
    strict: bool = opt(False, "unknown keys in case files are errors (also implied by pytest's strict mode)")
    seed: int = opt(0, "base seed given to fixers and random stimuli")
    # The search fixer: fixers/search.py (`--fixer search:budget=N,...` overrides these).
    search_budget: int = opt(200, "search fixer: candidates evaluated per sample at most")
    search_seconds: float = opt(180.0, "search fixer: CPU seconds per sample at most (its own and its candidates'; "
                                "wall time stops at 5x)")
    search_operators: str | None = opt(None, "search fixer: operator families to use, comma separated "
                                       "(default: all; see pytest_hwrepair/mutate)", metavar="OPS")
    search_no_climb: bool = opt(False, "search fixer: try single edits only, never stack improving ones",
                                header=False)
    # Model fixers (claude, openai): fixers/llm/.
    claude_model: str = opt("claude-sonnet-4-5", "model of `--fixer claude` when none is named", metavar="MODEL",
                            header=False)
    openai_model: str = opt("gpt-4.1", "model of `--fixer openai` when none is named", metavar="MODEL",
                            header=False)
    temperature: float = opt(1.0, "sampling temperature of model fixers (the repeated protocol samples at 1.0)")
    top_p: float | None = opt(None, "nucleus sampling of model fixers (default: the API's)", header=False)
    max_tokens: int | None = opt(None, "output token budget (default: from the target's length, 1024..16384)",
                                 header=False)
    request_extra: str | None = opt(None, "JSON object merged into every model request body", metavar="JSON",
                                    header=False)
    base_url: str | None = opt(None, "API base URL of model fixers (default: ANTHROPIC_BASE_URL / OPENAI_BASE_URL, "
                               "then the provider's)", metavar="URL", header=False)
    api_key_env: str | None = opt(None, "environment variable holding the API key (default: ANTHROPIC_API_KEY / "
                                  "OPENAI_API_KEY)", metavar="NAME", header=False)
    prompt: str | None = opt(None, "prompt template file (every domain) or directory of hls.md, rtl.md, cuda.md, "
                             "spec.md, feedback.md, repo.md, repo_feedback.md", metavar="PATH")
    max_connections: int = opt(16, "model requests in flight per provider across the whole run, whatever -n is: "
                               "each sample's first request is made ahead, up to this many at once",
                               alias="--hwrepair-max-concurrency")
    max_retries: int = opt(8, "retries of one model request (rate limits, overload, 5xx, connection errors)",
                           header=False)
    retry_delay: float = opt(1.0, "first retry backoff in seconds; doubles each retry, with jitter", header=False)
    retry_max_wait: float = opt(60.0, "cap on one retry wait in seconds (also caps retry-after)", header=False)
    request_timeout: float = opt(600.0, "seconds one model request may take before it is retried", header=False)
    no_cache: bool = opt(False, "do not reuse model answers of earlier runs (this run's answers are still kept, so "
                         "an interrupted run loses none)")
    debug: bool = opt(False, "show a harness error (sandbox, toolchain, agent, API) with its traceback",
                      header=False)
    no_prefetch: bool = opt(False, "do not make samples' first model requests ahead: each item asks when it runs",
                            header=False)
    no_object_reuse: bool = opt(False, "hls: compile every C file of each build afresh (by default a plain gcc "
                                "build links objects of the case's unchanged files, compiled once per machine)",
                                header=False)
    junit_rejected: str = opt("failure", "with --junitxml and a gate or baseline: how a rejected repair appears in "
                              "the XML (skipped: the gates' own test cases decide, as they decide the exit status)",
                              choices=("failure", "skipped"), header=False)
    cost_limit: float | None = opt(None, "stop making model requests once the run has spent this many USD; the "
                                   "remaining items are skipped", metavar="USD")
    prices: str | None = opt(None, "JSON or TOML file of USD per million tokens by model, over the built-in table",
                             metavar="FILE", header=False)
    batch: bool = opt(False, "submit the run's model requests as one batch (Anthropic Message Batches, OpenAI "
                      "Batch API); rerun the same command to resume it")
    batch_poll: float = opt(30.0, "seconds between batch status polls", header=False)
    batch_wait: float | None = opt(None, "seconds to wait for a batch before skipping its items for a rerun "
                                   "(default: 80% of --hwrepair-fixer-timeout)", header=False)

    @classmethod
    def from_sources(cls, cli: dict[str, Any], ini: dict[str, Any]) -> Settings:
        """Command line over ini over defaults; raises SettingsError for any bad value."""
        values: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            if cli.get(f.name) not in (None, []):
                values[f.name] = _convert(f, cli[f.name], flag_of(f))
            elif ini.get(f.name) not in (None, "", []):
                values[f.name] = _convert(f, ini[f.name], f"ini hwrepair_{f.name}")
        settings = cls(**values)
        settings.validate()
        return settings

    def validate(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, float) and not math.isfinite(value):
                raise SettingsError(f"{flag_of(f)}: must be a finite number, got {value}")
        for names, holds, bound, rule in _BOUNDS:
            for name in names:
                value = getattr(self, name)
                if value is not None and not holds(value, bound):
                    raise SettingsError(f"--hwrepair-{kebab(name)}: {rule}, got {value}")
        if any(k < 1 for k in self.k):
            raise SettingsError(f"--hwrepair-k: every k must be at least 1, got {self.k}")
        if self.shard is not None:
            parse_shard(self.shard)


# The numeric options' bounds, in the order they are checked (None: not set, always allowed).
_BOUNDS = (
    (("fixer_timeout", "docker_timeout", "retry_delay", "retry_max_wait", "request_timeout", "batch_poll"),
     operator.gt, 0, "must be above 0"),
    (("timing_runs", "max_connections"), operator.ge, 1, "must be at least 1"),
    (("perf_gate", "docker_cpus", "cost_limit"), operator.ge, 0, "must be 0 or more"),
    (("iterations", "oracle_jobs", "samples"), operator.ge, 1, "must be at least 1"),
    (("history",), operator.ge, 0, "must be 0 or more"),
)

_BOOLS = {"1": True, "true": True, "yes": True, "on": True, "0": False, "false": False, "no": False, "off": False}


def kebab(name: str) -> str:
    return name.replace("_", "-")


def flag_of(f: dataclasses.Field[Any]) -> str:
    return f.metadata.get("flag") or f"--hwrepair-{kebab(f.name)}"


def parse_shard(text: str) -> tuple[int, int]:
    try:
        i, n = (int(part) for part in text.split("/"))
    except ValueError:
        raise SettingsError(f"--hwrepair-shard: {text!r} is not I/N (e.g. 0/4)") from None
    if n < 1 or not 0 <= i < n:
        raise SettingsError(f"--hwrepair-shard: {text!r} needs N >= 1 and 0 <= I < N")
    return i, n


def _convert(f: dataclasses.Field[Any], value: Any, where: str) -> Any:
    kind = str(f.type)
    choices = f.metadata.get("choices")
    if f.metadata.get("multi"):
        items = value if isinstance(value, list) else [v for v in str(value).splitlines() if v.strip()]
        return [str(v).strip() for v in items]
    text = str(value).strip()
    try:
        if kind.startswith("list[int]"):
            return [int(part) for part in text.replace(" ", "").split(",") if part]
        if kind.startswith("bool"):
            return value if isinstance(value, bool) else _BOOLS[text.lower()]
        if kind.startswith("int"):
            return int(text)
        if kind.startswith("float"):
            return float(text)
    except (ValueError, KeyError):
        expected = kind.split(" ")[0].replace("list[int]", "comma-separated integers")
        raise SettingsError(f"{where}: {text!r} is not a valid {expected}") from None
    if choices and text not in choices:
        raise SettingsError(f"{where}: {text!r} is not one of {', '.join(choices)}")
    return text
