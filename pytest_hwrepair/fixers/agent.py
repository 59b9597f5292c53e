"""`cmd:COMMAND`: an external agent edits a copy of the workspace in place, inside the sandbox.

The agent gets what a candidate step gets (its workspace only, its own uid and pid namespace, killed with all
it started) plus what the user grants: network, read-only directories and environment variables. It takes no
oracle slot: an agent waiting on its model must not hold a compiler's place."""

from __future__ import annotations

import functools
import json
import os
import re
import shlex
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ..repo.candidate import CandidateError, workspace_diff
from ..sandbox import scratch
from ..sandbox.base import Execution, Limits, Sandbox
from ..sandbox.local.jail import WORK
from ..sandbox.untrusted import UntrustedFileError, read_untrusted
from ..settings import Settings
from .base import Candidate, FixerContext, FixerError, FixerTimeout, RepairTask

LOG_CAP = 1 << 20
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
TASK_FILE = "task.json"
TARGET_CAP = 4 << 20
# The agent's command runs through the shell: placeholders become shell words that the sandbox's
# own paths fill in, so the same command works wherever the sandbox puts the workspace.
PLACEHOLDERS = {"task": '"$HWREPAIR_TASK"', "workspace": '"$HWREPAIR_WORKSPACE"'}
PRELUDE = 'HWREPAIR_TASK="$HWREPAIR_WORKSPACE/task.json"; export HWREPAIR_TASK; '
# The preflight's verdict, printed by the script below on its last line.
MISSING = "hwrepair-preflight-missing:"
# Run in the agent's sandbox with its grants: the command's program (and a script's interpreter) and every path
# it names must resolve there. Each argument is one word of the command, placeholders left out.
PREFLIGHT = r"""
missing() { printf '%s %s\n' "hwrepair-preflight-missing:" "$1"; exit 3; }
prog="$1"; shift
case "$prog" in
  */*) [ -e "$prog" ] || missing "$prog" ;;
  *) command -v "$prog" >"$HWREPAIR_WORKSPACE/.preflight" 2>&1 || missing "$prog" ;;
esac
path="$prog"; case "$prog" in */*) ;; *) path=$(cat "$HWREPAIR_WORKSPACE/.preflight") ;; esac
if [ -f "$path" ] && [ "$(head -c 2 "$path")" = '#!' ]; then
  set -- $(head -n 1 "$path" | cut -c 3-) "$@"
  interp="$1"; shift
  [ -e "$interp" ] || missing "$interp (the interpreter of $prog)"
  case "$interp" in */env) [ -n "$1" ] && { command -v "$1" >"$HWREPAIR_WORKSPACE/.preflight" 2>&1 \
    || missing "$1 (the interpreter of $prog)"; } ;; esac
fi
for word in "$@"; do
  case "$word" in *=*/*) word="${word#*=}" ;; esac
  case "$word" in
    *'$'*) ;;
    /*|./*|../*) [ -e "$word" ] || missing "$word" ;;
  esac
done
exit 0
"""


