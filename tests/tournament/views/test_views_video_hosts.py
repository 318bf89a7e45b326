"""Video links that look like what they are, over HTTP: the organizer's form refuses a link
with a name before its host or with characters nobody sees, keeping what was typed, and
each player's screen shows the host its table's link leads to beside the button."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tables.models import Table
from tests import factories
from tests.screen_factories import deal_at, screen_event
from tournament.models import Player

pytestmark = pytest.mark.django_db

NAME_BEFORE_HOST = "Take out the part before the @ (a name or a password)"
HIDDEN = "This address holds characters nobody can see"


@pytest.fixture
def event(organizer):
    return screen_event(owner=organizer, players=10, tables=2)


def _save(client, event, **data):
    return client.post(reverse("organizer:video_rooms_save", args=[event.pk]), data)


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("table_1", "https://user:pass@evil.example/", NAME_BEFORE_HOST),
        ("table_1", "https://javascript:alert(1)@evil.example/", NAME_BEFORE_HOST),
        ("table_1", "https://evil.example/\u202emoc.is.tij.teem", HIDDEN),
        ("pattern", "https://me:pw@meet.example/ft-{event}-{table}", NAME_BEFORE_HOST),
        ("pattern", "https://meet.example/ft-{table}\u202e", HIDDEN),
    ],
)
def test_a_link_that_looks_like_another_is_refused_and_what_was_typed_is_kept(
    signed_in, event, field, value, words
):
    data = {"pattern": "", "table_1": "", "table_2": "https://zoom.example/j/7", field: value}

    answer = _save(signed_in, event, **data)

    assert answer.status_code == 400
    page = answer.content.decode()
    assert words in page
    assert f'value="{value}"' in page  # the typed text, to correct in place
    event.refresh_from_db()
    assert event.video_pattern == ""
    assert set(Table.objects.filter(event=event).values_list("video_link", flat=True)) == {""}


def test_each_player_sees_the_host_their_tables_link_leads_to(event):
    event.video_pattern = "https://meet.jit.si/ft-{event}-{table}"
    event.save(update_fields=["video_pattern"])
    event = factories.start_rounds(event)
    Table.objects.filter(event=event, number=2).update(video_link="https://Zoom.example/j/42")
    at_one = Player.objects.get(pk=deal_at(event, 1).seats[0])
    at_two = Player.objects.get(pk=deal_at(event, 2).seats[0])

    one, two = (
        Client().get(reverse("phone:screen", args=[p.token]), follow=True).content.decode()
        for p in (at_one, at_two)
    )

    assert 'aria-describedby="video-host"' in one
    assert '<bdi class="video-host" id="video-host" dir="ltr">meet.jit.si</bdi>' in one
    assert '<bdi class="video-host" id="video-host" dir="ltr">zoom.example</bdi>' in two
    assert "meet.jit.si" not in two
