"""Phones seen at their tables: noted in memory on every poll, written in one batch at most
every FLUSH_SECONDS, and counted per table on the console before play, in constant
queries."""

from __future__ import annotations

import itertools
import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from tables.models import PhoneSighting
from tables.writes import sightings
from tests import factories
from tournament.common.phone_ids import signed_phone_id
from tournament.models import Phase
from tournament.reads.console.reached import phones_reached
from tournament.views.organizer import console as console_views
from tournament.writes.backups import backups_in_database

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def phone(n: int) -> str:
    return f"phone-{n:04d}-abcdefghijkl"


def poll(client, table, phone_id: str):
    client.cookies["ft_phone"] = signed_phone_id(phone_id)
    return client.get(reverse("phone:table_live", args=[table.token]), **HTMX)


def test_polls_are_written_in_one_batch_when_due(client, organizer, monkeypatch):
    event = factories.seated_event(owner=organizer, players=8, tables=2)
    one, two = factories.table(event, 1), factories.table(event, 2)
    for n in range(3):
        poll(client, one, phone(n))
    poll(client, two, phone(9))
    assert not PhoneSighting.objects.exists()  # not due yet: nothing written

    monkeypatch.setattr(sightings, "FLUSH_SECONDS", 0)
    poll(client, one, phone(0))

    assert phones_reached(event) == {one.pk: 3, two.pk: 1}
    assert PhoneSighting.objects.count() == 4


def test_a_phone_seen_again_updates_its_one_row(event, organizer):
    event = factories.seated_event(owner=organizer, players=8, tables=2)
    table = factories.table(event, 1)
    old = timezone.now() - timedelta(minutes=5)
    sightings.write_sightings(batch={(table.pk, phone(1)): old})
    assert phones_reached(event) == {}  # seen five minutes ago: not in the last minute

    sightings.note_phone_seen(table_id=table.pk, phone=phone(1))
    assert sightings.flush_sightings() == 1

    assert PhoneSighting.objects.get().last_seen > old
    assert phones_reached(event) == {table.pk: 1}


def test_a_batch_for_a_deleted_table_is_dropped_not_raised(organizer):
    event = factories.seated_event(owner=organizer, players=8, tables=2)
    table = factories.table(event, 1)
    sightings.note_phone_seen(table_id=table.pk, phone=phone(1))
    sightings.note_phone_seen(table_id=10**6, phone=phone(2))
    assert sightings.flush_sightings() == 1


def test_phones_are_counted_only_before_play(organizer):
    event = factories.seated_event(owner=organizer, players=8, tables=2)
    table = factories.table(event, 1)
    sightings.write_sightings(batch={(table.pk, phone(1)): timezone.now()})
    assert phones_reached(event) == {table.pk: 1}

    event.phase = Phase.ROUND
    assert phones_reached(event) == {}


@pytest.mark.parametrize(("players", "tables"), [(20, 5), (500, 125)])
def test_the_console_shows_phones_per_table_in_constant_queries(
    signed_in, organizer, django_assert_max_num_queries, players, tables, monkeypatch
):
    # The live poll's ETag follows the clock before play (console.REACHED_REFRESH_SECONDS).
    monkeypatch.setattr(console_views.time, "time", lambda: 1_000_000.0)
    event = factories.seated_event(owner=organizer, players=players, tables=tables)
    now = timezone.now()
    sightings.write_sightings(
        batch={
            (factories.table(event, n).pk, phone(n * 10 + k)): now for n in (1, 2) for k in (0, 1)
        }
        | {(factories.table(event, 1).pk, phone(999)): now - timedelta(minutes=2)}
    )
    console = reverse("organizer:event", args=[event.pk])

    with django_assert_max_num_queries(SETUP_CONSOLE_QUERIES):
        page = signed_in.get(console).content.decode()

    assert "4 phones reached the server in the last minute." in page
    card_one = page[page.index('id="table-1"') : page.index('id="table-2"')]
    assert "2 phones reached it in the last minute" in card_one
    card_last = page[page.index(f'id="table-{tables}"') :]
    assert "0 phones reached it in the last minute" in card_last

    # A poll with nothing new answers 304; once phones reach table 3 it sends that card.
    held = re.search(r'id="live-poll"[^>]*hx-get="([^"]+)"', page)[1].replace("&amp;", "&")
    etag = re.search(r'id="live-poll"[^>]*data-etag="([^"]+)"', page)[1].replace("&quot;", '"')
    assert signed_in.get(held, HTTP_IF_NONE_MATCH=etag).status_code == 304
    sightings.write_sightings(batch={(factories.table(event, 3).pk, phone(3)): timezone.now()})
    with django_assert_max_num_queries(SETUP_CONSOLE_QUERIES):
        html = signed_in.get(held).content.decode()
    assert html.count("<article") == 1
    assert "1 phone reached it in the last minute" in html


# The setup console at any size: its reads, the room settings and the phones reached.
# CONSOLE_QUERIES without the round's, plus the room settings and the phones reached; on
# PostgreSQL one more, the last backup, kept in the database (tournament.writes.backups).
SETUP_CONSOLE_QUERIES = 13 + backups_in_database()


def test_a_large_batch_is_written_in_short_transactions(organizer, monkeypatch):
    """Reports queue for the database behind a batch: each of its transactions writes at
    most CHUNK_ROWS rows, so none holds them up for the whole batch."""
    event = factories.seated_event(owner=organizer, players=8, tables=2)
    table = factories.table(event, 1)
    monkeypatch.setattr(sightings, "CHUNK_ROWS", 4)
    batch = {(table.pk, phone(n)): timezone.now() for n in range(10)}

    with CaptureQueriesContext(connection) as queries:
        assert sightings.write_sightings(batch=batch) == 10

    statements = [q["sql"].split()[0] for q in queries.captured_queries]
    inserts = [n for n, word in enumerate(statements) if word == "INSERT"]
    assert len(inserts) == 3  # 4 + 4 + 2 rows
    # Each in a transaction of its own: one ends before the next begins.
    between = [statements[a:b] for a, b in itertools.pairwise(inserts)]
    assert all(any(w in ("COMMIT", "RELEASE") for w in part) for part in between)
    assert PhoneSighting.objects.filter(table=table).count() == 10
