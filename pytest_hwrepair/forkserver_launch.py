"""An xdist worker's interpreter, started from the run's fork server (pytest_hwrepair/forkserver.py).

execnet starts each `popen` worker as `PYTHON -u -c BOOTSTRAP`; with the fork server, PYTHON is
`python -I -S this-file SOCKET REAL-PYTHON SECONDS`. This script hands its stdin, stdout and stderr, its
working directory, umask and environment to the fork server, which forks a process that has
imported pytest and the plugin once, and that child becomes the worker. This process stays as the
worker's stand-in for execnet: it forwards SIGTERM, SIGHUP and SIGQUIT, and exits with the worker's
status. Where the fork server cannot take the worker (gone, refused, not ready within SECONDS), it becomes
`REAL-PYTHON -u -c BOOTSTRAP` itself, exactly as without the fork server: a worker always starts.

Standard library only, nothing of the plugin: it runs before any site-packages are on the path.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import sys

FORWARDED = (signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT)
# Signals whose ignored disposition an interpreter started here would inherit (a run started in the background
# of a script ignores SIGINT): the worker gets the same.
INHERITED = (signal.SIGINT, signal.SIGQUIT, signal.SIGTERM, signal.SIGHUP, signal.SIGCHLD, signal.SIGUSR1,
             signal.SIGUSR2, signal.SIGALRM)


def fallback(real: str, rest: list[str]) -> None:
    os.execv(real, [real, *rest])


def read_line(sock: socket.socket) -> bytes:
    data = b""
    while not data.endswith(b"\n"):
        chunk = sock.recv(64)
        if not chunk:
            break
        data += chunk
    return data


def hand_over(path: str, rest: list[str], seconds: float) -> tuple[socket.socket, int] | None:
    """The fork server's child pid once it has taken the worker; None when it did not, and never will: its
    child starts only after this process confirms, so a worker never starts twice."""
    umask = os.umask(0)
    os.umask(umask)
    ignored = [int(n) for n in INHERITED if signal.getsignal(n) == signal.SIG_IGN]
    body = json.dumps({"argv": rest, "cwd": os.getcwd(), "env": dict(os.environ), "umask": umask,
                       "ignored": ignored}).encode()
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.settimeout(seconds)
        sock.connect(path)
        socket.send_fds(sock, [len(body).to_bytes(8, "big") + body], [0, 1, 2])
        answer = read_line(sock)  # a server still starting up after `seconds`: start without it
        if not answer.startswith(b"pid "):  # refused, or the server ended before it forked
            raise OSError("not taken")
        pid = int(answer[4:])
        sock.sendall(b"ok\n")
    except (OSError, ValueError):
        sock.close()
        return None
    sock.settimeout(None)
    return sock, pid


def main(argv: list[str]) -> int:
    path, real, seconds, rest = argv[0], argv[1], float(argv[2]), argv[3:]
    taken = hand_over(path, rest, seconds)
    if taken is None:
        fallback(real, rest)
        return 127
    sock, pid = taken

    def forward(signum: int, _frame: object) -> None:
        try:
            os.kill(pid, signum)
        except ProcessLookupError:
            pass

    for signum in FORWARDED:
        signal.signal(signum, forward)
    # The worker shares this process group: a terminal's Ctrl-C reaches it directly, not twice.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    answer = read_line(sock)
    if answer.startswith(b"exit "):
        code = int(answer[5:])
        if code < 0:  # killed by a signal: die of the same one, as the worker did
            signal.signal(-code, signal.SIG_DFL)
            os.kill(os.getpid(), -code)
        return code & 0xFF
    # The server ended first: wait for the worker itself, its status unknown.
    try:
        fd = os.pidfd_open(pid)
    except OSError:
        return 1
    import select
    select.select([fd], [], [])
    return 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
