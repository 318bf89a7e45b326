"""A table's phone page: each phase, one-tap reports, confirmations, disputes, late
reports, tricks, polling (304 / 286), bad links, and a page that costs the same at any size."""

from __future__ import annotations

import html as html_module
import re
from datetime import timedelta

import pytest
from django.db.models import F
from django.test import Client
from django.urls import reverse

from tables.models import Game, GameReport, GameStatus, ReportState
from tables.rules.rule_sheets import rule_sheet
from tables.writes import second_taps
from tables.writes.second_taps import CONFIRMATION_WINDOW
from tests import factories
from tests.factories import seated_players, table
from tests.matching import search
from tournament.models import Event, Player, Seat
from tournament.writes.finishing import finish_event
from tournament.writes.rounds import ClockAction, change_clock, undo_close_round

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def page_url(event, number: int) -> str:
    return reverse("phone:table", args=[table(event, number).token])


def live_url(event, number: int) -> str:
    return reverse("phone:table_live", args=[table(event, number).token])


def report_url(event, number: int) -> str:
    return reverse("phone:report", args=[table(event, number).token])


def tricks_url(event, number: int) -> str:
    return reverse("phone:tricks", args=[table(event, number).token])


def body(response) -> str:
    """The page as text: entities decoded, so rule text compares as written."""
    return html_module.unescape(response.content.decode())


def next_round_tables(event) -> dict[Player, int]:
    return {
        seat.player: seat.table.number
        for seat in Seat.objects.filter(
            round__event=event, round__number=event.round_number + 1
        ).select_related("player", "table")
    }


def etag_of(response) -> str:
    """The ETag the polled element carries, as poll.js sends it back."""
    return html_module.unescape(search(r'data-etag="([^"]+)"', response.content.decode())[1])


def polled_url(html: str) -> str:
    """The URL the live part polls next, as htmx reads it from the page."""
    return html_module.unescape(search(r'id="live"[^>]*hx-get="([^"]+)"', html)[1])


def form_fields(html: str, form_class: str = "report") -> dict[str, str]:
    """The hidden fields of the first form with that class, as a browser would send them."""
    start = html.index(f'class="{form_class}"')
    form = html[start : html.index("</form>", start)]
    return dict(re.findall(r'type="hidden" name="(\w+)" value="([^"]*)"', form))


@pytest.fixture
def event(organizer):
    return factories.seated_event(owner=organizer, players=8, tables=2)


@pytest.fixture
def playing(event):
    return factories.start_rounds(event)


# --- each phase ---------------------------------------------------------------------------


def test_setup_shows_the_table_and_who_sits_there_but_no_rules(client, event):
    response = client.get(page_url(event, 1))

    html = body(response)
    assert response.status_code == 200
    assert 'class="table-number">1<' in html
    assert "has not started yet" in html
    for player in seated_players(event, 1):
        assert player.name in html
    assert not any(s.text in html for s in rule_sheet(table(event, 1).variant).sections)


def test_study_shows_this_tables_full_rules_and_the_deal_for_its_size(client, event):
    event = factories.play_until(event, "study")
    variant = table(event, 1).variant
    sheet = rule_sheet(variant, players=len(seated_players(event, 1)))

    html = body(client.get(page_url(event, 1)))

    assert sheet.deal in html
    for section in sheet.sections:
        assert section.heading in html
        assert section.text in html
    # The deal at every size players may meet after moves, this table's own size marked.
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", html.split("<tbody>")[1].split("</tbody>")[0])
    cells = [[t.strip() for t in re.split(r"<[^>]+>", row) if t.strip()] for row in rows]
    assert cells == [
        ["3", "7", "7", "all"],
        ["▶", "4", "(this table now)", "7", "7", "all"],
        ["5", "6 or 5", "6", "3 of 5"],
        ["6", "5 or 4", "5", "4 of 6"],
        ["7", "4", "4", "all"],
    ]
    assert "data-clock-seconds" in html


def test_practice_shows_who_sits_here_and_says_games_are_not_scored(client, event):
    event = factories.play_until(event, "practice")

    html = body(client.get(page_url(event, 1)))

    assert "Practice: games are not scored." in html
    assert 'name="winner"' not in html
    for player in seated_players(event, 1):
        assert player.name in html


# --- the silence rule, and study as study and practice --------------------------------------

SILENCE = ["No talking", "No written words", "No sign language", "Gestures are fine",
           "Drawings are fine"]  # fmt: skip


def test_study_says_players_read_the_rules_and_play_practice_games_while_they_may_talk(
    client, event
):
    event = factories.play_until(event, "study")

    html = body(client.get(page_url(event, 1)))

    assert "read the rules together and play practice games with them" in html
    assert "You may still talk." in html
    assert "the rules are taken away from this page and the table" in html
    assert 'class="silence"' not in html  # talking is allowed until study ends
    assert "No speaking, no writing" not in html


@pytest.mark.parametrize("phase", ["practice", "round", "between"])
def test_every_silent_phase_says_gestures_and_drawings_are_fine(client, event, organizer, phase):
    event = factories.play_until(event, phase, by=organizer)

    html = body(client.get(page_url(event, 1)))

    assert html.count('class="silence"') == 1
    for rule in SILENCE:
        assert rule in html
    assert "No speaking, no writing" not in html


@pytest.mark.parametrize("phase", ["setup", "study", "debrief"])
def test_the_silence_rule_is_not_shown_while_players_may_talk(client, event, organizer, phase):
    event = factories.play_until(event, phase, by=organizer)

    assert 'class="silence"' not in body(client.get(page_url(event, 1)))


# --- accessibility ------------------------------------------------------------------------


@pytest.mark.parametrize("phase", ["setup", "study", "practice", "round", "between", "debrief"])
def test_each_phase_has_one_h1_naming_the_table(client, event, organizer, phase):
    event = factories.play_until(event, phase, by=organizer)

    html = body(client.get(page_url(event, 1)))

    assert len(re.findall(r"<h1[ >]", html)) == 1
    assert re.search(r'<h1 [^>]*><span class="table-label">Table</span> <b[^>]*>1</b></h1>', html)


def test_the_tricks_page_has_one_h1_too(client, playing):
    assert len(re.findall(r"<h1[ >]", body(client.get(tricks_url(playing, 1))))) == 1


