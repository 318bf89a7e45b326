"""Shared start-up for the benchmark scripts: a throwaway SQLite database in a temp dir.

Terms: a *figure* is one measured number a script prints, to be copied with its command
into docs/PERFORMANCE.md. Scripts print; they assert nothing about time.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def setup_django() -> Path:
    data_dir = Path(tempfile.mkdtemp(prefix="fivetricks-bench-"))
    os.environ["FIVETRICKS_DATA_DIR"] = str(data_dir)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    sys.path.insert(0, str(REPO))
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    return data_dir


def make_owner():
    from tournament.signin import ensure_organizer

    user, _ = ensure_organizer("bench")
    return user
