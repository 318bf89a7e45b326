"""The `fivetricks` command an installed package (and the double-click app) gives.

Terms:
    double click  `fivetricks` with no arguments, as a file manager starts the app: the same
                  as `fivetricks serve`, which sets up, serves and opens the browser.
    serve         `fivetricks serve [--port P] [--workers N] [--threads N] [--no-browser]
                  [--no-window] [--setup-only] [--no-rehearsal]`: `manage.py serve`
                  (set-up, banner, granian), then the default browser on the console
                  through a one-time sign-in link, unless --no-browser.
    window        where a display exists (tournament.window.can_show), serve runs in the
                  app's own window (tournament.window), which serves in a child process
                  and opens the browser once it answers. --no-window, --no-browser ("stay
                  in the terminal") and --setup-only keep the terminal and its banner.
    running one   a Five Tricks already serving the port on this machine (a second double
                  click): found by asking 127.0.0.1 for its home page, which names the
                  product (RUNNING_MARKER). The browser then opens on it with a new
                  sign-in link, instead of a second server failing on the port.
    signin-link   `fivetricks signin-link [--port P]`: prints a new one-time sign-in link.
    manage        `fivetricks manage COMMAND ...`: any management command (migrate,
                  export_event, restore_backup...).
"""

from __future__ import annotations

import argparse
import http.client
import multiprocessing
import os
import sys

RUNNING_MARKER = b'name="generator" content="Five Tricks'
USAGE = """usage: fivetricks [serve [options] | signin-link [options] | manage COMMAND ...]

  serve         set up and serve the tournament (the default), in a window where there
                is a display; --no-browser or --no-window to stay in the terminal;
                `fivetricks serve --help` lists every option
  signin-link   print a new one-time sign-in link for the organizer
  manage        run any management command, e.g. `fivetricks manage migrate`
"""


def _django(argv: list[str]) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(argv)


def running_here(port: int) -> bool:
    """Whether a Five Tricks answers on 127.0.0.1:``port`` (see Terms: running one)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=3)
    try:
        connection.request("GET", "/")
        return RUNNING_MARKER in connection.getresponse().read(4096)
    except OSError:
        return False
    finally:
        connection.close()


def open_running(port: int, *, browser: bool) -> None:
    """Open the browser on the running one with a new sign-in link, and say where it is."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    import django

    django.setup()
    from tournament.management.commands.serve import open_console
    from tournament.writes.signin import ensure_organizer

    print(f"Five Tricks is already running on port {port}.")
    open_console(ensure_organizer()[0], port=port, browser=browser, out=sys.stdout)


def serve_in_window(port: int, rest: list[str]) -> int | None:
    """Serve in the app's window (see Terms: window); None where none can be shown."""
    from tournament import window

    if not window.can_show():
        return None
    from tournament.window.app import serve_in_window as in_window

    return in_window(port=port, arguments=rest)


def serve(arguments: list[str]) -> None:
    """`fivetricks serve` (see Terms): the running one, else `manage.py serve --browser`."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--port", type=int, default=None)
    parser.add_argument("--no-browser", action="store_true")
    parser.add_argument("--setup-only", action="store_true")
    parser.add_argument("--no-window", action="store_true")
    known, rest = parser.parse_known_args(arguments)
    port = known.port or int(os.environ.get("FIVETRICKS_PORT", "8000"))
    browser = not known.no_browser
    if not known.setup_only and running_here(port):
        open_running(port, browser=browser)
        return
    window = browser and not (known.no_window or known.setup_only)
    if window and (status := serve_in_window(port, rest)) is not None:
        sys.exit(status)
    argv = ["fivetricks serve", "serve", "--port", str(port), *rest]
    if known.setup_only:
        argv.append("--setup-only")
    elif browser:
        argv.append("--browser")
    _django(argv)


def main(argv: list[str] | None = None) -> None:
    """The `fivetricks` entry point (see Terms)."""
    # The bundle's granian workers start this program again; this makes them workers.
    multiprocessing.freeze_support()
    arguments = sys.argv[1:] if argv is None else argv
    command, rest = (arguments[0], arguments[1:]) if arguments else ("serve", [])
    if command in {"help", "--help", "-h"}:
        print(USAGE)
    elif command == "serve" or command.startswith("-"):
        serve(rest if command == "serve" else arguments)
    elif command == "signin-link":
        _django(["fivetricks signin-link", "signin_link", *rest])
    elif command == "manage":
        _django(["fivetricks manage", *rest])
    else:
        sys.exit(f"fivetricks: unknown command {command!r}\n\n{USAGE}")


if __name__ == "__main__":
    main()