def test_the_status_region_stays_outside_the_part_that_is_swapped(client, playing):
    alice = seated_players(playing, 1)[0]
    page = body(client.get(page_url(playing, 1)))
    reported = body(
        client.post(report_url(playing, 1), {**form_fields(page), "winner": alice.pk}, **HTMX)
    )

    region = '<p id="announce" class="visually-hidden" role="status" aria-live="polite"></p>'
    assert page.count(region) == 1
    assert page.index(region) < page.index('<section id="live"')
    assert 'id="announce"' not in reported  # the swapped part never replaces it
    # The notice is shown in the page (no JS) and marked for phone.js to read out; no live
    # role of its own, or a screen reader that does hear it would hear it twice.
    notice = re.search(r'<p class="notice notice-good"([^>]*)>Game 1 recorded', reported)
    assert notice is not None
    assert "data-notice" in notice[1]
    assert "role=" not in notice[1]


def test_a_winner_button_is_named_by_the_player_alone_with_the_tally_as_its_description(
    client, playing
):
    alice, bob = seated_players(playing, 1)[:2]
    factories.report(playing, 1, alice)
    factories.report(playing, 1, alice)

    html = body(client.get(page_url(playing, 1)))

    button = re.search(rf'<button [^>]*id="winner-{alice.pk}"[^>]*>(.*?)</button>', html)
    assert f'aria-describedby="wins-{alice.pk}"' in button[0]
    assert '<span class="tally" aria-hidden="true">2</span>' in button[1]
    assert f'<span id="wins-{alice.pk}" hidden>2 games won this round</span>' in button[1]
    no_wins = re.search(rf'<button [^>]*id="winner-{bob.pk}"[^>]*>(.*?)</button>', html)
    assert "aria-describedby" not in no_wins[0]
    assert no_wins[1] == f'<bdi class="name">{bob.name}</bdi>'


def test_a_round_offers_game_one_with_a_button_per_seated_player(client, playing):
    html = body(client.get(page_url(playing, 1)))

    assert "Game 1: who won?" in html
    buttons = re.findall(r'name="winner" value="(\d+)"', html)
    assert sorted(map(int, buttons)) == sorted(p.pk for p in seated_players(playing, 1))
    assert tricks_url(playing, 1) in html


def test_the_page_is_never_cached(client, playing):
    response = client.get(page_url(playing, 1))
    assert "no-store" in response["Cache-Control"]


# --- reporting ---------------------------------------------------------------------------


def test_one_tap_records_the_game_and_offers_the_next(client, playing):
    alice = seated_players(playing, 1)[0]
    fields = form_fields(body(client.get(page_url(playing, 1))))

    response = client.post(report_url(playing, 1), {**fields, "winner": alice.pk}, **HTMX)

    html = body(response)
    assert response.status_code == 200
    assert f"Game 1 recorded: {alice.name} won." in html
    assert "Game 2: who won?" in html
    game = Game.objects.get()
    assert (game.number, game.winner, game.status) == (1, alice, GameStatus.UNCONFIRMED)
    assert form_fields(html)["client_key"] != fields["client_key"]


def test_a_double_tap_stores_one_game_and_shows_the_same_result(client, playing):
    alice = seated_players(playing, 1)[0]
    fields = {**form_fields(body(client.get(page_url(playing, 1)))), "winner": alice.pk}

    first = body(client.post(report_url(playing, 1), fields, **HTMX))
    second = body(client.post(report_url(playing, 1), fields, **HTMX))

    assert Game.objects.count() == 1
    assert GameReport.objects.count() == 1
    assert f"Game 1 recorded: {alice.name} won." in first
    assert f"Game 1 recorded: {alice.name} won." in second


def test_without_javascript_a_report_redirects_to_the_page_with_its_result(playing):
    phone = Client(enforce_csrf_checks=True)  # phones have no session: no CSRF cookie needed
    alice = seated_players(playing, 1)[0]
    fields = form_fields(body(phone.get(page_url(playing, 1))))

    response = phone.post(report_url(playing, 1), {**fields, "winner": alice.pk}, follow=True)

    assert response.redirect_chain == [(page_url(playing, 1), 302)]
    html = body(response)
    assert f"Game 1 recorded: {alice.name} won." in html
    assert "Game 2: who won?" in html


def test_a_second_phone_is_asked_to_confirm_and_confirms_in_one_tap(playing):
    phone_a, phone_b = Client(), Client()
    alice = seated_players(playing, 1)[0]
    fields = form_fields(body(phone_a.get(page_url(playing, 1))))
    own = phone_a.post(report_url(playing, 1), {**fields, "winner": alice.pk}, **HTMX)
    assert "confirm-box" not in body(own)  # never ask a phone to confirm itself
    assert "confirm-box" not in body(phone_a.get(page_url(playing, 1)))

    html = body(phone_b.get(page_url(playing, 1)))
    assert f"Another phone says <b><bdi>{alice.name}</bdi></b> won game 1." in html
    confirm = form_fields(html, "confirm-box")
    response = phone_b.post(report_url(playing, 1), {**confirm, "winner": alice.pk}, **HTMX)

    assert "Game 1 confirmed" in body(response)
    assert Game.objects.get().status == GameStatus.CONFIRMED


def test_two_phones_naming_different_winners_mark_the_game_disputed(playing):
    phone_a, phone_b = Client(), Client()
    alice, bob = seated_players(playing, 1)[:2]
    fields_a = form_fields(body(phone_a.get(page_url(playing, 1))))
    fields_b = form_fields(body(phone_b.get(page_url(playing, 1))))
    assert fields_a["game_number"] == fields_b["game_number"] == "1"

    phone_a.post(report_url(playing, 1), {**fields_a, "winner": alice.pk}, **HTMX)
    response = phone_b.post(report_url(playing, 1), {**fields_b, "winner": bob.pk}, **HTMX)

    html = body(response)
    assert "Game 1: another phone named someone else — the organizer will settle it." in html
    assert Game.objects.get().status == GameStatus.DISPUTED
    assert "the organizer will settle it" in body(phone_a.get(page_url(playing, 1)))


def test_contesting_an_earlier_game_asks_about_that_game(client, playing):
    alice, bob = seated_players(playing, 1)[:2]
    factories.report(playing, 1, alice)

    html = body(client.get(page_url(playing, 1) + "?game=1"))
    fields = form_fields(html)
    client.post(report_url(playing, 1), {**fields, "winner": bob.pk}, **HTMX)

    assert "Game 1: who won?" in html
    assert fields["game_number"] == "1"
    assert Game.objects.get().status == GameStatus.DISPUTED


