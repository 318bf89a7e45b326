"""Shared start-up for the benchmark scripts: a throwaway SQLite database in a temp dir,
and the real server on loopback.

Terms: a *figure* is one measured number a script prints, to be copied with its command
into docs/PERFORMANCE.md. Scripts print; they assert nothing about time.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SERVER_START_SECONDS = 120


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
    from tournament.writes.signin import ensure_organizer

    user, _ = ensure_organizer("bench")
    return user


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _answers(port: int) -> bool:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
    try:
        connection.request("GET", "/bench/hello/")
        return connection.getresponse().status == 200
    except OSError:
        return False
    finally:
        connection.close()


@contextlib.contextmanager
def running_server(data_dir: Path, port: int, *extra: str) -> Iterator[subprocess.Popen]:
    """`manage.py serve` as `make run` starts it (granian, its default workers and threads),
    but on 127.0.0.1 with the bare /bench/hello/ view; stopped on the way out."""
    env = {**os.environ, "FIVETRICKS_DATA_DIR": str(data_dir), "FIVETRICKS_BENCH": "1"}
    log_path = data_dir / "server.log"
    print(f"server log: {log_path}", flush=True)
    with open(log_path, "w") as log:
        server = subprocess.Popen(
            [sys.executable, "manage.py", "serve", "--host", "127.0.0.1", "--port", str(port),
             "--no-rehearsal", *extra],
            cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        try:
            deadline = time.monotonic() + SERVER_START_SECONDS
            while not _answers(port):
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the server did not start; see {log_path}")
                time.sleep(0.2)
            yield server
        finally:
            server.terminate()
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(timeout=10)


@contextlib.contextmanager
def hogging(cores: int) -> Iterator[None]:
    """Other processes keeping ``cores`` cores busy for the whole block, as a shared
    host's neighbours would (issue 41: ``--hog``)."""
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(cores)]
    try:
        yield
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
