"""A player's pad, gestures and video link through the page: the server takes points and
pictures only, answers like a card's move, and shows each table its own video room."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tables.models import Gesture, Stroke, Table
from tests import factories
from tests.screen_factories import deal_at, screen_event
from tournament.models import Player, Seat
from tournament.writes.rounds import advance_phase

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


@pytest.fixture
def playing(organizer):
    return factories.start_rounds(screen_event(owner=organizer))


@pytest.fixture
def me(client, playing):
    player = Player.objects.get(pk=deal_at(playing, 1).seats[0])
    client.get(_url("screen", player))  # the device cookie: this browser holds the seat
    return player


def _url(name, player):
    return reverse(f"phone:{name}", args=[player.token])


def test_the_page_has_the_pad_and_the_gestures_as_labelled_pictures(client, me):
    page = client.get(_url("screen", me)).content.decode()
    assert 'id="pad"' in page
    assert 'aria-label="Gesture: raise a hand"' in page
    assert 'href="#g-hand"' in page
    assert "Drawing pad: arrow keys move the pen" in page
    assert "0 drawings" in page


def test_a_stroke_through_the_page_is_stored_once(client, me):
    data = {"key": "strokekey0001", "kind": "red", "points": "1,1 20,30"}
    first = client.post(_url("screen_draw", me), data, headers=HTMX)
    again = client.post(_url("screen_draw", me), data, headers=HTMX)
    assert first["X-Action-Stored"] == "1"
    assert again["X-Action-Stored"] == "1"
    assert Stroke.objects.count() == 1
    assert 'points="1,1 20,30"' in client.get(_url("screen", me)).content.decode()


def test_with_the_live_channel_open_the_answer_is_empty(client, me):
    data = {"key": "strokekey0002", "kind": "blue", "points": "1,1"}
    answer = client.post(_url("screen_draw", me), data, headers={**HTMX, "X-Screen-Pushed": "1"})
    assert answer.status_code == 204
    assert answer["X-Action-Stored"] == "1"


@pytest.mark.parametrize(
    "data",
    [
        {"kind": "black", "points": "the ace is low"},
        {"kind": "text", "points": "1,1", "text": "hearts"},
        {"kind": "black", "points": "data:image/png;base64,iVBORw0KGgoAAAANSUhEUg=="},
        {"kind": "black", "points": "<svg><text>trump</text></svg>"},
        {"kind": "black", "points": "1,1 " * 5000},
    ],
)
def test_the_server_takes_no_text_or_pasted_image_on_the_pad(client, me, data):
    answer = client.post(_url("screen_draw", me), {"key": "strokekey0003", **data}, headers=HTMX)
    assert answer.status_code in (400, 409)
    assert answer["X-Action-Refused"] == "1"
    assert "drawings" in answer.content.decode()
    assert not Stroke.objects.exists()


@pytest.mark.parametrize("gesture", ["hello there", "yes please", "point hearts", "<b>no</b>", ""])
def test_the_server_takes_no_text_as_a_gesture(client, me, gesture):
    answer = client.post(
        _url("screen_gesture", me), {"key": "gesturekey01", "gesture": gesture}, headers=HTMX
    )
    assert answer.status_code in (400, 409)
    assert answer["X-Action-Refused"] == "1"
    assert not Gesture.objects.exists()


def test_a_gesture_shows_beside_the_seat_on_every_screen_at_the_table(client, playing, me):
    answer = client.post(_url("screen_gesture", me), {"key": "gesturekey02", "gesture": "confused"})
    assert answer.status_code == 302  # a plain form: back to the page
    other = Player.objects.get(pk=deal_at(playing, 1).seats[2])
    page = client.get(_url("screen", other)).content.decode()
    assert f'aria-label="{me.name}: confused"' in page
    elsewhere = Player.objects.get(pk=deal_at(playing, 2).seats[0])
    assert "gesture-shown" not in client.get(_url("screen", elsewhere)).content.decode()
    assert "gesture-shown" in page


def test_the_screen_shows_the_tables_video_room(client, playing, me):
    playing.video_pattern = "https://meet.example/ft-{event}-{table}"
    playing.save(update_fields=["video_pattern"])
    page = client.get(_url("screen", me)).content.decode()
    assert f'href="https://meet.example/ft-friday-workshop-{playing.video_secret}-1"' in page
    assert "Join your table's video" in page
    Table.objects.filter(event=playing, number=1).update(video_link="https://zoom.example/j/11")
    assert 'href="https://zoom.example/j/11"' in client.get(_url("screen", me)).content.decode()


def test_after_a_move_the_screen_shows_the_new_tables_video_room(client, organizer, playing, me):
    playing.video_pattern = "https://meet.example/room-{table}"
    playing.save(update_fields=["video_pattern"])
    event = factories.close_current_round(playing, organizer)
    new_table = Seat.objects.get(player=me, round__number=2).table.number
    page = client.get(_url("screen", me)).content.decode()
    assert f'href="https://meet.example/room-{new_table}"' in page
    advance_phase(event=event)
    page = client.get(_url("screen", me)).content.decode()
    assert f'href="https://meet.example/room-{new_table}"' in page


def test_without_a_link_the_screen_says_nothing_of_video(client, me):
    assert "video" not in client.get(_url("screen", me)).content.decode().lower()


def test_the_live_channel_pushes_the_pad_and_the_gestures_with_the_tables_state(
    client, playing, me
):
    from tables.views.screen_pushed import pushed_table_state

    client.post(_url("screen_draw", me), {"key": "strokekey0009", "kind": "green", "points": "3,4"})
    client.post(_url("screen_gesture", me), {"key": "gesturekey09", "gesture": "hand"})
    version, html = pushed_table_state(deal_at(playing, 1).table_id, "fr")
    assert 'id="table-state"' in html
    assert '<g id="pad-strokes" data-pad-version="' in html
    assert 'points="3,4 3,4"' in html
    assert "1 dessin" in html  # in the language asked for
    assert 'href="#g-hand"' in html
    assert version == Table.objects.get(pk=deal_at(playing, 1).table_id).version


def test_a_cards_answer_keeps_the_pad_and_the_gestures(client, playing):
    from tables.writes.screen_play import game_of

    deal = deal_at(playing, 1)
    turn = Player.objects.get(pk=game_of(deal).trick.to_play)
    client.get(_url("screen", turn))
    card = deal.hands_by_player[turn.pk][0]
    answer = client.post(
        _url("screen_play", turn), {"card": card, "key": "cardkey000001"}, headers=HTMX
    )
    page = answer.content.decode()
    assert 'id="screen-play"' in page
    assert 'aria-label="Gesture: yes"' in page
    assert 'data-ink="red"' in page
    assert reverse("phone:screen_draw", args=[turn.token]) in page


CHOSEN = "Ace_is_HIGH_Qx7Zk_w9"  # a key a forged request chose: any 5 of it in a row is news


def _pages_others_see(client, playing, organizer) -> dict[str, str]:
    """What reaches the rest of the table: the pushed state, another seat's page and live
    part, and the console's table page."""
    from tables.views.screen_pushed import pushed_table_state

    other = Player.objects.get(pk=deal_at(playing, 1).seats[1])
    state = pushed_table_state(deal_at(playing, 1).table_id, "en")
    assert state is not None
    _version, pushed = state
    seen = {
        "pushed": pushed,
        "page": client.get(_url("screen", other)).content.decode(),
        "live": client.get(_url("screen_live", other), headers=HTMX).content.decode(),
    }
    client.force_login(organizer)
    console = reverse("organizer:table", args=[playing.pk, 1])
    return {**seen, "console": client.get(console).content.decode()}


