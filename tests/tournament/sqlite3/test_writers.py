"""The writer queue: SQLite's writers take turns in the kernel, not by SQLite's busy wait
(tournament.sqlite3.writers), across threads and across processes, and a wait is
bounded as SQLite's is."""

from __future__ import annotations

import subprocess
import sys
import threading
import time

import pytest
from django.db import OperationalError

from tournament.sqlite3.writers import queue_for

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="flock: one worker there")

HOLD_THE_FILE_LOCK = """
import fcntl, os, sys
fd = os.open(sys.argv[1] + "-writers", os.O_RDWR | os.O_CREAT, 0o600)
fcntl.flock(fd, fcntl.LOCK_EX)
print("held", flush=True)
sys.stdin.read()  # until the test closes our stdin
"""


def test_a_second_thread_waits_for_the_first_writer_and_goes_as_soon_as_it_leaves(tmp_path):
    queue = queue_for(str(tmp_path / "db.sqlite3"))
    queue.enter(timeout=5)
    entered = threading.Event()

    def second_writer() -> None:
        queue.enter(timeout=5)
        entered.set()
        queue.leave()

    thread = threading.Thread(target=second_writer)
    thread.start()
    assert not entered.wait(0.2), "the second writer went in while the first was writing"
    queue.leave()
    assert entered.wait(5)
    thread.join()


def test_a_writer_that_waits_past_the_timeout_fails_as_sqlite_would(tmp_path):
    queue = queue_for(str(tmp_path / "db.sqlite3"))
    queue.enter(timeout=5)
    failed: list[Exception] = []
    thread = threading.Thread(target=lambda: _enter_or_note(queue, failed, timeout=0.1))
    thread.start()
    thread.join()
    queue.leave()
    assert [str(error) for error in failed] == ["database is locked"]
    queue.enter(timeout=0.1)  # the failed wait left nothing held
    queue.leave()


def _enter_or_note(queue, failed: list, *, timeout: float) -> None:
    try:
        queue.enter(timeout=timeout)
    except OperationalError as error:
        failed.append(error)
    else:
        queue.leave()


def test_another_process_holding_the_queue_makes_this_one_wait(tmp_path):
    database = str(tmp_path / "db.sqlite3")
    queue = queue_for(database)
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_THE_FILE_LOCK, database],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline() == "held\n"
        with pytest.raises(OperationalError, match="database is locked"):
            queue.enter(timeout=0.2)
        holder.stdin.close()  # the holder exits; the kernel drops its lock
        holder.wait(timeout=10)
        started = time.monotonic()
        queue.enter(timeout=5)
        assert time.monotonic() - started < 1
        queue.leave()
    finally:
        holder.kill()
        holder.wait(timeout=10)


def test_each_database_file_has_its_own_queue(tmp_path):
    first = queue_for(str(tmp_path / "one.sqlite3"))
    second = queue_for(str(tmp_path / "two.sqlite3"))
    assert queue_for(str(tmp_path / "one.sqlite3")) is first
    first.enter(timeout=1)
    second.enter(timeout=0.1)  # not held up by the other file's writer
    second.leave()
    first.leave()
