"""Print a fresh one-time sign-in link for an organizer (creating the account if needed)."""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from tournament.reads.room import phone_base_url
from tournament.writes.signin import DEFAULT_ORGANIZER, ensure_organizer, sign_in_path


class Command(BaseCommand):
    help = "Print a one-time sign-in link for an organizer account."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--username", default=DEFAULT_ORGANIZER)
        parser.add_argument(
            "--port",
            type=int,
            default=settings.PORT,
            help="The port the server listens on (default: FIVETRICKS_PORT or 8000).",
        )
        parser.add_argument(
            "--superuser",
            action="store_true",
            help="Create the account as a superuser (sees every event and the admin).",
        )

    def handle(self, *args: object, **options: object) -> None:
        user, _ = ensure_organizer(options["username"], superuser=options["superuser"] or None)
        self.stdout.write(f"{phone_base_url(options['port'])}{sign_in_path(user)}")
