"""Waking the live channels when a write commits, in this process and in every other.

Terms:
    sleeper   a callable registered by a live channel (tournament.serving.live_channel: its
              watchers), called from any thread to make it read the versions at once.
    wake      what a write that changes what screens show does (``wake_after_commit``):
              once its transaction commits, the screens hear of it now instead of at
              their watcher's safety tick. Every version bump calls it (the event's and a
              table's: tournament.models.event, tables.models).
    notice    how another process hears of it. On PostgreSQL a trigger on the versions
              (tournament migration 0026) sends NOTIFY on CHANNEL inside the write's
              transaction, so it is delivered only if the write commits (a rolled-back
              write wakes nobody), once per transaction, to every server process on the
              database, and costs the write no statement; each process LISTENs on one
              connection of its own (``listen_for_notices``) and wakes its sleepers. On
              SQLite the servers share one machine and one file: a commit changes the
              write-ahead log, and a watcher that sees the log's file change
              (``LogWatch``, a stat, no query) reads the versions. Either way the
              versions in the database stay the truth: a lost notice costs one safety
              tick, never a change.

Plumbing: no rule and no model here, so models and writes can call it.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable

from django.db import connections, transaction

CHANNEL = "fivetricks_wake"
RECONNECT_SECONDS = 1.0  # a listener that lost its connection tries again this often

logger = logging.getLogger(__name__)
_sleepers: list[Callable[[], None]] = []
_listening = threading.Lock()
_listener: threading.Thread | None = None
_stop = threading.Event()
LOOK_AT_STOP_SECONDS = 1.0  # how soon a listener told to stop does


def register_sleeper(sleeper: Callable[[], None]) -> None:
    if sleeper not in _sleepers:
        _sleepers.append(sleeper)


def unregister_sleeper(sleeper: Callable[[], None]) -> None:
    if sleeper in _sleepers:
        _sleepers.remove(sleeper)


def wake_now() -> None:
    for sleeper in list(_sleepers):
        sleeper()


def wake_after_commit() -> None:
    """Wake the sleepers of this process once the current transaction commits (at once
    outside one). The other processes hear of it by a notice (see Terms)."""
    if _sleepers:
        transaction.on_commit(wake_now)


def listen_for_notices() -> None:
    """On PostgreSQL, start this process's listener (once): a thread with a connection of
    its own that wakes the sleepers at each notice, and once more after it (re)connects,
    for what it may have missed meanwhile. Nothing to do on SQLite (see LogWatch)."""
    global _listener
    if connections["default"].vendor != "postgresql":
        return
    with _listening:
        if _listener is not None and _listener.is_alive():
            return
        _stop.clear()
        _listener = threading.Thread(target=_listen, name="wake-listener", daemon=True)
        _listener.start()


def stop_listening() -> None:
    """Stop this process's listener, if any, and close its connection (a test database
    cannot be dropped while it is open)."""
    global _listener
    with _listening:
        if _listener is None:
            return
        _stop.set()
        _listener.join(LOOK_AT_STOP_SECONDS * 5)
        _listener = None


def _listen() -> None:
    import psycopg  # only on PostgreSQL, where it is installed

    params = connections["default"].get_connection_params()
    params.pop("cursor_factory", None)
    while not _stop.is_set():
        try:
            with psycopg.connect(**params, autocommit=True) as listening:
                listening.execute(f"LISTEN {CHANNEL}")
                wake_now()
                while not _stop.is_set():
                    for _notice in listening.notifies(timeout=LOOK_AT_STOP_SECONDS):
                        wake_now()
        except Exception:  # the database away: try again, and say so
            logger.warning("The live channel's listener lost its connection.", exc_info=True)
            _stop.wait(RECONNECT_SECONDS)


class LogWatch:
    """On SQLite, whether the database's write-ahead log changed since the last look: a
    commit from any process on the file changes it (see Terms: notice). ``changed()`` is
    always False on other databases, which have notices instead."""

    def __init__(self) -> None:
        connection = connections["default"]
        name = str(connection.settings_dict.get("NAME") or "")
        self.path = f"{name}-wal" if connection.vendor == "sqlite" and name else ""
        self.last = self._look()

    def _look(self) -> tuple[int, int] | None:
        if not self.path:
            return None
        try:
            found = os.stat(self.path)
        except OSError:
            return None
        return found.st_mtime_ns, found.st_size

    def changed(self) -> bool:
        now = self._look()
        if now == self.last:
            return False
        self.last = now
        return True
