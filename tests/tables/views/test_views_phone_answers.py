"""What a report's answer says of it, so a phone's outbox (static/js/phone.js) knows whether
to forget it (stored, or refused for a reason) or to send it again (anything else); a
report sent again counts once; a stale form answers the game it asked about; the test-only
fault switch; and the tricks a confirming phone sees."""

from __future__ import annotations

import sys

import pytest
from django.test import Client

from tables.models import Game, GameReport, GameStatus
from tables.views.report_answers import REFUSED_HEADER, REFUSED_STATUS, STORED_HEADER
from tests import factories
from tests.factories import seated_players, table
from tests.tables.views.test_views_phone import (
    HTMX,
    body,
    form_fields,
    page_url,
    report_url,
    tricks_url,
)
from tournament.common import fault_switch

pytestmark = pytest.mark.django_db


@pytest.fixture
def playing(organizer):
    return factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))


@pytest.fixture
def no_faults():
    yield
    fault_switch.fail_next_reports(0)


# --- stored: the phone forgets the report ------------------------------------------------


@pytest.mark.parametrize("headers", [HTMX, {}], ids=["script", "plain form"])
def test_a_stored_report_is_answered_with_its_key(client, playing, headers):
    alice = seated_players(playing, 1)[0]
    fields = {**form_fields(body(client.get(page_url(playing, 1)))), "winner": alice.pk}

    response = client.post(report_url(playing, 1), fields, **headers)

    assert response[STORED_HEADER] == fields["client_key"]
    assert REFUSED_HEADER not in response


def test_a_report_sent_again_after_it_was_stored_counts_once(playing):
    """The answer was lost on the way back: the phone kept the report and sends it again,
    after another phone has meanwhile reported the next game."""
    phone_a = Client()
    alice, bob = seated_players(playing, 1)[:2]
    fields = {**form_fields(body(phone_a.get(page_url(playing, 1)))), "winner": alice.pk}
    phone_a.post(report_url(playing, 1), fields, **HTMX)
    factories.report(playing, 1, bob)

    again = phone_a.post(report_url(playing, 1), fields, **HTMX)

    assert again[STORED_HEADER] == fields["client_key"]
    assert f"Game 1 recorded: {alice.name} won." in body(again)
    assert GameReport.objects.filter(client_key=fields["client_key"]).count() == 1
    assert [(game.number, game.winner) for game in Game.objects.order_by("number")] == [
        (1, alice),
        (2, bob),
    ]


def test_tricks_stored_are_answered_with_their_key(client, playing):
    players = seated_players(playing, 1)
    fields = form_fields(body(client.get(tricks_url(playing, 1))), "tricks")

    response = client.post(
        tricks_url(playing, 1), {**fields, f"tricks_{players[1].pk}": "3"}, **HTMX
    )

    assert response.status_code == 200
    assert response[STORED_HEADER] == fields["client_key"]
    assert f"Game 1 recorded: {players[1].name} won." in body(response)


# --- refused: shown, never sent again ----------------------------------------------------


def test_a_refusal_is_a_marked_4xx_with_its_reason(client, playing):
    elsewhere = seated_players(playing, 2)[0]
    fields = form_fields(body(client.get(page_url(playing, 1))))

    response = client.post(report_url(playing, 1), {**fields, "winner": elsewhere.pk}, **HTMX)

    assert response.status_code == REFUSED_STATUS
    assert response[REFUSED_HEADER] == "1"
    assert STORED_HEADER not in response
    assert "not seated at this table" in body(response)
    assert 'id="live"' in body(response)  # the page to show, with the reason in it


def test_without_javascript_a_refusal_still_redirects_with_its_reason(playing):
    phone = Client()
    elsewhere = seated_players(playing, 2)[0]
    fields = form_fields(body(phone.get(page_url(playing, 1))))

    response = phone.post(report_url(playing, 1), {**fields, "winner": elsewhere.pk})

    assert response.status_code == 302
    assert "not seated at this table" in body(phone.get(response.url))


def test_tricks_that_do_not_fit_are_a_marked_refusal(client, playing):
    players = seated_players(playing, 1)
    fields = form_fields(body(client.get(tricks_url(playing, 1))), "tricks")

    response = client.post(
        tricks_url(playing, 1),
        {**fields, f"tricks_{players[0].pk}": "6", f"tricks_{players[1].pk}": "5"},
        **HTMX,
    )

    assert response.status_code == 400
    assert response[REFUSED_HEADER] == "1"
    assert "a game at this table has only 7" in body(response)


def test_tricks_for_a_round_that_does_not_exist_are_a_marked_refusal(client, playing):
    fields = form_fields(body(client.get(tricks_url(playing, 1))), "tricks")

    response = client.post(tricks_url(playing, 1), {**fields, "round_number": "9"}, **HTMX)

    assert response.status_code == REFUSED_STATUS
    assert response[REFUSED_HEADER] == "1"
    assert "No game can be reported at this table now." in body(response)


