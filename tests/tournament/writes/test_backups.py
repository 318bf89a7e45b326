"""Backups: online copies that hold every committed write, named to sort, ten kept per
event, taken after a close and at the debrief without ever breaking them, on demand from
the console. Where there is no SQLite file to copy (PostgreSQL), the event's JSON record
kept in the database: tests/tournament/writes/test_backups_in_database.py."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from django.urls import reverse

from tests import factories
from tournament.common import wake
from tournament.common.sqlite_files import integrity_problems
from tournament.writes import backups
from tournament.writes.backups import (
    KEEP_PER_EVENT,
    Backup,
    BackupFailed,
    Moment,
    back_up,
    last_backup,
    list_backups,
)
from tournament.writes.rounds import close_round, start_debrief

REPO = Path(__file__).resolve().parents[3]
NOON = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)


@pytest.fixture
def folder(settings, tmp_path) -> Path:
    settings.BACKUP_DIR = tmp_path / "backups"
    return settings.BACKUP_DIR


def rows(path: Path, sql: str) -> list[tuple]:
    database = sqlite3.connect(path)
    try:
        return database.execute(sql).fetchall()
    finally:
        database.close()


def small_database(path: Path, values: int = 3) -> Path:
    database = sqlite3.connect(path)
    database.execute("CREATE TABLE t (v INTEGER)")
    database.executemany("INSERT INTO t VALUES (?)", [(n,) for n in range(values)])
    database.commit()
    database.close()
    return path


@pytest.fixture
def file_database(monkeypatch, tmp_path) -> Path:
    """Backups copy this small file, as they would the laptop's database, instead of the
    test suite's own."""
    path = small_database(tmp_path / "live.sqlite3")
    monkeypatch.setattr(backups, "_live_sqlite", lambda: path)
    return path


# --- one backup --------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_backup_is_a_sound_copy_named_after_its_event_round_time_and_moment(
    organizer, folder, file_database
):
    event = factories.make_event(owner=organizer)
    backup = back_up(event_id=event.pk, round_number=1, moment=Moment.ON_DEMAND, now=NOON)
    assert (
        backup.path.name == f"event-{event.pk}-round-01-20261122T120000.000000Z-on-demand.sqlite3"
    )
    assert (backup.event_id, backup.round_number, backup.taken_at) == (event.pk, 1, NOON)
    assert integrity_problems(backup.path) == []
    assert rows(backup.path, "SELECT count(*) FROM t") == [(3,)]
    # One self-contained file, readable by its owner only.
    assert rows(backup.path, "PRAGMA journal_mode") == [("delete",)]
    assert oct(backup.path.stat().st_mode & 0o777) == "0o600"
    assert [p.name for p in folder.iterdir()] == [backup.path.name]


@pytest.fixture
def in_memory(monkeypatch):
    """A SQLite database kept in memory, whichever database this run uses."""
    monkeypatch.setattr(backups, "_live_sqlite", lambda: backups.IN_MEMORY)


@pytest.mark.django_db
def test_a_database_in_memory_cannot_be_backed_up(organizer, folder, in_memory):
    event = factories.make_event(owner=organizer)
    with pytest.raises(BackupFailed, match="kept in memory"):
        back_up(event_id=event.pk, round_number=0, moment=Moment.ON_DEMAND)
    assert not folder.exists()


@pytest.mark.django_db
def test_two_backups_in_the_same_instant_get_two_names_in_the_order_taken(
    organizer, folder, file_database
):
    event = factories.make_event(owner=organizer)
    first = back_up(event_id=event.pk, round_number=0, moment=Moment.ON_DEMAND, now=NOON)
    second = back_up(event_id=event.pk, round_number=0, moment=Moment.ON_DEMAND, now=NOON)
    assert first.path != second.path
    assert sorted(p.name for p in folder.iterdir()) == [first.path.name, second.path.name]
    assert list_backups(event_id=event.pk) == [second, first]


