"""A player's action that waits for the database's write lock a bounded time, so that
under overload it is answered within seconds, not after a minute.

Terms:
    patience  how long an action's write waits for the lock (ACTION_PATIENCE_SECONDS):
              on SQLite the app's queue of writers (tournament/sqlite3/writers.py) and
              SQLite's busy timeout, on PostgreSQL lock_timeout; set for the write and put
              back after it. A page's other writes keep the server's own (20 s).
    busy      the lock did not come within the patience: the write was not made (its
              transaction never began, or was rolled back whole), and ``Busy`` is raised.
              The view answers 503 with BUSY_HEADER; the screen keeps the action in its
              outbox and sends it again with the same key, so it is stored once
              (static/js/outbox.js, tables.writes.store_once).
    action    a write a player's screen sends and resends (a card, a pointing, a claim,
              a stroke, a gesture): ``answer_action`` runs it within the patience, timed
              on the bench (tournament.common.stages), and answers it busy, refused, or
              done with its stages' headers.

Plumbing: no rule and no model here.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import TypeVar

from django.contrib import messages
from django.db import OperationalError, connections
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils.translation import gettext as _

from tournament.common import stages
from tournament.common.errors import Refused

ACTION_PATIENCE_SECONDS = 1.5
BUSY_HEADER = "X-Action-Busy"
RETRY_AFTER_SECONDS = 1
LOCK_NOT_AVAILABLE = "55P03"  # PostgreSQL's SQLSTATE for lock_timeout

Done = TypeVar("Done")


class Busy(Exception):
    """The write lock did not come within the patience (see Terms: busy)."""


def _locked(error: OperationalError) -> bool:
    cause = error.__cause__
    if getattr(cause, "sqlstate", None) == LOCK_NOT_AVAILABLE:
        return True
    return "database is locked" in str(error)


@contextlib.contextmanager
def patience(seconds: float = ACTION_PATIENCE_SECONDS) -> Iterator[None]:
    """Run the block's write with the lock waited for ``seconds`` at most (see Terms)."""
    connection = connections["default"]
    connection.ensure_connection()
    milliseconds = max(1, int(seconds * 1000))
    if connection.vendor == "sqlite":
        # The app's writers queue before BEGIN (tournament/sqlite3/writers.py): the queue
        # waits ``patience`` too, and SQLite itself for a writer outside the queue.
        setattr(connection, "patience", seconds)  # noqa: B010 (the backend's, not Django's)
        usual = int(float(connection.settings_dict["OPTIONS"].get("timeout", 5)) * 1000)
        set_to, put_back = f"PRAGMA busy_timeout = {milliseconds}", f"PRAGMA busy_timeout = {usual}"
    elif connection.vendor == "postgresql":
        set_to, put_back = f"SET lock_timeout = {milliseconds}", "RESET lock_timeout"
    else:
        yield
        return
    with connection.cursor() as cursor:
        cursor.execute(set_to)
    try:
        yield
    except OperationalError as error:
        if _locked(error):
            raise Busy from error
        raise
    finally:
        if connection.vendor == "sqlite":
            setattr(connection, "patience", None)  # noqa: B010
        if connection.connection is not None and not connection.needs_rollback:
            with connection.cursor() as cursor:
                cursor.execute(put_back)


def busy_answer(request: HttpRequest, *, page_url: str) -> HttpResponse:
    """The answer to an action that found the server busy (see Terms: busy): to a screen,
    503 and "send it again" (it keeps the action); to a plain form, its page again with
    the reason, to tap once more."""
    reason = _("The server is busy: your move was not made yet. It is sent again by itself.")
    if request.headers.get("HX-Request") != "true":
        messages.error(request, reason)
        return HttpResponseRedirect(page_url)
    response = HttpResponse(reason, status=503, content_type="text/plain; charset=utf-8")
    response[BUSY_HEADER] = "1"
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def answer_action(
    request: HttpRequest,
    *,
    write: Callable[[], Done],
    answer: Callable[[Done], HttpResponse],
    refused: Callable[[Refused], HttpResponse],
    page_url: str,
) -> HttpResponse:
    """Run a player's action (see Terms: action): ``write()`` within the patience and
    timed; ``busy_answer`` when the lock did not come, ``refused(refusal)`` when the write
    refused it, else ``answer(done)`` with the stages' headers (on the bench only)."""
    try:
        with patience(), stages.timed() as marks:
            done = write()
    except Busy:
        return busy_answer(request, page_url=page_url)
    except Refused as refusal:
        return refused(refusal)
    response = answer(done)
    for name, value in stages.server_timing(marks).items():
        response[name] = value
    return response
