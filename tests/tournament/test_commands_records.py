"""The records commands: export_event, import_event and restore_backup, as an organizer
runs them at the terminal, including a whole session on a real database file."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from tests.tournament.writes.test_backups import rows, small_database
from tournament.models import Event, Player
from tournament.reads.records import export_event
from tournament.writes import backups
from tournament.writes.record_file import MAX_PLAYERS, MAX_RECORD_BYTES, MAX_ROUNDS
from tournament.writes.rounds import delete_event

REPO = Path(__file__).resolve().parents[2]


def run(command: str, *args, **options) -> str:
    out = StringIO()
    call_command(command, *args, stdout=out, stderr=StringIO(), **options)
    return out.getvalue()


def rehearsal() -> Event:
    call_command("demo_event", players=8, rounds=2, stdout=StringIO())
    return Event.objects.latest("pk")


# --- export_event ------------------------------------------------------------------------


@pytest.mark.django_db
def test_export_writes_the_record_to_the_output_or_a_file(tmp_path):
    event = rehearsal()
    printed = json.loads(run("export_event", str(event.pk)))
    assert printed["event"]["name"] == event.name
    run("export_event", str(event.pk), output=str(tmp_path / "event.json"))
    written = json.loads((tmp_path / "event.json").read_text(encoding="utf-8"))
    assert written["rounds"] == printed["rounds"]
    text = (tmp_path / "event.json").read_text(encoding="utf-8")
    for name in event.players.values_list("name", flat=True):
        assert json.dumps(name, ensure_ascii=False) in text  # accents as they are


@pytest.mark.django_db
def test_export_of_an_unknown_event_says_so():
    with pytest.raises(CommandError, match="no event with id 999"):
        run("export_event", "999")


# --- import_event ------------------------------------------------------------------------


@pytest.mark.django_db
def test_import_makes_a_new_event_for_the_installations_organizer(tmp_path):
    event = rehearsal()
    path = tmp_path / "event.json"
    path.write_text(json.dumps(export_event(event), ensure_ascii=False), encoding="utf-8")
    said = run("import_event", str(path))
    imported = Event.objects.exclude(pk=event.pk).get()
    assert f"as event {imported.pk}, owned by organizer" in said
    assert imported.owner.username == "organizer"
    assert imported.players.count() == event.players.count()


def counts() -> tuple[int, int, int]:
    return Event.objects.count(), Player.objects.count(), get_user_model().objects.count()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("content", "says"),
    [
        (b"", "is not JSON"),
        (b"name;status\nZo\xc3\xab;present\n", "is not JSON"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "is not UTF-8 text"),
        (b'{"format": "fivetricks-event \xff"}', r"is not UTF-8 text \(byte 29\)"),
        (b"[" * 200_000 + b"]" * 200_000, "more than 10 deep"),
        (b'{"seed": 1' + b"9" * 5000 + b"}", "not JSON this installation reads"),
        (b'{"format": "fivetricks-event", "version": 7}', "version 1"),
        (b'{"players": []}', "not a Five Tricks event record"),
        (b"[1, 2, 3]", "expected an object"),
    ],
)
def test_a_broken_or_foreign_file_is_refused_and_writes_nothing(tmp_path, content, says):
    path = tmp_path / "event.json"
    path.write_bytes(content)
    before = counts()
    with pytest.raises(CommandError, match=says):
        run("import_event", str(path), owner="newcomer")
    assert counts() == before
    assert not get_user_model().objects.filter(username="newcomer").exists()


@pytest.mark.django_db
def test_a_record_broken_deep_inside_writes_nothing_not_even_its_owner(tmp_path):
    record = export_event(rehearsal())
    record["rounds"][-1]["games"][-1]["tricks"] = {"Nobody at all": 3}
    path = tmp_path / "event.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    before = counts()
    with pytest.raises(CommandError, match="“Nobody at all” is not on the roster"):
        run("import_event", str(path), owner="newcomer")
    assert counts() == before


def refused_in_one_line(path: Path) -> str:
    """The import's refusal of this file, checked to be one line that wrote nothing."""
    before = counts()
    with pytest.raises(CommandError) as refused:
        run("import_event", str(path), owner="newcomer")
    assert counts() == before
    message = str(refused.value)
    assert "\n" not in message
    return message


