"""Django's SQLite backend (ENGINE "tournament.sqlite3"), plus:

- the database's folder is made when it first connects, so that importing the settings
  writes nothing (tournament.common.folders);
- every transaction waits its turn in the database's writer queue before BEGIN and
  leaves it after COMMIT or ROLLBACK (tournament.sqlite3.writers: why, and what a queue
  is).
"""

from __future__ import annotations

from pathlib import Path

from django.db.backends.sqlite3 import base

from tournament.common.folders import make_folder
from tournament.sqlite3.writers import WriterQueue, queue_for


class DatabaseWrapper(base.DatabaseWrapper):
    # The queue this connection's open transaction holds a place in, if any.
    _in_queue: WriterQueue | None = None
    # Seconds a writer waits for its turn, when shorter than the database's timeout option
    # (tournament.common.busy: a player's action waits 1.5 s, then is answered busy).
    patience: float | None = None

    def get_new_connection(self, conn_params: dict):
        if not self.is_in_memory_db():
            make_folder(Path(self.settings_dict["NAME"]).parent)
        return super().get_new_connection(conn_params)

    # Django's private hook where an autocommit connection begins a transaction (BEGIN
    # IMMEDIATE here), the one place to queue before it; its stubs leave it out.
    def _start_transaction_under_autocommit(self) -> None:
        if self.is_in_memory_db():
            return super()._start_transaction_under_autocommit()  # type: ignore[misc]
        queue = queue_for(str(self.settings_dict["NAME"]))
        queue.enter(timeout=self.patience or float(self.settings_dict["OPTIONS"].get("timeout", 5)))
        self._in_queue = queue
        try:
            super()._start_transaction_under_autocommit()  # type: ignore[misc]
        except BaseException:
            self._leave_queue()
            raise

    def _leave_queue(self) -> None:
        queue, self._in_queue = self._in_queue, None
        if queue is not None:
            queue.leave()

    def _commit(self):
        try:
            return super()._commit()
        finally:
            # A COMMIT that failed (a foreign key checked at the end) leaves SQLite's
            # transaction open until Django's ROLLBACK: the queue is left then.
            if self.connection is None or not self.connection.in_transaction:
                self._leave_queue()

    def _rollback(self):
        try:
            return super()._rollback()
        finally:
            self._leave_queue()

    def _close(self):
        try:
            return super()._close()
        finally:
            self._leave_queue()
