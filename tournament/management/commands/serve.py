"""Set up and serve the tournament on the venue's network with granian: the one entry point
on every platform (`make run` calls it; on Windows, `python manage.py serve`).

Terms:
    set-up   what every start does before serving: apply migrations, collect static files
             (in a checkout; an installed package was collected when it was built),
             ensure the organizer account and, on an empty database, a rehearsal event.
    one server  a start refuses, before any set-up, a port in use or a data folder another
             server holds (tournament.serving.one_server), naming the running one; the
             server then holds its data folder's lock and records its address there
             (signin_link reads it) until it stops.
    ready    /healthz answers 200 on this laptop: a worker has loaded the app and reached
             the database. Until then a progress line every PROGRESS_SECONDS.
    banner   what every start prints once ready: a one-time sign-in link and the address
             phones use, or a loud warning when phones could not reach it.
    browser  with --browser (what `fivetricks` and a double click pass), the laptop's
             default browser opens, once ready, on a one-time sign-in link whose page has
             a Sign in button to the console; never on a Linux machine without a display.
             --no-browser (the default) keeps it shut.
    window   the app's own window is `fivetricks`'s (tournament/cli.py); this command
             always serves in the terminal, and takes --no-window only so that one
             command line (README) works on both. Run by the window as its child, it
             stops when the window's process ends (tournament.serving.parent_watch).
    worker   a granian process running the site (ASGI: tournament.serving.asgi). One per core,
             except on Windows, where granian can run only one.
    thread   a worker's thread running one request at a time; Django's code holds the GIL,
             so a few per worker are enough to keep a slow page from holding up the polls.
    unsound  an SQLite database file that is not a database at all, or fails
             ``PRAGMA quick_check``: serving it would answer errors or wrong results.
             Every start checks it first and stops with the newest sound backup and the
             exact ``restore_backup`` command that puts it back (database_refusal).
"""

from __future__ import annotations

import http.client
import multiprocessing
import os
import sys
import textwrap
import threading
import time
import webbrowser
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from django.conf import settings
from django.core.management import call_command, get_commands
from django.core.management.base import BaseCommand, CommandError, CommandParser, OutputWrapper
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.sqlite3.creation import DatabaseCreation as SQLiteCreation
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from granian import Granian
from granian.constants import Interfaces
from granian.log import LogLevels

from tournament.common import network, product
from tournament.common.product import made_by
from tournament.middleware import HEALTH_PATH
from tournament.models import Event
from tournament.reads import room
from tournament.serving import one_server, parent_watch, server_stop
from tournament.writes.backups import Backup, backup_dir, integrity_problems, list_backups
from tournament.writes.signin import ensure_organizer, sign_in_path

if TYPE_CHECKING:
    from django.contrib.auth.models import User

# The whole site on ASGI: Django in a pool of threads, and the live channel of screen
# tables as coroutines (tournament.serving.asgi).
ASGI_TARGET = "tournament.serving.asgi:application"
THREADS_PER_WORKER = 4
PROGRESS_SECONDS = 5.0
READY_POLL_SECONDS = 0.2
RULE = "=" * 78
# Tells the settings of the workers that STATIC_ROOT holds fresh, minified copies.
STATIC_COLLECTED_VARIABLE = "FIVETRICKS_STATIC_COLLECTED"


def default_workers() -> int:
    """One worker per core; granian shares its socket between processes everywhere but on
    Windows, where it falls back to one worker (and says so in a warning)."""
    if sys.platform == "win32":
        return 1
    return os.cpu_count() or 1


def python_command() -> str:
    """How to call this Python from the project folder, e.g. `.venv/bin/python`."""
    return product.quoted(Path(sys.executable))


def own_command(name: str, *arguments: str) -> str:
    """The command line that runs one of our commands, as this start was made (see
    tournament.common.product, Terms: own command): in a checkout `.venv/bin/python
    manage.py signin_link --port 8000`."""
    return product.own_command(name, *arguments, python=python_command())


def can_open_a_browser() -> bool:
    """Whether this machine shows windows: on Linux without a display, Python's webbrowser
    would start a text browser in the terminal the server is printing to."""
    if sys.platform.startswith("linux"):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


