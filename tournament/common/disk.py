"""Running out of disk: telling it from other failures, remembering it, and what the
console says about it.

Terms:
    disk full     a write refused for lack of space: an OSError with errno ENOSPC (a
                  backup's copy, any file), SQLite's "database or disk is full"
                  (SQLITE_FULL) or PostgreSQL's disk_full, which Django raises as
                  OperationalError. The error itself,
                  or any error it was raised from or while handling, may carry it.
    remembered    the time of the last disk-full failure this process saw (a backup, or a
                  write answered by tournament.middleware.FaultsMiddleware), kept in memory:
                  the disk that is full cannot take a note. Each server process remembers
                  its own for REMEMBER_FOR; the console also looks at the free space itself
                  (low), which every process sees alike.
    low           less than LOW_SPACE_BYTES free on the disk that holds the data folder:
                  the next backup (a copy of the whole database) may not fit.
    disk warning  the console's red line (templates/_disk_warning.html) while a failure is
                  remembered or the space is low; None otherwise.
"""

from __future__ import annotations

import errno
import shutil
import time

from django.conf import settings
from django.http import HttpRequest
from django.utils.translation import gettext as _

SQLITE_FULL = "database or disk is full"
POSTGRES_DISK_FULL = "53100"  # SQLSTATE disk_full (psycopg.errors.DiskFull)
LOW_SPACE_BYTES = 50 * 1024 * 1024
REMEMBER_FOR = 15 * 60  # seconds

_last_failure: float | None = None


def is_disk_full(error: BaseException | None) -> bool:
    """Whether this error (or one in its chain) is a disk-full failure (see Terms)."""
    seen: set[int] = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        if isinstance(error, OSError) and error.errno == errno.ENOSPC:
            return True
        if SQLITE_FULL in str(error) or getattr(error, "sqlstate", None) == POSTGRES_DISK_FULL:
            return True
        error = error.__cause__ or error.__context__
    return False


def note_disk_full() -> None:
    """Remember that a write failed for lack of disk (see Terms: remembered)."""
    global _last_failure
    _last_failure = time.monotonic()


def forget_disk_full() -> None:
    """Forget it (a test's clean slate)."""
    global _last_failure
    _last_failure = None


def free_bytes() -> int | None:
    """Free space on the data folder's disk; None when it cannot be read."""
    try:
        return shutil.disk_usage(settings.DATA_DIR).free
    except OSError:
        return None


def disk_warning() -> str | None:
    """What the console says in red (see Terms: disk warning)."""
    failed = _last_failure is not None and time.monotonic() - _last_failure < REMEMBER_FOR
    free = free_bytes()
    if failed:
        return _(
            "The disk is full: a backup or a change could not be saved. Free some space on "
            "this laptop (empty the bin, delete large files), then take a backup from "
            "Records to check that it works again."
        )
    if free is not None and free < LOW_SPACE_BYTES:
        return _(
            "The disk is almost full (%(free)s MB free): the next backup or change may not "
            "be saved. Free some space on this laptop (empty the bin, delete large files)."
        ) % {"free": free // (1024 * 1024)}
    return None


def disk_context(request: HttpRequest) -> dict[str, object]:
    """Context processor for templates/_disk_warning.html. It hands over the function, not
    its result: only the pages that include the warning pay for the check."""
    return {"disk_warning": disk_warning}
