"""A card played from a screen costs the same few queries whatever the event's size:
with the live channel open (the answer says "stored", the channel brings the table) and
without it (the answer draws the play area). Pinned at 20 and at 500 players."""

from __future__ import annotations

import uuid

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tables.writes.screen_play import game_of
from tests import factories
from tests.screen_factories import deal_at, screen_event
from tournament.common.phone_ids import signed_phone_id
from tournament.models import Player

pytestmark = pytest.mark.django_db

# A card with the seat held: the key looked up and the table read before the lock, then
# the event's row and the table's version, the card, the seat seen and the versions bumped
# under it; without the channel, the play area drawn after.
QUERIES = {"pushed": 20, "drawn": 28}


def _card_queries(event, *, pushed: bool) -> int:
    deal = deal_at(event, 1)
    game = game_of(deal)
    assert game.trick is not None
    assert game.trick.to_play is not None
    player = Player.objects.get(pk=game.trick.to_play)
    browser = Client()
    browser.cookies["ft_phone"] = signed_phone_id(f"phone-of-player-{player.pk:04d}")
    assert browser.get(reverse("phone:screen", args=[player.token])).status_code == 200
    headers = {"HX-Request": "true", **({"X-Screen-Pushed": "1"} if pushed else {})}
    fields = {"card": game.hands[player.pk][0], "deal": deal.pk, "trick": game.trick.number}
    with CaptureQueriesContext(connection) as queries:
        answer = browser.post(
            reverse("phone:screen_play", args=[player.token]),
            {**fields, "key": uuid.uuid4().hex},
            headers=headers,
        )
    assert answer.status_code == (204 if pushed else 200), answer.content
    return len(queries)


@pytest.mark.parametrize(("players", "tables"), [(20, 4), (500, 100)])
@pytest.mark.parametrize("mode", ["pushed", "drawn"])
def test_a_card_costs_the_same_queries_at_any_size(organizer, players, tables, mode):
    event = factories.start_rounds(screen_event(owner=organizer, players=players, tables=tables))
    assert _card_queries(event, pushed=mode == "pushed") == QUERIES[mode]