def test_a_chosen_game_is_polled_until_this_phone_answers_it(client, playing):
    alice, bob = seated_players(playing, 1)[:2]
    factories.report(playing, 1, alice)
    factories.report(playing, 1, alice, game_number=2)

    chosen = body(client.get(page_url(playing, 1), {"game": 1}))
    polled = body(client.get(polled_url(chosen), **HTMX))
    answered = body(
        client.post(report_url(playing, 1), {**form_fields(polled), "winner": bob.pk}, **HTMX)
    )

    assert polled_url(chosen) == live_url(playing, 1) + "?game=1"
    assert "Game 1: who won?" in polled
    assert polled_url(polled) == live_url(playing, 1) + "?game=1"
    assert "Game 3: who won?" in answered
    assert polled_url(answered) == live_url(playing, 1)
    # Even the old address, reloaded, no longer asks this phone about the game it answered.
    assert "Game 3: who won?" in body(client.get(page_url(playing, 1), {"game": 1}))


def test_after_a_close_and_its_undo_the_phones_ask_about_the_next_game(client, playing, organizer):
    """While the round was closed, no phone may keep polling for an earlier game: after
    the undo, a phone left open asks about the next game, not game 1."""
    players = seated_players(playing, 1)
    for winner in players[:3]:
        factories.report(playing, 1, winner)
    open_page = body(client.get(page_url(playing, 1)))
    chose_game_2 = body(client.get(page_url(playing, 1), {"game": 2}))

    closed = factories.play_until(playing, "between", by=organizer)
    polls_while_closed = [
        body(client.get(polled_url(html), **HTMX)) for html in (open_page, chose_game_2)
    ]
    undo_close_round(event=closed)
    after_undo = [body(client.get(polled_url(html), **HTMX)) for html in polls_while_closed]

    for html in polls_while_closed:
        assert "Next round: where to go" in html
        assert polled_url(html) == live_url(playing, 1)
    for html in after_undo:
        assert "Game 4: who won?" in html
        assert "already reported" not in html
        assert form_fields(html)["game_number"] == "4"


def test_back_to_the_next_game_leaves_the_chosen_game(client, playing):
    factories.report(playing, 1, seated_players(playing, 1)[0])

    html = body(client.get(page_url(playing, 1), {"game": 1}))

    back = re.search(r'<a [^>]*id="back-to-next" href="([^"]+)" hx-get="([^"]+)"', html)
    assert (back[1], back[2]) == (page_url(playing, 1), live_url(playing, 1))
    assert "Game 2: who won?" in body(client.get(back[2], **HTMX))


def test_without_javascript_the_refresh_keeps_a_chosen_game_only_while_it_can_be_answered(
    client, playing, organizer
):
    factories.report(playing, 1, seated_players(playing, 1)[0])
    refresh = r'<meta http-equiv="refresh" content="10; url=([^"]+)">'

    open_round = body(client.get(page_url(playing, 1), {"game": 1}))
    factories.play_until(playing, "between", by=organizer)
    closed = body(client.get(page_url(playing, 1), {"game": 1}))

    assert re.search(refresh, open_round)[1] == page_url(playing, 1) + "?game=1"
    assert re.search(refresh, closed)[1] == page_url(playing, 1)


# --- a quick retap: the same name for the next game, a moment later ------------------------

ASKED = "Another game for {name}? This phone reported game 1 a moment ago."


def test_the_same_name_tapped_again_on_the_next_game_a_moment_later_is_asked_about(client, playing):
    """The second tap lands on the next game's form, which appeared under the finger:
    same phone, same name, game k+1, within seconds. Nothing counts until "yes"."""
    alice = seated_players(playing, 1)[0]
    fields = form_fields(body(client.get(page_url(playing, 1))))
    first = body(client.post(report_url(playing, 1), {**fields, "winner": alice.pk}, **HTMX))

    second = client.post(report_url(playing, 1), {**form_fields(first), "winner": alice.pk}, **HTMX)

    assert form_fields(first)["game_number"] == "2"
    assert second.status_code == 409
    assert second["X-Report-Refused"] == "1"
    assert ASKED.format(name=alice.name) in body(second)
    assert "Yes, count game 2" in body(second)
    assert "No, it was the same game" in body(second)
    assert (Game.objects.count(), GameReport.objects.count()) == (1, 1)


def test_yes_to_another_game_counts_it_once(client, playing):
    alice = seated_players(playing, 1)[0]
    fields = form_fields(body(client.get(page_url(playing, 1))))
    first = body(client.post(report_url(playing, 1), {**fields, "winner": alice.pk}, **HTMX))
    asked = body(
        client.post(report_url(playing, 1), {**form_fields(first), "winner": alice.pk}, **HTMX)
    )
    yes = {**form_fields(asked, "confirm-box ask-box"), "winner": alice.pk}

    answers = [client.post(report_url(playing, 1), yes, **HTMX) for _ in range(2)]

    assert yes["retap_checked"] == "on"
    assert f"Game 2 recorded: {alice.name} won." in body(answers[0])
    assert answers[1]["X-Report-Stored"] == yes["client_key"]  # the same yes, stored once
    assert Game.objects.filter(winner=alice).count() == 2


def test_without_javascript_the_quick_retap_is_asked_about_too(playing):
    phone = Client()
    alice = seated_players(playing, 1)[0]
    fields = form_fields(body(phone.get(page_url(playing, 1))))
    first = body(phone.post(report_url(playing, 1), {**fields, "winner": alice.pk}, follow=True))

    second = phone.post(
        report_url(playing, 1), {**form_fields(first), "winner": alice.pk}, follow=True
    )
    yes = {**form_fields(body(second), "confirm-box ask-box"), "winner": alice.pk}
    third = phone.post(report_url(playing, 1), yes, follow=True)

    assert ASKED.format(name=alice.name) in body(second)
    assert f"Game 2 recorded: {alice.name} won." in body(third)
    assert Game.objects.filter(winner=alice).count() == 2


