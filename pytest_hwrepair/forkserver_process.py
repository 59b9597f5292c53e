"""The fork server's own process (started by forkserver.ForkServer through forkserver.BOOT).

It imports what a worker needs, reads the run's case files, then forks one child per launcher that
connects (forkserver_launch.py); each child takes over its launcher's stdin, stdout, stderr, directory,
umask and environment and runs execnet's bootstrap as `python -u -c` would.
"""

from __future__ import annotations
import __future__

import contextlib
import gc
import inspect
import io
import json
import os
import selectors
import signal
import socket
import struct
import sys
import threading
import types
from dataclasses import dataclass
from typing import Any, NoReturn

from .forkserver_launch import INHERITED
from .process import exit_now

REQUEST_LIMIT = 16 << 20
REQUEST_SECONDS = 5.0
# Plugins whose modules the server imports, under the rewriting hook: their import does nothing that
# depends on being a worker. Other plugins load in each worker as usual.
PLUGINS = ("xdist.plugin", "xdist.looponfail", "pytest_timeout", "platformdirs.pytest_plugin", "anyio.pytest_plugin",
           # Hypothesis's plugin imports the whole library in every worker at its end (0.2 CPU-s each).
           "_hypothesis_pytestplugin", "hypothesis", "xdist.newhooks")
# Standard modules every worker imports before its first item (pytest's capture and debugging plugins,
# faulthandler): imported once here instead.
STANDARD = ("readline", "pdb", "faulthandler", "code", "codeop", "cmd")
# The command lines execnet gives a popen worker's interpreter that the server can stand in for.
BOOTSTRAP_FLAGS = ({"-u"}, {"-u", "-B"})
# The program execnet gives a worker it bootstraps with its own source (execnet.gateway_io.popen_bootstrapline):
# the line it then sends starts with the source of execnet.gateway_base (60 kB, 12 ms to compile in each worker).
BOOTSTRAP_LINE = "import sys;exec(eval(sys.stdin.readline()))"


@dataclass(frozen=True)
class Precompiled:
    """A source that starts what a worker is sent, compiled once in the server as the worker would compile it."""

    head: str  # the source and the newline that ends it
    code: types.CodeType
    future: int  # the flags of the __future__ imports in it, which hold for the rest of the same source too
    lines: int  # the lines of `head`: where the rest of the source starts

    @classmethod
    def of(cls, source: str) -> Precompiled:
        # dont_inherit: as `exec` compiles it in a `-c` program, without this module's __future__ flags
        code = compile(source, "<string>", "exec", dont_inherit=True)
        future = 0
        for name in __future__.all_feature_names:
            future |= code.co_flags & getattr(__future__, name).compiler_flag
        head = source + "\n"
        return cls(head, code, future, head.count("\n"))


GATEWAY: Precompiled | None = None  # execnet's gateway source, once the server imported it


@dataclass
class Request:
    """A worker to start: the launcher's interpreter arguments, place, environment and stdio."""

    argv: list[str]
    cwd: str
    env: dict[str, str]
    umask: int
    fds: list[int]
    ignored: tuple[int, ...] = ()  # signals the launcher had ignored, as a fresh interpreter would inherit them

    def code(self) -> str | None:
        """The `-c` program execnet gives its worker, when the flags before it are ones this server knows."""
        if len(self.argv) < 2 or self.argv[-2] != "-c" or set(self.argv[:-2]) not in BOOTSTRAP_FLAGS:
            return None
        return self.argv[-1]


# The built-in fixers' modules, which the registry imports only when a fixer of theirs is made.
FIXER_MODULES = ("pytest_hwrepair.fixers.agent", "pytest_hwrepair.fixers.command", "pytest_hwrepair.fixers.llm",
                 "pytest_hwrepair.fixers.search", "pytest_hwrepair.probe")


def preload(paths: list[str], hook: Any) -> None:
    """Import pytest, the plugin and its dependencies as a worker would, under pytest's rewriting `hook` (BOOT
    installed it), then read the case files under `paths`. Raises if a module pytest would rewrite got
    imported without the hook."""
    try:
        import execnet  # noqa: F401
        import pytest  # noqa: F401

        import pytest_hwrepair.plugin  # noqa: F401
        from pytest_hwrepair.oracles import oracle_kinds

        oracle_kinds()  # every oracle kind's module, imported by a worker when a case names the kind: once here
        for name in FIXER_MODULES:  # imported by the fixer's factory in a worker: once here instead
            __import__(name)
        for name in PLUGINS:
            with contextlib.suppress(ImportError):
                __import__(name)
    finally:
        with contextlib.suppress(ValueError):
            sys.meta_path.remove(hook)
    unhooked = [name for name in sorted(hook._must_rewrite) if name in sys.modules
                and not isinstance(sys.modules[name].__loader__, type(hook))]
    if unhooked:
        raise RuntimeError(f"imported without pytest's rewriting hook: {', '.join(unhooked)}")
    for name in STANDARD:
        with contextlib.suppress(ImportError):
            __import__(name)
    from . import loading
    from .fixers.llm import tls_context
    from .oracles.hls_objects import compiler_identity
    loading.preload_cases(paths)
    compiler_identity("gcc")  # what each worker's first HLS build asks (two runs of gcc)
    global GATEWAY
    GATEWAY = _gateway()
    tls_context(os.environ.get("SSL_CERT_FILE"), os.environ.get("SSL_CERT_DIR"))  # what each model client loads
    if threading.active_count() != 1:  # a fork copies only the forking thread: never fork a process with others
        raise RuntimeError(f"{threading.active_count()} threads after the imports")