def open_console(user: User, *, port: int, browser: bool, out: TextIO) -> None:
    """Open the default browser on this laptop's console through a new one-time sign-in
    link (the page's button signs in), and print that link and the phones' address."""
    link = f"http://127.0.0.1:{port}{sign_in_path(user)}"
    opened = browser and can_open_a_browser() and webbrowser.open(link)
    if not opened:
        out.write(_("Organizer, sign in once with this link (open it, then press Sign in):"))
        out.write(f"\n    {link}\n")
    out.write(_("Phones on the same Wi-Fi reach this laptop at:") + "\n")
    out.write(f"    {network.phone_base_url(port)}/\n")
    out.flush()


def health_answers(host: str, port: int) -> bool:
    """Whether the server on ``host``:``port`` is ready (see Terms)."""
    connection = http.client.HTTPConnection(host, port, timeout=2)
    try:
        connection.request("GET", HEALTH_PATH)
        return connection.getresponse().status == 200
    except OSError:
        return False
    finally:
        connection.close()


def wait_until_ready(host: str, port: int, *, out: TextIO | OutputWrapper) -> None:
    """Return once the server answers (see Terms: ready), saying every PROGRESS_SECONDS
    that it is still starting."""
    started = said = time.monotonic()
    while not health_answers(host, port):
        time.sleep(READY_POLL_SECONDS)
        if time.monotonic() - said >= PROGRESS_SECONDS:
            said = time.monotonic()
            waited = round(said - started)
            out.write(_("Still starting (%(seconds)s s)…") % {"seconds": waited} + "\n")
            out.flush()


def start_refusal(host: str, port: int | None) -> str | None:
    """Why this start must not go on: a server already serves this data folder, or
    ``port`` is in use (None: no port to probe, a --setup-only); None when neither (see
    Terms: one server)."""
    if running := one_server.running_server(settings.DATA_DIR):
        return " ".join(
            [
                _(
                    "Five Tricks is already running on this data folder (%(folder)s), at "
                    "%(url)s (process %(pid)s)."
                )
                % {"folder": settings.DATA_DIR, "url": running["url"], "pid": running["pid"]},
                _(
                    "Use that one, or stop it first: Ctrl+C in its terminal, or Stop the server "
                    "at the foot of its console. A new sign-in link for it: %(command)s"
                )
                % {"command": own_command("signin_link")},
            ]
        )
    if port is not None and one_server.port_in_use(host, port):
        return _(
            "Port %(port)s is already in use on this computer, by another Five Tricks or "
            "another program. Stop that one first, or serve on another port: %(command)s"
        ) % {"port": port, "command": own_command("serve", "--port", str(port + 1))}
    return None


def folder_refusal() -> str:
    """The refusal when another start took the data folder's lock meanwhile."""
    return _(
        "Another Five Tricks is starting on this data folder (%(folder)s). Use that one, "
        "or stop it first."
    ) % {"folder": settings.DATA_DIR}


def newest_sound_backup() -> Backup | None:
    """The newest backup in the backup folder that passes quick_check: an event's backup
    first, else a copy kept before a restore."""
    backups = list_backups(directory=backup_dir())
    for backup in sorted(backups, key=lambda backup: backup.event_id is None):
        assert backup.path is not None  # read from a folder: each is a file
        if not integrity_problems(backup.path, quick=True):
            return backup
    return None


