"""A granian worker ends when the process that started it ends, however that ended.

Terms:
    main process   granian's main process (`manage.py serve`, `fivetricks`, or granian run
                   by hand): it binds the port and starts the workers with
                   multiprocessing's spawn, then watches them. Killed (SIGKILL, a crash,
                   a closed terminal on some systems), it cannot stop them.
    orphan         a worker whose main process is gone. Left alone it would go on serving
                   the port (granian shares it with SO_REUSEPORT), and a server started
                   again would silently share the room's phones with it.
    parent's end   multiprocessing gives each spawned child a sentinel of its parent (a
                   pipe that reaches its end on Linux and macOS, a process handle on
                   Windows) that becomes ready when the parent exits, on every platform:
                   no polling of os.getppid(), which on Windows never changes.
    grace          an orphan is asked to stop as Ctrl+C would ask it (it stops listening
                   and finishes the requests it is serving): SIGTERM to its main thread,
                   which granian's handler waits in. If it has not ended
                   ORPHAN_GRACE_SECONDS later, it ends at once. Windows cannot signal one
                   thread, so there it ends at once.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time

ORPHAN_GRACE_SECONDS = 5.0


def _stop_orphan(grace: float) -> None:
    """Ask this worker to stop gracefully, then end it if it has not (see Terms: grace)."""
    if hasattr(signal, "pthread_kill"):
        # To the main thread: a signal to the process could land in any thread, and only
        # the main thread's wait is cut short by it to run granian's handler.
        main = threading.main_thread().ident
        assert main is not None  # the main thread started this one, so it runs and has one
        signal.pthread_kill(main, signal.SIGTERM)
        time.sleep(grace)  # a daemon thread: if the worker ends first, this ends with it
    os._exit(1)


def _watch(parent: multiprocessing.process.BaseProcess, grace: float) -> None:
    parent.join()  # returns when the parent's sentinel is ready (see Terms)
    _stop_orphan(grace)


def exit_with_parent(*, grace: float = ORPHAN_GRACE_SECONDS) -> threading.Thread | None:
    """In a process started by multiprocessing (a granian worker), stop it once its parent
    ends (see Terms: orphan); returns the watching thread, or None in any other process
    (a test, another WSGI server), where there is no such parent to watch."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return None
    watcher = threading.Thread(
        target=_watch, args=(parent, grace), name="fivetricks-parent-watch", daemon=True
    )
    watcher.start()
    return watcher
