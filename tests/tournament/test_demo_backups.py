"""The rehearsal on its own SQLite file, as `make run` runs it: a backup after every close."""

from __future__ import annotations


def test_the_rehearsal_leaves_a_backup_of_every_round_close(tmp_path):
    """Run as `make run` runs it, on a database file in a fresh data directory: each
    round close is followed by an online backup that holds that close."""
    import os
    import sqlite3
    import subprocess
    import sys
    from pathlib import Path

    env = {**os.environ, "FIVETRICKS_DATA_DIR": str(tmp_path)}
    env.pop("DATABASE_URL", None)
    for command in (
        ["migrate", "--noinput", "-v", "0"],
        ["demo_event", "--players", "23", "--rounds", "3"],
    ):
        subprocess.run(
            [sys.executable, "manage.py", *command],
            cwd=Path(__file__).resolve().parents[2],
            env=env,
            check=True,
            capture_output=True,
            timeout=300,
        )
    backups = sorted((tmp_path / "backups").iterdir())
    assert [path.name[:16] for path in backups] == [
        "event-1-round-01",
        "event-1-round-02",
        "event-1-round-03",
    ]
    for number, path in enumerate(backups, start=1):
        assert path.name.endswith("-closed.sqlite3")
        database = sqlite3.connect(path)
        assert database.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert database.execute(
            "SELECT status FROM tournament_round WHERE number = ?", [number]
        ).fetchall() == [("closed",)]
        database.close()
