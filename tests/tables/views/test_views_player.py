"""A player's own page: pick your name once, then see your table, and where to go next."""

from __future__ import annotations

import html as html_module
import re

import pytest
from django.test import Client
from django.urls import reverse

from tests import factories
from tournament.models import Player, PlayerStatus, Seat
from tournament.writes.finishing import finish_event
from tournament.writes.rounds import ClockAction, change_clock

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def body(response) -> str:
    return html_module.unescape(response.content.decode())


def home_url(event) -> str:
    return reverse("phone:player_home", args=[event.players_token])


def pick(client: Client, event, player: Player):
    return client.post(
        reverse("phone:player_pick", args=[event.players_token]), {"player": player.pk}
    )


def seat_of(player: Player, round_number: int) -> Seat:
    return Seat.objects.select_related("table").get(player=player, round__number=round_number)


@pytest.fixture
def event(organizer):
    return factories.seated_event(owner=organizer, players=8, tables=2)


def test_the_url_name_the_projector_uses_is_stable(event):
    assert home_url(event) == f"/t/me/{event.players_token}/"


def test_a_new_phone_is_asked_for_its_name_from_the_roster(client, event):
    html = body(client.get(home_url(event)))

    assert "Who are you?" in html
    for player in event.players.all():
        assert player.name in html


def test_a_long_roster_asks_for_a_few_letters_and_finds_names_without_accents(client, organizer):
    names = [*factories.names(60), "Émilie Durand"]
    event = factories.seated_event(owner=organizer, players=names, tables=15)

    first = body(client.get(home_url(event)))
    found = body(
        client.get(reverse("phone:player_names", args=[event.players_token]), {"q": "emil"})
    )

    assert "Type a few letters of your name (61 players)." in first
    assert "Player 001" not in first
    assert "Émilie Durand" in found
    assert "Player 001" not in found


def test_picking_a_name_remembers_it_and_shows_the_home_table(client, event):
    player = event.players.first()

    response = pick(client, event, player)
    html = body(client.get(home_url(event)))

    assert response.status_code == 302
    assert player.name in html
    table_number = seat_of(player, 1).table.number
    assert re.search(rf'class="table-number">{table_number}<', html)
    assert f"Your home table is table {table_number}." in html


def test_not_me_shows_the_names_again(client, event):
    pick(client, event, event.players.first())
    assert "Who are you?" in body(client.get(home_url(event) + "?pick=1"))


def test_a_forged_cookie_is_ignored(event):
    phone = Client()
    phone.cookies[f"ft-player-{event.pk}"] = str(event.players.first().pk)
    assert "Who are you?" in body(phone.get(home_url(event)))


def test_picking_a_name_of_another_event_is_refused(client, event, organizer):
    other = factories.seated_event(owner=organizer, players=4, tables=1, name="Other")

    response = pick(client, event, other.players.first())

    assert response.status_code == 400
    assert "That name is not on the list" in body(response)


def test_a_removed_player_is_asked_to_pick_again(client, event):
    player = event.players.first()
    pick(client, event, player)
    Player.objects.filter(pk=player.pk).update(status=PlayerStatus.REMOVED)
    assert "Who are you?" in body(client.get(home_url(event)))


def test_during_a_round_the_page_shows_the_table_and_games_won(client, event):
    event = factories.start_rounds(event)
    player = event.players.first()
    factories.report(event, seat_of(player, 1).table.number, player)
    pick(client, event, player)

    html = body(client.get(home_url(event)))

    assert f"Play at table {seat_of(player, 1).table.number}." in html
    assert "You have won 1 game this round." in html


TIME_UP = "Time is up: finish the trick in play, then report."  # the projector's words too


def test_when_time_is_up_the_page_says_to_finish_the_trick_instead_of_play(client, event):
    event = factories.start_rounds(event)
    player = event.players.first()
    pick(client, event, player)
    running = body(client.get(home_url(event)))
    change_clock(event=event, action=ClockAction.TIME_UP)

    up = body(client.get(home_url(event)))

    table_number = seat_of(player, 1).table.number
    # While the clock runs both are there: clock.js swaps them at 0:00 (CSS only).
    assert f'class="lead until-time-up">Play at table {table_number}.' in running
    assert f'class="notice notice-warn time-up-note">{TIME_UP}' in running
    assert f'class="notice notice-warn time-up-note is-up">{TIME_UP}' in up
    assert f"Play at table {table_number}." not in up


def test_after_a_close_the_page_shows_where_to_go_and_why(client, event, organizer):
    event = factories.start_rounds(event)
    player = event.players.first()
    factories.report(event, seat_of(player, 1).table.number, player)
    event = factories.play_until(event, "between", by=organizer)
    pick(client, event, player)

    html = body(client.get(home_url(event)))

    after = seat_of(player, 2)
    assert "Next round" in html
    assert re.search(
        rf'"visually-hidden">Table {after.table.number}</span>'
        rf'<span aria-hidden="true">{after.table.number}</span></p>',
        html,
    )
    assert after.get_reason_display() in html


