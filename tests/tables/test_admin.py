"""The tables' admin pages: a table's clauses are listed and can be filtered on."""

from __future__ import annotations

import pytest

from tables.admin import TableAdmin
from tables.models import VARIANT_FIELDS
from tables.rules.variants import Variant
from tests import factories

pytestmark = pytest.mark.django_db


def test_the_table_list_shows_and_filters_every_variant_field():
    assert set(VARIANT_FIELDS) <= set(TableAdmin.list_display)
    assert set(VARIANT_FIELDS) <= set(TableAdmin.list_filter)


def test_the_table_list_filters_the_fewest_wins_tables(admin_client, organizer):
    event = factories.seated_event(owner=organizer, players=12, tables=3)
    table = factories.table(event, 2)
    table.set_variant(Variant.from_code("low-clubs-fewest"))
    table.save()
    response = admin_client.get("/admin/tables/table/", {"fewest_wins__exact": "1"})
    assert response.status_code == 200
    assert list(response.context["cl"].result_list) == [table]
    assert "fewest_wins" in response.content.decode()