def database_refusal() -> str | None:
    """Why the live SQLite database cannot be served, with the way back; None when it is
    sound, new (no file yet, or empty), or not SQLite (see Terms: unsound)."""
    connection = connections[DEFAULT_DB_ALIAS]
    # What the SQLite connection's is_in_memory_db asks, typed for any connection.
    name = connection.settings_dict["NAME"]
    if connection.vendor != "sqlite" or SQLiteCreation.is_in_memory_db(name):
        return None
    path = Path(name)
    if not path.is_file() or path.stat().st_size == 0:
        return None
    if not (problems := integrity_problems(path, quick=True)):
        return None
    said = _("The database %(path)s cannot be used: %(problem)s.") % {
        "path": path,
        "problem": "; ".join(problems[:3]),
    }
    if (backup := newest_sound_backup()) is None:
        return "\n".join(
            [
                said,
                _(
                    "There is no sound backup in %(folder)s. Move the file elsewhere to start "
                    "again with no events, or put back a copy of it from elsewhere."
                )
                % {"folder": backup_dir()},
            ]
        )
    when = timezone.localtime(backup.taken_at).strftime("%Y-%m-%d %H:%M:%S")
    return "\n".join(
        [
            said,
            _("The newest backup is %(name)s (taken %(when)s). Put it back with:")
            % {"name": backup.name, "when": when},
            f"    {own_command('restore_backup', backup.name)}",
            _("then start again. The database as it is now is kept beside the backups."),
        ]
    )


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
            "--browser",
            action="store_true",
            help="Once ready, open the default browser on a one-time sign-in link to the console.",
        )
        # fivetricks serve's own options, accepted here too so that one command line works
        # on both (README): the last of --browser and --no-browser wins.
        parser.add_argument(
            "--no-browser",
            action="store_false",
            dest="browser",
            help="Do not open the browser (the default here; the last of --browser and "
            "--no-browser wins).",
        )
        parser.add_argument(
            "--no-window",
            action="store_true",
            help="Accepted for fivetricks serve's command line and ignored: manage.py serve "
            "never opens the app's window, it always serves in the terminal.",
        )
        parser.add_argument(
            "--setup-only",
            action="store_true",
            help="Do the set-up and print the links, then stop instead of serving.",
        )

    def handle(self, *args: object, **options: Any) -> None:  # argparse values
        port, host = options["port"] or settings.PORT, options["host"]
        workers = max(1, options["workers"] or default_workers())
        if sys.platform == "win32":
            workers = 1  # granian would fall back to one anyway; the banner must say so
        # As the window's child, never outlive the window (see Terms: window).
        parent_watch.exit_with_parent(grace=parent_watch.SERVER_GRACE_SECONDS)
        # Before any set-up: a second server must change nothing (see Terms: one server).
        if refusal := start_refusal(host, None if options["setup_only"] else port):
            raise CommandError(refusal)
        # Kept open (held) until this process ends; the workers never inherit it.
        self.folder_lock = one_server.hold_data_folder(settings.DATA_DIR)
        if self.folder_lock is None:
            raise CommandError(folder_refusal())
        try:
            if refusal := database_refusal():
                raise CommandError(refusal)
            if not options["setup_only"]:
                one_server.record_server(settings.DATA_DIR, host=host, port=port)
            self.set_up_and_serve(user_options=options, host=host, port=port, workers=workers)
        finally:
            if not options["setup_only"]:
                one_server.forget_server(settings.DATA_DIR)
            self.folder_lock.close()

    def set_up_and_serve(self, *, user_options: dict, host: str, port: int, workers: int) -> None:
        user = self.set_up(rehearsal=not user_options["no_rehearsal"])
        # Read now: serving closes this process's database connections before the banner.
        # The account serve signs in: its latest event's room (reads.room: serving room).
        self.room_settings = room.room_settings(organizer=user)
        if user_options["setup_only"]:
            self.print_banner(user, port=port, serving=False)
            return
        self.serve(
            user,
            host=host,
            port=port,
            workers=workers,
            threads=user_options["threads"],
            browser=user_options["browser"],
        )

    def set_up(self, *, rehearsal: bool) -> User:
        self.stdout.write(_("Preparing the database…"))
        call_command("migrate", interactive=False, verbosity=0)
        if not settings.INSTALLED_PACKAGE:  # an installed package was collected at its build
            self.stdout.write(_("Collecting static files…"))
            call_command("collectstatic", interactive=False, verbosity=0)
            # The workers, which import the settings afresh, serve those collected files.
            os.environ[STATIC_COLLECTED_VARIABLE] = "1"
        user, created = ensure_organizer()
        if created:
            self.stdout.write(self.style.SUCCESS(_("Created the organizer account 'organizer'.")))
        if rehearsal and not Event.objects.exists() and "demo_event" in get_commands():
            self.stdout.write(_("Creating a rehearsal event with played rounds (demo_event)…"))
            call_command("demo_event", players=24, rounds=3, seed=7, owner=user.username)
        return user

    def serve(
        self, user: User, *, host: str, port: int, workers: int, threads: int, browser: bool
    ) -> None:
        # Workers read the port from the environment to build phones' links (settings.PORT).
        os.environ["FIVETRICKS_PORT"] = str(port)
        # And this process's PID: the console's "Stop the server" button signals it, on the
        # laptop only (tournament.serving.server_stop), to stop granian and every worker.
        os.environ[server_stop.SERVER_PID_VARIABLE] = str(os.getpid())
        # Workers import Django afresh, as they must on Windows and macOS: every platform
        # then runs the same way, and no worker inherits this process's database connection.
        multiprocessing.set_start_method("spawn", force=True)
        connections.close_all()
        # The threads serving Django in each worker (tournament.serving.asgi reads it).
        os.environ["FIVETRICKS_THREADS"] = str(max(1, threads))
        server = Granian(
            ASGI_TARGET,
            address=host,
            port=port,
            interface=Interfaces.ASGI,
            workers=workers,
            # ASGI needs no blocking thread of granian's: Django runs in tournament.serving.asgi's.
            blocking_threads=1,
            working_dir=settings.BASE_DIR,
            # Granian's own "Listening at 0.0.0.0" would send people to a useless address;
            # the banner says where to go instead. Its warnings and errors still show.
            log_level=LogLevels.warning,
        )
        # Once the port is bound, granian's start-up hook; then workers load the app, and
        # only a worker's answer says the server is ready (see Terms: ready).
        server.on_startup(
            lambda: self.announce_when_ready(
                user, host=host, port=port, workers=workers, browser=browser
            )
        )
        server.serve()

    def announce_when_ready(
        self, user: User, *, host: str, port: int, workers: int, browser: bool
    ) -> threading.Thread:
        """Say the server is starting; in a thread (granian starts its workers after this
        hook), wait until it is ready, then print the banner and open the browser."""
        self.stdout.write(_("Starting the server on port %(port)s…") % {"port": port})
        self.stdout.flush()

        def announce() -> None:
            wait_until_ready(one_server.local_host(host), port, out=self.stdout)
            self.started(user, port=port, workers=workers, browser=browser)

        # A daemon: a server that stops before it is ready takes it along.
        self.announcer = threading.Thread(target=announce, name="ready-banner", daemon=True)
        self.announcer.start()
        return self.announcer

    def started(self, user: User, *, port: int, workers: int, browser: bool) -> None:
        """Once ready: the banner, then the browser on the console if asked."""
        self.print_banner(user, port=port, workers=workers)
        if browser and can_open_a_browser():
            webbrowser.open(f"http://127.0.0.1:{port}{sign_in_path(user)}")

    def print_banner(
        self, user: User, *, port: int, workers: int = 0, serving: bool = True
    ) -> None:
        base = room.phone_base_url(port, getattr(self, "room_settings", None))
        lines = [RULE, f"  {made_by()}"]
        if serving:
            running = ngettext(
                "Five Tricks is running (granian, %(workers)s worker). Stop it with Ctrl+C.",
                "Five Tricks is running (granian, %(workers)s workers). Stop it with Ctrl+C.",
                workers,
            )
            lines.append("  " + running % {"workers": workers})
            if not server_stop.is_hosted(os.environ):
                stop = _("Or press Stop the server at the foot of the console, on this laptop.")
                lines.append("  " + stop)
        else:
            command = own_command("serve", "--port", str(port))
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
            % {"command": own_command("signin_link", "--port", str(port))},
            RULE,
        ]
        self.stdout.write("\n" + "\n".join(lines))
        if warning := network.address_warning(port):
            wrapped = textwrap.fill(warning, width=len(RULE) - 4)
            boxed = "\n".join(f"!! {line}" for line in wrapped.splitlines())
            self.stdout.write(self.style.ERROR(f"{'!' * len(RULE)}\n{boxed}\n{'!' * len(RULE)}"))
        self.stdout.flush()