def test_no_rules_on_the_player_page_even_in_study(client, event):
    from tables.rules.rule_sheets import rule_sheet

    event = factories.play_until(event, "study")
    player = event.players.first()
    pick(client, event, player)

    html = body(client.get(home_url(event)))

    sheet = rule_sheet(seat_of(player, 1).table.variant)
    assert f"Study time at table {seat_of(player, 1).table.number}" in html
    assert not any(section.text in html for section in sheet.sections)


def test_study_says_players_read_the_rules_and_play_practice_games_while_they_may_talk(
    client, event
):
    event = factories.play_until(event, "study")
    pick(client, event, event.players.first())

    html = body(client.get(home_url(event)))

    assert "read the rules together and play practice games with them" in html
    assert "You may still talk." in html
    assert "They are taken away when study time ends" in html
    assert 'class="silence"' not in html


SILENCE = ["No talking", "No written words", "No sign language", "Gestures are fine",
           "Drawings are fine"]  # fmt: skip


@pytest.mark.parametrize("phase", ["practice", "round", "between"])
def test_every_silent_phase_says_gestures_and_drawings_are_fine(client, event, organizer, phase):
    event = factories.play_until(event, phase, by=organizer)
    pick(client, event, event.players.first())

    html = body(client.get(home_url(event)))

    assert html.count('class="silence"') == 1
    for rule in SILENCE:
        assert rule in html
    assert "No speaking, no writing" not in html


@pytest.mark.parametrize("phase", ["setup", "study", "round", "debrief"])
def test_the_page_has_one_h1_and_a_status_region_outside_the_swapped_part(
    client, event, organizer, phase
):
    event = factories.play_until(event, phase, by=organizer)
    player = event.players.first()
    pick(client, event, player)

    html = body(client.get(home_url(event)))
    live = body(client.get(reverse("phone:player_live", args=[event.players_token]), **HTMX))

    assert len(re.findall(r"<h1[ >]", html)) == 1
    assert re.search(r'<span class="table-label">Your table</span> <b[^>]*>\d+</b></h1>', html)
    region = '<p id="announce" class="visually-hidden" role="status" aria-live="polite"></p>'
    assert html.index(region) < html.index('<section id="live"')
    assert 'id="announce"' not in live


def test_the_live_part_answers_304_when_nothing_changed(
    client, event, django_assert_max_num_queries
):
    pick(client, event, event.players.first())
    live = reverse("phone:player_live", args=[event.players_token])
    raw = client.get(live, **HTMX).content.decode()
    etag = html_module.unescape(re.search(r'data-etag="([^"]+)"', raw)[1])

    # The event's shared version, then the version of this player's table.
    with django_assert_max_num_queries(2):
        assert client.get(live, HTTP_IF_NONE_MATCH=etag, **HTMX).status_code == 304


def test_a_report_at_another_table_leaves_the_page_unchanged(client, organizer):
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))
    me = event.current_round.seats.select_related("player", "table").first()
    pick(client, event, me.player)
    live = reverse("phone:player_live", args=[event.players_token])
    raw = client.get(live, **HTMX).content.decode()
    etag = html_module.unescape(re.search(r'data-etag="([^"]+)"', raw)[1])
    other = event.current_round.seats.exclude(table=me.table).select_related("player").first()

    factories.report(event, other.table.number, other.player)
    assert client.get(live, HTTP_IF_NONE_MATCH=etag, **HTMX).status_code == 304

    factories.report(event, me.table.number, me.player)
    assert client.get(live, HTTP_IF_NONE_MATCH=etag, **HTMX).status_code == 200


def test_the_live_part_sends_a_phone_without_a_name_back_to_the_list(client, event):
    live = reverse("phone:player_live", args=[event.players_token])
    response = client.get(live, **HTMX)
    assert response["HX-Redirect"] == home_url(event)


def test_the_debrief_polls_for_its_questions_until_the_event_is_finished(client, organizer):
    event = factories.seated_event(owner=organizer, players=8, tables=2, rounds_planned=1)
    event = factories.play_until(event, "debrief", by=organizer)
    pick(client, event, event.players.first())
    live = reverse("phone:player_live", args=[event.players_token])
    assert client.get(live, **HTMX).status_code == 200
    finish_event(event=event)
    assert client.get(live, **HTMX).status_code == 286


@pytest.mark.parametrize("players", [20, 500])
def test_the_page_costs_the_same_at_any_event_size(
    client, organizer, players, django_assert_max_num_queries
):
    event = factories.seated_event(owner=organizer, players=players, tables=players // 4)
    event = factories.play_until(event, "between", by=organizer)
    pick(client, event, event.players.first())
    url = home_url(event)

    with django_assert_max_num_queries(4):
        assert "Next round" in body(client.get(url))


def test_an_unknown_players_link_gets_a_friendly_404(client, db):
    response = client.get(reverse("phone:player_home", args=["no-such-token"]))
    assert response.status_code == 404
    assert "Scan the QR code on the big screen again, or ask the organizer." in body(response)


@pytest.mark.parametrize("token", ["a b", "x" * 65, "ü", "²"])
@pytest.mark.parametrize("view", ["player_home", "player_live", "player_names"])
def test_a_mangled_players_link_is_a_404_before_any_query(
    client, db, token, view, django_assert_num_queries
):
    with django_assert_num_queries(0):
        response = client.get(reverse(f"phone:{view}", args=[token]), **HTMX)
    assert response.status_code == 404
