"""One queue for the writers of one SQLite database, across the server's threads and
processes.

Terms:
    writer       a transaction (``transaction.atomic``): with IMMEDIATE transactions each
                 one takes SQLite's write lock at BEGIN and holds it until COMMIT or
                 ROLLBACK (settings._SQLITE_OPTIONS).
    busy wait    what SQLite does when its write lock is taken: the waiting connection
                 sleeps 1, 2, 5, 10 ... then 100 ms at a time and tries again. Under a
                 stream of reports, a waiter kept missing the moments the lock was free:
                 16 phones reporting at once saw a report's p99 at 1.2 to 2.4 s, while
                 one report holds the lock for about 4 ms (docs/PERFORMANCE.md, issue 23).
    queue        a lock per process (threading.Lock: a waiting thread sleeps in the
                 kernel, releases the GIL, and wakes as soon as the holder lets go), then
                 an advisory file lock (flock) on ``<database>-writers`` beside the
                 database, shared by every process that opens it (granian's workers, a
                 management command). A writer takes both before BEGIN and lets go after
                 COMMIT or ROLLBACK, so SQLite's lock is free whenever one of ours asks.
                 Across processes only one thread per process waits for the file lock,
                 trying again every FILE_LOCK_NAPS (at most 1 ms): the thread that just
                 wrote goes on to render its answer before another of its process can
                 ask, which leaves that gap to the other processes.

What does not go through the queue still works as before, by SQLite's own busy wait: a
statement outside any transaction (autocommit), or a program that is not this app. On a
system without flock (Windows, where granian runs one worker), or when the lock file
cannot be made (a read-only folder), the per-process lock is the whole queue and SQLite's
busy wait serializes processes, as before. An in-memory database has a single connection
and no queue.

Waiting is bounded: past the database's ``timeout`` option, the writer fails with
OperationalError("database is locked"), the error SQLite would have raised. (A write from
outside the queue holding SQLite's lock can add SQLite's own busy wait to that.)
"""

from __future__ import annotations

import os
import sys
import threading
import time
from dataclasses import dataclass

from django.db import OperationalError

# By platform rather than by ImportError, which the type checker reads as a module that
# may be None everywhere.
if sys.platform != "win32":
    import fcntl
else:  # Windows: no flock
    fcntl = None

# How long a process sleeps between two tries of another process's file lock: one
# report holds it for a few milliseconds, so the wait it adds stays below one.
FILE_LOCK_NAPS = (0.0002, 0.0005, 0.001)


@dataclass
class WriterQueue:
    """The queue of one database file in this process."""

    path: str
    threads: threading.Lock
    file: int | None  # the lock file's descriptor, None without flock

    def enter(self, timeout: float) -> None:
        """Wait for this writer's turn (at most ``timeout`` seconds)."""
        deadline = time.monotonic() + timeout
        if not self.threads.acquire(timeout=timeout):
            raise OperationalError("database is locked")
        try:
            if self.file is not None:
                self._lock_file(self.file, deadline)
        except BaseException:
            self.threads.release()
            raise

    def leave(self) -> None:
        try:
            if self.file is not None:
                fcntl.flock(self.file, fcntl.LOCK_UN)
        finally:
            self.threads.release()

    def _lock_file(self, file: int, deadline: float) -> None:
        # Only the thread holding ``threads`` gets here: at most one per process polls.
        naps = iter(FILE_LOCK_NAPS)
        while True:
            try:
                fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise OperationalError("database is locked") from None
                time.sleep(next(naps, FILE_LOCK_NAPS[-1]))


_QUEUES: dict[tuple[int, str], WriterQueue] = {}
_QUEUES_LOCK = threading.Lock()


def queue_for(database: str) -> WriterQueue:
    """The queue of the database at that path, made at its first writer in this process."""
    # By process too: a process started by fork after its parent wrote would otherwise
    # share the parent's open lock file, and a flock held through one is held by both.
    key = (os.getpid(), database)
    with _QUEUES_LOCK:
        if (queue := _QUEUES.get(key)) is None:
            queue = WriterQueue(database, threading.Lock(), _open_lock_file(database))
            _QUEUES[key] = queue
        return queue


def _open_lock_file(database: str) -> int | None:
    if fcntl is None:
        return None
    # Opened once per process and kept: a flock belongs to the open file, and the
    # kernel drops it if the process dies holding it.
    try:
        return os.open(f"{database}-writers", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    except OSError:
        return None  # SQLite says what is wrong with the folder, if anything, when it writes