class CommandFixer:
    """Runs COMMAND in a sandboxed workspace holding the buggy files, the oracle assets and `task.json`; the
    changed target file is the candidate (a repository task: every change, as a diff)."""

    deterministic = False

    def __init__(self, command: str, ctx: FixerContext) -> None:
        self.command = command
        self.settings = ctx.settings
        self.timeout = ctx.settings.fixer_timeout
        self.populate = ctx.corpus.populate
        self.options = AgentOptions.from_settings(ctx.settings, ctx.run_dir)
        self.name = f"cmd:{command}"
        # Everything that can change the agent's answers: its command and what it is granted.
        self.config = {"fixer": "cmd", "command": command, "mounts": list(self.options.mounts),
                       "network": self.options.network, "env": sorted(name for name, _ in self.options.env)}

    @functools.cached_property
    def sandbox(self) -> Sandbox:
        return agent_sandbox(self.settings)

    def argv(self, task: RepairTask) -> str:
        try:
            return PRELUDE + self.command.format(**PLACEHOLDERS, target=shlex.quote(task.target), sample=task.sample,
                                                 attempt=task.attempt)
        except (KeyError, IndexError, ValueError) as exc:
            raise FixerError(f"cmd: {self.command!r}: bad placeholder {exc} (known: {{task}} {{workspace}} "
                             "{target} {sample} {attempt})") from None

    def preflight(self, domain: str) -> str | None:
        """Why the command cannot start as the agent's sandbox will run it (one line naming the grant that would
        provide what is missing), or None when its program, interpreter and the paths it names all resolve."""
        try:
            words = shlex.split(self.command.format(task="$HWREPAIR_TASK", workspace="$HWREPAIR_WORKSPACE",
                                                    target="TARGET", sample=0, attempt=0))
        except (KeyError, IndexError, ValueError) as exc:
            return f"cmd: {self.command!r}: {exc}"
        if not words:
            return f"cmd: {self.command!r}: no command"
        script = "set -- " + " ".join(shlex.quote(w) for w in words) + "\n" + PREFLIGHT
        with scratch.directory("hwrepair-preflight-") as tmp:
            ws = tmp / "workspace"
            ws.mkdir()
            (ws / TASK_FILE).write_text("{}", encoding="utf-8")
            ex = self.sandbox.run(ws, script, timeout=60, limits=self.options.limits(domain))
        lines = [line for line in ex.stdout.splitlines() if line.startswith(MISSING)]
        if not lines and ex.returncode == 0:
            return None
        what = lines[-1][len(MISSING):].strip() if lines else f"the check itself failed ({_status(ex)})"
        grants = ", ".join(self.options.mounts) or "none"
        return (f"--fixer cmd:{self.command}: {what} does not exist where the agent runs (its sandbox sees its "
                f"workspace, the system directories and the directories granted with --hwrepair-agent-mount; "
                f"granted: {grants}). Name the agent by an absolute path and grant its directory, e.g. "
                f"--hwrepair-agent-mount {_suggest(what)}")

    def repair(self, task: RepairTask) -> Candidate:
        with scratch.directory("hwrepair-agent-") as tmp:
            ws = tmp / "workspace"
            ws.mkdir()
            self._lay_out(ws, task)
            start = time.monotonic()
            ex = self.sandbox.run(ws, self.argv(task), timeout=self.timeout, limits=self.options.limits(task.domain))
            latency = time.monotonic() - start
            logs = {"agent.stdout": ex.stdout, "agent.stderr": ex.stderr, "agent.status": _status(ex)}
            if ex.timed_out:
                raise FixerTimeout(f"the agent did not finish within {self.timeout:g}s (killed with everything "
                                   "it started)", Candidate(parsed=False, latency=latency, logs=logs, raw=ex.stdout))
            if ex.returncode != 0:
                tail = ex.stderr.strip().splitlines()[-3:]
                raise FixerError(f"the agent failed ({_status(ex)})" + (f": {' | '.join(tail)[:300]}" if tail else ""))
            return self._candidate(ws, task, latency, logs, ex.stdout)

    def _lay_out(self, ws: Path, task: RepairTask) -> None:
        self.populate(ws, task)
        for name, text in task.files.items():
            (ws / name).parent.mkdir(parents=True, exist_ok=True)
            (ws / name).write_text(text, encoding="utf-8")
        inside = inner_workspace(self.sandbox)
        (ws / TASK_FILE).write_text(json.dumps({**task.to_json(), "workspace": inside}, indent=2), encoding="utf-8")

    def _candidate(self, ws: Path, task: RepairTask, latency: float, logs: dict[str, str], raw: str) -> Candidate:
        failed = functools.partial(Candidate, parsed=False, latency=latency, logs=logs, raw=raw)
        if task.issue is not None:  # a repository task: whatever the agent changed, as a diff
            try:
                diff, ignored = workspace_diff(ws, task.files)  # task.json is the harness's: a new non-HDL file
            except CandidateError as exc:
                return failed(parse_error=f"the agent's workspace: {exc}")
            logs = {**logs, "agent.ignored": "".join(f"{path}\n" for path in ignored if path != TASK_FILE)}
            return Candidate(diff=diff, latency=latency, logs=logs, raw=raw)
        try:
            got = read_untrusted(ws, task.target, TARGET_CAP)
        except FileNotFoundError:
            return failed(parse_error=f"the agent removed {task.target}")
        except (UntrustedFileError, OSError) as exc:
            return failed(parse_error=f"the agent left {task.target} unreadable: {exc}")
        if got.truncated:
            return failed(parse_error=f"the agent's {task.target} is over {TARGET_CAP} bytes")
        return Candidate(files={task.target: got.text}, latency=latency, logs=logs, raw=raw)


def _suggest(what: str) -> str:
    """The directory to grant for a missing path, as the user's machine has it."""
    path = what.split(" (")[0]
    if not path.startswith(("/", ".")):
        return "DIR"
    real = Path(path).resolve()
    return str(real.parent if real.exists() and not real.is_dir() else real if real.exists() else "DIR")


def _status(ex: Execution) -> str:
    if ex.timed_out:
        return "timeout"
    if ex.signal is not None:
        return f"killed by signal {ex.signal}"
    return f"exit {ex.returncode}"


def preflight(fixers: Mapping[str, object], evaluated: list[Path]) -> str | None:
    """Why a `cmd:` fixer of the run cannot start (one line), checked once before the first item: a grant that
    shows the agent the cases being evaluated, or a command whose program or files do not resolve."""
    for fixer in fixers.values():
        if isinstance(fixer, CommandFixer):
            problem = exposed(fixer.options.mounts, evaluated) or fixer.preflight("hls")
            if problem:
                return problem
    return None