@pytest.mark.django_db
def test_a_file_over_the_size_limit_is_refused_unread(tmp_path):
    path = tmp_path / "event.json"
    with path.open("wb") as handle:
        handle.truncate(MAX_RECORD_BYTES + 1)  # sparse: costs no disk
    message = refused_in_one_line(path)
    assert message == (
        f"{path}: This file cannot be imported: it is 65 MB, and an event record is at most 64 MB."
    )


@pytest.mark.django_db
@pytest.mark.parametrize(("players", "rounds"), [(MAX_PLAYERS + 1, 2), (8, MAX_ROUNDS + 1)])
def test_more_players_or_rounds_than_the_limits_are_refused_with_the_limits(
    tmp_path, players, rounds
):
    record = export_event(rehearsal())
    record["players"] = (record["players"] * players)[:players]
    record["rounds"] = (record["rounds"] * rounds)[:rounds]
    path = tmp_path / "event.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert refused_in_one_line(path).endswith(
        f"it has {players} players and {rounds} rounds, and an event has at most "
        "2000 players and 500 rounds."
    )


@pytest.mark.django_db
def test_a_record_nested_deeper_than_the_format_is_refused(tmp_path):
    record = export_event(rehearsal())
    deep: list = []
    for _level in range(12):
        deep = [deep]
    record["rounds"][0]["games"][0]["tricks"] = deep
    path = tmp_path / "event.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert "more than 10 deep" in refused_in_one_line(path)


@pytest.mark.django_db
@pytest.mark.parametrize("text", ["\ud800", "Zo\udc00e", "\udfff\ud800"])
def test_a_lone_surrogate_escaped_in_the_json_is_refused_at_its_place(tmp_path, text):
    record = export_event(rehearsal())
    record["players"][1]["name"] = text
    path = tmp_path / "event.json"
    path.write_text(json.dumps(record), encoding="ascii")  # written as \ud800 escapes
    assert "\\ud800" in path.read_text(encoding="ascii") or "\\udc00" in path.read_text(
        encoding="ascii"
    )
    assert refused_in_one_line(path).endswith(
        "players[1].name: text that is not valid Unicode (half of a surrogate pair, "
        "such as \\ud800)."
    )


@pytest.mark.django_db
def test_a_missing_file_is_named():
    with pytest.raises(CommandError, match=r"Cannot read nowhere\.json"):
        run("import_event", "nowhere.json")


# --- backups kept in the database (PostgreSQL) ---------------------------------------------


@pytest.mark.django_db
def test_an_event_deleted_by_mistake_comes_back_from_a_backup_kept_in_the_database(
    monkeypatch,
):
    monkeypatch.setattr(backups, "_live_sqlite", lambda: None)  # as on PostgreSQL
    event = rehearsal()
    assert "No backups in the database yet." in run("restore_backup")
    taken = backups.back_up(
        event_id=event.pk, round_number=event.round_number, moment=backups.Moment.ON_DEMAND
    )
    listed = run("restore_backup")
    assert "Backups in the database, newest first:" in listed
    assert taken.name in listed
    record = export_event(event)
    delete_event(event=event)

    said = run("import_event", taken.name)
    back = Event.objects.get()
    assert f"as event {back.pk}, owned by organizer" in said
    again = export_event(back)
    assert again["event"]["name"] == record["event"]["name"]
    assert again["players"] == record["players"]
    assert again["rounds"] == record["rounds"]


@pytest.mark.django_db
def test_a_file_of_that_name_comes_before_a_backup_in_the_database(monkeypatch, tmp_path):
    monkeypatch.setattr(backups, "_live_sqlite", lambda: None)
    event = rehearsal()
    taken = backups.back_up(event_id=event.pk, round_number=1, moment=backups.Moment.ON_DEMAND)
    monkeypatch.chdir(tmp_path)
    (tmp_path / taken.name).write_text("not a record", encoding="utf-8")
    with pytest.raises(CommandError, match="is not JSON"):
        run("import_event", taken.name)


