"""Read an event written by ``export_event`` into this installation, as a new event.

    python manage.py import_event event.json
    python manage.py import_event - < event.json
    python manage.py import_event event-12-round-02-20261122T231005.123456Z-closed.json

The last form reads a backup kept in the database (on PostgreSQL; ``restore_backup``
lists them) when no file has that name.

The new event gets a new id, fresh phone and projector links, and belongs to the
installation's organizer (or --owner). The file is checked whole first: a file that is
not an event record, or is broken anywhere, is refused with the place and the reason,
and nothing is written. So is a file over the size limit, of more than 2,000 players or
500 rounds, nested deeper than a record, or not valid Unicode
(tournament.writes.record_file).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils.translation import gettext as _

from tournament.writes.backups import stored_record
from tournament.writes.record_file import MAX_RECORD_BYTES, read_record_bytes, too_big
from tournament.writes.record_import import RecordProblem, import_event
from tournament.writes.signin import DEFAULT_ORGANIZER, ensure_organizer


def read_record(source: str) -> Any:
    """The JSON in a file ("-": the standard input), or CommandError saying why not, in
    one line (tournament.writes.record_file: too big, not UTF-8, not JSON, too deep)."""
    try:
        if source == "-":
            data = sys.stdin.buffer.read(MAX_RECORD_BYTES + 1)
        elif not Path(source).exists() and (stored := stored_record(source)) is not None:
            data = stored.encode("utf-8", "surrogatepass")
        else:
            with Path(source).open("rb") as handle:
                if (size := os.fstat(handle.fileno()).st_size) > MAX_RECORD_BYTES:
                    raise CommandError(f"{source}: {too_big(size).message}")
                data = handle.read(MAX_RECORD_BYTES + 1)
    except OSError as error:
        raise CommandError(
            _("Cannot read %(path)s: %(error)s") % {"path": source, "error": error}
        ) from None
    try:
        return read_record_bytes(data)
    except RecordProblem as problem:
        raise CommandError(f"{source}: {problem.message}") from None


class Command(BaseCommand):
    help = "Import an event written by export_event, as a new event of this installation."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "file",
            help="The JSON file, - for the standard input, or the name of a backup kept in "
            "the database.",
        )
        parser.add_argument(
            "--owner",
            default=DEFAULT_ORGANIZER,
            help="Username of the organizer who gets the event (created if missing).",
        )

    def handle(self, *args, **options) -> None:
        record = read_record(options["file"])
        try:
            # One transaction with the owner, so a refused file does not even add them.
            with transaction.atomic():
                owner, _created = ensure_organizer(options["owner"])
                imported = import_event(record=record, owner=owner)
        except RecordProblem as problem:
            raise CommandError(problem.message) from None
        event = imported.event
        self.stdout.write(
            self.style.SUCCESS(
                _("Imported “%(name)s” as event %(id)s, owned by %(owner)s.")
                % {"name": event.name, "id": event.pk, "owner": owner.get_username()}
            )
        )
        if imported.unknown_users:
            self.stdout.write(
                _("No account here for %(names)s: their rounds and corrections show no name.")
                % {"names": ", ".join(imported.unknown_users)}
            )
