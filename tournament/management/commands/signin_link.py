"""Print a fresh one-time sign-in link for an organizer (creating the account if needed).

Terms:
    port   the running server's, as `serve` recorded it in the data folder
           (tournament.serving.one_server, Terms: server file); with no server running,
           --port, else FIVETRICKS_PORT or 8000.
"""

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from tournament.reads.room import phone_base_url, room_settings
from tournament.serving import one_server
from tournament.writes.signin import DEFAULT_ORGANIZER, ensure_organizer, sign_in_path


def link_port(given: int | None) -> int:
    """The port the link names (see Terms)."""
    if running := one_server.running_server(settings.DATA_DIR):
        return running["port"]
    return given or settings.PORT


class Command(BaseCommand):
    help = "Print a one-time sign-in link for an organizer account."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--username", default=DEFAULT_ORGANIZER)
        parser.add_argument(
            "--port",
            type=int,
            default=None,
            help="The port the server will listen on, when none is running (default: "
            "FIVETRICKS_PORT or 8000). A running server's own port always wins.",
        )
        parser.add_argument(
            "--superuser",
            action="store_true",
            help="Create the account as a superuser (sees every event and the admin).",
        )

    def handle(self, *args: object, **options: Any) -> None:  # argparse values
        user, _ = ensure_organizer(options["username"], superuser=options["superuser"] or None)
        port = link_port(options["port"])
        room = room_settings(organizer=user)
        self.stdout.write(f"{phone_base_url(port, room)}{sign_in_path(user)}")
