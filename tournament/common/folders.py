"""The data folder, made when something first needs it.

Terms:
    data folder  settings.DATA_DIR (FIVETRICKS_DATA_DIR, ./var by default): the SQLite
                 database, the generated secret key and the backups of one installation.
                 Importing the settings makes nothing; the folder is made by the first
                 thing that writes there: the database's first connection (migrate,
                 serve; tournament.sqlite3), the secret key's first use, a backup.
"""

from __future__ import annotations

from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

FOLDER_MODE = 0o700  # the secret key and the organizer's data: this user only


def make_folder(path: Path) -> Path:
    """Make ``path`` (and its parents) unless it is there; a clear error if it cannot be."""
    try:
        path.mkdir(mode=FOLDER_MODE, parents=True, exist_ok=True)
    except OSError as error:
        raise ImproperlyConfigured(
            f"Cannot make the data folder {path} ({error.strerror or error}). "
            "Set FIVETRICKS_DATA_DIR to a folder this user can write to."
        ) from error
    return path
