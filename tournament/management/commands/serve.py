"""Serve the tournament on the venue's network with waitress.

On first start it creates the organizer account and a rehearsal event, and every start
prints a one-time sign-in link and the address phones should use.
"""

from django.core.management import call_command, get_commands
from django.core.management.base import BaseCommand

from tournament.common.network import lan_base_url
from tournament.models import Event
from tournament.signin import ensure_organizer, sign_in_path


class Command(BaseCommand):
    help = "Serve the app with waitress on the LAN and print the sign-in link."

    def add_arguments(self, parser):
        parser.add_argument("--host", default="0.0.0.0")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--threads", type=int, default=8)
        parser.add_argument(
            "--no-rehearsal", action="store_true", help="Do not create a rehearsal event."
        )

    def handle(self, *args, **options):
        from waitress import serve

        from tournament.wsgi import application

        user, created = ensure_organizer()
        if created:
            self.stdout.write(self.style.SUCCESS("Created the organizer account 'organizer'."))
        if (
            not options["no_rehearsal"]
            and not Event.objects.exists()
            and "demo_event" in get_commands()
        ):
            self.stdout.write("Creating a rehearsal event with played rounds (demo_event)…")
            call_command("demo_event", players=24, rounds=3, seed=7, owner=user.username)
        base = lan_base_url(options["port"])
        rule = "=" * 72
        self.stdout.write(
            f"\n{rule}\n"
            f"  Five Tricks is running.\n\n"
            f"  Organizer, sign in once with this link (it works one time):\n"
            f"    {base}{sign_in_path(user)}\n\n"
            f"  Phones on the same Wi-Fi reach this laptop at:\n"
            f"    {base}/\n"
            f"  (QR codes on the table kit use this address. Set FIVETRICKS_PUBLIC_URL\n"
            f"   to override it.) A new link: make signin PORT={options['port']}\n"
            f"{rule}\n"
        )
        self.stdout.flush()
        serve(application, host=options["host"], port=options["port"], threads=options["threads"])
