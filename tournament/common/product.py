"""The product's name and version, kept in this one place.

Terms:
    version   the release this code is (semantic versioning: major.minor.patch). The
              package's metadata reads it from here (pyproject.toml, dynamic version), and
              the start-up banner, the console's footer and every JSON record show it.
    made by   the name and version together, as a record and the banner show them, e.g.
              "Five Tricks 0.2.0".
    program   what a user types to run this installation's commands: `fivetricks` for an
              installed package; in the double-click bundle, which puts nothing on the
              PATH, the app's own path (quoted for the user's shell). A checkout has none:
              its commands go through `python manage.py`.
    own command  one of our management commands as this installation runs it: in a
              checkout `python manage.py signin_link`; installed `fivetricks signin-link`
              for the commands `fivetricks` names itself (CLI_COMMANDS), else
              `fivetricks manage restore_backup NAME`; in the bundle, the program's path
              instead of `fivetricks`.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

NAME = "Five Tricks"
VERSION = "0.2.0"


def made_by() -> str:
    """The product's name and version, e.g. "Five Tricks 0.2.0"."""
    return f"{NAME} {VERSION}"


CLI_COMMANDS = ("serve", "signin_link")  # the ones `fivetricks` names itself (tournament.cli)


def quoted(path: Path) -> str:
    """A path as the user's shell takes it, relative to the current folder when inside it."""
    try:
        shown = str(path.relative_to(Path.cwd()))
    except ValueError:
        shown = str(path)
    return f'"{shown}"' if sys.platform == "win32" and " " in shown else shlex.quote(shown)


def program() -> str:
    """What a user types to run this installed package (see Terms: program)."""
    return quoted(Path(sys.executable)) if getattr(sys, "frozen", False) else "fivetricks"


def own_command(name: str, *arguments: str, python: str = "python") -> str:
    """The command line that runs management command ``name`` (signin_link, serve,
    restore_backup) with ``arguments`` in this installation (see Terms: own command);
    ``python`` is how a checkout's Python is named."""
    from django.conf import settings  # here: importing the package must not load Django

    if not settings.INSTALLED_PACKAGE:
        return " ".join([python, "manage.py", name, *arguments])
    if name not in CLI_COMMANDS:  # any other is run through `fivetricks manage`
        return " ".join([program(), "manage", name, *arguments])
    return " ".join([program(), name.replace("_", "-"), *arguments])


def manage_command() -> str:
    """How this installation runs a management command, as pages and messages name it: in
    a checkout `python manage.py`; installed `fivetricks manage` (the app's path in the
    bundle)."""
    from django.conf import settings

    return f"{program()} manage" if settings.INSTALLED_PACKAGE else "python manage.py"


def serve_command() -> str:
    """How this installation is started, as pages name it: `make run`, or the program."""
    from django.conf import settings

    return program() if settings.INSTALLED_PACKAGE else "make run"


def product_context(request: object) -> dict[str, str]:
    """For every template: the product's version (the console's footer shows it) and the
    commands the sign-in and backup pages tell the organizer to type."""
    return {
        "product_version": VERSION,
        "manage_command": manage_command(),
        "serve_command": serve_command(),
        "signin_command": own_command("signin_link"),
    }
