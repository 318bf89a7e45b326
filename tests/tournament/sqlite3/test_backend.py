"""The SQLite backend's transactions hold a place in the writer queue from BEGIN until
COMMIT or ROLLBACK, and no longer (tournament.sqlite3.base)."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.db.backends.sqlite3.creation import DatabaseCreation as SQLiteCreation

from tournament.sqlite3.writers import queue_for

pytestmark = pytest.mark.skipif(
    # What the SQLite connection's is_in_memory_db asks, typed for any connection.
    connection.vendor != "sqlite"
    or SQLiteCreation.is_in_memory_db(connection.settings_dict["NAME"]),
    reason="the queue is the SQLite file backend's",
)


def _held() -> bool:
    """Whether this process's queue of the test database is taken."""
    queue = queue_for(str(connection.settings_dict["NAME"]))
    if not queue.threads.acquire(blocking=False):
        return True
    queue.threads.release()
    return False


@pytest.mark.django_db(transaction=True)
def test_a_transaction_holds_the_queue_until_it_commits():
    assert not _held()
    with transaction.atomic():
        assert _held()
        with transaction.atomic():  # a savepoint: the same place in the queue
            assert _held()
        assert _held()
    assert not _held()


@pytest.mark.django_db(transaction=True)
def test_a_transaction_that_fails_leaves_the_queue():
    seen: list[bool] = []

    def fail_while_writing() -> None:
        with transaction.atomic():
            seen.append(_held())
            raise ZeroDivisionError

    with pytest.raises(ZeroDivisionError):
        fail_while_writing()
    assert seen == [True]
    assert not _held()
