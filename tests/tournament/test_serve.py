"""`manage.py serve` is the one entry point on every platform: it sets everything up (the
database, static files, the organizer, a rehearsal event), prints the sign-in link and the
phones' address, then serves with granian workers."""

from __future__ import annotations

import contextlib
import gzip
import http.client
import io
import os
import queue
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from tournament.common import network
from tournament.common.product import VERSION
from tournament.management.commands import serve
from tournament.serving import one_server
from tournament.serving.server_stop import SERVER_PID_VARIABLE
from tournament.staticfiles import minify

REPO = Path(__file__).resolve().parents[2]


def _environment(data_dir: Path, static_root: Path) -> dict[str, str]:
    """A fresh installation whose static files go to ``static_root``, not the checkout."""
    settings_dir = data_dir / "settings"
    settings_dir.mkdir(parents=True)
    (settings_dir / "serve_test_settings.py").write_text(
        f"from tournament.settings import *  # noqa: F403\nSTATIC_ROOT = {str(static_root)!r}\n"
    )
    # Without this process's settings: other tests set some (DJANGO_ALLOW_ASYNC_UNSAFE).
    environment = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "FIVETRICKS_")) and k != "DATABASE_URL"
    }
    return {
        **environment,
        "FIVETRICKS_DATA_DIR": str(data_dir),
        "DJANGO_SETTINGS_MODULE": "serve_test_settings",
        "PYTHONPATH": os.pathsep.join([str(settings_dir), str(REPO)]),
    }


def test_setup_only_migrates_collects_static_ensures_the_organizer_and_prints_links(tmp_path):
    data_dir, static_root = tmp_path / "data", tmp_path / "static"
    environment = _environment(data_dir, static_root)

    result = subprocess.run(
        [sys.executable, "manage.py", "serve", "--setup-only", "--port", "8123"],
        cwd=REPO, env=environment, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip

    assert result.returncode == 0, result.stderr
    output = result.stdout
    assert "Created the organizer account 'organizer'." in output
    assert "Organizer, sign in once with this link (open it, then press Sign in):" in output
    assert ":8123/console/sign-in/" in output
    assert "Phones on the same Wi-Fi reach this laptop at:" in output
    assert "manage.py serve --port 8123" in output
    # Every migration applied: `migrate --check` fails when one is not.
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--check"],
        cwd=REPO, env=environment, capture_output=True, timeout=120, check=True,
    )  # fmt: skip
    with sqlite3.connect(data_dir / "fivetricks.sqlite3") as database:
        organizers = database.execute(
            "SELECT is_superuser FROM auth_user WHERE username = 'organizer'"
        ).fetchall()
        events = database.execute("SELECT name FROM tournament_event").fetchall()
    assert organizers == [(1,)]
    assert [name for (name,) in events] == ["Rehearsal · 24 players · seed 7"]
    assert (static_root / "js" / "poll.js").is_file()
    assert (static_root / "js" / "poll.js.gz").is_file()

    # A second start sets up nothing twice.
    again = subprocess.run(
        [sys.executable, "manage.py", "serve", "--setup-only"],
        cwd=REPO, env=environment, capture_output=True, text=True, timeout=300, check=True,
    )  # fmt: skip
    assert "Created" not in again.stdout
    assert ":8000/console/sign-in/" in again.stdout


@pytest.mark.django_db
def test_the_banner_says_loudly_when_phones_cannot_reach_this_laptop(
    settings, monkeypatch, tmp_path
):
    settings.PUBLIC_URL = ""
    settings.DATA_DIR = tmp_path
    monkeypatch.setattr(network, "lan_addresses", list)
    monkeypatch.setattr(serve.Command, "set_up", lambda self, rehearsal: _organizer())
    out = io.StringIO()

    call_command("serve", "--setup-only", "--port", "8123", stdout=out)

    banner = out.getvalue()
    assert "http://127.0.0.1:8123/" in banner
    assert "!! This laptop has no network address" in banner
    assert "FIVETRICKS_PUBLIC_URL=http://" in banner


def _organizer():
    from tournament.writes.signin import ensure_organizer

    return ensure_organizer()[0]


