"""An SQLite database as a file: opening one without making it, copying one while it is
in use, checking one, and moving one aside with its journals.

Terms:
    uri mode      how a file is opened (``sqlite_uri``): ``rw`` reads and writes a file
                  that exists and never creates an empty database where it is missing;
                  ``ro`` only reads; ``rwc`` may create it.
    online copy   a copy made with SQLite's backup API while other connections keep
                  writing (``copy_database``). It holds exactly what was committed when it
                  began, never half of a write. A file copy could catch the database
                  between two writes of one commit, or miss the commits still waiting in
                  its write-ahead log, so it is never used.
    integrity     what ``PRAGMA integrity_check`` (or the faster ``quick_check``, which
                  skips the indexes) finds wrong with a file; a file SQLite cannot read at
                  all is one problem, in SQLite's words.
    journals      the files SQLite keeps beside a database (``-wal``, ``-shm``,
                  ``-journal``): they belong to it and move with it.
    busy wait     BUSY_TIMEOUT_SECONDS: how long a copy waits for another connection's
                  write to finish before it gives up.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

BUSY_TIMEOUT_SECONDS = 20
JOURNAL_SUFFIXES = ("-wal", "-shm", "-journal")


def sqlite_uri(path: Path | str, mode: str) -> str:
    """The URI that opens ``path`` in ``mode`` (see Terms: uri mode); pass ``uri=True``."""
    return f"{Path(path).absolute().as_uri()}?mode={mode}"


def copy_database(source: Path | str, target: Path) -> None:
    """Copy a live SQLite database file to ``target`` online (see Terms: online copy).

    The copy runs in one step, which reads one committed state of the source; with the
    source in WAL mode, writers carry on meanwhile. It is written under a temporary name
    and renamed when complete, so a crash never leaves half a copy under the target's
    name, and it is left in rollback-journal mode: one self-contained file, readable by
    its owner only.
    """
    partial_copy = target.with_name(f".{target.name}.partial")
    partial_copy.unlink(missing_ok=True)
    reader = sqlite3.connect(sqlite_uri(source, "rw"), uri=True, timeout=BUSY_TIMEOUT_SECONDS)
    try:
        copy = sqlite3.connect(partial_copy)
        try:
            reader.backup(copy)
            copy.execute("PRAGMA journal_mode=DELETE")
        finally:
            copy.close()
        os.chmod(partial_copy, 0o600)
        os.replace(partial_copy, target)
    except BaseException:
        partial_copy.unlink(missing_ok=True)
        raise
    finally:
        reader.close()


def integrity_problems(path: Path, *, quick: bool = False) -> list[str]:
    """What ``PRAGMA integrity_check`` (``quick_check`` if quick) finds wrong with an
    SQLite file, [] when sound (see Terms: integrity)."""
    try:
        database = sqlite3.connect(sqlite_uri(path, "ro"), uri=True)
    except sqlite3.Error as error:
        return [str(error)]
    try:
        check = "quick_check" if quick else "integrity_check"
        rows = [row[0] for row in database.execute(f"PRAGMA {check}")]
    except sqlite3.Error as error:
        return [str(error)]
    finally:
        database.close()
    return [] if rows == ["ok"] else rows


def set_aside(live: Path, kept: Path) -> None:
    """Move a database SQLite cannot read, and its journals, to ``kept``: a broken file is
    kept as it is, since it cannot be copied."""
    for suffix in ("", *JOURNAL_SUFFIXES):
        if (part := live.with_name(live.name + suffix)).exists():
            shutil.move(part, kept.with_name(kept.name + suffix))
