"""Write one event as JSON: its whole record (tournament.reads.records), without secrets.

    python manage.py export_event 12 > event.json
    python manage.py export_event 12 --output event.json

Players are named and tables numbered, so ``import_event`` can read the file into any
installation. Finished events export like any other.
"""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from tournament.models import Event
from tournament.reads.records import export_event


class Command(BaseCommand):
    help = "Write an event (settings, roster, rounds, games, corrections) as JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("event_id", type=int, help="The event's id (see the console's URL).")
        parser.add_argument(
            "-o", "--output", help="Write to this file instead of the standard output."
        )

    def handle(self, *args, **options) -> None:
        event = Event.objects.filter(pk=options["event_id"]).first()
        if event is None:
            raise CommandError(_("There is no event with id %(id)s.") % {"id": options["event_id"]})
        text = json.dumps(export_event(event), ensure_ascii=False, indent=2)
        if options["output"]:
            path = Path(options["output"])
            try:
                path.write_text(text + "\n", encoding="utf-8")
            except OSError as error:
                raise CommandError(
                    _("Cannot write %(path)s: %(error)s") % {"path": path, "error": error}
                ) from error
            self.stderr.write(
                _("Wrote “%(name)s” to %(path)s.") % {"name": event.name, "path": path}
            )
        else:
            self.stdout.write(text)