def test_a_key_a_player_chose_never_reaches_another_players_page(client, organizer, playing, me):
    stroke = {"key": CHOSEN, "kind": "red", "points": "5,6 70,80"}
    answer = client.post(_url("screen_draw", me), stroke, headers={**HTMX, "X-Screen-Pushed": "1"})
    gesture = {"key": CHOSEN[::-1], "gesture": "yes"}
    client.post(_url("screen_gesture", me), gesture, headers={**HTMX, "X-Screen-Pushed": "1"})
    assert answer["X-Action-Stored"] == "1"
    seen = _pages_others_see(client, playing, organizer)
    for name, html in seen.items():
        assert 'points="5,6 70,80"' in html, name  # the stroke reaches them, its key does not
        for chosen in (CHOSEN, CHOSEN[::-1]):
            for start in range(len(chosen) - 4):
                assert chosen[start : start + 5] not in html, (name, chosen[start : start + 5])


def test_a_stored_strokes_answer_names_the_tables_version_its_state_holds_it_from(
    client, playing, me
):
    data = {"key": "strokekey0010", "kind": "black", "points": "9,9 10,10"}
    answer = client.post(_url("screen_draw", me), data, headers={**HTMX, "X-Screen-Pushed": "1"})
    table = Table.objects.get(pk=deal_at(playing, 1).table_id)
    assert answer["X-Table-Version"] == str(table.version)
    again = client.post(_url("screen_draw", me), data, headers={**HTMX, "X-Screen-Pushed": "1"})
    assert again["X-Action-Stored"] == "1"
    assert "X-Table-Version" not in again  # stored before: the screen takes it away at once


def test_on_the_bench_a_stroke_says_its_stages_as_a_card_does(client, me, settings):
    # tournament.common.busy.answer_action times every action of a screen, not cards only.
    data = {"key": "strokekey0011", "kind": "black", "points": "3,3 4,4"}
    quiet = client.post(_url("screen_draw", me), data, headers=HTMX)
    assert "Server-Timing" not in quiet
    settings.BENCH = True
    data = {"key": "strokekey0012", "kind": "black", "points": "5,5 6,6"}
    timed = client.post(_url("screen_draw", me), data, headers=HTMX)
    assert timed["X-Action-Stored"] == "1"
    assert [part.split(";")[0] for part in timed["Server-Timing"].split(", ")] == [
        "lock",
        "write",
        "commit",
    ]
