"""Who is gone at a screen table: a player whose screen is open, or was within the last
minute, never is, whether or not their device holds the seat (a first visit takes none);
a screen closed for over a minute is named gone, on the other screens and the console but
never on its own player's screen. Sighting a player takes no seat."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from tables.models import ScreenSeat, ScreenSighting
from tables.reads.screen_play import GONE_AFTER_SECONDS, console_table, table_view
from tables.writes.screen_play import play_card
from tables.writes.screen_seats import SEEN_EVERY_SECONDS, note_seen
from tests import factories
from tests.matching import search
from tests.screen_factories import deal_at, device_of, key, screen_event
from tournament.models import Player
from tournament.reads.radar import build_radar
from tournament.views.organizer import tables as organizer_tables

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def playing(organizer):
    return factories.start_rounds(screen_event(owner=organizer))


def seen_ago(players, seconds: float) -> None:
    """These players' screens last showed up ``seconds`` ago (a clock set back)."""
    at = timezone.now() - timedelta(seconds=seconds)
    ScreenSighting.objects.bulk_create(
        [ScreenSighting(player_id=p.pk, last_seen=at) for p in players],
        update_conflicts=True,
        unique_fields=["player"],
        update_fields=["last_seen"],
    )


def open_screen(client, player: Player):
    """A browser opens the personal link for the first time (no device cookie yet: no seat
    is taken), then its page polls the live part, as static/js/poll.js does."""
    client.get(reverse("phone:screen", args=[player.token]))
    return client.get(reverse("phone:screen_live", args=[player.token]), **HTMX)


def test_a_screen_opened_without_a_seat_is_there_and_takes_no_seat(client, playing):
    deal = deal_at(playing, 1)
    players = [Player.objects.get(pk=pk) for pk in deal.seats]
    for player in players:
        client.cookies.clear()
        assert open_screen(client, player).status_code == 200
    assert not ScreenSeat.objects.filter(player__in=players).exists()
    view = table_view(deal, event=playing, me=None)
    assert view.gone == []
    assert console_table(playing, deal.round_id, deal.table_id).stand_in is None


def test_a_link_preview_without_cookie_sights_nobody(client, playing):
    player = Player.objects.get(pk=deal_at(playing, 1).seats[0])
    client.get(reverse("phone:screen", args=[player.token]))
    assert not ScreenSighting.objects.filter(player=player).exists()


def test_a_screen_seen_a_minute_ago_is_there_and_one_longer_ago_is_gone(playing):
    deal = deal_at(playing, 1)
    players = [Player.objects.get(pk=pk) for pk in deal.seats]
    seen_ago(players[:-1], GONE_AFTER_SECONDS - 2)
    seen_ago(players[-1:], GONE_AFTER_SECONDS + 2)
    view = table_view(deal, event=playing, me=None)
    assert view.gone == [players[-1].name]
    lines = build_radar(playing)
    assert any(players[-1].name in str(flag.text) for line in lines for flag in line.flags)
    # Their own screen, drawn for them, never says they are gone: it is open.
    mine = table_view(deal, event=playing, me=players[-1].pk)
    assert [seat.gone for seat in mine.seats if seat.is_me] == [False]


def test_a_poll_sights_a_player_seen_late_and_leaves_a_fresh_one_alone(client, playing):
    player = Player.objects.get(pk=deal_at(playing, 1).seats[0])
    open_screen(client, player)
    first = ScreenSighting.objects.get(player=player).last_seen
    client.get(reverse("phone:screen_live", args=[player.token]), **HTMX)
    assert ScreenSighting.objects.get(player=player).last_seen == first  # fresh: no write
    seen_ago([player], SEEN_EVERY_SECONDS + 1)  # the live channel's heartbeat is due
    client.get(reverse("phone:screen_live", args=[player.token]), **HTMX)
    assert ScreenSighting.objects.get(player=player).last_seen < first  # left to it
    seen_ago([player], 2 * SEEN_EVERY_SECONDS + 1)  # no heartbeat came: the poll sights
    client.get(reverse("phone:screen_live", args=[player.token]), **HTMX)
    assert ScreenSighting.objects.get(player=player).last_seen > first


def test_note_seen_sights_the_missing_and_the_stale_only(playing):
    deal = deal_at(playing, 1)
    fresh, stale, missing = (Player.objects.get(pk=pk) for pk in deal.seats[:3])
    seen_ago([fresh], 1)
    seen_ago([stale], SEEN_EVERY_SECONDS + 1)
    kept = ScreenSighting.objects.get(player=fresh).last_seen
    assert note_seen(player_ids=[fresh.pk, stale.pk, missing.pk]) == 2
    assert ScreenSighting.objects.get(player=fresh).last_seen == kept
    assert ScreenSighting.objects.filter(player__in=[stale, missing]).count() == 2
    assert not ScreenSeat.objects.filter(player__in=[fresh, stale, missing]).exists()


def test_a_player_who_just_played_is_there(playing):
    deal = deal_at(playing, 1)
    leader = Player.objects.get(pk=deal.leader_id)
    seen_ago([leader], GONE_AFTER_SECONDS * 5)
    card = deal.hands_by_player[leader.pk][0]
    play_card(player=leader, card=card, client_key=key(), device=device_of(leader))
    assert leader.name not in table_view(deal, event=playing, me=None).gone


class LaterClock:
    """time.time() moved on by ``seconds``, for the console's table page's ETag."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def time(self) -> float:
        return time.time() + self.seconds


def test_the_console_table_page_says_gone_by_the_clock_alone(signed_in, playing, monkeypatch):
    deal = deal_at(playing, 1)
    players = [Player.objects.get(pk=pk) for pk in deal.seats]
    seen_ago(players, 1)
    page = signed_in.get(reverse("organizer:table", args=[playing.pk, 1])).content.decode()
    assert "Gone for more than a minute" not in page
    etag = search(r'data-etag="([^"]+)"', page)[1].replace("&quot;", '"')
    live = reverse("organizer:table_live", args=[playing.pk, 1])
    assert signed_in.get(live, HTTP_IF_NONE_MATCH=etag, **HTMX).status_code == 304
    # A screen closed for over a minute; nothing is written meanwhile.
    to_play = Player.objects.get(pk=deal.leader_id)
    seen_ago([to_play], GONE_AFTER_SECONDS + 1)
    monkeypatch.setattr(organizer_tables, "time", LaterClock(organizer_tables.GONE_REFRESH_SECONDS))
    answer = signed_in.get(live, HTTP_IF_NONE_MATCH=etag, **HTMX)
    assert answer.status_code == 200
    assert f"Gone for more than a minute: <bdi>{to_play.name}</bdi>" in answer.content.decode()