@pytest.mark.django_db
def test_each_event_keeps_its_newest_ten_backups(organizer, folder, file_database):
    event, other = factories.make_event(owner=organizer), factories.make_event(owner=organizer)
    back_up(event_id=other.pk, round_number=0, moment=Moment.ON_DEMAND, now=NOON)
    taken = [
        back_up(
            event_id=event.pk,
            round_number=minute // 5,
            moment=Moment.ROUND_CLOSED,
            now=NOON + timedelta(minutes=minute),
        )
        for minute in range(13)
    ]
    kept = list_backups(event_id=event.pk)
    assert len(kept) == KEEP_PER_EVENT
    assert kept == list(reversed(taken[-KEEP_PER_EVENT:]))
    assert len(list_backups(event_id=other.pk)) == 1


def test_the_last_backup_is_read_from_the_file_names(tmp_path):
    for name in (
        "event-3-round-01-20261122T120000.000000Z-closed.sqlite3",
        "event-3-round-02-20261122T123000.000000Z-closed.sqlite3",
        "event-30-round-01-20261122T130000.000000Z-closed.sqlite3",
        "event-3-notes.txt",
        "before-restore-20261122T140000.000000Z.sqlite3",
    ):
        (tmp_path / name).touch()
    latest = last_backup(3, directory=tmp_path)
    assert latest.round_number == 2
    assert latest.taken_at == NOON + timedelta(minutes=30)
    assert last_backup(4, directory=tmp_path) is None
    assert last_backup(3, directory=tmp_path / "not-made-yet") is None


# --- the moments ---------------------------------------------------------------------------


def backups_of(callbacks: list) -> list:
    """The commit's callbacks but the live channels' wake (tournament.common.wake), which
    every version bump asks for once a stream has been served in this process."""
    return [callback for callback in callbacks if callback is not wake.wake_now]


@pytest.mark.django_db
def test_closing_a_round_backs_up_once_the_close_commits(
    organizer, folder, file_database, django_capture_on_commit_callbacks
):
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        close_round(round_=event.current_round, by=organizer)
        assert not folder.exists()  # nothing before the commit
    assert len(backups_of(callbacks)) == 1
    (backup,) = list_backups(event_id=event.pk)
    assert (backup.round_number, backup.moment) == (1, "closed")


@pytest.mark.django_db
def test_starting_the_debrief_backs_up(
    organizer, folder, file_database, django_capture_on_commit_callbacks
):
    event = factories.play_until(
        factories.seated_event(owner=organizer, players=8, tables=2), "between", by=organizer
    )
    with django_capture_on_commit_callbacks(execute=True):
        start_debrief(event=event)
    assert [b.moment for b in list_backups(event_id=event.pk)] == ["debrief"]


@pytest.mark.django_db
def test_a_failing_backup_is_logged_and_the_close_stands(
    organizer, settings, tmp_path, monkeypatch, caplog, django_capture_on_commit_callbacks
):
    settings.BACKUP_DIR = tmp_path / "a-file-not-a-folder"
    settings.BACKUP_DIR.write_text("")
    monkeypatch.setattr(backups, "_live_sqlite", lambda: small_database(tmp_path / "db"))
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))
    with django_capture_on_commit_callbacks(execute=True):
        close_round(round_=event.current_round, by=organizer)
    event.refresh_from_db()
    assert event.phase == "between"
    assert "backup of event" in caplog.text
    assert "failed" in caplog.text


@pytest.mark.django_db
def test_a_database_in_memory_gets_no_automatic_backup(
    organizer, folder, in_memory, django_capture_on_commit_callbacks
):
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        close_round(round_=event.current_round, by=organizer)
    assert backups_of(callbacks) == []
    assert not folder.exists()


# --- the console -----------------------------------------------------------------------------


@pytest.mark.django_db
def test_back_up_now_takes_a_backup_and_the_console_shows_when(
    signed_in, organizer, folder, file_database
):
    event = factories.make_event(owner=organizer)
    console = reverse("organizer:event", args=[event.pk])
    page = signed_in.get(console).content.decode()
    assert 'id="records"' in page
    assert "No backup yet." in page
    response = signed_in.post(reverse("organizer:back_up_now", args=[event.pk]), follow=True)
    page = response.content.decode()
    (backup,) = list_backups(event_id=event.pk)
    assert f"Backup taken: {backup.path.name}" in page
    assert "Last backup:" in page
    assert integrity_problems(backup.path) == []


