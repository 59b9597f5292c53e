"""Workers forked from one warm process: the same run as fresh workers, and a server no one else can use."""

from __future__ import annotations

import ast
import contextlib
import json
import os
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_hwrepair import loading
from pytest_hwrepair.forkserver import BOOT, LAUNCHER, ForkServer, use_for_workers
from pytest_hwrepair.forkserver_launch import json_string, request_body
from pytest_hwrepair.forkserver_process import FIXER_MODULES
from pytest_hwrepair.oracles import BUILTIN_MODULES

from .conftest import SUM_C, SUM_TOML, write_case

# Each worker notes where it came from: its parent's command line and whether the plugin was imported before
# pytest configured it (it was, in a forked worker).
WHO_AM_I = """
import json, os, sys
def pytest_configure(config):
    wid = os.environ.get("PYTEST_XDIST_WORKER")
    if wid:
        parent = open(f"/proc/{os.getppid()}/cmdline", "rb").read().replace(b"\\0", b" ").decode()
        with open(f"who-{wid}.json", "w") as fh:
            json.dump({"parent": parent}, fh)
"""


def launch(server: ForkServer, code: str, *, stdin: bytes = b"", env: dict[str, str] | None = None,
           cwd: Path | None = None, timeout: float = 60) -> subprocess.CompletedProcess[bytes]:
    """A worker interpreter started the way execnet starts one through the server."""
    return subprocess.run([*interpreter(server), "-u", "-c", code], input=stdin, capture_output=True,
                          env=env, cwd=cwd, timeout=timeout, check=False)


def interpreter(server: ForkServer) -> list[str]:
    """The interpreter command line a worker spec through the server names."""
    spec = server.spec()
    assert spec is not None
    return shlex.split(spec.split("python=", 1)[1])


@pytest.fixture
def server(tmp_path: Path):
    started = ForkServer.start([])
    assert started is not None
    yield started
    started.close()


def summary_lines(result: pytest.RunResult) -> list[str]:
    return [line for line in result.outlines if line.startswith(("hls", "  ", "fixer")) and "results:" not in line]


def test_n_workers_are_forked_and_judge_as_fresh_ones_do(demo_pytester: pytest.Pytester) -> None:
    demo_pytester.makeconftest(WHO_AM_I)
    runs = {}
    for start in ("fork", "exec"):
        result = demo_pytester.runpytest_subprocess("cases", "--fixer", "reference", "--fixer", "noop", "-n", "2",
                                                     "--hwrepair-run", f"r-{start}", "--hwrepair-worker-start",
                                                     start, "-p", "no:cacheprovider")
        result.assert_outcomes(passed=3, failed=3)  # the reference repairs, noop does not
        parents = [json.loads(p.read_text())["parent"] for p in sorted(demo_pytester.path.glob("who-gw*.json"))]
        assert len(parents) == 2
        assert all(("pytest_hwrepair.forkserver" in p) == (start == "fork") for p in parents), parents
        for p in demo_pytester.path.glob("who-gw*.json"):
            p.unlink()
        runs[start] = json.loads((demo_pytester.path / f"r-{start}" / "summary.json").read_text())
    for key in ("bugs", "fixers", "domains", "groups"):
        assert runs["fork"][key] == runs["exec"][key]
    assert not _servers_of(demo_pytester.path)  # the server ended with its run


