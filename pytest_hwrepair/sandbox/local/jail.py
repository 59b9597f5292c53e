"""The closed step: what exists inside a bubblewrap sandbox, listed explicitly.

Only the workspace (a size-capped tmpfs at /sandbox/ws), the system and toolchain directories (read-only), a
minimal /etc, a private size-capped /tmp, the step's own /proc and a minimal /dev: no checkout, run directory,
cache or home, so a candidate cannot include, read or link to what it cannot see.
"""

from __future__ import annotations

import functools
import os
import shutil
from collections.abc import Sequence
from pathlib import Path

from ..base import Command

WORK = "/sandbox/ws"
# The system: programs, libraries and the toolchains installed under them (gcc, iverilog,
# verilator, yosys and nvcc all live under /usr on Debian; /bin, /lib... are links into it there).
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
# What the toolchains read from /etc: the dynamic loader's cache and configuration, and the
# alternatives links (cc, c++, ld, awk...); tests/sandbox/test_jail.py runs every toolchain with
# exactly this list. Nothing here holds a secret; passwd and group are written by the harness.
ETC_FILES = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "alternatives", "nsswitch.conf", "localtime",
             "mime.types")
# Only when the network is on (agents calling their model): name resolution and certificates.
NETWORK_ETC = ("resolv.conf", "hosts", "host.conf", "gai.conf", "ssl", "ca-certificates",
               "ca-certificates.conf", "pki")
TOOLKIT_VARS = ("CUDA_HOME", "CUDA_PATH")
SANDBOX_USER = "hwrepair"

# Runs as the step's first process: `bash -c LAUNCHER name ARGV WORKDIR kill|keep IN OUT SECONDS`.
# Unpacks the workspace from fd IN, runs the command with both fds closed for at most SECONDS, kills
# whatever the command left running (in the step's own pid namespace kill -1 reaches every process
# but this one and the namespace's init), then packs the workspace onto fd OUT, a step that timed out
# included (what it wrote so far is the evidence). The 'U' byte on OUT says the unpacking worked,
# written before any candidate code runs.
LAUNCHER = r"""
cd "$2" || exit 125
tar -x -f - --no-same-owner <&"$4" 2>/dev/null || exit 125
eval "exec $4<&-"
printf U >&"$5"
eval 'timeout -s KILL "$6" /bin/sh -c "$1" </dev/null '"$5"'>&-'
rc=$?
if [ "$3" = kill ]; then kill -KILL -1 2>/dev/null; kill -KILL -1 2>/dev/null; fi
cd "$2" 2>/dev/null && tar -c -f - . >&"$5" 2>/dev/null
exit $rc
"""

# A batch of commands in one closed step:
# `bash -c BATCH_LAUNCHER name "" WORKDIR kill IN OUT SECONDS MARK SNAP CMD KEEP SHOT CMD KEEP SHOT ...`.
# Each command runs as a single step's would (stdin /dev/null, OUT and SNAP closed, at most SECONDS, then
# whatever it left running is killed and /tmp emptied). Its stdout and stderr go to the step's own, each
# followed by the separator RS "hwrepair:" MARK RS once nothing of the command is left to write more; after
# it, its KEEP file (when named) is moved aside to RECORDS/N.keep before the next command could overwrite it,
# and RECORDS/N.rc holds "STATUS START END". The first command that fails ends the batch. The records travel
# back first in the workspace archive, ahead of whatever the commands left (so no number of files or bytes a
# program leaves can push them past the copy-back's caps); the harness takes them out before the workspace is
# replaced. A command whose SHOT is 1 and that succeeded is followed by an archive of the workspace (the
# records left out) on fd SNAP, which is then closed: no command ever holds it ("-": none).
RECORDS = ".hwrepair-steps"
SEPARATOR = "\x1ehwrepair:{}\x1e"
BATCH_LAUNCHER = r"""
cd "$2" || exit 125
tar -x -f - --no-same-owner <&"$4" 2>/dev/null || exit 125
eval "exec $4<&-"
w=$2 mode=$3 out=$5 t=$6 mark=$7 snap=$8 r=$2/""" + RECORDS + r"""
shift 8
if [ -e "$r" ] || [ -L "$r" ]; then rm -rf -- "$r" || exit 125; fi
mkdir -- "$r" || exit 125
closed="$out>&-"
if [ "$snap" != - ]; then closed="$closed $snap>&-"; fi
printf U >&"$out"
shopt -s nullglob dotglob
i=0
while [ $# -ge 3 ]; do
  cmd=$1 keep=$2 shot=$3
  shift 3
  i=$((i + 1))
  if [ -n "$keep" ]; then rm -f -- "$keep" 2>/dev/null; fi
  s=$EPOCHREALTIME
  eval 'timeout -s KILL "$t" /bin/sh -c "$cmd" </dev/null '"$closed"
  rc=$?
  e=$EPOCHREALTIME
  if [ "$mode" = kill ]; then kill -KILL -1 2>/dev/null; kill -KILL -1 2>/dev/null; fi
  printf '\036hwrepair:%s\036' "$mark"
  printf '\036hwrepair:%s\036' "$mark" >&2
  cd "$w" 2>/dev/null || break
  if [ -n "$keep" ] && { [ -e "$keep" ] || [ -L "$keep" ]; }; then mv -fT -- "$keep" "$r/$i.keep" 2>/dev/null; fi
  printf '%s %s %s\n' "$rc" "$s" "$e" >"$r/$i.rc" 2>/dev/null || break
  [ "$rc" = 0 ] || break
  if [ "$shot" = 1 ] && [ "$snap" != - ]; then
    tar -c -f - --exclude=./""" + RECORDS + r""" . >&"$snap" 2>/dev/null
    eval "exec $snap>&-"
    snap=- closed="$out>&-"
  fi
  junk=(/tmp/*)
  if [ ${#junk[@]} -gt 0 ]; then rm -rf -- "${junk[@]}" 2>/dev/null; fi
done
if [ "$snap" != - ]; then eval "exec $snap>&-"; fi
cd "$w" 2>/dev/null && tar -c -f - ./""" + RECORDS + r""" --exclude=./""" + RECORDS + r""" . >&"$out" 2>/dev/null
exit 0
"""


