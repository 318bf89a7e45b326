"""Backups of the database while the event runs, and putting one back.

Terms:
    where backups go
                   On SQLite (a laptop, or one server) a backup is a copy of the database
                   file in the backup folder. On PostgreSQL (a hosted installation, maybe
                   several app servers on one database) it is the event's JSON record,
                   kept in the database itself (tournament.models.StoredBackup). Not
                   files there too: each server has its own data folder, so each round's
                   backup would land on whichever server closed the round, the other
                   consoles would say "No backup yet", and each server would keep a "last
                   ten" of its own. The database is the one place every server already
                   reads and writes; a shared folder would be one more thing for the host to
                   mount on every server, keep writable and back up, and a laptop needs
                   none of it. What a stored backup cannot survive is the loss of the
                   database itself: that is the job of the host's PostgreSQL backups
                   (pg_dump, WAL archiving), as restoring a whole PostgreSQL database is.
    backup         a copy of the whole SQLite database (every event in it), taken online
                   while phones keep reporting (tournament.common.sqlite_files: online
                   copy).
    backup folder  settings.BACKUP_DIR: FIVETRICKS_BACKUP_DIR, else ``backups/`` in the
                   data directory; made at the first backup. Backups hold everything the
                   database holds (sign-in sessions too), so the folder and its files are
                   readable by their owner only.
    name           ``event-12-round-02-20261122T231005.123456Z-closed.sqlite3``: the event
                   and round that prompted the backup, when it began (UTC, to the
                   microsecond, so two backups never share a name), and its moment
                   (``.json`` for one kept in the database). Names of one event sort in
                   the order the backups were taken.
    moment         why a backup was taken: a round was closed, the debrief started, the
                   organizer asked for one (console), or a restore is about to replace the
                   database (``before-restore-<time>.sqlite3``, the database as it was).
    kept           the newest KEEP_PER_EVENT backups of each event (and of the copies made
                   before a restore); older ones are deleted as new ones arrive. In the
                   database they are pruned under the event's row lock, so two servers
                   backing up one event at once still keep exactly that many.
    automatic      the backups taken after a round close and at the start of the debrief.
                   They run once the transaction that made the change has committed, so
                   they hold it, and hold up no phone's report for longer than it takes
                   to store one row (in the database, under the event's lock). One
                   that fails is logged; it never undoes the change or shows the organizer
                   an error for it.
    in memory      a database kept in memory (the test suite's) has no file: nothing to
                   lose in a crash and nothing to copy. It gets no automatic backups, and
                   asking for one is refused.
    JSON backup    on PostgreSQL the app cannot copy the database file, so the same moments
                   keep the event's record (tournament.reads.records) in the database
                   instead (see where backups go), read in one snapshot of the database
                   without locking the event: ``import_event <name>`` reads it back as a
                   new event.
    restore        (SQLite only) replace the live database with a backup: the backup must
                   pass ``PRAGMA integrity_check`` and be a Five Tricks database this
                   version can run, the live database is first backed up itself, and the
                   backup is then copied *into* the live file with the same backup API (see
                   restore_database for why).
"""

from __future__ import annotations

import json
import logging
import re
import sqlite3
import threading
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from functools import partial
from pathlib import Path

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections, transaction
from django.db.backends.sqlite3.base import DatabaseWrapper as SQLiteWrapper
from django.db.migrations.loader import MigrationLoader
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.common.disk import is_disk_full, note_disk_full
from tournament.common.errors import Refused
from tournament.common.sqlite_files import (
    BUSY_TIMEOUT_SECONDS,
    copy_database,
    integrity_problems,
    set_aside,
    sqlite_uri,
)
from tournament.models import Event, StoredBackup
from tournament.reads.records import export_event

KEEP_PER_EVENT = 10
STAMP_FORMAT = "%Y%m%dT%H%M%S.%fZ"
RESTORE_PREFIX = "before-restore"
IN_MEMORY = ":memory:"
_NAME = re.compile(
    r"^event-(?P<event>\d+)-round-(?P<round>\d+)-(?P<stamp>\d{8}T\d{6}\.\d{6}Z)"
    r"-(?P<moment>[a-z-]+)\.(?:sqlite3|json)$"
)
_RESTORE_NAME = re.compile(rf"^{RESTORE_PREFIX}-(?P<stamp>\d{{8}}T\d{{6}}\.\d{{6}}Z)\.sqlite3$")
# The tables that make a file a Five Tricks database rather than any SQLite file.
_OUR_TABLES = {"django_migrations", "tournament_event", "tables_table"}

