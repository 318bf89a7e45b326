"""Why a player sits where they sit, in words that never claim games not won: a player
who won no game and was kept at the top table (or sent up) by the alphabet is not said
to have "most games"."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests import factories
from tournament.models import Seat, SeatReason

pytestmark = pytest.mark.django_db


def test_the_player_page_and_the_console_say_it(signed_in, organizer):
    event = factories.seated_event(owner=organizer, players=8, tables=2)
    event = factories.play_until(event, "between", by=organizer)  # no game reported
    seat = Seat.objects.filter(round__event=event, reason=SeatReason.STAYS_AT_TOP).first()
    assert seat is not None
    assert seat.games_won_before == 0
    page = signed_in.get(reverse("organizer:player", args=[event.pk, seat.player_id]))
    assert "No game won at the top table: stays, first by name" in page.content.decode()
    assert "Most games at the top table" not in page.content.decode()
    console = signed_in.get(reverse("organizer:event", args=[event.pk])).content.decode()
    assert "Most games at the top table" not in console
