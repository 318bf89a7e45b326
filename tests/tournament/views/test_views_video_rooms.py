"""The organizer's video rooms: a pattern for every table and a table's own link, checked,
kept, and shown on the players' screens."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tables.models import Table
from tests.screen_factories import screen_event
from tests.tournament.writes.test_cofacilitators import join
from tournament.models import CoRole

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(organizer):
    return screen_event(owner=organizer, players=10, tables=2)


def _save(client, event, **data):
    return client.post(reverse("organizer:video_rooms_save", args=[event.pk]), data)


def test_the_pattern_and_a_tables_own_link_are_kept(signed_in, event):
    answer = _save(
        signed_in,
        event,
        pattern="https://meet.jit.si/fivetricks-{event}-{table}",
        table_1="",
        table_2="https://zoom.example/j/42",
    )
    assert answer.status_code == 302
    event.refresh_from_db()
    assert event.video_pattern == "https://meet.jit.si/fivetricks-{event}-{table}"
    assert Table.objects.get(event=event, number=2).video_link == "https://zoom.example/j/42"
    page = signed_in.get(reverse("organizer:video_rooms", args=[event.pk])).content.decode()
    room = f"fivetricks-friday-workshop-{event.video_secret}-1"
    assert f"Players see: https://meet.jit.si/{room}" in page
    assert "Players see: https://zoom.example/j/42" in page
    assert "video-guessable" not in page


def test_a_pattern_without_event_is_kept_and_said_to_be_guessable(signed_in, event):
    pattern = "https://meet.jit.si/fivetricks-{table}"
    _save(signed_in, event, pattern=pattern, table_1="", table_2="")
    page = signed_in.get(reverse("organizer:video_rooms", args=[event.pk])).content.decode()
    assert "Players see: https://meet.jit.si/fivetricks-2" in page
    assert 'id="video-guessable"' in page
    assert "anyone who guesses them can join" in page


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("pattern", "https://meet.example/all-of-us", "{table}"),
        ("pattern", "https://meet.example/{table}-{room}", "nothing else"),
        ("table_1", "meet.example/table-1", "https://"),
        ("table_1", "javascript:alert(1)", "https://"),
    ],
)
def test_a_link_that_would_not_work_is_refused_and_nothing_is_lost(
    signed_in, event, field, value, words
):
    data = {"pattern": "", "table_1": "", "table_2": "https://zoom.example/j/7", field: value}
    answer = _save(signed_in, event, **data)
    assert answer.status_code == 400
    page = answer.content.decode()
    assert words in page
    assert value.replace("&", "&amp;") in page  # what was typed is still there
    assert Table.objects.get(event=event, number=2).video_link == ""


def test_the_console_links_the_video_rooms_at_a_screen_event(signed_in, event):
    page = signed_in.get(reverse("organizer:event", args=[event.pk])).content.decode()
    assert reverse("organizer:video_rooms", args=[event.pk]) in page


def test_an_observer_cannot_change_the_video_rooms(event):
    observer, _invitation = join(event, CoRole.OBSERVER)
    answer = _save(observer, event, pattern="https://meet.example/{table}", table_1="", table_2="")
    assert answer.status_code != 200  # sent back to the console, with the reason
    event.refresh_from_db()
    assert event.video_pattern == ""