logger = logging.getLogger(__name__)
# One backup at a time in this process: two at once would only compete for the disk,
# and choosing a free name must not race.
_writing = threading.Lock()


class Moment(StrEnum):
    ROUND_CLOSED = "closed"
    DEBRIEF = "debrief"
    ON_DEMAND = "on-demand"


class BackupFailed(Refused):
    """A backup or a restore that could not be done; nothing was replaced."""


@dataclass(frozen=True)
class Backup:
    """One backup: a file of the backup folder, as its name describes it (see Terms:
    name), or a record kept in the database (``path`` None)."""

    name: str
    taken_at: datetime
    event_id: int | None = None
    round_number: int | None = None
    moment: str = RESTORE_PREFIX
    path: Path | None = None

    @classmethod
    def from_path(cls, path: Path) -> Backup | None:
        """The backup a file's name describes; None for any other file."""
        if match := _NAME.match(path.name):
            return cls(
                name=path.name,
                path=path,
                taken_at=_parse_stamp(match["stamp"]),
                event_id=int(match["event"]),
                round_number=int(match["round"]),
                moment=match["moment"],
            )
        if match := _RESTORE_NAME.match(path.name):
            return cls(name=path.name, path=path, taken_at=_parse_stamp(match["stamp"]))
        return None

    @classmethod
    def from_stored(cls, stored: StoredBackup) -> Backup:
        return cls(
            name=stored.name,
            taken_at=stored.taken_at,
            event_id=stored.event_id,
            round_number=stored.round_number,
            moment=stored.moment,
        )


def _parse_stamp(stamp: str) -> datetime:
    return datetime.strptime(stamp, STAMP_FORMAT).replace(tzinfo=UTC)


def backup_dir() -> Path:
    return Path(settings.BACKUP_DIR)


def backups_in_database() -> bool:
    """Whether backups are kept in the database (PostgreSQL) rather than the folder (see
    Terms: where backups go)."""
    return _live_sqlite() is None


def list_backups(*, event_id: int | None = None, directory: Path | None = None) -> list[Backup]:
    """The backups, newest first; only one event's when event_id is given. From the
    database when backups are kept there and no folder is named."""
    if directory is None and backups_in_database():
        stored = StoredBackup.objects.listed()
        if event_id is not None:
            stored = stored.filter(event_id=event_id)
        return [Backup.from_stored(row) for row in stored]
    directory = directory or backup_dir()
    try:
        paths = list(directory.iterdir())
    except OSError:
        # Not made yet, or something else in its place: no backups to show (the console
        # must open whatever the folder is); taking one says what is wrong.
        return []
    found = (Backup.from_path(path) for path in paths)
    return sorted(
        (b for b in found if b is not None and (event_id is None or b.event_id == event_id)),
        key=lambda backup: (backup.taken_at, backup.name),  # a file's name (from_path)
        reverse=True,
    )


def last_backup(event_id: int, *, directory: Path | None = None) -> Backup | None:
    """The event's newest backup: read from the folder's file names (no query), or in
    one query from the database."""
    if directory is None and backups_in_database():
        stored = StoredBackup.objects.listed().filter(event_id=event_id).first()
        return None if stored is None else Backup.from_stored(stored)
    backups = list_backups(event_id=event_id, directory=directory)
    return backups[0] if backups else None


def stored_record(name: str) -> str | None:
    """The JSON text of the backup kept in the database under this name, if any."""
    return StoredBackup.objects.filter(name=name).values_list("record", flat=True).first()


def prune(directory: Path, *, event_id: int | None, keep: int = KEEP_PER_EVENT) -> list[Path]:
    """Delete all but the newest ``keep`` backups of one event (None: the copies made
    before restores); returns the files deleted."""
    backups = [b for b in list_backups(directory=directory) if b.event_id == event_id]
    deleted = [b.path for b in backups[keep:] if b.path is not None]  # files: all have one
    for path in deleted:
        path.unlink(missing_ok=True)
    return deleted


