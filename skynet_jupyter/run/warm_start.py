"""Worker processes that start warm: a fork server per parent process (issue 37).

A fresh interpreter per ``isolation="process"`` worker imports skynet_jupyter,
then litellm (seconds); with four slots on two cores a short run was 33x
thread mode.  So one long-lived helper, the *starter*, imports all that once,
and each worker is a ``fork`` of it:

- **A clean starter.**  It is a fresh ``python -c`` (never a fork of the kernel,
  which runs threads), single-threaded, started on first need and again if it
  died.  It warms up litellm (``llm.warm_up``) the first time a run's models
  ask for it; thread pools the warm-up made lose their threads before any fork
  (they start new ones on next use), and it refuses to fork while another
  thread runs (the parent then starts a fresh interpreter, as before).
- **Started ahead** (issue 45): when litellm is imported ahead in the kernel (a
  litellm model configured, ``models.import_ahead``), :func:`start_ahead` starts
  the starter too, and asks it to warm up at once: the kernel's first
  process-isolated run then forks warm workers, instead of waiting seconds for
  a starter to import litellm.  Nothing waits for it; it is an ordinary
  starter from then on (it ends with the kernel).
- **What a request carries.**  The parent makes the worker's stdin and stdout
  pipes and passes their ends over an ``AF_UNIX`` socket pair
  (``send_fds``), with the worker's arguments and the parent's directory; the
  starter forks and answers with the pid.  The child leads its own process
  group, puts the pipes on fds 0 and 1, closes the starter's, restores the
  signal handlers a fresh interpreter has, and returns from :func:`serve`
  to run the worker's main (and, at its end, the interpreter's exit).
- **Exit codes.**  The starter reaps its children (``SIGCHLD`` wakes it) and
  tells the parent each code; :class:`WarmWorker` is the parent's ``Popen``.
- **A quick end.**  A worker ends without the interpreter's teardown
  (:func:`run_worker`): with litellm's thousands of modules, the teardown took a
  second of CPU per worker, and the pool waited for it at the end of every run
  (then killed the worker).  Its ``atexit`` functions still run (a run cache's
  replies waiting for the file are written).
- **Nothing left running.**  The starter ends when the kernel does: its end of
  the socket pair reads EOF (or its parent changes), and it kills its workers'
  groups.  A worker's lifeline is the starter, its real parent: a worker ends
  when the starter ends (``lifeline``).
- **The same interpreter.**  A starter serves one environment, ``sys.path``
  and ``sys.executable``: when the parent's change, a new starter takes over
  (the old one ends once its workers have), so a worker imports what a fresh
  one would.  Credentials are left out of that comparison (an API key set after
  the model, as a notebook often does, changes no import): a worker gets the
  parent's whole environment as it is at its fork anyway.
- **A fork of the parent** (a ``ProcessPoolExecutor``) has no starter of its
  own: its first need starts one.

Where ``fork`` or ``send_fds`` does not exist (Windows), nothing here is used.
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import hashlib
import os
import pickle
import select
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import IO, Any, NoReturn, Protocol

__all__ = [
    "AVAILABLE",
    "WarmWorker",
    "WorkerProcess",
    "plain",
    "run_worker",
    "serve",
    "start_ahead",
    "start_worker",
    "starter_command",
]

AVAILABLE = os.name == "posix" and hasattr(os, "fork") and hasattr(socket, "send_fds")
_HEADER = struct.Struct("!Q")
READY_WAIT = 120.0  # how long a new starter may take to import the worker's modules
THREADS_WAIT = 10.0  # how long the starter waits for a stray thread to end before a fork
_POLL_S = 0.5  # how often the starter looks at its parent: the bound on an orphan's life
_TICK = 0.1  # how often a waiting parent wakes (Ctrl-C)
_GONE = -1  # the exit code of a worker whose starter died first: unknown


class WorkerProcess(Protocol):
    """What the pool needs of a worker process: a ``Popen`` or a :class:`WarmWorker`."""

    @property
    def pid(self) -> int: ...

    @property
    def stdin(self) -> IO[bytes] | None: ...

    @property
    def stdout(self) -> IO[bytes] | None: ...

    def wait(self, timeout: float | None = None) -> int: ...

    def kill(self) -> None: ...


# --- framing over the socket pair ------------------------------------------------------


def _frame(value: Any) -> bytes:
    data = pickle.dumps(value, pickle.HIGHEST_PROTOCOL)
    return _HEADER.pack(len(data)) + data


def _receive(sock: socket.socket, fds: list[int]) -> Any:
    """One message (None at EOF); descriptors sent with it are appended to ``fds``."""
    header = b""
    while len(header) < _HEADER.size:
        data, got, _, _ = socket.recv_fds(sock, _HEADER.size - len(header), 4)
        fds.extend(got)
        if not data:
            return None
        header += data
    size = _HEADER.unpack(header)[0]
    body = bytearray()
    while len(body) < size:
        chunk = sock.recv(size - len(body))
        if not chunk:
            return None
        body += chunk
    return pickle.loads(bytes(body))


# --- the starter process -----------------------------------------------------------------


def serve() -> bool:
    """The starter's loop: ``python -c "...; serve() and worker_main()" FD PARENT``.

    Returns False in the starter when its parent has gone, True in each forked
    child, which then runs the worker's main.
    """
    sock = socket.socket(fileno=int(sys.argv[1]))
    parent = int(sys.argv[2])
    starter = _Starter(sock, parent)
    return starter.run()


class _Starter:
    """In the starter process: its requests, its children, its wake-up pipe."""

    def __init__(self, sock: socket.socket, parent: int) -> None:
        self.sock = sock
        self.parent = parent
        self.children: set[int] = set()
        self.retiring = False
        self.wake_read, self.wake_write = os.pipe()
        os.set_blocking(self.wake_read, False)
        os.set_blocking(self.wake_write, False)
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C in a terminal is the parent's
        signal.signal(signal.SIGCHLD, _wake)
        signal.set_wakeup_fd(self.wake_write)

    def run(self) -> bool:
        self._tell(("ready", os.getpid()))
        while self._alive():
            readable, _, _ = select.select([self.sock.fileno(), self.wake_read], [], [], _POLL_S)
            if self.wake_read in readable:
                with contextlib.suppress(OSError):
                    os.read(self.wake_read, 4096)
            self._reap()
            if self.sock.fileno() in readable and self._handle():
                return True  # in a forked child
        for pid in self.children:  # the parent is gone: so are its workers
            with contextlib.suppress(OSError):
                os.killpg(pid, signal.SIGKILL)
        return False

    def _alive(self) -> bool:
        if os.getppid() != self.parent:
            self.parent = 0
        return self.parent != 0 and not (self.retiring and not self.children)

    def _tell(self, message: Any) -> None:
        try:
            self.sock.sendall(_frame(message))
        except OSError:  # the parent is gone
            self.parent = 0

    def _reap(self) -> None:
        while self.children:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                self.children.clear()
                return
            if pid == 0:
                return
            self.children.discard(pid)
            self._tell(("exited", pid, os.waitstatus_to_exitcode(status)))

    def _handle(self) -> bool:
        """One request; True in the child it forked."""
        fds: list[int] = []
        request = _receive(self.sock, fds)
        if request is None:  # the parent closed its end: it ended
            self.parent = 0
        elif request[0] == "retire":
            self.retiring = True
        elif request[0] == "warm":  # started ahead: import litellm now, before any run
            _warm_up(request[1])
            _empty_thread_pools()  # now, while no run waits for a fork
        elif request[0] == "start":
            return self._start(request[1:], fds)
        for fd in fds:
            os.close(fd)
        return False

    def _start(self, request: Sequence[Any], fds: list[int]) -> bool:
        number, argv, cwd, environ, path, models = request
        sys.path[:0] = [entry for entry in path if entry not in sys.path]
        _warm_up(models)
        busy = _stray_threads()
        if busy:
            self._tell(("refused", number, f"threads running: {', '.join(busy)}"))
            for fd in fds:
                os.close(fd)
            return False
        for stream in (sys.stdout, sys.stderr):  # nothing buffered is written twice
            with contextlib.suppress(Exception):
                stream.flush()
        pid = os.fork()
        if pid == 0:
            self._become_worker(fds, argv, cwd)
            _take_environment(environ)
            return True
        for fd in fds:
            os.close(fd)
        self.children.add(pid)
        self._tell(("forked", number, pid))
        return False

    def _become_worker(self, fds: list[int], argv: list[str], cwd: str) -> None:
        """In the child: a worker as ``python -c`` would start it, in its own group."""
        os.setpgid(0, 0)  # killing the worker kills what its cases started
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        self.sock.close()
        for fd in (self.wake_read, self.wake_write):
            os.close(fd)
        commands, replies = fds
        os.dup2(commands, 0)
        os.dup2(replies, 1)
        for fd in fds:
            if fd > 2:
                os.close(fd)
        os.chdir(cwd)
        sys.argv = ["-c", *argv, str(os.getppid())]  # its lifeline: the starter


def _warm_up(models: Sequence[Any]) -> None:
    """litellm imported and warmed up in the starter, when ``models`` need it."""
    try:
        from ..models.llm import warm_up

        warm_up(*models)
    except BaseException:  # the worker warms up itself, and says what went wrong
        pass


def _take_environment(environ: dict[str, str]) -> None:
    """The parent's environment as it is now (it may differ from the starter's in what
    the key leaves out)."""
    for name in [name for name in os.environ if name not in environ]:
        del os.environ[name]
    for name, value in environ.items():
        if os.environ.get(name) != value:
            os.environ[name] = value


def _wake(signum: int, frame: Any) -> None:
    """SIGCHLD: the wake-up fd gets a byte, and the loop reaps."""


def _stray_threads() -> list[str]:
    """The threads other than this one, once thread pools have let theirs go (a few
    seconds' grace): a fork copies only the calling thread."""
    if threading.active_count() == 1:
        return []
    _empty_thread_pools()
    deadline = time.monotonic() + THREADS_WAIT
    while threading.active_count() > 1 and time.monotonic() < deadline:
        time.sleep(0.05)
    return [t.name for t in threading.enumerate() if t is not threading.current_thread()]


def _thread_pools() -> list[Any]:
    """The thread pools whose threads run now, found from their threads (each holds a
    reference to its pool); a look through every object of the heap (a second and more,
    with litellm loaded) only where a thread does not say."""
    from concurrent.futures import ThreadPoolExecutor, thread

    pools: list[Any] = []
    for running in threading.enumerate():
        if getattr(running, "_target", None) is thread._worker:
            pool = running._args[0]()  # type: ignore[attr-defined]  # its weakref to the pool
            if pool is not None and pool not in pools:
                pools.append(pool)
        elif running is not threading.current_thread():
            return [p for p in gc.get_objects() if isinstance(p, ThreadPoolExecutor)]
    return pools


def _empty_thread_pools() -> None:
    """Stop the idle threads of every thread pool (litellm's logging pool, made by its
    first call); the pool starts new ones when next used, in the worker."""
    for pool in _thread_pools():
        threads = list(pool._threads)
        if not threads or pool._shutdown:
            continue
        with pool._shutdown_lock:
            pool._shutdown = True  # so a thread that reads None ends (and passes it on)
            pool._work_queue.put(None)
        for thread in threads:
            thread.join(THREADS_WAIT)
        with contextlib.suppress(Exception):
            while True:
                pool._work_queue.get_nowait()
        pool._threads = set()
        pool._idle_semaphore = threading.Semaphore(0)
        pool._shutdown = False


# --- the parent side -----------------------------------------------------------------------


class WarmWorker:
    """A worker forked by the starter, as the pool sees it (the part of ``Popen`` it uses)."""

    def __init__(self, pid: int, stdin: IO[bytes], stdout: IO[bytes], starter: _Handle) -> None:
        self.pid = pid
        self.stdin: IO[bytes] | None = stdin
        self.stdout: IO[bytes] | None = stdout
        self.returncode: int | None = None
        self._starter = starter

    def poll(self) -> int | None:
        if self.returncode is None:
            self.returncode = self._starter.exit_code(self.pid)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            left = _TICK if deadline is None else min(_TICK, deadline - time.monotonic())
            if left <= 0:
                raise subprocess.TimeoutExpired(f"warm worker {self.pid}", timeout or 0.0)
            self._starter.wait_for_news(left)
        assert self.returncode is not None
        return self.returncode

    def kill(self) -> None:
        if self.poll() is None:  # once reaped, its pid may be another process's
            with contextlib.suppress(OSError):
                os.kill(self.pid, signal.SIGKILL)


class _Handle:
    """The parent's side of one starter: its socket, and what it said.  No thread reads
    it: whoever waits for an answer reads (one at a time), for everyone."""

    def __init__(self, command: list[str], key: bytes) -> None:
        self.key = key
        ours, theirs = socket.socketpair()
        self.sock = ours
        self.reading = threading.Lock()
        self.unread = bytearray()
        self.said: dict[int, tuple[str, Any]] = {}  # request number -> ("forked", pid) ...
        self.exits: dict[int, int] = {}  # worker pid -> exit code
        self.ready = False
        self.alive = True
        self.requests = 0
        self.sending = threading.Lock()
        with theirs:
            self.process = subprocess.Popen(
                [*command, str(theirs.fileno()), str(os.getpid())],
                stdin=subprocess.DEVNULL,
                pass_fds=(theirs.fileno(),),
            )

    def wait_for_news(self, timeout: float) -> None:
        """Read what the starter says within ``timeout``."""
        if not self.reading.acquire(timeout=timeout):
            return
        try:
            if not self.alive:
                time.sleep(timeout)
                return
            readable, _, _ = select.select([self.sock], [], [], timeout)
            if readable:
                self._read()
        finally:
            self.reading.release()

    def _read(self) -> None:
        try:
            chunk = self.sock.recv(1 << 16)
        except OSError:
            chunk = b""
        if not chunk:  # the starter ended
            self._ended()
            return
        unread = self.unread
        unread += chunk
        while len(unread) >= _HEADER.size:
            end = _HEADER.size + _HEADER.unpack_from(unread)[0]
            if len(unread) < end:
                break
            self._note(pickle.loads(bytes(unread[_HEADER.size : end])))
            del unread[:end]

    def _ended(self) -> None:
        self.alive = False
        self.sock.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(1)  # no zombie starter
        self.process.kill()
        self.process.wait()

    def _note(self, message: tuple[Any, ...]) -> None:
        if message[0] == "ready":
            self.ready = True
        elif message[0] == "exited":
            self.exits[message[1]] = message[2]
        else:  # ("forked", number, pid) or ("refused", number, why)
            self.said[message[1]] = (message[0], message[2])

    def exit_code(self, pid: int) -> int | None:
        code = self.exits.pop(pid, None)
        if code is not None or self.alive:
            return code
        try:  # the starter died: the worker, its child, ended with it
            os.kill(pid, 0)
        except ProcessLookupError:
            return _GONE
        except OSError:
            pass
        return None

    def wait_ready(self) -> bool:
        deadline = time.monotonic() + READY_WAIT
        while not self.ready and self.alive and time.monotonic() < deadline:
            self.wait_for_news(_TICK)
        return self.ready and self.alive

    def start(self, argv: list[str], path: list[str], models: list[Any]) -> WarmWorker | None:
        """A worker forked with ``argv``, or None (the starter refused or died)."""
        commands_read, commands_write = os.pipe()
        replies_read, replies_write = os.pipe()
        theirs, ours = [commands_read, replies_write], [commands_write, replies_read]
        try:
            with self.sending:
                self.requests += 1
                number = self.requests
                request = ("start", number, argv, os.getcwd(), dict(os.environ), path, models)
                socket.send_fds(self.sock, [_frame(request)], theirs)
            _close_all(theirs)  # the worker's ends are the starter's now
            said = self._answer(number)
            if said is None or said[0] != "forked":
                return None
            stdin = os.fdopen(commands_write, "wb")
            stdout = os.fdopen(replies_read, "rb", buffering=0)
            ours = []
            return WarmWorker(said[1], stdin, stdout, self)
        except OSError:  # the starter ended (EPIPE): read its EOF, so the next call knows
            self.wait_for_news(0.0)
            return None
        finally:  # Ctrl-C while waiting too: the worker, if forked, reads EOF and ends
            _close_all(theirs)
            _close_all(ours)

    def _answer(self, number: int) -> tuple[str, Any] | None:
        while number not in self.said and self.alive:
            self.wait_for_news(_TICK)
        return self.said.pop(number, None)

    def warm(self, models: list[Any]) -> None:
        """Ask the starter to warm up for ``models`` now (read once it is ready)."""
        with contextlib.suppress(OSError), self.sending:
            self.sock.sendall(_frame(("warm", models)))

    def retire(self) -> None:
        """No more workers from this starter: it ends once those it started have."""
        with contextlib.suppress(OSError), self.sending:
            self.sock.sendall(_frame(("retire",)))

    def close(self) -> None:
        """At the parent's exit: the starter reads EOF and ends (its workers with it)."""
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(2)
        self.process.kill()
        self.process.wait()
        self.sock.close()
        self.alive = False


def _close_all(fds: list[int]) -> None:
    """Close ``fds`` and empty the list, so that none is closed twice (its number may be
    another file's by then)."""
    while fds:
        with contextlib.suppress(OSError):
            os.close(fds.pop())


class _Starters:
    """This process's starter, made on first need, replaced when it died or no longer
    matches the interpreter a fresh worker would get."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.current: _Handle | None = None
        self.retired: list[_Handle] = []  # ending once their workers have: read till then
        self.owner = os.getpid()

    def get(self, command: list[str]) -> _Handle | None:
        current = self._matching(command)
        if current is None:
            return None
        if current.wait_ready():
            return current
        current.process.kill()
        return None

    def begin(self, command: list[str], models: list[Any]) -> None:
        """A starter for ``command``, started now if there is none, asked to warm up for
        ``models``; nothing waits for it."""
        current = self._matching(command)
        if current is not None and models:
            current.warm(models)

    def _matching(self, command: list[str]) -> _Handle | None:
        """The starter for ``command``: the current one, or a new one (not yet ready)."""
        key = _interpreter_key(command)
        with self.lock:
            if self.owner != os.getpid():  # a fork of this process: those starters are not ours
                self.current, self.retired, self.owner = None, [], os.getpid()
            for old in [*self.retired, *([self.current] if self.current else [])]:
                old.wait_for_news(0.0)  # an end (EOF) it has not seen yet
            self.retired = [old for old in self.retired if old.alive]
            current = self.current
            if current is not None and current.alive and current.key == key:
                return current
            if current is not None:
                current.retire()
                self.retired.append(current)
            try:
                self.current = current = _Handle(command, key)
            except OSError:
                self.current = None
                return None
        return current

    def close(self) -> None:
        if self.owner != os.getpid():
            return
        for handle in [*self.retired, *([self.current] if self.current else [])]:
            handle.close()
        self.current, self.retired = None, []


_VOLATILE = ("PYTEST_CURRENT_TEST",)  # changed at each test: a worker gets it, not the key


def _interpreter_key(command: list[str]) -> bytes:
    """What a fresh worker's imports depend on: the environment, the path, the command.

    Not the credentials: a key set after the starter began (a notebook's next cell)
    changes no import, and a worker gets it at its fork (``_take_environment``).
    """
    from ..core.secrets import secret_name

    environ = sorted(
        item for item in os.environ.items() if item[0] not in _VOLATILE and not secret_name(item[0])
    )
    seen = (environ, sys.path, command)
    return hashlib.blake2b(repr(seen).encode(), digest_size=16).digest()


_STARTERS = _Starters()  # one per process, by nature: it is this process's helper


def starter_command() -> list[str]:
    """The command that starts a starter: this very copy of skynet_jupyter (a source
    checkout too) on its path, without putting site-packages ahead of the standard
    library; it imports what a worker needs, then serves."""
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    on_path = f"import sys; sys.path.insert(0, {here!r}) if {here!r} not in sys.path else None"
    return [
        sys.executable,
        "-c",
        f"{on_path}\nfrom skynet_jupyter.run import isolation, warm_start\n"
        "isolation._warm_imports()\nif warm_start.serve():\n"
        "    warm_start.run_worker(isolation._child_main)",
    ]


def run_worker(main: Callable[[], object]) -> NoReturn:
    """A forked worker's life: ``main``, its ``atexit`` functions, its output flushed,
    then its end, without the teardown of the heap the starter built (the system takes
    it back whole)."""
    code = 0
    try:
        main()
    except SystemExit as leaving:
        code = leaving.code if isinstance(leaving.code, int) else int(leaving.code is not None)
    except BaseException:
        import traceback

        traceback.print_exc()
        code = 1
    with contextlib.suppress(BaseException):
        atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(BaseException):
            stream.flush()
    os._exit(code)


def start_ahead(models: Sequence[Any]) -> bool:
    """Start this process's starter now and have it warm up for ``models`` (the import
    ahead calls it): a first process-isolated run then forks warm workers.  Whether one
    was asked for (never where warm workers are not used)."""
    if not AVAILABLE:
        return False
    _STARTERS.begin(starter_command(), plain(models))
    return True


def start_worker(command: list[str], argv: list[str], models: Sequence[Any]) -> WarmWorker | None:
    """A worker forked from this process's starter (started by ``command`` on first
    need), or None when it cannot be: the caller starts a fresh interpreter instead."""
    if not AVAILABLE:
        return None
    for _ in range(2):  # a starter that died since the last look: once more, a new one
        starter = _STARTERS.get(command)
        if starter is None:
            return None
        worker = starter.start(argv, list(sys.path), plain(models))
        if worker is not None or starter.alive:
            return worker
    return None


def plain(models: Sequence[Any]) -> list[Any]:
    """The litellm models the starter can be sent (pickled) for its warm-up."""
    from ..models.litellm_import import litellm_models

    plain = litellm_models(models)
    try:
        pickle.dumps(plain)
    except Exception:
        return []
    return plain


def close() -> None:
    """End this process's starter (at exit; it would end anyway, reading EOF)."""
    _STARTERS.close()


def _forget_in_child() -> None:
    """A fork of this process (a ``ProcessPoolExecutor``'s worker): its parent's starters
    are not its own, and their lock may have been held by a thread it does not have."""
    global _STARTERS
    _STARTERS = _Starters()


if AVAILABLE:
    atexit.register(close)
    os.register_at_fork(after_in_child=_forget_in_child)
