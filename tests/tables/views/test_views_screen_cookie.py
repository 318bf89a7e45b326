"""No seat is taken without the phone cookie: a card, a pointing, a stroke or a gesture
sent by a browser that keeps no cookie is refused with a plain reason, and whoever held
the seat (or nobody) still does."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tables.models import Gesture, Play, Pointing, ScreenSeat, Stroke
from tables.writes.screen_play import game_of
from tests import factories
from tests.screen_factories import deal_at, device_of, play_trick, screen_event
from tournament.models import Player

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}
NO_SEAT = "This browser keeps no cookie, so it cannot hold a seat."


@pytest.fixture
def playing(organizer):
    return factories.start_rounds(screen_event(owner=organizer))


def _url(name, player):
    return reverse(f"phone:{name}", args=[player.token])


def _to_play(event) -> Player:
    trick = game_of(deal_at(event, 1)).trick
    assert trick is not None
    assert trick.to_play is not None
    return Player.objects.get(pk=trick.to_play)


def _send(client, name, player, data):
    return client.post(_url(name, player), {"key": f"no-cookie-{name}", **data}, headers=HTMX)


def _action(event, name):
    """A player nobody's device holds yet, and what their screen would send."""
    player = _to_play(event)
    if name == "screen_play":
        return player, {"card": deal_at(event, 1).hands_by_player[player.pk][0]}
    if name == "screen_draw":
        return player, {"kind": "red", "points": "1,1 20,30"}
    return player, {"gesture": "yes"}


def _refused(answer) -> None:
    assert answer.status_code == 409
    assert answer["X-Action-Refused"] == "1"
    assert NO_SEAT in answer.content.decode()


@pytest.mark.parametrize("name", ["screen_play", "screen_draw", "screen_gesture"])
def test_an_action_without_the_cookie_takes_no_free_seat(playing, name):
    player, data = _action(playing, name)

    _refused(_send(Client(), name, player, data))

    assert not ScreenSeat.objects.filter(player=player).exists()
    assert not Play.objects.exists()
    assert not Stroke.objects.exists()
    assert not Gesture.objects.exists()


@pytest.mark.parametrize("name", ["screen_play", "screen_draw", "screen_gesture"])
def test_an_action_without_the_cookie_never_moves_a_held_seat(client, playing, name):
    player, data = _action(playing, name)
    client.get(_url("screen", player))  # the cookie
    client.get(_url("screen", player))  # and the seat
    holder = ScreenSeat.objects.get(player=player).device

    _refused(_send(Client(), name, player, data))

    assert ScreenSeat.objects.get(player=player).device == holder
    # The player's own screen still plays: its seat was never moved.
    assert _send(client, name, player, data)["X-Action-Stored"] == "1"


def test_a_pointing_without_the_cookie_is_refused_and_the_seat_stays(playing):
    deal, cards = play_trick(playing, 1)
    me = Player.objects.get(pk=deal.seats[0])

    answer = _send(Client(), "screen_point", me, {"card": cards[deal.seats[1]], "trick": 1})

    _refused(answer)
    assert ScreenSeat.objects.get(player=me).device == device_of(me)
    assert not Pointing.objects.exists()


def test_a_plain_form_without_the_cookie_is_told_on_the_page(playing):
    player, data = _action(playing, "screen_gesture")
    browser = Client()

    answer = browser.post(_url("screen_gesture", player), {"key": "plain-form-1", **data})

    assert answer.status_code == 302
    assert not ScreenSeat.objects.filter(player=player).exists()
    assert NO_SEAT in browser.get(answer["Location"], follow=True).content.decode()
