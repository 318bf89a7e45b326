"""Settings come from the environment: the secret key is generated once and kept; hosts,
cookies and HTTPS follow the public URL; database connections outlive a request."""

import json
import os
import socket
import stat
import subprocess
import sys
from pathlib import Path

import pytest

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


# --- settings read in a fresh process, from the environment a server starts with ---------


def _environment(data_dir: Path, **env: str) -> dict[str, str]:
    """This process's environment without its settings (other tests set some, e.g.
    DJANGO_ALLOW_ASYNC_UNSAFE for the browser), plus ``env``."""
    inherited = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("DJANGO_", "FIVETRICKS_")) and name != "DATABASE_URL"
    }
    return {**inherited, "FIVETRICKS_DATA_DIR": str(data_dir), **env}


def _run(data_dir: Path, code: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO,
        env=_environment(data_dir, **env),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )


def _settings(data_dir: Path, *names: str, **env: str) -> dict:
    # Django's defaults included, without django.setup(): no database driver is loaded.
    code = (
        "import json, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'tournament.settings'\n"
        "from django.conf import settings as s\n"
        f"print(json.dumps({{n: getattr(s, n, None) for n in {names!r}}}, default=str))"
    )
    return json.loads(_run(data_dir, code, **env).stdout)


def test_allowed_hosts_default_to_this_machine_not_to_everyone(tmp_path):
    hosts = _settings(tmp_path, "ALLOWED_HOSTS", FIVETRICKS_PUBLIC_URL="http://tricks.lan:8000")[
        "ALLOWED_HOSTS"
    ]
    name = socket.gethostname().lower()
    assert {"localhost", "127.0.0.1", "[::1]", name, f"{name}.local", "tricks.lan"} <= set(hosts)
    assert "*" not in hosts
    assert "testserver" not in hosts  # Django's test runner adds it for the test client only


def test_django_allowed_hosts_overrides_the_default(tmp_path):
    hosts = _settings(tmp_path, "ALLOWED_HOSTS", DJANGO_ALLOWED_HOSTS="a.example, b.example")
    assert hosts == {"ALLOWED_HOSTS": ["a.example", "b.example"]}


def test_the_port_for_phones_links_comes_from_the_server(tmp_path):
    assert _settings(tmp_path, "PORT") == {"PORT": 8000}
    assert _settings(tmp_path, "PORT", FIVETRICKS_PORT="8765") == {"PORT": 8765}


def test_a_lan_event_on_plain_http_keeps_its_cookies_usable(tmp_path):
    chosen = _settings(
        tmp_path, "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE", "SECURE_HSTS_SECONDS",
        "SECURE_PROXY_SSL_HEADER", FIVETRICKS_PUBLIC_URL="http://192.168.1.20:8000",
    )  # fmt: skip
    assert chosen == {
        "SESSION_COOKIE_SECURE": False,
        "CSRF_COOKIE_SECURE": False,
        "SECURE_HSTS_SECONDS": 0,
        "SECURE_PROXY_SSL_HEADER": None,
    }