@functools.cache
def system_mounts() -> tuple[str, ...]:
    """Read-only binds of the system directories (links recreated as links)."""
    args: list[str] = []
    for folder in SYSTEM_DIRS:
        path = Path(folder)
        if path.is_symlink():
            args += ["--symlink", os.readlink(path), folder]
        elif path.is_dir():
            args += ["--ro-bind", folder, folder]
    for folder in toolkit_dirs():
        args += ["--ro-bind", folder, folder]
    return tuple(args)


def toolkit_dirs() -> list[str]:
    """The CUDA toolkit's directory when it lives outside the system directories."""
    candidates = [os.environ.get(name) for name in TOOLKIT_VARS]
    if nvcc := shutil.which("nvcc"):
        candidates.append(str(Path(os.path.realpath(nvcc)).parent.parent))
    real = [os.path.realpath(candidate) for candidate in candidates if candidate]
    return list(dict.fromkeys(path for path in real if os.path.isdir(path) and not _under_system(path)))


def _under_system(path: str) -> bool:
    return any(path == d or path.startswith(d + "/") for d in SYSTEM_DIRS if not Path(d).is_symlink())


def etc_mounts(network: bool) -> list[str]:
    args = ["--dir", "/etc"]
    for name in ETC_FILES + (NETWORK_ETC if network else ()):
        path = Path("/etc") / name
        if path.exists():
            args += ["--ro-bind", str(path), str(path)]
    return args


def passwd(uid: int) -> bytes:
    """A passwd file that names only root and the sandbox user: no host accounts."""
    return (f"root:x:0:0:root:/:/usr/sbin/nologin\n"
            f"{SANDBOX_USER}:x:{uid}:{uid}:hwrepair sandbox:{WORK}:/bin/sh\n").encode()


def group(uid: int) -> bytes:
    return f"root:x:0:\n{SANDBOX_USER}:x:{uid}:\n".encode()


def bwrap_argv(bwrap: str, launcher: list[str], *, network: bool, gpu: bool, work_size: int, tmp_size: int,
               mounts: Sequence[str], fds: tuple[int, int], env: dict[str, str]) -> list[str]:
    """The bubblewrap command line of one closed step that runs `launcher` in WORK; fds: passwd, group."""
    cmd = [bwrap, "--unshare-all", "--die-with-parent", "--new-session", "--clearenv"]
    if network:
        cmd.append("--share-net")
    for key, value in sorted(env.items()):
        cmd += ["--setenv", key, value]
    cmd += [*system_mounts(), *etc_mounts(network),
            "--ro-bind-data", str(fds[0]), "/etc/passwd", "--ro-bind-data", str(fds[1]), "/etc/group",
            "--proc", "/proc", "--dev", "/dev",
            "--size", str(tmp_size), "--tmpfs", "/tmp",
            "--size", str(work_size), "--tmpfs", "/sandbox", "--dir", WORK]
    for path in mounts:
        cmd += ["--ro-bind", path, path]
    if gpu:
        for dev in sorted(Path("/dev").glob("nvidia*")):
            cmd += ["--dev-bind", str(dev), str(dev)]
        cmd += ["--ro-bind-try", "/sys", "/sys"]
    return [*cmd, "--chdir", WORK, *launcher]


def launcher_argv(argv: str, workdir: str, kill: bool, fd_in: int, fd_out: int, timeout: float) -> list[str]:
    """The launcher's command line; without bubblewrap it runs in a private scratch directory."""
    # bash, not sh: dash redirects only file descriptors 0 to 9.
    return ["/bin/bash", "--noprofile", "--norc", "-c", LAUNCHER, "hwrepair-step", argv, workdir,
            "kill" if kill else "keep", str(fd_in), str(fd_out), f"{max(timeout, 0.01):.3f}"]


def batch_argv(batch: Sequence[Command], mark: str, fd_in: int, fd_out: int, timeout: float,
               snapshot: int | None = None) -> list[str]:
    """The batch launcher's command line (`snapshot`: the fd for the workspace after its command); inside
    bubblewrap only: it kills between commands, which needs a pid namespace of its own."""
    commands = (part for c in batch for part in (c.argv, c.keep or "", "1" if c.snapshot else "0"))
    return ["/bin/bash", "--noprofile", "--norc", "-c", BATCH_LAUNCHER, "hwrepair-steps", "", WORK, "kill",
            str(fd_in), str(fd_out), f"{max(timeout, 0.01):.3f}", mark, "-" if snapshot is None else str(snapshot),
            *commands]


def sandbox_path(host_path: str, mounts: Sequence[str]) -> str:
    """The host PATH without directories a step cannot see (a virtualenv, a home directory)."""
    visible = [*(d for d in SYSTEM_DIRS if Path(d).exists()), *toolkit_dirs(), *mounts]
    kept = [p for p in host_path.split(":") if any(p == d or p.startswith(d.rstrip("/") + "/") for d in visible)]
    return ":".join(dict.fromkeys(kept)) or "/usr/local/bin:/usr/bin:/bin"