def test_the_same_name_on_the_next_game_after_the_retap_window_is_a_new_game(client, playing):
    alice = seated_players(playing, 1)[0]
    fields = form_fields(body(client.get(page_url(playing, 1))))
    first = body(client.post(report_url(playing, 1), {**fields, "winner": alice.pk}, **HTMX))
    GameReport.objects.update(received_at=F("received_at") - second_taps.RETAP_WINDOW)

    second = client.post(report_url(playing, 1), {**form_fields(first), "winner": alice.pk}, **HTMX)

    assert f"Game 2 recorded: {alice.name} won." in body(second)
    assert Game.objects.filter(winner=alice).count() == 2


def test_a_phones_own_report_whose_answer_was_lost_is_not_shown_as_another_phones(playing):
    """The answer (and its cookie) never reached the phone: its next page still knows the
    report by the phone's id, and never asks it to confirm its own game."""
    phone = Client()
    alice = seated_players(playing, 1)[0]
    fields = form_fields(body(phone.get(page_url(playing, 1))))
    phone.post(report_url(playing, 1), {**fields, "winner": alice.pk}, **HTMX)
    phone.cookies.pop(f"ft-mine-{table(playing, 1).pk}")  # as if the answer was lost

    page = body(phone.get(page_url(playing, 1)))

    assert "Game 2: who won?" in page
    assert "Another phone says" not in page
    assert "Another phone says" in body(Client().get(page_url(playing, 1)))


def test_another_name_on_the_next_game_right_away_is_a_new_game(client, playing):
    alice, bob = seated_players(playing, 1)[:2]
    fields = form_fields(body(client.get(page_url(playing, 1))))
    first = body(client.post(report_url(playing, 1), {**fields, "winner": alice.pk}, **HTMX))

    second = client.post(report_url(playing, 1), {**form_fields(first), "winner": bob.pk}, **HTMX)

    assert f"Game 2 recorded: {bob.name} won." in body(second)


# --- a phantom game: the name tapped in the list instead of "Yes, confirm" -------------------


def test_another_phone_tapping_the_same_winner_in_the_list_right_away_confirms_the_game(playing):
    """Phone B is asked to confirm game 1 and taps the name in the big list (game 2)."""
    phone_a, phone_b = Client(), Client()
    alice = seated_players(playing, 1)[0]
    fields_a = form_fields(body(phone_a.get(page_url(playing, 1))))
    phone_a.post(report_url(playing, 1), {**fields_a, "winner": alice.pk}, **HTMX)
    page_b = body(phone_b.get(page_url(playing, 1)))
    fields_b = form_fields(page_b)

    response = phone_b.post(report_url(playing, 1), {**fields_b, "winner": alice.pk}, **HTMX)

    html = body(response)
    assert "confirm-box" in page_b
    assert fields_b["game_number"] == "2"
    assert f"Game 1 confirmed: {alice.name} won (another phone reported it a moment ago)." in html
    assert "Game 2: who won?" in html
    assert "confirm-box" not in html  # phone B answered game 1: it is not asked again
    game = Game.objects.get()
    assert (game.number, game.status) == (1, GameStatus.CONFIRMED)
    assert list(GameReport.objects.values_list("game_number", flat=True)) == [1, 1]


def test_without_javascript_the_phantom_game_is_a_confirmation_too(playing):
    phone_a, phone_b = Client(), Client()
    alice = seated_players(playing, 1)[0]
    fields_a = form_fields(body(phone_a.get(page_url(playing, 1))))
    phone_a.post(report_url(playing, 1), {**fields_a, "winner": alice.pk})
    fields_b = form_fields(body(phone_b.get(page_url(playing, 1))))

    response = phone_b.post(report_url(playing, 1), {**fields_b, "winner": alice.pk}, follow=True)

    assert f"Game 1 confirmed: {alice.name} won" in body(response)
    assert Game.objects.get().status == GameStatus.CONFIRMED


def test_another_phone_naming_the_same_winner_after_the_window_is_a_new_game(playing):
    phone_a, phone_b = Client(), Client()
    alice = seated_players(playing, 1)[0]
    fields_a = form_fields(body(phone_a.get(page_url(playing, 1))))
    phone_a.post(report_url(playing, 1), {**fields_a, "winner": alice.pk}, **HTMX)
    fields_b = form_fields(body(phone_b.get(page_url(playing, 1))))
    Game.objects.update(reported_at=F("reported_at") - CONFIRMATION_WINDOW)

    response = phone_b.post(report_url(playing, 1), {**fields_b, "winner": alice.pk}, **HTMX)

    assert f"Game 2 recorded: {alice.name} won." in body(response)
    assert Game.objects.count() == 2


def test_the_same_phone_naming_its_own_winner_again_never_confirms_itself(client, playing):
    """Told "another game" is meant, inside the confirmation window: a new game."""
    alice = seated_players(playing, 1)[0]
    fields = form_fields(body(client.get(page_url(playing, 1))))
    first = body(client.post(report_url(playing, 1), {**fields, "winner": alice.pk}, **HTMX))
    GameReport.objects.update(received_at=F("received_at") - timedelta(seconds=10))
    Game.objects.update(reported_at=F("reported_at") - timedelta(seconds=10))
    again = {**form_fields(first), "winner": alice.pk, "retap_checked": "on"}

    second = client.post(report_url(playing, 1), again, **HTMX)

    assert f"Game 2 recorded: {alice.name} won." in body(second)
    assert Game.objects.get(number=1).status == GameStatus.UNCONFIRMED


def test_a_report_marks_the_page_so_the_next_games_buttons_wait_a_moment(client, playing):
    alice = seated_players(playing, 1)[0]
    page = body(client.get(page_url(playing, 1)))

    reported = body(
        client.post(report_url(playing, 1), {**form_fields(page), "winner": alice.pk}, **HTMX)
    )

    assert "data-reported" not in page
    assert re.search(r'<section id="live"[^>]* data-reported[ >]', reported)
    assert "data-reported" not in body(client.get(polled_url(reported), **HTMX))


# --- time up -------------------------------------------------------------------------------

TIME_UP = "Time is up: finish the trick in play, then report."  # the projector's words too