# --- the live database and the backup folder ---------------------------------------------


def _free_name(directory: Path, prefix: str, when: datetime, suffix: str) -> Path:
    """``<prefix>-<time><suffix>`` for a file not there yet; a later microsecond if it is."""
    when = when.astimezone(UTC)
    while True:
        path = directory / f"{prefix}-{when.strftime(STAMP_FORMAT)}{suffix}"
        if not path.exists():
            return path
        when += timedelta(microseconds=1)


def _folder(directory: Path) -> Path:
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    return directory


def _live_sqlite(alias: str = DEFAULT_DB_ALIAS) -> Path | str | None:
    """The live SQLite database's file; IN_MEMORY for one kept in memory (the test
    suite's), None on another database."""
    connection = connections[alias]
    if not isinstance(connection, SQLiteWrapper):  # vendor "sqlite", typed as such
        return None
    if connection.is_in_memory_db():
        return IN_MEMORY
    return Path(connection.settings_dict["NAME"])


def _refuse_in_memory(source: Path | str | None) -> None:
    if source == IN_MEMORY:
        raise BackupFailed(_("This database is kept in memory: there is no file to back up."))


# --- taking backups ----------------------------------------------------------------------


def back_up(
    *,
    event_id: int,
    round_number: int,
    moment: Moment,
    directory: Path | None = None,
    now: datetime | None = None,
) -> Backup:
    """Take one backup for an event (see Terms) and keep that event's newest ones: a copy
    of the SQLite file in ``directory`` (default: the backup folder), or on PostgreSQL
    the event's record in the database.

    Raises BackupFailed with the reason when the backup cannot be written.
    """
    now = now or timezone.now()
    source = _live_sqlite()
    _refuse_in_memory(source)
    if source is None:
        return _store_record(event_id=event_id, round_number=round_number, moment=moment, now=now)
    directory = directory or backup_dir()
    prefix = f"event-{event_id}-round-{round_number:02d}"
    try:
        with _writing:
            path = _free_name(_folder(directory), prefix, now, f"-{moment}.sqlite3")
            copy_database(source, path)
            prune(directory, event_id=event_id)
    except (OSError, sqlite3.Error, DatabaseError) as error:
        if is_disk_full(error):
            note_disk_full()  # the console says so in red (tournament.common.disk)
        raise BackupFailed(
            _("The backup could not be written to %(folder)s: %(error)s")
            % {"folder": directory, "error": error}
        ) from error
    backup = Backup.from_path(path)
    assert backup is not None  # _free_name gave the file a backup's name
    return backup


def _store_record(*, event_id: int, round_number: int, moment: Moment, now: datetime) -> Backup:
    """Keep the event's record in the database (see Terms: where backups go)."""
    prefix = f"event-{event_id}-round-{round_number:02d}"
    try:
        # export_event reads one snapshot of the database, and takes no lock.
        record = export_event(Event.objects.get(pk=event_id))
        text = json.dumps(record, ensure_ascii=False, indent=1)
        # The event's row lock: one backup of an event at a time on any server, so the
        # name chosen is free and exactly KEEP_PER_EVENT are kept. Held for an insert and
        # a delete, not while the record is read.
        with transaction.atomic():
            Event.objects.lock(event_id)
            when = now.astimezone(UTC)
            names = set(
                StoredBackup.objects.filter(event_id=event_id).values_list("name", flat=True)
            )
            while (name := f"{prefix}-{when.strftime(STAMP_FORMAT)}-{moment}.json") in names:
                when += timedelta(microseconds=1)
            stored = StoredBackup.objects.create(
                name=name,
                event_id=event_id,
                round_number=round_number,
                moment=moment,
                taken_at=when,
                record=text,
            )
            _keep_newest(event_id)
    except DatabaseError as error:
        if is_disk_full(error):
            note_disk_full()
        raise BackupFailed(
            _("The backup could not be kept in the database: %(error)s") % {"error": error}
        ) from error
    return Backup.from_stored(stored)


def _keep_newest(event_id: int) -> None:
    """Delete all but the event's newest KEEP_PER_EVENT backups kept in the database."""
    old = StoredBackup.objects.filter(event_id=event_id).newest_first()[KEEP_PER_EVENT:]
    StoredBackup.objects.filter(pk__in=list(old.values_list("pk", flat=True))).delete()


