"""Each table's video room at a public service is locked only by its name: two events'
rooms differ in a random part of 80 bits (the event's video secret), never a name and a
number anyone could try, and events made before it each got their own."""

from __future__ import annotations

import base64
import re

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tables.models import Table
from tables.reads.silent_channel import event_room_name, table_video_link
from tests.screen_factories import screen_event
from tournament.models import Event, new_video_secret

PATTERN = "https://meet.jit.si/fivetricks-{event}-{table}"
SECRET = re.compile(r"[a-z2-7]{16}")  # base32: 16 characters of 5 bits


def _rooms(event: Event) -> list[str]:
    event.video_pattern = PATTERN
    tables = Table.objects.filter(event=event).order_by("number")
    return [table_video_link(event, table) for table in tables]


@pytest.mark.django_db
def test_two_events_video_rooms_differ_in_a_random_part(organizer):
    first, second = (screen_event(owner=organizer, name="Café Lyon") for _ in range(2))
    for event in (first, second):
        assert SECRET.fullmatch(event.video_secret)
        assert _rooms(event) == [
            f"https://meet.jit.si/fivetricks-cafe-lyon-{event.video_secret}-{number}"
            for number in (1, 2)
        ]
        assert f"-{event.pk}-" not in _rooms(event)[0]  # no running number to try
    assert first.video_secret != second.video_secret
    assert not set(_rooms(first)) & set(_rooms(second))


def test_a_video_secret_holds_80_bits_in_characters_a_room_name_keeps():
    made = {new_video_secret() for _ in range(2000)}
    assert len(made) == 2000
    for secret in made:
        assert SECRET.fullmatch(secret)  # lowercase: a service folding case loses nothing
        assert len(base64.b32decode(secret.upper())) * 8 == 80


@pytest.mark.django_db
def test_a_long_name_is_cut_but_never_the_secret(organizer):
    event = screen_event(owner=organizer, name="Atelier interculturel du café de Lyon, jeudi soir")
    name = event_room_name(event)
    assert name.endswith(f"-{event.video_secret}")
    assert len(name) <= 40 + 1 + 16
    assert not name.startswith("-")
    assert "--" not in name


@pytest.mark.django_db(transaction=True)
def test_events_made_before_the_secret_each_get_their_own():
    executor = MigrationExecutor(connection)
    before = [("tournament", "0024_debrief_tricks_step")]
    executor.migrate(before)
    old = executor.loader.project_state(before).apps.get_model("tournament", "Event")
    owner = executor.loader.project_state(before).apps.get_model("auth", "User")
    user = owner.objects.create(username="before")
    for name in ("One", "Two", "Three"):
        old.objects.create(owner_id=user.pk, name=name)
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    secrets = list(Event.objects.values_list("video_secret", flat=True))
    assert len(secrets) == len(set(secrets)) == 3
    assert all(SECRET.fullmatch(secret) for secret in secrets)
