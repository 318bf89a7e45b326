"""The prepared reads give the same instances the ORM queries they stand for gave
(tables.reads.prepared), with their values converted the same way, on either database."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.db.transaction import TransactionManagementError
from django.utils import timezone

from tables.models import Table
from tables.reads import prepared
from tests import factories
from tournament.models import Event


def _values(instance) -> dict:
    """Each field's value with its type: 0 == False, so a missing conversion shows only
    in the type."""
    return {
        field.attname: (type(getattr(instance, field.attname)), getattr(instance, field.attname))
        for field in type(instance)._meta.concrete_fields
    }


@pytest.mark.django_db
def test_a_link_finds_its_table_and_event_as_the_orm_reads_them(organizer):
    event = factories.seated_event(owner=organizer, players=8, tables=2)
    # Values of every kind a converter turns: dates, a boolean, text, JSON where kept.
    Event.objects.filter(pk=event.pk).update(
        clock_ends_at=timezone.now() + timedelta(minutes=7), language="fr"
    )
    wanted = Table.objects.select_related("event").get(event=event, number=2)

    found = prepared.table_by_token(wanted.token)

    assert _values(found) == _values(wanted)
    assert _values(found.event) == _values(wanted.event)
    assert found.event.clock_ends_at.tzinfo is not None
    assert not found._state.adding
    assert found.event.pk == found.event_id


@pytest.mark.django_db
def test_a_token_of_no_table_finds_nothing(organizer):
    factories.seated_event(owner=organizer, players=4, tables=1)
    assert prepared.table_by_token("x" * 32) is None


@pytest.mark.django_db
def test_locking_an_event_that_is_gone_says_so_as_get_did():
    with pytest.raises(Event.DoesNotExist):
        Event.objects.lock(10**9)


@pytest.mark.django_db(transaction=True)
def test_locking_an_event_outside_a_transaction_is_refused_where_rows_lock(organizer):
    """As select_for_update() did: on PostgreSQL a row lock outside a transaction would end
    at once, which is never what a caller means. SQLite has no row locks to refuse."""
    event = factories.make_event(owner=organizer)
    if connection.features.has_select_for_update:
        with pytest.raises(TransactionManagementError):
            Event.objects.lock(event.pk)
    else:
        assert Event.objects.lock(event.pk).pk == event.pk
