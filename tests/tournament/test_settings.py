"""The secret key is generated on first run, kept beside the database, and reused."""

import os
import stat
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _secret_key(data_dir: Path) -> str:
    env = {**os.environ, "FIVETRICKS_DATA_DIR": str(data_dir)}
    env.pop("DJANGO_SECRET_KEY", None)
    return subprocess.run(
        [sys.executable, "-c", "import tournament.settings as s; print(s.SECRET_KEY)"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()


def test_secret_key_is_generated_once_and_kept_private(tmp_path):
    first = _secret_key(tmp_path)
    second = _secret_key(tmp_path)
    key_file = tmp_path / "secret_key"
    assert len(first) >= 50
    assert first == second
    assert key_file.read_text().strip() == first
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600


def test_each_installation_gets_its_own_key(tmp_path):
    assert _secret_key(tmp_path / "a") != _secret_key(tmp_path / "b")


def test_sqlite_uses_wal_and_immediate_transactions():
    from django.conf import settings

    options = settings.DATABASES["default"].get("OPTIONS", {})
    if settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
        assert options["transaction_mode"] == "IMMEDIATE"
        assert "journal_mode=WAL" in options["init_command"]
