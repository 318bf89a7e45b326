"""A play that meets a write lock held longer than its patience (tournament.common.busy)
is answered at once with 503 and X-Action-Busy, stores nothing, and is stored once when
the screen sends it again with its key: an answer for every play, under overload too."""

from __future__ import annotations

import sqlite3
import time
from typing import Any

import pytest
from django.db import connection
from django.urls import reverse

from tables.models import Play, Stroke
from tables.writes.screen_play import game_of
from tests import factories
from tests.screen_factories import deal_at, screen_event
from tournament.common import busy
from tournament.models import Event, Player

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]

HTMX = {"HX-Request": "true", "X-Screen-Pushed": "1"}


class HeldLock:
    """Another server's connection holding the write lock (SQLite) or the event's row
    (PostgreSQL) until released."""

    def __init__(self, event: Event) -> None:
        self.other: Any
        if connection.vendor == "sqlite":
            self.other = sqlite3.connect(connection.settings_dict["NAME"], isolation_level=None)
            self.other.execute("BEGIN IMMEDIATE")
        else:
            import psycopg

            params = connection.get_connection_params()
            params.pop("cursor_factory", None)
            self.other = psycopg.connect(**params)
            self.other.execute(
                f'SELECT 1 FROM "{Event._meta.db_table}" WHERE id = %s FOR UPDATE', [event.pk]
            )

    def release(self) -> None:
        if connection.vendor == "sqlite":
            self.other.execute("ROLLBACK")
        else:
            self.other.rollback()
        self.other.close()


def test_a_play_that_waits_too_long_for_the_lock_is_answered_busy_then_stored_once(
    client, organizer
):
    event = factories.start_rounds(screen_event(owner=organizer, players=4, tables=1))
    deal = deal_at(event, 1)
    me = Player.objects.get(pk=game_of(deal).trick.to_play)
    client.get(reverse("phone:screen", args=[me.token]))  # holds the seat
    url = reverse("phone:screen_play", args=[me.token])
    data = {"card": deal.hands_by_player[me.pk][0], "key": "busyplay12345678"}
    held = HeldLock(event)
    try:
        began = time.monotonic()
        answer = client.post(url, data, headers=HTMX)
        waited = time.monotonic() - began
    finally:
        held.release()
    assert answer.status_code == 503
    assert answer[busy.BUSY_HEADER] == "1"
    assert "X-Action-Stored" not in answer
    assert waited < busy.ACTION_PATIENCE_SECONDS + 3  # not the server's own 20 s
    assert not Play.objects.filter(deal=deal).exists()
    again = client.post(url, data, headers=HTMX)
    assert again["X-Action-Stored"] == "1"
    assert client.post(url, data, headers=HTMX)["X-Action-Stored"] == "1"
    assert Play.objects.filter(deal=deal).count() == 1


def test_without_javascript_a_busy_play_goes_back_to_the_page_with_the_reason(client, organizer):
    event = factories.start_rounds(screen_event(owner=organizer, players=4, tables=1))
    deal = deal_at(event, 1)
    me = Player.objects.get(pk=game_of(deal).trick.to_play)
    client.get(reverse("phone:screen", args=[me.token]))
    url = reverse("phone:screen_play", args=[me.token])
    held = HeldLock(event)
    try:
        answer = client.post(
            url, {"card": deal.hands_by_player[me.pk][0], "key": "plainbusy1234567"}
        )
    finally:
        held.release()
    assert answer.status_code == 302
    page = client.get(answer["Location"]).content.decode()
    assert "The server is busy" in page


def test_on_sqlite_a_play_queued_behind_another_writer_too_long_is_answered_busy(client, organizer):
    # The app's writers queue before BEGIN (tournament/sqlite3/writers.py): an action
    # waits its patience there too, not the database's 20 s.
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's queue of writers")
    import threading

    from django.db import connections, transaction

    event = factories.start_rounds(screen_event(owner=organizer, players=4, tables=1))
    deal = deal_at(event, 1)
    me = Player.objects.get(pk=game_of(deal).trick.to_play)
    client.get(reverse("phone:screen", args=[me.token]))
    holding, release = threading.Event(), threading.Event()

    def another_writer() -> None:
        try:
            with transaction.atomic():
                Event.objects.filter(pk=event.pk).update(name=event.name)
                holding.set()
                release.wait(30)
        finally:
            connections.close_all()

    writer = threading.Thread(target=another_writer)
    writer.start()
    try:
        assert holding.wait(30)
        began = time.monotonic()
        answer = client.post(
            reverse("phone:screen_play", args=[me.token]),
            {"card": deal.hands_by_player[me.pk][0], "key": "queuedbusy123456"},
            headers=HTMX,
        )
        waited = time.monotonic() - began
    finally:
        release.set()
        writer.join(30)
    assert answer.status_code == 503
    assert answer[busy.BUSY_HEADER] == "1"
    assert waited < busy.ACTION_PATIENCE_SECONDS + 3
    assert not Play.objects.filter(deal=deal).exists()


def test_a_stroke_that_waits_too_long_for_the_lock_is_answered_busy_as_a_card_is(client, organizer):
    event = factories.start_rounds(screen_event(owner=organizer, players=4, tables=1))
    me = Player.objects.get(pk=deal_at(event, 1).seats[0])
    client.get(reverse("phone:screen", args=[me.token]))  # holds the seat
    url = reverse("phone:screen_draw", args=[me.token])
    data = {"key": "busystroke123456", "kind": "black", "points": "1,1 2,2"}
    held = HeldLock(event)
    try:
        answer = client.post(url, data, headers=HTMX)
    finally:
        held.release()
    assert answer.status_code == 503
    assert answer[busy.BUSY_HEADER] == "1"
    assert answer["Retry-After"] == str(busy.RETRY_AFTER_SECONDS)
    assert not Stroke.objects.exists()
    assert client.post(url, data, headers=HTMX)["X-Action-Stored"] == "1"
    assert Stroke.objects.count() == 1
