"""Backups kept in the database, as on PostgreSQL: the event's JSON record, ten kept per
event, and the same backups for every app server of an installation, whatever its data
folder. Here the live database is made to look like PostgreSQL's (no SQLite file); under
`make test-postgres` it is PostgreSQL."""

from __future__ import annotations

import json
import threading
from datetime import UTC, datetime, timedelta
from unittest import mock

import pytest
from django.urls import reverse

from tests import factories
from tests.real_database import Side, run_scenarios
from tournament.models import StoredBackup
from tournament.reads.records import export_event
from tournament.writes import backups
from tournament.writes.backups import (
    KEEP_PER_EVENT,
    BackupFailed,
    Moment,
    back_up,
    last_backup,
    list_backups,
    restore_database,
    stored_record,
)
from tournament.writes.rounds import close_round

NOON = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)


@pytest.fixture
def in_database(monkeypatch):
    """No SQLite file to copy, as on PostgreSQL: backups go to the database."""
    monkeypatch.setattr(backups, "_live_sqlite", lambda: None)


@pytest.fixture
def server(settings, tmp_path):
    """Switch to the app server whose data folder is ``tmp_path/<name>``: what a server
    would use for backups if they were files."""

    def switch_to(name: str) -> None:
        settings.DATA_DIR = tmp_path / name
        settings.BACKUP_DIR = tmp_path / name / "backups"

    switch_to("a")
    return switch_to


@pytest.mark.django_db
def test_a_backup_is_the_events_record_kept_in_the_database(
    organizer, in_database, server, tmp_path
):
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))
    backup = back_up(event_id=event.pk, round_number=1, moment=Moment.ROUND_CLOSED, now=NOON)
    assert backup.name == f"event-{event.pk}-round-01-20261122T120000.000000Z-closed.json"
    assert backup.path is None
    assert (backup.event_id, backup.round_number, backup.taken_at) == (event.pk, 1, NOON)
    record = json.loads(stored_record(backup.name))
    assert record["event"] == export_event(event)["event"]
    assert record["rounds"] == export_event(event)["rounds"]
    assert last_backup(event.pk) == backup
    assert list(tmp_path.iterdir()) == []  # no folder made on any server
    with pytest.raises(BackupFailed, match="SQLite database only"):
        restore_database(tmp_path / backup.name)


@pytest.mark.django_db
def test_two_backups_in_the_same_instant_get_two_names_in_the_order_taken(
    organizer, in_database, server
):
    event = factories.make_event(owner=organizer)
    first = back_up(event_id=event.pk, round_number=0, moment=Moment.ON_DEMAND, now=NOON)
    second = back_up(event_id=event.pk, round_number=0, moment=Moment.ON_DEMAND, now=NOON)
    assert first.name != second.name
    assert list_backups(event_id=event.pk) == [second, first]


@pytest.mark.django_db
def test_two_servers_see_the_same_backups_and_keep_ten_per_event_between_them(
    organizer, in_database, server, tmp_path
):
    event, other = factories.make_event(owner=organizer), factories.make_event(owner=organizer)
    back_up(event_id=other.pk, round_number=0, moment=Moment.ON_DEMAND, now=NOON)
    taken = []
    for minute in range(13):
        server("a" if minute % 2 else "b")  # the servers take turns closing rounds
        taken.append(
            back_up(
                event_id=event.pk,
                round_number=minute,
                moment=Moment.ROUND_CLOSED,
                now=NOON + timedelta(minutes=minute),
            )
        )
    newest = list(reversed(taken[-KEEP_PER_EVENT:]))
    for name in "ab":
        server(name)
        assert list_backups(event_id=event.pk) == newest
        assert last_backup(event.pk) == taken[-1]
    assert StoredBackup.objects.filter(event_id=event.pk).count() == KEEP_PER_EVENT
    assert len(list_backups(event_id=other.pk)) == 1
    assert list(tmp_path.iterdir()) == []


@pytest.mark.django_db
def test_closing_a_round_keeps_a_backup_once_the_close_commits(
    organizer, in_database, server, django_capture_on_commit_callbacks
):
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))
    with django_capture_on_commit_callbacks(execute=True):
        close_round(round_=event.current_round, by=organizer)
        assert not StoredBackup.objects.exists()  # nothing before the commit
    (backup,) = list_backups(event_id=event.pk)
    assert (backup.round_number, backup.moment) == (1, "closed")
    assert json.loads(stored_record(backup.name))["event"]["phase"] == "between"


@pytest.mark.django_db
def test_every_servers_console_shows_the_backup_another_server_took(
    signed_in, organizer, in_database, server
):
    event = factories.make_event(owner=organizer)
    console = reverse("organizer:event", args=[event.pk])
    response = signed_in.post(reverse("organizer:back_up_now", args=[event.pk]), follow=True)
    (backup,) = list_backups(event_id=event.pk)
    assert f"Backup taken: {backup.name}" in response.content.decode()
    server("b")
    page = signed_in.get(console).content.decode()
    assert "Last backup:" in page
    assert "No backup yet." not in page
    assert "kept in the database, where every server of this installation finds it" in page
    assert "/backups" not in page


# --- two servers backing up one event at once ---------------------------------------------

HOLD_SECONDS = 1.0
GIVE_UP_SECONDS = 30.0


def two_servers_back_up_one_event_at_once() -> dict:
    """Ten backups kept; server A's eleventh is stored but not committed when server B
    takes its own, in the same instant."""
    from django.contrib.auth import get_user_model

    owner = factories.make_organizer(get_user_model(), "ada")
    event = factories.make_event(owner=owner)
    with mock.patch.object(backups, "_live_sqlite", return_value=None):
        for minute in range(KEEP_PER_EVENT):
            back_up(
                event_id=event.pk,
                round_number=0,
                moment=Moment.ON_DEMAND,
                now=NOON - timedelta(minutes=minute + 1),
            )
        held, release = threading.Event(), threading.Event()
        real_keep = backups._keep_newest

        def keep_then_hold(event_id: int) -> None:
            real_keep(event_id)
            if not held.is_set():
                held.set()
                release.wait(GIVE_UP_SECONDS)

        def take() -> str:
            return back_up(
                event_id=event.pk, round_number=1, moment=Moment.ON_DEMAND, now=NOON
            ).name

        first, second = Side(take), Side(take)
        with mock.patch.object(backups, "_keep_newest", keep_then_hold):
            first.start()
            held.wait(GIVE_UP_SECONDS)
            second.start()
            second.join(HOLD_SECONDS)
            waited = second.is_alive()
            release.set()
            first.finish(GIVE_UP_SECONDS)
            second.finish(GIVE_UP_SECONDS)
        return {
            "errors": [side.error for side in (first, second) if side.error],
            "second_waited": waited,
            "names": [first.result, second.result],
            "kept": [b.name for b in list_backups(event_id=event.pk)],
        }


@pytest.mark.postgres
def test_two_servers_backing_up_one_event_at_once_keep_ten_with_two_names(tmp_path):
    outcome = run_scenarios(two_servers_back_up_one_event_at_once, workdir=tmp_path)[
        "two_servers_back_up_one_event_at_once"
    ]
    assert outcome["errors"] == []
    assert outcome["second_waited"] is True
    first, second = outcome["names"]
    assert first != second
    assert len(outcome["kept"]) == KEEP_PER_EVENT
    assert outcome["kept"][:2] == [second, first]