def test_a_hosted_https_url_turns_on_secure_cookies_hsts_and_trusted_origins(tmp_path):
    names = ("SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE", "CSRF_TRUSTED_ORIGINS",
             "SECURE_PROXY_SSL_HEADER", "SECURE_SSL_REDIRECT")  # fmt: skip
    alone = _settings(tmp_path, *names, FIVETRICKS_PUBLIC_URL="https://tricks.example.org/")
    assert alone["SESSION_COOKIE_SECURE"] is True
    assert alone["CSRF_COOKIE_SECURE"] is True
    assert alone["CSRF_TRUSTED_ORIGINS"] == ["https://tricks.example.org"]
    # A forwarded scheme is trusted only when the operator says a proxy sets it.
    assert alone["SECURE_PROXY_SSL_HEADER"] is None
    assert alone["SECURE_SSL_REDIRECT"] is False

    proxied = _settings(
        tmp_path, *names, FIVETRICKS_PUBLIC_URL="https://tricks.example.org",
        FIVETRICKS_BEHIND_PROXY="1",
    )  # fmt: skip
    assert proxied["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    assert proxied["SECURE_SSL_REDIRECT"] is True


def test_a_hosted_https_server_passes_the_deployment_check(tmp_path):
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=REPO,
        env=_environment(
            tmp_path,
            FIVETRICKS_PUBLIC_URL="https://tricks.example.org",
            FIVETRICKS_BEHIND_PROXY="1",
        ),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_postgresql_keeps_health_checked_connections(tmp_path):
    chosen = _settings(tmp_path, "DATABASES", DATABASE_URL="postgres://u:p@db.example:5432/five")
    database = chosen["DATABASES"]["default"]
    assert database["CONN_MAX_AGE"] >= 60
    assert database["CONN_HEALTH_CHECKS"] is True


def test_backups_go_to_the_data_folder_unless_fivetricks_backup_dir_says(tmp_path):
    assert _settings(tmp_path, "BACKUP_DIR")["BACKUP_DIR"] == str(tmp_path / "backups")
    elsewhere = tmp_path / "shared" / "backups"
    chosen = _settings(tmp_path, "BACKUP_DIR", FIVETRICKS_BACKUP_DIR=str(elsewhere))
    assert chosen["BACKUP_DIR"] == str(elsewhere)


def test_a_postgresql_connection_gives_up_after_a_few_seconds_unless_the_url_says(tmp_path):
    url = "postgres://u:p@db.example:5432/five"
    chosen = _settings(tmp_path, "DATABASES", DATABASE_URL=url)
    assert chosen["DATABASES"]["default"]["OPTIONS"]["connect_timeout"] == 5
    chosen = _settings(tmp_path, "DATABASES", DATABASE_URL=url + "?connect_timeout=2")
    assert chosen["DATABASES"]["default"]["OPTIONS"]["connect_timeout"] == 2


def test_sqlite_pragmas_run_once_per_connection_not_per_request(tmp_path):
    # Through the WSGI handler, as a server runs requests: it closes connections that are
    # too old at the end of every request, which the test client does not.
    code = """
import io, json, os
os.environ['DJANGO_SETTINGS_MODULE'] = 'tournament.settings'
import django; django.setup()
from django.core.management import call_command
from django.core.handlers.wsgi import WSGIHandler
from django.db import connection
from django.db.backends.signals import connection_created

call_command('migrate', verbosity=0)
connection.close()
opened = []
connection_created.connect(lambda sender, connection, **kw: opened.append(1), weak=False)
app = WSGIHandler()
statuses = []
for _ in range(3):
    environ = {'REQUEST_METHOD': 'GET', 'PATH_INFO': '/screen/no-such-screen/', 'SERVER_NAME':
               'localhost', 'SERVER_PORT': '8000', 'HTTP_HOST': 'localhost:8000',
               'wsgi.input': io.BytesIO(b''), 'wsgi.url_scheme': 'http', 'wsgi.errors':
               io.StringIO()}
    body = app(environ, lambda status, headers: statuses.append(status))
    body.close()
with connection.cursor() as cursor:
    mode = cursor.execute('PRAGMA journal_mode').fetchone()[0]
    synchronous = cursor.execute('PRAGMA synchronous').fetchone()[0]
print(json.dumps({'opened': len(opened), 'statuses': statuses, 'mode': mode,
                  'synchronous': synchronous}))
"""
    result = json.loads(_run(tmp_path, code).stdout)
    assert result["statuses"] == ["404 Not Found"] * 3
    assert result["opened"] == 1
    assert result["mode"] == "wal"
    assert result["synchronous"] == 2  # FULL: a commit is on disk before the phone hears "recorded"


def test_sign_ins_count_the_forwarded_address_only_behind_the_trusted_proxy(tmp_path):
    name = "SIGN_IN_ADDRESS_FROM_PROXY"
    https = "https://tricks.example.org"
    assert _settings(tmp_path, name) == {name: False}
    assert _settings(tmp_path, name, FIVETRICKS_PUBLIC_URL=https) == {name: False}
    lan_with_flag = _settings(
        tmp_path, name, FIVETRICKS_PUBLIC_URL="http://192.168.1.20:8000",
        FIVETRICKS_BEHIND_PROXY="1",
    )  # fmt: skip
    assert lan_with_flag == {name: False}
    proxied = _settings(tmp_path, name, FIVETRICKS_PUBLIC_URL=https, FIVETRICKS_BEHIND_PROXY="1")
    assert proxied == {name: True}


# --- odd time zones, and no folder made at import ------------------------------------------


def _start_up(data_dir: Path, **env: str) -> subprocess.CompletedProcess:
    """Django set up as any command starts, then the time zone used, as JSON."""
    code = (
        "import json, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'tournament.settings'\n"
        "import django; django.setup()\n"
        "from django.conf import settings; from django.utils import timezone\n"
        "print(json.dumps([settings.TIME_ZONE, timezone.localtime().utcoffset() is not None]))"
    )
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO,
        env=_environment(data_dir, **env),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize(
    ("tz", "zone"),
    [
        (":/etc/localtime", None),  # glibc's "the system's zone": its name, read from the link
        ("Nowhere/Bogus", "UTC"),
        ("", "UTC"),
        ("CET-1CEST", "UTC"),  # a POSIX rule, not a zone name
        (":Europe/Paris", "Europe/Paris"),
        ("Europe/Paris", "Europe/Paris"),
    ],
)
def test_odd_tz_values_do_not_stop_start_up(tmp_path, tz, zone):
    result = _start_up(tmp_path, TZ=tz)
    assert result.returncode == 0, result.stderr
    chosen, aware = json.loads(result.stdout)
    assert aware
    if zone is None:  # the zone this machine's /etc/localtime links to, or UTC
        target = Path("/etc/localtime").resolve().as_posix()
        zone = target.partition("/zoneinfo/")[2] or "UTC"
    assert chosen == zone


def test_fivetricks_time_zone_comes_first_and_a_wrong_one_says_so(tmp_path):
    chosen = _start_up(tmp_path, TZ="Nowhere/Bogus", FIVETRICKS_TIME_ZONE="America/Chicago")
    assert json.loads(chosen.stdout)[0] == "America/Chicago"

    wrong = _start_up(tmp_path, FIVETRICKS_TIME_ZONE="Mars/Olympus")
    assert wrong.returncode != 0
    assert "FIVETRICKS_TIME_ZONE='Mars/Olympus' is not a time zone name" in wrong.stderr


def test_importing_the_settings_makes_no_folder(tmp_path):
    data_dir = tmp_path / "not-yet" / "var"
    _run(data_dir, "import tournament.settings as s; print(s.DATA_DIR)")
    assert not (tmp_path / "not-yet").exists()


def test_the_data_folder_is_made_by_the_first_migrate(tmp_path):
    data_dir = tmp_path / "not-yet" / "var"
    result = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--verbosity", "0"],
        cwd=REPO,
        env=_environment(data_dir),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert (data_dir / "fivetricks.sqlite3").is_file()
    assert stat.S_IMODE(data_dir.stat().st_mode) == 0o700
    assert not (data_dir / "secret_key").exists(), "migrate signs nothing"


def test_a_data_folder_that_cannot_be_made_says_what_to_do(tmp_path):
    in_the_way = tmp_path / "a-file"
    in_the_way.write_text("")
    result = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--verbosity", "0"],
        cwd=REPO,
        env=_environment(in_the_way / "var"),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode != 0
    assert f"Cannot make the data folder {in_the_way / 'var'}" in result.stderr
    assert "Set FIVETRICKS_DATA_DIR to a folder this user can write to." in result.stderr