def test_a_report_to_a_rotated_link_is_a_marked_refusal(client, playing):
    alice = seated_players(playing, 1)[0]
    fields = form_fields(body(client.get(page_url(playing, 1))))
    url = report_url(playing, 1)
    one = table(playing, 1)
    one.rotate_token()

    response = client.post(url, {**fields, "winner": alice.pk}, **HTMX)

    assert response.status_code == 404
    assert response[REFUSED_HEADER] == "1"
    assert response["HX-Refresh"] == "true"


# --- a stale form answers the game it asked about -----------------------------------------


@pytest.mark.parametrize("same_winner", [True, False], ids=["confirms", "disputes"])
def test_a_stale_game_3_form_answers_game_3_never_game_4(playing, same_winner):
    phone_a, phone_b = Client(), Client()
    players = seated_players(playing, 1)
    for winner in players[:2]:
        factories.report(playing, 1, winner)
    stale = form_fields(body(phone_b.get(page_url(playing, 1))))
    assert stale["game_number"] == "3"
    jamal = players[2]
    phone_a.post(
        report_url(playing, 1),
        {**form_fields(body(phone_a.get(page_url(playing, 1)))), "winner": jamal.pk},
        **HTMX,
    )

    tapped = jamal if same_winner else players[3]
    response = phone_b.post(report_url(playing, 1), {**stale, "winner": tapped.pk}, **HTMX)

    html = body(response)
    assert response[STORED_HEADER] == stale["client_key"]
    assert not Game.objects.filter(number=4).exists()
    game = Game.objects.get(number=3)
    if same_winner:
        assert game.status == GameStatus.CONFIRMED
        assert f"Game 3 confirmed: {jamal.name} won." in html
    else:
        assert game.status == GameStatus.DISPUTED
        assert "Game 3: another phone named someone else" in html
    assert GameReport.objects.filter(game_number=3).count() == 2


def test_stale_tricks_of_game_1_answer_game_1(client, playing):
    players = seated_players(playing, 1)
    fields = form_fields(body(client.get(tricks_url(playing, 1))), "tricks")
    factories.report(playing, 1, players[1])

    client.post(tricks_url(playing, 1), {**fields, f"tricks_{players[0].pk}": "4"}, **HTMX)

    assert list(Game.objects.values_list("number", "status")) == [(1, GameStatus.DISPUTED)]


def test_the_page_names_the_question_its_buttons_answer(client, playing):
    factories.report(playing, 1, seated_players(playing, 1)[0])

    html = body(client.get(page_url(playing, 1)))

    assert 'data-asked="1.2"' in html  # round 1, game 2: phone.js locks when it changes
    assert 'data-confirm-game="1.1"' in html


# --- the confirming phone sees what it confirms -------------------------------------------


def test_a_phone_asked_to_confirm_tricks_sees_the_tricks(client, playing):
    players = seated_players(playing, 1)
    counts = dict(zip(players, [1, 3, 0, 2], strict=True))
    factories.report(playing, 1, None, tricks=counts)
    winner = players[1]

    html = body(client.get(page_url(playing, 1)))

    assert f"Another phone says <b><bdi>{winner.name}</bdi></b> won game 1." in html
    shown = ", ".join(
        f'<span class="trick-count"><bdi>{player.name}</bdi> {count}</span>'
        for player, count in counts.items()
    )
    assert f"Tricks so far: {shown}" in html


def test_a_one_tap_report_to_confirm_shows_no_tricks(client, playing):
    factories.report(playing, 1, seated_players(playing, 1)[0])

    assert "Tricks so far" not in body(client.get(page_url(playing, 1)))


# --- the test-only fault switch -----------------------------------------------------------


def test_the_fault_switch_fails_reports_n_times_then_lets_them_through(client, playing, no_faults):
    alice = seated_players(playing, 1)[0]
    fields = {**form_fields(body(client.get(page_url(playing, 1)))), "winner": alice.pk}
    fault_switch.fail_next_reports(2)

    answers = [client.post(report_url(playing, 1), fields, **HTMX) for _ in range(3)]

    assert [answer.status_code for answer in answers] == [500, 500, 200]
    assert STORED_HEADER not in answers[0]
    assert GameReport.objects.count() == 1


def test_the_fault_switch_is_ignored_outside_development_and_tests(
    client, playing, no_faults, settings, monkeypatch
):
    settings.DEBUG = False
    monkeypatch.delitem(sys.modules, "pytest")  # as on a production server
    alice = seated_players(playing, 1)[0]
    fields = {**form_fields(body(client.get(page_url(playing, 1)))), "winner": alice.pk}
    fault_switch.fail_next_reports(2)

    response = client.post(report_url(playing, 1), fields, **HTMX)

    assert response.status_code == 200
    assert GameReport.objects.count() == 1
