"""Where the time of a screen action goes, from its POST to the screens of its table, for
bench/screen_room.py (issue 41). Only on a server started for the bench (settings.BENCH):
a facilitator's server measures and says nothing of it.

Terms:
    mark          a moment a request's write notes as it goes (``mark``): "locked" once
                  the event's row is taken (tournament.models.event: lock), "written" at
                  the table's version bump, the write's last statement (tables.models).
                  ``timed`` adds the start and, once the write returned (committed), the end.
    action stages what the answer says in its Server-Timing header (``server_timing``):
                  lock   from the write's call to its lock (on SQLite, BEGIN IMMEDIATE's
                         wait for the database's write lock is in it);
                  write  from the lock to the version bump;
                  commit from the bump to the write's return, the commit and its sync.
                  X-Committed-At is the wall clock at the end, for the push's stages.
    push stages   the wall clock of each step of the live channel's push, sent with the
                  pushed state as a comment line (``push_line``, tournament.serving.live_channel):
                  woke (the commit woke the watcher), read (the versions read), rendered
                  (the table's state drawn), sent (this stream's message written). The
                  bench takes wake = woke - committed, watch = read - woke, render =
                  rendered - read, send = sent - rendered, and deliver = its own receipt
                  - sent.

Plumbing: no rule and no model here.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from contextvars import ContextVar

from django.conf import settings

COMMITTED_HEADER = "X-Committed-At"
_marks: ContextVar[dict[str, float] | None] = ContextVar("stage_marks", default=None)


def mark(name: str) -> None:
    """Note the first moment ``name`` is reached in the action being timed, if any."""
    marks = _marks.get()
    if marks is not None and name not in marks:
        marks[name] = time.perf_counter()


@contextlib.contextmanager
def timed() -> Iterator[dict[str, float]]:
    """Time the block's write (see Terms: mark); the marks, empty off the bench."""
    if not settings.BENCH:
        yield {}
        return
    marks = {"start": time.perf_counter()}
    token = _marks.set(marks)
    try:
        yield marks
    finally:
        marks["end"] = time.perf_counter()
        marks["wall"] = time.time()
        _marks.reset(token)


def server_timing(marks: dict[str, float]) -> dict[str, str]:
    """The headers that say an action's stages (see Terms), none off the bench."""
    if "end" not in marks:
        return {}
    locked = marks.get("locked", marks["start"])
    written = marks.get("written", marks["end"])
    spans = {
        "lock": locked - marks["start"],
        "write": written - locked,
        "commit": marks["end"] - written,
    }
    timing = ", ".join(f"{name};dur={seconds * 1000:.2f}" for name, seconds in spans.items())
    return {"Server-Timing": timing, COMMITTED_HEADER: f"{marks['wall']:.6f}"}


def push_line(woke: float, read: float, rendered: float) -> str:
    """The push's stages (see Terms), as an event-stream comment; empty off the bench."""
    if not settings.BENCH:
        return ""
    return (
        f": stages woke={woke:.6f};read={read:.6f};rendered={rendered:.6f};sent={time.time():.6f}\n"
    )
