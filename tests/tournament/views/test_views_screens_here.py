"""The room check at an event whose cards are on screens: before play the console counts
the players whose screens are open at each table, by name ("5 of 5 players here (Amara,
…)"), names those not here yet, and says so in words about screens, never phones; in
the same number of queries at 20 and 500 players. A room event keeps its phones' count."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests import factories
from tests.matching import search
from tests.screen_factories import screen_event
from tournament.models import Phase, Seat
from tournament.reads.console import build_console
from tournament.rules.ordering import name_key
from tournament.writes.rounds import advance_phase

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def open_screen(client, player) -> None:
    """A browser opens the personal link for the first time, then its page polls."""
    client.cookies.clear()
    client.get(reverse("phone:screen", args=[player.token]))
    client.get(reverse("phone:screen_live", args=[player.token]), **HTMX)


def seated_at(event, number: int) -> list:
    seats = Seat.objects.filter(round__event=event, round__number=1, table__number=number)
    return sorted(
        (seat.player for seat in seats.select_related("player")), key=lambda p: name_key(p.name)
    )


def card_text(html: str, number: int) -> str:
    card = search(rf'<article class="card[^"]*" id="table-{number}".*?</article>', html, flags=re.S)
    return " ".join(card[0].split())


def test_the_console_names_the_players_here_at_each_table(client, signed_in, organizer):
    event = screen_event(owner=organizer, players=10, tables=2)
    first, second = seated_at(event, 1), seated_at(event, 2)
    phone = client.__class__()
    for player in [*first[:-1], *second]:
        open_screen(phone, player)
    html = signed_in.get(reverse("organizer:event", args=[event.pk])).content.decode()

    names = ", ".join(p.name for p in second)
    assert f"5 of 5 players here ({names})" in card_text(html, 2)
    here = ", ".join(p.name for p in first[:-1])
    assert f"4 of 5 players here ({here})" in card_text(html, 1)
    assert f"Not here yet: {first[-1].name}" in card_text(html, 1)
    assert "9 of 10 players have a screen open" in html
    assert "phone" not in card_text(html, 1).lower()
    assert "phones reached" not in html

    # The check stays through study (and practice), then play tells the rest.
    event = advance_phase(event=event)
    assert event.phase == Phase.STUDY
    html = signed_in.get(reverse("organizer:event", args=[event.pk])).content.decode()
    assert f"5 of 5 players here ({names})" in card_text(html, 2)


def test_a_room_event_still_counts_its_phones(signed_in, organizer):
    event = factories.seated_event(owner=organizer, players=10, tables=2)
    html = signed_in.get(reverse("organizer:event", args=[event.pk])).content.decode()
    assert "0 phones reached the server in the last minute" in html
    assert "players here" not in html


@pytest.mark.parametrize(("players", "tables"), [(20, 4), (500, 100)])
def test_the_room_check_costs_the_same_at_20_and_500_players(client, organizer, players, tables):
    event = screen_event(owner=organizer, players=players, tables=tables)
    for player in seated_at(event, 1):
        open_screen(client, player)
    with CaptureQueriesContext(connection) as queries:
        console = build_console(event)
    assert console.screens_here_total == (len(seated_at(event, 1)), players)
    assert len(queries) == 9  # as a room event's console: the sightings in one
