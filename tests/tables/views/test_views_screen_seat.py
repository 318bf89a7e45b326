"""A hand is seen only by the device holding its seat, and a seat changes hands only by a
visible act: the join link hands a device one free seat, a link opened without the
cookie or on another device shows no hand, "Play on this device" takes a seat only when
its holder freed it or has been away for minutes, the former device is told at once,
and the organizer's new link retires the old one.

Each request is sent as a player's browser sends it (tests.factories' Django client keeps
cookies the way a browser does; a fresh Client is another device, or a chat's preview)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tables.models import ScreenSeat
from tests import factories
from tests.screen_factories import deal_at, screen_event
from tournament.models import Player

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


@pytest.fixture
def playing(organizer):
    return factories.start_rounds(screen_event(owner=organizer))


def _url(name: str, player: Player) -> str:
    return reverse(f"phone:{name}", args=[player.token])


def _hand(event, player: Player) -> list[str]:
    return list(deal_at(event, 1).hands_by_player[player.pk])


def _shows_hand(page: str, cards: list[str]) -> bool:
    shown = [f'id="card-{card}"' in page for card in cards]
    assert all(shown) or not any(shown)  # a hand is whole or absent, never in part
    return all(shown)


def _page(client: Client, player: Player) -> str:
    return client.get(_url("screen", player), follow=True).content.decode()


def _pick(client: Client, event, player: Player):
    client.get(reverse("phone:player_home", args=[event.players_token]))  # the names
    return client.post(
        reverse("phone:player_pick", args=[event.players_token]), {"player": player.pk}
    )


def _seated(event) -> list[Player]:
    return [Player.objects.get(pk=pk) for pk in deal_at(event, 1).seats]


def test_the_join_link_hands_one_device_one_seat_and_never_a_name_in_use(playing):
    first, *others = _seated(playing)
    device = Client()
    answer = _pick(device, playing, first)
    assert answer.status_code == 302
    assert _shows_hand(_page(device, first), _hand(playing, first))
    for other in others:  # the attack: every name on the picker, from one device
        refused = _pick(device, playing, other)
        assert refused.status_code == 409
        assert other.token not in refused.content.decode()
        assert not ScreenSeat.objects.filter(player=other).exists()
    stranger = Client()
    refused = _pick(stranger, playing, first)
    assert refused.status_code == 409
    assert first.token not in refused.content.decode()
    assert ScreenSeat.objects.filter(player__event=playing).count() == 1


def test_a_pick_without_the_device_cookie_hands_out_nothing(playing):
    me = _seated(playing)[0]
    answer = Client().post(
        reverse("phone:player_pick", args=[playing.players_token]), {"player": me.pk}
    )
    assert answer.status_code == 409
    assert me.token not in answer.content.decode()
    assert not ScreenSeat.objects.exists()


def test_a_link_opened_without_the_cookie_never_shows_a_hand(playing):
    me = _seated(playing)[0]
    cards = _hand(playing, me)
    preview = Client()  # keeps no cookie: every request is its first
    for _ in range(3):
        first = preview.get(_url("screen", me))
        assert first.status_code == 302
        preview.cookies.clear()
        page = preview.get(first["Location"]).content.decode()
        preview.cookies.clear()
        assert not _shows_hand(page, cards)
        assert 'id="take-seat"' in page
    assert not ScreenSeat.objects.filter(player=me).exists()
    holder = Client()
    assert _shows_hand(_page(holder, me), cards)  # the player's own browser, with its cookie
    assert not _shows_hand(preview.get(_url("screen", me) + "?c=1").content.decode(), cards)
    live = preview.get(_url("screen_live", me), headers=HTMX).content.decode()
    assert not _shows_hand(live, cards)


def test_a_holder_quiet_for_a_minute_keeps_the_seat(playing):
    me = _seated(playing)[0]
    cards = _hand(playing, me)
    phone, attacker = Client(), Client()
    _page(phone, me)
    ScreenSeat.objects.filter(player=me).update(seen_at=timezone.now() - timedelta(seconds=61))
    for _ in range(2):
        assert not _shows_hand(_page(attacker, me), cards)
    pressed = attacker.post(_url("screen_take", me), follow=True).content.decode()
    assert "Your seat is in use on another device" in pressed
    assert not _shows_hand(pressed, cards)
    assert _shows_hand(_page(phone, me), cards)


def test_a_seat_moves_at_a_press_and_the_former_device_is_told_at_once(playing):
    me = _seated(playing)[0]
    cards = _hand(playing, me)
    phone, laptop = Client(), Client()
    _page(phone, me)
    live = phone.get(_url("screen_live", me), headers=HTMX)
    etag = live["ETag"]
    assert (
        phone.get(_url("screen_live", me), headers=HTMX, HTTP_IF_NONE_MATCH=etag).status_code == 304
    )
    _page(laptop, me)
    # The phone frees the seat (its holder's agreement), the laptop presses and takes it.
    phone.post(_url("screen_free", me))
    assert not _shows_hand(_page(phone, me), cards)
    assert _shows_hand(laptop.post(_url("screen_take", me), follow=True).content.decode(), cards)
    told = phone.get(_url("screen_live", me), headers=HTMX, HTTP_IF_NONE_MATCH=etag)
    assert told.status_code == 200
    page = told.content.decode()
    assert 'id="seat-elsewhere"' in page
    assert not _shows_hand(page, cards)


def test_a_holder_away_for_minutes_can_be_replaced_by_a_press_only(playing):
    me = _seated(playing)[0]
    cards = _hand(playing, me)
    lost, found = Client(), Client()
    _page(lost, me)
    ScreenSeat.objects.filter(player=me).update(seen_at=timezone.now() - timedelta(minutes=6))
    assert not _shows_hand(_page(found, me), cards)  # opening the link takes nothing
    assert _shows_hand(found.post(_url("screen_take", me), follow=True).content.decode(), cards)
    assert 'id="seat-elsewhere"' in _page(lost, me)


def test_the_organizers_new_link_retires_the_old_one_and_frees_the_seat(signed_in, playing):
    me = _seated(playing)[0]
    cards = _hand(playing, me)
    old_url = _url("screen", me)
    intruder, player = Client(), Client()
    assert _shows_hand(_page(intruder, me), cards)
    links = reverse("organizer:player_links", args=[playing.pk])
    assert reverse("organizer:player_new_link", args=[playing.pk, me.pk]) in (
        signed_in.get(links).content.decode()
    )
    answer = signed_in.post(reverse("organizer:player_new_link", args=[playing.pk, me.pk]))
    assert answer.status_code == 302
    me.refresh_from_db()
    assert _url("screen", me) != old_url
    gone = intruder.get(old_url + "live/", headers=HTMX)
    assert gone.status_code == 404
    assert gone["HX-Refresh"] == "true"
    assert intruder.get(old_url, follow=True).status_code == 404
    # A move its screen's outbox still holds is refused as a move is (static/js/outbox.js).
    move = intruder.post(old_url + "play/", {"card": cards[0], "key": "oldlinkmove1"}, headers=HTMX)
    assert move.status_code == 404
    assert move["X-Action-Refused"] == "1"
    assert _shows_hand(_page(player, me), cards)
    assert _url("screen", me) in signed_in.get(links).content.decode()


def test_only_the_events_organizer_gives_a_new_link(client, playing, django_user_model):
    me = _seated(playing)[0]
    token = me.token
    client.force_login(factories.make_organizer(django_user_model, "eve"))
    client.post(reverse("organizer:player_new_link", args=[playing.pk, me.pk]))
    me.refresh_from_db()
    assert me.token == token


def test_the_player_page_gives_a_new_link_and_comes_back_to_it(signed_in, playing):
    me = _seated(playing)[0]
    token = me.token
    page_url = reverse("organizer:player", args=[playing.pk, me.pk])
    assert 'id="new-link"' in signed_in.get(page_url).content.decode()
    answer = signed_in.post(
        reverse("organizer:player_new_link", args=[playing.pk, me.pk]), {"next": page_url}
    )
    assert answer["Location"] == page_url
    me.refresh_from_db()
    assert me.token != token
    assert "has a new link" in signed_in.get(page_url).content.decode()