def exposed(mounts: tuple[str, ...], evaluated: list[Path]) -> str | None:
    """A grant that contains (or lies inside) a path being evaluated: the agent would read the golden sources."""
    for mount in mounts:
        grant = Path(mount)
        for path in evaluated:
            if grant == path or grant in path.parents or path in grant.parents:
                return (f"--hwrepair-agent-mount {mount}: would show the agent {path}, which holds the cases being "
                        "evaluated and their golden sources; grant only the agent's own directory (or virtualenv)")
    return None


@dataclass(frozen=True, slots=True)
class AgentOptions:
    """What the user grants the agent, checked once at configure time."""

    network: bool = False
    mounts: tuple[str, ...] = ()
    env: tuple[tuple[str, str], ...] = ()

    @classmethod
    def from_settings(cls, settings: Settings, run_dir: Path) -> AgentOptions:
        mounts = tuple(check_mount(path, settings, run_dir) for path in settings.agent_mount)
        return cls(settings.agent_network, mounts, tuple(passed_env(settings.agent_env)))

    def limits(self, domain: str) -> Limits:
        """The agent's step: logs capped while they stream, the user's grants, the domain's toolchain."""
        return Limits(output=LOG_CAP, network=self.network, toolchain=domain, mounts=self.mounts, env=self.env)


def check_mount(path: str, settings: Settings, run_dir: Path) -> str:
    """An absolute, existing path that does not expose the run directory or the cache."""
    where = "--hwrepair-agent-mount"
    real = os.path.realpath(os.path.expanduser(path))
    if not os.path.exists(real):
        raise FixerError(f"{where} {path!r}: no such file or directory")
    for secret in (Path(run_dir).resolve(), Path(settings.cache_dir).resolve()):
        if secret == Path(real) or Path(real) in secret.parents:
            raise FixerError(f"{where} {path!r}: would show the agent {secret} (the run directory or cache); "
                             "mount the agent's own directory instead")
    if real == "/":
        raise FixerError(f"{where} {path!r}: the whole filesystem cannot be mounted; name the agent's directories")
    if os.geteuid() == 0:  # the agent then runs under an unprivileged uid of its own: it must be able to read the mount
        for parent in Path(real).parents:
            if not os.stat(parent).st_mode & 0o001:
                raise FixerError(f"{where} {path!r}: {parent} is not searchable by other users, and the agent runs "
                                 "under an unprivileged uid of its own; make it world-searchable or move the agent")
        if not os.stat(real).st_mode & (0o005 if os.path.isdir(real) else 0o004):
            raise FixerError(f"{where} {path!r}: not readable by other users, and the agent runs under an "
                             "unprivileged uid of its own")
    return real


def passed_env(names: list[str]) -> list[tuple[str, str]]:
    """The variables the user passes, each of which must be set."""
    pairs = []
    for name in names:
        if not _NAME.match(name):
            raise FixerError(f"--hwrepair-agent-env {name!r}: not a variable name (letters, digits, _)")
        if name not in os.environ:
            raise FixerError(f"--hwrepair-agent-env {name}: not set in this environment")
        if "\x1e" in os.environ[name]:
            raise FixerError(f"--hwrepair-agent-env {name}: its value holds a \\x1e control character, "
                             "which the docker sandbox uses as a separator")
        pairs.append((name, os.environ[name]))
    return pairs


def inner_workspace(sandbox: Sandbox) -> str:
    """Where the agent finds its workspace: a fixed path in closed sandboxes, its start directory otherwise."""
    from ..sandbox.local.sandbox import LocalSandbox

    if isinstance(sandbox, LocalSandbox) and sandbox.bwrap is None:
        return "."
    return WORK


def agent_sandbox(settings: Settings) -> Sandbox:
    """A sandbox of the session's kind, without oracle slots."""
    if settings.sandbox == "docker":
        from ..sandbox.docker.engine import DockerSandboxError
        from ..sandbox.docker.sandbox import docker_sandbox

        try:
            return docker_sandbox("agents", None, "worker", settings.docker_cpus, settings.docker_timeout,
                                  settings.docker_cuda_home)
        except DockerSandboxError as exc:
            raise FixerError(f"cmd: no sandbox for the agent: {exc}") from None
    from ..sandbox.local.sandbox import LocalSandbox

    isolate = {"auto": None, "bwrap": True, "none": False}[settings.isolation]
    try:
        return LocalSandbox(None, isolate=isolate)
    except RuntimeError as exc:
        raise FixerError(f"cmd: no sandbox for the agent: {exc}") from None