class FakeGranian:
    made: list[FakeGranian] = []

    def __init__(self, target: str, **options: object) -> None:
        self.target, self.options = target, options
        self.hooks: list[Callable[[], threading.Thread]] = []  # serve's announcers
        FakeGranian.made.append(self)

    def on_startup(self, hook):
        self.hooks.append(hook)
        return hook

    def serve(self) -> None:
        self.port_seen_by_workers = os.environ.get("FIVETRICKS_PORT")
        self.threads_seen_by_workers = os.environ.get("FIVETRICKS_THREADS")
        self.pid_seen_by_workers = os.environ.get(SERVER_PID_VARIABLE)
        for hook in self.hooks:
            announcer = hook()
            announcer.join(timeout=10)  # the banner waits for the server to be ready


@pytest.mark.django_db
def test_serve_runs_granian_workers_on_wsgi_and_tells_them_the_port_and_its_pid(
    settings, monkeypatch, tmp_path
):
    settings.PUBLIC_URL = ""
    settings.DATA_DIR = tmp_path
    monkeypatch.setattr(one_server, "port_in_use", lambda host, port: False)
    ready = []
    monkeypatch.setattr(serve, "health_answers", lambda host, port: ready.append(port) or True)
    monkeypatch.setattr(network, "lan_addresses", lambda: ["192.168.1.20"])
    monkeypatch.setattr(serve.Command, "set_up", lambda self, rehearsal: _organizer())
    monkeypatch.setattr(serve, "Granian", FakeGranian)
    start_methods = []
    monkeypatch.setattr(
        serve.multiprocessing, "set_start_method", lambda m, force: start_methods.append(m)
    )
    monkeypatch.delenv("FIVETRICKS_PORT", raising=False)  # restored after the test
    monkeypatch.delenv("FIVETRICKS_THREADS", raising=False)
    monkeypatch.delenv(SERVER_PID_VARIABLE, raising=False)
    for hosted in ("DATABASE_URL", "FIVETRICKS_BEHIND_PROXY", "FIVETRICKS_PUBLIC_URL"):
        monkeypatch.delenv(hosted, raising=False)  # a laptop, even in a run on PostgreSQL
    FakeGranian.made.clear()
    out = io.StringIO()

    call_command("serve", "--port", "8123", stdout=out)

    (server,) = FakeGranian.made
    assert server.target == "tournament.serving.asgi:application"
    assert server.options["interface"] == "asgi"
    assert server.options["address"] == "0.0.0.0"
    assert server.options["port"] == 8123
    assert server.options["workers"] == serve.default_workers()
    # Django's threads are tournament.serving.asgi's (FIVETRICKS_THREADS); granian's ASGI takes one.
    assert server.options["blocking_threads"] == 1
    assert server.threads_seen_by_workers == str(serve.THREADS_PER_WORKER)
    assert server.port_seen_by_workers == "8123"
    # The process the console's "Stop the server" signals is this one, granian's main.
    assert server.pid_seen_by_workers == str(os.getpid())
    assert start_methods == ["spawn"]
    # The banner comes once the port is bound (granian's start-up hook) and /healthz answers.
    assert ready == [8123]
    assert "http://192.168.1.20:8123/" in out.getvalue()
    assert "Five Tricks is running" in out.getvalue()
    assert "Or press Stop the server at the foot of the console" in out.getvalue()
    assert f"Five Tricks {VERSION}" in out.getvalue()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "hosted", [("FIVETRICKS_BEHIND_PROXY", "1"), ("DATABASE_URL", "postgres://db/five")]
)
def test_a_hosted_server_s_banner_offers_no_console_button(settings, monkeypatch, hosted):
    monkeypatch.setenv(*hosted)
    out = io.StringIO()
    command = serve.Command(stdout=out)

    command.print_banner(_organizer(), port=8123, workers=2)

    assert "Five Tricks is running" in out.getvalue()
    assert "Stop the server" not in out.getvalue()


def test_one_worker_per_core_except_on_windows(monkeypatch):
    monkeypatch.setattr(serve.os, "cpu_count", lambda: 6)
    monkeypatch.setattr(serve.sys, "platform", "darwin")
    assert serve.default_workers() == 6
    monkeypatch.setattr(serve.sys, "platform", "win32")
    assert serve.default_workers() == 1


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _get(port: int, path: str) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.request("GET", path)
        return connection.getresponse().status
    finally:
        connection.close()


