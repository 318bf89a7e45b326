"""Phones seen at their tables, written in batches so a room's polls cost no write each.

Terms:
    sighting   a phone (its ``ft_phone`` id) polling or opening one table's page
               (tables.models.PhoneSighting keeps the newest time per phone and table).
    pending    the sightings this server process noted since its last batch, newest
               time per phone and table, in memory.
    batch      the pending sightings written at once, in upserts of CHUNK_ROWS, at most every
               FLUSH_SECONDS per process and only when a sighting comes in: with 500
               phones polling twice a second a process writes one small batch every
               FLUSH_SECONDS instead of 1,000 rows a second. A count over the last minute
               (tournament.reads.console.reached) is then at most FLUSH_SECONDS late.

A sighting is a hint for the organizer, not a record: it locks no event, and a batch that
cannot be written (a table deleted meanwhile) is dropped; the phones' next polls bring it
back.
"""

from __future__ import annotations

import logging
import threading
import time
from datetime import datetime

from django.db import DatabaseError, transaction
from django.utils import timezone

from tables.models import PhoneSighting, Table

FLUSH_SECONDS = 15.0
# Rows a transaction of a batch writes: 250 in one took 18 ms of the writer queue on an
# idle laptop, and several times that under a room's load, while reports waited behind
# it (docs/PERFORMANCE.md, issue 23). Fifty take about 4 ms.
CHUNK_ROWS = 50
CHUNK_PAUSE_SECONDS = 0.002

logger = logging.getLogger(__name__)
_lock = threading.Lock()
_pending: dict[tuple[int, str], datetime] = {}
_last_flush = time.monotonic()


def note_phone_seen(*, table_id: int, phone: str) -> None:
    """Remember that ``phone`` reached table ``table_id`` now; write the batch when due."""
    global _last_flush
    with _lock:
        _pending[(table_id, phone)] = timezone.now()
        if time.monotonic() - _last_flush < FLUSH_SECONDS:
            return
        batch = dict(_pending)
        _pending.clear()
        _last_flush = time.monotonic()
    write_sightings(batch=batch)


def forget_pending() -> None:
    """Drop what is pending and start a new period (a test starts afresh)."""
    global _last_flush
    with _lock:
        _pending.clear()
        _last_flush = time.monotonic()


def flush_sightings() -> int:
    """Write what is pending now; returns how many sightings were written."""
    with _lock:
        batch = dict(_pending)
        _pending.clear()
    return write_sightings(batch=batch)


def write_sightings(*, batch: dict[tuple[int, str], datetime]) -> int:
    """Upsert the batch: the tables that still exist read first, then the rows in
    transactions of at most CHUNK_ROWS, so a report waiting for the database's writer
    queue (tournament.sqlite3.writers) waits for one chunk, not the whole batch.
    Returns how many sightings were written."""
    if not batch:
        return 0
    try:
        existing = set(
            Table.objects.filter(pk__in={t for t, _ in batch}).values_list("pk", flat=True)
        )
    except DatabaseError:
        logger.warning("Dropped %s phone sightings", len(batch), exc_info=True)
        return 0
    rows = [
        PhoneSighting(table_id=table_id, phone=phone, last_seen=seen)
        for (table_id, phone), seen in batch.items()
        if table_id in existing
    ]
    written = 0
    for start in range(0, len(rows), CHUNK_ROWS):
        if start:
            # Let a writer that queued meanwhile in: a lock taken again at once by the
            # thread that let it go is usually taken by that thread.
            time.sleep(CHUNK_PAUSE_SECONDS)
        chunk = rows[start : start + CHUNK_ROWS]
        try:
            with transaction.atomic():
                PhoneSighting.objects.bulk_create(
                    chunk,
                    update_conflicts=True,
                    unique_fields=["table", "phone"],
                    update_fields=["last_seen"],
                )
        except DatabaseError:  # a table deleted meanwhile: this chunk is dropped
            logger.warning("Dropped %s phone sightings", len(chunk), exc_info=True)
            continue
        written += len(chunk)
    return written
