"""A server process ends when the process that started it ends, however that ended.

Terms:
    parent         the process whose end must end this one. For a granian worker, granian's
                   main process (`manage.py serve`, `fivetricks`, or granian run by hand): it
                   binds the port and starts the workers with multiprocessing's spawn, then
                   watches them. For the server the app's window runs as a child
                   (tournament/window/server.py), the window's process. Killed (SIGKILL, a
                   crash, a closed terminal on some systems), a parent cannot stop them.
    orphan         a process whose parent is gone. Left alone a worker would go on serving
                   the port (granian shares it with SO_REUSEPORT), and a server started
                   again would silently share the room's phones with it; a window's child
                   would go on serving a room nobody can stop from the window.
    parent's end   what becomes ready when the parent exits, on every platform, with no
                   polling of os.getppid() (which on Windows never changes): for a worker,
                   the sentinel multiprocessing gives each spawned child (a pipe that
                   reaches its end on Linux and macOS, a process handle on Windows); for
                   the window's child, its standard input, a pipe whose other end only the
                   window holds (PARENT_PIPE_VARIABLE says so): the operating system
                   closes it when the window's process ends, however it ends.
    grace          an orphan is asked to stop as Ctrl+C would ask it (it stops listening
                   and finishes the requests it is serving): SIGTERM to its main thread,
                   which granian's handler waits in. If it has not ended ``grace`` seconds
                   later (ORPHAN_GRACE_SECONDS for a worker, SERVER_GRACE_SECONDS for the
                   window's child, whose workers then stop in theirs), it ends at once.
                   Windows cannot signal one thread, so there it ends at once.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Mapping

ORPHAN_GRACE_SECONDS = 5.0
# A closing round's backup may take a while (the window waits as long: window/server.py).
SERVER_GRACE_SECONDS = 60.0
# Set by the window for its child: the child's standard input is the window's pipe.
PARENT_PIPE_VARIABLE = "FIVETRICKS_PARENT_PIPE"


def _stop_orphan(grace: float) -> None:
    """Ask this process to stop gracefully, then end it if it has not (see Terms: grace)."""
    if hasattr(signal, "pthread_kill"):
        # To the main thread: a signal to the process could land in any thread, and only
        # the main thread's wait is cut short by it to run granian's handler.
        main = threading.main_thread().ident
        assert main is not None  # the main thread started this one, so it runs and has one
        signal.pthread_kill(main, signal.SIGTERM)
        time.sleep(grace)  # a daemon thread: if the process ends first, this ends with it
    os._exit(1)


def _read_to_end(descriptor: int) -> None:
    """Return once the pipe's other end is closed: nobody writes to it, so every read
    waits until the end (see Terms: parent's end). os.read, not sys.stdin's reader: a
    thread waiting in that reader holds its lock, which the interpreter's exit then fails
    to take (a fatal error instead of the exit status the window reads)."""
    while os.read(descriptor, 4096):
        pass


def parent_end(environ: Mapping[str, str] | None = None) -> Callable[[], None] | None:
    """A call that returns once this process's parent has ended (see Terms: parent's end);
    None in a process no parent watches (a test, a server started by hand, another WSGI
    server)."""
    environ = os.environ if environ is None else environ
    parent = multiprocessing.parent_process()
    if parent is not None:
        return parent.join  # returns when the parent's sentinel is ready
    if environ.get(PARENT_PIPE_VARIABLE) == "stdin" and sys.stdin is not None:
        descriptor = sys.stdin.fileno()
        return lambda: _read_to_end(descriptor)
    return None


def _watch(ended: Callable[[], None], grace: float) -> None:
    ended()
    _stop_orphan(grace)


def exit_with_parent(
    *, grace: float = ORPHAN_GRACE_SECONDS, environ: Mapping[str, str] | None = None
) -> threading.Thread | None:
    """Stop this process once its parent ends (see Terms: orphan); returns the watching
    thread, or None where no parent is watched (parent_end)."""
    ended = parent_end(environ)
    if ended is None:
        return None
    watcher = threading.Thread(
        target=_watch, args=(ended, grace), name="fivetricks-parent-watch", daemon=True
    )
    watcher.start()
    return watcher