# --- restore_backup: refusals ------------------------------------------------------------


def malformed_database(path: Path) -> Path:
    database = sqlite3.connect(path)
    database.execute("CREATE TABLE t (v TEXT)")
    database.executemany("INSERT INTO t VALUES (?)", [("x" * 200,) for _ in range(500)])
    database.execute("CREATE INDEX t_v ON t (v)")
    database.commit()
    database.close()
    data = bytearray(path.read_bytes())
    data[4096 * 3 : 4096 * 3 + 64] = b"\xff" * 64  # scribble over one page of the table
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize(
    ("make", "says"),
    [
        (lambda path: path.write_text("some notes, not a database " * 100), "not a sound SQLite"),
        (malformed_database, "not a sound SQLite"),
        (lambda path: sqlite3.connect(path).execute("CREATE TABLE t (v)"), "not a Five Tricks"),
        (lambda path: None, "There is no file"),
    ],
)
def test_restore_refuses_a_file_that_is_not_a_sound_backup(tmp_path, monkeypatch, make, says):
    # A live database file, as on the laptop, whichever database this run uses.
    live = small_database(tmp_path / "live.sqlite3")
    monkeypatch.setattr(backups, "_live_sqlite", lambda: live)
    path = tmp_path / "backup.sqlite3"
    make(path)
    with pytest.raises(CommandError, match=says):
        run("restore_backup", str(path))


def test_restore_without_a_file_lists_the_backups(settings, tmp_path, monkeypatch):
    monkeypatch.setattr(backups, "_live_sqlite", lambda: tmp_path / "live.sqlite3")
    settings.BACKUP_DIR = tmp_path
    assert "No backups" in run("restore_backup")
    (tmp_path / "event-4-round-02-20261122T120000.000000Z-closed.sqlite3").touch()
    (tmp_path / "before-restore-20261122T130000.000000Z.sqlite3").touch()
    listed = run("restore_backup").splitlines()
    assert listed[1].endswith("before-restore-20261122T130000.000000Z.sqlite3")
    assert listed[2].endswith("event-4-round-02-20261122T120000.000000Z-closed.sqlite3")


# --- a whole session on a database file ---------------------------------------------------


def manage(data_dir: Path, *args: str) -> str:
    env = {**os.environ, "FIVETRICKS_DATA_DIR": str(data_dir)}
    env.pop("DATABASE_URL", None)
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_rehearse_export_import_and_restore_on_a_database_file(tmp_path):
    data = tmp_path / "data"
    live = data / "fivetricks.sqlite3"
    manage(data, "migrate", "--noinput", "-v", "0")
    manage(data, "demo_event", "--players", "8", "--rounds", "2")
    closed = sorted((data / "backups").glob("event-1-round-*-closed.sqlite3"))
    assert [path.name[:16] for path in closed] == ["event-1-round-01", "event-1-round-02"]

    manage(data, "export_event", "1", "--output", str(tmp_path / "one.json"))
    assert "as event 2, owned by organizer" in manage(
        data, "import_event", str(tmp_path / "one.json")
    )
    again = json.loads(manage(data, "export_event", "2"))
    first = json.loads((tmp_path / "one.json").read_text(encoding="utf-8"))
    assert {**again, "exported_at": None} == {**first, "exported_at": None}

    said = manage(data, "restore_backup", closed[0].name)  # a name alone: the backup folder
    assert f"Restored {closed[0]}" in said
    # Back to the moment round 1 closed: one event, between rounds.
    assert rows(live, "SELECT id, phase, round_number FROM tournament_event") == [(1, "between", 1)]
    assert rows(live, "PRAGMA integrity_check") == [("ok",)]
    assert rows(live, "PRAGMA journal_mode") == [("wal",)]
    (kept,) = (data / "backups").glob("before-restore-*.sqlite3")
    assert rows(kept, "SELECT count(*) FROM tournament_event") == [(2,)]
    assert kept.name in said