def back_up_after_commit(*, event: Event, moment: Moment, round_number: int | None = None) -> None:
    """Take an automatic backup once the current transaction commits (see Terms:
    automatic); the event's current round unless ``round_number`` is given."""
    if _live_sqlite() == IN_MEMORY:
        return
    transaction.on_commit(
        partial(
            _back_up_quietly,
            event_id=event.pk,
            round_number=event.round_number if round_number is None else round_number,
            moment=moment,
        )
    )


def _back_up_quietly(*, event_id: int, round_number: int, moment: Moment) -> None:
    try:
        back_up(event_id=event_id, round_number=round_number, moment=moment)
    except Exception:
        # Whatever went wrong, the change it follows is committed and must stand.
        logger.exception(
            "The %s backup of event %s (round %s) failed.", moment, event_id, round_number
        )


# --- restoring ---------------------------------------------------------------------------


def _refuse_unless_ours(path: Path) -> None:
    """Refuse a file that is not a sound Five Tricks database this version can run."""
    if not path.is_file():
        raise BackupFailed(_("There is no file %(path)s.") % {"path": path})
    if problems := integrity_problems(path):
        raise BackupFailed(
            _("%(path)s is not a sound SQLite database: %(problems)s")
            % {"path": path, "problems": "; ".join(problems[:5])}
        )
    database = sqlite3.connect(sqlite_uri(path, "ro"), uri=True)
    try:
        tables = {row[0] for row in database.execute("SELECT name FROM sqlite_master")}
        if _OUR_TABLES - tables:
            raise BackupFailed(_("%(path)s is not a Five Tricks database.") % {"path": path})
        applied = set(database.execute("SELECT app, name FROM django_migrations"))
    finally:
        database.close()
    known = set(MigrationLoader(None, ignore_no_migrations=True).disk_migrations)
    if applied - known:
        raise BackupFailed(
            _("%(path)s was made by a newer version of Five Tricks: update it first.")
            % {"path": path}
        )


def restore_database(
    backup: Path, *, directory: Path | None = None, now: datetime | None = None
) -> Backup:
    """Replace the live SQLite database with ``backup``; returns the copy of the database
    as it was, kept first in the backup folder.

    The backup is copied *into* the live file with SQLite's backup API rather than moved
    over it. The copy is one write transaction of the live database: it waits for a
    running server's write to finish, a crash halfway leaves the old database whole,
    and the write-ahead log and shared-memory files stay SQLite's to manage. Moving a
    file over the database (os.replace) would leave a running server writing to the
    old, unlinked file, and deleting its -wal and -shm files under an open connection
    corrupts it.
    """
    backup = Path(backup).resolve()
    live = _live_sqlite()
    if live is None:
        raise BackupFailed(
            _(
                "Restoring a backup works on the SQLite database only. On PostgreSQL, "
                "import a JSON backup as a new event (import_event) or use PostgreSQL's "
                "own tools."
            )
        )
    _refuse_unless_ours(backup)
    _refuse_in_memory(live)
    live = Path(live).resolve()
    if backup == live:
        raise BackupFailed(_("That file is the live database itself."))

    directory = directory or backup_dir()
    connections.close_all()
    # A live file SQLite cannot read (serve refuses it) is set aside as it is instead.
    broken = live.exists() and bool(integrity_problems(live, quick=True))
    try:
        with _writing:
            kept = _free_name(_folder(directory), RESTORE_PREFIX, now or timezone.now(), ".sqlite3")
            (set_aside if broken else copy_database)(live, kept)
            source = sqlite3.connect(sqlite_uri(backup, "ro"), uri=True)
            try:
                mode = "rwc" if broken else "rw"
                target = sqlite3.connect(
                    sqlite_uri(live, mode), uri=True, timeout=BUSY_TIMEOUT_SECONDS
                )
                try:
                    source.backup(target)
                    target.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                finally:
                    target.close()
            finally:
                source.close()
            prune(directory, event_id=None)
    except (OSError, sqlite3.Error) as error:
        raise BackupFailed(
            _("The backup could not be restored: %(error)s") % {"error": error}
        ) from error
    made = Backup.from_path(kept)
    assert made is not None  # _free_name gave the file a restore copy's name
    return made
