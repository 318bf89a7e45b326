"""Set up and serve the tournament on the venue's network with granian: the one entry point
on every platform (`make run` calls it; on Windows, `python manage.py serve`).

Terms:
    set-up   what every start does before serving: apply migrations, collect static files,
             ensure the organizer account and, on an empty database, a rehearsal event.
    banner   what every start prints once the port is bound: a one-time sign-in link and
             the address phones use, or a loud warning when phones could not reach it.
    worker   a granian process running the Django app (WSGI). One per core, except on
             Windows, where granian can run only one.
    thread   a worker's thread running one request at a time; Django's code holds the GIL,
             so a few per worker are enough to keep a slow page from holding up the polls.
"""

from __future__ import annotations

import multiprocessing
import os
import shlex
import sys
import textwrap
from pathlib import Path

from django.conf import settings
from django.core.management import call_command, get_commands
from django.core.management.base import BaseCommand, CommandParser
from django.db import connections
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from granian import Granian
from granian.constants import Interfaces
from granian.log import LogLevels

from tournament.common import network
from tournament.common.product import made_by
from tournament.models import Event
from tournament.writes.signin import ensure_organizer, sign_in_path

WSGI_TARGET = "tournament.wsgi:application"
THREADS_PER_WORKER = 4
RULE = "=" * 78


def default_workers() -> int:
    """One worker per core; granian shares its socket between processes everywhere but on
    Windows, where it falls back to one worker (and says so in a warning)."""
    if sys.platform == "win32":
        return 1
    return os.cpu_count() or 1


def python_command() -> str:
    """How to call this Python from the project folder, e.g. `.venv/bin/python`."""
    executable = Path(sys.executable)
    try:
        shown = str(executable.relative_to(Path.cwd()))
    except ValueError:
        shown = str(executable)
    return f'"{shown}"' if sys.platform == "win32" and " " in shown else shlex.quote(shown)


class Command(BaseCommand):
    help = "Set up (migrate, static files, organizer) and serve the app with granian."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--host", default="0.0.0.0", help="Address to listen on (all networks by default)."
        )
        parser.add_argument(
            "--port", type=int, default=None, help="Port (default: FIVETRICKS_PORT or 8000)."
        )
        parser.add_argument(
            "--workers", type=int, default=None, help="Worker processes (default: one per core)."
        )
        parser.add_argument(
            "--threads",
            type=int,
            default=THREADS_PER_WORKER,
            help="Threads per worker, each serving one request at a time.",
        )
        parser.add_argument(
            "--no-rehearsal", action="store_true", help="Do not create a rehearsal event."
        )
        parser.add_argument(
            "--setup-only",
            action="store_true",
            help="Do the set-up and print the links, then stop instead of serving.",
        )

    def handle(self, *args: object, **options: object) -> None:
        port = options["port"] or settings.PORT
        workers = max(1, options["workers"] or default_workers())
        if sys.platform == "win32":
            workers = 1  # granian would fall back to one anyway; the banner must say so
        user = self.set_up(rehearsal=not options["no_rehearsal"])
        if options["setup_only"]:
            self.print_banner(user, port=port, serving=False)
            return
        self.serve(
            user, host=options["host"], port=port, workers=workers, threads=options["threads"]
        )

    def set_up(self, *, rehearsal: bool) -> object:
        self.stdout.write(_("Preparing the database…"))
        call_command("migrate", interactive=False, verbosity=0)
        self.stdout.write(_("Collecting static files…"))
        call_command("collectstatic", interactive=False, verbosity=0)
        user, created = ensure_organizer()
        if created:
            self.stdout.write(self.style.SUCCESS(_("Created the organizer account 'organizer'.")))
        if rehearsal and not Event.objects.exists() and "demo_event" in get_commands():
            self.stdout.write(_("Creating a rehearsal event with played rounds (demo_event)…"))
            call_command("demo_event", players=24, rounds=3, seed=7, owner=user.username)
        return user

    def serve(self, user: object, *, host: str, port: int, workers: int, threads: int) -> None:
        # Workers read the port from the environment to build phones' links (settings.PORT).
        os.environ["FIVETRICKS_PORT"] = str(port)
        # Workers import Django afresh, as they must on Windows and macOS: every platform
        # then runs the same way, and no worker inherits this process's database connection.
        multiprocessing.set_start_method("spawn", force=True)
        connections.close_all()
        server = Granian(
            WSGI_TARGET,
            address=host,
            port=port,
            interface=Interfaces.WSGI,
            workers=workers,
            blocking_threads=max(1, threads),
            working_dir=settings.BASE_DIR,
            # Granian's own "Listening at 0.0.0.0" would send people to a useless address;
            # the banner says where to go instead. Its warnings and errors still show.
            log_level=LogLevels.warning,
        )
        # After the port is bound, so the banner never announces a server that failed.
        server.on_startup(lambda: self.print_banner(user, port=port, workers=workers))
        server.serve()

    def print_banner(
        self, user: object, *, port: int, workers: int = 0, serving: bool = True
    ) -> None:
        base = network.phone_base_url(port)
        lines = [RULE, f"  {made_by()}"]
        if serving:
            running = ngettext(
                "Five Tricks is running (granian, %(workers)s worker). Stop it with Ctrl+C.",
                "Five Tricks is running (granian, %(workers)s workers). Stop it with Ctrl+C.",
                workers,
            )
            lines.append("  " + running % {"workers": workers})
        else:
            command = f"{python_command()} manage.py serve --port {port}"
            lines.append(
                "  " + _("Five Tricks is set up. Serve it with: %(command)s") % {"command": command}
            )
        lines += [
            "",
            "  " + _("Organizer, sign in once with this link (open it, then press Sign in):"),
            f"    {base}{sign_in_path(user)}",
            "",
            "  " + _("Phones on the same Wi-Fi reach this laptop at:"),
            f"    {base}/",
            "  "
            + _("QR codes on the table kit use this address (FIVETRICKS_PUBLIC_URL sets another)."),
            "  "
            + _("A new sign-in link: %(command)s")
            % {"command": f"{python_command()} manage.py signin_link --port {port}"},
            RULE,
        ]
        self.stdout.write("\n" + "\n".join(lines))
        if warning := network.address_warning(port):
            wrapped = textwrap.fill(warning, width=len(RULE) - 4)
            boxed = "\n".join(f"!! {line}" for line in wrapped.splitlines())
            self.stdout.write(self.style.ERROR(f"{'!' * len(RULE)}\n{boxed}\n{'!' * len(RULE)}"))
        self.stdout.flush()
