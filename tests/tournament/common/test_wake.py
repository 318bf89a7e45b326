"""Waking the live channels across processes (tournament.common.wake): on PostgreSQL a
write's notice is delivered only if the write commits, and wakes this process's
listener; on SQLite a commit from another connection changes the write-ahead log that
the watchers look at."""

from __future__ import annotations

import sqlite3
import threading

import pytest
from django.db import connection, transaction

from tables.models import Table
from tests import factories
from tournament.common import wake

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]

WAIT = 10  # seconds: a notice comes in milliseconds; this is a busy machine's bound


def on(vendor: str) -> None:
    if connection.vendor != vendor:
        pytest.skip(f"what {vendor} does")


def _listening():
    import psycopg

    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    listener = psycopg.connect(**params, autocommit=True)
    listener.execute(f"LISTEN {wake.CHANNEL}")
    return listener


@pytest.fixture
def table(organizer) -> Table:
    return factories.table(factories.seated_event(owner=organizer, players=4, tables=1), 1)


def _bump(table: Table) -> None:
    Table.objects.bump_version(table_id=table.pk, event_id=table.event_id)


@transaction.atomic
def _bump_and_fail(table: Table) -> None:
    _bump(table)
    raise RuntimeError("the write fails after its bump")


def test_a_notice_is_sent_only_for_a_committed_write(table):
    on("postgresql")
    listener = _listening()
    try:
        with pytest.raises(RuntimeError):
            _bump_and_fail(table)
        assert list(listener.notifies(timeout=0.5, stop_after=1)) == []
        with transaction.atomic():
            _bump(table)
            _bump(table)  # one transaction, one notice
        got = list(listener.notifies(timeout=WAIT, stop_after=1))
        assert [notice.channel for notice in got] == [wake.CHANNEL]
        assert list(listener.notifies(timeout=0.5, stop_after=1)) == []
    finally:
        listener.close()


def test_the_listener_wakes_this_process_at_another_servers_notice(table):
    on("postgresql")
    woken = threading.Event()
    wake.register_sleeper(woken.set)
    try:
        wake.listen_for_notices()
        woken.wait(WAIT)  # its first wake, once it listens
        woken.clear()
        other = _listening()  # another server: its own connection, its own commit
        other.execute("SELECT pg_notify(%s, '')", [wake.CHANNEL])
        other.close()
        assert woken.wait(WAIT)
    finally:
        wake.unregister_sleeper(woken.set)


def test_on_sqlite_a_commit_from_another_connection_changes_the_log(table):
    on("sqlite")
    log = wake.LogWatch()
    assert log.path
    assert not log.changed()
    other = sqlite3.connect(connection.settings_dict["NAME"], timeout=WAIT)
    with other:  # another process's server: its own connection and commit
        other.execute(
            f'UPDATE "{Table._meta.db_table}" SET version = version + 1 WHERE id = ?', (table.pk,)
        )
    other.close()
    assert log.changed()
    assert not log.changed()  # seen once
