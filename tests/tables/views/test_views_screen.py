"""A player's screen at a screen event: the personal link, the join link, playing and
pointing through the page, and what it never says."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from tables.models import Play, Pointing, ScreenSeat
from tables.writes.screen_play import game_of
from tests import factories
from tests.screen_factories import deal_at, screen_event
from tournament.models import Phase, Player
from tournament.writes.rounds import advance_phase

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true", "X-Screen-Pushed": "1"}


@pytest.fixture
def playing(organizer):
    return factories.start_rounds(screen_event(owner=organizer))


def _url(name, player):
    return reverse(f"phone:{name}", args=[player.token])


def test_the_personal_link_shows_the_table_and_only_the_players_own_hand(client, playing):
    deal = deal_at(playing, 1)
    me = Player.objects.get(pk=deal.seats[0])
    # The first browser to open a seat nobody held takes it, once it keeps the cookie.
    page = client.get(_url("screen", me), follow=True).content.decode()
    assert "Your table" in page
    mine = deal.hands_by_player[me.pk]
    others = [c for p, hand in deal.hands_by_player.items() if p != me.pk for c in hand]
    assert all(f'id="card-{card}"' in page for card in mine)
    assert not any(f'id="card-{card}"' in page for card in others)


def test_a_card_played_through_the_page_is_stored_once(client, playing):
    deal = deal_at(playing, 1)
    me = Player.objects.get(pk=game_of(deal).trick.to_play)
    client.get(_url("screen", me))
    card = deal.hands_by_player[me.pk][2]
    data = {"card": card, "key": "abcdefgh12345678"}
    first = client.post(_url("screen_play", me), data, headers={"HX-Request": "true"})
    again = client.post(_url("screen_play", me), data, headers={"HX-Request": "true"})
    assert first.status_code == 200
    assert first["X-Action-Stored"] == "1"
    assert again["X-Action-Stored"] == "1"
    assert Play.objects.filter(deal=deal).count() == 1


def test_a_pushed_play_names_the_table_version_it_stored_at_and_a_repeat_names_none(
    client, playing
):
    # static/js/screen.js waits for a state at least this new before it stops fetching.
    deal = deal_at(playing, 1)
    me = Player.objects.get(pk=game_of(deal).trick.to_play)
    client.get(_url("screen", me))
    data = {"card": deal.hands_by_player[me.pk][0], "key": "pushedplay123456"}
    pushed = {"HX-Request": "true", "X-Screen-Pushed": "1"}
    first = client.post(_url("screen_play", me), data, headers=pushed)
    again = client.post(_url("screen_play", me), data, headers=pushed)
    deal.table.refresh_from_db()
    assert first.status_code == 204
    assert first["X-Table-Version"] == str(deal.table.version)
    assert again["X-Action-Stored"] == "1"
    assert "X-Table-Version" not in again


def test_out_of_turn_is_refused_with_a_reason_that_names_no_rule(client, playing):
    deal = deal_at(playing, 1)
    waiting = Player.objects.get(pk=game_of(deal).trick.players[2])
    client.get(_url("screen", waiting))
    data = {"card": deal.hands_by_player[waiting.pk][0], "key": "abcdefgh12345679"}
    answer = client.post(_url("screen_play", waiting), data, headers={"HX-Request": "true"})
    assert answer.status_code == 409
    assert answer["X-Action-Refused"] == "1"
    assert "Wait for your turn" in answer.content.decode()


def test_the_join_link_leads_a_picked_name_to_its_personal_link(client, playing):
    me = Player.objects.filter(event=playing).first()
    client.get(reverse("phone:player_home", args=[playing.players_token]))  # the names
    answer = client.post(
        reverse("phone:player_pick", args=[playing.players_token]), {"player": me.pk}
    )
    assert answer.status_code == 302
    assert answer["Location"] == _url("screen", me)
    assert ScreenSeat.objects.filter(player=me).exclude(device="").exists()


def test_study_shows_the_players_own_table_rules_and_practice_takes_them_away(client, organizer):
    event = advance_phase(event=screen_event(owner=organizer))
    assert event.phase == Phase.STUDY
    me = Player.objects.get(pk=deal_at(event, 1).seats[0])
    assert 'id="rules-title"' in client.get(_url("screen", me), follow=True).content.decode()
    advance_phase(event=event)
    assert 'id="rules-title"' not in client.get(_url("screen", me)).content.decode()


def test_pointing_through_the_page_is_kept(client, playing):
    from tests.screen_factories import play_trick

    deal, cards = play_trick(playing, 1)
    me = Player.objects.get(pk=deal.seats[0])
    client.get(_url("screen", me), follow=True)
    # The seat played elsewhere, from a device away for minutes: pressing takes it.
    ScreenSeat.objects.filter(player=me).update(seen_at=timezone.now() - timedelta(minutes=6))
    client.post(reverse("phone:screen_take", args=[me.token]))
    card = cards[deal.seats[1]]
    answer = client.post(
        _url("screen_point", me),
        {"card": card, "key": "pointing-key-1", "trick": 1},
        headers={"HX-Request": "true"},
    )
    assert answer["X-Action-Stored"] == "1"
    assert Pointing.objects.get(deal=deal, player=me).card == card


def test_a_link_that_is_not_a_players_is_the_friendly_404(client, playing):
    assert client.get("/t/p/nope-not-a-token/").status_code == 404


def test_without_javascript_a_refusal_is_shown_on_the_page_it_goes_back_to(client, playing):
    deal = deal_at(playing, 1)
    waiting = Player.objects.get(pk=game_of(deal).trick.players[2])
    client.get(_url("screen", waiting))
    data = {"card": deal.hands_by_player[waiting.pk][0], "key": "abcdefgh12345670"}
    answer = client.post(_url("screen_play", waiting), data, follow=True)
    assert "Wait for your turn" in answer.content.decode()


def test_a_second_device_is_offered_the_seat_and_takes_it_only_when_the_holder_frees_it(
    client, playing
):
    from django.test import Client

    me = Player.objects.get(pk=deal_at(playing, 1).seats[0])
    mine = deal_at(playing, 1).hands_by_player[me.pk]
    client.get(_url("screen", me), follow=True)  # a first visit: the cookie, then the seat
    holder = ScreenSeat.objects.get(player=me).device
    other = Client()
    preview = Client()  # a chat's link preview keeps no cookie
    for stranger in (preview, other):
        page = stranger.get(_url("screen", me), follow=True).content.decode()
        assert ScreenSeat.objects.get(player=me).device == holder
        assert 'id="take-seat"' in page
        assert not any(f'id="card-{card}"' in page for card in mine)
    other.post(reverse("phone:screen_take", args=[me.token]))
    assert ScreenSeat.objects.get(player=me).device == holder  # its holder is in use
    client.post(reverse("phone:screen_free", args=[me.token]))
    assert 'id="take-seat"' in client.get(_url("screen", me)).content.decode()
    other.post(reverse("phone:screen_take", args=[me.token]))
    assert ScreenSeat.objects.get(player=me).device not in (holder, "")
    assert 'id="seat-elsewhere"' in client.get(_url("screen", me)).content.decode()


def test_the_join_link_does_not_hand_out_a_name_another_device_plays(client, playing):
    from django.test import Client

    me = Player.objects.filter(event=playing).first()
    client.get(_url("screen", me), follow=True)  # this device plays the name now
    stranger = Client()
    stranger.get(reverse("phone:player_home", args=[playing.players_token]))
    answer = stranger.post(
        reverse("phone:player_pick", args=[playing.players_token]), {"player": me.pk}
    )
    assert answer.status_code == 409
    assert "playing on another device" in answer.content.decode()


def test_on_the_bench_a_play_says_its_stages_and_a_facilitators_server_does_not(
    client, playing, settings
):
    # tournament.common.stages: where the time goes, for bench/screen_room.py only.
    deal = deal_at(playing, 1)
    me = Player.objects.get(pk=game_of(deal).trick.to_play)
    client.get(_url("screen", me))
    hand = deal.hands_by_player[me.pk]
    quiet = client.post(_url("screen_play", me), {"card": hand[0], "key": "stagesoff1234567"})
    assert "Server-Timing" not in quiet
    settings.BENCH = True
    me = Player.objects.get(pk=game_of(deal).trick.to_play)
    card = deal.hands_by_player[me.pk][0]
    client.get(_url("screen", me))
    timed = client.post(
        _url("screen_play", me), {"card": card, "key": "stageson12345678"}, headers=HTMX
    )
    assert timed["X-Action-Stored"] == "1"
    assert [part.split(";")[0] for part in timed["Server-Timing"].split(", ")] == [
        "lock",
        "write",
        "commit",
    ]
    assert float(timed["X-Committed-At"]) > 0
