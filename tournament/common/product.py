"""The product's name and version, kept in this one place.

Terms:
    version   the release this code is (semantic versioning: major.minor.patch). The
              package's metadata reads it from here (pyproject.toml, dynamic version), and
              the start-up banner, the console's footer and every JSON record show it.
    made by   the name and version together, as a record and the banner show them, e.g.
              "Five Tricks 0.2.0".
"""

from __future__ import annotations

NAME = "Five Tricks"
VERSION = "0.2.0"


def made_by() -> str:
    """The product's name and version, e.g. "Five Tricks 0.2.0"."""
    return f"{NAME} {VERSION}"


def manage_command() -> str:
    """How this installation runs a management command, as pages and messages name it: in
    a checkout `python manage.py`; installed (a wheel, the bundle) `fivetricks manage`."""
    from django.conf import settings  # here: importing the package must not load Django

    return "fivetricks manage" if settings.INSTALLED_PACKAGE else "python manage.py"


def serve_command() -> str:
    """How this installation is started, as pages name it: `make run`, or `fivetricks`."""
    from django.conf import settings

    return "fivetricks" if settings.INSTALLED_PACKAGE else "make run"


def product_context(request: object) -> dict[str, str]:
    """For every template: the product's version (the console's footer shows it) and the
    commands the sign-in and backup pages tell the organizer to type."""
    return {
        "product_version": VERSION,
        "manage_command": manage_command(),
        "serve_command": serve_command(),
    }
