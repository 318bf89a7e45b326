"""Scenarios that need two real connections at once, run in a child process.

Terms:
    scenario    a function that takes no arguments, builds its own event, runs two
                requests' worth of bridge calls in two threads (each thread its own
                database connection, as two server threads have) and returns what
                happened as JSON-ready data.
    real database
                one of the run's kind made for the scenarios: a file in WAL mode on
                SQLite (as `make run` keeps it), a fresh database in the same cluster on
                PostgreSQL. The suite's own test database holds each test in a
                transaction that is rolled back, which no second connection can see, so
                races cannot be run there. The real database is dropped when the
                scenarios end.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import uuid
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
MARKER = "SCENARIOS:"  # the line of the child's output that carries the results

_CHILD = """
import importlib, json, sys
import django
django.setup()
from django.db import connection

connection.settings_dict["TEST"]["NAME"] = sys.argv[1]
previous_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
try:
    results = {}
    for path in sys.argv[2:]:
        module, name = path.split(":")
        results[path] = getattr(importlib.import_module(module), name)()
finally:
    connection.creation.destroy_test_db(previous_name, verbosity=0)
print("SCENARIOS:" + json.dumps(results))
"""


def run_scenarios(*scenarios: Callable[[], object], workdir: Path) -> dict[str, object]:
    """Run each scenario in one child process against one real database; by name."""
    env = {
        **os.environ,
        "FIVETRICKS_DATA_DIR": str(workdir),
        "DJANGO_SETTINGS_MODULE": "tournament.settings",
    }
    if "DATABASE_URL" in env:
        name = f"fivetricks_scenarios_{uuid.uuid4().hex[:12]}"
    else:
        name = str(workdir / "scenarios.sqlite3")
    paths = [f"{scenario.__module__}:{scenario.__name__}" for scenario in scenarios]
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, name, *paths],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    (line,) = [line for line in done.stdout.splitlines() if line.startswith(MARKER)]
    results = json.loads(line.removeprefix(MARKER))
    return {
        scenario.__name__: results[path] for scenario, path in zip(scenarios, paths, strict=True)
    }


class Side(threading.Thread):
    """One side of a race: a call in a thread of its own, with its own connection."""

    def __init__(self, call: Callable[[], object]) -> None:
        super().__init__(daemon=True)
        self.call = call
        self.result: object = None
        self.error: str | None = None

    def run(self) -> None:
        from django.db import connection

        try:
            self.result = self.call()
        except Exception as error:  # reported to the test, which names it
            self.error = f"{type(error).__name__}: {error}"
        finally:
            connection.close()

    def finish(self, timeout: float) -> None:
        self.join(timeout)
        if self.is_alive():
            raise TimeoutError("one side of the race never finished")
