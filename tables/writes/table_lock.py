"""Locking one table for a write to its play, so that tables do not wait for each other.

Terms:
    table write  a card played, a pointing, a claim, a stroke or a gesture: it changes one
                 table's play and nothing else of the event. It takes the event's row FOR KEY
                 SHARE (Event.objects.lock(one_table=True)), finds the player's table, then
                 takes that table's row FOR UPDATE (``lock_table``) and reads the table's
                 play again under it. Two table writes at one table run one after the
                 other; at two tables, side by side.
    event write  a phase, the clock, a round's close, the roster: it takes the event's row
                 FOR UPDATE, which waits for every table write under way and holds back
                 every new one, so a card is either in the close or refused with its
                 reason, never half in.
    SQLite       one writer at a time by design (IMMEDIATE transactions): nothing to lock,
                 and ``lock_table`` says so (False), so nothing is read twice.
    read first   a card or a pointing reads the player's table before its transaction
                 (tables.writes.screen_play: read_first), and under the locks only the
                 table's version (``locked_version``) and the event's: when neither moved,
                 what it read is what stands, and the lock is held for the write alone.
"""

from __future__ import annotations

from django.db import connection

from tables.models import Table

_VERSION_SQL = (
    f'SELECT "{Table._meta.get_field("version").column}" FROM "{Table._meta.db_table}" '
    f'WHERE "{Table._meta.pk.column}" = %s'
)
_LOCK_SQL = (
    f'SELECT 1 FROM "{Table._meta.db_table}" WHERE "{Table._meta.pk.column}" = %s FOR UPDATE'
)


def lock_table(table_id: int) -> bool:
    """Lock the table's row until the transaction ends, where rows lock (PostgreSQL);
    whether it did: the caller then reads the table's play again, as it stands now."""
    if not connection.features.has_select_for_update:
        return False
    with connection.cursor() as cursor:
        cursor.execute(_LOCK_SQL, (table_id,))
    return True


def locked_version(table_id: int) -> int | None:
    """The table's version as it stands now, its row locked until the transaction ends
    where rows lock (PostgreSQL; on SQLite the writer's lock, held since BEGIN, keeps it
    so); None for a table that is gone."""
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    with connection.cursor() as cursor:
        cursor.execute(_VERSION_SQL + lock, (table_id,))
        row = cursor.fetchone()
    return None if row is None else int(row[0])