def _servers_of(folder: Path) -> list[int]:
    """Fork servers running in `folder`."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if (entry.name.isdigit() and int(entry.name) != os.getpid()  # this test may run in a forked worker
                    and b"pytest_hwrepair.forkserver" in (entry / "cmdline").read_bytes()
                    and os.readlink(entry / "cwd") == str(folder)):
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def test_the_server_stands_in_for_the_interpreter(server: ForkServer, tmp_path: Path) -> None:
    code = ("import os, sys; line = sys.stdin.readline(); print(line.upper().strip(), os.getcwd(), "
            "os.environ.get('HW_X'), os.getpid() != os.getppid()); sys.stderr.write('err'); sys.exit(3)")
    done = launch(server, code, stdin=b"hello\n", env={**os.environ, "HW_X": "42"}, cwd=tmp_path)
    assert done.returncode == 3
    assert done.stdout.decode().split() == ["HELLO", str(tmp_path), "42", "True"]
    assert done.stderr == b"err"
    # it ran in a child of the server, with the plugin already imported
    who = launch(server, "import os, sys; print('pytest_hwrepair.plugin' in sys.modules, "
                         "open(f'/proc/{os.getppid()}/cmdline','rb').read().count(b'forkserver'))")
    assert who.stdout.split() == [b"True", b"1"]


def test_the_server_imports_the_fixer_modules_a_fresh_plugin_import_leaves_out(server: ForkServer) -> None:
    # A fresh process importing the plugin gets none of them (the registry imports a fixer's module when it
    # makes one); a forked worker has them already. (The server checks itself that nothing pytest would rewrite
    # was imported past its hook.)
    probe = ("import sys; import pytest_hwrepair.plugin; "
             f"print([n for n in {FIXER_MODULES!r} + ('httpx',) if n in sys.modules])")
    fresh = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert fresh.stdout.strip() == "[]"
    check = f"import sys; print(all(n in sys.modules for n in {FIXER_MODULES!r}))"
    assert launch(server, check).stdout.split() == [b"True"]


def test_the_server_imports_every_oracle_kind_s_module(server: ForkServer) -> None:
    # A fresh plugin import loads an oracle kind's module when a case names the kind; a worker has them all.
    modules = sorted({f"pytest_hwrepair.oracles.{m}" for m, _ in BUILTIN_MODULES.values()})
    probe = f"import sys; import pytest_hwrepair.plugin; print([n for n in {modules!r} if n in sys.modules])"
    fresh = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    imported = set(ast.literal_eval(fresh.stdout.strip()))
    assert not imported & {"pytest_hwrepair.oracles.cuda", "pytest_hwrepair.oracles.rtl",
                           "pytest_hwrepair.oracles.rtl_repo", "pytest_hwrepair.oracles.cuda_diff"}
    check = f"import sys; print(all(n in sys.modules for n in {modules!r}))"
    assert launch(server, check).stdout.split() == [b"True"]


# What a worker's bootstrap source may hold after execnet's own: observations that must read the same whether the
# source was compiled in the worker or partly ahead, and a failure whose traceback names its line.
GATEWAY_TAIL = """
def typed(x: int) -> None: ...
print(__name__, typed.__annotations__, sys.argv, 'serve' in globals())
fp = sys.modules.get('pytest_hwrepair.forkserver_process')
print('ahead', fp is not None and fp.GATEWAY is not None and serve.__code__ in fp.GATEWAY.code.co_consts,
      file=sys.stderr)
