"""A round's pad keeps so much and no more: once a table's strokes and clears of the
round reach the cap, the pad takes nothing more, and every screen at the table says so;
the next round's pad is a new one."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from tables.models import Stroke
from tables.reads.silent_channel import pad_view
from tables.rules import silent_channel as rules
from tests import factories
from tests.screen_factories import deal_at, screen_event
from tournament.models import Player

pytestmark = pytest.mark.django_db
SENT = {"HX-Request": "true"}
FULL = "The pad is full for this round"


@pytest.fixture
def playing(organizer):
    return factories.start_rounds(screen_event(owner=organizer))


@pytest.fixture
def me(client, playing):
    player = Player.objects.get(pk=deal_at(playing, 1).seats[0])
    client.get(reverse("phone:screen", args=[player.token]))  # the device cookie
    return player


def _fill_the_round(deal, *, points: int, strokes: int) -> None:
    """Half an hour of drawing by another player at the table, ending with a clear."""
    player = Player.objects.get(pk=deal.seats[1])
    earlier = timezone.now() - timedelta(minutes=30)
    each = points // (strokes - 1)
    rows = [
        Stroke(
            round_id=deal.round_id,
            table_id=deal.table_id,
            player=player,
            kind="black" if n < strokes - 1 else rules.CLEAR,
            points=[[1, 1]] * (each if n < strokes - 1 else 0),
            point_count=each if n < strokes - 1 else 0,
            client_key=f"roundcap{n:06d}",
            drawn_at=earlier,
        )
        for n in range(strokes)
    ]
    Stroke.objects.bulk_create(rows)


def _draw(client, player, key, kind="black"):
    data = {"key": key, "kind": kind, "points": "" if kind == rules.CLEAR else "5,5 9,9"}
    return client.post(reverse("phone:screen_draw", args=[player.token]), data, headers=SENT)


def test_below_the_cap_the_pad_draws_and_says_nothing(client, playing, me):
    deal = deal_at(playing, 1)
    _fill_the_round(deal, points=rules.MAX_ROUND_POINTS - 400, strokes=401)
    assert not pad_view(deal.round_id, deal.table_id).round_full
    assert _draw(client, me, "roundcapnew1")["X-Action-Stored"] == "1"
    page = client.get(reverse("phone:screen", args=[me.token])).content.decode()
    assert 'id="pad-full" class="notice notice-warn" hidden' in page


@pytest.mark.parametrize(
    ("points", "strokes"),
    [(rules.MAX_ROUND_POINTS, 401), (1_000, rules.MAX_ROUND_STROKES)],
)
def test_a_full_round_takes_no_stroke_nor_clear_and_the_table_is_told(
    client, playing, me, points, strokes
):
    deal = deal_at(playing, 1)
    _fill_the_round(deal, points=points, strokes=strokes)
    kept = Stroke.objects.count()
    for key, kind in [("roundcapnew2", "black"), ("roundcapnew3", rules.CLEAR)]:
        answer = _draw(client, me, key, kind)
        assert answer.status_code == 409
        assert answer["X-Action-Refused"] == "1"
        assert FULL in answer.content.decode()
    assert Stroke.objects.count() == kept
    # Every screen at the table says it, in plain words; the next table's does not.
    other = Player.objects.get(pk=deal.seats[2])
    page = client.get(reverse("phone:screen", args=[other.token])).content.decode()
    assert f'<p id="pad-full" class="notice notice-warn">{FULL}' in page
    elsewhere = Player.objects.get(pk=deal_at(playing, 2).seats[0])
    page = client.get(reverse("phone:screen", args=[elsewhere.token])).content.decode()
    assert 'id="pad-full" class="notice notice-warn" hidden' in page


def test_the_live_channel_tells_the_table_the_pad_is_full(playing, me):
    from tables.views.screen_pushed import pushed_table_state

    deal = deal_at(playing, 1)
    _fill_the_round(deal, points=rules.MAX_ROUND_POINTS, strokes=401)
    state = pushed_table_state(deal.table_id, "fr")
    assert state is not None
    assert 'id="pad-full" class="notice notice-warn">' in state[1]