@pytest.mark.django_db
def test_a_backup_that_cannot_be_written_says_why(
    signed_in, organizer, settings, tmp_path, file_database
):
    settings.BACKUP_DIR = tmp_path / "in-the-way"
    settings.BACKUP_DIR.write_text("")
    event = factories.make_event(owner=organizer)
    response = signed_in.post(reverse("organizer:back_up_now", args=[event.pk]), follow=True)
    assert "The backup could not be written" in response.content.decode()


@pytest.mark.django_db
def test_back_up_now_is_the_owners_and_a_post(client, django_user_model, event, folder):
    url = reverse("organizer:back_up_now", args=[event.pk])
    client.force_login(factories.make_organizer(django_user_model, "grace"))
    assert client.post(url).status_code == 404
    client.force_login(event.owner)
    assert client.get(url)["Location"].endswith("#records")
    assert not folder.exists()


# --- a backup while phones report -------------------------------------------------------------

WRITER_AND_BACKUP = """
import json, threading, time, uuid
import django
django.setup()
from django.core.management import call_command
from django.contrib.auth import get_user_model
from django.db import connection
from tests import factories
from tables.writes.reporting import report_game
from tournament.writes.backups import Moment, back_up
from tournament.models import Seat

call_command("migrate", verbosity=0)
owner = factories.make_organizer(get_user_model(), "ada")
event = factories.start_rounds(factories.seated_event(owner=owner, players=12, tables=3))
seats = list(Seat.objects.filter(round__number=1).select_related("table", "player"))
acknowledged, errors, stop = [], [], threading.Event()

def report_until_stopped():
    try:
        n = 0
        while not stop.is_set():
            seat = seats[n % len(seats)]
            result = report_game(
                table=seat.table, round_number=1, client_key=uuid.uuid4().hex, winner=seat.player
            )
            acknowledged.append(result.game.pk)  # report_game returned: committed
            n += 1
    except Exception as error:
        errors.append(repr(error))
    finally:
        connection.close()

def wait_for(count):
    deadline = time.monotonic() + 60
    while len(acknowledged) < count and not errors and time.monotonic() < deadline:
        time.sleep(0.002)

writer = threading.Thread(target=report_until_stopped)
writer.start()
wait_for(100)
before = list(acknowledged)
backup = back_up(event_id=event.pk, round_number=1, moment=Moment.ON_DEMAND)
after_backup = len(acknowledged)
wait_for(after_backup + 100)
stop.set()
writer.join()
print(json.dumps({"backup": str(backup.path), "before": before, "after_backup": after_backup,
                  "total": len(acknowledged), "errors": errors}))
"""


def test_a_backup_taken_while_a_phone_reports_holds_every_acknowledged_game(tmp_path):
    """Against a real database file (WAL, as the laptop runs it): one thread reports games
    through tables.writes.reporting.report_game while the backup is taken. SQLite even when the
    suite runs on PostgreSQL, whose backups are JSON records."""
    env = {
        **os.environ,
        "FIVETRICKS_DATA_DIR": str(tmp_path),
        "DJANGO_SETTINGS_MODULE": "tournament.settings",
    }
    env.pop("DATABASE_URL", None)
    done = subprocess.run(
        [sys.executable, "-c", WRITER_AND_BACKUP],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    outcome = json.loads(done.stdout.strip().splitlines()[-1])
    assert outcome["errors"] == []
    backup = Path(outcome["backup"])
    assert integrity_problems(backup) == []
    in_backup = {row[0] for row in rows(backup, "SELECT id FROM tables_game")}
    assert len(outcome["before"]) >= 100
    assert set(outcome["before"]) <= in_backup
    # The writer was never held up for long: it went on reporting after the backup.
    assert outcome["total"] >= outcome["after_backup"] + 100
    assert Backup.from_path(backup).moment == "on-demand"
