"""An xdist worker's interpreter, started from the run's fork server (pytest_hwrepair/forkserver.py).

execnet starts each `popen` worker as `PYTHON -u -c BOOTSTRAP`; with the fork server, PYTHON is
`python -I -S this-file SOCKET REAL-PYTHON SECONDS`. This script hands its stdin, stdout and stderr, its
working directory, umask and environment to the fork server, which forks a process that has
imported pytest and the plugin once, and that child becomes the worker. This process stays as the
worker's stand-in for execnet: it forwards SIGTERM, SIGHUP and SIGQUIT, and exits with the worker's
status. Where the fork server cannot take the worker (gone, refused, not ready within SECONDS), it becomes
`REAL-PYTHON -u -c BOOTSTRAP` itself, exactly as without the fork server: a worker always starts.

Standard library only, nothing of the plugin: it runs before any site-packages are on the path. It imports
only modules built into the interpreter (`_socket`, `_signal`): `json`, `socket` and `signal` would cost each
worker about 12 ms of CPU before it even reaches the server, more than the rest of this script.
"""

from __future__ import annotations

import _signal  # type: ignore[import-not-found]  # signal itself imports enum: 6 ms per worker
import _socket
import os
import sys

FORWARDED = (_signal.SIGTERM, _signal.SIGHUP, _signal.SIGQUIT)
# Signals whose ignored disposition an interpreter started here would inherit (a run started in the background
# of a script ignores SIGINT): the worker gets the same.
INHERITED = (_signal.SIGINT, _signal.SIGQUIT, _signal.SIGTERM, _signal.SIGHUP, _signal.SIGCHLD, _signal.SIGUSR1,
             _signal.SIGUSR2, _signal.SIGALRM)


def fallback(real: str, rest: list[str]) -> None:
    os.execv(real, [real, *rest])


def json_string(text: str) -> str:
    """`text` as an ASCII JSON string that `json.loads` reads back as `text`: any character, lone surrogates
    too (an environment or argument that is not UTF-8 reads as surrogate escapes)."""
    if text.isascii() and text.isprintable() and '"' not in text and "\\" not in text:
        return f'"{text}"'
    out = []
    for ch in text:
        code = ord(ch)
        if 0x20 <= code < 0x7F and ch not in '"\\':
            out.append(ch)
        elif code > 0xFFFF:
            code -= 0x10000
            out.append(f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}")
        else:
            out.append(f"\\u{code:04x}")
    return '"' + "".join(out) + '"'


def request_body(argv: list[str], cwd: str, env: dict[str, str], umask: int, ignored: list[int]) -> bytes:
    """The request as the server reads it: one JSON object."""
    strings = ", ".join(json_string(a) for a in argv)
    environ = ", ".join(f"{json_string(k)}: {json_string(v)}" for k, v in env.items())
    numbers = ", ".join(str(int(n)) for n in ignored)
    return (f'{{"argv": [{strings}], "cwd": {json_string(cwd)}, "env": {{{environ}}}, "umask": {int(umask)}, '
            f'"ignored": [{numbers}]}}').encode("ascii")


def read_line(sock: _socket.socket) -> bytes:
    data = b""
    while not data.endswith(b"\n"):
        chunk = sock.recv(64)
        if not chunk:
            break
        data += chunk
    return data


def hand_over(path: str, rest: list[str], seconds: float) -> tuple[_socket.socket, int] | None:
    """The fork server's child pid once it has taken the worker; None when it did not, and never will: its
    child starts only after this process confirms, so a worker never starts twice."""
    umask = os.umask(0)
    os.umask(umask)
    ignored = [int(n) for n in INHERITED if _signal.getsignal(n) == _signal.SIG_IGN]
    body = request_body(rest, os.getcwd(), dict(os.environ), umask, ignored)
    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        sock.settimeout(seconds)
        sock.connect(path)
        fds = b"".join(fd.to_bytes(4, sys.byteorder, signed=True) for fd in (0, 1, 2))  # a C int each
        sock.sendmsg([len(body).to_bytes(8, "big") + body], [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, fds)])
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
        _signal.signal(signum, forward)
    # The worker shares this process group: a terminal's Ctrl-C reaches it directly, not twice.
    _signal.signal(_signal.SIGINT, _signal.SIG_IGN)
    answer = read_line(sock)
    if answer.startswith(b"exit "):
        code = int(answer[5:])
        if code < 0:  # killed by a signal: die of the same one, as the worker did
            _signal.signal(-code, _signal.SIG_DFL)
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
