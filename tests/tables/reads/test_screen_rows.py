"""The versions the live channel watches, read in one statement
(tables.reads.screen_rows.versions_of)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tables.models import Table
from tables.reads.screen_rows import versions_of
from tests import factories
from tests.screen_factories import screen_event
from tournament.models import Event


@pytest.mark.django_db
def test_the_events_and_tables_versions_come_in_one_query_by_id(organizer):
    event = factories.start_rounds(screen_event(owner=organizer))
    other = factories.start_rounds(screen_event(owner=organizer))
    Table.objects.filter(event=event, number=2).update(version=41)
    tables = {table.pk: table.version for table in Table.objects.filter(event=event)}
    with CaptureQueriesContext(connection) as queries:
        events, versions = versions_of(event_ids={event.pk, other.pk}, table_ids=set(tables))
    assert len(queries) == 1
    assert events == dict(Event.objects.values_list("pk", "shared_version"))
    assert versions == tables
    assert 41 in versions.values()


def test_nothing_asked_reads_nothing():
    # No database for this test: a query would fail it.
    assert versions_of(event_ids=set(), table_ids=set()) == ({}, {})