def _get_body(port: int, path: str, headers: dict[str, str]) -> bytes:
    """The body of a 200 answer, as sent (still gzipped when the server gzipped it)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        assert response.status == 200, path
        assert response.getheader("Content-Encoding") == "gzip", path
        return response.read()
    finally:
        connection.close()


class _Server:
    """A real `manage.py serve` on 127.0.0.1, its output read line by line as it comes."""

    def __init__(self, environment: dict[str, str], port: int, *, workers: int = 1) -> None:
        self.port = port
        self.process = subprocess.Popen(
            [sys.executable, "manage.py", "serve", "--host", "127.0.0.1", "--port", str(port),
             "--workers", str(workers), "--threads", "2", "--no-rehearsal"],
            cwd=REPO, env=environment, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True,
        )  # fmt: skip
        self.lines: queue.Queue[str] = queue.Queue()
        self.output: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None  # opened with stdout=PIPE
        for line in self.process.stdout:
            self.lines.put(line)

    def wait_for_line(self, text: str, timeout: float = 120) -> None:
        deadline = time.monotonic() + timeout
        while not any(text in line for line in self.output):
            left = deadline - time.monotonic()
            assert left > 0, f"no {text!r} in:\n{''.join(self.output)}"
            with contextlib.suppress(queue.Empty):
                self.output.append(self.lines.get(timeout=min(left, 1)))

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=30)


def _answers(port: int) -> bool:
    try:
        _get(port, "/healthz")
    except OSError:
        return False
    return True


def test_the_real_server_answers_pages_and_static_files_and_stops_on_request(tmp_path):
    environment = _environment(tmp_path / "data", tmp_path / "static")
    port = _free_port()
    server = _Server(environment, port, workers=2)
    try:
        server.wait_for_line("Five Tricks is running (granian, 2 workers)")
        assert _get(port, "/") == 200
        assert _get(port, "/static/js/poll.js") == 200
        # The workers send what serve collected: our script minified, then gzipped.
        script = _get_body(port, "/static/js/phone.js", {"Accept-Encoding": "gzip"})
        source = (REPO / "static" / "js" / "phone.js").read_text(encoding="utf-8")
        assert gzip.decompress(script).decode() == minify("js/phone.js", source)
        assert _get(port, "/bench/hello/") == 404  # the bench's view is off outside the bench
    finally:
        server.stop()
    assert server.process.returncode == 0, "".join(server.output)
    # Stopped, it gives its port back.
    assert not one_server.port_in_use("127.0.0.1", port)


# --- a database that cannot be served -----------------------------------------------------


def _manage(environment: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=REPO, env=environment, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip


def test_serve_on_a_file_that_is_not_a_database_names_the_backup_and_the_command(tmp_path):
    data_dir = tmp_path / "data"
    environment = _environment(data_dir, tmp_path / "static")
    assert _manage(environment, "migrate", "--noinput", "-v", "0").returncode == 0
    assert _manage(environment, "demo_event", "--players", "8", "--rounds", "1").returncode == 0
    (backup,) = (data_dir / "backups").glob("event-1-round-01-*-closed.sqlite3")
    live = data_dir / "fivetricks.sqlite3"
    live.write_bytes(b"Notes for Friday, not a database. " * 200)

    refused = _manage(environment, "serve", "--setup-only", "--no-rehearsal")

    assert refused.returncode == 1
    assert "Traceback" not in refused.stderr
    assert f"The database {live} cannot be used: file is not a database." in refused.stderr
    assert f"The newest backup is {backup.name}" in refused.stderr
    (command,) = [line.strip() for line in refused.stderr.splitlines() if line.startswith("    ")]
    assert command.endswith(f"manage.py restore_backup {backup.name}")

    # The command it gives works as given, and the server then starts.
    restored = _manage(environment, *command.split(" ")[2:])
    assert restored.returncode == 0, restored.stderr
    assert _manage(environment, "serve", "--setup-only", "--no-rehearsal").returncode == 0
    (kept,) = (data_dir / "backups").glob("before-restore-*.sqlite3")
    assert kept.read_bytes().startswith(b"Notes for Friday")


class _Connection:
    vendor = "sqlite"

    def __init__(self, path: Path) -> None:
        self.settings_dict = {"NAME": str(path)}

    def is_in_memory_db(self) -> bool:
        return False


def test_a_database_that_fails_quick_check_is_refused_with_the_newest_sound_backup(
    settings, monkeypatch, tmp_path
):
    from tests.tournament.test_commands_records import malformed_database
    from tests.tournament.writes.test_backups import small_database

    settings.BACKUP_DIR = tmp_path / "backups"
    settings.BACKUP_DIR.mkdir()
    settings.DATA_DIR = tmp_path
    live = malformed_database(tmp_path / "fivetricks.sqlite3")
    monkeypatch.setattr(serve, "connections", {"default": _Connection(live)})
    older = "event-3-round-01-20261122T120000.000000Z-closed.sqlite3"
    newest = "event-3-round-02-20261122T130000.000000Z-closed.sqlite3"
    small_database(settings.BACKUP_DIR / older)
    small_database(settings.BACKUP_DIR / newest)
    malformed_database(
        settings.BACKUP_DIR / "event-3-round-03-20261122T140000.000000Z-closed.sqlite3"
    )

    with pytest.raises(CommandError) as refused:
        call_command("serve", "--setup-only")

    said = str(refused.value)
    assert said.startswith(f"The database {live} cannot be used: ")
    assert f"The newest backup is {newest}" in said  # the malformed newer one is passed over
    assert f"manage.py restore_backup {newest}" in said

    settings.INSTALLED_PACKAGE = True  # the command as the installed package runs it
    assert f"\n    fivetricks manage restore_backup {newest}\n" in serve.database_refusal()

    for name in (older, newest):
        (settings.BACKUP_DIR / name).unlink()
    assert "There is no sound backup in" in serve.database_refusal()


# --- one server per room; ready means ready -----------------------------------------------


def test_a_second_server_on_its_port_or_its_data_folder_is_refused_before_any_set_up(tmp_path):
    environment = _environment(tmp_path / "data", tmp_path / "static")
    port = _free_port()
    first = _Server(environment, port)
    try:
        first.wait_for_line("Five Tricks is running")
        # Ready means ready: the banner comes once /healthz answers, not before.
        assert _get(port, "/healthz") == 200
        assert "Starting the server on port" in "".join(first.output)

        # The same data folder, another port.
        same_folder = _manage(environment, "serve", "--port", str(_free_port()), "--no-rehearsal")
        assert same_folder.returncode == 1
        assert "Five Tricks is already running on this data folder" in same_folder.stderr
        assert f"http://127.0.0.1:{port}" in same_folder.stderr
        assert "Preparing the database" not in same_folder.stdout

        # Another data folder, the same port: nothing set up there either.
        other = _environment(tmp_path / "other", tmp_path / "other-static")
        same_port = _manage(other, "serve", "--host", "127.0.0.1", "--port", str(port))
        assert same_port.returncode == 1
        assert f"Port {port} is already in use on this computer" in same_port.stderr
        assert f"manage.py serve --port {port + 1}" in same_port.stderr
        assert not (tmp_path / "other" / "fivetricks.sqlite3").exists()

        # A sign-in link names the port the server runs on, not the default one.
        link = _manage(environment, "signin_link")
        assert link.returncode == 0, link.stderr
        assert f":{port}/console/sign-in/" in link.stdout
    finally:
        first.stop()
    # Stopped, it no longer claims the folder: the link falls back to --port.
    fallback = _manage(environment, "signin_link", "--port", str(port + 7))
    assert f":{port + 7}/console/sign-in/" in fallback.stdout


def _children(pid: int) -> list[int]:
    """The child processes of ``pid`` (Linux), to end any a failing test would leave."""
    with contextlib.suppress(OSError):
        return [
            int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        ]
    return []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="SIGKILL, /proc")
def test_killing_the_main_process_leaves_nothing_answering_on_its_port(tmp_path):
    environment = _environment(tmp_path / "data", tmp_path / "static")
    port = _free_port()
    server = _Server(environment, port)
    workers: list[int] = []
    try:
        server.wait_for_line("Five Tricks is running")
        assert _answers(port)
        workers = _children(server.process.pid)

        server.process.send_signal(signal.SIGKILL)  # the main process only, not its workers
        server.process.wait(timeout=10)
        deadline = time.monotonic() + 10
        while _answers(port):
            assert time.monotonic() < deadline, "a worker still answers 10 s after its parent died"
            time.sleep(0.2)
    finally:
        server.stop()
        for pid in workers:  # only if the test failed: a worker left serving
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
