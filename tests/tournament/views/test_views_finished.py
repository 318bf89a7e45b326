"""Finished events in the console: finishing and reopening with a confirmation, every
change refused with one message (organizer console and phones), what still works, and
the events list: date, headcount, phase, archive and delete."""

from __future__ import annotations

import re

import pytest
from django.contrib.messages import get_messages
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.urls import URLPattern, URLResolver, reverse

from tables.models import Game, GameCorrection, GameReport, GameStatus, ReportState, Table
from tests import factories
from tournament.models import DebriefQuestion, Event, Phase, Player
from tournament.urls import organizer as organizer_urls
from tournament.views.access import permission_denied
from tournament.writes.finishing import archive_event, finish_event

pytestmark = pytest.mark.django_db

READ_ONLY = "This event is finished, so it is read-only"


def url(name, *args):
    return reverse(f"organizer:{name}", args=args)


def messages_after(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def debriefed(organizer) -> Event:
    """Two rounds at two tables; a disputed game left in round 2, and a late report
    waiting, then the debrief."""
    event = factories.start_rounds(
        factories.seated_event(owner=organizer, players=8, tables=2, rounds_planned=2)
    )
    factories.play_games(event, {2: factories.seated_names(event, 2)[:2]})
    event = factories.close_current_round(event, organizer)
    event = factories.play_until(event, Phase.ROUND, by=organizer)
    first, second = factories.seated_names(event, 1)[:2]
    factories.report(event, 1, first, game_number=1)
    factories.report(event, 1, second, game_number=1)
    event = factories.close_current_round(event, organizer)
    factories.report(event, 2, factories.seated_names(event, 2)[0], round_number=2)  # late
    return factories.play_until(event, Phase.DEBRIEF, by=organizer)


def finished(organizer) -> Event:
    return finish_event(event=debriefed(organizer))


# --- finishing and reopening ---------------------------------------------------------------


def test_the_finish_page_tells_held_reports_apart_from_late_ones(signed_in, organizer):
    event = debriefed(organizer)
    # Two reports a phone sent from another table (held), besides the late one.
    held = GameReport.objects.filter(round__event=event, round__number=2, table__number=1)
    assert held.update(state=ReportState.HELD) == 2
    page = signed_in.get(url("finish", event.pk)).content.decode()
    assert "1 late report is still waiting: it stays out of the results." in page
    assert "2 reports wait for you to accept or drop them" in page
    assert ">Handle them first</a>" in page

    GameReport.objects.filter(state=ReportState.LATE).update(state=ReportState.DROPPED)
    held.filter(pk=held.first().pk).update(state=ReportState.DROPPED)
    page = signed_in.get(url("finish", event.pk)).content.decode()
    assert "late report" not in page
    assert "1 report waits for you to accept or drop it:" in page
    assert ">Handle it first</a>" in page


def test_finish_from_the_console_asks_first_and_names_the_waiting_late_report(signed_in, organizer):
    event = debriefed(organizer)
    console = signed_in.get(url("event", event.pk)).content.decode()
    assert "Finish the event" in console
    assert url("debrief_report", event.pk) in console

    unconfirmed = signed_in.post(url("finish", event.pk))
    assert unconfirmed["Location"] == url("finish", event.pk)
    page = signed_in.get(url("finish", event.pk)).content.decode()
    assert "It becomes read-only" in page
    assert "1 late report is still waiting" in page
    assert not Event.objects.get(pk=event.pk).is_finished

    done = signed_in.post(url("finish", event.pk), {"confirmed": "1"})
    assert done["Location"] == url("event", event.pk)
    assert Event.objects.get(pk=event.pk).is_finished
    console = signed_in.get(url("event", event.pk)).content.decode()
    assert "this event is read-only" in console
    assert "Reopen the event" in console
    assert "Finish the event" not in console


def test_the_console_of_a_finished_event_offers_no_change(signed_in, organizer):
    event = finished(organizer)
    html = signed_in.get(url("event", event.pk)).content.decode()
    actions = set(re.findall(r'<form method="post" action="([^"]+)"', html))
    allowed = {
        url("debrief_step", event.pk),
        url("reveal", event.pk),
        url("reveal_table", event.pk),
        url("debrief_highlight", event.pk),
        url("reopen", event.pk),
        url("back_up_now", event.pk),
        url("logout"),
        reverse("set_language"),  # the console's own language, not the event
    }
    assert actions <= allowed, actions - allowed
    player = Player.objects.filter(event=event).first()
    for page in (url("table", event.pk, 1), url("player", event.pk, player.pk)):
        html = signed_in.get(page).content.decode()
        forms = set(re.findall(r'<form method="post" action="([^"]+)"', html))
        assert forms == {url("logout"), reverse("set_language")}
    settings_page = signed_in.get(url("event_settings", event.pk)).content.decode()
    assert "settings are read-only" in settings_page
    assert '<fieldset class="plain" disabled>' in settings_page


def test_reopen_asks_first_then_the_event_changes_again(signed_in, organizer):
    event = finished(organizer)
    assert signed_in.post(url("reopen", event.pk))["Location"] == url("reopen", event.pk)
    assert "Reopen the event?" in signed_in.get(url("reopen", event.pk)).content.decode()
    assert Event.objects.get(pk=event.pk).is_finished

    signed_in.post(url("reopen", event.pk), {"confirmed": "1"})

    assert not Event.objects.get(pk=event.pk).is_finished
    player = Player.objects.filter(event=event).first()
    signed_in.post(url("player_rename", event.pk, player.pk), {"name": "Renamed"})
    assert Player.objects.get(pk=player.pk).name == "Renamed"


def test_an_event_before_its_debrief_cannot_be_finished_from_the_console(signed_in, event):
    response = signed_in.get(url("finish", event.pk))
    assert response["Location"] == url("event", event.pk)
    assert "start the debrief first" in messages_after(response)[0]
    signed_in.post(url("finish", event.pk), {"confirmed": "1"})
    assert not Event.objects.get(pk=event.pk).is_finished


# --- every change is refused ---------------------------------------------------------------


def _changes(event: Event) -> tuple:
    """What a refused change must leave as it was."""
    return (
        Event.objects.filter(pk=event.pk).values_list(
            "version", "shared_version", "name", "phase", "round_number", "debrief_step"
        )[0],
        list(Table.objects.filter(event=event).values_list("version", "token", "trump")),
        list(Player.objects.filter(event=event).values_list("name", "status")),
        list(Game.objects.filter(table__event=event).values_list("pk", "status", "winner")),
        list(GameReport.objects.filter(table__event=event).values_list("pk", "state")),
        GameCorrection.objects.filter(table__event=event).count(),
        list(DebriefQuestion.objects.filter(event=event).values_list("pk", "position", "text")),
    )


def test_representative_changes_to_a_finished_event_are_refused_with_the_reason(
    signed_in, organizer
):
    event = finished(organizer)
    player = Player.objects.filter(event=event).order_by("name").first()
    disputed = Game.objects.get(table__event=event, status=GameStatus.DISPUTED)
    late = GameReport.objects.get(table__event=event, state=ReportState.LATE)
    before = _changes(event)
    posts = [
        (url("phase_next", event.pk), {"phase": event.phase_key, "confirmed": "1"}),
        (url("undo_close", event.pk), {"round": "2"}),
        (url("close_round", event.pk, 2), {"moves": "0" * 32, "disputed_ok": "on"}),
        (url("roster_add", event.pk), {"names": "Newcomer"}),
        (url("player_rename", event.pk, player.pk), {"name": "Someone else"}),
        (url("player_status", event.pk, player.pk), {"status": "absent"}),
        (url("player_remove", event.pk, player.pk), {}),
        (url("game_settle", event.pk, disputed.pk), {"winner": disputed.reports.first().winner_id}),
        (url("game_delete", event.pk, disputed.pk), {}),
        (url("report_accept", event.pk, late.pk), {}),
        (url("report_drop", event.pk, late.pk), {}),
        (url("table_variant", event.pk), {"table": "1", "variant": "draw", "confirmed": "1"}),
        (url("variants_redraw", event.pk), {"confirmed": "1"}),
        (url("table_rotate_link", event.pk, 1), {}),
        (url("event_settings", event.pk), {"name": "Another name", "rounds_planned": 2}),
        (url("debrief", event.pk), {"confirmed": "1"}),
    ]
    for target, data in posts:
        response = signed_in.post(target, data)
        assert response.status_code == 302, target
        assert response["Location"] == url("event", event.pk), target
        assert set(messages_after(response)) == {event.finished_refusal}, target
        assert _changes(event) == before, target


def test_a_refused_change_goes_back_to_the_page_it_came_from(signed_in, organizer):
    event = finished(organizer)
    game = Game.objects.filter(table__event=event).first()
    here = url("table", event.pk, game.table.number)

    response = signed_in.post(url("game_delete", event.pk, game.pk), {"next": here})

    assert response["Location"] == here
    assert Game.objects.filter(pk=game.pk).exists()


# The only POSTs a finished event takes (tournament.writes.finishing: what stays).
TAKEN_WHEN_FINISHED = {
    "debrief_step",
    "reveal",
    "reveal_table",
    "debrief_highlight",
    "back_up_now",
    "event_archive",
    "event_delete",
    "reopen",
    "team_revoke",
    "note_choose",
}
NOT_ABOUT_ONE_EVENT = {
    *("login", "logout", "sign_in_link", "join", "events", "event_new"),
    *("server_stop_confirm", "server_stop"),  # the laptop's server, any event's state
}


def _first_pk(rows: QuerySet) -> int:
    """The first row's pk; the finished event has a row of each kind asked for."""
    row = rows.first()
    assert row is not None, rows.model
    return row.pk


def _organizer_paths(event: Event) -> list[tuple[str, str]]:
    values = {
        "pk": event.pk,
        "player_id": _first_pk(Player.objects.filter(event=event)),
        "number": 1,
        "round_number": 1,
        "game_id": _first_pk(Game.objects.filter(table__event=event)),
        "report_id": _first_pk(GameReport.objects.filter(table__event=event)),
        "action": "pause",
        "question_id": _first_pk(DebriefQuestion.objects.filter(event=event)),
        "invitation_id": 1,
        "note_id": 1,
        "deal": 1,  # a screen table's game in play; the finished event refuses first
    }
    found = []
    for pattern, converters in _console_patterns():
        assert pattern.name is not None, pattern  # reversed by its name below
        if pattern.name in NOT_ABOUT_ONE_EVENT | TAKEN_WHEN_FINISHED:
            continue
        kwargs = {name: values[name] for name in converters}
        found.append((pattern.name, reverse(f"organizer:{pattern.name}", kwargs=kwargs)))
    return found


def _console_patterns() -> list[tuple[URLPattern, set[str]]]:
    """Every console URL with the names of all its arguments (an event's URLs are included
    under the event's prefix, one list per feature)."""
    found: list[tuple[URLPattern, set[str]]] = []
    for entry in organizer_urls.urlpatterns:
        if isinstance(entry, URLResolver):
            prefix = set(entry.pattern.converters)
            for pattern in entry.url_patterns:
                assert isinstance(pattern, URLPattern), pattern  # one level of include()
                found.append((pattern, prefix | set(pattern.pattern.converters)))
        else:
            assert isinstance(entry, URLPattern), entry
            found.append((entry, set(entry.pattern.converters)))
    return found


def test_every_other_console_post_to_a_finished_event_changes_nothing(signed_in, organizer):
    """New console actions are guarded by default: this walks every organizer URL."""
    event = finished(organizer)
    before = _changes(event)
    paths = _organizer_paths(event)
    assert len(paths) > 25
    for name, target in paths:
        response = signed_in.post(target, {"confirmed": "1", "phase": event.phase_key})
        # 405: the URL takes no POST at all (a page, a download, a poll).
        assert response.status_code in (302, 405), name
        if response.status_code == 302:
            assert set(messages_after(response)) == {event.finished_refusal}, name
        assert _changes(event) == before, name


def test_a_phone_cannot_report_to_a_finished_event(client, organizer):
    event = finished(organizer)
    table = Table.objects.get(event=event, number=1)
    winner = factories.seated_players(event, 1, round_number=2)[0]
    reports = GameReport.objects.count()

    response = client.post(
        reverse("phone:report", args=[table.token]),
        {"round_number": 2, "game_number": 5, "client_key": "after-the-end", "winner": winner.pk},
        HTTP_HX_REQUEST="true",
    )

    assert "The event is finished: no more games can be reported." in response.content.decode()
    assert GameReport.objects.count() == reports


def test_the_debrief_screens_report_and_downloads_still_work(signed_in, organizer):
    event = finished(organizer)

    signed_in.post(url("debrief_step", event.pk), {"step": "3"})
    assert Event.objects.get(pk=event.pk).debrief_step == 3
    signed_in.post(url("reveal", event.pk), {"revealed": "1"})
    assert Event.objects.get(pk=event.pk).rules_revealed
    screen = signed_in.get(reverse("projector:screen", args=[event.projector_token]))
    assert screen.status_code == 200
    for name in ("debrief_report", "event_json", "results_csv", "event", "corrections"):
        assert signed_in.get(url(name, event.pk)).status_code == 200, name


# --- the events list: archive and delete ---------------------------------------------------


def test_the_events_list_shows_date_headcount_and_phase(signed_in, organizer):
    event = finished(organizer)
    factories.make_event(owner=organizer, name="Next week")
    page = signed_in.get(url("events")).content.decode()

    headers = re.findall(r'<th scope="col">([^<]+)</th>', page)
    assert headers[:4] == ["Event", "Where it stands", "Players", "Date"]
    row = re.search(rf'<tr id="event-{event.pk}">(.*?)</tr>', page, re.S)[1]
    cells = [
        " ".join(re.sub(r"<[^>]+>", "", cell).split())
        for cell in re.findall(r"<td>(.*?)</td>", row, re.S)
    ]
    assert cells[1] == "Debrief · finished"
    assert cells[2] == "8"
    assert cells[3] == event.created_at.strftime("%-d %b %Y")
    assert url("debrief_report", event.pk) in row
    assert "Archived" not in page


def test_archive_puts_an_event_apart_and_unarchive_brings_it_back(signed_in, organizer):
    old = finished(organizer)
    factories.make_event(owner=organizer, name="Next week")

    response = signed_in.post(url("event_archive", old.pk), {"archived": "1"})

    assert response["Location"] == url("events")
    page = signed_in.get(url("events")).content.decode()
    listed, archived = page.split('<details class="archived-events"')
    assert "Next week" in listed
    assert f'id="event-{old.pk}"' not in listed
    assert f'id="event-{old.pk}"' in archived
    assert "Archived (1 event)" in archived

    signed_in.post(url("event_archive", old.pk), {"archived": "0"})
    assert not Event.objects.get(pk=old.pk).is_archived
    assert "archived-events" not in signed_in.get(url("events")).content.decode()


def test_another_organizer_can_neither_archive_nor_delete(client, django_user_model, event):
    client.force_login(factories.make_organizer(django_user_model, "bob"))
    assert client.post(url("event_archive", event.pk), {"archived": "1"}).status_code == 404
    assert client.get(url("event_delete", event.pk)).status_code == 404
    assert client.post(url("event_delete", event.pk), {"name": event.name}).status_code == 404
    assert Event.objects.filter(pk=event.pk, archived_at__isnull=True).exists()


def test_the_delete_page_names_what_goes_and_offers_the_export_first(signed_in, organizer):
    event = finished(organizer)
    games = Game.objects.filter(table__event=event).count()

    page = signed_in.get(url("event_delete", event.pk)).content.decode()

    assert "8 players on the roster" in page
    assert "2 rounds played" in page
    assert games > 1
    assert f"{games} reported games" in page
    assert url("event_json", event.pk) in page
    signed_in.post(url("event_delete", event.pk), {"name": "not it"})
    assert Event.objects.filter(pk=event.pk).exists()
    response = signed_in.post(url("event_delete", event.pk), {"name": event.name})
    assert response["Location"] == url("events")
    assert not Event.objects.filter(pk=event.pk).exists()


def test_an_archived_event_still_runs(signed_in, event):
    archive_event(event=event)
    signed_in.post(url("roster_add", event.pk), {"names": "Ann\nBen\nCleo"})
    assert Player.objects.filter(event=event).count() == 3


def test_any_other_permission_denied_keeps_djangos_403(rf, organizer):
    request = rf.post("/console/")
    request.user = organizer
    assert permission_denied(request, PermissionDenied("no")).status_code == 403


@pytest.mark.parametrize("count", [2, 20])
def test_the_events_list_costs_the_same_for_few_or_many_events(
    signed_in, organizer, django_assert_max_num_queries, count
):
    for number in range(count):
        event = factories.make_event(owner=organizer, name=f"Event {number}")
        if number % 2:
            archive_event(event=event)
    # The session and user, whether the account is a co-facilitator's, then the events
    # with their headcounts.
    with django_assert_max_num_queries(4):
        page = signed_in.get(url("events")).content.decode()
    assert page.count('<tr id="event-') == count