def _gateway() -> Precompiled | None:
    import execnet.gateway_base
    import execnet.gateway_io

    if execnet.gateway_io.popen_bootstrapline != BOOTSTRAP_LINE:
        return None
    return Precompiled.of(inspect.getsource(execnet.gateway_base))


def serve(listener: socket.socket, control: int) -> Request | None:
    """Fork a worker per accepted request until the controller closes `control` and the last worker ends.
    Returns only in a forked child: the request it is to become."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a terminal's Ctrl-C is for the workers and the controller
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_r, False)
    os.set_blocking(wake_w, False)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    signal.set_wakeup_fd(wake_w)
    sel = selectors.DefaultSelector()
    sel.register(listener, selectors.EVENT_READ, "accept")
    sel.register(control, selectors.EVENT_READ, "control")
    sel.register(wake_r, selectors.EVENT_READ, "reap")
    children: dict[int, socket.socket] = {}
    accepting = True
    while accepting or children:
        for key, _ in sel.select():
            if key.data == "accept":
                child = _accept(listener, sel, children)
                if child is not None:  # wake_r went with the other registered ends
                    os.close(wake_w)
                    return child
            elif key.data == "control":
                if not os.read(control, 64):
                    accepting = False
                    sel.unregister(listener)
                    sel.unregister(control)
                    listener.close()
            elif key.data == "reap":
                with contextlib.suppress(BlockingIOError):
                    while os.read(wake_r, 256):
                        pass
                _reap(sel, children)
            else:  # a launcher's end: it never writes, so readable means it is gone (killed): so is its worker
                pid = key.data
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
                sel.unregister(key.fileobj)
    return None


def _accept(listener: socket.socket, sel: selectors.BaseSelector,
            children: dict[int, socket.socket]) -> Request | None:
    try:
        conn, _ = listener.accept()
    except OSError:
        return None
    request = None
    try:
        if _peer_uid(conn) == os.getuid():  # only this user's processes get a process of this user
            request = _read_request(conn)
        if request is None or request.code() is None:
            conn.close()
            if request is not None:
                for fd in request.fds:
                    os.close(fd)
            return None
    except OSError:
        conn.close()
        return None
    go_r, go_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(go_w)
        return _become(request, go_r, sel, conn)
    os.close(go_r)
    for fd in request.fds:
        os.close(fd)
    try:  # the child begins once the launcher confirms: a launcher that gave up has become the worker itself
        conn.sendall(b"pid %d\n" % pid)
        conn.settimeout(REQUEST_SECONDS)
        if conn.recv(3) != b"ok\n":
            raise OSError("the launcher did not confirm")
        conn.settimeout(None)
        os.write(go_w, b"g")
    except OSError:  # the child ends unstarted
        os.kill(pid, signal.SIGKILL)
    finally:
        os.close(go_w)
    children[pid] = conn
    sel.register(conn, selectors.EVENT_READ, pid)
    return None


def _read_request(conn: socket.socket) -> Request | None:
    conn.settimeout(REQUEST_SECONDS)
    data, fds, _, _ = socket.recv_fds(conn, 1 << 16, 3)
    if len(fds) != 3 or len(data) < 8:
        for fd in fds:
            os.close(fd)
        return None
    size = int.from_bytes(data[:8], "big")
    body = data[8:]
    try:  # a peer that stops half-way (or lies about the size) costs the server at most REQUEST_SECONDS
        while len(body) < size <= REQUEST_LIMIT:
            chunk = conn.recv(min(1 << 20, size - len(body)))
            if not chunk:
                break
            body += chunk
        conn.settimeout(None)
    except OSError:
        body = b""
    request = _parse(body, fds) if len(body) == size else None
    if request is None:
        for fd in fds:
            os.close(fd)
    return request


def _parse(body: bytes, fds: list[int]) -> Request | None:
    try:
        raw = json.loads(body)
        argv, cwd, env, umask, ignored = raw["argv"], raw["cwd"], raw["env"], raw["umask"], raw.get("ignored", [])
    except (TypeError, KeyError, ValueError, AttributeError):
        return None
    if not (isinstance(argv, list) and all(isinstance(a, str) for a in argv) and isinstance(cwd, str)
            and isinstance(env, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in env.items())
            and isinstance(umask, int) and 0 <= umask <= 0o777 and isinstance(ignored, list)
            and all(isinstance(n, int) and n in INHERITED for n in ignored)):
        return None
    return Request(argv, cwd, env, umask, fds, tuple(ignored))


def _reap(sel: selectors.BaseSelector, children: dict[int, socket.socket]) -> None:
    while children:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        conn = children.pop(pid, None)
        if conn is None:
            continue
        with contextlib.suppress(KeyError, ValueError):
            sel.unregister(conn)
        with contextlib.suppress(OSError):
            conn.sendall(b"exit %d\n" % os.waitstatus_to_exitcode(status))
        conn.close()


def _become(request: Request, go: int, sel: selectors.BaseSelector, conn: socket.socket) -> Request:
    """In the forked child: drop the server's ends, wait for the go, then take the launcher's place."""
    for key in list(sel.get_map().values()):
        obj = key.fileobj
        if isinstance(obj, socket.socket):
            obj.close()
        elif isinstance(obj, int):
            with contextlib.suppress(OSError):
                os.close(obj)
    sel.close()
    conn.close()
    signal.set_wakeup_fd(-1)
    for signum in INHERITED:  # as a fresh interpreter started by the launcher would have them
        default = signal.default_int_handler if signum == signal.SIGINT else signal.SIG_DFL
        signal.signal(signum, signal.SIG_IGN if signum in request.ignored else default)
    if os.read(go, 1) != b"g":  # the server could not tell the launcher: end before touching its pipes
        os._exit(1)
    os.close(go)
    for target, fd in enumerate(request.fds):
        os.dup2(fd, target)
        os.close(fd)
    os.chdir(request.cwd)
    os.umask(request.umask)
    os.environ.clear()
    os.environ.update(request.env)
    return request


def run_worker(request: Request) -> None:
    """Be `python -u [-B] -c CODE` from here on."""
    code = request.code()
    assert code is not None
    sys.dont_write_bytecode = "-B" in request.argv or bool(request.env.get("PYTHONDONTWRITEBYTECODE"))
    sys.stdin = io.TextIOWrapper(io.BufferedReader(io.FileIO(0, "r", closefd=False)))
    sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), write_through=True, line_buffering=True)
    sys.stderr = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), write_through=True, line_buffering=True,
                                  errors="backslashreplace")
    sys.argv = ["-c"]
    main = types.ModuleType("__main__")
    main.__dict__["__builtins__"] = __builtins__
    sys.modules["__main__"] = main
    if code == BOOTSTRAP_LINE and GATEWAY is not None:
        bootstrap(main.__dict__, GATEWAY)
    else:
        exec(compile(code, "<string>", "exec", dont_inherit=True), main.__dict__)


def bootstrap(namespace: dict[str, Any], known: Precompiled) -> None:
    """Run BOOTSTRAP_LINE in `namespace`: read a line, evaluate it and run the source it gives. Where that source
    starts with `known`, its code runs as compiled ahead, then the rest, compiled at the line numbers it has in the
    whole (a traceback names the lines it would name); any other source is compiled and run as it comes."""
    namespace["sys"] = sys
    source = eval(sys.stdin.readline(), namespace)
    if not (isinstance(source, str) and source.startswith(known.head)):
        exec(compile(source, "<string>", "exec", dont_inherit=True)  # as `exec` compiles a source
             if isinstance(source, (str, bytes)) else source, namespace)
        return
    rest = compile("\n" * known.lines + source[len(known.head):], "<string>", "exec", flags=known.future,
                   dont_inherit=True)
    exec(known.code, namespace)
    exec(rest, namespace)


def leave() -> NoReturn:
    """End a worker that finished as the interpreter ends, without taking every object apart first
    (`process.exit_now`): a worker holds what the server imported and what its run built, and sixteen workers
    freeing it all object by object on two cores kept the controller waiting about a quarter of a second longer
    for the last of them."""
    exit_now(0)


def main(argv: list[str], hook: Any) -> int:
    listener = socket.socket(fileno=int(argv[0]))
    control = int(argv[1])
    try:
        preload(argv[2:], hook)
    except Exception as exc:
        print(f"hwrepair fork server: not serving: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 0
    # What the server imported stays as it is in every worker: the collector neither walks it there (time)
    # nor writes to it (copied pages).
    gc.freeze()
    request = serve(listener, control)
    if request is None:
        return 0
    gc.enable()
    run_worker(request)
    leave()


def _peer_uid(sock: socket.socket) -> int:
    return int(struct.unpack("3i", sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, 12))[1])


__all__ = ["Request", "main", "preload", "serve"]