raise ValueError(sys._getframe().f_lineno)
"""


@pytest.mark.parametrize("changed", [False, True])
def test_execnet_s_bootstrap_runs_as_in_a_fresh_interpreter_with_its_gateway_source_compiled_ahead(
        server: ForkServer, changed: bool) -> None:
    import inspect

    import execnet.gateway_base

    from pytest_hwrepair.forkserver_process import BOOTSTRAP_LINE

    source = inspect.getsource(execnet.gateway_base)
    if changed:  # a gateway source that is not the one the server compiled: compiled and run as it comes
        source = source.replace("\ndef serve(", "\ndef serve(*_: object, **__: object) -> None: ...\ndef serve_(", 1)
    line = (repr(source + "\n" + GATEWAY_TAIL) + "\n").encode()
    forked = launch(server, BOOTSTRAP_LINE, stdin=line)
    fresh = subprocess.run([sys.executable, "-u", "-c", BOOTSTRAP_LINE], input=line, capture_output=True,
                           timeout=60, check=False)
    assert forked.returncode == fresh.returncode == 1
    assert forked.stdout == fresh.stdout  # __main__, the gateway's future import holds for the rest, argv
    assert b"'x': 'int'" in forked.stdout and b"True" in forked.stdout
    # the failing line named as it is named in the whole source (above it the forked traceback shows the server's
    # frames), and the code compiled ahead ran where the source was the server's
    assert forked.stderr.splitlines()[-2:] == fresh.stderr.splitlines()[-2:]
    raised_at = source.count("\n") + GATEWAY_TAIL.count("\n") + 1  # the tail's last line in the whole
    assert fresh.stderr.splitlines()[-1] == f"ValueError: {raised_at}".encode()
    assert forked.stderr.splitlines()[0] == (b"ahead False" if changed else b"ahead True")


def test_a_worker_that_finished_ends_as_an_interpreter_ends(server: ForkServer, tmp_path: Path) -> None:
    """Without the teardown of every object, but with what an exit does for others: threads that are not
    daemons finish, thread pools drain, atexit handlers and finalizers run, files and streams are flushed."""
    code = (f"import atexit, os, sys, tempfile, threading, time, weakref\n"
            f"from concurrent.futures import ThreadPoolExecutor\n"
            f"out = {str(tmp_path)!r}\n"
            "def late(name):\n"
            "    time.sleep(0.3)\n"
            "    open(os.path.join(out, name), 'w').write('done')\n"
            "threading.Thread(target=late, args=('thread',)).start()\n"
            "ThreadPoolExecutor(1).submit(late, 'pool')\n"
            "atexit.register(lambda: open(os.path.join(out, 'atexit'), 'w').write('done'))\n"
            "kept = tempfile.TemporaryDirectory(dir=out, prefix='finalized-')\n"
            "sys.stdout.write('no newline at the end')\n"
            "fh = open(os.path.join(out, 'buffered'), 'w'); fh.write('left open')\n"
            "print('pytest_hwrepair.forkserver' in open(f'/proc/{os.getppid()}/cmdline').read(), file=sys.stderr)\n")
    done = launch(server, code)
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip() == b"True"  # it was a forked worker
    assert done.stdout == b"no newline at the end"
    assert {p.name for p in tmp_path.iterdir()} >= {"thread", "pool", "atexit"}
    assert not list(tmp_path.glob("finalized-*"))  # the temporary directory's finalizer ran
    assert (tmp_path / "buffered").read_text() == "left open"  # a file never closed is flushed


def test_a_worker_killed_by_a_signal_kills_its_stand_in_the_same_way(server: ForkServer) -> None:
    done = launch(server, "import os, signal; os.kill(os.getpid(), signal.SIGTERM)")
    assert done.returncode == -signal.SIGTERM


def test_killing_the_stand_in_kills_the_worker(server: ForkServer, tmp_path: Path) -> None:
    marker = tmp_path / "alive"
    code = f"import os, time; open({str(marker)!r}, 'w').write(str(os.getpid())); time.sleep(120)"
    proc = subprocess.Popen([*interpreter(server), "-u", "-c", code])
    deadline = time.monotonic() + 30
    while not (marker.exists() and marker.read_text()) and time.monotonic() < deadline:
        time.sleep(0.05)
    worker = int(marker.read_text())
    proc.kill()  # what execnet does to a worker that will not stop
    proc.wait()
    deadline = time.monotonic() + 10
    while _alive(worker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(worker)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split(")")[-1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError):  # reaped before, or while, /proc was read
        return False


def test_without_a_server_the_launcher_is_a_fresh_interpreter(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-I", "-S", str(LAUNCHER), str(tmp_path / "no-such-socket"),
                           sys.executable, "60", "-u", "-c", "import sys; print('fresh', 'pytest' in sys.modules)"],
                          capture_output=True, timeout=60, check=False)
    assert done.returncode == 0 and done.stdout.split() == [b"fresh", b"False"]


def test_flags_the_server_does_not_know_get_a_fresh_interpreter(server: ForkServer) -> None:
    done = subprocess.run([*interpreter(server), "-X", "dev", "-c",
                           "import sys; print(sys.flags.dev_mode)"], capture_output=True, timeout=60, check=False)
    assert done.stdout.split() == [b"True"]  # the flag took effect: a real interpreter ran it


def _request(path: Path, body: bytes, fds: list[int]) -> bytes:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.connect(str(path))
        socket.send_fds(sock, [len(body).to_bytes(8, "big") + body], fds)
        sock.settimeout(20)
        try:
            return sock.recv(64)
        except ConnectionResetError:
            return b""


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to connect as another user")
def test_another_user_gets_nothing_from_the_server(server: ForkServer, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    os.chmod(tmp_path, 0o777)
    os.chmod(server.folder, 0o755)  # even where the directory lets it reach the socket
    os.chmod(server.socket_path, 0o777)
    body = json.dumps({"argv": ["-u", "-c", f"open({str(marker)!r}, 'w')"], "cwd": "/", "env": {},
                       "umask": 0o22}).encode()
    script = (f"import os, socket\nos.setgid(65534)\nos.setuid(65534)\n"
              f"sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)\nsock.connect({str(server.socket_path)!r})\n"
              f"socket.send_fds(sock, [len({body!r}).to_bytes(8, 'big') + {body!r}], [0, 1, 2])\n"
              f"sock.settimeout(20)\ntry:\n    print(sock.recv(64))\nexcept ConnectionResetError:\n    print(b'')\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=60, check=False, cwd="/")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == b"b''"
    time.sleep(0.5)
    assert not marker.exists()
    assert launch(server, "print('still serving')").stdout == b"still serving\n"


@pytest.mark.parametrize("body", [b"{not json", json.dumps({"argv": ["-c", "print(1)"]}).encode(),
                                  json.dumps({"argv": ["-i", "-c", "print(1)"], "cwd": "/", "env": {},
                                              "umask": 18}).encode()], ids=["garbage", "fields", "flags"])
def test_a_bad_request_is_refused_and_the_server_keeps_serving(server: ForkServer, body: bytes) -> None:
    assert _request(server.socket_path, body, [0, 1, 2]) == b""
    assert _request(server.socket_path, json.dumps({"argv": ["-u", "-c", "pass"], "cwd": "/", "env": {},
                                                    "umask": 18}).encode(), []) == b""  # no stdio handed over
    assert launch(server, "print('still serving')").stdout == b"still serving\n"


def test_the_server_folder_is_private(server: ForkServer) -> None:
    assert server.folder.stat().st_mode & 0o077 == 0


def test_only_plain_local_workers_go_through_the_server(server: ForkServer) -> None:
    assert use_for_workers(["popen", "popen"], server) == [server.spec()] * 2
    assert use_for_workers(["popen", "ssh=host"], server) is None
    assert use_for_workers(["popen//chdir=/x"], server) is None
    assert use_for_workers([], server) is None


def test_a_module_pytest_would_rewrite_imported_early_means_no_server() -> None:
    boot = BOOT.split("import pytest_hwrepair.forkserver")[0]  # the hook in, every plugin marked
    code = (f"{boot}sys.meta_path.remove(hook)\nimport xdist\nsys.meta_path.insert(0, hook)\n"
            "from pytest_hwrepair.forkserver_process import preload\npreload([], hook)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode != 0 and "imported without pytest's rewriting hook: xdist" in done.stderr


def test_a_case_read_ahead_is_used_once_and_only_while_its_files_read_the_same(tmp_path: Path) -> None:
    path = write_case(tmp_path, "sum", {"case.toml": SUM_TOML, "sum.c": SUM_C})
    root = tmp_path / "cases"
    try:
        loading.preload_cases([str(root)])
        first = loading.load_case(path)
        assert loading.load_case(path) is not first  # once: a second load reads the files again
        loading.preload_cases([str(root)])
        (path.parent / "sum.c").write_text(SUM_C + "\n/* changed */\n")
        changed = loading.load_case(path)
        assert "changed" in changed.files["sum.c"]
        loading.preload_cases([str(root)])
        path.write_text(path.read_text() + "\n# edited\n")
        assert loading._PRELOADED and loading._preloaded(path) is None
    finally:
        loading._PRELOADED.clear()


def _same_size_edit(file: Path) -> None:
    """Change one character, keep the size and put the modification time back (the change time moves)."""
    info = file.stat()
    text = file.read_text()
    file.write_text(text.replace("+", "-", 1))
    os.utime(file, ns=(info.st_atime_ns, info.st_mtime_ns))


def test_a_case_read_ahead_is_read_again_when_a_file_status_moved(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loading, "RACY_NS", 0)  # every file old enough: the file status alone decides
    path = write_case(tmp_path, "sum", {"case.toml": SUM_TOML, "sum.c": SUM_C})
    root = tmp_path / "cases"
    try:
        loading.preload_cases([str(root)])
        assert loading._preloaded(path) is not None  # untouched: used as read
        loading.preload_cases([str(root)])
        _same_size_edit(path.parent / "sum.c")
        assert loading._preloaded(path) is None  # same size and modification time: the change time tells
        loading.preload_cases([str(root)])
        source = path.parent / "sum.c"
        other = path.parent / "other.c"
        other.write_text(source.read_text().replace("+", "-", 1))
        os.utime(other, ns=(source.stat().st_atime_ns, source.stat().st_mtime_ns))
        source.unlink()
        source.symlink_to(other.name)  # another file of the same size and modification time behind the name
        assert loading._preloaded(path) is None
        assert "-" in loading.load_case(path).files["sum.c"]
    finally:
        loading._PRELOADED.clear()


def test_a_file_changed_just_before_it_was_read_ahead_is_compared_by_content(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write_case(tmp_path, "sum", {"case.toml": SUM_TOML, "sum.c": SUM_C})
    root = tmp_path / "cases"
    recent = time.time_ns()
    monkeypatch.setattr(loading, "_stamp", lambda file: (0, 0, 0, recent, recent))  # a status that never moves
    try:
        loading.preload_cases([str(root)])
        assert loading._preloaded(path) is not None  # same text
        loading.preload_cases([str(root)])
        (path.parent / "sum.c").write_text(SUM_C.replace("+", "-", 1))
        assert loading._preloaded(path) is None  # the status says unchanged, the text does not
        loading.preload_cases([str(root)])
        path.write_text(path.read_text() + "\n# edited\n")
        assert loading._preloaded(path) is None
    finally:
        loading._PRELOADED.clear()


ANY_CHARACTER = st.characters(min_codepoint=0, max_codepoint=0x10FFFF, exclude_categories=())  # lone surrogates too


@given(st.text(ANY_CHARACTER))
def test_the_launcher_writes_any_string_as_json_reads_it(text: str) -> None:
    assert json.loads(json_string(text)) == text  # with the json module, which the launcher does not import


@given(st.lists(st.text(ANY_CHARACTER)), st.text(ANY_CHARACTER), st.dictionaries(st.text(ANY_CHARACTER),
       st.text(ANY_CHARACTER)), st.integers(0, 0o777), st.lists(st.integers(1, 31)))
def test_the_launcher_request_is_the_json_object_the_server_parses(argv: list[str], cwd: str, env: dict[str, str],
                                                                     umask: int, ignored: list[int]) -> None:
    assert json.loads(request_body(argv, cwd, env, umask, ignored)) == {
        "argv": argv, "cwd": cwd, "env": env, "umask": umask, "ignored": ignored}


def test_the_launcher_imports_nothing_beyond_the_interpreter_s_own_modules() -> None:
    def imported(code: str) -> set[str]:
        probe = f"import sys\nbefore = set(sys.modules)\n{code}\nprint(sorted(set(sys.modules) - before))"
        done = subprocess.run([sys.executable, "-I", "-S", "-c", probe], capture_output=True, text=True, timeout=30,
                              check=True)
        return set(eval(done.stdout))

    launcher = imported(f"exec(compile(open({str(LAUNCHER)!r}).read(), 'launcher', 'exec'), {{'__name__': 'x'}})")
    assert launcher - imported("import os") <= {"_signal", "_socket", "__future__"}


def test_a_killed_run_leaves_no_socket_directory_behind(tmp_path: Path) -> None:
    stale = Path(tempfile.gettempdir()) / "hwrepair-forkserver-999999999-x"
    stale.mkdir(exist_ok=True)
    (stale / "sock").write_text("")
    mine = ForkServer.start([])
    assert mine is not None
    try:
        assert not stale.exists() and mine.folder.exists()
    finally:
        mine.close()
    assert not mine.folder.exists()


def test_a_server_too_slow_to_answer_is_not_waited_for_and_never_starts_the_worker_twice(tmp_path: Path) -> None:
    stalled = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)  # listens, but takes its time
    stalled.bind(str(tmp_path / "sock"))
    stalled.listen(8)
    start = time.monotonic()
    out = tmp_path / "out"
    with out.open("wb") as fh:  # a file: the request in the socket's queue holds copies of the stdio
        code = subprocess.call([sys.executable, "-I", "-S", str(LAUNCHER), str(tmp_path / "sock"), sys.executable,
                                "1", "-u", "-c", "print('fresh')"], stdout=fh, timeout=60)
    assert code == 0 and out.read_bytes() == b"fresh\n" and time.monotonic() - start < 30
    conn, _ = stalled.accept()  # the server gets to the request at last: the launcher no longer confirms
    with conn:
        conn.settimeout(10)
        data, fds, _, _ = socket.recv_fds(conn, 1 << 16, 3)
        for fd in fds:
            os.close(fd)
        assert data  # the request was sent
        with contextlib.suppress(BrokenPipeError):
            conn.sendall(b"pid 12345\n")
        assert conn.recv(3) == b""
    stalled.close()


def test_a_worker_whose_launcher_does_not_confirm_never_runs(server: ForkServer, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    body = json.dumps({"argv": ["-u", "-c", f"open({str(marker)!r}, 'w')"], "cwd": "/", "env": {},
                       "umask": 0o22}).encode()
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.connect(str(server.socket_path))
        socket.send_fds(sock, [len(body).to_bytes(8, "big") + body], [0, 1, 2])
        sock.settimeout(20)
        answer = sock.recv(64)
        assert answer.startswith(b"pid ")
    child = int(answer[4:])  # closed without "ok": the launcher gave up
    deadline = time.monotonic() + 10
    while _alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(child) and not marker.exists()
    assert launch(server, "print('still serving')").stdout == b"still serving\n"


def test_a_request_that_stops_half_way_keeps_nothing_of_its_caller_open(server: ForkServer) -> None:
    read_end, write_end = os.pipe()
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.connect(str(server.socket_path))
        socket.send_fds(sock, [(1000).to_bytes(8, "big") + b'{"argv": '], [write_end, write_end, write_end])
        os.close(write_end)
        sock.settimeout(30)
        assert sock.recv(64) == b""  # refused once the rest does not come
    os.set_blocking(read_end, False)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            assert os.read(read_end, 1) == b""  # every copy of the write end is closed, the server's too
            break
        except BlockingIOError:
            time.sleep(0.05)
    else:
        raise AssertionError("the server still holds the caller's pipe")
    os.close(read_end)
    assert launch(server, "print('still serving')").stdout == b"still serving\n"


@pytest.mark.parametrize("ignored", [True, False], ids=["ignored", "default"])
def test_a_worker_gets_the_signal_dispositions_its_interpreter_would_have(server: ForkServer, ignored: bool) -> None:
    # A run started in the background of a script ignores SIGINT; a worker started fresh would too. Both
    # dispositions are set in each child, whatever this process has (a test run started in the background of a
    # non-interactive shell ignores SIGINT itself).
    code = "import signal; print([signal.getsignal(s) == signal.SIG_IGN for s in (signal.SIGINT, signal.SIGTERM)])"

    def dispositions() -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN if ignored else signal.SIG_DFL)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)

    done = subprocess.run([*interpreter(server), "-u", "-c", code], capture_output=True, timeout=60, check=False,
                          preexec_fn=dispositions)
    fresh = subprocess.run([sys.executable, "-u", "-c", code], capture_output=True, timeout=60, check=False,
                           preexec_fn=dispositions)
    assert done.stdout == fresh.stdout == (b"[True, False]\n" if ignored else b"[False, False]\n")