def test_when_time_is_up_the_page_says_to_finish_the_trick_and_report(client, playing):
    running = body(client.get(page_url(playing, 1)))
    change_clock(event=playing, action=ClockAction.TIME_UP)

    up = body(client.get(page_url(playing, 1)))

    # Rendered hidden while the clock runs, so clock.js can show it at 0:00 (CSS only).
    assert re.search(rf'class="notice notice-warn time-up-note">{TIME_UP}', running)
    assert re.search(rf'class="notice notice-warn time-up-note is-up"[^>]*>{TIME_UP}', up)
    assert "Game 1: who won?" in up


def test_the_time_up_note_belongs_to_rounds_only(client, event):
    event = factories.play_until(event, "study")
    change_clock(event=event, action=ClockAction.TIME_UP)

    html = body(client.get(page_url(event, 1)))

    assert TIME_UP not in html
    assert "When the organizer ends the study time, the rules are taken away" in html


def test_a_report_after_the_round_closed_is_refused_and_kept(client, playing, organizer):
    bob = seated_players(playing, 1)[1]
    fields = form_fields(body(client.get(page_url(playing, 1))))
    factories.play_until(playing, "between", by=organizer)

    response = client.post(report_url(playing, 1), {**fields, "winner": bob.pk}, **HTMX)

    assert "This round is closed. Your report was kept for the organizer." in (body(response))
    kept = GameReport.objects.get()
    assert (kept.state, kept.winner) == (ReportState.LATE, bob)
    assert not Game.objects.exists()


def test_a_refused_report_says_why_and_stores_nothing(client, event):
    event = factories.play_until(event, "practice")
    alice = seated_players(event, 1)[0]
    fields = {"round_number": 1, "game_number": 1, "client_key": "practice-key-1"}

    response = client.post(report_url(event, 1), {**fields, "winner": alice.pk}, **HTMX)

    assert "practice games are not scored" in body(response)
    assert not GameReport.objects.exists()


def test_a_player_of_another_table_is_refused(client, playing):
    elsewhere = seated_players(playing, 2)[0]
    fields = form_fields(body(client.get(page_url(playing, 1))))

    response = client.post(report_url(playing, 1), {**fields, "winner": elsewhere.pk}, **HTMX)

    assert "not seated at this table" in body(response)
    assert not GameReport.objects.exists()


def test_an_incomplete_report_asks_to_tap_again(client, playing):
    response = client.post(report_url(playing, 1), {"winner": "1"}, **HTMX)
    assert "Tap the winner again" in body(response)


# --- numbers from the request --------------------------------------------------------------

NOT_A_GAME_NUMBER = ["²", "①", "٣", "0", "-1", "1.5", "x", ""]


@pytest.mark.parametrize("game", NOT_A_GAME_NUMBER)
def test_an_asked_game_that_is_not_a_number_asks_about_the_next_game(client, playing, game):
    factories.report(playing, 1, seated_players(playing, 1)[0])

    page = client.get(page_url(playing, 1), {"game": game})
    live = client.get(live_url(playing, 1), {"game": game}, **HTMX)

    for response in (page, live):
        assert response.status_code == 200
        assert "Game 2: who won?" in body(response)


@pytest.mark.parametrize("cookie", ["1:²", "1:²,³", "²:1", "1:", "::", "nonsense"])
def test_a_mangled_my_games_cookie_is_ignored(client, playing, cookie):
    factories.report(playing, 1, seated_players(playing, 1)[0])
    client.cookies[f"ft-mine-{table(playing, 1).pk}"] = cookie

    response = client.get(page_url(playing, 1))

    assert response.status_code == 200
    assert "won game 1." in body(response)  # not this phone's report: asked to confirm


def test_the_games_a_phone_reported_are_read_past_a_mangled_number(client, playing):
    factories.report(playing, 1, seated_players(playing, 1)[0])
    client.cookies[f"ft-mine-{table(playing, 1).pk}"] = "1:²,1"

    response = client.get(page_url(playing, 1))

    assert response.status_code == 200
    assert "won game 1." not in body(response)  # its own report: not asked to confirm


# --- tricks ------------------------------------------------------------------------------


def test_tricks_of_a_game_cut_off_make_the_leader_win(client, playing):
    players = seated_players(playing, 1)
    html = body(client.get(tricks_url(playing, 1)))
    fields = form_fields(html, "tricks")
    counts = {f"tricks_{players[0].pk}": "1", f"tricks_{players[2].pk}": "2"}

    response = client.post(tricks_url(playing, 1), {**fields, **counts}, follow=True)

    game = Game.objects.get()
    assert (game.winner, game.finished) == (players[2], False)
    assert f"Game 1 recorded: {players[2].name} won." in body(response)


def test_impossible_tricks_are_shown_again_with_what_was_typed(client, playing):
    players = seated_players(playing, 1)
    fields = form_fields(body(client.get(tricks_url(playing, 1))), "tricks")

    response = client.post(
        tricks_url(playing, 1),
        {**fields, f"tricks_{players[0].pk}": "6", f"tricks_{players[1].pk}": "5"},
    )

    html = body(response)
    assert response.status_code == 400
    assert "11 tricks entered, but a game at this table has only 7." in html
    assert 'value="6"' in html
    assert 'value="5"' in html
    assert not GameReport.objects.exists()


def test_an_error_on_the_tricks_page_marks_the_inputs_and_focuses_the_first(client, playing):
    players = seated_players(playing, 1)
    fields = form_fields(body(client.get(tricks_url(playing, 1))), "tricks")

    typed = {f"tricks_{players[0].pk}": "6", f"tricks_{players[1].pk}": "5"}  # 11 of 7
    html = body(client.post(tricks_url(playing, 1), {**fields, **typed}))

    # A total that does not fit the deal is about every input: each says so and names the
    # message; the page opens with the focus on the first, not on <body>.
    assert 'id="tricks-errors"' in html
    inputs = [html.split(f'name="tricks_{player.pk}"')[1].split(">")[0] for player in players]
    first = html.split(f'name="tricks_{players[0].pk}"')[0].rsplit("<input", 1)[1] + inputs[0]
    assert 'aria-invalid="true"' in first
    assert "autofocus" in first
    for tag in inputs[1:]:
        assert 'aria-invalid="true"' in tag
        assert 'aria-describedby="tricks-errors"' in tag
        assert "autofocus" not in tag


