"""Put a backup of the SQLite database back in place of the live one.

    python manage.py restore_backup                      # list the backups, newest first
    python manage.py restore_backup event-12-round-02-20261122T231005.123456Z-closed.sqlite3

A file name alone is looked for in the backup folder. The backup must pass SQLite's
integrity check and be a Five Tricks database; the live database is backed up first
(``before-restore-<time>.sqlite3``), so a restore can itself be undone. How the copy is
made safely is explained in tournament.writes.backups.restore_database. A backup made before
the last update is brought up to date (migrate) after it is restored.

SQLite only. On PostgreSQL, where backups are kept in the database, the command without
a name lists them, and ``import_event <name>`` reads one back as a new event.
"""

from __future__ import annotations

from pathlib import Path

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.writes.backups import (
    BackupFailed,
    backup_dir,
    backups_in_database,
    list_backups,
    restore_database,
)


class Command(BaseCommand):
    help = "Restore the SQLite database from a backup (the current one is kept as a backup)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "file", nargs="?", help="The backup to restore; without it, list the backups."
        )

    def handle(self, *args, **options) -> None:
        if not options["file"]:
            self.list_backups()
            return
        path = Path(options["file"])
        if not path.exists() and (backup_dir() / path.name).exists():
            path = backup_dir() / path.name
        try:
            kept = restore_database(path)
        except BackupFailed as failed:
            raise CommandError(failed.message) from None
        self.stdout.write(_("The database as it was is kept in %(path)s.") % {"path": kept.path})
        connection = connections[DEFAULT_DB_ALIAS]
        executor = MigrationExecutor(connection)
        if executor.migration_plan(executor.loader.graph.leaf_nodes()):
            call_command("migrate", interactive=False, verbosity=0)
            self.stdout.write(_("The backup was made by an older version: brought up to date."))
        self.stdout.write(self.style.SUCCESS(_("Restored %(path)s.") % {"path": path}))

    def list_backups(self) -> None:
        backups = list_backups()
        in_database = backups_in_database()
        if not backups:
            if in_database:
                self.stdout.write(_("No backups in the database yet."))
            else:
                self.stdout.write(_("No backups in %(folder)s yet.") % {"folder": backup_dir()})
            return
        if in_database:
            self.stdout.write(_("Backups in the database, newest first:"))
        else:
            self.stdout.write(_("Backups in %(folder)s, newest first:") % {"folder": backup_dir()})
        for backup in backups:
            when = timezone.localtime(backup.taken_at).strftime("%Y-%m-%d %H:%M:%S")
            self.stdout.write(f"  {when}  {backup.name}")
        if in_database:
            self.stdout.write(_("Read one back as a new event with: import_event NAME"))
