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
"""

from __future__ import annotations

from django.db import connection

from tables.models import Table

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