def test_a_report_from_the_tricks_page_opens_on_its_notice(client, playing):
    players = seated_players(playing, 1)
    fields = form_fields(body(client.get(tricks_url(playing, 1))), "tricks")
    counts = {f"tricks_{players[0].pk}": "1"}

    html = body(client.post(tricks_url(playing, 1), {**fields, **counts}, follow=True))

    notice = html.split("data-notice")[1].split("</p>")[0]
    assert "autofocus" in notice  # the page opens on it, and a screen reader reads it
    assert f"Game 1 recorded: {players[0].name} won." in notice


def test_the_tricks_page_says_how_long_a_game_is_here_and_who_wins_a_tie(client, playing):
    html = body(client.get(tricks_url(playing, 1)))

    assert "A finished game at a table of 4 has 7 tricks." in html
    assert "a tie goes to the first name in alphabetical order" in html


def test_the_tricks_page_is_worded_alike_at_a_fewest_wins_table(client, playing):
    # Rules are secret after study: the phone asks for tricks and never says which count
    # wins, so a fewest-wins table's page is the same as any other's.
    ordinary = body(client.get(tricks_url(playing, 1)))
    playing.tables.filter(number=1).update(fewest_wins=True)
    misere = body(client.get(tricks_url(playing, 1)))

    def without_token(html: str) -> str:
        # The tokens and the client key are fresh on every page, and the round's clock may
        # tick between the two pages (it did, on a busy machine).
        return re.sub(
            r'"X-CSRFToken": "\w+"|value="[\w-]{20,}"|data-clock-seconds="\d+"'
            r"|data-clock-text>[\d:]+<",
            "",
            html,
        )

    assert without_token(misere) == without_token(ordinary)
    assert "most tricks" not in misere.lower()
    assert "fewest" not in misere.lower()


def test_five_players_may_enter_the_six_tricks_of_the_whole_deck(client, organizer):
    # 28 cards one at a time: three of five hands hold 6, so one player can take 6 tricks.
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=5, tables=1))
    players = seated_players(event, 1)
    html = body(client.get(tricks_url(event, 1)))
    assert "A finished game at a table of 5 has 6 tricks." in html

    response = client.post(
        tricks_url(event, 1), {**form_fields(html, "tricks"), f"tricks_{players[3].pk}": "6"}
    )

    assert response.status_code == 302
    assert Game.objects.get().tricks[str(players[3].pk)] == 6


def test_tricks_with_nothing_entered_are_refused(client, playing):
    fields = form_fields(body(client.get(tricks_url(playing, 1))), "tricks")
    response = client.post(tricks_url(playing, 1), fields)
    assert response.status_code == 400
    assert "Enter the tricks each player has taken so far." in body(response)


@pytest.mark.parametrize("round_number", ["²", "①", "0", "x", ""])
def test_a_tricks_form_with_a_mangled_round_is_shown_again_with_what_to_do(
    client, playing, round_number
):
    players = seated_players(playing, 1)
    fields = form_fields(body(client.get(tricks_url(playing, 1))), "tricks")

    response = client.post(
        tricks_url(playing, 1),
        {**fields, "round_number": round_number, f"tricks_{players[0].pk}": "2"},
    )

    html = body(response)
    assert response.status_code == 400
    assert "This form is out of date. Go back to your table's page and report again." in html
    assert 'value="2"' in html
    assert not GameReport.objects.exists()


def test_tricks_after_the_close_are_kept_as_late(client, playing, organizer):
    players = seated_players(playing, 1)
    fields = form_fields(body(client.get(tricks_url(playing, 1))), "tricks")
    factories.play_until(playing, "between", by=organizer)

    response = client.post(
        tricks_url(playing, 1), {**fields, f"tricks_{players[1].pk}": "3"}, follow=True
    )

    assert "This round is closed" in body(response)
    assert GameReport.objects.get().state == ReportState.LATE


def test_the_tricks_page_outside_a_round_goes_back_to_the_table(client, event):
    response = client.get(tricks_url(event, 1))
    assert response.status_code == 302


# --- after a round -----------------------------------------------------------------------


def test_after_a_close_the_page_shows_where_each_player_goes_and_why(client, playing, organizer):
    players = seated_players(playing, 1)
    factories.report(playing, 1, players[1])
    factories.report(playing, 1, players[1])
    event = factories.play_until(playing, "between", by=organizer)

    html = body(client.get(page_url(event, 1)))

    assert "Next round: where to go" in html
    shown = {
        name: (arrow, int(number))
        for name, arrow, number in re.findall(
            r'<bdi class="name">([^<]+)</bdi>\s*<span class="arrow"[^>]*>(.)</span>\s*'
            r'<span class="to"><span class="visually-hidden">Table (\d+)</span>',
            html,
        )
    }
    next_tables = {p.name: t for p, t in next_round_tables(event).items()}
    assert shown == {
        p.name: ("↑" if next_tables[p.name] > 1 else "→", next_tables[p.name]) for p in players
    }
    assert "Most games: moves up · 2 games won" in html
    assert "Fewest games: moves down" not in html  # table 1 is the lowest: they stay
    # The movement's own words, in the class the arrows are styled by.
    assert html.count('class="move move-up"') == 1
    assert html.count('class="move move-stay"') == len(players) - 1
    assert 'name="winner"' not in html


def test_after_the_last_round_the_page_shows_the_tables_results(client, organizer):
    event = factories.seated_event(owner=organizer, players=8, tables=2, rounds_planned=1)
    event = factories.start_rounds(event)
    winner = seated_players(event, 1)[2]
    factories.report(event, 1, winner)
    event = factories.play_until(event, "between", by=organizer)

    html = body(client.get(page_url(event, 1)))

    assert "That was the last round." in html
    assert re.search(rf'{winner.name}</bdi> <span class="count">1 game<', html)


# --- polling -----------------------------------------------------------------------------


def test_an_unchanged_poll_answers_304_after_one_query(
    client, playing, django_assert_max_num_queries
):
    live = live_url(playing, 1)
    etag = etag_of(client.get(live, **HTMX))

    with django_assert_max_num_queries(1):
        response = client.get(live, HTTP_IF_NONE_MATCH=etag, **HTMX)

    assert response.status_code == 304


def test_a_report_at_another_table_leaves_this_table_unchanged(client, playing):
    etag = etag_of(client.get(live_url(playing, 1), **HTMX))
    other = playing.current_round.seats.filter(table__number=2).select_related("player").first()

    factories.report(playing, 2, other.player)
    assert client.get(live_url(playing, 1), HTTP_IF_NONE_MATCH=etag, **HTMX).status_code == 304

    mine = playing.current_round.seats.filter(table__number=1).select_related("player").first()
    factories.report(playing, 1, mine.player)
    assert client.get(live_url(playing, 1), HTTP_IF_NONE_MATCH=etag, **HTMX).status_code == 200


def test_a_poll_after_a_change_brings_the_new_phase(client, event):
    event = factories.play_until(event, "study")
    etag = etag_of(client.get(live_url(event, 1), **HTMX))
    factories.play_until(event, "practice")

    response = client.get(live_url(event, 1), HTTP_IF_NONE_MATCH=etag, **HTMX)

    assert response.status_code == 200
    assert "Practice: games are not scored." in body(response)


def test_the_debrief_polls_for_its_questions_until_the_event_is_finished(client, organizer):
    event = factories.seated_event(owner=organizer, players=8, tables=2, rounds_planned=1)
    event = factories.play_until(event, "debrief", by=organizer)
    assert client.get(live_url(event, 1), **HTMX).status_code == 200
    assert "hx-get" in body(client.get(page_url(event, 1)))

    finish_event(event=event)
    assert client.get(live_url(event, 1), **HTMX).status_code == 286
    assert "hx-get" not in body(client.get(page_url(event, 1)))


@pytest.mark.parametrize("players", [20, 500])
def test_the_page_costs_the_same_at_any_event_size(
    client, organizer, players, django_assert_max_num_queries
):
    event = factories.seated_event(owner=organizer, players=players, tables=players // 4)
    event = factories.start_rounds(event)
    factories.report(event, 1, seated_players(event, 1)[0])
    page, live = page_url(event, 1), live_url(event, 1)

    with django_assert_max_num_queries(4):  # a phone seen for the first time
        assert client.get(page).status_code == 200
    # One more, for a phone with its id, while the latest game waits for a confirmation:
    # whether this phone reported it (never asked to confirm its own report); one more
    # for the poll: the version for the ETag.
    with django_assert_max_num_queries(5):
        assert client.get(page).status_code == 200
    with django_assert_max_num_queries(6):
        assert client.get(live, **HTMX).status_code == 200


@pytest.mark.parametrize("players", [20, 500])
def test_a_report_costs_the_same_at_any_event_size(
    client, organizer, players, django_assert_max_num_queries
):
    event = factories.seated_event(owner=organizer, players=players, tables=players // 4)
    event = factories.start_rounds(event)
    winner, second, third = seated_players(event, 1)[:3]  # one phone naming the same winner twice
    factories.report(event, 1, winner)  # one game already, so the answer lists games
    page, report, tricks = page_url(event, 1), report_url(event, 1), tricks_url(event, 1)

    fields = form_fields(body(client.get(page)))
    # The link, then the write: its transaction (2), the event locked, the key, the round,
    # the seats (the winner among them), this phone's reports in the round, the table's
    # games, the new game in its savepoint (3), the report, the versions (2). The live part
    # it answers with is built from what the write read: no query of its own (it was 22).
    with django_assert_max_num_queries(15):
        response = client.post(report, {**fields, "winner": second.pk}, **HTMX)
    assert "Game 2 recorded" in body(response)

    fields = form_fields(body(client.get(page)))
    # Without JavaScript: the report (this phone reported before: one more query to check
    # that this is not a double tap), then a redirect.
    with django_assert_max_num_queries(16):
        response = client.post(report, {**fields, "winner": third.pk})
    assert response.status_code == 302
    assert Game.objects.filter(table__number=1).count() == 3

    fields = form_fields(body(client.get(tricks)), "tricks")
    with django_assert_max_num_queries(17):
        response = client.post(tricks, {**fields, f"tricks_{winner.pk}": "1"})
    assert response.status_code == 302


@pytest.mark.parametrize(
    ("winner", "game", "told"),
    [
        (1, None, "Game 2 recorded"),
        (0, None, "Game 1 confirmed"),  # a phantom game 2: read as confirming game 1
        (1, "1", "the organizer will settle it"),
    ],
    ids=["records", "confirms", "disputes"],
)
def test_a_reports_answer_is_the_live_part_the_next_poll_would_bring(
    client, playing, winner, game, told
):
    """The answer is built from what the write read under the event's lock: it carries the
    table as a poll now sees it, so the phone's next poll is answered 304."""
    factories.report(playing, 1, seated_players(playing, 1)[0])  # another phone's game 1
    fields = form_fields(body(client.get(page_url(playing, 1))))
    if game is not None:
        fields["game_number"] = game
    named = seated_players(playing, 1)[winner]

    answer = client.post(report_url(playing, 1), {**fields, "winner": named.pk}, **HTMX)
    html = body(answer)
    fresh = client.get(live_url(playing, 1), **HTMX)

    assert told in html
    assert etag_of(answer) == fresh["ETag"]
    polled = client.get(live_url(playing, 1), HTTP_IF_NONE_MATCH=etag_of(answer), **HTMX)
    assert polled.status_code == 304
    games = re.compile(r'<ul class="game-list">.*?</ul>', re.DOTALL)
    assert games.search(html)[0] == games.search(body(fresh))[0]


@pytest.mark.parametrize("players", [20, 500])
def test_the_moves_cost_the_same_at_any_event_size(
    client, organizer, players, django_assert_max_num_queries
):
    event = factories.seated_event(owner=organizer, players=players, tables=players // 4)
    event = factories.play_until(event, "between", by=organizer)
    page = page_url(event, 2)

    with django_assert_max_num_queries(5):
        assert "where to go" in body(client.get(page))


# --- bad links ---------------------------------------------------------------------------

INVALID_TEXT = "This table link is no longer valid"
WHAT_TO_DO = "Ask the organizer for this table's new link, or for its new printed card."


@pytest.mark.parametrize("view", ["table", "table_live", "tricks"])
def test_an_unknown_token_gets_a_friendly_404(client, playing, view):
    response = client.get(reverse(f"phone:{view}", args=["not-a-real-token"]))

    assert response.status_code == 404
    assert INVALID_TEXT in body(response)
    assert WHAT_TO_DO in body(response)


def test_a_rotated_token_gets_the_friendly_404_and_the_new_one_works(client, playing):
    old = table(playing, 1).token
    table(playing, 1).rotate_token()

    response = client.get(reverse("phone:table", args=[old]))

    assert response.status_code == 404
    assert WHAT_TO_DO in body(response)
    # The card on the table still carries the old link: scanning it again loops back here.
    assert "only helps if its card has been reprinted" in body(response)
    assert "Scan the QR code on your table again, or" not in body(response)
    assert client.get(page_url(playing, 1)).status_code == 200


def test_a_phone_left_open_on_a_rotated_link_reloads_into_the_404(client, playing):
    old = table(playing, 1).token
    table(playing, 1).rotate_token()

    poll = client.get(reverse("phone:table_live", args=[old]), HTTP_IF_NONE_MATCH='"1"', **HTMX)
    tap = client.post(reverse("phone:report", args=[old]), {"winner": 1}, **HTMX)

    assert (poll.status_code, poll["HX-Refresh"]) == (404, "true")
    assert (tap.status_code, tap["HX-Refresh"]) == (404, "true")
    assert not GameReport.objects.exists()


@pytest.mark.parametrize("token", ["%00", "a b", "x" * 65, "ü"])
def test_a_mangled_token_is_a_404_not_a_server_error(client, db, token):
    response = client.get(f"/t/{token}/")
    assert response.status_code == 404
    assert WHAT_TO_DO in body(response)


def test_a_missing_page_elsewhere_is_a_friendly_404(client, db):
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    assert "This page does not exist" in body(response)


def test_any_other_missing_page_under_t_says_what_to_do(client, db):
    response = client.get("/t/nothing/here/at/all/")
    assert response.status_code == 404
    assert "Scan the QR code" in body(response)


def test_report_endpoint_refuses_get(client, playing):
    assert client.get(report_url(playing, 1)).status_code == 405


def test_the_event_version_moves_with_each_report(client, playing):
    before = Event.objects.get(pk=playing.pk).version
    factories.report(playing, 1, seated_players(playing, 1)[0])
    assert Event.objects.get(pk=playing.pk).version > before


# --- one phone: its id, duplicates, held reports ----------------------------------------


def test_the_table_page_gives_the_phone_a_lasting_id_once(client, playing):
    first = client.get(page_url(playing, 1))
    cookie = first.cookies["ft_phone"]
    phone, _signature = cookie.value.split(":")  # signed: the server's id, not the phone's
    assert len(phone) == 22
    assert cookie["httponly"]
    assert cookie["samesite"] == "Lax"
    assert cookie["max-age"] >= 30 * 24 * 60 * 60
    assert cookie["path"] == "/"

    assert "ft_phone" not in client.get(page_url(playing, 2)).cookies  # kept, not renewed
    assert not cookie["secure"]  # plain http on the LAN: a secure cookie would never return


def test_over_https_the_phones_id_is_a_secure_cookie(client, playing, settings):
    settings.ALLOWED_HOSTS = ["testserver"]
    cookie = client.get(page_url(playing, 1), secure=True).cookies["ft_phone"]
    assert cookie["secure"]


def test_a_report_is_stored_with_the_phones_id(client, playing):
    alice = seated_players(playing, 1)[0]
    fields = form_fields(body(client.get(page_url(playing, 1))))

    client.post(report_url(playing, 1), {**fields, "winner": alice.pk}, **HTMX)

    assert GameReport.objects.get().phone == client.cookies["ft_phone"].value.split(":")[0]


def test_a_phone_without_the_id_gets_one_with_its_report(playing):
    phone = Client()
    alice = seated_players(playing, 1)[0]
    fields = form_fields(body(phone.get(page_url(playing, 1))))
    del phone.cookies["ft_phone"]

    response = phone.post(report_url(playing, 1), {**fields, "winner": alice.pk}, **HTMX)

    assert GameReport.objects.get().phone == response.cookies["ft_phone"].value.split(":")[0]


def test_the_same_phone_confirming_its_own_game_is_told_another_phone_must(client, playing):
    """A second report of game 1 from the phone that reported it (a second tab still showing
    the first report's question): nothing stored, the game stays reported once."""
    alice = seated_players(playing, 1)[0]
    fields = form_fields(body(client.get(page_url(playing, 1))))
    client.post(report_url(playing, 1), {**fields, "winner": alice.pk}, **HTMX)
    again = {**fields, "client_key": "a-second-tab-key", "winner": alice.pk}

    response = client.post(report_url(playing, 1), again, **HTMX)

    assert (
        "This phone already reported game 1. A second report from the same phone does not "
        "confirm it: another phone at this table can."
    ) in html_module.unescape(body(response))
    assert GameReport.objects.count() == 1
    assert Game.objects.get().status == GameStatus.UNCONFIRMED


def test_a_phone_that_reported_at_another_table_is_told_the_organizer_will_check(client, playing):
    at_one, at_two = seated_players(playing, 1)[0], seated_players(playing, 2)[0]
    fields = form_fields(body(client.get(page_url(playing, 1))))
    client.post(report_url(playing, 1), {**fields, "winner": at_one.pk}, **HTMX)
    fields = form_fields(body(client.get(page_url(playing, 2))))

    response = client.post(report_url(playing, 2), {**fields, "winner": at_two.pk}, **HTMX)

    assert (
        "Game 1: this phone already reported at table 1 in this round, so the organizer "
        "will check this report before it counts."
    ) in html_module.unescape(body(response))
    assert GameReport.objects.get(table__number=2).state == ReportState.HELD
    assert not Game.objects.filter(table__number=2).exists()
    # The same key again (a retry over bad Wi-Fi): the same answer, nothing new.
    retried = client.post(report_url(playing, 2), {**fields, "winner": at_two.pk}, **HTMX)
    assert "the organizer will check this report" in html_module.unescape(body(retried))
    assert GameReport.objects.filter(table__number=2).count() == 1


def test_tricks_from_a_phone_seen_at_another_table_are_held_too(client, playing):
    at_one = seated_players(playing, 1)[0]
    fields = form_fields(body(client.get(page_url(playing, 1))))
    client.post(report_url(playing, 1), {**fields, "winner": at_one.pk}, **HTMX)
    fields = form_fields(body(client.get(tricks_url(playing, 2))), "tricks")
    leader = seated_players(playing, 2)[0]

    client.post(tricks_url(playing, 2), {**fields, f"tricks_{leader.pk}": "2"})

    assert GameReport.objects.get(table__number=2).state == ReportState.HELD
